"""The training loop as a generator: full-batch AdamW on a + b mod p, yielding metrics and embedding checkpoints."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from .data import all_pairs, split_pairs
from .models import MODEL_KINDS, build_model, embedding_matrix

MEMORISED_AT = 0.99  # train accuracy that counts as "memorised"
GROKKED_AT = 0.95  # test accuracy that counts as "grokked"


@dataclass(frozen=True)
class GrokConfig:
    """Everything a run depends on. Same config, same thread count: same curves."""

    p: int = 97
    train_frac: float = 0.3
    model: str = "mlp"  # "mlp" or "transformer"
    lr: float = 3e-3
    weight_decay: float = 2.0
    beta1: float = 0.9
    beta2: float = 0.98
    seed: int = 0
    max_steps: int = 3000
    warmup_steps: int = 10  # linear learning-rate warm-up, as in Nanda's runs
    d_embed: int = 128  # MLP: embedding size of a and of b
    d_hidden: int = 256  # MLP: hidden units
    d_model: int = 128  # transformer sizes
    n_heads: int = 4
    d_mlp: int = 512

    def __post_init__(self):
        if self.model not in MODEL_KINDS:
            raise ValueError(f"`model` has to be one of {MODEL_KINDS}, but is {self.model!r}")
        if self.lr <= 0 or self.weight_decay < 0 or self.max_steps < 1 or not 0 < self.train_frac < 1 or self.p < 2:
            raise ValueError(f"need lr > 0, weight_decay >= 0, max_steps >= 1, 0 < train_frac < 1, p >= 2 (got {self})")


@dataclass(frozen=True)
class Snapshot:
    """Metrics after `step` updates; `embedding` ([p, d] float32) only at checkpoint steps."""

    step: int
    train_loss: float
    train_acc: float
    test_loss: float
    test_acc: float
    embedding: np.ndarray | None = None


def log_schedule(max_steps: int) -> list[int]:
    """Steps at which metrics are measured: dense early, sparser later (even on a log axis)."""
    bands = [(50, 1), (200, 5), (2000, 10), (10000, 25), (max(max_steps, 10000), 100)]  # (up to step, every)
    steps, start = {max_steps}, 1
    for end, every in bands:
        first = -(-start // every) * every  # the first multiple of `every` at or after `start`
        steps.update(range(first, min(end, max_steps) + 1, every))
        start = end + 1
    return sorted(s for s in steps if 1 <= s <= max_steps)


def checkpoint_schedule(max_steps: int, n: int = 24) -> list[int]:
    """About n log-spaced steps from 1 to max_steps (always including both) at which the embedding is saved."""
    raw = np.geomspace(1, max_steps, n)
    return sorted({int(round(s)) for s in raw} | {1, max_steps})


def _evaluate(model, a, b, y) -> tuple[float, float]:
    with torch.no_grad():
        logits = model(a, b)
        return F.cross_entropy(logits, y).item(), (logits.argmax(-1) == y).float().mean().item()


def train(cfg: GrokConfig, log_at: Iterable[int] | None = None, checkpoint_at: Iterable[int] | None = None,
          should_stop: Callable[[], bool] | None = None) -> Iterator[Snapshot]:
    """Train cfg.model on cfg.train_frac of the pairs, full batch, yielding a Snapshot at every `log_at` step.

    Args:
        cfg: the run's settings.
        log_at: steps (1-based: metrics after that many updates) to measure; default `log_schedule`.
        checkpoint_at: steps that are measured too and whose Snapshot also carries the embedding matrix;
            default `checkpoint_schedule`.
        should_stop: polled every step; when it returns True the loop yields a last checkpoint and ends.
    Yields:
        Snapshot, in step order. The last one always carries an embedding.
    """
    log_at = set(log_schedule(cfg.max_steps) if log_at is None else log_at)
    checkpoint_at = set(checkpoint_schedule(cfg.max_steps) if checkpoint_at is None else checkpoint_at)
    a, b, y = all_pairs(cfg.p)
    split = split_pairs(cfg.p, cfg.train_frac, cfg.seed)
    tr, te = split.train_idx, split.test_idx
    model = build_model(cfg.model, cfg.p, cfg.seed, d_embed=cfg.d_embed, d_hidden=cfg.d_hidden,
                        d_model=cfg.d_model, n_heads=cfg.n_heads, d_mlp=cfg.d_mlp)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay,
                            betas=(cfg.beta1, cfg.beta2))
    warmup = max(cfg.warmup_steps, 1)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min((s + 1) / warmup, 1.0))
    for step in range(1, cfg.max_steps + 1):
        # one full-batch update: every training pair at once
        loss = F.cross_entropy(model(a[tr], b[tr]), y[tr])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        sched.step()
        last = step == cfg.max_steps or (should_stop is not None and should_stop())
        if step in log_at or step in checkpoint_at or last:
            train_loss, train_acc = _evaluate(model, a[tr], b[tr], y[tr])
            test_loss, test_acc = _evaluate(model, a[te], b[te], y[te])
            emb = embedding_matrix(model).numpy() if (step in checkpoint_at or last) else None
            yield Snapshot(step, train_loss, train_acc, test_loss, test_acc, emb)
        if last:
            return


def jump_steps(steps: Sequence[int], train_acc: Sequence[float], test_acc: Sequence[float]
               ) -> tuple[int | None, int | None]:
    """(first step with train acc >= 99%, first step with test acc >= 95%); None where never reached."""
    memorised = next((s for s, v in zip(steps, train_acc) if v >= MEMORISED_AT), None)
    grokked = next((s for s, v in zip(steps, test_acc) if v >= GROKKED_AT), None)
    return memorised, grokked
