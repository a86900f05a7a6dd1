"""The temperature page's math on hand-made logits: the seed's table, parsing, the chain's stages,
the top-p nucleus, entropy, seeded draws and loop detection. Exact values; no model."""
import math

import numpy as np
import pytest
import torch
from transformers import (
    LogitsProcessorList,
    RepetitionPenaltyLogitsProcessor,
    TemperatureLogitsWarper,
    TopKLogitsWarper,
    TopPLogitsWarper,
)

from model_backend import InvalidInput, SamplingParams
from model_backend.core import stats
from model_backend.lessons import temperature as sv

RNG = np.random.default_rng(0)
LOGITS = (RNG.standard_normal(500) * 2.5).astype(np.float32)  # a made-up 500-token vocabulary


# ---------------------------------------------------------------- the seed's worked example

def test_seed_table_to_the_percent_with_the_one_documented_exception():
    rows = {r.temperature: r for r in sv.temperature_table(sv.SEED_LOGITS)}
    assert [round(100 * p, 1) for p in rows[1.0].probs] == [65.9, 24.2, 9.9]
    assert [round(100 * p, 1) for p in rows[0.5].probs] == [86.4, 11.7, 1.9]
    assert [round(100 * p, 1) for p in rows[2.0].probs] == [50.2, 30.4, 19.4]
    assert rows[1.0].rounded == (66, 24, 10) == rows[1.0].seed_pct and rows[1.0].mismatches == ()
    assert rows[0.5].rounded == (86, 12, 2) == rows[0.5].seed_pct and rows[0.5].mismatches == ()
    # exact C at T=2 is 19.4%; the seed prints 20 so that its row adds up to 100
    assert rows[2.0].rounded == (50, 30, 19) and rows[2.0].seed_pct == (50, 30, 20)
    assert rows[2.0].mismatches == (2,)


def test_other_logits_have_no_seed_column():
    rows = sv.temperature_table((3.0, 0.0))
    assert all(r.seed_pct is None and r.mismatches == () for r in rows)
    assert rows[0].probs[0] == pytest.approx(1 / (1 + np.exp(-3.0)))


def test_top_prob_curve_against_the_seeds_points():
    curve = dict(sv.top_prob_curve(sv.SEED_LOGITS, tuple(sv.SEED_CURVE)))
    exact = {t: round(100 * p, 1) for t, p in curve.items()}
    assert exact == {0.1: 100.0, 0.3: 96.4, 0.5: 86.4, 0.7: 76.6, 1.0: 65.9, 1.5: 55.7, 2.0: 50.2}
    # the seed's hand-drawn line is within 1.5 points everywhere, and falls as T grows, like the exact one
    assert all(abs(exact[t] - sv.SEED_CURVE[t]) <= 1.5 for t in exact)
    values = [curve[t] for t in sorted(curve)]
    assert values == sorted(values, reverse=True)
    assert sv.top_prob_curve((1.0, 1.0, 1.0), (0.5,))[0][1] == pytest.approx(1 / 3)


@pytest.mark.parametrize("text, expected", [
    ("2.0, 1.0, 0.1", (2.0, 1.0, 0.1)),
    ("2,0; 1,0; 0,1", (2.0, 1.0, 0.1)),
    ("2,0 · 1,0 · 0,1", (2.0, 1.0, 0.1)),
    ("3 2 1 0 -1.5", (3.0, 2.0, 1.0, 0.0, -1.5)),
    ("  1e1\n2  ", (10.0, 2.0)),
])
def test_parse_logits_accepts_both_decimal_styles(text, expected):
    assert sv.parse_logits(text) == expected


@pytest.mark.parametrize("text, key", [
    ("", "logits_count"), ("5", "logits_count"), (" ".join(["1"] * 11), "logits_count"),
    ("2, abc", "logits_number"), ("nan 1", "logits_number"), ("inf 1", "logits_number"),
    ("1e400 1", "logits_number"), ("<script>alert(1)</script> 1", "logits_number"), ("2,1,0.1", "logits_number"),
    ("1 \u200b2", "logits_number"),
])
def test_parse_logits_refuses_with_a_message_key(text, key):
    with pytest.raises(InvalidInput) as err:
        sv.parse_logits(text)
    assert err.value.key == key


