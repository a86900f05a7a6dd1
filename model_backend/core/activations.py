"""A named activation cache in TransformerLens's style: one forward pass, hooks held only under the model's lock.

Names (l = layer, 0-based as the model counts; T = tokens, D = d_model, H = query heads, hd = head size):

    hook_embed                     [T, D]     the embedding layer's output (Gemma: rows x sqrt(D))
    blocks.l.hook_resid_pre        [T, D]     the residual stream entering layer l
    blocks.l.attn.hook_pattern     [H, T, T]  attention weights (rows = queries, masked cells exactly 0)
    blocks.l.attn.hook_z           [T, H, hd] each head's weighted values, before o_proj mixes the heads
    blocks.l.attn.hook_out         [T, D]     o_proj's output (Gemma then applies post_attention_layernorm)
    blocks.l.hook_attn_out         [T, D]     what attention adds to the residual stream
    blocks.l.hook_resid_mid        [T, D]     resid_pre + attn_out
    blocks.l.mlp.hook_in           [T, D]     the MLP's input (after its pre-norm)
    blocks.l.mlp.hook_out          [T, D]     the MLP's output (Gemma then applies post_feedforward_layernorm)
    blocks.l.hook_mlp_out          [T, D]     what the MLP adds to the residual stream
    blocks.l.hook_resid_post       [T, D]     the residual stream leaving layer l
    ln_final.hook_normalized       [T, D]     the final norm's output, which the head turns into logits

Hooks are global state on a model that every visitor shares ("hooks are GLOBAL state", TransformerLens):
`hooked` registers them while holding the bundle's first-come-first-served lock and removes them in a
`finally`, so no other visitor's pass ever runs with them attached. Hooks on modules fire whatever their
forward is, so the CPU fast path (model_backend/runtime/fastpath.py) is kept.
"""
from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import torch

from model_backend.runtime.loading import ModelBundle

Names = Callable[[str], bool] | Iterable[str] | None  # None = every name


@dataclass(frozen=True)
class ActivationCache:
    """Named activations of one forward pass, float32 on the CPU, batch dimension dropped."""

    ids: tuple[int, ...]  # the token ids that went in
    acts: dict[str, torch.Tensor]
    logits: torch.Tensor | None  # [T, V] float32, or None when not kept

    def __getitem__(self, name: str) -> torch.Tensor:
        return self.acts[name]

    def __contains__(self, name: str) -> bool:
        return name in self.acts

    def names(self) -> list[str]:
        return list(self.acts)

    def stack(self, pattern: str, n_layers: int) -> torch.Tensor:
        """`pattern` with {l} for each layer, stacked: e.g. stack("blocks.{l}.attn.hook_pattern", L) -> [L, H, T, T]."""
        return torch.stack([self.acts[pattern.format(l=layer)] for layer in range(n_layers)])


def layers_of(model: torch.nn.Module) -> list[torch.nn.Module]:
    inner = getattr(model, "model", model)
    return list(getattr(inner, "layers", None) or getattr(inner, "h", None) or [])


def final_norm_of(model: torch.nn.Module) -> torch.nn.Module | None:
    inner = getattr(model, "model", None)
    return getattr(inner, "norm", None) or getattr(inner, "final_layernorm", None)


def gemma_style(layer: torch.nn.Module) -> bool:
    """Gemma 2/3 norm what attention and the MLP add (post_attention/post_feedforward norms); Llama does not
    (there, `post_attention_layernorm` is the MLP's pre-norm)."""
    return hasattr(layer, "post_feedforward_layernorm") and hasattr(layer, "pre_feedforward_layernorm")


def _wanted(names: Names) -> Callable[[str], bool]:
    if names is None:
        return lambda _name: True
    if callable(names):
        return names
    chosen = set(names)
    return chosen.__contains__


def _first(args: tuple, kwargs: dict, key: str = "hidden_states") -> torch.Tensor:
    return args[0] if args else kwargs[key]


def _tensor(output) -> torch.Tensor:
    return output[0] if isinstance(output, (tuple, list)) else output


def _points(model: torch.nn.Module) -> list[tuple[torch.nn.Module, str, str, Callable]]:
    """(module, "pre" or "post", name, how to read the tensor) for every hook point of the model."""
    points = [(model.get_input_embeddings(), "post", "hook_embed", lambda a, k, o: o)]
    for i, layer in enumerate(layers_of(model)):
        b = f"blocks.{i}"
        attn, mlp = layer.self_attn, layer.mlp
        points += [
            (layer, "pre", f"{b}.hook_resid_pre", lambda a, k, o: _first(a, k)),
            (layer, "post", f"{b}.hook_resid_post", lambda a, k, o: _tensor(o)),
            (attn, "post", f"{b}.attn.hook_pattern", lambda a, k, o: o[1] if isinstance(o, tuple) else None),
            (attn, "post", f"{b}.attn.hook_out", lambda a, k, o: _tensor(o)),
            (attn.o_proj, "pre", f"{b}.attn.hook_z", lambda a, k, o: _first(a, k, "input")),
            (mlp, "pre", f"{b}.mlp.hook_in", lambda a, k, o: _first(a, k, "x")),
            (mlp, "post", f"{b}.mlp.hook_out", lambda a, k, o: _tensor(o)),
        ]
        if gemma_style(layer):
            points += [
                (layer.post_attention_layernorm, "post", f"{b}.hook_attn_out", lambda a, k, o: o),
                (layer.post_feedforward_layernorm, "post", f"{b}.hook_mlp_out", lambda a, k, o: o),
            ]
    norm = final_norm_of(model)
    if norm is not None:
        points.append((norm, "post", "ln_final.hook_normalized", lambda a, k, o: o))
    return points


