"""What different heads do, measured: each head's attention on <bos>, on the previous token, on earlier copies."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

HABITS = ("bos", "previous", "same")  # the three measures, in the order pages show them


@dataclass(frozen=True)
class HeadHabits:
    """Per head [L, H] (0-based indices), each averaged over the query positions where it is defined."""

    bos: np.ndarray  # attention on <bos> (queries 1..T-1; at 0 there is nothing else to look at)
    previous: np.ndarray  # attention on the token just before (queries 2..T-1; at 1 the previous token is <bos>)
    same: np.ndarray  # attention on earlier copies of the query's own token (queries that have one); NaN if none
    n_same: int  # how many queries have an earlier copy of their token

    def of(self, habit: str) -> np.ndarray:
        if habit not in HABITS:
            raise ValueError(f"`habit` has to be one of {HABITS}, but is {habit!r}")
        return getattr(self, habit)

    def top(self, habit: str, k: int = 5) -> list[tuple[int, int, float]]:
        """(layer, head, value) of the k heads highest on this habit, best first (0-based; NaN never ranks)."""
        values = self.of(habit)
        flat = np.where(np.isfinite(values), values, -np.inf).ravel()
        order = np.argsort(-flat, kind="stable")[:k]
        n_heads = values.shape[1]
        return [(int(i // n_heads), int(i % n_heads), float(flat[i])) for i in order if np.isfinite(flat[i])]

    def median(self, habit: str) -> float:
        values = self.of(habit)
        return float(np.nanmedian(values)) if np.isfinite(values).any() else float("nan")


def same_token_mask(ids) -> np.ndarray:
    """[T, T] bool: key k < query q holds the same token id as q (position 0, <bos>, is left out)."""
    arr = np.asarray(ids)
    t = len(arr)
    mask = (arr[None, :] == arr[:, None]) & (np.arange(t)[None, :] < np.arange(t)[:, None])
    mask[:, 0] = False  # <bos> is its own habit
    return mask


def habits(patterns: np.ndarray, ids) -> HeadHabits:
    """Measure the three habits of every head on one text.

    Args:
        patterns: [L, H, T, T] attention weights (rows: queries, columns: keys; each row sums to 1).
        ids: [T] the token ids the patterns were computed on (ids[0] = <bos>).
    Returns:
        HeadHabits with [L, H] arrays of mean attention shares in [0, 1].
    """
    patterns = np.asarray(patterns, dtype=np.float64)
    t = len(ids)
    blank = np.full(patterns.shape[:2], np.nan)
    q = np.arange(1, t)
    bos = patterns[:, :, q, 0].mean(-1) if t > 1 else blank  # [L, H]
    q2 = np.arange(2, t)
    previous = patterns[:, :, q2, q2 - 1].mean(-1) if t > 2 else blank  # [L, H]
    mask = same_token_mask(ids)  # [T, T]
    rows = np.flatnonzero(mask.any(axis=1))  # the queries whose token came before
    same = (patterns[:, :, rows] * mask[rows]).sum(-1).mean(-1) if rows.size else blank  # [L, H]
    return HeadHabits(bos=bos, previous=previous, same=same, n_same=int(rows.size))