# ---------------------------------------------------------------- the chain

def _reference(params, ctx, logits):
    """generate()'s processors, built by hand in generate()'s order."""
    procs = LogitsProcessorList()
    if params.repetition_penalty != 1:
        procs.append(RepetitionPenaltyLogitsProcessor(params.repetition_penalty))
    procs.append(TemperatureLogitsWarper(params.temperature))
    procs.append(TopKLogitsWarper(params.top_k))
    procs.append(TopPLogitsWarper(params.top_p))
    return torch.softmax(procs(ctx, torch.tensor(logits).reshape(1, -1).clone()), -1)[0].numpy()


def test_chain_view_stages_equal_the_processors_in_generates_order():
    ctx = [3, 7, 7, 42]
    params = SamplingParams(temperature=0.7, top_k=40, top_p=0.9, repetition_penalty=1.3)
    view = sv.chain_view(LOGITS, params, ctx, top_n=20)
    assert [s.name for s in view.stages] == ["raw", "repetition_penalty", "temperature", "top_k", "top_p"]
    ids = np.argsort(-LOGITS, kind="stable")[:20]
    assert set(view.ids.tolist()) == set(ids.tolist())
    # stage by stage, with the transformers processors applied one after another
    x = torch.tensor(LOGITS).reshape(1, -1)
    c = torch.tensor([ctx])
    expected = [torch.softmax(x, -1)]
    for proc in (RepetitionPenaltyLogitsProcessor(1.3), TemperatureLogitsWarper(0.7), TopKLogitsWarper(40),
                 TopPLogitsWarper(0.9)):
        x = proc(c, x.clone())
        expected.append(torch.softmax(x, -1))
    for stage, probs in zip(view.stages, expected):
        np.testing.assert_allclose(stage.probs, probs[0, view.ids].numpy(), rtol=1e-6, atol=1e-9)
        assert stage.kept == int((probs > 0).sum())
    np.testing.assert_allclose(view.final, _reference(params, c, LOGITS), rtol=1e-6, atol=1e-9)
    assert view.final.sum() == pytest.approx(1.0, abs=1e-5)
    assert view.stages[-1].kept <= 40 and view.stages[3].kept == 40
    np.testing.assert_allclose(view.before_cut, expected[2][0, view.ids].numpy(), rtol=1e-6)


def test_chain_view_does_not_touch_the_cached_logits():
    before = LOGITS.copy()
    sv.chain_view(LOGITS, SamplingParams(temperature=0.5, top_k=5, top_p=0.5, repetition_penalty=2.0), [1, 2])
    assert np.array_equal(before, LOGITS)


def test_greedy_is_one_hot_on_the_penalised_argmax():
    logits = np.array([3.0, 2.9, 0.0, -1.0], dtype=np.float32)
    view = sv.chain_view(logits, SamplingParams(temperature=0, top_k=1, top_p=0.1), context_ids=[], top_n=4)
    assert [s.name for s in view.stages] == ["raw", "greedy"]
    assert view.final.tolist() == [1.0, 0.0, 0.0, 0.0]
    # token 0 already in the text: the penalty 1.5 makes it 2.0 < 2.9, so greedy takes token 1
    view = sv.chain_view(logits, SamplingParams(temperature=0, repetition_penalty=1.5), context_ids=[0], top_n=4)
    assert [s.name for s in view.stages] == ["raw", "repetition_penalty", "greedy"]
    assert view.final.tolist() == [0.0, 1.0, 0.0, 0.0]


def _smallest_set_reaching(probs: np.ndarray, p: float) -> int:
    """The definition, written out: the fewest most-likely tokens whose probabilities add to >= p."""
    cum = np.cumsum(np.sort(probs.astype(np.float64))[::-1])
    return int(np.searchsorted(cum, p - 1e-6) + 1)


