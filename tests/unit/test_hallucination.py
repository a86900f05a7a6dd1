"""Per-token confidence on the tiny model: the table shows the backend's own numbers, the sequence
log-probability is the chain rule's, and the pair counts and page helpers are exact."""
import math

import pytest
import torch

from model_backend import SamplingParams, generate
from model_backend.core import stats
from model_backend.lessons import hallucination as cf
from model_backend.types import TokenInfo
from ui.hallucination import compute
from ui.hallucination import draw as view

GREEDY = SamplingParams(temperature=0, max_new_tokens=6)


@pytest.fixture(scope="module")
def gen(tiny_bundle):
    return generate(tiny_bundle, "abc", GREEDY)


@pytest.fixture(scope="module")
def sampled(tiny_bundle):
    return generate(tiny_bundle, "abc", SamplingParams(temperature=1.7, seed=3, max_new_tokens=8))


def test_table_holds_each_steps_raw_probability_rank_entropy_and_top_k(gen):
    rows = cf.token_table(gen)
    assert len(rows) == len(gen.steps) == 6
    for row, step in zip(rows, gen.steps):
        assert row.prob == step.prob and row.rank == step.rank and row.entropy_bits == step.entropy_bits
        assert row.token == step.token and row.alternatives == step.top
        assert row.logprob == step.logprob
        assert row.logprob == pytest.approx(math.log(step.prob), rel=1e-5)  # float32 rounding of either


def test_probability_is_the_softmax_of_the_models_logits(tiny_bundle, gen):
    """Independent check: one forward pass over prompt + completion, softmax at each position."""
    ids = tiny_bundle.tokenizer("abc", add_special_tokens=True)["input_ids"]
    new = [s.token.id for s in gen.steps]
    with torch.inference_mode():
        logits = tiny_bundle.engine.forward(input_ids=torch.tensor([ids + new])).logits[0].float()  # [T, V]
    probs = torch.softmax(logits, dim=-1)
    for k, row in enumerate(cf.token_table(gen)):
        assert row.prob == pytest.approx(float(probs[len(ids) - 1 + k, new[k]]), rel=1e-4)


def test_sequence_logprob_is_the_sum_of_token_logprobs_and_the_chain_rule(tiny_bundle, sampled):
    s = cf.summarize(sampled)
    assert s.seq_logprob == sum(st.logprob for st in sampled.steps)
    # the log of each float32 probability agrees to float32 rounding (~1e-7 relative per token)
    assert s.seq_logprob == pytest.approx(sum(math.log(st.prob) for st in sampled.steps), rel=1e-5)
    ids = tiny_bundle.tokenizer("abc", add_special_tokens=True)["input_ids"]
    new = [st.token.id for st in sampled.steps]
    with torch.inference_mode():
        logits = tiny_bundle.engine.forward(input_ids=torch.tensor([ids + new])).logits[0].float()
    logp = torch.log_softmax(logits, dim=-1)
    whole = sum(float(logp[len(ids) - 1 + k, t]) for k, t in enumerate(new))  # log P(completion | prompt)
    assert s.seq_logprob == pytest.approx(whole, abs=1e-3)


def test_summary_mean_and_weakest_token(sampled):
    s = cf.summarize(sampled)
    probs = [st.prob for st in sampled.steps]
    assert s.n_tokens == len(probs) and s.mean_prob == pytest.approx(sum(probs) / len(probs))
    assert s.min_prob == min(probs) and s.min_index == probs.index(min(probs))
    assert s.min_token == sampled.steps[s.min_index].token


def test_sampled_run_shows_raw_probability_not_the_tempered_one(sampled):
    rows = cf.token_table(sampled)
    assert any(abs(st.sampled_prob - st.prob) > 1e-4 for st in sampled.steps)  # temperature changed them
    assert [r.prob for r in rows] == [st.prob for st in sampled.steps]


def test_a_token_whose_probability_underflows_keeps_a_finite_log_probability():
    """exp(-200) is far below float32's smallest number: the probability rounds to 0 and log(0) would be
    -inf, but log_softmax on the logits gives the true value (float32 rounds it to within 1e-5)."""
    logits = torch.tensor([0.0, -200.0, -1.0], dtype=torch.float32)
    assert float(torch.softmax(logits, dim=-1)[1]) == 0.0  # the underflow this is about
    exact = -200.0 - math.log(1 + math.exp(-1) + math.exp(-200))
    assert stats.log_prob(logits, 1) == pytest.approx(exact, abs=1e-5)
    assert stats.log_prob(logits.reshape(1, -1), 0) == pytest.approx(-math.log(1 + math.exp(-1) + math.exp(-200)), abs=1e-6)


def test_the_table_and_the_sum_use_the_steps_log_probability_not_the_log_of_a_rounded_prob(gen):
    """A step whose probability rounded to 0 (made so here) still counts with its finite log-probability."""
    import dataclasses
    steps = list(gen.steps)
    steps[2] = dataclasses.replace(steps[2], prob=0.0, logprob=-200.0)
    rows = cf.token_table(dataclasses.replace(gen, steps=tuple(steps)))
    assert rows[2].logprob == -200.0
    s = cf.summarize(dataclasses.replace(gen, steps=tuple(steps)))
    assert math.isfinite(s.seq_logprob) and s.seq_logprob == pytest.approx(sum(r.logprob for r in rows))


def test_empty_generation_cannot_be_summarized(gen):
    import dataclasses
    with pytest.raises(ValueError):
        cf.summarize(dataclasses.replace(gen, steps=()))


