"""The KV cache's size, in one place: values a token adds, bytes per position, the size after n positions,
and the size measured from a transformers cache's own tensors (which a test checks against the formula)."""
from __future__ import annotations

import torch

from model_backend.types import ModelInfo


def kv_values_per_token(n_kv_heads: int, head_dim: int) -> int:
    """Numbers one layer's KV cache keeps per token: one key and one value vector per key/value head."""
    return 2 * n_kv_heads * head_dim


def kv_bytes_per_position(info: ModelInfo) -> int:
    """What one more token adds to the KV cache: keys and values (2) x layers x key/value heads x head size
    x bytes per number (2 in bfloat16, 4 in float32)."""
    bytes_per_value = getattr(torch, info.dtype).itemsize  # (no tensor made: the loop page asks on every step)
    return info.n_layers * kv_values_per_token(info.n_kv_heads, info.head_dim) * bytes_per_value


def kv_cache_bytes_at(info: ModelInfo, positions: int) -> int:
    """The KV cache's size once it has seen `positions` tokens. A full-attention layer keeps every position;
    a sliding-window layer keeps only the last sliding_window - 1 (transformers' DynamicSlidingWindowLayer:
    the incoming token makes the window whole), so past the window the cost per position drops to the
    full-attention layers' share."""
    per_layer = kv_bytes_per_position(info) // max(info.n_layers, 1)  # keys and values of one position, one layer
    window = (info.sliding_window or 0) - 1
    kept = [min(positions, window) if kind == "sliding_attention" and window > 0 else positions
            for kind in info.layer_types]
    return per_layer * sum(kept)


def kv_cache_bytes(cache) -> int:
    """Bytes held by the key/value tensors of a transformers cache."""
    total = 0
    for layer in getattr(cache, "layers", None) or []:
        for name in ("keys", "values"):
            t = getattr(layer, name, None)
            if isinstance(t, torch.Tensor):
                total += t.numel() * t.element_size()
    if total == 0 and hasattr(cache, "key_cache"):  # older cache layout
        for t in list(cache.key_cache) + list(cache.value_cache):
            total += t.numel() * t.element_size()
    return total