@pytest.mark.parametrize("temperature", [0.5, 1.0, 1.7])
@pytest.mark.parametrize("p", [0.3, 0.5, 0.8, 0.9, 0.95])
def test_top_p_keeps_the_smallest_set_reaching_p(temperature, p):
    size = sv.nucleus_size(LOGITS, temperature, p)
    probs = torch.softmax(torch.tensor(LOGITS) / temperature, -1).numpy()
    assert size == _smallest_set_reaching(probs, p)
    kept = np.sort(probs)[::-1][:size]
    assert kept.sum() >= p - 1e-6 and kept[:-1].sum() < p  # reaches p, and one fewer would not


def test_nucleus_is_adaptive_and_temperature_moves_it():
    confident = np.full(500, -5.0, dtype=np.float32)
    confident[0] = 8.0
    assert sv.nucleus_size(confident, 1.0, 0.9) == 1
    assert sv.nucleus_size(np.zeros(500, dtype=np.float32), 1.0, 0.9) == 450  # flat: 90% of the tokens
    row = sv.nucleus_row(LOGITS, 1.0, (0.5, 0.8, 0.9, 0.95))
    assert list(row) == sorted(row) and row[0] < row[-1]
    assert sv.nucleus_size(LOGITS, 0.5, 0.9) < sv.nucleus_size(LOGITS, 1.0, 0.9) < sv.nucleus_size(LOGITS, 2.0, 0.9)
    assert sv.nucleus_size(LOGITS, 0, 0.9) == 1  # greedy


def test_entropy_curve_rises_with_temperature():
    curve = sv.entropy_curve(LOGITS, [0, 0.25, 0.5, 1.0, 2.0, 100.0])
    values = [h for _, h in curve]
    assert values[0] == 0.0 and values == sorted(values)
    p = torch.softmax(torch.tensor(LOGITS), -1).double()
    assert dict(curve)[1.0] == pytest.approx(float(-(p * torch.log2(p)).sum()), rel=1e-6)
    assert values[-1] == pytest.approx(np.log2(500), abs=0.05)  # very hot: almost uniform


def test_entropy_curve_uses_the_penalty():
    """Penalty 2 on token 0 (in the context): its logit 2 becomes 2 / 2 = 1, the others stay; the entropy at
    each T is that of softmax([1, 2, 0] / T), to float32 rounding (rel 1e-6)."""
    logits = np.array([2.0, 2.0, 0.0], dtype=np.float32)

    def bits(scores, t):
        p = torch.softmax(torch.tensor(scores, dtype=torch.float64) / t, -1)
        return float(-(p * torch.log2(p)).sum())

    plain = dict(sv.entropy_curve(logits, [0.5, 1.0]))
    penalised = dict(sv.entropy_curve(logits, [0.5, 1.0], context_ids=[0], repetition_penalty=2.0))
    for t in (0.5, 1.0):
        assert plain[t] == pytest.approx(bits([2.0, 2.0, 0.0], t), rel=1e-6)
        assert penalised[t] == pytest.approx(bits([1.0, 2.0, 0.0], t), rel=1e-6)
    negative = dict(sv.entropy_curve(np.array([-1.0, 2.0, 0.0], dtype=np.float32), [1.0], context_ids=[0],
                                     repetition_penalty=2.0))
    assert negative[1.0] == pytest.approx(bits([-2.0, 2.0, 0.0], 1.0), rel=1e-6)  # a negative logit is multiplied


# ---------------------------------------------------------------- draws

def test_draws_are_seeded_and_follow_the_distribution():
    view = sv.chain_view(LOGITS, SamplingParams(temperature=1.0, top_k=10), top_n=10)
    a = sv.draw_samples(view.final, view.ids, 1000, seed=7)
    b = sv.draw_samples(view.final, view.ids, 1000, seed=7)
    c = sv.draw_samples(view.final, view.ids, 1000, seed=8)
    assert np.array_equal(a.counts, b.counts) and not np.array_equal(a.counts, c.counts)
    assert a.counts.sum() + a.other_count == 1000 and a.other_count == 0  # top-k 10: nothing else exists
    assert a.seed == 7 and a.distinct <= 10
    # observed frequencies are within 5 standard errors of the probabilities
    se = np.sqrt(a.probs * (1 - a.probs) / 1000)
    assert np.all(np.abs(a.counts / 1000 - a.probs) <= 5 * se + 1e-9)
    # the same thing torch.multinomial gives when generate() draws one token at a time with this seed
    g = torch.Generator().manual_seed(7)
    drawn = torch.multinomial(torch.tensor(view.final), 1000, replacement=True, generator=g)
    assert int((drawn == int(view.ids[0])).sum()) == int(a.counts[0])