def hook_names(model: torch.nn.Module) -> list[str]:
    """Every name a cache of this model can hold (derived names included)."""
    names = [name for _m, _w, name, _r in _points(model)]
    for i, layer in enumerate(layers_of(model)):
        if not gemma_style(layer):
            names += [f"blocks.{i}.hook_attn_out", f"blocks.{i}.hook_mlp_out"]
        names.append(f"blocks.{i}.hook_resid_mid")
    return names


@contextmanager
def hooked(bundle: ModelBundle, names: Names = None, keep: slice | None = None) -> Iterator[dict[str, torch.Tensor]]:
    """Hold the model's lock, attach the hooks, yield the dict they fill, and always remove them.

    Args:
        names: which names to keep (None = all; a set, or a predicate on the name).
        keep: which positions to keep (default all); e.g. slice(-1, None) for the last token only.
    Yields:
        name -> tensor [B, ...] detached, float32, CPU (filled when the caller runs the model inside).
    """
    want = _wanted(names)
    # What the derived names need is recorded too, then dropped in `_derive`.
    model = bundle.weights
    need = {n for n in hook_names(model) if want(n)}
    for n in list(need):
        if n.endswith(".hook_resid_mid"):
            b = n.rsplit(".", 1)[0]
            need |= {f"{b}.hook_resid_pre", f"{b}.hook_attn_out"}
        if n.endswith((".hook_attn_out", ".hook_mlp_out")) and not _is_point(model, n):
            need.add(n.replace("hook_attn_out", "attn.hook_out").replace("hook_mlp_out", "mlp.hook_out"))
    store: dict[str, torch.Tensor] = {}
    pos = keep or slice(None)
    owner = threading.get_ident()

    def recorder(name: str, read: Callable, pre: bool):
        def record(_module, args, kwargs, output=None):
            if threading.get_ident() != owner:  # another visitor's call of a module outside the lock (the
                return  # logit lens calls the final norm on one vector): not ours to record, and not our shape
            value = read(args, kwargs, output)
            if value is None:
                return
            value = value.detach().float().cpu()
            store[name] = value[:, :, pos] if name.endswith("hook_pattern") else value[:, pos]
        if pre:
            return lambda m, a, k: record(m, a, k)
        return lambda m, a, k, o: record(m, a, k, o)

    with bundle.engine.exclusive():
        handles = []
        try:
            for module, when, name, read in _points(model):
                if name not in need:
                    continue
                hook = recorder(name, read, when == "pre")
                if when == "pre":
                    handles.append(module.register_forward_pre_hook(hook, with_kwargs=True))
                else:
                    handles.append(module.register_forward_hook(hook, with_kwargs=True))
            yield store
        finally:
            for handle in handles:
                handle.remove()
    _derive(model, store, want)


def _is_point(model: torch.nn.Module, name: str) -> bool:
    return any(n == name for _m, _w, n, _r in _points(model))


def _derive(model: torch.nn.Module, store: dict[str, torch.Tensor], want: Callable[[str], bool]) -> None:
    """Names computed from recorded ones (the model adds them without a module to hook), then drop extras."""
    for i, layer in enumerate(layers_of(model)):
        b = f"blocks.{i}"
        if not gemma_style(layer):
            for part, src in (("hook_attn_out", "attn.hook_out"), ("hook_mlp_out", "mlp.hook_out")):
                if want(f"{b}.{part}") and f"{b}.{src}" in store:
                    store[f"{b}.{part}"] = store[f"{b}.{src}"]
        if want(f"{b}.hook_resid_mid") and f"{b}.hook_resid_pre" in store and f"{b}.hook_attn_out" in store:
            store[f"{b}.hook_resid_mid"] = store[f"{b}.hook_resid_pre"] + store[f"{b}.hook_attn_out"]
    for name in [n for n in store if not want(n)]:
        del store[name]


def run_with_cache(bundle: ModelBundle, ids: list[int], names: Names = None, keep_logits: bool = True,
                   keep: slice | None = None) -> ActivationCache:
    """One forward pass over `ids` under the model's lock, keeping the named activations.

    Args:
        ids: token ids (already encoded; model_backend.core.tracing.encode validates and cuts a text).
        names: which names to keep (None = all of `hook_names`).
        keep_logits: also keep the logits [T, V] (float32).
        keep: positions to keep of every activation (default all).
    Returns:
        ActivationCache with tensors of shape [T, ...] (patterns [H, T, T]).
    """
    input_ids = torch.tensor([ids], device=bundle.device)
    with hooked(bundle, names, keep) as store, torch.inference_mode():
        out = bundle.weights(input_ids=input_ids, use_cache=False)  # inside hooked(): the engine's exclusive()  # eager attention returns its weights
        logits = out.logits[0].detach().float().cpu() if keep_logits else None
    acts = {name: value[0] for name, value in store.items()}
    acts = {name: reshape_z(bundle, value) if name.endswith("attn.hook_z") else value for name, value in acts.items()}
    return ActivationCache(ids=tuple(ids), acts=acts, logits=logits)


def reshape_z(bundle: ModelBundle, z: torch.Tensor) -> torch.Tensor:
    """[T, H*hd] -> [T, H, hd]."""
    return z.reshape(*z.shape[:-1], bundle.info.n_heads, bundle.info.head_dim)


def layer_of(name: str) -> int | None:
    """The layer a name belongs to (None for hook_embed and ln_final)."""
    match = re.match(r"blocks\.(\d+)\.", name)
    return int(match.group(1)) if match else None
