"""The temperature page's math on the real Gemma 3 270M (float32): each stage of the chain equals what
transformers' generate() samples from, top-p is adaptive, and the greedy loop breaks with a penalty."""
import numpy as np
import pytest
import torch

from model_backend import SamplingParams, generate, trace
from model_backend.core import stats
from model_backend.lessons import temperature as sv
from ui.temperature.compute import PAIR
from ui.temperature.draw import LOOP_CASES

PROMPT = "A capital da França é a cidade de"
CONFIDENT, UNCERTAIN = PAIR


@pytest.fixture(scope="module")
def france(real_bundle):
    return trace(real_bundle, PROMPT)


def _generate_scores(bundle, prompt, **kwargs) -> torch.Tensor:
    """The processed scores generate() sampled the first token from (output_scores), as probabilities."""
    enc = bundle.tokenizer(prompt, return_tensors="pt")
    with torch.inference_mode():
        out = bundle.engine.generate(**enc, max_new_tokens=1, do_sample=True, output_scores=True,
                                    return_dict_in_generate=True, pad_token_id=0, **kwargs)
    return torch.softmax(out.scores[0][0].float(), -1)  # [V]


@pytest.mark.parametrize("upto", ["repetition_penalty", "temperature", "top_k", "top_p"])
def test_each_stage_equals_generate_with_the_chain_up_to_it(real_bundle, france, upto):
    """generate() with the processors up to one stage gives exactly that stage's distribution."""
    full = dict(repetition_penalty=1.3, temperature=0.7, top_k=50, top_p=0.9)
    neutral = dict(repetition_penalty=1.0, temperature=1.0, top_k=0, top_p=1.0)
    order = list(full)
    kwargs = {k: (full[k] if order.index(k) <= order.index(upto) else neutral[k]) for k in order}
    ctx = [tok.id for tok in france.tokens]
    view = sv.chain_view(france.last_logits, SamplingParams(**full), ctx, top_n=30)
    stage = {s.name: s for s in view.stages}[upto]
    ref = _generate_scores(real_bundle, PROMPT, **kwargs)
    assert stage.kept == int((ref > 0).sum())
    np.testing.assert_allclose(stage.probs, ref[view.ids].numpy(), atol=2e-4)
    if upto == "top_p":  # the last stage is the distribution the page draws from
        np.testing.assert_allclose(view.final, ref.numpy(), atol=2e-4)


def test_top_p_nucleus_is_small_when_confident_and_large_when_not(real_bundle):
    sizes = {}
    for prompt in (CONFIDENT, UNCERTAIN):
        tr = trace(real_bundle, prompt)
        sizes[prompt] = sv.nucleus_size(tr.last_logits, 1.0, 0.9)
        probs = torch.softmax(torch.tensor(tr.last_logits), -1).double()
        cum = torch.cumsum(torch.sort(probs, descending=True).values, 0)  # float64, most likely first
        # The smallest set reaching 0.9. The warper sums 262,144 float32 probabilities (least likely first),
        # so a token whose cumulative mass is within float32 rounding of 0.9 may fall either side.
        n = sizes[prompt]
        assert cum[n - 1] >= 0.9 - 1e-4 and cum[n - 2] < 0.9 + 1e-4
        assert abs(n - (int((cum < 0.9).sum()) + 1)) <= 2
    assert sizes[UNCERTAIN] > 5 * sizes[CONFIDENT]
    print("\nnucleus at T=1, p=0.9:", sizes)


def test_greedy_loops_and_a_penalty_breaks_the_loop(real_bundle):
    case, prompt, n = LOOP_CASES[0]
    plain = generate(real_bundle, prompt, SamplingParams(temperature=0, max_new_tokens=n))
    loop = stats.find_loop([s.token.id for s in plain.steps])
    assert loop.period >= 2 and loop.repeats >= 2, plain.completion
    penalised = generate(real_bundle, prompt, SamplingParams(temperature=0, repetition_penalty=1.3, max_new_tokens=n))
    assert stats.find_loop([s.token.id for s in penalised.steps]).period == 0, penalised.completion
    print(f"\n{prompt!r} r=1.0: {plain.completion!r}\n{prompt!r} r=1.3: {penalised.completion!r}")


def test_a_penalty_suppresses_tokens_the_text_needs(real_bundle):
    case, prompt, n = LOOP_CASES[1]
    plain = generate(real_bundle, prompt, SamplingParams(temperature=0, max_new_tokens=n))
    assert plain.completion.startswith(" 6, 7, 8, 9, 10,"), plain.completion
    penalised = generate(real_bundle, prompt, SamplingParams(temperature=0, repetition_penalty=1.3, max_new_tokens=n))
    assert not penalised.completion.startswith(" 6, 7,"), penalised.completion  # the comma is punished
    print(f"\n{prompt!r} r=1.0: {plain.completion!r}\n{prompt!r} r=1.3: {penalised.completion!r}")
