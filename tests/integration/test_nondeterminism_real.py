"""Nondeterminism on the real Gemma 3 270M: seeds repeat, fresh seeds differ, float32 vs bfloat16 and batching."""
import numpy as np
import pytest

from model_backend import SamplingParams, distributions, generate, load_bundle, trace
from model_backend.lessons import nondeterminism as nd

# At temperature 0.7 the first token of this prompt is spread over many candidates (measured: the most
# likely has about 20%), so five runs that all start with the same token are very unlikely.
OPEN_PROMPT = "Meu animal favorito é o"
RUNS = 5


@pytest.fixture(scope="module")
def bf16_bundle():
    return load_bundle(dtype="bfloat16", device="cpu")


def ids(g):
    return [s.token.id for s in g.steps]


def test_seeded_runs_are_identical_and_greedy_runs_are_identical(real_bundle):
    params = SamplingParams(temperature=0.7, max_new_tokens=6, seed=1234)
    a, b = generate(real_bundle, OPEN_PROMPT, params), generate(real_bundle, OPEN_PROMPT, params)
    assert ids(a) == ids(b) and a.completion == b.completion and a.seed == b.seed == 1234
    greedy = SamplingParams(temperature=0, max_new_tokens=6)
    assert ids(generate(real_bundle, OPEN_PROMPT, greedy)) == ids(generate(real_bundle, OPEN_PROMPT, greedy))


def test_unseeded_sampled_runs_differ(real_bundle):
    # The probability we rely on, computed from the model itself: all RUNS runs share their first token
    # with probability sum_i p_i^RUNS (p = the temperature-0.7 distribution of the first step). Runs that
    # are identical must share their first token, so P(all identical) <= that bound.
    probs = distributions(trace(real_bundle, OPEN_PROMPT).last_logits, SamplingParams(temperature=0.7))[-1][1]
    bound = float(np.sum(probs.astype(np.float64) ** RUNS))
    print(f"P(all {RUNS} runs identical) <= {bound:.2e}")
    assert bound < 1e-3
    gens = [generate(real_bundle, OPEN_PROMPT, SamplingParams(temperature=0.7, max_new_tokens=2)) for _ in range(RUNS)]
    assert len({g.seed for g in gens}) == RUNS  # each run drew a fresh seed, reported in the result
    assert nd.first_divergence([ids(g) for g in gens]) is not None
    tree = nd.branch_tree([ids(g) for g in gens], [[s.token.text for s in g.steps] for g in gens])
    assert len(tree) >= 3  # the runs branch


def test_float32_and_bfloat16_logits_differ_and_the_difference_is_reported(real_bundle, bf16_bundle):
    prompt, n = "Albert Einstein nasceu em", 12  # bfloat16 has an exact tie at token 11 here: argmax must match
    a = nd.run_alone(real_bundle, prompt, n, "float32")
    b = nd.run_alone(bf16_bundle, prompt, n, "bfloat16")
    result = nd.compare(a, b)
    print(f"float32 vs bfloat16: largest logit difference {result.max_abs_diff:.4f}, same top token: "
          f"{result.same_top}, greedy split at: {result.diverge_at}")
    assert result.max_abs_diff > 0
    assert result.max_abs_diff == pytest.approx(float(np.max(np.abs(a.last_logits - b.last_logits))), rel=1e-6)
    assert a.top.id == int(np.argmax(a.last_logits)) and b.top.id == int(np.argmax(b.last_logits))
    # each way's greedy continuation is exactly what the app's own loop produces in that dtype
    for bundle, run in ((real_bundle, a), (bf16_bundle, b)):
        g = generate(bundle, prompt, SamplingParams(temperature=0, max_new_tokens=n))
        assert list(run.continuation.token_ids) == ids(g)
        assert run.continuation.text == g.completion


def test_batching_changes_the_logits_a_little_but_keeps_the_prompt_intact(real_bundle):
    prompt, n = "Albert Einstein nasceu em", 4
    alone = nd.run_alone(real_bundle, prompt, n, "alone")
    batched = nd.run_in_batch(real_bundle, prompt, n, "batch")
    result = nd.compare(alone, batched)
    print(f"batch of 1 vs batch of {len(nd.BATCH_FILLERS) + 1}: largest logit difference {result.max_abs_diff:.2e}")
    assert result.max_abs_diff < 1e-2  # the same computation up to rounding: padding was masked correctly
    assert result.same_top


def test_the_pages_default_comparison_shows_float32_and_bfloat16_parting(real_bundle, bf16_bundle):
    """What a visitor sees on pressing Compare without changing anything: the two dtypes' greedy texts part
    within the default token count, at a token where the two best candidates were close."""
    from ui.nondeterminism import draw

    defaults = {p.name: p.default for p in draw.link_params()}
    prompt, n = defaults["mprompt"], defaults["mtokens"]
    a = nd.run_alone(real_bundle, prompt, n, "float32")
    b = nd.run_alone(bf16_bundle, prompt, n, "bfloat16")
    result = nd.compare(a, b)
    assert result.max_abs_diff > 0  # on any CPU: the two dtypes' logits differ, and the page reports by how much
    if result.diverge_at is None:
        # Where the texts part depends on the CPU (a near-tie tips one way or the other): on the AVX-512 machine
        # that chose these defaults they part at token 13; on an AVX2 CPU, whose bfloat16 takes the plain path,
        # they were seen to agree for all n tokens. The page then says they did not part within n tokens.
        print(f"{prompt!r}: no split within {n} tokens on this CPU (largest logit difference {result.max_abs_diff:.3f})")
        return
    print(f"{prompt!r}: split at token {result.diverge_at}; gaps there {a.continuation.gaps[result.diverge_at]:.3f}"
          f" / {b.continuation.gaps[result.diverge_at]:.3f}")
    assert 0 < result.diverge_at < n
    at = result.diverge_at
    assert a.continuation.token_ids[:at] == b.continuation.token_ids[:at]
    assert a.continuation.token_ids[at] != b.continuation.token_ids[at]
    assert min(a.continuation.gaps[at], b.continuation.gaps[at]) < 0.5  # a near-tie tipped one way or the other
