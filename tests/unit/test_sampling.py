"""The sampling chain on small hand-made tensors: exact values, generate()'s order, no in-place changes."""
import numpy as np
import pytest
import torch
from transformers import TemperatureLogitsWarper, TopKLogitsWarper, TopPLogitsWarper

from model_backend import SamplingParams, distributions, softmax_with_temperature
from model_backend.core.sampling import SortFreeTopPLogitsWarper, build_chain, choose, kept_count, run_chain
from model_backend.core.stats import entropy_bits

SEED_LOGITS = [2.0, 1.0, 0.1]


@pytest.mark.parametrize("temperature, expected", [(1.0, [65.9, 24.2, 9.9]), (0.5, [86.4, 11.7, 1.9]),
                                                   (2.0, [50.2, 30.4, 19.4])])
def test_seed_temperature_table_to_a_tenth_of_a_percent(temperature, expected):
    probs = softmax_with_temperature(SEED_LOGITS, temperature)
    assert [round(100 * p, 1) for p in probs] == expected
    assert sum(probs) == pytest.approx(1.0, abs=1e-12)


def test_seed_table_rounds_to_the_seeds_percentages_except_one_rounding():
    # The seed prints 66/24/10, 86/12/2 and 50/30/20. Exact math gives 19.4% for C at T=2;
    # the seed rounded it up so the row adds to 100. Everything else matches to the percent.
    rows = {t: [round(100 * p) for p in softmax_with_temperature(SEED_LOGITS, t)] for t in (1.0, 0.5, 2.0)}
    assert rows[1.0] == [66, 24, 10]
    assert rows[0.5] == [86, 12, 2]
    assert rows[2.0][:2] == [50, 30] and rows[2.0][2] == 19


def test_temperature_zero_is_one_hot_on_the_argmax():
    assert softmax_with_temperature([0.3, 2.5, 2.4], 0) == [0.0, 1.0, 0.0]


def test_chain_order_matches_generate():
    params = SamplingParams(temperature=0.7, top_k=5, top_p=0.9, repetition_penalty=1.3)
    assert [name for name, _ in build_chain(params)] == ["repetition_penalty", "temperature", "top_k", "top_p"]
    assert [n for n, _ in build_chain(SamplingParams())] == []  # neutral settings add nothing
    assert [n for n, _ in build_chain(SamplingParams(temperature=0, top_k=5, repetition_penalty=1.2))] == [
        "repetition_penalty"]  # greedy: only the penalty, like generate(do_sample=False)


def test_each_stage_equals_the_transformers_processor_and_input_is_not_changed():
    logits = torch.tensor([[3.0, 1.0, 0.5, 0.2, -1.0, 2.0]])
    before = logits.clone()
    ctx = torch.zeros((1, 0), dtype=torch.long)
    stages = run_chain(ctx, logits, SamplingParams(temperature=0.5, top_k=4, top_p=0.8))
    assert torch.equal(logits, before)
    expected = TemperatureLogitsWarper(0.5)(ctx, before.clone())
    assert torch.equal(stages[1].scores, expected)
    expected = TopKLogitsWarper(4)(ctx, expected.clone())
    assert torch.equal(stages[2].scores, expected)
    expected = TopPLogitsWarper(0.8)(ctx, expected.clone())
    assert torch.equal(stages[3].scores, expected)


def test_repetition_penalty_lowers_tokens_already_in_context():
    logits = torch.tensor([[2.0, 2.0, -1.0, -1.0]])
    ctx = torch.tensor([[0, 2]])
    stages = run_chain(ctx, logits, SamplingParams(repetition_penalty=2.0))
    assert stages[1].scores.tolist() == [[1.0, 2.0, -2.0, -1.0]]  # positive / 2, negative * 2


def test_top_p_keeps_the_smallest_set_reaching_p():
    probs = np.array([0.5, 0.25, 0.15, 0.1])
    logits = np.log(probs)
    for p, size in [(0.5, 1), (0.6, 2), (0.75, 2), (0.8, 3), (0.9, 3), (0.95, 4)]:
        final = distributions(logits, SamplingParams(top_p=p))[-1][1]
        assert int((final > 0).sum()) == size, p
        assert final.sum() == pytest.approx(1.0, abs=1e-6)


