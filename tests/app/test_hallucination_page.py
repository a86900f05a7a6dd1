"""The hallucination page with the real model (float32): both languages, the seed's Einstein example
first, chips carrying the backend's probabilities and top-k, the step slider, sampled mode, HTML as text."""
import math
import time

import pytest

from model_backend import SamplingParams
from model_backend.core.tokens import visible
from model_backend.lessons import hallucination as cf
from tests.app.helpers import texts
from tests.app.link_helpers import chart_frames, open_link
from ui import backend
from ui.hallucination import compute, draw

EINSTEIN = "Albert Einstein nasceu em"


def _page(lang: str):
    at = open_link("hallucination", {"lang": lang})
    assert not at.exception, at.exception
    return at


def _run(prompt: str, n: int, **kw):
    """The Generation the page drew: the same memo the page filled (no new forward pass)."""
    params = SamplingParams(temperature=0, max_new_tokens=n) if not kw else SamplingParams(max_new_tokens=n, **kw)
    gen = compute.cached(prompt, params, "float32")
    assert gen is not None, "the page did not run this generation"
    return gen


def _chips(at):
    return [f for f in chart_frames(at) if "alt1" in f.columns]


@pytest.mark.parametrize("lang, title, truth", [("pt-BR", "Alucinação e confiança", "Württemberg"),
                                                ("en", "Hallucination and confidence", "Württemberg")])
def test_page_opens_on_the_einstein_example_in_both_languages(lang, title, truth):
    at = _page(lang)
    shown = texts(at)
    assert title in shown and truth in shown
    assert at.text_area(key="prompt_hallucination").value == EINSTEIN
    gen = _run(EINSTEIN, 24)
    assert at.code[0].value == EINSTEIN + gen.completion  # the completion, shown as text
    # the first chips chart is this completion: displayed probability = the backend's raw softmax probability
    chips = _chips(at)[0]
    assert chips["prob"].tolist() == [s.prob for s in gen.steps]
    for i, step in enumerate(gen.steps):  # the tooltip's alternatives are that step's top-k, in order
        for k, c in enumerate(step.top):
            label, pct = chips.loc[i, f"alt{k + 1}"].rsplit("   ", 1)
            assert label == (visible(c.text) or "∅")
            assert float(pct.rstrip("%").replace(",", ".")) == pytest.approx(100 * c.prob, abs=0.051)
    # the step slider opens on the preset's focus token when the model wrote it, else the weakest token
    rows = cf.token_table(gen)
    assert at.select_slider[0].value == cf.focus_step(rows, " Paris")
    summary = cf.summarize(gen)
    number = [float(m.value.rstrip("%").replace(",", ".")) for m in at.metric]  # 57,1% / 57.1%
    assert number[0] == pytest.approx(100 * summary.mean_prob, abs=0.051)
    assert number[1] == pytest.approx(100 * summary.min_prob, abs=0.051)
    said = at.session_state["_a11y_text"]  # the live region was told the generation ended, with its mean
    assert str(len(gen.steps)) in said and at.metric[0].value in said, said
    assert number[2] == pytest.approx(summary.seq_logprob, abs=0.0051)
    assert summary.seq_logprob == pytest.approx(sum(math.log(s.prob) for s in gen.steps), rel=1e-5)  # float32 rounding
    # the pair section and its live count are there, with numbers that match the pairs
    runs = compute.run_pairs("float32")
    tally = cf.tally([r.comparison for r in runs])
    of = "de" if lang == "pt-BR" else "of"
    assert f"**{tally.lower_mean} {of} {tally.pairs}**" in shown
    # HAL-1: the "a threshold would separate" sentence exactly when one does, for these runs
    separates = "um limiar separaria" if lang == "pt-BR" else "a threshold would separate"
    assert (separates in shown) == (draw.separation(runs) is not None)
    # HAL-5: the Gondwana twin is drawn as a false premise about a real subject, not an invented subject
    premise = "assunto real, premissa falsa" if lang == "pt-BR" else "real subject, false premise"
    kinds = {k for f in chart_frames(at) if "kind" in f.columns for k in f["kind"]}
    assert premise in kinds, kinds


