"""Batch-invariant attention for the engine's batched passes: a visitor's numbers do not depend on who else is on.

When the engine puts several visitors' rows into one pass, the linear layers give each row the same bits wherever
it sits in a product of two rows or more (oneDNN's kernels on this CPU, bfloat16 and float32,
tests/unit/test_invariance.py), and a bfloat16 row alone is computed as two equal rows where its one-row kernel would
differ (fastpath._two_rows; float32 keeps its faster one-row kernel, so there a visitor alone and batched may differ
in the last digits); the norms and the rotary positions work row by row. Attention does not: a padded row's softmax
and its product with the values run over more keys (the masked ones add zeros), with another split of the sums, and
in bfloat16 the last-bit differences that leaves are rounded up into whole tokens (bench/engine_bench.py measured
greedy tokens that changed for 10 of 50 prompts within 12 steps, before this module).

So in the engine's batched passes each request's attention runs on its own keys, with the very call and shapes it
gets alone: the same function (the model's own eager attention, or fastpath's float32 copy of it), the same
query, keys, values and mask. Where the model allows it (`Own`), nothing is padded at all: each request keeps its
own cache, a prefill's prompts are packed into one sequence, and each row reads its keys from its request's cache.
Where it does not (a pass that returns attention weights), the batch is padded and, inside `rows()`, each row's
attention runs on its keys without the padding. That is the batch-invariant attention of Thinking Machines (He et
al., 2025: "Defeating Nondeterminism in LLM Inference"), done the simple way: a loop over the rows of a pass, which
costs a few small calls per row and layer. Outside `own()` and `rows()` attention is untouched, so a padded batch
anywhere else (the nondeterminism page's "alone vs in a batch") still computes the ordinary way.
"""
from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import torch

PREFIX = "tbt_rows_"  # the registered name: PREFIX + the attention implementation it wraps
_state = threading.local()  # .on: this thread is inside the engine's batched pass


@contextmanager
def rows() -> Iterator[None]:
    """Within this block, on this thread, a padded batch's attention runs row by row on each row's own keys."""
    before = getattr(_state, "on", False), getattr(_state, "starts", None)
    _state.on, _state.starts = True, {}  # each mask's rows' first keys, found once per pass (layers share masks)
    try:
        yield
    finally:
        _state.on, _state.starts = before


def _own_eager(module: torch.nn.Module):
    return getattr(sys.modules[type(module).__module__], "eager_attention_forward", None)


def _inner(name: str):
    """The attention function that `name` stands for: the module's own eager one, or a registered one."""
    if name == "eager":
        return lambda module, *args, **kwargs: _own_eager(module)(module, *args, **kwargs)
    from transformers import AttentionInterface

    return AttentionInterface._global_mapping[name]


def _first_keys(mask: torch.Tensor) -> list[int]:
    """Each row's first visible key column (its left padding's length), from its additive mask's last query row
    ([B, 1, q, kv]: 0 where a key is visible, the dtype's minimum where it is masked). Kept for the pass."""
    found = _state.starts.get(id(mask))
    if found is None or found[0] is not mask:
        allowed = mask[:, 0, -1] == 0  # [B, kv]
        firsts = allowed.to(torch.int8).argmax(dim=-1) * allowed.any(dim=-1)  # a row with no visible key: 0
        found = _state.starts[id(mask)] = (mask, firsts.tolist())
    return found[1]


def _row_by_row(fn, module, query, key, value, attention_mask, **kwargs):
    """`fn` on each row alone: its own keys (from its first visible one), and for a prefill its own queries."""
    batch, q_len, kv_len = query.shape[0], query.shape[-2], key.shape[-2]
    out = query.new_zeros(batch, q_len, query.shape[1], value.shape[-1])  # [B, q, heads, head_dim]
    weights = None
    for b, start in enumerate(_first_keys(attention_mask)):
        q_from = start if q_len == kv_len else 0  # a prefill's padded queries are not computed (never read)
        o, w = fn(module, query[b:b + 1, :, q_from:], key[b:b + 1, :, start:], value[b:b + 1, :, start:],
                  attention_mask[b:b + 1, :, q_from:, start:], **kwargs)
        out[b, q_from:] = o[0]
        if w is not None:
            if weights is None:
                weights = w.new_zeros(batch, w.shape[1], q_len, kv_len)
            weights[b, :, q_from:, start:] = w[0]
    return out, weights


