"""The hallucination page's runs (float32 by default): the visitor's completion and both completions of every
fact/invention pair, each computed once for every visitor. Nothing here draws; what it returns is data (generations
and frozen dataclasses), and a progress bar is told how far a run is through a callback."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import model_backend as mb
from model_backend.lessons import hallucination as cf
from ui import backend

ROOT = Path(__file__).resolve().parents[2]
DTYPES = ("float32", "bfloat16")
MEMO_SIZE = 96  # finished runs kept per server process
# assets/hallucination_pairs.json: presets (shown first) and fact/invention pairs
CONFIG: dict = json.loads((ROOT / "assets" / "hallucination_pairs.json").read_text(encoding="utf-8"))

def _quiet(fraction: float) -> None:
    """A progress callback that shows nothing."""


# Finished generations, shared by every visitor (they are reproducible: greedy or seeded); each run is computed
# once even when many visitors ask for it at the same moment, and the page can ask whether one is made (peek).
@backend.on_model(max_entries=MEMO_SIZE, ttl=None, queued=False)
def _generation(model: mb.ModelBundle, prompt: str, params: mb.SamplingParams, max_prompt: int,
                _progress=_quiet) -> mb.Generation:
    result = None
    for event in mb.iter_generation(model, prompt, params, max_prompt_tokens=max_prompt,
                                    max_new_cap=backend.settings().max_new_tokens):
        if isinstance(event, mb.Step):
            _progress((event.index + 1) / params.max_new_tokens)
        else:
            result = event
    return result


def cached(prompt: str, params: mb.SamplingParams, dtype: str) -> mb.Generation | None:
    """The run if it is already made (by any visitor), else None: computes nothing, waits for nothing."""
    return _generation.peek(prompt, params, backend.settings().max_prompt_tokens, dtype=dtype)


def generation(prompt: str, params: mb.SamplingParams, dtype: str, progress=_quiet) -> mb.Generation:
    """A finished run, from the memo or computed now.

    `progress(fraction)` is told 0 when the run is not made yet (this visitor computes it, or waits for the visitor
    who does: a bar says so either way), then, where this visitor computes it, the fraction of tokens made after
    each one; a run found in the memo tells it nothing.
    """
    found = cached(prompt, params, dtype)
    if found is not None:
        return found
    progress(0.0)
    return _generation(prompt, params, backend.settings().max_prompt_tokens, progress, dtype=dtype)


# --- pairs --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PairRun:
    """One pair's two greedy completions and their comparison."""

    id: str
    real_prompt: str
    invented_prompt: str
    real: mb.Generation
    invented: mb.Generation
    comparison: cf.PairComparison
    states_fact: bool  # the real prompt's completion contains one of the accepted answers
    twin: str = "invented"  # what the second prompt is: "invented" (a made-up subject) or "premise" (a false one)


def pair_params() -> mb.SamplingParams:
    return mb.SamplingParams(temperature=0, max_new_tokens=int(CONFIG["pair_tokens"]))


def run_pairs(dtype: str, progress=_quiet) -> list[PairRun]:
    """Both completions of every pair (greedy). `progress(fraction)` follows the ones not computed yet, each
    completion one equal share of the whole."""
    pairs, params = CONFIG["pairs"], pair_params()
    todo, out = 2 * len(pairs), []
    for i, p in enumerate(pairs):
        gens = []
        for j, k in enumerate(("real", "invented")):
            lo, hi = (2 * i + j) / todo, (2 * i + j + 1) / todo
            gens.append(generation(p[k], params, dtype, lambda f, lo=lo, hi=hi: progress(lo + (hi - lo) * f)))
        out.append(PairRun(p["id"], p["real"], p["invented"], gens[0], gens[1], cf.compare(*gens),
                           cf.mentions(gens[0].completion, p["answers"]), p.get("twin", "invented")))
    return out
