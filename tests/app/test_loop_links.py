"""The loop page from a link: the prompt and every sampling setting come back (stop sequences too), the
same settings make the same tokens in another session, hostile values fall back with a notice, and the
downloads hold the steps shown."""
import json

import pytest

from tests.app.download_capture import both
from tests.app.helpers import texts
from tests.app.link_helpers import open_link, query_value, tables

PROMPT = "O gato sentou no"
LINK = {"prompt": PROMPT, "temperature": "0.9", "top_k": "40", "top_p": "0.8", "rep": "1.2", "max_new": "3",
        "seed": "7", "stop": json.dumps(["\\n\\n", "!"]), "lang": "en", "projection": "1"}
KEYS = {"temperature": "loop_temperature", "top_k": "loop_top_k", "top_p": "loop_top_p", "rep": "loop_penalty",
        "max_new": "loop_max_new", "seed": "loop_seed"}


def _settings(at) -> dict:
    return {name: at.session_state[key] for name, key in KEYS.items()}


def _generate(at):
    next(b for b in at.button if b.label == "Generate to the end").click().run()
    assert not at.exception
    return next(reversed(at.session_state["loop_runs"].values()))


def test_a_link_restores_the_settings_and_makes_the_same_tokens(captured):
    at = open_link("loop", LINK)
    assert not at.exception
    assert at.session_state["projection"] is True  # projection mode from the link: every chart drawn in it
    assert at.text_area(key="prompt_loop").value == PROMPT
    assert _settings(at) == {"temperature": 0.9, "top_k": 40, "top_p": 0.8, "rep": 1.2, "max_new": 3, "seed": 7}
    assert at.multiselect(key="loop_stop").value == ["\\n\\n", "!"]
    shown = texts(at)
    assert "T = 0.90 · top-k 40 · top-p 0.80" in shown and "seed 7" in shown  # the settings line
    assert "This link brought the prompt and the settings" in shown  # and says what to press
    assert not [i for i in at.info if "invalid" in i.value]
    assert "loop_runs" not in at.session_state or not any(r.steps for r in at.session_state["loop_runs"].values())
    for name in KEYS:  # the page publishes the same view back
        assert float(query_value(at, name)) == float(LINK[name])
    assert json.loads(query_value(at, "stop")) == ["\\n\\n", "!"]

    run = _generate(at)
    assert run.params.seed == 7 and run.params.top_k == 40 and run.params.stop == ("\n\n", "!")
    assert len(run.steps) <= 3 and run.done
    assert "loop-steps.csv" not in captured  # the files are in a box drawn only while it is open
    captured.clear()
    at.session_state["loop_files_open"] = True
    at.run()
    images = sorted(name for name in captured if name.startswith("token-by-token-chart-"))
    assert len(images) == 6, images  # the candidates, time and KV charts, as PNG and as SVG
    assert all(b"<svg" in captured[name] for name in images if name.endswith(".svg"))
    # The downloads hold the steps the table shows.
    steps = both(captured, "loop-steps")
    table = next(df for df in tables(at) if "phase" in df.columns)
    assert list(steps["token"]) == list(table["token"]) == [s.token.display for s in run.steps]
    assert [f"{100 * p:.1f}%" for p in steps["prob"]] == list(table["probability"])
    assert list(steps["id"]) == [s.token.id for s in run.steps] and steps["completion"].iloc[-1] == run.steps[-1].text
    cand = both(captured, "loop-candidates")
    assert set(cand["step"]) == set(range(1, len(run.steps) + 1))
    chosen = cand[cand["chosen"].astype(str) == "True"]
    assert list(chosen["id"]) == [s.token.id for s in run.steps]
    pos = both(captured, "loop-prompt-positions")
    assert pos["guess_id"].iloc[-1] == run.steps[0].top[0].id  # the last position's guess = step 1's first candidate

    # Another visitor opens the link the page published: same settings, so the same tokens.
    published = {k: query_value(at, k) for k in [*KEYS, "prompt", "stop", "lang"]}
    other = open_link("loop", published)
    again = _generate(other)
    assert [s.token.id for s in again.steps] == [s.token.id for s in run.steps]
    assert again.result.finish_reason == run.result.finish_reason


@pytest.mark.parametrize("value", ["<img src=x onerror=alert(1)>", "nan", "x" * 10_000, "99999999999999999999"])
def test_hostile_link_values_fall_back_with_a_notice(value):
    names = ["prompt", *KEYS, "stop"]
    at = open_link("loop", {**{k: value for k in names}, "lang": "en"})
    assert not at.exception
    notice = " ".join(i.value for i in at.info)
    rejected = [*KEYS, "stop"] + (["prompt"] if len(value) > 2_000 else [])
    for name in rejected:
        assert name in notice, (name, notice)
    assert _settings(at) == {"temperature": 0.7, "top_k": 0, "top_p": 0.9, "rep": 1.0, "max_new": 20, "seed": 42}
    assert at.multiselect(key="loop_stop").value == []
    assert at.text_area(key="prompt_loop").value == ("The capital of France is" if len(value) > 2_000 else value)
    for md in at.markdown:
        assert "<img" not in md.value


