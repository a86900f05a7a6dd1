"""The mechanism: how much of the embedding matrix, read along the input index a = 0..p-1, is each frequency."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

KEY_FACTOR = 3.0  # a frequency is "key" when it holds at least 3x the share of a flat spectrum
MAX_KEY = 6


@dataclass(frozen=True)
class Spectrum:
    """Power per frequency of an embedding matrix over the input index."""

    freqs: np.ndarray  # [K] int, 1..p//2 (frequency k = k full turns as a runs over 0..p-1)
    power: np.ndarray  # [K] float, share of all non-constant power; sums to 1
    key: tuple[int, ...]  # the frequencies that stand out, strongest first (empty before grokking)
    key_share: float  # share of the power held by the key frequencies


def spectrum(embedding: np.ndarray | torch.Tensor) -> Spectrum:
    """DFT of each embedding dimension over a, power summed over dimensions.

    Args:
        embedding: [p, d], row a is the vector of the number a.
    Returns:
        Spectrum over k = 1..p//2 (k = 0, the mean, says nothing about a and is left out).
    """
    e = torch.tensor(np.asarray(embedding, dtype=np.float64))  # [p, d], a copy (a shared memo's array is read-only)
    coeffs = torch.fft.rfft(e, dim=0)  # [p//2 + 1, d] complex
    power = (coeffs.abs() ** 2).sum(dim=1)[1:].numpy()  # [p//2]
    total = power.sum()
    power = power / total if total > 0 else np.full_like(power, 1 / len(power))
    order = np.argsort(-power, kind="stable")
    strong = [int(i) for i in order[:MAX_KEY] if power[i] >= KEY_FACTOR / len(power)]
    freqs = np.arange(1, len(power) + 1)
    return Spectrum(freqs, power, tuple(int(freqs[i]) for i in strong), float(power[strong].sum()))


@dataclass(frozen=True)
class WaveBasis:
    """Where a trained embedding keeps the waves of frequency k: a unit direction each for cos and sin."""

    k: int
    cos_dir: np.ndarray  # [d], unit length
    sin_dir: np.ndarray  # [d], unit length
    cos_scale: float  # amplitude of the cos wave along cos_dir in the embedding it came from
    sin_scale: float


@dataclass(frozen=True)
class Wave:
    """An embedding read along a WaveBasis: after grokking the curves lie on cos and sin."""

    k: int
    cos_curve: np.ndarray  # [p] over a = 0..p-1, in units of the basis amplitude (a perfect wave: cos(2*pi*k*a/p))
    sin_curve: np.ndarray  # [p]; a perfect wave here is sin(2*pi*k*a/p)
    fit: float  # R^2 of the curves against the exact waves, averaged over cos and sin (1 = perfect)


def _waves(p: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    angle = 2 * np.pi * k * np.arange(p) / p
    return np.cos(angle), np.sin(angle)


def _centred(embedding) -> np.ndarray:
    e = np.asarray(embedding, dtype=np.float64)
    return e - e.mean(axis=0)  # [p, d]


def wave_basis(embedding: np.ndarray | torch.Tensor, k: int, rank: int = 12) -> WaveBasis:
    """The directions of an embedding ([p, d]) that best match cos(2*pi*k*a/p) and sin(2*pi*k*a/p).

    The search stays inside the embedding's `rank` strongest principal directions: the space the model
    really uses. (Anywhere in d >= p dimensions even a random matrix has some direction that looks like
    any wave; among its strongest few directions it has none, unless it learned the wave.) Within that
    space the direction for a wave w over a is E^T w, normalised; the scale is the amplitude along it.
    """
    e = _centred(embedding)
    _, _, vt = np.linalg.svd(e, full_matrices=False)
    top = vt[:rank].T  # [d, rank]: the strongest principal directions
    dirs, scales = [], []
    for wave in _waves(e.shape[0], k):
        direction = top @ (top.T @ (e.T @ wave))  # [d]: E^T w, kept inside the strong subspace
        norm = np.linalg.norm(direction)
        direction = direction / norm if norm > 0 else direction
        dirs.append(direction)
        scales.append(float(np.sqrt(2) * np.sqrt(np.mean((e @ direction) ** 2))) or 1.0)
    return WaveBasis(k, dirs[0], dirs[1], scales[0], scales[1])


def wave_projection(embedding: np.ndarray | torch.Tensor, basis: WaveBasis) -> Wave:
    """Read an embedding ([p, d]) along a basis, usually the final checkpoint's, to watch the waves form.

    Returns:
        Wave with curves in units of the basis amplitude: at the checkpoint the basis came from, a perfect
        wave is exactly cos / sin; earlier, noise and a smaller wave.
    """
    e = _centred(embedding)
    curves, fits = [], []
    for wave, direction, scale in zip(_waves(e.shape[0], basis.k), (basis.cos_dir, basis.sin_dir),
                                      (basis.cos_scale, basis.sin_scale)):
        curve = e @ direction  # [p]
        curves.append(curve / scale)
        fits.append(float(np.corrcoef(curve, wave)[0, 1] ** 2) if np.std(curve) > 0 else 0.0)
    return Wave(basis.k, curves[0], curves[1], float(np.mean(fits)))
