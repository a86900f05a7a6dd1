"""Where CUDA is present the app runs the model there: the tiny model on the GPU gives what it gives on the CPU.

Skipped without a GPU (CI has none); run on a machine with one. Tolerances: the GPU sums in another order
than the CPU (and in float32 matrix products may use TF32 if enabled, which it is not by default), so
probabilities are compared to 1e-4 and token choices exactly where the top two are not within 1e-3.
"""
import numpy as np
import pytest
import torch

from model_backend import SamplingParams, bundle_from, generate, trace
from model_backend.runtime import fastpath
from model_backend.runtime.loading import pick_device, pick_dtype
from tests.tiny import make_tiny_model

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device here")


@pytest.fixture(scope="module")
def pair(tiny_bundle):
    model, tokenizer = make_tiny_model()  # the same seed as tiny_bundle: the same weights
    return tiny_bundle, bundle_from(model.to("cuda"), tokenizer, "tiny-gemma3-cuda")


def test_auto_picks_cuda_and_bfloat16():
    assert pick_device("auto").type == "cuda"
    assert pick_dtype("auto", pick_device("auto")) == torch.bfloat16


def test_the_cpu_speed_ups_leave_a_gpu_model_alone(pair):
    cpu, gpu = pair
    assert all("forward" not in m.__dict__ for m in gpu.model.modules() if isinstance(m, torch.nn.Linear))
    assert fastpath.route_linears(gpu.model) == 0 and gpu.device.type == "cuda"
    for (name, a), (_, b) in zip(cpu.model.state_dict().items(), gpu.model.state_dict().items()):
        assert torch.equal(a, b.cpu()), name  # the same weights on both devices


def test_a_trace_on_the_gpu_matches_the_cpu(pair):
    cpu, gpu = pair
    a, b = trace(cpu, "O gato subiu", top_n=5), trace(gpu, "O gato subiu", top_n=5)
    assert [t.id for t in a.tokens] == [t.id for t in b.tokens]
    np.testing.assert_allclose(b.last_logits, a.last_logits, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(b.attentions, a.attentions, rtol=0, atol=1e-4)
    np.testing.assert_allclose([c.prob for c in b.top[-1]], [c.prob for c in a.top[-1]], rtol=0, atol=1e-4)


def test_greedy_and_seeded_generation_run_on_the_gpu(pair):
    cpu, gpu = pair
    greedy = SamplingParams(temperature=0, max_new_tokens=12)
    g_cpu, g_gpu = generate(cpu, "O gato", greedy), generate(gpu, "O gato", greedy)
    for s_cpu, s_gpu in zip(g_cpu.steps, g_gpu.steps):
        probs = sorted((c.prob for c in s_cpu.top), reverse=True)
        if len(probs) > 1 and probs[0] - probs[1] < 1e-3:
            break  # a near-tie: the two devices may rightly part here
        assert s_cpu.token.id == s_gpu.token.id
        assert s_gpu.prob == pytest.approx(s_cpu.prob, abs=1e-4)
    seeded = SamplingParams(temperature=0.8, max_new_tokens=8, seed=3)
    one, two = generate(gpu, "O gato", seeded), generate(gpu, "O gato", seeded)
    assert [s.token.id for s in one.steps] == [s.token.id for s in two.steps]  # same device, same seed
