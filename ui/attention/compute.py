"""The attention page's computations, cached per model, dtype and arguments (ui.backend.on_model): the forward
pass over the visitor's text, the same over a greedy continuation, each head's habits, the "banco" comparison and
Q/K/V's real sizes. Nothing here draws; what it returns is data (traces, frozen dataclasses, arrays)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import model_backend as mb
from model_backend.lessons import attention as att
from model_backend.validation import check_prompt
from ui import backend


def info() -> mb.ModelInfo:
    """The visitor's model as it is loaded (its layers, heads, window)."""
    return backend.bundle_for().info


def max_prompt_tokens() -> int:
    """The server's prompt limit (MAX_PROMPT_TOKENS): the most tokens a pass reads."""
    return backend.settings().max_prompt_tokens


def trace(prompt: str) -> mb.Trace:
    """One cached forward pass over the prompt, every layer's and head's attention weights in it."""
    return backend.trace(prompt)


@backend.on_model(max_entries=16)
def _trace_text(model: mb.ModelBundle, text: str, max_tokens: int) -> mb.Trace:
    return mb.trace(model, text, max_tokens=max_tokens)


def generated_trace(prompt: str, n: int, progress=lambda fraction, key: None) -> tuple[mb.Trace, int, mb.Generation]:
    """Generate n tokens greedily, then one forward pass over prompt + completion gives every row.
    `progress(fraction, string key)` is told when the pass over the whole text begins.

    Returns:
        (trace, index of the first generated token in it, the generation)
    """
    gen = backend.generation(prompt, mb.SamplingParams(temperature=0, max_new_tokens=n))
    progress(0.6, "attention.gen.tracing")
    seen = b"".join(bytes(tok.bytes) for tok in gen.prompt_tokens if not tok.special).decode("utf-8", "replace")
    text = seen + gen.completion  # the prompt as the model saw it (cut, if it was long) + its continuation
    limit = len(gen.prompt_tokens) + len(gen.steps) + 8
    tr = _trace_text(text, limit)
    return tr, att.first_generated(tr.tokens, seen), gen


@backend.on_model(max_entries=64, queued=False)  # no model run: the trace already holds every weight
def _habits(model: mb.ModelBundle, ids: tuple[int, ...], _patterns: np.ndarray) -> att.HeadHabits:
    """The heads' habits over a trace's attention weights; (model, dtype, ids) determine those weights."""
    return att.habits(_patterns, ids)


def habits(tr: mb.Trace) -> att.HeadHabits:
    """Each head's attention on <bos>, on the previous token and on earlier copies of the current one."""
    return _habits(tuple(tok.id for tok in tr.tokens), tr.attentions)  # the visitor's model, as trace() used


@dataclass(frozen=True)
class Banco:
    """One word in two sentences: each sentence's pass, where the word ends in each (None: not found), and how alike
    its hidden states are layer by layer (None until the word is found in both)."""
    traces: tuple[mb.Trace, ...]
    spans: tuple[att.WordSpan | None, ...]
    similarity: att.Similarity | None

    @property
    def missing(self) -> list[int]:
        """The sentences (numbered from 1) where the word was not found."""
        return [i + 1 for i, span in enumerate(self.spans) if span is None]


def banco(sentences: list[str], word: str) -> Banco:
    """The "banco" comparison. Raises model_backend.validation.InvalidInput for a sentence the model cannot read."""
    traces = tuple(backend.trace(check_prompt(s)) for s in sentences)
    spans = tuple(att.find_word(tr.tokens, word) for tr in traces)
    if any(span is None for span in spans):
        return Banco(traces, spans, None)
    return Banco(traces, spans, att.word_similarity(traces[0], spans[0], traces[1], spans[1]))


def mechanics(n_tokens: int) -> att.Mechanics:
    """Q, K and V with this model's real sizes, for a text of n_tokens."""
    model = backend.bundle_for()
    return att.mechanics(model.info, model.weights.config, n_tokens)
