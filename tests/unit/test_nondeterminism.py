"""Nondeterminism backend: where runs split, the tree of runs, float32 order, batching on a tiny model."""
import math

import numpy as np
import pytest
import torch

from model_backend.core.tracing import encode
from model_backend.lessons import nondeterminism as nd


def test_first_divergence_finds_the_first_disagreement():
    assert nd.first_divergence([[1, 2, 3], [1, 2, 3]]) is None
    assert nd.first_divergence([[1, 2, 3], [1, 5, 3], [1, 2, 3]]) == 1
    assert nd.first_divergence([[7], [8]]) == 0
    assert nd.first_divergence([[1, 2], [1, 2, 3]]) == 2  # one run ended where the other went on
    assert nd.first_divergence([[1, 2]]) is None
    assert nd.first_divergence([]) is None


def test_branch_tree_shares_prefixes_and_splits_at_each_difference():
    ids = [[1, 2, 3, 8], [1, 2, 4, 8], [5, 6], [1, 2, 3, 9]]
    texts = [[f"<{i}>" for i in run] for run in ids]
    tree = nd.branch_tree(ids, texts)
    root = tree[0]
    assert root.parent is None and root.token_ids == () and root.runs == (0, 1, 2, 3)
    shared = tree[1]
    assert (shared.parent, shared.start, shared.token_ids, shared.runs) == (0, 0, (1, 2), (0, 1, 3))
    by_runs = {b.runs: b for b in tree}
    assert by_runs[(0, 3)].token_ids == (3,) and by_runs[(0, 3)].start == 2
    assert by_runs[(0,)].token_ids == (8,) and by_runs[(0,)].start == 3
    assert by_runs[(3,)].token_ids == (9,)
    assert by_runs[(1,)].token_ids == (4, 8) and by_runs[(1,)].text == "<4><8>"
    assert by_runs[(2,)].token_ids == (5, 6) and by_runs[(2,)].parent == 0
    leaves = [b for b in tree if not any(c.parent == b.id for c in tree)]
    assert sorted(r for b in leaves for r in b.runs) == [0, 1, 2, 3]  # every run ends in exactly one leaf
    assert sorted(b.lane for b in leaves) == [0.0, 1.0, 2.0, 3.0]
    assert shared.lane == np.mean([by_runs[(0, 3)].lane, by_runs[(1,)].lane])


def test_branch_tree_of_identical_runs_is_one_branch_and_a_stopped_run_gets_a_leaf():
    assert len(nd.branch_tree([[1, 2], [1, 2]], [["a", "b"], ["a", "b"]])) == 1
    tree = nd.branch_tree([[1, 2], [1, 2, 3]], [["a", "b"], ["a", "b", "c"]])
    assert [(b.token_ids, b.runs) for b in tree] == [((1, 2), (0, 1)), ((), (0,)), ((3,), (1,))]


@pytest.mark.parametrize("a, b, c", nd.ASSOCIATIVITY_EXAMPLES)
def test_every_float32_example_really_is_not_associative(a, b, c):
    r = nd.associativity(a, b, c)
    assert not r.associative
    # checked independently with torch float32 tensors
    x, y, z = (torch.tensor(v, dtype=torch.float32) for v in (a, b, c))
    assert float((x + y) + z) == r.left and float(x + (y + z)) == r.right
    assert r.exact == math.fsum([float(np.float32(v)) for v in (a, b, c)])


def test_associativity_exact_values():
    r = nd.associativity(1e8, -1e8, 1.0)
    assert (r.left, r.right, r.exact) == (1.0, 0.0, 1.0)  # -1e8 + 1 rounds back to -1e8 in float32
    r = nd.associativity(1.0, 3e-8, 3e-8)
    assert (r.left, nd.float32_text(r.right)) == (1.0, "1.0000001")  # one at a time, each 3e-8 is lost
    assert nd.associativity(1.0, 2.0, 3.0).associative


def test_float32_text_shows_the_digits_float32_keeps():
    assert nd.float32_text(nd.associativity(0.1, 0.3, 0.4).right) == "0.8000001"
    assert nd.float32_text(1e8) == "100000000"
    assert nd.float32_text(1e-8) == "1e-08"
    assert nd.float32_text(0.0) == "0"


def test_sums_in_orders_differ_and_each_order_is_what_it_says():
    values = nd.random_vector(100_000, seed=0)
    assert values.dtype == np.float32 and values.shape == (100_000,)
    sums, exact = nd.sums_in_orders(values, seed=0)
    totals = {s.order: s.total for s in sums}
    assert tuple(totals) == nd.SUM_ORDERS
    assert len(set(totals.values())) >= 3  # the same numbers, different totals
    assert exact == math.fsum(values.astype(np.float64).tolist())
    acc = np.float32(0)
    for v in np.sort(values):  # ascending, one float32 addition at a time
        acc = np.float32(acc + v)
    assert totals["ascending"] == float(acc)
    assert totals["pairwise"] == float(np.sum(values))
    assert all(s.error == s.total - exact for s in sums)


