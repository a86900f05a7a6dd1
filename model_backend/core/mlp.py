"""The MLP (feed-forward block): whether it is gated, its inputs at every position, and one layer's real values.

The course's classic block is up to 4·d, GELU, back to d; Gemma's is gated: down(act(gate(x)) * up(x)).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from model_backend.core.activations import run_with_cache
from model_backend.core.tracing import encode
from model_backend.runtime.loading import ModelBundle


@dataclass(frozen=True)
class MlpView:
    """One layer's feed-forward block at the last position, with its real values.

    gated MLPs (Gemma, Llama) compute down(act(gate(x)) * up(x)); plain ones compute down(act(up(x))).
    """

    layer: int
    d_model: int
    d_ff: int
    activation: str
    gated: bool
    x: np.ndarray  # [D] the block's input (the normed residual stream)
    hidden: np.ndarray  # [F] the expanded vector after the activation (times `up` when gated)
    out: np.ndarray  # [D] what the block writes back (before Gemma's post-norm)
    n_params: int  # weights in this layer's MLP

    @property
    def expansion(self) -> float:
        return self.d_ff / self.d_model


def _layers(model) -> list:
    inner = getattr(model, "model", model)
    return list(inner.layers)


def mlp_gated(model) -> bool:
    """Whether the layers' MLPs are gated (down(act(gate(x)) * up(x)), as in Gemma and Llama)."""
    return hasattr(_layers(model)[0].mlp, "gate_proj")


def mlp_inputs(bundle: ModelBundle, text: str, max_tokens: int = 512) -> np.ndarray:
    """Run the model once and keep what every layer's MLP received at the last position.

    Read from the named activation cache (`blocks.l.mlp.hook_in`), whose hooks are registered and removed
    while holding the bundle's lock, so no other visitor's pass runs while they exist ("hooks are GLOBAL state").

    Returns:
        float32 [L, D] the input of each layer's MLP at the last token.
    """
    ids, _ = encode(bundle, text, max_tokens)
    n = len(_layers(bundle.weights))
    names = {f"blocks.{layer}.mlp.hook_in" for layer in range(n)}
    cache = run_with_cache(bundle, ids, names=names, keep_logits=False, keep=slice(-1, None))
    return cache.stack("blocks.{l}.mlp.hook_in", n)[:, 0].numpy()  # [L, D]


def mlp_view(bundle: ModelBundle, inputs: np.ndarray, layer: int) -> MlpView:
    """Re-run one layer's MLP on its recorded input, keeping the expanded middle.

    Args:
        inputs: [L, D] from mlp_inputs().
    """
    with bundle.engine.exclusive() as model, torch.inference_mode():  # calls the model's own layer
        mlp = _layers(model)[layer].mlp
        weight = next(mlp.parameters())
        # [D]; a copy: `inputs` is a shared memo's read-only array, and torch warns of a view it could write through
        x = torch.tensor(inputs[layer], device=weight.device, dtype=weight.dtype)
        gated = hasattr(mlp, "gate_proj")
        if gated:  # act(gate(x)) * up(x): the activation decides how much of each `up` feature passes
            hidden = mlp.act_fn(mlp.gate_proj(x)) * mlp.up_proj(x)  # [F]
        else:
            hidden = mlp.act_fn(mlp.up_proj(x))  # [F]
        out = mlp.down_proj(hidden)  # [D] back to the model's width
    info = bundle.info
    return MlpView(layer=layer, d_model=info.d_model, d_ff=info.d_ff, activation=info.activation, gated=gated,
                   x=inputs[layer].astype(np.float32), hidden=hidden.float().cpu().numpy(),
                   out=out.float().cpu().numpy(), n_params=sum(p.numel() for p in mlp.parameters()))
