"""CPU decode speed-up for the model's linear layers, measured in bench/bench.py.

Decoding one token multiplies one hidden vector by every weight matrix of the model: 126 small matrices in
the 18 layers of Gemma 3 270M and the 262,144 x 640 output projection. That is memory-bound work, and
PyTorch's default CPU path runs it on one core: MKL's float32 matrix-vector product stays on one thread
(~17 GB/s here), and bfloat16 goes through oneDNN with a weight layout chosen per call (~24 GB/s).
oneDNN's linear operator (`torch.ops.mkldnn._linear_pointwise`, the one torch.compile uses on the CPU)
runs the same products on every thread:
- float32: straight from the model's own weights, no copy: 34-38 GB/s; decoding 60 -> 37 ms/token.
- bfloat16: from a copy of each weight repacked once into oneDNN's blocked layout for one-row inputs
  (`_reorder_linear_weight`): 30-34 GB/s; decoding 31 -> 24 ms/token. The copies cost memory (+535 MB for
  Gemma 3 270M, the tied output projection included), and the model's own weights stay as they are.
Each output element is still a dot product of one weight row with the input, in float32 accumulation;
results match F.linear to rounding (checked once at install, and in tests/unit/test_fastpath.py).
Everything else (gradients, other devices, other dtypes, a torch without oneDNN) takes F.linear.
"""
from __future__ import annotations

import logging
import types

import torch
import torch.nn.functional as F

log = logging.getLogger(__name__)

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
    packed = self.__dict__.get("_tbt_packed")
    return torch.ops.mkldnn._linear_pointwise(x, w if packed is None else packed, self.bias, "none", [], "")


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


def speed_up(model: torch.nn.Module) -> int:
    """Route the model's float32 and bfloat16 CPU linear layers through oneDNN; returns how many.

    Idempotent. The module keeps its weight Parameter (state dict, tied embeddings and training are
    unchanged); a bfloat16 layer also holds a repacked copy used only by inference.
    """
    if _op() is None:
        return 0
    verified: dict[torch.dtype, bool] = {}
    count = 0
    for module in model.modules():
        if not isinstance(module, torch.nn.Linear):
            continue
        w = module.weight
        if w.device.type != "cpu" or w.dtype not in FAST:
            continue
        if w.dtype not in verified:
            verified[w.dtype] = _works(w.dtype)
        if not verified[w.dtype]:
            continue
        if w.dtype in PACKED:
            module.__dict__["_tbt_packed"] = _pack(w)
        module.forward = types.MethodType(_forward, module)
        count += 1
    return count
