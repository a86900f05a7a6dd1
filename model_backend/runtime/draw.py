"""torch.multinomial's one-sample draw, bit for bit, without its 262,144 serial logarithms.

For one sample, torch.multinomial (ATen's `multinomial_out`) draws q ~ Exp(1) for every entry of the probability
tensor with the generator, then returns argmax(p / q) per row (the Gumbel-max trick). On the CPU the exponentials
come from a serial kernel: for each entry in memory order, one `random64()` of the generator's Mersenne Twister,
its low 53 bits as a double x in [0, 1), q = -log1p(-x) in double, then rounded to the tensor's float. For Gemma's
vocabulary that is 262,144 logarithms one after another: 4.2-5.4 ms a row on the 2-core machines of
docs/engine-bench.md, on the Xeon the largest part of a loop step's own work once the model's pass is shared
("Where the loop's floor is on two cores"; on the EPYC of "The draw, top-p's sort and a decode pass's threads" only
top-p's sort took longer).

Here the generator makes the same 64-bit numbers with `random_()` on an int64 tensor (one `random64()` each, the
low 63 bits kept, which hold the 53 we need), so it ends in the same state; the logarithms are taken only where p
is not zero, since a zero p gives p / q = 0 whatever q is. Every other step is the same IEEE operation as torch's
(the float32 division, the first index of the largest ratio). numpy's log1p may differ from the C library's by a
few ulp; where that could change the float32 q (a double within 1e-12 of a float32 rounding boundary) the C
library's `math.log1p` is used, as torch uses it.

The first call checks the whole draw against torch.multinomial on a few rows, and if any result or generator state
differs (another torch build, another C library), every later call is torch.multinomial itself. Anything other
than contiguous float32 probabilities on the CPU with an explicit generator and at most 2^24 categories, and any row
torch would refuse (NaN, inf, negative, all zero), also goes to torch.multinomial, which gives the same result or
the same error. So does the rare row where some x is exactly 0 (probability 2^-53 an entry), where torch's q = 0
makes 0 / 0 a NaN. A row whose every ratio underflows to 0 (only subnormal probabilities) gets index 0, as torch's
argmax of an all-zero row.
"""
from __future__ import annotations

import logging
import math
import threading

import numpy as np
import torch

log = logging.getLogger(__name__)

_MASK53 = np.int64((1 << 53) - 1)
_SCALE = 2.0 ** -53
_ROUNDING_MARGIN = 1e-12  # relative: far wider than numpy's and the C library's log1p can differ (a few ulp)
_MAX_CATEGORIES = 1 << 24  # torch.multinomial refuses more
_checked: bool | None = None  # None: not checked yet; then whether the fast draw matched torch
_check_lock = threading.Lock()


def multinomial_one(probs: torch.Tensor, generator: torch.Generator | None) -> torch.Tensor:
    """torch.multinomial(probs, num_samples=1, generator=generator): the same tokens, the same generator state
    after. probs: [V] or [rows, V]. Returns [1] or [rows, 1] int64, as torch does."""
    if not _eligible(probs, generator) or not _fast_ok():
        return torch.multinomial(probs, num_samples=1, generator=generator)
    out = _fast(probs, generator)
    return torch.multinomial(probs, num_samples=1, generator=generator) if out is None else out


def _eligible(probs: torch.Tensor, generator: torch.Generator | None) -> bool:
    return (generator is not None and generator.device.type == "cpu" and probs.device.type == "cpu"
            and probs.dtype == torch.float32 and probs.dim() in (1, 2) and probs.numel() > 0
            and probs.is_contiguous() and probs.shape[-1] <= _MAX_CATEGORIES and not probs.requires_grad)


def _fast(probs: torch.Tensor, generator: torch.Generator) -> torch.Tensor | None:
    """The draw, or None (generator untouched) where torch.multinomial must make it."""
    p = probs.detach().numpy()  # contiguous (_eligible): torch fills its exponentials in this order
    rows, width = (1, p.shape[0]) if p.ndim == 1 else p.shape
    flat = p.reshape(-1)
    with np.errstate(invalid="ignore"):
        if not (np.all(flat >= 0) and np.isfinite(flat).all()):  # NaN fails the first test, inf the second
            return None
    nz = np.nonzero(flat > 0)[0]  # the entries torch may pick (all >= 0 here): 10x faster than np.flatnonzero(flat)
    starts = np.searchsorted(nz, np.arange(rows + 1) * width)  # each row's nonzero entries: nz[starts[r]:starts[r+1]]
    if np.any(starts[1:] == starts[:-1]):
        return None  # a row of zeros: torch's error
    before = generator.get_state()
    bits = torch.empty(flat.size, dtype=torch.int64).random_(generator=generator).numpy() & _MASK53
    if not bits.all():  # some x == 0: torch's q = 0 there
        generator.set_state(before)
        return None
    ratio = flat[nz] / exponentials(bits[nz])  # float32 / float32, as torch's div
    picked = [int(nz[a + np.argmax(ratio[a:b])]) - r * width if ratio[a:b].max() > 0 else 0
              for r, (a, b) in enumerate(zip(starts[:-1], starts[1:]))]
    out = torch.tensor(picked, dtype=torch.int64)
    return out if p.ndim == 1 else out.reshape(rows, 1)


def exponentials(bits: np.ndarray) -> np.ndarray:
    """torch's float32 Exp(1) samples from the low 53 bits of its random64() numbers: -log1p(-x) in double,
    x = bits * 2^-53, rounded to float32; the C library's log1p wherever numpy's could round to another float32."""
    x = bits.astype(np.float64) * _SCALE
    q64 = -np.log1p(-x)
    q = q64.astype(np.float32)
    lo = (q64 * (1 - _ROUNDING_MARGIN)).astype(np.float32)
    hi = (q64 * (1 + _ROUNDING_MARGIN)).astype(np.float32)
    for i in np.flatnonzero(lo != hi):  # near a rounding boundary: the C library's log1p, as torch
        q[i] = np.float32(-math.log1p(-float(x[i])))
    return q


def _fast_ok() -> bool:
    """Check the fast draw against torch.multinomial once per process: results and generator states."""
    global _checked
    if _checked is None:
        with _check_lock:
            if _checked is None:
                _checked = _agrees()
                if not _checked:
                    log.warning("the fast one-sample draw differs from torch.multinomial here: torch draws every token")
    return _checked


def _agrees() -> bool:
    rng = np.random.default_rng(20261206)
    for case in range(6):
        width = 4096 if case < 4 else 70_000
        scores = torch.from_numpy(rng.standard_normal((1 + case % 2, width)).astype(np.float32) * 4)
        if case % 3:  # a top-k cut leaves most entries at zero, as in the app
            scores = scores.masked_fill(scores < torch.topk(scores, 20 * case, dim=-1).values[:, -1:], float("-inf"))
        probs = torch.softmax(scores, dim=-1)
        if case == 2:
            probs = probs[0]
        seed = int(rng.integers(1 << 62))
        mine, theirs = torch.Generator().manual_seed(seed), torch.Generator().manual_seed(seed)
        for _ in range(3):
            a = _fast(probs, mine)
            if a is None or not torch.equal(a, torch.multinomial(probs, num_samples=1, generator=theirs)):
                return False
        if not torch.equal(mine.get_state(), theirs.get_state()):
            return False
    return True
