"""The decoding page in AppTest: it runs in both languages without touching the model's generate(), a link
brings every setting back and the page publishes it again, and hostile text reaches the model's runs and is
shown as text (chart marks, dataframes, st.code), never as Markdown."""
import pytest

from tests.adversarial.cases import HOSTILE_TEXT
from tests.app.helpers import run_page, texts
from tests.app.link_helpers import chart_frames, open_link, query_value

LINK = {"prompt": "Era uma vez um robô que", "w": "8", "n": "30", "seed": "5", "fb": "Eu não sei.", "fbn": "4",
        "fbr": "1.5", "bp": "11", "lang": "en"}  # bp: a prompt the shipped table covers
KEYS = {"w": "decoding_width", "n": "decoding_tokens", "seed": "decoding_seed", "fb": "decoding_sentence",
        "fbn": "decoding_times", "fbr": "decoding_penalty", "bp": "decoding_bench_prompt"}


@pytest.mark.parametrize("lang", ["pt-BR", "en"])
def test_page_runs_in_both_languages(lang):
    at = run_page("decoding", lang=lang)
    assert not at.exception, at.exception
    shown = texts(at)
    assert ("Decoding strategies" if lang == "en" else "Estratégias de decodificação") in shown
    assert not at.get("vega_lite_chart") or len(at.get("vega_lite_chart")) == 1  # only the shipped table's chart
    assert "decoding_ran" not in at.session_state  # nothing ran: the live runs wait for a button


def test_a_link_restores_every_setting_and_is_published_back():
    at = open_link("decoding", LINK)
    assert not at.exception, at.exception
    assert at.text_area(key="prompt_decoding").value == LINK["prompt"]
    got = {name: at.session_state[key] for name, key in KEYS.items()}
    assert got == {"w": 8, "n": 30, "seed": 5, "fb": "Eu não sei.", "fbn": 4, "fbr": 1.5, "bp": 11}
    for name in KEYS:
        assert str(query_value(at, name)) == str(LINK[name])
    assert query_value(at, "prompt") == LINK["prompt"]


def test_bad_link_values_fall_back_with_a_notice():
    at = open_link("decoding", {"w": "7", "n": "1e400", "fbr": "nan", "bp": "-1", "lang": "en"})
    assert not at.exception, at.exception
    assert at.session_state["decoding_width"] == 4 and at.session_state["decoding_tokens"] == 60
    assert any("w" in i.value and "n" in i.value for i in at.info)


def test_hostile_text_runs_and_is_shown_as_text():
    prompt, sentence = HOSTILE_TEXT["md_js_link"], HOSTILE_TEXT["script"]
    at = run_page("decoding", lang="en", timeout=1800, prompt_decoding=prompt, decoding_tokens=20, decoding_width=4,
                  decoding_sentence=sentence, decoding_times=3)
    at.button(key="decoding_go").click().run()
    assert not at.exception, at.exception
    assert at.session_state["_a11y_text"] == "The 5 strategies have finished; the table is ready."  # the live region
    at.button(key="decoding_loop_go").click().run()
    assert not at.exception, at.exception
    for md in at.markdown:
        for marker in ("<script", "javascript:", "[click me]"):
            assert marker not in md.value
    frames = chart_frames(at)
    tokens = " ".join(str(v) for f in frames if "full" in f.columns for v in f["full"])
    assert tokens  # the continuations are drawn as chart marks
    assert len(at.dataframe) >= 2 or len(at.table) >= 2  # metrics and the beam step's candidates
    # the feedback curve's tooltips carry the sentence's tokens as data
    fb = [f for f in frames if "token" in f.columns and "rep" in f.columns]
    assert fb and any("script" in str(v) for v in fb[0]["token"])


def test_the_feedback_panel_moves_the_link_with_it():
    """Section 3 is a fragment: its controls rerun it, and the link (written by the same fragment) follows them."""
    at = open_link("decoding", {"lang": "en", "fbn": "4"})
    assert str(query_value(at, "fbn")) == "4"
    at.slider(key="decoding_times").set_value(9).run()
    assert not at.exception, at.exception
    assert str(query_value(at, "fbn")) == "9"
    share = [t.value for t in at.text if "fbn=9" in t.value]  # the copyable link in the share box
    assert share, [t.value for t in at.text]


def test_the_beam_width_cannot_be_left_empty():
    at = open_link("decoding", {"lang": "en", "w": "8"})
    at.segmented_control(key="decoding_width").set_value(None).run()
    assert not at.exception, at.exception
    assert at.session_state["decoding_width"] in (4, 8, 16)
    assert str(query_value(at, "w")) in ("4", "8", "16")


def test_the_live_recompute_says_what_it_runs():
    """Before its click: the table's dtype, the number of continuations and their length, all from the table."""
    import json
    from pathlib import Path

    shipped = json.loads((Path(__file__).resolve().parents[2] / "assets" / "decoding" / "results.json").read_text())
    at = run_page("decoding", lang="en")
    hint = next(c.value for c in at.caption if "table's settings, seed and precision" in c.value)
    s = shipped["settings"]
    assert f"({shipped['dtype']})" in hint and f"{2 + 3 * s['samples']} completions of {s['tokens']} tokens" in hint


def test_recompute_one_prompt_puts_this_machine_s_run_beside_the_stored_one(monkeypatch):
    """'Recompute' runs the bench's own comparison of the picked prompt: its text, its index as the seed, the
    table's dtype and settings. Each cell is "stored → now", and "now" is what dec.compare_prompt gives for the
    same inputs in this process (same machine: the same numbers). The settings are cut small to keep it quick."""
    import copy

    import ui.i18n
    from model_backend.lessons import decoding as dec
    from ui import backend
    from ui.decoding import compute
    from ui.decoding import draw as view

    data = copy.deepcopy(compute.shipped())
    data["settings"].update(tokens=dec.MIN_NEW, width=2, samples=1)
    monkeypatch.setattr(compute, "shipped", lambda: data)
    picked = data["prompts"][1]
    at = run_page("decoding", lang="en", timeout=900, decoding_bench_prompt=picked["index"])
    assert "decoding_live_ran" not in at.session_state  # nothing runs before the button
    at.button(key="decoding_live_go").click().run()
    assert not at.exception, at.exception

    r = dec.compare_prompt(backend.bundle_for(data["dtype"]), compute.BENCH_PROMPTS[picked["index"]]["text"],
                           new=dec.MIN_NEW, width=2, seed=picked["index"], samples=1)
    monkeypatch.setattr(ui.i18n, "lang", lambda: "en")  # the expected cells, formatted as the page's language
    want = view.live_frame(picked["rows"], {s: r.row(s) for s in dec.STRATEGIES}, 2)
    shown = [d.value for d in at.dataframe if list(d.value.columns) == list(want.columns)]
    assert len(shown) == 1, [list(d.value.columns) for d in at.dataframe]
    assert shown[0].reset_index(drop=True).equals(want)
    caption = texts(at)
    assert data["dtype"] in caption and view.cpu_name(data) in caption