class Own:
    """A batched pass's cache when every request keeps its own (the engine's passes without attention weights): it
    stands where the model expects one batch cache, and is never one. Each request's new keys and values go straight
    into that request's own cache (a decode step: the cache it brought; a prefill: a new one), and the attention
    reads each row's keys from there: no padded batch cache is assembled before a step and cut apart after it, and
    no padding is computed. The rows of a decode pass are the batch's rows ([B, heads, 1, d]); a prefill's are
    packed into one row ([1, heads, T, d]: every prompt's tokens one after another), so its linear layers compute
    the real tokens only. A request's rows attend to their own keys together, with the very call they get alone
    (its rows always share a pass, and nobody else's row is in that call): for a prefill, their causal mask
    (eager's additive one, 0 and the dtype's minimum); for a decode step, every key (no mask: adding a mask of zeros
    changes no bit).

    caches: one per request. spans: per request, its rows' places in the pass, (start, stop): the batch rows of a
    decode pass, or the token positions of a packed prefill. elsewhere: runs a function somewhere else and returns
    its result (a thread of the engine's with one intra-op thread, for a pass whose own thread has a team of
    several: there the rows' hundreds of small products and softmaxes cost ~50 us each instead of ~3), or None."""

    def __init__(self, caches: list, spans: list[list[tuple[int, int]]], prefill: bool, elsewhere=None) -> None:
        self.caches, self.spans, self.prefill, self.elsewhere = caches, spans, prefill, elsewhere
        self.kv: dict[int, list] = {}  # layer index -> each request's (keys, values) as attention reads them
        self.attended: set[int] = set()  # the layers whose attention read them (the engine checks: every layer)
        self.masks: dict = {}  # a prefill's causal masks, by length, dtype and device

    def update(self, keys: torch.Tensor, values: torch.Tensor, layer_idx: int, *args, **kwargs):
        found = []
        for cache, spans in zip(self.caches, self.spans):
            found.append(cache.update(self._rows(keys, spans), self._rows(values, spans), layer_idx))
        self.kv[layer_idx] = found
        return keys, values

    def get_seq_length(self, layer_idx: int = 0) -> int:
        """The longest of its requests' caches, in tokens (a cache's own question, for code that asks any cache)."""
        return max((cache.get_seq_length(layer_idx) for cache in self.caches), default=0)

    def _rows(self, x: torch.Tensor, spans: list[tuple[int, int]], copy: bool = True) -> torch.Tensor:
        """A request's rows of x, [rows, ...]: a prefill's spans of the packed row, stacked (its rows have one
        length), or a decode pass's consecutive batch rows. copy=False: one span stays a view (a query, read once;
        a cache's keys are copied, so that they do not hold the whole pass's)."""
        if not self.prefill:
            return x[spans[0][0]:spans[-1][1]]
        if len(spans) == 1:
            one = x[:, :, spans[0][0]:spans[0][1]]
            return one.contiguous() if copy else one
        return torch.cat([x[:, :, a:b] for a, b in spans])

    def _causal(self, n: int, dtype: torch.dtype, device: torch.device) -> torch.Tensor:
        key = (n, dtype, device)
        if key not in self.masks:
            above = torch.ones(n, n, dtype=torch.bool, device=device).triu(1)
            self.masks[key] = torch.zeros(1, 1, n, n, dtype=dtype, device=device).masked_fill(
                above, torch.finfo(dtype).min)
        return self.masks[key]

    def attend(self, fn, module, query: torch.Tensor, upcast: bool, **kwargs):
        """fn's attention for every row on its own keys; [B, q, heads, head_dim] as eager gives it, no weights."""
        if self.elsewhere is not None:
            inference = torch.is_inference_mode_enabled()

            def there():
                with torch.inference_mode(inference):
                    return self._attend(fn, module, query, upcast, **kwargs)
            return self.elsewhere(there)
        return self._attend(fn, module, query, upcast, **kwargs)

    def _attend(self, fn, module, query: torch.Tensor, upcast: bool, **kwargs):
        self.attended.add(module.layer_idx)
        dtype = query.dtype
        if upcast:
            query = query.float()
        out = None
        for (keys, values), spans in zip(self.kv[module.layer_idx], self.spans):
            if upcast:
                keys, values = keys.float(), values.float()
            mask = self._causal(spans[0][1] - spans[0][0], dtype, query.device) if self.prefill else None
            o, _ = fn(module, self._rows(query, spans, copy=False), keys, values, mask, **kwargs)  # its rows at once
            if out is None:
                out = o.new_zeros(query.shape[0], query.shape[2], query.shape[1], o.shape[-1])
            if self.prefill:
                for j, (a, b) in enumerate(spans):
                    out[0, a:b] = o[j]
            else:
                out[spans[0][0]:spans[-1][1]] = o
        return (out.to(dtype) if upcast else out), None


