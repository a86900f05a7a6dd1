"""The decoding page's runs, cached per model, dtype and settings (ui.backend.on_model) and queued for the model:
the five strategies side by side with the beam run, the feedback loop's curve, a shipped prompt run again now;
and the shipped prompts and results. Nothing here draws: a progress bar is told how far a run is through a
callback, `progress(stage, n, total)`, stage one of "all" (the three runs of side_by_side), "bench"."""
from __future__ import annotations

import json
from pathlib import Path

import model_backend as mb
from model_backend.lessons import decoding as dec
from model_backend.runtime.hardware import describe
from model_backend.runtime.memo import cached
from ui import backend

KEPT_S = backend.CACHE_TTL_S  # how long a result computed now is kept (on_model's default)

ROOT = Path(__file__).resolve().parents[2]
PROMPTS = ROOT / "assets" / "decoding" / "prompts.json"
RESULTS = ROOT / "assets" / "decoding" / "results.json"
PROMPT_TOKENS = 128  # longest prompt this page feeds the model (its cache is then copied to every beam)
LOOP_TOKENS = 300  # longest repeated text scored in one pass
BENCH_PROMPTS: tuple[dict, ...] = tuple(json.loads(PROMPTS.read_text(encoding="utf-8"))["prompts"])  # shipped


def model_label() -> str:
    """The visitor's model as the catalogue names it (assets/models.json), for the page's introduction."""
    return backend.model_label()


def _quiet(stage: str, n: int, total: int) -> None:
    """A progress callback that shows nothing."""


@cached(1)
def shipped() -> dict | None:
    """The shipped comparison (assets/decoding/results.json, made by bench/decoding_bench.py), None if missing."""
    try:
        return json.loads(RESULTS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def prompt_tokens(prompt: str) -> int:
    """How many tokens the prompt has (with <bos>): the page feeds at most PROMPT_TOKENS of them."""
    return len(backend.bundle_for().tokenizer.encode(prompt))


def live_dtype() -> str:
    """The dtype the live runs of section 1 use here (dec.run_dtype: float32 where bfloat16 has no fast path)."""
    bundle = backend.bundle_for()
    return dec.run_dtype(bundle.info.dtype, bundle.device.type)


def dtypes() -> tuple[str, str]:
    """(the dtype section 1 runs in, the visitor's dtype): the page says why when they differ."""
    return live_dtype(), backend.bundle_for().info.dtype


@backend.on_model(max_entries=32)
def _greedy(model: mb.ModelBundle, prompt: str, new: int, _on_step) -> dec.Continuation:
    return dec.run_greedy(model, prompt, new, PROMPT_TOKENS, on_step=_on_step)


@backend.on_model(max_entries=32)
def _beam(model: mb.ModelBundle, prompt: str, width: int, new: int, _on_step) -> dec.BeamRun:
    return dec.run_beam(model, prompt, width, new, PROMPT_TOKENS, on_step=_on_step)


@backend.on_model(max_entries=32)
def _sampled(model: mb.ModelBundle, prompt: str, new: int, seed: int, _on_step) -> dict:
    return dec.run_sampled(model, prompt, new, seed, 1, PROMPT_TOKENS, on_step=_on_step)


def side_by_side(prompt: str, width: int, new: int, seed: int, progress=_quiet
                 ) -> tuple[list[dec.Continuation], dec.BeamRun]:
    """The five continuations (page order) and the beam run, each cached per (model, dtype, prompt, settings).

    The three runs (greedy, the beam search, the three sampled strategies) run at once (backend.at_once), so that
    the engine takes their steps together: one pass a step for their 1 + width + 3 rows instead of three (in-process,
    60 tokens, when each run still had a scoring pass of its own: 67-68 passes instead of 187, 8.9-10.8 s instead of
    15-21 s, the same tokens and log-probabilities; docs/engine-bench.md, "A step's own work, cut again; the decoding
    page's three runs at once"; since then the log-probabilities come from the runs' own steps, 5 passes fewer). The
    bar follows the run furthest behind."""
    dtype = live_dtype()
    done = {"greedy": 0, "beam": 0, "sampled": 0}

    def counted(stage: str, run):
        def job():
            value = run(lambda n: done.__setitem__(stage, n))
            done[stage] = new  # ended: also a run that was kept (no steps) or stopped early at <eos>
            return value
        return job

    runs = backend.at_once({
        "greedy": counted("greedy", lambda step: _greedy(prompt, new, step, dtype=dtype)),
        "beam": counted("beam", lambda step: _beam(prompt, width, new, step, dtype=dtype)),
        "sampled": counted("sampled", lambda step: _sampled(prompt, new, seed, step, dtype=dtype)),
    }, lambda: progress("all", min(done.values()), new))
    greedy, beam, sampled = runs["greedy"], runs["beam"], runs["sampled"]
    return [greedy, beam.continuation] + [sampled[s][0] for s in dec.SAMPLED], beam


@backend.on_model(max_entries=32)
def feedback(model: mb.ModelBundle, sentence: str, times: int, penalty: float) -> dec.FeedbackCurve:
    """The feedback loop: the sentence repeated `times` times, each token's probability, with and without a
    repetition penalty. Raises ValueError for a sentence with no token."""
    return dec.feedback_curve(model, sentence, times, penalty, max_tokens=LOOP_TOKENS)


@backend.on_model(max_entries=16)
def _compare(model: mb.ModelBundle, prompt: str, new: int, width: int, seed: int, samples: int, _on_step) -> dict:
    r = dec.compare_prompt(model, prompt, new=new, width=width, seed=seed, samples=samples, on_step=_on_step)
    return {s: r.row(s) for s in dec.STRATEGIES}


def compare_live(index: int, shipped: dict, progress=_quiet) -> tuple[dict, dict]:
    """The bench's run of one shipped prompt, now, with the bench's settings, seed and dtype (the table's numbers
    come from that dtype); three generate() calls one after another, one progress over all of them. Returns
    (the rows per strategy, this machine as hardware.describe() says)."""
    s = shipped["settings"]
    total, seen = 3 * s["tokens"], [0]

    def step(_n: int) -> None:
        seen[0] += 1
        progress("bench", min(seen[0], total), total)

    rows = _compare(BENCH_PROMPTS[index]["text"], s["tokens"], s["width"], index, s["samples"], step,
                    dtype=shipped["dtype"])
    return rows, describe()