@pytest.mark.filterwarnings("error:The given NumPy array is not writable")  # torch says it once a process
def test_draws_take_a_shared_memos_read_only_arrays():
    """The page's chain view comes from a shared memo: its arrays are read-only. The draw copies them into torch
    (CI's warnings summary showed torch's non-writable-array warning here) and gives the same counts."""
    view = sv.chain_view(LOGITS, SamplingParams(temperature=1.0, top_k=10), top_n=10)
    final, ids = np.array(view.final), np.array(view.ids)
    want = sv.draw_samples(final, ids, 500, seed=3)
    final.flags.writeable = False
    ids.flags.writeable = False
    got = sv.draw_samples(final, ids, 500, seed=3)
    assert np.array_equal(got.counts, want.counts) and got.other_count == want.other_count


def test_draws_never_pick_a_cut_token():
    view = sv.chain_view(LOGITS, SamplingParams(temperature=1.5, top_p=0.3), top_n=30)
    d = sv.draw_samples(view.final, view.ids, 2000, seed=1)
    cut = view.final[view.ids] == 0
    assert cut.any() and d.counts[cut].sum() == 0
    greedy = sv.chain_view(LOGITS, SamplingParams(temperature=0), top_n=5)
    assert sv.draw_samples(greedy.final, greedy.ids, 100, seed=3).counts.tolist() == [100, 0, 0, 0, 0]


# ---------------------------------------------------------------- loops

@pytest.mark.parametrize("ids, period, repeats", [
    ([5, 1, 2, 3, 1, 2, 3, 1, 2, 3], 3, 3),
    ([5, 1, 2, 3, 1, 2, 3, 1], 3, 2),  # stops mid-cycle
    ([9, 8, 4, 4, 4, 4], 1, 4),
    ([1, 2, 3, 4, 5, 6], 0, 0),
    ([], 0, 0),
])
def test_find_loop(ids, period, repeats):
    loop = stats.find_loop(ids)
    assert (loop.period, loop.repeats) == (period, repeats)


def test_the_one_entropy_helper_takes_numpy_and_torch_and_equals_the_sum_in_torch():
    for t in (0.3, 1.0, 3.0):
        p = torch.softmax(torch.tensor(LOGITS) / t, -1)
        in_torch = float(torch.special.entr(p).sum(dtype=torch.float64)) / math.log(2)  # -sum p ln p, in bits
        assert stats.entropy_bits(p.numpy()) == pytest.approx(in_torch, rel=1e-6)  # summation order
        assert stats.entropy_bits(p.reshape(1, -1)) == stats.entropy_bits(p.numpy())
        assert stats.entropy_bits(p.to(torch.bfloat16)) == pytest.approx(in_torch, rel=2e-2)
    assert stats.entropy_bits(np.array([0.5, 0.5, 0.0])) == 1.0


def test_mass_curve_reaches_p_exactly_at_the_nucleus():
    for t, p in [(1.0, 0.9), (0.6, 0.5), (1.8, 0.95)]:
        size = sv.nucleus_size(LOGITS, t, p)
        curve = dict(sv.mass_curve(LOGITS, t, range(1, 501)))
        assert curve[size] >= p - 1e-6 and (size == 1 or curve[size - 1] < p)
        assert curve[500] == pytest.approx(1.0, abs=1e-5)
        values = list(curve.values())
        assert values == sorted(values)


@pytest.mark.parametrize("text, n", [(" 6, 7, 8, 9, 10,", 5), (" 6, 7, 8", 3), (" 6\n\n* * *\n  <em>", 1),
                                     (" 6, 7, 9,", 2), ("", 0), (" ...", 0), (" 60, 61", 0), (" 6 7 8", 1)])
def test_counted(text, n):
    assert stats.counted(text, 6) == n


