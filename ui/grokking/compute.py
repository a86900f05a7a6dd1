"""The grokking page's computations: the run shipped in assets/ (loaded once per process), the live runs a visitor
starts (model_backend.lessons.grokking.BackgroundRun, one training thread each), and what the page reads from a
run: its curves, its phases (memorised, jumped) and the Fourier view of a checkpoint. Nothing here draws."""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from model_backend.lessons.grokking import (
    BackgroundRun,
    GrokConfig,
    jump_steps,
    spectrum,
    wave_basis,
    wave_projection,
)
from model_backend.lessons.grokking import shipped as shipped_run_mod
from model_backend.lessons.grokking.fourier import Spectrum, Wave
from model_backend.runtime.memo import cached

RESULTS = Path(__file__).resolve().parents[2] / "bench" / "results.json"
GOOD_FIT = 0.9  # R^2 above which the dots "lie on the waves"
N_WAVES = 3  # how many key frequencies get a wave chart
PRIMES = [23, 31, 41, 53, 61, 71, 83, 97, 113]
WEIGHT_DECAYS = [0.0, 0.1, 0.3, 0.5, 1.0, 2.0, 3.0, 5.0]
LEARNING_RATES = [3e-4, 1e-3, 3e-3, 1e-2, 3e-2]
STEP_CAPS = [500, 1000, 1500, 3000, 5000, 10000]
# Measured on 1 CPU thread: this MLP reaches 95% test accuracy at step 680 (seeds 1, 2: 780, 680), where
# lr 3e-3 needs ~2,400 steps; with weight decay 0 it memorises by step 33 and stays at 0% test for 1,500 steps.
DEFAULTS = {"model": "mlp", "p": 97, "frac": 30, "wd": 2.0, "lr": 1e-2, "seed": 0, "steps": 1500}  # frac in %
MAX_SECONDS = 240  # no live training runs longer than this, whatever the settings
REDRAW_S = 1.5  # the progress and the curves are redrawn this often while training (see bench/grok_bench.py)
IDLE_S = 20.0  # a run nobody has redrawn for this long stops: its visitor left
KEEP_RUNS = 2  # the latest two runs are kept, so the second one can be compared with the first


@cached(1, seal_values=False)
def shipped() -> shipped_run_mod.Run | None:
    """The run in assets/grokking/ (None when the files are missing), loaded once per process and shared: a file
    that never changes while the server runs, not a computation of the visitor's model (no ui.backend cache)."""
    try:
        return shipped_run_mod.load()
    except FileNotFoundError:
        return None


def measured_grok_seconds() -> tuple[float, int]:
    """(median seconds, runs) to grok at DEFAULTS, as bench/grok_bench.py measured and recorded it
    (bench/results.json, figures.grok_s): a measured figure, never one typed into a sentence."""
    fig = json.loads(RESULTS.read_text())["figures"]["grok_s"]
    return float(fig["median"]), int(fig["runs"])


def start(cfg: GrokConfig) -> BackgroundRun | None:
    """A live run of these settings, training in its own thread; None when every training slot is taken."""
    run = BackgroundRun(cfg, idle_timeout=IDLE_S, max_seconds=MAX_SECONDS)
    return run if run.start() else None


def run_curves(run: BackgroundRun) -> dict:
    """The metrics a run has logged so far: "step", "train_acc", "test_acc", "train_loss", "test_loss" lists."""
    snaps = list(run.snapshots)  # a copy: the training thread keeps appending
    return {"step": [s.step for s in snaps], "train_acc": [s.train_acc for s in snaps],
            "test_acc": [s.test_acc for s in snaps], "train_loss": [s.train_loss for s in snaps],
            "test_loss": [s.test_loss for s in snaps]}


def readings_before_jump(steps: Sequence[int], test_acc: Sequence[float], memo: int | None, jump: int | None,
                         n: int = 4) -> list[tuple[int, float]]:
    """What the test curve reads between memorising and the jump: n recorded (step, accuracy) points spaced
    evenly on the log axis, from the memorised step to just before the jump (or the last step)."""
    if memo is None:
        return []
    end = jump if jump is not None else steps[-1]
    if end <= memo:
        return []
    logs = np.log(np.asarray(steps, dtype=float))
    out: list[tuple[int, float]] = []
    for target in np.geomspace(memo, end, n + 1)[:-1]:
        i = int(np.argmin(np.abs(logs - np.log(target))))
        if not out or out[-1][0] != int(steps[i]):
            out.append((int(steps[i]), float(test_acc[i])))
    return out


@dataclass(frozen=True)
class Phases:
    """A run's phases: the first step it memorised (train >= 99%), the first it generalised (test >= 95%), None
    where never; and, when the modulus p is known, what the test curve read in between (step, accuracy)."""
    memo: int | None
    jump: int | None
    readings: tuple[tuple[int, float], ...] = ()
    p: int | None = None


def phases(curves: dict, p: int | None = None) -> Phases:
    memo, jump = jump_steps(curves["step"], curves["train_acc"], curves["test_acc"])
    readings = readings_before_jump(curves["step"], curves["test_acc"], memo, jump) if p and len(curves["step"]) else []
    return Phases(memo, jump, tuple(readings), p)


@dataclass(frozen=True)
class Fourier:
    """The Fourier view of one checkpoint: its spectrum, and its embedding read along the final checkpoint's
    N_WAVES strongest waves (`top` bounds their value axis, the same for each; `fit` is their mean R^2)."""
    step: int
    p: int
    spectrum: Spectrum
    waves: tuple[Wave, ...]
    top: float
    fit: float


def fourier(checkpoints: Sequence[int], embeddings: np.ndarray, step: int) -> Fourier:
    """Spectrum at the chosen checkpoint, then the waves of the final checkpoint's strongest frequencies."""
    steps = [int(s) for s in checkpoints]
    emb = embeddings[steps.index(step)]  # [p, d]
    final = spectrum(embeddings[-1])
    ks = [int(k) for k in np.argsort(-final.power)[:N_WAVES] + 1]  # the end's strongest, at every step
    waves = tuple(wave_projection(emb, wave_basis(embeddings[-1], k)) for k in ks)  # along the final directions
    top = max(1.5, max(float(np.abs(np.concatenate([w.cos_curve, w.sin_curve])).max()) for w in waves))
    return Fourier(step, emb.shape[0], spectrum(emb), waves, top, float(np.mean([w.fit for w in waves])))


@cached(64)
def shipped_fourier(step: int) -> Fourier:
    """The shipped run's Fourier view at checkpoint `step` (fourier()): the same for every visitor, so it is
    computed once per checkpoint, not on every visit (8 ms of a visit's ~70 here)."""
    run = shipped()
    return fourier([int(s) for s in run.checkpoint_steps], run.embeddings, int(step))
