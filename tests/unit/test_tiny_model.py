"""Trace shapes, the step loop and its stop rules on a tiny random model (fast, no download)."""
import dataclasses

import numpy as np
import pytest

from model_backend import InvalidInput, SamplingParams, generate, iter_generation, trace
from model_backend.types import Generation, Step


def test_trace_shapes(tiny_bundle):
    tr = trace(tiny_bundle, "O gato", top_n=5, lens_top=3)
    T, info = len(tr.tokens), tiny_bundle.info
    assert tr.tokens[0].piece == "<bos>" and tr.tokens[0].special
    assert tr.attentions.shape == (info.n_layers, info.n_heads, T, T)
    assert tr.hidden_states.shape == (info.n_layers + 1, T, info.d_model)
    assert tr.embeddings.shape == (T, info.d_model)
    assert len(tr.top) == T and len(tr.top[-1]) == 5
    assert len(tr.lens) == info.n_layers + 1
    assert tr.last_logits.shape == (info.vocab_size,)


def test_logit_lens_decodes_each_layer_as_the_head_would_alone(tiny_bundle):
    """The lens runs all layers through the head in one product; each layer must get what its own
    last position, normed and unembedded alone, gives."""
    import torch

    from model_backend.core.tracing import _final_norm, unembed

    tr = trace(tiny_bundle, "O gato subiu", lens_top=4)
    model, last = tiny_bundle.weights, len(tr.lens) - 1
    for layer, lens in enumerate(tr.lens):
        x = torch.from_numpy(tr.hidden_states[layer, -1]).to(next(model.parameters()).dtype)
        with tiny_bundle.engine.exclusive(), torch.inference_mode():
            probs = torch.softmax(unembed(model, x if layer == last else _final_norm(model)(x)).float(), -1)
        top = torch.topk(probs, 4)
        assert lens.layer == layer and [c.id for c in lens.top] == top.indices.tolist()
        np.testing.assert_allclose([c.prob for c in lens.top], top.values.tolist(), rtol=1e-4, atol=1e-6)
    assert [c.id for c in tr.lens[-1].top] == [c.id for c in tr.top[-1][:4]]  # the last layer is the prediction


def test_attention_rows_sum_to_one_and_future_is_exactly_zero(tiny_bundle):
    tr = trace(tiny_bundle, "abcdefg")
    np.testing.assert_allclose(tr.attentions.sum(-1), 1.0, atol=1e-5)
    T = tr.attentions.shape[-1]
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    assert (tr.attentions[..., future] == 0).all()


def test_prompt_is_cut_to_the_limit(tiny_bundle):
    tr = trace(tiny_bundle, "x" * 50, max_tokens=10)
    assert len(tr.tokens) == 10 and tr.truncated_from == 51


def test_loop_yields_steps_then_generation_with_length(tiny_bundle):
    events = list(iter_generation(tiny_bundle, "abc", SamplingParams(temperature=0, max_new_tokens=4)))
    steps, result = events[:-1], events[-1]
    assert all(isinstance(s, Step) for s in steps) and isinstance(result, Generation)
    assert [s.phase for s in steps] == ["prefill", "decode", "decode", "decode"]
    assert result.finish_reason == "length" and len(result.steps) == 4
    sizes = [s.kv_cache_bytes for s in steps]
    assert sizes == sorted(sizes) and sizes[0] > 0 and sizes[1] > sizes[0]  # the cache grows each step
    assert all(s.rank == 1 for s in steps)  # greedy always takes the top raw token (no penalty)
    assert result.seed is None


def test_eos_finishes_with_stop(tiny_bundle):
    first = generate(tiny_bundle, "abc", SamplingParams(temperature=0, max_new_tokens=1)).steps[0].token.id
    info = dataclasses.replace(tiny_bundle.info, eos_token_ids=(first,))
    bundle = tiny_bundle.with_info(info)
    g = generate(bundle, "abc", SamplingParams(temperature=0, max_new_tokens=5))
    assert g.finish_reason == "stop" and len(g.steps) == 1 and g.completion == ""


def test_stop_sequence_finishes_and_cuts(tiny_bundle):
    full = generate(tiny_bundle, "abc", SamplingParams(temperature=0, max_new_tokens=6)).completion
    stop = full[2:4]
    g = generate(tiny_bundle, "abc", SamplingParams(temperature=0, max_new_tokens=6, stop=(stop,)))
    assert g.finish_reason == "stop_sequence" and g.stop_sequence == stop
    assert g.completion == full[: full.find(stop)]


def test_seeded_sampling_is_reproducible_and_reports_its_seed(tiny_bundle):
    p = SamplingParams(temperature=1.5, max_new_tokens=8, seed=11)
    a, b = generate(tiny_bundle, "abc", p), generate(tiny_bundle, "abc", p)
    assert [s.token.id for s in a.steps] == [s.token.id for s in b.steps] and a.seed == 11
    unseeded = generate(tiny_bundle, "abc", SamplingParams(temperature=1.5, max_new_tokens=2))
    assert unseeded.seed is not None


def test_stages_are_recorded_in_order(tiny_bundle):
    g = generate(tiny_bundle, "abc", SamplingParams(temperature=0.7, top_k=5, top_p=0.9, repetition_penalty=1.1,
                                                   max_new_tokens=2, seed=1))
    st = g.steps[0].stages
    assert [s.name for s in st] == ["raw", "repetition_penalty", "temperature", "top_k", "top_p"]
    assert st[3].kept == 5 and st[4].kept <= 5
    assert g.steps[0].sampled_prob > 0


def test_attentions_recorded_per_step(tiny_bundle):
    g = generate(tiny_bundle, "abc", SamplingParams(temperature=0, max_new_tokens=3), record_attentions=True)
    L, H = tiny_bundle.info.n_layers, tiny_bundle.info.n_heads
    assert g.steps[0].attentions.shape == (L, H, 4)  # prefill: last prompt position over 4 tokens
    assert g.steps[2].attentions.shape == (L, H, 6)
    np.testing.assert_allclose(g.steps[2].attentions.sum(-1), 1.0, atol=1e-5)


def test_bad_arguments_raise_before_any_forward_pass(tiny_bundle):
    before = tiny_bundle.forward_passes
    with pytest.raises(InvalidInput):
        generate(tiny_bundle, "", SamplingParams())
    with pytest.raises(InvalidInput):
        generate(tiny_bundle, "abc", SamplingParams(top_p=0))
    assert tiny_bundle.forward_passes == before


@pytest.mark.parametrize("text", ["👍🏽 emoji", "עברית", "zero\u200bwidth", "nul\x00bell\x07", "<strong>x</strong>",
                                  "lone \ud800 surrogate"])
def test_unusual_text_runs(tiny_bundle, text):
    g = generate(tiny_bundle, text, SamplingParams(temperature=0, max_new_tokens=2))
    assert len(g.steps) == 2
