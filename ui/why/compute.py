"""The why page's computations, all in float32 and cached per model, prompt and settings (ui.backend.on_model):
the continuation to explain, direct logit attribution, input attribution, attention patterns, induction heads,
each head's habits. Nothing here draws; what it returns is data (frozen dataclasses, arrays, token lists)."""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

import model_backend as mb
from model_backend.core.activations import run_with_cache
from model_backend.core.tokens import token_infos
from model_backend.core.tracing import encode
from model_backend.lessons import attention as att
from model_backend.lessons import why as at
from ui import backend

DTYPE = "float32"  # gradients and sums that must add up: the page computes in float32 whatever the sidebar says
MAX_PROMPT_TOKENS = 24  # this page's cap (each attribution runs the model many times, with gradients)
NEW_TOKENS = 24  # the continuation that can be explained
IG_STEPS = at.IG_SCHEDULE[0]  # the first round; more points follow until the sum is complete
IND_SHARE = 0.3  # an induction head: more than this share of its attention, on average, on the token after the copy
IND_TOKENS = 20  # length of the random sequence seen twice
CONTRAST_DEFAULT = " Ulm"  # for the Einstein preset: "why Paris and not Ulm?" (Ulm was written earlier)


@dataclass(frozen=True)
class Continuation:
    prompt_ids: tuple[int, ...]
    truncated_from: int | None
    generation: mb.Generation

    @property
    def ids(self) -> tuple[int, ...]:
        return self.prompt_ids + tuple(s.token.id for s in self.generation.steps)

    def prefix(self, pos: int) -> list[int]:
        """The input when the model wrote generated token `pos`: the prompt and the tokens before it."""
        return list(self.prompt_ids) + [s.token.id for s in self.generation.steps[:pos]]


@backend.on_model(max_entries=64)
def _continuation(model: mb.ModelBundle, prompt: str) -> Continuation:
    ids, cut = encode(model, prompt, MAX_PROMPT_TOKENS)
    text = model.tokenizer.decode(ids, skip_special_tokens=True)  # the cut prompt, as text for generate()
    params = mb.SamplingParams(temperature=0, max_new_tokens=NEW_TOKENS)
    gen = mb.generate(model, text if cut else prompt, params, max_prompt_tokens=MAX_PROMPT_TOKENS,
                      max_new_cap=NEW_TOKENS)
    return Continuation(prompt_ids=tuple(ids), truncated_from=cut, generation=gen)


@backend.on_model(max_entries=128)
def _dla(model: mb.ModelBundle, ids: tuple[int, ...], token: int, contrast: int | None) -> at.LogitAttribution:
    return at.direct_logit_attribution(model, list(ids), at.Target(token, contrast))


@backend.on_model(max_entries=128, queued=False)  # runs in a thread beside a progress bar (attribution(): its at_once
# draws the queue notice)
def _attribution(model: mb.ModelBundle, ids: tuple[int, ...], token: int, contrast: int | None, method: str,
                 _progress=None, schedule: tuple[int, ...] = at.IG_SCHEDULE) -> tuple[at.InputAttribution, float]:
    started = time.perf_counter()
    result = at.attribute(model, list(ids), at.Target(token, contrast), method, schedule=schedule,
                          progress=_progress or (lambda _f: None))
    return result, time.perf_counter() - started


@backend.on_model(max_entries=64)
def _patterns(model: mb.ModelBundle, ids: tuple[int, ...]) -> np.ndarray:
    """[L, H, T, T] attention weights over ids, from the activation cache."""
    n = model.info.n_layers
    cache = run_with_cache(model, list(ids), names={f"blocks.{i}.attn.hook_pattern" for i in range(n)},
                           keep_logits=False)
    return cache.stack("blocks.{l}.attn.hook_pattern", n).numpy()


@backend.on_model(max_entries=32)
def _induction(model: mb.ModelBundle, seed: int) -> at.Induction:
    return at.induction(model, n=IND_TOKENS, seed=seed)


def model() -> mb.ModelBundle:
    """The float32 copy of the visitor's model: loaded once per process, on the first click."""
    return backend.bundle_for(DTYPE)


def info() -> mb.ModelInfo:
    """The visitor's model as it is loaded (its name, layers, heads): nothing heavy before the click."""
    return backend.bundle_for().info


def continuation(prompt: str) -> Continuation:
    return _continuation(prompt, dtype=DTYPE)


def dla(ids: tuple[int, ...], target: at.Target) -> at.LogitAttribution:
    return _dla(ids, target.token, target.contrast, dtype=DTYPE)  # one cached pass


def attribution(ids: tuple[int, ...], target: at.Target, method: str, progress=None) -> tuple[at.InputAttribution, float]:
    """Input attribution and the seconds it took (the first time: a cache hit returns the first run's seconds).

    It runs in a thread of this script run (backend.at_once: its model work is the visitor's, and cancelled at its
    next batch of points if the page's run ends early), while this thread calls progress(fraction done) every
    quarter of a second and the queue notice counts the float32 model's turns ahead."""
    done = {"fraction": 0.0}

    def work() -> tuple[at.InputAttribution, float]:
        return _attribution(ids, target.token, target.contrast, method, lambda f: done.__setitem__("fraction", f),
                            dtype=DTYPE)

    tick = (lambda: progress(done["fraction"])) if progress is not None else (lambda: None)
    return backend.at_once({"attribution": work}, tick, model=model())["attribution"]


def attention(ids: tuple[int, ...], layer: int | None, head: int | None) -> np.ndarray:
    """Each position's share of attention from the last one, in one layer and head (None: averaged over them)."""
    return at.attention_row(_patterns(ids, dtype=DTYPE), layer, head)  # one cached pass (the model queue)


def induction(seed: int) -> at.Induction:
    return _induction(int(seed), dtype=DTYPE)


def habits(ids: tuple[int, ...]) -> att.HeadHabits:
    """What each head does on these tokens (issue 20: measured), from the same cached patterns."""
    return att.habits(_patterns(ids, dtype=DTYPE), ids)


def tokens(ids) -> list[mb.TokenInfo]:
    """The tokens of ids as the page shows them (text and display form), by the model's tokenizer."""
    return list(token_infos(model().tokenizer, list(ids)))


def decode(ids) -> str:
    return model().tokenizer.decode(list(ids))


def contrast_default(options: list[int]) -> int | None:
    """The preset's contrast token (" Ulm") when it is one token among the options, else None."""
    wanted = model().tokenizer.encode(CONTRAST_DEFAULT, add_special_tokens=False)
    return wanted[0] if len(wanted) == 1 and wanted[0] in options else None