def test_greedy_batch_of_one_matches_the_app_loop(tiny_bundle):
    from model_backend import SamplingParams, generate

    run = nd.run_alone(tiny_bundle, "abc", 6, "float32")
    g = generate(tiny_bundle, "abc", SamplingParams(temperature=0, max_new_tokens=6))
    assert list(run.continuation.token_ids) == [s.token.id for s in g.steps][: len(run.continuation.token_ids)]
    assert run.last_logits.shape == (tiny_bundle.info.vocab_size,)
    assert run.top.id == int(np.argmax(run.last_logits))
    assert all(gap >= 0 for gap in run.continuation.gaps)


def test_left_padding_keeps_each_row_what_it_was(tiny_bundle):
    """Padded into a batch with longer prompts, a row's logits stay those of the prompt alone (up to rounding)."""
    alone = nd.run_alone(tiny_bundle, "abc", 5, "alone")
    batched = nd.run_in_batch(tiny_bundle, "abc", 5, "batch", fillers=("a much longer prompt", "xyzzy, more text"))
    result = nd.compare(alone, batched)
    assert result.max_abs_diff < 1e-4  # tiny; without the attention mask it would be large
    assert result.same_top and result.diverge_at is None
    ids, long = encode(tiny_bundle, "abc", 512)[0], encode(tiny_bundle, "a much longer prompt", 512)[0]
    first, _ = nd.greedy_batch(tiny_bundle, [ids, long], 1)
    assert float((first[0] - torch.from_numpy(alone.last_logits)).abs().max()) < 1e-4
    naive = tiny_bundle.forward(input_ids=torch.tensor([[0] * (len(long) - len(ids)) + ids]))  # padded, no mask
    assert float((naive.logits[0, -1] - first[0]).abs().max()) > 1e-3  # padding without mask and positions is not harmless


def test_compare_reports_the_largest_difference():
    from model_backend.types import Candidate

    def run(logits, ids):
        cont = nd.Continuation(token_ids=tuple(ids), tokens=tuple(map(str, ids)), text="", gaps=(1.0,) * len(ids))
        return nd.GreedyRun(way="x", prompt_tokens=3, truncated_from=None, last_logits=np.array(logits, np.float32),
                            top=Candidate(int(np.argmax(logits)), "", max(logits), 1.0), continuation=cont)

    r = nd.compare(run([1.0, 2.0, 3.0], [4, 5, 6]), run([1.0, 2.5, 2.0], [4, 5, 7]))
    assert r.max_abs_diff == 1.0 and not r.same_top and r.diverge_at == 2


def test_sampled_runs_in_one_batch(tiny_bundle):
    """The page's sampled runs: one batch, one generator per seed; a seed's run is the loop's run with that seed
    when it is alone in the batch, and the same seeds give the same runs."""
    from model_backend import SamplingParams, generate

    params = SamplingParams(temperature=1.3, max_new_tokens=8)
    alone = generate(tiny_bundle, "abc", SamplingParams(temperature=1.3, max_new_tokens=8, seed=7))
    one = nd.sample_runs(tiny_bundle, "abc", params, [7, 7, 7])  # a fixed seed: one row, three times
    assert [r.token_ids for r in one.runs] == [tuple(s.token.id for s in alone.steps)] * 3
    assert one.runs[0].completion == alone.completion and one.runs[0].finish_reason == alone.finish_reason
    seeds = [3, 1, 4, 1, 5]
    a, b = nd.sample_runs(tiny_bundle, "abc", params, seeds), nd.sample_runs(tiny_bundle, "abc", params, seeds)
    assert a == b and [r.seed for r in a.runs] == seeds and a.runs[1] == a.runs[3]
    assert len({r.token_ids for r in a.runs}) > 1  # different seeds, different runs (temperature 1.3, 4 seeds)
    assert all(len(r.token_ids) == len(r.tokens) <= 8 for r in a.runs)
    assert a.prompt_tokens == len(encode(tiny_bundle, "abc", 512)[0]) and a.truncated_from is None
    greedy = nd.sample_runs(tiny_bundle, "abc", SamplingParams(temperature=0, max_new_tokens=6), [1, 2])
    loop = generate(tiny_bundle, "abc", SamplingParams(temperature=0, max_new_tokens=6))
    assert [r.token_ids for r in greedy.runs] == [tuple(s.token.id for s in loop.steps)] * 2
    assert greedy.runs[0].seed is None
