"""The task: every pair (a, b) with 0 <= a, b < p, labelled (a + b) mod p, split once into train and test."""
from __future__ import annotations

from dataclasses import dataclass

import torch


def all_pairs(p: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Every pair of the table, row by row: pair i is (i // p, i % p).

    Returns:
        a, b, y: int64 tensors of shape [p*p], with y = (a + b) mod p.
    """
    idx = torch.arange(p * p)
    a, b = idx // p, idx % p
    return a, b, (a + b) % p


@dataclass(frozen=True)
class Split:
    """Which pairs the model trains on. Indices point into `all_pairs(p)`."""

    p: int
    train_idx: torch.Tensor  # [n_train] int64, sorted
    test_idx: torch.Tensor  # [p*p - n_train] int64, sorted


def split_pairs(p: int, train_frac: float, seed: int) -> Split:
    """Shuffle the p*p pairs with a generator seeded by `seed`; the first `train_frac` of them train.

    Both parts keep at least one pair, so a fraction of 0 or 1 still gives a usable split.
    """
    if p < 2:
        raise ValueError(f"`p` has to be at least 2, but is {p}")
    if not 0.0 < train_frac < 1.0:
        raise ValueError(f"`train_frac` has to be between 0 and 1 (exclusive), but is {train_frac}")
    n = p * p
    n_train = min(max(round(train_frac * n), 1), n - 1)
    perm = torch.randperm(n, generator=torch.Generator().manual_seed(seed))
    return Split(p, perm[:n_train].sort().values, perm[n_train:].sort().values)