def test_moving_the_step_slider_runs_no_forward_pass():
    at = _page("en")
    before = backend.forward_passes("float32")
    slider = at.select_slider[0]
    want = 0 if slider.value != 0 else 1
    slider.set_value(want).run()  # the raw value: a step index
    assert not at.exception
    assert backend.forward_passes("float32") == before
    assert at.select_slider[0].value == want and f"At step **{want + 1}**" in texts(at)


def test_sampled_mode_shows_raw_probabilities_and_redraws():
    at = _page("en")
    at.number_input(key="hallucination_n").set_value(6).run()
    at.button_group(key="hallucination_mode").set_value("sampled").run()
    assert not at.exception
    assert any("original" in i.value for i in at.info)
    gen = _run(EINSTEIN, 6, temperature=1.0, seed=0)
    assert _chips(at)[0]["prob"].tolist() == [s.prob for s in gen.steps]
    redraw = next(b for b in at.button if "Draw again" in b.label)
    redraw.click().run()
    assert at.number_input(key="hallucination_seed").value == 1
    assert not at.exception


def _ask(at) -> None:
    """A prompt nobody has run with these settings waits for a click: give it (no button: already run)."""
    if any(b.key == "hallucination_go" for b in at.button):
        at.button(key="hallucination_go").click().run()


def test_model_html_is_shown_as_text():
    """This model writes '<strong>' after 'A capital da Zemúria é a cidade de' (a pair prompt)."""
    at = _page("en")
    at.text_area(key="prompt_hallucination").set_value("A capital da Zemúria é a cidade de").run()
    at.number_input(key="hallucination_n").set_value(10).run()
    _ask(at)
    assert not at.exception
    gen = _run("A capital da Zemúria é a cidade de", 10)
    assert at.code[0].value.endswith(gen.completion)
    for md in at.markdown:
        assert gen.completion.strip() not in md.value
        assert "<strong>" not in md.value and "<script>" not in md.value


def test_bad_prompts_get_a_message_and_the_pairs_stay():
    at = _page("en")
    at.text_area(key="prompt_hallucination").set_value("   ").run()
    assert not at.exception
    assert any("empty" in w.value for w in at.warning)
    assert f"What the {len(compute.CONFIG['pairs'])} pairs show" in texts(at)
    at.text_area(key="prompt_hallucination").set_value("<script>alert(1)</script>").run()
    _ask(at)
    assert not at.exception
    assert at.code[0].value.startswith("<script>alert(1)</script>")


def test_a_new_prompt_runs_nothing_until_the_click_and_a_link_made_after_it_runs_at_once():
    """A prompt nobody has run waits for "Generate and measure" (no forward pass, no memo entry); the click runs
    it, the published link says run=1, and a visitor opening that link with another new prompt gets its run
    without a click. The Einstein preset still runs at once (test above)."""
    from tests.app.link_helpers import query_value

    _page("en")  # the pairs below every prompt are computed once per process: not this test's subject
    prompt = f"Uma visita fria às {time.time_ns()} foi"
    before = []
    at = open_link("hallucination", {"prompt": prompt, "n": "4", "lang": "en"},
                   after_home=lambda: before.append(backend.forward_passes("float32")))
    before = before[0]
    assert not at.exception
    assert backend.forward_passes("float32") == before and compute.cached(prompt, SamplingParams(temperature=0, max_new_tokens=4), "float32") is None
    assert "has not run with these settings yet" in texts(at) and query_value(at, "run") == "0"
    assert f"What the {len(compute.CONFIG['pairs'])} pairs show" in texts(at)  # the rest of the page is there
    at.button(key="hallucination_go").click().run()
    assert not at.exception and backend.forward_passes("float32") > before
    gen = _run(prompt, 4)
    assert at.code[0].value == prompt + gen.completion and query_value(at, "run") == "1"
    other = open_link("hallucination", {"prompt": prompt + " e", "n": "4", "run": "1", "lang": "en"})
    assert not any(b.key == "hallucination_go" for b in other.button)
    assert other.code[0].value == prompt + " e" + _run(prompt + " e", 4).completion
