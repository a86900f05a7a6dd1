"""The nondeterminism page from a link: the prompt and every setting come back (the fresh seeds too, so the
same runs come back in another session), hostile values fall back with a notice, and the downloads hold
the values the page shows."""
import pytest

from tests.app.download_capture import both
from tests.app.helpers import texts
from tests.app.link_helpers import open_link, query_value
from ui.nondeterminism.draw import cell, parse_seeds

PROMPT = "Meu animal favorito é o"  # its first token is spread out at T 0.7: fresh seeds split
FIXED = {"prompt": PROMPT, "temperature": "0.9", "runs": "3", "max_new": "4", "mode": "fixed", "seed": "7",
         "vec": "1000", "a": "0.1", "b": "0.2", "c": "-0.3", "mprompt": "O gato sentou no", "mtokens": "5",
         "run": "1", "lang": "en"}  # run=1: made after a click, so a new prompt's runs come at once
KEYS = {"temperature": "nd_temperature", "runs": "nd_runs", "max_new": "nd_tokens", "mode": "nd_mode",
        "seed": "nd_seed", "vec": "nd_sum_n", "a": "nd_a", "b": "nd_b", "c": "nd_c", "mtokens": "nd_model_tokens"}
DEFAULTS = {"temperature": 0.7, "runs": 5, "max_new": 12, "mode": "fresh", "seed": 42, "vec": 100_000,
            "a": 1e8, "b": -1e8, "c": 1.0, "mtokens": 20}


def _settings(at) -> dict:
    return {name: at.session_state[key] for name, key in KEYS.items()}


def _runs(at):
    return next(df.value for df in at.dataframe if "Generated text" in df.value.columns)


def test_a_link_restores_every_setting_and_the_downloads_hold_what_is_shown(captured):
    at = open_link("nondeterminism", FIXED)
    assert not at.exception
    assert at.text_area(key="prompt_nondeterminism").value == PROMPT
    assert at.text_input(key="nd_model_prompt").value == "O gato sentou no"
    assert _settings(at) == {"temperature": 0.9, "runs": 3, "max_new": 4, "mode": "fixed", "seed": 7, "vec": 1000,
                             "a": 0.1, "b": 0.2, "c": -0.3, "mtokens": 5}
    assert not [i for i in at.info if "invalid" in i.value]
    for name in KEYS:  # the page publishes the same view back (no fresh seeds: the seed is fixed)
        assert str(query_value(at, name)) == str(at.session_state[KEYS[name]])
    assert query_value(at, "prompt") == PROMPT and "seeds" not in at.query_params

    runs = _runs(at)
    assert list(runs["Seed"]) == ["7", "7", "7"] and runs["Generated text"].nunique() == 1
    got = both(captured, "nondeterminism-runs")
    assert [cell(x) for x in got["text"]] == list(runs["Generated text"])
    assert list(got["seed"]) == [7, 7, 7] and set(got["finish_reason"]) <= {"length", "stop", "stop_sequence"}
    assert list(got["temperature"]) == [0.9] * 3
    shown = texts(at)  # 0.1, 0.2, -0.3 in float32: 0 one way, -7.45e-09 the other
    assert "(a + b) + c = **0**" in shown and "The two groupings give different results." in shown

    sums = both(captured, "nondeterminism-sums")
    shown = next(df.value for df in at.dataframe if "float32 total" in df.value.columns)
    assert list(sums["label"]) == list(shown["Order"]) and set(sums["n"]) == {1000}
    assert [f"{x:,.4f}" for x in sums["total"]] == list(shown["float32 total"])
    assert (abs(sums["total"] - sums["exact"] - sums["error"]) < 1e-6).all()
    assoc = both(captured, "nondeterminism-associativity")
    table = next(df.value for df in at.dataframe if "Equal?" in df.value.columns)
    assert [str(bool(x)) for x in assoc["equal"]] == [str(x == "yes") for x in table["Equal?"]]
    assert len(assoc) == len(table)

    # Another visitor opens the link the page published: the same runs.
    other = open_link("nondeterminism", {k: query_value(at, k) for k in at.query_params})
    assert list(_runs(other)["Generated text"]) == list(runs["Generated text"])


