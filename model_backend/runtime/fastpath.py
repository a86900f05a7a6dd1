"""CPU decode speed-ups (linear layers, bf16 attention products, Gemma's norms), measured in bench/bench.py.

Decoding one token multiplies one hidden vector by every weight matrix of the model: 126 small matrices in
the 18 layers of Gemma 3 270M and the 262,144 x 640 output projection. That is memory-bound work, and
PyTorch's default CPU path runs it on one core: MKL's float32 matrix-vector product stays on one thread
(~17 GB/s here), and bfloat16 goes through oneDNN with a weight layout chosen per call (~24 GB/s).
oneDNN's linear operator (`torch.ops.mkldnn._linear_pointwise`, the one torch.compile uses on the CPU)
runs the same products on every thread:
- float32: straight from the model's own weights, no copy: 34-38 GB/s; decoding 60 -> 38 ms/token.
- bfloat16: from a copy of each weight repacked once into oneDNN's blocked layout for one-row inputs
  (`_reorder_linear_weight`): 30-34 GB/s; decoding 31 -> 24 ms/token. The copies cost memory (+535 MB for
  Gemma 3 270M, the tied output projection included), and the model's own weights stay as they are.
  The copy is made once: it is for inference on weights that no longer change, as here.
Each output element is still a dot product of one weight row with the input, in float32 accumulation;
results match F.linear to rounding (checked once at install, and in tests/unit/test_fastpath.py).
Everything else (gradients, other devices, other dtypes, a torch without oneDNN) takes F.linear.

Two smaller costs of each decode step, also measured:
- Attention in bfloat16 on the CPU: the two small products (query x keys, weights x values) change shape
  every step as the cache grows, and oneDNN builds a new bfloat16 kernel for each new shape (~55 us each,
  36 per token). `upcast_attention` runs the model's own eager attention on float32 copies of query, key and
  value instead (~5 us each) and hands back bfloat16: the same function, computed more precisely.
- Gemma's RMSNorm spends ~11 small operators per call (109 calls per token); `fuse_norms` computes the same
  float32 formula with torch's rms_norm, bit for bit equal.
"""
from __future__ import annotations

import functools
import logging
import sys
import types

import torch
import torch.nn.functional as F

log = logging.getLogger(__name__)

UPCAST = "tbt_eager_fp32"  # the attention implementation registered below
GEMMA_NORMS = frozenset({"GemmaRMSNorm", "Gemma2RMSNorm", "Gemma3RMSNorm"})  # x * rsqrt(mean(x^2) + eps) * (1 + w)

PACKED = (torch.bfloat16,)  # dtypes whose weights get a repacked copy; float32 is fast from its own layout
FAST = (torch.float32, torch.bfloat16)


def _op():
    """oneDNN's linear operator, or None where this torch has no oneDNN."""
    if not torch.backends.mkldnn.is_available():
        return None
    return getattr(torch.ops.mkldnn, "_linear_pointwise", None)


def _pack(weight: torch.Tensor) -> torch.Tensor:
    return torch.ops.mkldnn._reorder_linear_weight(weight.detach(), 1)  # laid out for one-row inputs


def _forward(self: torch.nn.Linear, x: torch.Tensor) -> torch.Tensor:
    w = self.weight
    if x.dtype != w.dtype or x.device.type != "cpu" or (torch.is_grad_enabled() and w.requires_grad):
        return F.linear(x, w, self.bias)
    weight = self.__dict__.get("_tbt_packed", w)
    if x.numel() == x.shape[-1] and self.__dict__.get("_tbt_two_rows"):  # one row: see `_two_rows`
        return _two_rows(x, weight, self.bias)
    return torch.ops.mkldnn._linear_pointwise(x, weight, self.bias, "none", [], "")


def _two_rows(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None) -> torch.Tensor:
    """A one-row product computed as the first of two equal rows: the very numbers that row gets inside any larger
    batch. oneDNN runs a single row through another kernel than two or more, whose sums come out different in the
    last bits (in float32 for every shape here; in bfloat16 for the MLP's 2,048-wide down-projection only:
    `one_row_differs` finds them once per shape), while with two rows or more each row's result is the same
    wherever it sits in the batch (tests/unit/test_invariance.py). So a visitor alone and a visitor batched with
    others by the engine get bitwise-equal logits (runtime/invariance.py). Only the bfloat16 layers that need it
    take this path: there it costs nothing measurable, while in float32, where every layer would need it, a decode
    step alone took 89 ms instead of 72 (median of 6 here), so float32 keeps its one-row kernel and a batched
    visitor's float32 logits may differ from its logits alone in the last digits (docs/engine-bench.md)."""
    rows = x.reshape(1, x.shape[-1])
    out = torch.ops.mkldnn._linear_pointwise(torch.cat([rows, rows]), weight, bias, "none", [], "")
    return out[:1].reshape(*x.shape[:-1], out.shape[-1])


@functools.cache
def one_row_differs(k: int, n: int, dtype: torch.dtype) -> bool:
    """Whether oneDNN's [n, k] product (packed in bfloat16) gives a row alone other bits than the same row among
    others (checked once per shape on random rows: each of 64 rows alone against the 64 together; in bfloat16 the
    down-projection differs for about one row in six, in one or two of its 640 values)."""
    gen = torch.Generator().manual_seed(0)
    w = (torch.randn(n, k, generator=gen) / k ** 0.5).to(dtype)
    x = torch.randn(64, k, generator=gen).to(dtype)
    weight = _pack(w) if dtype in PACKED else w
    together = torch.ops.mkldnn._linear_pointwise(x, weight, None, "none", [], "")
    return any(not torch.equal(torch.ops.mkldnn._linear_pointwise(x[i:i + 1], weight, None, "none", [], ""),
                               together[i:i + 1]) for i in range(len(x)))


