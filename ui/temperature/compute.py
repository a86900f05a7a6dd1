"""The temperature page's computations: the prompt's next-token logits (one forward pass per prompt, for every
visitor), the sampling math on them (the chain, entropy, the nucleus's mass and grid, the browser's data), token
labels, the greedy loop runs, and the penalties' and presets' runs. Nothing here draws; what it returns is data, and
a progress bar is told how far a loop run is through a callback, `progress(fraction)`.

Moving a slider never runs the model: everything but the runs is math on the cached logits, cached per (model,
dtype, prompt, settings) by backend.on_model with queued=False (it waits for no pass of the model)."""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

import model_backend as mb
from model_backend.core.tokens import token_info
from model_backend.core.tracing import next_token_logits
from model_backend.lessons import temperature as sv
from model_backend.lessons.temperature import PenaltyRun, greedy_run
from ui import backend

PAIR = ("The capital of France is", "Meu animal favorito é o")  # one more concentrated than the other, as measured
GRID_T = (0.3, 0.5, 0.7, 1.0, 1.5, 2.0)
GRID_P = (0.5, 0.8, 0.9, 0.95, 0.99)
ENTROPY_T = tuple(round(0.1 * i, 1) for i in range(21))  # 0, 0.1, ..., 2.0
RANKS = tuple(int(n) for n in np.unique(np.round(np.logspace(0, np.log10(262_144), 160))))
BAR_TOKENS = 15  # the display tokens the browser draws a bar for (the most likely first)

# The course text's advice on settings (seed 000, "Como pensar nos três juntos"): factual -> temperature low (or 0);
# creative -> T ~0.7-1.0 + top_p ~0.9. The creative one runs once per seed, to show that it varies.
MAX_NEW = 24
CREATIVE_SEEDS = (1, 2, 3)
ADVICE = {
    "factual": mb.SamplingParams(temperature=0.0, max_new_tokens=MAX_NEW),
    "creative": mb.SamplingParams(temperature=0.8, top_p=0.9, max_new_tokens=MAX_NEW),
}

def model_label() -> str:
    """The visitor's model as the catalogue names it (assets/models.json), for the page's introduction."""
    return backend.model_label()


def _quiet(fraction: float) -> None:
    """A progress callback that shows nothing."""


def _key(prompt: str) -> tuple[str, str, str]:
    return backend.current_model(), backend.current_dtype(), prompt


# ---------------------------------------------------------------- the forward pass, once per prompt

@backend.on_model(max_entries=64)
def _next_token_logits(model: mb.ModelBundle, prompt: str, max_tokens: int
                       ) -> tuple[np.ndarray, tuple[int, ...], int | None]:
    logits, ids, truncated_from = next_token_logits(model, prompt, max_tokens)
    return np.asarray(logits, dtype=np.float32), ids, truncated_from


def prompt_logits(prompt: str) -> tuple[np.ndarray, tuple[int, ...], int | None]:
    """The prompt's next-token logits (float32, read-only), token ids and pre-cut length: one forward pass per
    prompt that keeps only the last position's logits (this page needs no trace). Every visitor and every call
    shares the one array, so a rerun copies nothing."""
    return _next_token_logits(prompt, backend.settings().max_prompt_tokens)


# ---------------------------------------------------------------- math on the cached logits (no forward pass)
# Each is keyed by (model, dtype, prompt, settings); the logits and the context (names starting with "_") are not
# hashed: the prompt stands for them. The model is not used.

@backend.on_model(max_entries=64, queued=False)
def _chain(model: mb.ModelBundle, prompt: str, params: mb.SamplingParams, _logits: np.ndarray, _ctx: tuple
           ) -> sv.ChainView:
    return sv.chain_view(_logits, params, _ctx)


def chain(prompt: str, params: mb.SamplingParams) -> sv.ChainView:
    """The chain on the prompt's cached logits: moving a slider runs no model, only this math."""
    logits, ctx, _ = prompt_logits(prompt)
    return _chain(prompt, params, logits, ctx)


@backend.on_model(max_entries=64, queued=False)
def _entropy(model: mb.ModelBundle, prompt: str, penalty: float, _logits: np.ndarray, _ctx: tuple) -> tuple:
    return sv.entropy_curve(_logits, ENTROPY_T, _ctx, penalty)


def entropy(prompt: str, penalty: float) -> tuple[tuple[float, float], ...]:
    """Entropy (bits) at every T of ENTROPY_T, after the repetition penalty and temperature only."""
    logits, ctx, _ = prompt_logits(prompt)
    return _entropy(prompt, penalty, logits, ctx)


@backend.on_model(max_entries=128, queued=False)
def _mass(model: mb.ModelBundle, prompt: str, temperature: float, _logits: np.ndarray) -> tuple:
    return sv.mass_curve(_logits, temperature, RANKS)


def mass(prompt: str, temperature: float) -> tuple[tuple[int, float], ...]:
    """Probability of the n most likely tokens together at this T, for every n of RANKS."""
    return _mass(prompt, temperature, prompt_logits(prompt)[0])


@backend.on_model(max_entries=64, queued=False)
def _grid(model: mb.ModelBundle, prompt: str, _logits: np.ndarray) -> tuple[tuple[int, ...], ...]:
    return sv.nucleus_grid(_logits, GRID_T, GRID_P)  # one sort for all 30 settings