def test_greedy_choice_and_seeded_draws():
    from model_backend.core.sampling import StageScores

    s = StageScores.of("raw", torch.tensor([[0.1, 3.0, 0.2]]))
    assert choose(s, SamplingParams(temperature=0), None) == 1
    flat = StageScores.of("raw", torch.zeros((1, 50)))
    draws = [choose(flat, SamplingParams(), torch.Generator().manual_seed(7)) for _ in range(3)]
    assert len(set(draws)) == 1  # same seed, same draw


def test_entropy_and_kept_count():
    assert entropy_bits(torch.tensor([0.5, 0.5, 0.0])) == pytest.approx(1.0)
    assert entropy_bits(torch.full((8,), 1 / 8)) == pytest.approx(3.0)
    assert kept_count(torch.tensor([[1.0, float("-inf"), 0.0]])) == 2


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16])
def test_kept_count_counts_what_torch_counts(dtype):
    """kept_count counts in numpy on the CPU (float32/64) and in torch otherwise: the same number either way,
    for a row with -inf cuts, +inf, NaN (not kept: NaN > -inf is false) and a strided view."""
    gen = torch.Generator().manual_seed(3)
    rows = torch.randn((2, 262_144), generator=gen)
    rows[0, ::7] = float("-inf")
    rows[0, 5], rows[0, 6] = float("inf"), float("nan")
    tried = 0
    for scores in (rows[:1].to(dtype), rows[1:].to(dtype), rows.to(dtype).t()[:, :1].t()):
        assert kept_count(scores) == int((scores > float("-inf")).sum())
        tried += 1
    assert tried == 3


def _top_p_cases():
    """Scores as the loop sees them (Gemma's 262,144 logits, scaled by a temperature; in bfloat16, with ties at
    nearly every cut), ties, -inf and edge rows."""
    gen = torch.Generator().manual_seed(7)
    gemma = torch.randn((1, 262_144), generator=gen) * 3.0
    tied = torch.round(torch.randn((1, 5_000), generator=gen) * 4) / 2  # steps of 0.5: many ties at any cut
    after_top_k = gemma.clone()
    after_top_k[after_top_k < torch.topk(after_top_k, 40).values[0, -1]] = -float("inf")  # as after TopKLogitsWarper
    bf16 = gemma.to(torch.bfloat16).float()  # a bfloat16 model's logits, taken to float32 as the loop does
    return {"gemma": gemma, "gemma/0.7": gemma / 0.7, "float64": gemma.double(), "tied": tied,
            "bf16": bf16, "bf16/0.7": bf16 / 0.7, "after_top_k": after_top_k, "all_equal": torch.zeros((1, 1000)),
            "small_tie_at_cut": torch.log(torch.tensor([[0.4, 0.2, 0.2, 0.1, 0.1]]))}


def _ties_across_the_cut(scores: torch.Tensor, result: torch.Tensor) -> bool:
    """Whether `result` removed some, but not all, of the tokens that share the highest removed score."""
    removed = torch.isinf(result) & ~torch.isinf(scores)
    if not bool(removed.any()):
        return False
    tied = scores == scores[removed].max()
    return bool((tied & ~removed).any())