def test_a_link_carries_the_fresh_seeds_so_the_same_runs_and_tree_come_back(captured):
    link = {"prompt": PROMPT, "temperature": "0.7", "runs": "5", "max_new": "4", "seeds": "1,2,3,4,5", "run": "1",
            "lang": "en"}
    at = open_link("nondeterminism", link)
    assert not at.exception
    runs = _runs(at)
    assert list(runs["Seed"]) == ["1", "2", "3", "4", "5"] and query_value(at, "seeds") == "1,2,3,4,5"
    assert runs["Generated text"].nunique() > 1  # fresh seeds: the runs split
    branches = both(captured, "nondeterminism-branches")
    shown = next(df.value for df in at.dataframe if "Branch text" in df.value.columns)
    assert list(branches["branch"]) == list(shown["Branch"]) and list(branches["runs"]) == list(shown["Runs"])
    assert [cell(x) for x in branches["text"]] == list(shown["Branch text"])
    split = both(captured, "nondeterminism-split")
    choices = next(df.value for df in at.dataframe if "Chosen token" in df.value.columns)
    assert list(split["choice"]) == list(choices["Chosen token"]) and len(set(split["position"])) == 1

    other = open_link("nondeterminism", {k: query_value(at, k) for k in at.query_params})
    assert list(_runs(other)["Generated text"]) == list(runs["Generated text"])
    assert list(_runs(other)["Seed"]) == ["1", "2", "3", "4", "5"]
    fewer = open_link("nondeterminism", {**link, "runs": "3"})  # more seeds than runs: the first ones
    assert list(_runs(fewer)["Generated text"]) == list(runs["Generated text"])[:3]


@pytest.mark.parametrize("value", ["<img src=x onerror=alert(1)>", "1e40", "x" * 10_000])
def test_hostile_link_values_fall_back_with_a_notice(value):
    names = ["prompt", *KEYS, "seeds", "mprompt"]
    at = open_link("nondeterminism", {**{k: value for k in names}, "lang": "en"})
    assert not at.exception
    notice = " ".join(i.value for i in at.info)
    rejected = [*KEYS, "seeds"] + (["prompt", "mprompt"] if len(value) > 2_000 else [])
    for name in rejected:
        assert name in notice, (name, notice)
    assert _settings(at) == DEFAULTS
    assert at.text_area(key="prompt_nondeterminism").value == ("The capital of France is" if len(value) > 2_000 else value)
    assert at.text_input(key="nd_model_prompt").value == ("The capital of France is" if len(value) > 2_000 else value)
    for md in at.markdown:
        assert "<img" not in md.value


def test_the_model_comparison_download_holds_the_figures_shown(captured):
    at = open_link("nondeterminism", {"runs": "2", "max_new": "4", "mprompt": "O gato sentou no", "mtokens": "4",
                                      "lang": "en"})
    assert at.text_input(key="nd_model_prompt").value == "O gato sentou no" and not at.metric  # waits for a click
    at.button(key="nd_compare").click().run()
    assert not at.exception
    got = both(captured, "nondeterminism-model-two-ways")
    metrics = [m.value for m in at.metric if m.label == "Largest logit difference"]
    per_comparison = got.drop_duplicates("comparison")
    assert len(per_comparison) == len(metrics) >= 2
    for diff, shown in zip(per_comparison["max_abs_logit_diff"], metrics):
        assert f"{diff:,.{6 if diff < 0.01 else 4}f}" == shown
    codes = [c.value for c in at.code]
    for text in got["text"]:
        assert text in codes  # each way's continuation, as shown
    assert all(len(ids.split()) <= 4 for ids in got["token_ids"])


def test_a_seeds_value_must_be_one_to_eight_seeds_in_range():
    assert parse_seeds("1,2, 3") == [1, 2, 3] and parse_seeds(str(2**31 - 1)) == [2**31 - 1]
    for raw in ("", "1,,2", "-1", "1.5", str(2**31), ",".join(["1"] * 9), "١,٢", "1;2", "x" * 10_000, "<b>1</b>"):
        assert parse_seeds(raw) is None, raw
