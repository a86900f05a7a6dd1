"""The nondeterminism page in AppTest: both languages, seeds, greedy, the tree, the model two ways."""
import time

import pytest

from tests.app.helpers import run_page, texts

# At temperature 0.7 this prompt's first token is spread out: five runs share it with probability
# <= sum(p_i^5) = 3.5e-4 (measured in tests/integration/test_nondeterminism_real.py), so fresh seeds split.
OPEN_PROMPT = "Meu animal favorito é o"
SMALL = {"nd_runs": 3, "nd_tokens": 4}


def runs_frame(at):
    return at.dataframe[0].value


def _ask(at) -> None:
    """A prompt nobody has run with these settings waits for a click: give it (no button: already run)."""
    if any(b.key == "nd_go" for b in at.button):
        at.button(key="nd_go").click().run()


@pytest.mark.parametrize("lang, title, no", [("pt-BR", "Por que o mesmo prompt", "não"), ("en", "Why the same prompt", "no")])
def test_page_renders_in_both_languages(lang, title, no):
    at = run_page("nondeterminism", lang=lang, **SMALL)
    assert not at.exception
    shown = texts(at)
    assert title in shown and "finish_reason" in shown
    assert len(runs_frame(at)) == 3
    assoc = at.dataframe[-2].value  # (a + b) + c against a + (b + c), then the ordered sums
    assert list(assoc.iloc[:, 5]) == [no, no, no]
    sums = at.dataframe[-1].value
    assert len(sums) == 6 and sums.iloc[:, 1].nunique() >= 3  # six orders, at least three different totals
    assert at.button(key="nd_compare")  # the model comparison waits for a click


def test_the_same_seed_gives_identical_runs_and_greedy_too():
    at = run_page("nondeterminism", lang="en", prompt=OPEN_PROMPT, **SMALL)
    at.radio(key="nd_mode").set_value("fixed").run()
    _ask(at)
    assert not at.exception
    df = runs_frame(at)
    assert df["Generated text"].nunique() == 1 and df["Seed"].nunique() == 1
    assert "the same seed repeats the same draws" in texts(at)
    at.slider(key="nd_temperature").set_value(0.0).run()
    df = runs_frame(at)
    assert df["Generated text"].nunique() == 1 and set(df["Seed"]) == {"none (greedy)"}
    assert "nothing is drawn" in texts(at)


def test_fresh_seeds_split_and_the_tree_shows_the_branches():
    at = run_page("nondeterminism", lang="en", prompt=OPEN_PROMPT, nd_runs=5, nd_tokens=4)
    _ask(at)
    assert not at.exception
    df = runs_frame(at)
    assert df["Seed"].nunique() == 5
    shown = texts(at)
    assert "part at" in shown or "already part" in shown
    charts = at.get("vega_lite_chart")
    assert len(charts) >= 2 and "Position of the generated token" in charts[0].proto.spec  # the tree first
    branches = at.dataframe[2].value  # runs, choices at the split, then the branch table
    assert "Branch text" in branches.columns and len(branches) >= 3
    seeds_before = list(df["Seed"])
    assert [str(s) for s in seeds_before] == ["1", "2", "3", "4", "5"]  # every visitor's first draw: one cache entry
    said = at.session_state["_a11y_said"]  # the live region was told the runs are ready...
    assert said[0] == "nondeterminism" and said[-1] == (1, 2, 3, 4, 5)
    at.button(key="nd_redraw").click().run()
    assert list(runs_frame(at)["Seed"]) != seeds_before  # "draw again" draws new seeds
    assert at.session_state["_a11y_said"] != said  # ...and again for the new draw


def test_bad_prompts_show_a_message_and_nothing_breaks():
    at = run_page("nondeterminism", lang="en", prompt="   ", **SMALL)
    assert not at.exception and at.warning  # empty prompt: a message, no runs
    at.text_input(key="nd_model_prompt").set_value("").run()
    at.button(key="nd_compare").click().run()
    assert not at.exception and len(at.warning) >= 2


def test_the_model_two_ways_reports_a_nonzero_float32_bfloat16_difference():
    at = run_page("nondeterminism", lang="en", nd_model_tokens=4, **SMALL)
    at.button(key="nd_compare").click().run()
    assert not at.exception
    diffs = [m for m in at.metric if m.label == "Largest logit difference"]
    assert len(diffs) >= 2  # float32 vs bfloat16, alone vs in a batch (and CPU vs GPU where CUDA is present)
    assert float(diffs[0].value.replace(",", "")) > 0  # float32 against bfloat16: never exactly equal
    assert "float32 vs bfloat16" in texts(at)
    assert at.code  # the continuations, shown as text


def test_your_own_numbers_are_added_both_ways_in_float32():
    at = run_page("nondeterminism", lang="en", **SMALL)
    assert "The two groupings give different results." in texts(at)  # 1e8, -1e8, 1 by default
    for key, value in (("nd_a", 1.0), ("nd_b", 2.0), ("nd_c", 3.0)):
        at.number_input(key=key).set_value(value)
    at.run()
    assert not at.exception
    shown = texts(at)
    assert "both groupings agree" in shown and "(a + b) + c = **6**" in shown


def test_a_new_prompt_runs_nothing_until_the_click_and_then_its_link_shows_the_runs():
    """A visit with a prompt nobody has used runs no model pass (the button waits); the click runs it and from
    then on this visitor's changes run at once; the published link says so (run=1), and another visitor with
    the first link (no run=1) finds the runs made and sees them without a click."""
    from tests.app.link_helpers import open_link, query_value
    from ui import backend

    prompt = f"Uma visita fria às {time.time_ns()}"
    before = []
    at = open_link("nondeterminism", {"prompt": prompt, "runs": "2", "max_new": "4", "lang": "en"},
                   after_home=lambda: before.append(backend.forward_passes()))
    before = before[0]
    assert not at.exception
    assert backend.forward_passes() == before  # nothing ran on this page
    assert not any("Generated text" in df.value.columns for df in at.dataframe)
    assert "has not run with these settings yet" in texts(at) and query_value(at, "run") == "0"
    at.button(key="nd_go").click().run()
    assert not at.exception and backend.forward_passes() > before
    assert len(runs_frame(at)) == 2 and query_value(at, "run") == "1"
    at.slider(key="nd_tokens").set_value(5).run()  # once asked, a new setting runs without another click
    assert not any(b.key == "nd_go" for b in at.button) and len(runs_frame(at)) == 2
    passes = []
    other = open_link("nondeterminism", {"prompt": prompt, "runs": "2", "max_new": "4", "lang": "en"},
                      after_home=lambda: passes.append(backend.forward_passes()))
    assert not any(b.key == "nd_go" for b in other.button) and len(runs_frame(other)) == 2  # already made
    assert backend.forward_passes() == passes[0]