@pytest.mark.parametrize("counting", [False, True], ids=["np.sort", "counting"])
def test_sort_free_top_p_equals_transformers_top_p_with_a_stable_sort_bit_for_bit(monkeypatch, counting):
    """The same tensor as TopPLogitsWarper's own code run with a stable sort (torch.equal: same ops on the same
    machine, so no tolerance); the same as the library itself wherever no ties sit across the cut; and the sort-free
    path always taken for one CPU row (else the test would compare the library to itself). Both ways of sorting
    the values (sorted_values) are run, whichever this machine measured faster."""
    from model_backend.core import sampling
    from model_backend.core.sampling import SortFreeTopPLogitsWarper

    monkeypatch.setattr(sampling, "_sort_by_counting", counting)
    counted, current = set(), [None]
    by_counting = sampling._by_counting
    monkeypatch.setattr(sampling, "_by_counting", lambda v: counted.add(current[0]) or by_counting(v))
    library = TopPLogitsWarper.__call__
    used_library = []
    monkeypatch.setattr(TopPLogitsWarper, "__call__", lambda self, ids, s: used_library.append(1) or library(self, ids, s))
    unstable = torch.sort

    def stable_library(p, keep, scores):
        with monkeypatch.context() as patch:
            patch.setattr(torch, "sort", lambda *a, **k: unstable(*a, **{**k, "stable": True}))
            return library(TopPLogitsWarper(p, min_tokens_to_keep=keep), ctx, scores.clone())

    ctx = torch.zeros((1, 0), dtype=torch.long)
    straddled = set()
    for name, scores in _top_p_cases().items():
        current[0] = name
        for p in (0.05, 0.3, 0.5, 0.8, 0.9, 0.95, 0.99):
            for keep in (1, 3):
                before = scores.clone()
                used_library.clear()
                got = SortFreeTopPLogitsWarper(p, min_tokens_to_keep=keep)(ctx, scores)
                assert not used_library, (name, p, keep)
                expected = stable_library(p, keep, scores)
                assert torch.equal(scores, before), name  # the input is not changed
                assert got.dtype == expected.dtype and torch.equal(got, expected), (name, p, keep)
                if _ties_across_the_cut(scores, expected):
                    straddled.add(name)
                else:
                    assert torch.equal(got, library(TopPLogitsWarper(p, min_tokens_to_keep=keep), ctx, scores.clone()))
    assert {"bf16", "bf16/0.7", "tied", "small_tie_at_cut"} <= straddled  # the tie rule was really exercised
    assert not straddled & {"gemma", "gemma/0.7", "float64"}
    # the raw bfloat16 row is counted by its 65,536 values (bf16_ascending) either way; the one divided by 0.7
    # (few distinct values) by value_counts when counting is on; the float32 ones never
    assert ({"bf16/0.7"} <= counted) if counting else not counted
    assert "bf16" not in counted
    assert not counted & {"gemma", "gemma/0.7", "float64"}


@pytest.mark.parametrize("counting", [False, True])
def test_sorted_values_is_np_sort(monkeypatch, counting):
    """Whatever the row (few or many distinct values, -inf, NaN, signed zeros, float64), the same array as np.sort:
    the same values in the same order (NaN last), and the same dtype."""
    from model_backend.core import sampling

    monkeypatch.setattr(sampling, "_sort_by_counting", counting)
    counted, by_counting = [], sampling._by_counting
    monkeypatch.setattr(sampling, "_by_counting", lambda v: counted.append(v) or by_counting(v))
    rng = np.random.default_rng(3)
    normal = (rng.standard_normal(262_144) * 3).astype(np.float32)
    bf16 = (normal.view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32)
    after_top_k = np.where(normal > np.sort(normal)[-40], normal, -np.inf).astype(np.float32)
    zeros = bf16.copy()
    zeros[::7] = 0.0
    zeros[::11] = -0.0
    nan = bf16.copy()
    nan[[5, 99_999]] = np.nan  # off the sample's stride
    third_cut = np.where(np.arange(normal.size) % 3 == 0, -np.inf, normal).astype(np.float32)  # still 175k distinct
    rows = {"normal": normal, "bf16": bf16, "bf16/0.7": bf16 / np.float32(0.7), "after_top_k": after_top_k,
            "zeros": zeros, "nan": nan, "float64": bf16.astype(np.float64), "short": bf16[:100], "third_cut": third_cut}
    took = set()
    for name, row in rows.items():
        counted.clear()
        got, expected = sampling.sorted_values(row), np.sort(row)
        assert got.dtype == expected.dtype and got.shape == expected.shape, name
        np.testing.assert_array_equal(got, expected, err_msg=name)  # NaN == NaN here; -0.0 == 0.0
        if counted:
            took.add(name)
    # counting, where it is on, takes the rows with few distinct values, and only those
    assert took == ({"bf16", "bf16/0.7", "after_top_k", "zeros", "nan", "float64"} if counting else set())
    assert by_counting(bf16).tobytes() == np.sort(bf16).tobytes()  # bit for bit where no zero is signed


