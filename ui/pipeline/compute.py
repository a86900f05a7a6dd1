"""The pipeline page's computations: the forward pass over the prompt (every panel reads it), the tokens it names,
one layer's MLP, the output layer measured on the weights and a seeded draw, cached per model, dtype and arguments
(ui.backend.on_model). Nothing here draws; what it returns is data (traces, frozen dataclasses, arrays, tokens)."""
from __future__ import annotations

import numpy as np

import model_backend as mb
from model_backend.core import mlp as ffn
from model_backend.core.tokens import token_info, visible
from model_backend.lessons import pipeline as pl
from model_backend.lessons.pipeline import OutputLayer, SoftmaxView
from ui import backend


def info() -> mb.ModelInfo:
    """The visitor's model's sizes, read from its config (the model is loaded once per process and shared)."""
    return backend.bundle_for().info


def model_label() -> str:
    """The visitor's model as the catalogue names it (assets/models.json), for the comparison table."""
    return backend.model_label()


def trace(prompt: str) -> mb.Trace:
    """One cached forward pass over the prompt: every panel of the page reads it."""
    return backend.trace(prompt)


def softmax(prompt: str, tr: mb.Trace) -> SoftmaxView:
    """The last position's softmax, trimmed to the top tokens, over the trace's logits (no forward pass); kept per
    prompt and model like the trace itself: its sort of 262,144 probabilities was 6 ms of every visit."""
    return _softmax(prompt, backend.settings().max_prompt_tokens, _tr=tr)


@backend.on_model(max_entries=64, queued=False)  # as many as the traces it reads
def _softmax(model: mb.ModelBundle, prompt: str, max_tokens: int, _tr: mb.Trace) -> SoftmaxView:
    return pl.softmax_view(_tr.last_logits)


def token(token_id: int) -> mb.TokenInfo:
    """One token of the visitor's model: its text, as shown, and its bytes."""
    return token_info(backend.bundle_for().tokenizer, token_id)


def softmax_names(sm: SoftmaxView) -> tuple[str, ...]:
    """The top tokens' names, whitespace made visible; two tokens can look alike, so the second gets its id and
    every bar is kept."""
    tok = backend.bundle_for().tokenizer
    names: list[str] = []
    for i in sm.ids:
        name = visible(tok.decode([i])) or "∅"
        names.append(name if name not in names else f"{name} #{i}")
    return tuple(names)


# ---------------------------------------------------------------- the MLP

_mlp_inputs = backend.on_model(max_entries=32)(ffn.mlp_inputs)


def mlp(prompt: str, layer: int) -> ffn.MlpView:
    """One layer's MLP at the prompt's last position: its input, its expanded middle and its output. The inputs of
    every layer come from one forward pass per prompt, then cached; the layer itself is re-run on its input."""
    return ffn.mlp_view(backend.bundle_for(), _mlp_inputs(prompt, backend.settings().max_prompt_tokens), layer)


def gated() -> bool:
    """Whether the model's MLPs are gated, down(act(gate(x)) * up(x)), read from its layers."""
    return ffn.mlp_gated(backend.bundle_for().weights)


# ---------------------------------------------------------------- the output layer and the draw


@backend.on_model(max_entries=32, queued=False)
def _output_layer(model: mb.ModelBundle, prompt: str, _hidden: np.ndarray, _logits: np.ndarray) -> OutputLayer:
    return pl.output_layer(model, _hidden, _logits)  # prompt stands for the unhashed arrays in the key


def output(prompt: str, tr: mb.Trace) -> OutputLayer:
    """logits = W·h measured on the loaded model: W against the embedding matrix (Gemma ties them)."""
    return _output_layer(prompt, tr.hidden_states[-1][-1], tr.last_logits)


# The draw was a SharedMemo keyed by a digest of the logits (the warm visit, b5ef7c1). Nothing asks whether a draw
# is made without making it and no bar follows it, so on_model gives all it gave: each key computed once for every
# visitor, kept without a time limit, keyed by the logits (a digest of every byte, model_backend.runtime.memo) and
# the seed.
@backend.on_model(max_entries=256, ttl=None, queued=False)  # no model run: the trace already holds the logits
def _draw(model: mb.ModelBundle, logits: np.ndarray, seed: int) -> tuple[int, float]:
    drawn_id = pl.pick(logits, mb.SamplingParams(temperature=1.0, seed=seed))
    return drawn_id, float(mb.distributions(logits, mb.SamplingParams())[0][1][drawn_id])


def drawn(tr: mb.Trace, seed: int) -> tuple[mb.TokenInfo, float]:
    """A seeded draw at T = 1 from the trace's last logits: the token and the probability it had (kept per logits
    and seed)."""
    drawn_id, prob = _draw(tr.last_logits, seed)
    return token(drawn_id), prob