def _works(dtype: torch.dtype) -> bool:
    """A small product through oneDNN, packed or not, equals F.linear: guards against a torch where the
    private operator changed."""
    try:
        gen = torch.Generator().manual_seed(0)
        w = torch.randn(96, 64, generator=gen).to(dtype)
        b = torch.randn(96, generator=gen).to(dtype)
        x = torch.randn(1, 3, 64, generator=gen).to(dtype)
        want = F.linear(x, w, b).float()
        tol = 1e-4 if dtype == torch.float32 else 3e-2
        for weight in (w, _pack(w)) if dtype in PACKED else (w,):
            got = torch.ops.mkldnn._linear_pointwise(x, weight, b, "none", [], "").float()
            if got.shape != want.shape or not torch.allclose(got, want, rtol=tol, atol=tol):
                return False
        return True
    except Exception as exc:  # noqa: BLE001 - any failure means: keep the plain path
        log.warning("oneDNN linear unavailable (%s); using the plain path", exc)
        return False


@functools.cache
def supports(dtype: torch.dtype) -> bool:
    """Whether this CPU and torch run `dtype` linear layers through oneDNN correctly (checked once per process).

    Not every CPU can: oneDNN's bfloat16 weight packing needs AVX-512 (BW, VL, DQ) or AVX-NE-CONVERT, and
    torch's generic kernels (ATEN_CPU_CAPABILITY=default) refuse it. Such a CPU keeps the plain path.
    """
    return _op() is not None and dtype in FAST and _works(dtype)


def speed_up(model: torch.nn.Module) -> dict[str, int]:
    """All three speed-ups; what each changed (counts of modules, 1/0 for the attention switch)."""
    done = {"linear": route_linears(model), "attention": int(upcast_attention(model)), "norm": fuse_norms(model)}
    log.info("CPU speed-ups: %s", done)
    return done


def route_linears(model: torch.nn.Module) -> int:
    """Route the model's float32 and bfloat16 CPU linear layers through oneDNN; returns how many.

    Idempotent. The module keeps its weight Parameter (state dict, tied embeddings and training are
    unchanged); a bfloat16 layer also holds a repacked copy used only by inference.
    """
    count = 0
    for module in model.modules():
        if not isinstance(module, torch.nn.Linear):
            continue
        w = module.weight
        if w.device.type != "cpu" or not supports(w.dtype):
            continue
        if w.dtype in PACKED:  # float32 keeps its faster one-row kernel: see `_two_rows`
            module.__dict__["_tbt_packed"] = _pack(w)
            module.__dict__["_tbt_two_rows"] = one_row_differs(w.shape[1], w.shape[0], w.dtype)
        module.forward = types.MethodType(_forward, module)
        count += 1
    return count


@functools.cache
def _own_eager(cls: type):
    """The eager attention function of the model family an attention module belongs to."""
    return getattr(sys.modules[cls.__module__], "eager_attention_forward", None)


def _upcast_eager(module, query, key, value, attention_mask, **kwargs):
    own = _own_eager(type(module))
    dtype = query.dtype
    if dtype == torch.float32 or query.device.type != "cpu":
        return own(module, query, key, value, attention_mask, **kwargs)
    out, weights = own(module, query.float(), key.float(), value.float(), attention_mask, **kwargs)
    return out.to(dtype), None if weights is None else weights.to(dtype)


@functools.cache
def _register() -> bool:
    try:
        from transformers import AttentionInterface
        from transformers.masking_utils import AttentionMaskInterface, eager_mask
    except ImportError:
        return False
    AttentionInterface.register(UPCAST, _upcast_eager)
    AttentionMaskInterface.register(UPCAST, eager_mask)  # the same additive mask eager attention gets
    return True


def upcast_attention(model: torch.nn.Module) -> bool:
    """Switch a half-precision CPU model from eager attention to its own eager function on float32 copies.

    Only where the model uses eager attention, supports switching (transformers' AttentionInterface), and
    every attention module's family has an `eager_attention_forward` to delegate to. True when switched.
    """
    param = next(model.parameters(), None)
    config = getattr(model, "config", None)
    if param is None or param.device.type != "cpu" or param.dtype not in (torch.bfloat16, torch.float16):
        return False
    if getattr(config, "_attn_implementation", None) != "eager" or not hasattr(model, "set_attn_implementation"):
        return False
    families = {type(m) for m in model.modules() if type(m).__name__.endswith("Attention")}
    if not families or any(_own_eager(cls) is None for cls in families) or not _register():
        return False
    try:
        model.set_attn_implementation(UPCAST)
    except Exception as exc:  # noqa: BLE001 - keep plain eager attention
        log.warning("attention stays eager (%s)", exc)
        return False
    return config._attn_implementation == UPCAST


def _norm_forward(self, x: torch.Tensor) -> torch.Tensor:
    w = self.weight
    if torch.is_grad_enabled() and w.requires_grad:
        return type(self).forward(self, x)
    key = (w._version, w.data_ptr())
    cached = self.__dict__.get("_tbt_scale")
    if cached is None or cached[0] != key:
        cached = (key, 1.0 + w.detach().float())
        self.__dict__["_tbt_scale"] = cached
    return F.rms_norm(x.float(), (x.shape[-1],), cached[1], self.eps).type_as(x)


def fuse_norms(model: torch.nn.Module) -> int:
    """Give Gemma's RMSNorm modules the one-call form of their own formula; returns how many."""
    count = 0
    for module in model.modules():
        if type(module).__name__ in GEMMA_NORMS and isinstance(getattr(module, "eps", None), float):
            module.forward = types.MethodType(_norm_forward, module)
            count += 1
    return count