def test_sorted_values_measures_once_which_way_is_faster(monkeypatch):
    from model_backend.core import sampling

    monkeypatch.setattr(sampling, "_sort_by_counting", None)
    first = sampling._counting_faster()
    assert isinstance(first, bool) and sampling._sort_by_counting is first
    monkeypatch.setattr(sampling, "_best_of", lambda work, times=3: pytest.fail("measured twice"))
    assert sampling._counting_faster() is first


def test_sort_free_top_p_removes_the_first_tied_tokens_and_batches_use_the_library():
    from model_backend.core.sampling import SortFreeTopPLogitsWarper

    ctx = torch.zeros((1, 0), dtype=torch.long)
    scores = torch.log(torch.tensor([[0.4, 0.2, 0.2, 0.1, 0.1]]))  # at p = 0.85, one of the two 0.1s goes
    got = SortFreeTopPLogitsWarper(0.85)(ctx, scores)
    assert torch.isinf(got[0]).tolist() == [False, False, False, True, False]  # the first in index order
    assert torch.equal(got[0, :3], scores[0, :3]) and got[0, 4] == scores[0, 4]
    batch = torch.randn((3, 100), generator=torch.Generator().manual_seed(1))
    assert torch.equal(SortFreeTopPLogitsWarper(0.7)(ctx, batch), TopPLogitsWarper(0.7)(ctx, batch.clone()))


def test_the_chain_uses_the_sort_free_top_p():
    from model_backend.core.sampling import SortFreeTopPLogitsWarper

    assert isinstance(dict(build_chain(SamplingParams(top_p=0.9)))["top_p"], SortFreeTopPLogitsWarper)


def test_sort_free_top_p_hands_a_row_with_a_nan_to_the_library(monkeypatch):
    """A NaN anywhere in the row (numpy sorts it last) goes to the library's own code; a row without one never
    does. Both return the same scores for such a row, so the test counts the library's calls."""
    library, used = TopPLogitsWarper.__call__, []
    monkeypatch.setattr(TopPLogitsWarper, "__call__", lambda self, ids, s: used.append(1) or library(self, ids, s))
    ids, warper = torch.zeros((1, 0), dtype=torch.long), SortFreeTopPLogitsWarper(top_p=0.9)
    row = torch.randn((1, 4096), generator=torch.Generator().manual_seed(5))
    warper(ids, row.clone())
    assert used == []
    for where in (0, 1234, 4095):
        nan = row.clone()
        nan[0, where] = float("nan")
        out = warper(ids, nan.clone())
        torch.testing.assert_close(out, library(warper, ids, nan.clone()), equal_nan=True)
    assert len(used) == 3


def test_a_read_only_row_is_copied_not_handed_to_torch():
    import warnings

    logits = np.linspace(-3.0, 3.0, 50, dtype=np.float32)
    logits.flags.writeable = False  # a shared memo's row
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # torch.from_numpy warns on a non-writable array
        stages = distributions(logits, SamplingParams(temperature=0.7, top_k=10))
    writable = np.array(logits)
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(stages, distributions(writable, SamplingParams(
        temperature=0.7, top_k=10))))
    assert not logits.flags.writeable and np.array_equal(logits, writable)  # the row itself untouched


def test_bf16_ascending_is_np_sort_for_bfloat16_rows_and_none_for_others():
    """Counting the 65,536 bfloat16 values gives np.sort's array (-0.0 == 0.0); a row with any value bfloat16 cannot
    hold, a NaN, a short row or another dtype gets None (top-p then sorts as before)."""
    from model_backend.core.sampling import bf16_ascending

    gen = torch.Generator().manual_seed(11)
    bf16 = (torch.randn((262_144,), generator=gen) * 3).to(torch.bfloat16).float().numpy()
    edges = bf16.copy()
    edges[:6] = torch.tensor([-np.inf, np.inf, 0.0, -0.0, 3.0e38, -1e-40]).to(torch.bfloat16).float().numpy()
    assert edges[5] != 0 and not np.isinf(edges[4])  # infinities, signed zeros, a huge value and a subnormal
    edges[6:6 + 1000] = edges[6 + 1000:6 + 2000]  # many ties
    for row in (bf16, edges):
        np.testing.assert_array_equal(bf16_ascending(row), np.sort(row))
    nan, off = bf16.copy(), bf16.copy()
    nan[77] = np.nan
    off[5] = np.float32(1.0001)  # not a bfloat16 value
    for row in (nan, off, bf16[:1000], bf16.astype(np.float64), bf16[::2]):
        assert bf16_ascending(row) is None