@pytest.mark.parametrize("penalty, context", [(1.0, ()), (1.3, (0, 5, 17, 17, 260))])
def test_nucleus_grid_equals_the_warper_at_every_setting(penalty, context):
    """The grid sorts once for all (T, p); each size must be exactly TopPLogitsWarper's (integers: no tolerance)."""
    rng = np.random.default_rng(3)
    logits = (rng.standard_normal(3000) * 2.5).astype(np.float32)
    logits[:40] = logits[40:80]  # ties, as a real vocabulary has
    temps, ps = (0, 0.3, 0.5, 1.0, 1.5, 2.0), (0.05, 0.5, 0.9, 0.99, 1.0)
    grid = sv.nucleus_grid(logits, temps, ps, context, penalty)
    assert grid == tuple(tuple(sv.nucleus_size(logits, t, p, context, penalty) for p in ps) for t in temps)
    assert sv.nucleus_row(LOGITS, 0.7, ps) == tuple(sv.nucleus_size(LOGITS, 0.7, p) for p in ps)


def test_next_token_logits_are_the_traces_last_logits_from_one_lighter_pass(tiny_bundle):
    """The temperature page's forward pass keeps only the last position's logits. Same numbers as trace()'s
    last_logits up to float rounding (the output product runs on 1 row instead of T: 1e-5 relative to the
    largest logit holds on any CPU), the same ids, one pass counted, and the cut reported the same way."""
    from model_backend.core.tracing import next_token_logits, trace

    tr = trace(tiny_bundle, "O gato subiu no telhado")
    before = tiny_bundle.forward_passes
    logits, ids, cut = next_token_logits(tiny_bundle, "O gato subiu no telhado")
    assert tiny_bundle.forward_passes == before + 1
    assert ids == tuple(t.id for t in tr.tokens) and cut is None and logits.dtype == np.float32
    scale = float(np.abs(tr.last_logits).max())
    np.testing.assert_allclose(logits, tr.last_logits, rtol=0, atol=1e-5 * scale)
    _, short, cut = next_token_logits(tiny_bundle, "O gato subiu no telhado", max_tokens=4)
    assert len(short) == 4 and cut == len(ids)


def test_the_live_bars_chart_is_built_once_per_prompt_and_settings_and_shared():
    """ui.temperature.draw.live_bars_for goes through ui.charts.cached_chart: equal inputs (another visitor's
    LiveBars for the same prompt) get the same chart object, so the browser keeps its chart; other initial
    settings get another."""
    import model_backend as mb
    from ui.temperature import draw
    from ui.temperature.compute import LiveBars

    data = sv.browser_logits(np.random.default_rng(0).normal(size=3000), context_ids=[5, 7], top=50, bins=12)
    names = tuple(f"t{i}" for i in range(len(data.ids)))
    mine, yours = LiveBars(("m", "float32", "p"), data, names), LiveBars(("m", "float32", "p"), data, names)
    first = draw.live_bars_for(mine, mb.SamplingParams(temperature=0.7))
    assert draw.live_bars_for(yours, mb.SamplingParams(temperature=0.7)) is first
    assert draw.live_bars_for(mine, mb.SamplingParams(temperature=0.9)) is not first


def test_the_penalty_example_divides_and_subtracts_by_the_counts():
    mult, sub = sv.penalty_example((2.0, 1.0, -1.0, 0.5), (0, 1, 0, 2), 1.5, 0.25, 0.5)
    assert mult == pytest.approx((2.0 / 1.5, 1.0 / 1.5, -1.0 * 1.5, 0.5))  # seen tokens: divided (a negative one: times)
    assert sub == pytest.approx((2.0 - 2 * 0.25 - 0.5, 1.0 - 0.25 - 0.5, -1.0 - 0.25 - 0.5, 0.5))  # D never seen


def test_the_seed_examples_are_computed_once_for_every_visitor():
    """The temperature page draws them on every run: the second visitor gets the first one's values."""
    for fn, args in ((sv.top_prob_curve, (sv.SEED_LOGITS, (0.5, 1.0))), (sv.temperature_table, (sv.SEED_LOGITS,)),
                     (sv.penalty_example, ((2.0, 1.0), (0,), 1.2, 0.1, 0.1))):
        fn.clear()
        assert fn.peek(*args) is None
        first = fn(*args)
        assert fn.peek(*args) is first and fn(*args) is first
