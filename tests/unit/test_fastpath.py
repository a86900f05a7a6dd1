"""Linear layers routed through oneDNN give the same outputs as F.linear, keep their weights, and step aside
where they cannot help (gradients, other dtypes)."""
import copy
import functools

import pytest
import torch
import torch.nn.functional as F
from transformers import Gemma3ForCausalLM, Gemma3TextConfig

from model_backend.runtime import fastpath

pytestmark = pytest.mark.skipif(fastpath._op() is None, reason="this torch has no oneDNN")


class Tiny(torch.nn.Module):
    def __init__(self, dtype):
        super().__init__()
        torch.manual_seed(0)
        self.up = torch.nn.Linear(64, 256, bias=False, dtype=dtype)
        self.down = torch.nn.Linear(256, 64, bias=True, dtype=dtype)
        self.head = torch.nn.Linear(64, 5_000, bias=False, dtype=dtype)

    def forward(self, x):
        return self.head(self.down(F.gelu(self.up(x))))


def _plain(model, x):
    h = F.linear(F.gelu(F.linear(x, model.up.weight)), model.down.weight, model.down.bias)
    return F.linear(h, model.head.weight)


@pytest.mark.parametrize("dtype,tol", [(torch.float32, 1e-4), (torch.bfloat16, 2e-2)])
@pytest.mark.parametrize("shape", [(1, 1, 64), (1, 7, 64), (64,)])  # a decode step, a 7-token prompt, one
def test_outputs_match_the_plain_linear(dtype, tol, shape):                # vector (the pipeline page's MLP view)
    """Where this CPU supports the dtype, all three layers take oneDNN; where it does not (bfloat16 packing
    needs AVX-512 or AVX-NE-CONVERT, and torch's generic kernels refuse it), none does. Same outputs either way."""
    model = Tiny(dtype)
    x = torch.randn(*shape).to(dtype)
    routed = fastpath.supports(dtype)
    with torch.inference_mode():
        want = _plain(model, x)
        assert fastpath.route_linears(model) == (3 if routed else 0)
        got = model(x)
    assert got.dtype == dtype and got.shape == (*shape[:-1], 5_000)
    torch.testing.assert_close(got.float(), want.float(), rtol=tol, atol=tol)
    assert (getattr(model.head.forward, "__func__", None) is fastpath._forward) == routed


def test_float32_takes_onednn_wherever_torch_has_it():
    """float32 reads its own weights (no packing), so no CPU feature beyond oneDNN itself is needed."""
    assert fastpath.supports(torch.float32)
    assert not fastpath.supports(torch.float16)  # not a dtype the fast path handles


def test_weights_stay_parameters_and_only_bfloat16_gets_a_packed_copy():
    full, half = Tiny(torch.float32), Tiny(torch.bfloat16)
    before = {k: v.clone() for k, v in full.state_dict().items()}
    fastpath.route_linears(full)
    fastpath.route_linears(half)
    assert "_tbt_packed" not in full.up.__dict__  # float32 reads its own weight: no extra memory
    if fastpath.supports(torch.bfloat16):
        assert half.up.__dict__["_tbt_packed"].is_mkldnn
    else:  # a CPU without the bfloat16 path gets no copy at all
        assert "_tbt_packed" not in half.up.__dict__
    assert set(full.state_dict()) == set(before)  # the copy is not a buffer: nothing new is saved
    for k, v in full.state_dict().items():
        assert torch.equal(v, before[k])


def test_gradients_and_other_dtypes_take_the_plain_path():
    model = Tiny(torch.float32)
    fastpath.route_linears(model)
    loss = model(torch.randn(2, 64)).sum()  # with gradients: F.linear, so training still works
    loss.backward()
    assert model.up.weight.grad is not None and model.head.weight.grad is not None
    half = Tiny(torch.float16)
    assert fastpath.route_linears(half) == 0
    with torch.inference_mode():  # a float32 input to a bfloat16 layer is F.linear's business (it raises)
        other = Tiny(torch.bfloat16)
        fastpath.route_linears(other)
        with pytest.raises(RuntimeError):
            other(torch.randn(1, 1, 64))


