"""The pipeline and loop pages' numbers on the real Gemma 3 270M (float32)."""
import numpy as np
import pytest
import torch

from model_backend import SamplingParams, generate, trace
from model_backend.core.kv import kv_bytes_per_position
from model_backend.core.mlp import mlp_inputs, mlp_view
from model_backend.lessons.pipeline import softmax_view

PROMPT = "A capital da França é"
EINSTEIN = "Albert Einstein nasceu em"


@pytest.fixture(scope="module")
def real_trace(real_bundle):
    return trace(real_bundle, PROMPT)


def test_softmax_over_the_whole_vocabulary_sums_to_one(real_trace):
    sm = softmax_view(real_trace.last_logits)
    assert sm.vocab_size == 262_144
    assert sm.total == pytest.approx(1.0, abs=1e-4)
    assert sm.ids[0] == real_trace.top[-1][0].id  # the same winner the trace reports
    assert sm.probs[0] == pytest.approx(real_trace.top[-1][0].prob, abs=1e-5)


def test_mlp_expands_640_to_2048_with_the_configured_activation(real_bundle):
    inputs = mlp_inputs(real_bundle, PROMPT)
    assert inputs.shape == (18, 640)
    view = mlp_view(real_bundle, inputs, layer=8)
    assert (view.d_model, view.d_ff, view.activation) == (640, 2048, "gelu_pytorch_tanh")
    assert view.gated and view.hidden.shape == (2048,) and view.out.shape == (640,)
    assert view.n_params == 3 * 640 * 2048
    mlp = real_bundle.weights.model.layers[8].mlp
    with real_bundle.engine.exclusive(), torch.inference_mode():
        np.testing.assert_allclose(view.out, mlp(torch.from_numpy(inputs[8])).numpy(), rtol=1e-4, atol=1e-5)
    assert all(not layer.mlp._forward_hooks for layer in real_bundle.weights.model.layers)


def test_stop_sequence_in_the_greedy_text_ends_the_loop_and_its_last_step_says_so(real_bundle):
    params = SamplingParams(temperature=0, max_new_tokens=12, stop=(" Ulm",))  # digits are single tokens
    g = generate(real_bundle, EINSTEIN, params)
    assert g.finish_reason == "stop_sequence" and g.stop_sequence == " Ulm"
    assert g.completion == " 1879 em"
    assert [s.finish_reason for s in g.steps] == [None] * (len(g.steps) - 1) + ["stop_sequence"]


def test_kv_cache_grows_by_the_computed_bytes_per_position(real_bundle):
    g = generate(real_bundle, PROMPT, SamplingParams(temperature=0, max_new_tokens=3))
    per = kv_bytes_per_position(real_bundle.info)
    assert per == 2 * 18 * 1 * 256 * 4  # float32: 36,864 bytes per token
    sizes = [s.kv_cache_bytes for s in g.steps]
    assert sizes[0] == per * len(g.prompt_tokens)
    assert [b - a for a, b in zip(sizes, sizes[1:])] == [per, per]


def test_gemma_ties_the_output_matrix_to_the_embedding_and_w_h_gives_its_logits(real_bundle, real_trace):
    from model_backend.lessons.pipeline import output_layer
    out = output_layer(real_bundle, real_trace.hidden_states[-1][-1], real_trace.last_logits)
    assert out.tied_config and out.same_tensor and out.equal_values  # one matrix, measured on the loaded model
    assert (out.vocab, out.d_model) == (262_144, 640) and out.shared_params == 262_144 * 640
    assert out.softcap is None  # Gemma 3 has no final logit soft-capping (Gemma 2 had 30)
    assert out.same_top
    # float32 both ways; a different summation order (blocked product vs the model's kernel) moves logits
    # of size ~10-30 by a few 1e-5; 1e-3 holds across CPUs
    assert out.max_diff < 1e-3
    print("\nW·h vs model logits, float32, max |diff|:", out.max_diff)