@pytest.mark.parametrize("params", [
    SamplingParams(temperature=0.7, top_p=0.9), SamplingParams(temperature=1.0, top_p=0.5),
    SamplingParams(temperature=1.3, top_k=200, top_p=0.95), SamplingParams(temperature=0.2, top_k=3, top_p=0.6),
    SamplingParams(temperature=0.7, top_p=0.05), SamplingParams(temperature=0.7, top_p=0.999)])
def test_run_chain_with_a_counted_row_equals_the_chain_that_sorts_bit_for_bit(monkeypatch, params):
    """A bfloat16 model's row is sorted once, by counting, and the temperature and top-k are applied to the sorted
    row: every stage's scores and probabilities are the same tensors as when top-p sorts its own input (torch.equal),
    on rows with ties across the cut too; and the counted route is really taken."""
    from model_backend.core import sampling

    gen = torch.Generator().manual_seed(5)
    ctx = torch.zeros((1, 0), dtype=torch.long)
    counted = []
    original = sampling.bf16_ascending
    monkeypatch.setattr(sampling, "bf16_ascending", lambda v: counted.append(1) or original(v))
    straddled = 0
    for scale in (1.0, 3.0, 8.0):
        logits = (torch.randn((1, 262_144), generator=gen) * scale).to(torch.bfloat16).float()
        before = len(counted)
        fast = run_chain(ctx, logits, params)
        assert len(counted) == before + 1
        with monkeypatch.context() as patch:  # top-p sorts its own input (sorted_values), as before the counting
            patch.setattr(sampling, "_ascending_raw", lambda scores, chain: None)
            patch.setattr(sampling, "bf16_ascending", lambda v: None)
            slow = run_chain(ctx, logits, params)
        assert [s.name for s in fast] == [s.name for s in slow]
        for a, b in zip(fast, slow):
            assert torch.equal(a.scores, b.scores) and torch.equal(a.probs, b.probs), (params, scale, a.name)
        straddled += _ties_across_the_cut(fast[-2].scores[0], fast[-1].scores[0])
    if params.top_p in (0.9, 0.5):  # bfloat16 rows have equal scores across the cut: the tie rule was exercised
        assert straddled
    assert len(counted) == 3  # one count a row, in run_chain: top-p did not sort again
    penalised = build_chain(SamplingParams(repetition_penalty=1.2, top_p=0.9))
    assert sampling._ascending_raw(logits, penalised) is None  # a penalty first: top-p sorts its own row


def test_a_steps_own_work_runs_for_at_most_as_many_runs_as_cores(monkeypatch, tiny_bundle):
    """Twelve runs generating at once: the sampling chain of at most STEP_WORK's count of them runs at any moment
    (the count is the machine's cores), and each run still gets its tokens."""
    import threading
    import time

    from model_backend.core import stepping

    monkeypatch.setattr(stepping, "STEP_WORK", threading.BoundedSemaphore(2))
    inside, most, lock = [0], [0], threading.Lock()
    original = stepping.run_chain

    def counted(*args):
        with lock:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        time.sleep(0.01)  # long enough for the other runs' steps to arrive
        try:
            return original(*args)
        finally:
            with lock:
                inside[0] -= 1

    monkeypatch.setattr(stepping, "run_chain", counted)
    params = SamplingParams(temperature=0.7, top_p=0.9, max_new_tokens=4, seed=3)
    results = [None] * 12
    threads = [threading.Thread(target=lambda i=i: results.__setitem__(i, stepping.generate(tiny_bundle, f"a b {i}", params)))
               for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert most[0] == 2
    assert all(r is not None and len(r.steps) == 4 for r in results)
    assert stepping.STEP_WORK is not None and stepping._cores() >= 1
