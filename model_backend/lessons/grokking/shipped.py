"""The shipped run: the recipe (config and schedules), how to run it, and how it is saved and loaded."""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import torch

from .training import GrokConfig, log_schedule, train

ASSET_DIR = Path(__file__).resolve().parents[3] / "assets" / "grokking"
THREADS = 1  # the recipe fixes the thread count: same seed, same threads -> the same numbers
# In the spirit of Power et al. (2022) and Nanda et al. (2023): a one-layer transformer on a + b mod 113,
# 30% of the pairs for training, full-batch AdamW with strong weight decay.
SHIPPED = GrokConfig(p=113, train_frac=0.3, model="transformer", lr=1e-3, weight_decay=1.0, beta1=0.9, beta2=0.98,
                     seed=0, max_steps=20000)
CURVES = ("train_loss", "train_acc", "test_loss", "test_acc")


EARLY_CHECKPOINTS = (1, 2, 5, 10, 20, 50, 100, 150, 200, 300, 500, 750)  # all of them logged steps too


def shipped_checkpoints(max_steps: int) -> list[int]:
    """Dense early (where memorisation happens), then every 1,000 steps (where the circuit forms)."""
    return sorted({s for s in {*EARLY_CHECKPOINTS, *range(1000, max_steps + 1, 1000), max_steps} if s <= max_steps})


@dataclass(frozen=True)
class Run:
    """A finished run: metrics per logged step, and the embedding matrix at checkpoint steps."""

    config: GrokConfig
    curves: dict[str, np.ndarray]  # "step" [S] int, and each of CURVES [S] float
    checkpoint_steps: np.ndarray  # [C] int
    embeddings: np.ndarray  # [C, p, d] float32
    seconds: float = 0.0


def run(cfg: GrokConfig = SHIPPED, max_steps: int | None = None, progress: Callable[[str], None] | None = None,
        every: int = 1000, partial: Callable[[Run], None] | None = None) -> Run:
    """Train with the shipped schedules; `max_steps` cuts the run short (the first steps stay identical).

    Every `every` steps, `progress` gets a line and `partial` gets the run so far, which is exactly what
    `run(cfg, max_steps=that step)` returns (so a long run can be saved as it goes).
    """
    full = cfg.max_steps
    cut = GrokConfig(**{**asdict(cfg), "max_steps": max_steps or full})
    ckpt_at = shipped_checkpoints(full)
    rows, steps, embs, start = [], [], [], time.perf_counter()
    for snap in train(cut, log_at=log_schedule(full), checkpoint_at=ckpt_at):
        rows.append((snap.step, snap.train_loss, snap.train_acc, snap.test_loss, snap.test_acc))
        if snap.embedding is not None:
            steps.append(snap.step)
            embs.append(snap.embedding)
        if snap.step % every == 0 and snap.step < cut.max_steps:
            if progress:
                progress(f"step {snap.step}: train acc {snap.train_acc:.3f}, test acc {snap.test_acc:.3f}, "
                         f"test loss {snap.test_loss:.3f} ({time.perf_counter() - start:.0f} s)")
            if partial:
                partial(_assemble(replace(cut, max_steps=snap.step), rows, steps, embs, time.perf_counter() - start))
    return _assemble(cut, rows, steps, embs, time.perf_counter() - start)


def _assemble(cfg: GrokConfig, rows: list, steps: list, embs: list, seconds: float) -> Run:
    cols = list(zip(*rows))
    curves = {"step": np.array(cols[0], dtype=np.int64), **{k: np.array(c) for k, c in zip(CURVES, cols[1:])}}
    return Run(cfg, curves, np.array(steps, dtype=np.int64), np.stack(embs), seconds)


def save(result: Run, out_dir: Path = ASSET_DIR) -> None:
    """curves.json (config + metrics, full precision) and embeddings.npz (float16, small)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = {"config": asdict(result.config), "threads": THREADS, "torch": torch.__version__,
            "seconds": round(result.seconds, 1), "curves": {k: v.tolist() for k, v in result.curves.items()}}
    (out_dir / "curves.json").write_text(json.dumps(meta, separators=(",", ":")) + "\n", encoding="utf-8")
    np.savez_compressed(out_dir / "embeddings.npz", steps=result.checkpoint_steps,
                        embeddings=result.embeddings.astype(np.float16))


def load(out_dir: Path = ASSET_DIR) -> Run:
    """The shipped run as saved by `save` (embeddings back to float32)."""
    meta = json.loads((out_dir / "curves.json").read_text(encoding="utf-8"))
    curves = {k: np.array(v, dtype=np.int64 if k == "step" else np.float64) for k, v in meta["curves"].items()}
    with np.load(out_dir / "embeddings.npz") as npz:
        steps, embs = npz["steps"].astype(np.int64), npz["embeddings"].astype(np.float32)
    return Run(GrokConfig(**meta["config"]), curves, steps, embs, float(meta.get("seconds", 0.0)))