@contextmanager
def own(cache: Own) -> Iterator[None]:
    """Within this block, on this thread, attention reads each row's keys from `cache` (an Own the pass was given).
    Raises RuntimeError at the end if a layer stored keys in it that no attention of `own` read: that layer's
    attention ran some other way, over the whole pass (its rows would have seen each other's tokens)."""
    before = getattr(_state, "own", None)
    _state.own = cache
    try:
        yield
    finally:
        _state.own = before
    if set(cache.kv) - cache.attended:
        raise RuntimeError(f"layers {sorted(set(cache.kv) - cache.attended)} did not attend through invariance.Own")


@functools.cache
def _wrapper(name: str):
    from model_backend.runtime.fastpath import UPCAST

    inner = _inner(name)

    def attention(module, query, key, value, attention_mask, **kwargs):
        cache = getattr(_state, "own", None)
        if cache is not None:
            upcast = name == UPCAST and query.dtype != torch.float32 and query.device.type == "cpu"
            return cache.attend(_own_eager(module) if upcast else inner, module, query, upcast, **kwargs)
        batch, q_len, kv_len = query.shape[0], query.shape[-2], key.shape[-2]
        if (not getattr(_state, "on", False) or batch == 1 or attention_mask is None
                or attention_mask.dim() != 4 or attention_mask.dtype == torch.bool or q_len not in (1, kv_len)):
            return inner(module, query, key, value, attention_mask, **kwargs)
        if name == UPCAST and query.dtype != torch.float32 and query.device.type == "cpu":
            # fastpath's float32 copy of eager attention, row by row: the whole batch is copied to float32 once
            # (the same values a row's own copy has) and the rows' results are rounded back together
            out, weights = _row_by_row(_own_eager(module), module, query.float(), key.float(), value.float(),
                                       attention_mask, **kwargs)
            return out.to(query.dtype), None if weights is None else weights.to(query.dtype)
        return _row_by_row(inner, module, query, key, value, attention_mask, **kwargs)

    return attention


def can_own(model: torch.nn.Module) -> bool:
    """Whether the model's batched passes can keep each request's own cache (Own): every attention module knows its
    layer, and the model takes a mask per layer kind (a dict: Gemma 3's models do), so none is built for the batch."""
    attentions = [m for m in model.modules() if type(m).__name__.endswith("Attention")]
    config = getattr(model, "config", None)
    return bool(attentions) and all(isinstance(getattr(m, "layer_idx", None), int) for m in attentions) and bool(
        getattr(config, "layer_types", None))


def install(model: torch.nn.Module) -> bool:
    """Wrap the model's attention implementation (eager, or fastpath's float32 eager) so that `rows()` can make it
    row by row. Call it after any other switch of the attention implementation. True when the model uses it."""
    config = getattr(model, "config", None)
    name = getattr(config, "_attn_implementation", None)
    if name is None or name.startswith(PREFIX) or not hasattr(model, "set_attn_implementation"):
        return bool(name and name.startswith(PREFIX))
    if name != "eager":
        from transformers import AttentionInterface
        if name not in getattr(AttentionInterface, "_global_mapping", {}):  # a private name: absent means "no"
            return False
    attentions = [m for m in model.modules() if type(m).__name__.endswith("Attention")]
    if not attentions or any(_own_eager(m) is None for m in attentions):
        return False
    try:
        from transformers import AttentionInterface
        from transformers.masking_utils import AttentionMaskInterface, eager_mask
    except ImportError:
        return False
    try:
        wrapper = _wrapper(name)
    except (AttributeError, KeyError):  # another transformers: keep the plain implementation
        return False
    AttentionInterface.register(PREFIX + name, wrapper)
    AttentionMaskInterface.register(PREFIX + name, eager_mask)  # the additive mask eager attention gets
    try:
        model.set_attn_implementation(PREFIX + name)
    except Exception:  # noqa: BLE001  keep the plain implementation; batched rows then differ in the last bits
        return False
    return config._attn_implementation == PREFIX + name
