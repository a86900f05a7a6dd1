"""The live class's vote rounds (model_backend/lessons/live.py) on the tiny model: the hidden answer comes from the
teacher's token alone, and the sealed payload holds what the model measured on each text."""
import json

import pytest

import model_backend as mb
from model_backend.lessons import live as lv


def test_the_hidden_pick_is_fixed_by_the_token_and_spread_over_the_choices():
    assert lv.secret_pick("tok", "KDXP7M3R", 3, 3) == lv.secret_pick("tok", "KDXP7M3R", 3, 3)  # a reload: the same
    picks = {lv.secret_pick("tok", "KDXP7M3R", n, 3)[0] for n in range(1, 40)}
    assert picks == {0, 1, 2}  # every option comes up over the rounds
    others = [lv.secret_pick(f"other-{i}", "KDXP7M3R", 3, 1000) for i in range(20)]
    assert len(set(others)) == 20  # another token, another answer and seed
    assert all(0 <= seed < 2**31 - 1 for _, seed in others)


def _gen(bundle, prompt, temperature, seed, n=8):
    return mb.generate(bundle, prompt, mb.SamplingParams(temperature=temperature, top_k=0, top_p=1.0,
                                                         max_new_tokens=n, seed=seed))


def test_measure_counts_first_choices_and_averages_the_raw_probabilities(tiny_bundle):
    g = _gen(tiny_bundle, "O gato", 0.0, None)  # greedy: every token is the first choice
    m = lv.measure(g.steps)
    assert m.tokens == len(g.steps) == 8 and m.first_choice == 8
    assert m.mean_prob == pytest.approx(sum(s.prob for s in g.steps) / 8, rel=1e-12)
    hot = lv.measure(_gen(tiny_bundle, "O gato", 5.0, 1).steps)
    assert hot.first_choice == sum(s.rank == 1 for s in _gen(tiny_bundle, "O gato", 5.0, 1).steps)
    assert lv.measure(()) == lv.TextMeasure(0, 0, 0.0)


def test_a_temperature_vote_seals_every_option_and_marks_the_shown_text(tiny_bundle):
    runs = [(t, _gen(tiny_bundle, "Era uma", t, 7)) for t in lv.VOTE_TEMPERATURES]
    sealed = lv.temperature_vote("Era uma", runs, answer=1)
    json.dumps(sealed)  # the room keeps JSON
    assert sealed["vote"] == "temperature" and sealed["answer"] == f"{lv.VOTE_TEMPERATURES[1]:g}"
    assert [r["t"] for r in sealed["rows"]] == [f"{t:g}" for t in lv.VOTE_TEMPERATURES]
    assert [r["shown"] for r in sealed["rows"]] == [False, True, False]
    for row, (_, g) in zip(sealed["rows"], runs):
        assert row["text"] == g.completion and row["first_choice"] == lv.measure(g.steps).first_choice


@pytest.mark.parametrize("twin", [None, "premise"])
def test_a_fact_vote_is_a_fact_only_for_the_real_subject_stating_the_answer(tiny_bundle, twin):
    real, invented = _gen(tiny_bundle, "A capital", 0.0, None), _gen(tiny_bundle, "A vastro", 0.0, None)
    answer = real.completion.strip()[:2] or real.completion  # an answer the real text does state
    pair = {"real": "A capital", "invented": "A vastro", "answers": [answer], **({"twin": twin} if twin else {})}
    shown_real = lv.fact_vote(pair, real, invented, shown_real=True)
    assert shown_real["answer"] == "fact" and [r["shown"] for r in shown_real["rows"]] == [True, False]
    assert [r["which"] for r in shown_real["rows"]] == ["real", twin or "invented"]
    assert lv.fact_vote(pair, real, invented, shown_real=False)["answer"] == "invention"
    missed = lv.fact_vote({**pair, "answers": ["\u2603 never written"]}, real, invented, shown_real=True)
    assert missed["answer"] == "invention" and missed["rows"][0]["fact"] is False  # real subject, wrong fact
    json.dumps(missed)


def test_candidates_hold_the_top_token_and_each_counts_as_its_own_token():
    from tests.tiny import make_tokenizer
    tok = make_tokenizer()
    prompt = "O gato "  # ends in a space: a one-character guess counts as typed
    top = [tok("abcdefghij", add_special_tokens=False)["input_ids"][i] for i in range(10)]
    got = lv.candidate_answers(tok, prompt, top, seed=5)
    assert len(got) == lv.CANDIDATES and "a" in got and len(set(got)) == len(got)
    assert set(got) <= set("abcdefghij")
    for text in got:  # a tap means what typing the same text means
        assert lv.guess_token(tok, prompt, text).id == top["abcdefghij".index(text)]
    assert got == lv.candidate_answers(tok, prompt, top, seed=5)  # seeded: a reload shows the same
    assert lv.candidate_answers(tok, prompt, top[:1], seed=5) == []  # fewer than two: type instead