def nucleus_grid(prompt: str) -> tuple[tuple[int, ...], ...]:
    """Nucleus size for every (T, p) of the grid: one row per T of GRID_T, one column per p of GRID_P."""
    return _grid(prompt, prompt_logits(prompt)[0])


def _unique_labels(tokenizer, ids: tuple[int, ...]) -> list[str]:
    shown = [token_info(tokenizer, i).display for i in ids]
    return [f"{s} #{i}" if shown.count(s) > 1 else s for s, i in zip(shown, ids)]


@backend.on_model(max_entries=256, queued=False)
def _labels(model: mb.ModelBundle, ids: tuple[int, ...]) -> list[str]:
    return _unique_labels(model.tokenizer, ids)


def labels(ids) -> list[str]:
    """Visible, unique labels for token ids ("·Paris"; a repeated label gets its id appended)."""
    return _labels(tuple(int(i) for i in ids))


# ---------------------------------------------------------------- the live panel and the pair

@dataclass(frozen=True)
class LiveBars:
    """What the browser computes the live bars from: the sent tokens and tail bins, and the display tokens' labels.
    `key` (model, dtype, prompt) is what the built chart is kept under, standing for the data."""

    key: tuple[str, str, str]
    data: sv.BrowserLogits
    names: tuple[str, ...]


@backend.on_model(max_entries=32, queued=False)
def _browser_data(model: mb.ModelBundle, prompt: str, _logits: np.ndarray, _ctx: tuple
                  ) -> tuple[sv.BrowserLogits, tuple[str, ...]]:
    data = sv.browser_logits(_logits, _ctx)
    return data, tuple(_unique_labels(model.tokenizer, tuple(int(i) for i in data.ids[:BAR_TOKENS])))


def live_bars(prompt: str) -> LiveBars:
    """The browser's data for this prompt's bars and the display tokens' labels, in one cached call (a slider move
    reruns this: each cached call costs it a look-up of the model). No forward pass: the cached logits."""
    logits, ctx, _ = prompt_logits(prompt)
    return LiveBars(_key(prompt), *_browser_data(prompt, logits, ctx))


@dataclass(frozen=True)
class PairSide:
    """One prompt of the pair at the panel's T and top-p: its chain, its three most likely tokens' labels and its
    mass curve (at T)."""

    prompt: str
    view: sv.ChainView
    top: tuple[str, ...]
    mass: tuple[tuple[int, float], ...]


def pair(temperature: float, top_p: float) -> list[PairSide]:
    """Both prompts of PAIR, in order, at these settings (math on their cached logits)."""
    sides = []
    for prompt in PAIR:
        view = chain(prompt, mb.SamplingParams(temperature=temperature, top_p=top_p))
        sides.append(PairSide(prompt, view, tuple(labels(view.ids[:3])), mass(prompt, temperature)))
    return sides


# ---------------------------------------------------------------- runs of the model

@backend.on_model(max_entries=64, ttl=None, queued=False)
def _loop_run(model: mb.ModelBundle, prompt: str, penalty: float, max_new: int, _progress=_quiet) -> mb.Generation:
    params = mb.SamplingParams(temperature=0, repetition_penalty=penalty, max_new_tokens=max_new)
    _progress(0.0)
    result = None
    s = backend.settings()
    for event in mb.iter_generation(model, prompt, params, max_prompt_tokens=s.max_prompt_tokens,
                                    max_new_cap=s.max_new_tokens):
        if isinstance(event, mb.Step):
            _progress((event.index + 1) / max_new)
        else:
            result = event
    return result


def loop_run(prompt: str, penalty: float, max_new: int, progress=_quiet) -> mb.Generation:
    """A greedy run with a repetition penalty, generated once for every visitor and then reused.

    `progress(fraction)` is told 0 when this visitor starts computing the run, then the fraction of tokens made
    after each one; a visitor who finds the run made, or waits for the visitor computing it, is told nothing.
    """
    return _loop_run(prompt, penalty, max_new, progress)


@backend.on_model(max_entries=64)
def _penalty_run(model: mb.ModelBundle, prompt: str, kind: str, n: int, count_from: int, r: float, f: float,
                 p: float, max_prompt: int) -> PenaltyRun:
    penalty = ({"repetition": r} if kind == "multiplicative" else
               {"frequency": f, "presence": p} if kind == "subtractive" else {})
    return greedy_run(model, prompt, kind, n, count_from, max_prompt, **penalty)


def penalty_run(prompt: str, kind: str, n: int, count_from: int, r: float, f: float, p: float) -> PenaltyRun:
    """A greedy run of `n` tokens with no penalty ("none"), transformers' repetition penalty r
    ("multiplicative") or the API kind, frequency f and presence p ("subtractive"); numbers counted from
    `count_from` (0: none). Cached per (model, dtype, arguments)."""
    return _penalty_run(prompt, kind, n, count_from, r, f, p, backend.settings().max_prompt_tokens)


def preset_runs(prompt: str) -> list[tuple[str, int | None, mb.Generation]]:
    """(preset, seed, generation): factual once (greedy), creative once per seed; each cached."""
    out = [("factual", None, backend.generation(prompt, ADVICE["factual"]))]
    for seed in CREATIVE_SEEDS:
        out.append(("creative", seed, backend.generation(prompt, replace(ADVICE["creative"], seed=seed))))
    return out