def test_a_stop_list_that_is_not_a_list_of_short_strings_is_rejected():
    from ui.loop.draw import stops_from_link

    assert stops_from_link('["\\\\n", ".", "."]') == ["\\n", "."]
    for raw in ('"."', "[1]", '[""]', json.dumps(["x" * 51]), json.dumps(["a"] * 9), "{", '["a\\u0000"]'):
        assert stops_from_link(raw) is None, raw


STEPPED = {"prompt": PROMPT, "temperature": "0.9", "top_p": "0.8", "max_new": "6", "seed": "11", "lang": "en"}


def _next(at, times: int):
    for _ in range(times):
        next(b for b in at.button if b.label == "Next token").click().run()
        assert not at.exception
    return next(reversed(at.session_state["loop_runs"].values()))


def test_the_link_holds_the_step_and_opens_the_run_there():
    """Each click writes the run's step into the link; a link with a step opens the run at that step, with the
    tokens the clicks made (the same seed); Reset writes 0 again."""
    at = open_link("loop", STEPPED)
    assert query_value(at, "steps") == "0"
    clicked = _next(at, 3)
    assert len(clicked.steps) == 3 and query_value(at, "steps") == "3"

    other = open_link("loop", {**STEPPED, "steps": "3"})
    assert not other.exception
    opened = next(reversed(other.session_state["loop_runs"].values()))
    assert [s.token.id for s in opened.steps] == [s.token.id for s in clicked.steps]
    assert query_value(other, "steps") == "3"
    assert "This link brought the prompt and the settings" not in texts(other)  # the tokens are there
    more = _next(other, 1)  # and the run goes on from there, as the first visitor's would
    assert [s.token.id for s in more.steps] == [s.token.id for s in _next(at, 1).steps]

    next(b for b in at.button if b.label == "Start over").click().run()
    assert query_value(at, "steps") == "0"


def test_a_step_past_the_run_s_end_stops_at_the_end_and_a_bad_one_falls_back():
    at = open_link("loop", {**STEPPED, "max_new": "2", "steps": "9"})
    run = next(reversed(at.session_state["loop_runs"].values()))
    assert len(run.steps) <= 2 and run.done  # the run ended at its max_new (or earlier, at a stop)
    bad = open_link("loop", {**STEPPED, "steps": "-4"})
    assert any("steps" in i.value for i in bad.info)  # the notice names it
    runs = bad.session_state["loop_runs"] if "loop_runs" in bad.session_state else {}
    assert not any(r.steps for r in runs.values())  # and the run starts from the prompt


def test_visitors_with_the_same_settings_share_the_steps_and_going_back_computes_nothing():
    """A step is computed once for every visitor with the same model, prompt and settings (the seed included): a
    second visitor's clicks and a link's step show the steps already made without a forward pass, and a link
    with an earlier step (a phone ahead of the teacher going back to her step) shows fewer, computing nothing."""
    from ui import backend

    at = open_link("loop", STEPPED)
    first = _next(at, 4)
    fifth = first.ahead.result(timeout=120)  # the fifth step, computed ahead while the first visitor reads the fourth
    before = backend.forward_passes()
    second = _next(open_link("loop", STEPPED), 3)
    assert [s.token.id for s in second.steps] == [s.token.id for s in first.steps[:3]]
    assert second.steps[2] is first.steps[2] and backend.forward_passes() == before  # shown, not computed
    ahead = open_link("loop", {**STEPPED, "steps": "5"})
    run = next(reversed(ahead.session_state["loop_runs"].values()))
    assert len(run.steps) == 5 and run.steps[4] is fifth  # the step computed ahead, shown
    if run.ahead is not None:
        run.ahead.result(timeout=120)  # the sixth step, now computed ahead for this visitor
    assert backend.forward_passes() <= before + 1
    mid = backend.forward_passes()
    ahead.query_params["steps"] = "2"
    ahead.session_state["_restored_loop"] = False  # the page reads its link again, as a followed step does
    ahead.session_state["_loop_replay"] = 2
    ahead.run()
    assert not ahead.exception
    back = next(reversed(ahead.session_state["loop_runs"].values()))
    assert back is run and len(back.steps) == 2 and query_value(ahead, "steps") == "2"
    assert backend.forward_passes() == mid  # nothing is replayed (and step 3 is made: nothing is computed ahead)
