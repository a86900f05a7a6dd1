"""A CPU decode speed-up for the output projection in float32, measured in bench/bench.py.

Each decoded token multiplies one hidden vector by the output matrix (262,144 x 640 for Gemma 3: 671 MB in
float32). PyTorch hands that float32 matrix-vector product to MKL, which runs it on ONE thread here: 39 ms
at 17 GB/s with 1 or 2 torch threads alike, while the machine reads memory at ~46 GB/s. Splitting the
matrix's rows into one slice per torch thread and running the slices side by side (torch releases the
GIL) brings it to ~21 ms. Each output element is still the same dot product of one row with the vector,
and the weight is not copied (the slices are views), so tied embeddings stay tied.
bfloat16 goes through oneDNN, which already uses every thread; it is left alone.
"""
from __future__ import annotations

import threading
import types
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.nn.functional as F

MIN_ROWS = 32_768  # below this the threads cost more than they save
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=3, thread_name_prefix="tbt-gemv")
        return _pool


def _mm_into(x: torch.Tensor, w: torch.Tensor, out: torch.Tensor, inference: bool) -> None:
    with torch.inference_mode(inference):
        torch.mm(x, w.T, out=out)


def split_linear(x: torch.Tensor, weight: torch.Tensor, parts: int) -> torch.Tensor:
    """x @ weight.T for a single row x [.., 1, in] with the output rows computed in `parts` threads."""
    flat = x.reshape(1, x.shape[-1])
    out = torch.empty(1, weight.shape[0], dtype=x.dtype, device=x.device)
    slices = list(zip(weight.chunk(parts), out.chunk(parts, dim=-1)))
    inference = torch.is_inference_mode_enabled()
    futures = [_executor().submit(_mm_into, flat, w, o, inference) for w, o in slices[1:]]
    _mm_into(flat, *slices[0], inference)
    for f in futures:
        f.result()
    return out.reshape(*x.shape[:-1], weight.shape[0])


def _forward(self: torch.nn.Linear, x: torch.Tensor) -> torch.Tensor:
    parts = min(torch.get_num_threads(), 4)
    one_row = x.numel() == x.shape[-1]
    if (parts < 2 or not one_row or x.dtype != torch.float32 or self.bias is not None or x.device.type != "cpu"
            or (torch.is_grad_enabled() and self.weight.requires_grad)):
        return F.linear(x, self.weight, self.bias)
    return split_linear(x, self.weight, parts)


def speed_up_output(model: torch.nn.Module) -> bool:
    """Give the model's output projection the threaded matrix-vector product; True when it was installed.

    Only a float32, bias-free projection with at least MIN_ROWS rows on the CPU qualifies. (The same split
    on the 18 layers' own projections, 0.3-5 MB each, made decoding slower: 66 ms instead of 57 ms per
    token, because the thread hand-off costs more than the small products save.)
    """
    head = model.get_output_embeddings() if hasattr(model, "get_output_embeddings") else None
    if not isinstance(head, torch.nn.Linear) or head.weight.shape[0] < MIN_ROWS or head.bias is not None:
        return False
    if head.weight.dtype != torch.float32 or head.weight.device.type != "cpu":
        return False
    head.forward = types.MethodType(_forward, head)
    return True