def test_a_broken_operator_leaves_the_model_alone(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("no such kernel")

    monkeypatch.setattr(fastpath, "_pack", broken)
    monkeypatch.setattr(fastpath, "supports", functools.cache(fastpath.supports.__wrapped__))  # checked anew
    model = Tiny(torch.bfloat16)
    assert fastpath.route_linears(model) == 0
    assert "forward" not in model.up.__dict__


def _gemma(dtype, sliding_window=4):
    torch.manual_seed(1)
    config = Gemma3TextConfig(
        vocab_size=50, hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
        num_key_value_heads=1, head_dim=8, max_position_embeddings=64, sliding_window=sliding_window,
        layer_types=["sliding_attention", "full_attention"], pad_token_id=0, eos_token_id=1, bos_token_id=2,
        attn_implementation="eager")
    model = Gemma3ForCausalLM(config).eval()
    for p in model.parameters():  # Gemma's norms start at zero weight; give them something to scale by
        torch.nn.init.normal_(p, std=0.3)
    return model.to(dtype)


def _run(model, ids):
    """Prefill, then three decode steps with the KV cache: logits and attention weights of every step."""
    with torch.inference_mode():
        out = model(input_ids=ids, use_cache=True, output_attentions=True)
        steps = [(out.logits[:, -1].float(), [a.float() for a in out.attentions])]
        past, nxt = out.past_key_values, out.logits[:, -1:].argmax(-1)
        for _ in range(3):
            out = model(input_ids=nxt, past_key_values=past, use_cache=True, output_attentions=True)
            steps.append((out.logits[:, -1].float(), [a.float() for a in out.attentions]))
            past, nxt = out.past_key_values, out.logits[:, -1:].argmax(-1)
    return steps


def test_upcast_attention_is_eager_attention_in_float32():
    ids = torch.tensor([[2, 5, 9, 11, 7, 3, 8]])  # longer than the sliding window: both masks matter
    half = _gemma(torch.bfloat16)
    want = _run(copy.deepcopy(half).float(), ids)  # the same weights, everything in float32
    before = _run(half, ids)
    assert fastpath.upcast_attention(half) and half.config._attn_implementation == fastpath.UPCAST
    after = _run(half, ids)
    scale = max(float(lr.abs().max()) for lr, _ in want)
    for (_, a0), (l1, a1), (lr, ar) in zip(before, after, want):
        assert len(a1) == len(ar) == 2
        for x, y, r in zip(a0, a1, ar):
            assert x.shape == y.shape == r.shape
            assert torch.equal(y == 0, r == 0) and torch.equal(x == 0, y == 0)  # the same positions masked
            torch.testing.assert_close(y.sum(-1), torch.ones_like(y.sum(-1)), rtol=0, atol=2e-2)
            torch.testing.assert_close(y, r, rtol=0, atol=3e-2)
        torch.testing.assert_close(l1, lr, rtol=0, atol=0.05 * scale)
    module = half.model.layers[0].self_attn  # the function itself: the model's eager attention on float32 copies
    q, k, v = (torch.randn(1, n, 3, 8).to(torch.bfloat16) for n in (4, 1, 1))
    out, weights = fastpath._upcast_eager(module, q, k, v, None, scaling=0.5)
    ref_out, ref_weights = fastpath._own_eager(type(module))(module, q.float(), k.float(), v.float(), None, scaling=0.5)
    assert out.dtype == weights.dtype == torch.bfloat16
    assert torch.equal(out, ref_out.to(torch.bfloat16)) and torch.equal(weights, ref_weights.to(torch.bfloat16))
    assert not fastpath.upcast_attention(_gemma(torch.float32))  # float32 keeps plain eager


def test_fused_norms_are_bit_for_bit_the_same():
    ids = torch.tensor([[2, 5, 9, 11, 7]])
    for dtype in (torch.float32, torch.bfloat16):
        model = _gemma(dtype)
        want = _run(model, ids)
        assert fastpath.fuse_norms(model) == 2 * 6 + 1  # 4 per layer + q/k norms, and the final one
        got = _run(model, ids)
        for (lw, aw), (lg, ag) in zip(want, got):
            assert torch.equal(lw, lg)
            assert all(torch.equal(x, y) for x, y in zip(aw, ag))
        norm = model.model.norm
        with torch.no_grad():
            norm.weight.add_(1.0)  # a changed weight is picked up, not a stale cached scale
        x = torch.randn(1, 1, 32).to(dtype)
        with torch.inference_mode():
            fused = norm(x)
        assert torch.equal(fused, type(norm).forward(norm, x))


def test_another_architecture_gets_the_same_speed_ups_and_the_same_answers():
    """Other models are a setting: a Llama-shaped model takes the generic parts (linear layers, float32
    attention products) and keeps its own norms, with logits as before up to bfloat16 rounding."""
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(2)
    config = LlamaConfig(vocab_size=60, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                         attn_implementation="eager")
    model = LlamaForCausalLM(config).eval().to(torch.bfloat16)
    ids = torch.tensor([[1, 7, 9, 30, 4, 12]])
    want = _run(copy.deepcopy(model).float(), ids)
    before = _run(model, ids)
    done = fastpath.speed_up(model)
    assert done == {"linear": 2 * 7 + 1 if fastpath.supports(torch.bfloat16) else 0, "attention": 1, "norm": 0}
    after = _run(model, ids)
    scale = max(float(lr.abs().max()) for lr, _ in want)
    for (l0, _), (l1, a1), (lr, ar) in zip(before, after, want):
        torch.testing.assert_close(l1, lr, rtol=0, atol=0.05 * scale)
        torch.testing.assert_close(l1, l0, rtol=0, atol=0.05 * scale)
        assert all(torch.equal(x == 0, y == 0) for x, y in zip(a1, ar))


def test_auto_on_the_cpu_is_bfloat16_only_where_bfloat16_has_the_fast_path():
    """"auto" follows what this CPU does well: bfloat16 through oneDNN's packed path, else float32 (an AVX2
    CPU's plain bfloat16 prefill costs ~3.5x a float32 one). Explicit choices are kept either way."""
    from model_backend.runtime.loading import pick_dtype

    cpu = torch.device("cpu")
    expected = torch.bfloat16 if fastpath.supports(torch.bfloat16) else torch.float32
    assert pick_dtype("auto", cpu) == expected
    assert pick_dtype("float32", cpu) == torch.float32 and pick_dtype("bfloat16", cpu) == torch.bfloat16
    assert pick_dtype("auto", torch.device("mps")) == torch.float32