def _summary(mean, low, lp):
    tok = TokenInfo(id=1, text="x", piece="x", display="x", bytes=(120,), special=False)
    return cf.Summary(n_tokens=3, mean_prob=mean, min_index=0, min_prob=low, min_token=tok, seq_logprob=lp)


def test_pair_comparison_and_tally_count_each_measure():
    pairs = [cf.PairComparison(_summary(0.5, 0.1, -5), _summary(0.3, 0.2, -9)),   # lower mean, lp
             cf.PairComparison(_summary(0.4, 0.2, -6), _summary(0.6, 0.05, -4)),  # lower min only
             cf.PairComparison(_summary(0.4, 0.2, -6), _summary(0.4, 0.2, -6))]   # a tie is not lower
    assert pairs[0].invented_lower_mean and pairs[0].invented_lower_logprob and not pairs[0].invented_lower_min
    assert cf.tally(pairs) == cf.Tally(pairs=3, lower_mean=1, lower_min=1, lower_logprob=1)


def test_mentions_is_case_insensitive_substring():
    assert cf.mentions(" a cidade de PARIS.", ["Paris"]) and not cf.mentions(" Lyon", ["Paris", "Tóquio"])


def test_focus_step_prefers_the_named_token_then_the_weakest(gen):
    rows = cf.token_table(gen)
    named = rows[3].token.text
    first = next(r.index for r in rows if r.token.text == named)
    assert cf.focus_step(rows, named) == first
    assert cf.focus_step(rows, "no such token") == min(rows, key=lambda r: r.prob).index
    assert cf.focus_step((), "x") == 0


# --- the page's frames: what is drawn is the backend's numbers ---------------------------------

def test_chips_show_the_backend_probability_and_the_steps_top_k_in_the_tooltip(sampled):
    rows = cf.token_table(sampled)
    df = view.chip_frame(rows)
    assert df["prob"].tolist() == [st.prob for st in sampled.steps]
    assert df["step"].tolist() == [st.index + 1 for st in sampled.steps]
    for i, st in enumerate(sampled.steps):
        tips = [df.loc[i, f"alt{k + 1}"] for k in range(view.N_ALTERNATIVES)]
        assert tips == [view.alt_line(c) for c in st.top]
        assert len(st.top) == view.N_ALTERNATIVES
    fields = [tip.shorthand for tip in view.chip_tooltip()]
    assert [f"alt{k}:N" for k in range(1, view.N_ALTERNATIVES + 1)] == fields[-view.N_ALTERNATIVES:]


def test_a_generations_chips_are_built_once_and_are_the_chips_of_its_table(sampled):
    """generation_chips(gen) draws what chips_chart(chip_frame(token_table(gen))) draws, and a second visit with
    the same generation (a memo's object) gets the kept chart, without building the table again."""
    from ui.charts import vega_spec

    built = view.generation_chips(sampled, selected=2)
    want = view.chips_chart(view.chip_frame(cf.token_table(sampled)), selected=2)
    assert vega_spec(built) == vega_spec(want)
    calls = []
    original = view.chip_frame
    view.chip_frame = lambda *a, **k: calls.append(1) or original(*a, **k)
    try:
        assert view.generation_chips(sampled, selected=2) is built
    finally:
        view.chip_frame = original
    assert calls == []


def test_chips_wrap_within_every_budget(sampled):
    df = view.chip_frame(cf.token_table(sampled))
    for budget in view.BUDGETS:
        ends = df[f"x_{budget}"] + df["w"]
        assert ((ends <= budget) | (df[f"x_{budget}"] == 0)).all()


def test_alternatives_chart_marks_the_chosen_token(sampled):
    row = cf.token_table(sampled)[0]
    data = view.alternatives_chart(row).data
    assert data["prob"].tolist() == [c.prob for c in row.alternatives]
    assert data["chosen"].tolist() == [c.id == row.token.id for c in row.alternatives]


def test_model_html_stays_text_in_labels():
    c = cf.TokenConfidence(0, TokenInfo(5, "<strong>", "<strong>", "<strong>", (60,), False), 0.5, math.log(0.5),
                           1.0, 1, ())
    df = view.chip_frame((c,))
    assert df.loc[0, "label"] == "<strong>"  # a Vega text mark draws it as characters


@pytest.mark.parametrize("n, m, key", [(8, 8, "all"), (6, 8, "most"), (5, 8, "some"), (4, 8, "none"), (0, 0, "none")])
def test_verdict_follows_the_count(n, m, key):
    assert view.verdict_key(cf.Tally(pairs=m, lower_mean=n, lower_min=0, lower_logprob=0)) == f"hallucination.verdict.{key}"


def test_whole_chance_reads_exp_of_the_logprob():
    assert view.whole_chance(math.log(0.25)).startswith("25")
    assert view.whole_chance(math.log(1 / 616_000)).replace(".", "").replace(",", "").endswith("616000")
    assert view.whole_chance(-math.inf) == "0"
    assert "10^" in view.whole_chance(-60.0)


def test_pairs_data_are_twins_of_the_same_pattern():
    cfg = compute.CONFIG
    assert cfg["presets"][0]["prompt"] == "Albert Einstein nasceu em"
    assert any(p["prompt"] == "O primeiro presidente de Gondwana foi" for p in cfg["presets"])
    ids = [p["id"] for p in cfg["pairs"]]
    assert len(ids) == len(set(ids)) >= 4
    for p in cfg["pairs"]:
        assert p["real"] != p["invented"] and p["answers"]
        assert p["real"].split()[-1] == p["invented"].split()[-1]  # same ending: the same pattern
