"""The sampling chain, built from transformers' own logits processors in generate()'s order."""
from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass

import numpy as np
import torch
from transformers import (
    LogitsProcessor,
    RepetitionPenaltyLogitsProcessor,
    TemperatureLogitsWarper,
    TopKLogitsWarper,
    TopPLogitsWarper,
)

from model_backend.runtime.draw import multinomial_one
from model_backend.types import SamplingParams

STAGE_ORDER = ("raw", "repetition_penalty", "temperature", "top_k", "top_p")


class FrequencyPresencePenaltyLogitsProcessor(LogitsProcessor):
    """The API kind of penalty, which *subtracts* from the logits of tokens already generated.

    The providers' published formula (OpenAI's frequency_penalty and presence_penalty):
        logit[j] -= count[j] * frequency_penalty + (count[j] > 0) * presence_penalty
    where count[j] is how many times token j was generated so far. The prompt is not counted: give its
    length as `prompt_length` (0 counts every token in input_ids). transformers' own
    RepetitionPenaltyLogitsProcessor is another kind: it divides (or multiplies) once per token present,
    prompt included, whatever the count.

    Args:
        frequency_penalty: subtracted once per earlier occurrence (grows with repetition).
        presence_penalty: subtracted once if the token occurred at all.
        prompt_length: how many leading tokens of input_ids are the prompt (not counted).
    """

    def __init__(self, frequency_penalty: float = 0.0, presence_penalty: float = 0.0, prompt_length: int = 0):
        for name, value in (("frequency_penalty", frequency_penalty), ("presence_penalty", presence_penalty)):
            if not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"`{name}` has to be a finite number, but is {value}")
        if not isinstance(prompt_length, int) or prompt_length < 0:
            raise ValueError(f"`prompt_length` has to be a non-negative integer, but is {prompt_length}")
        self.frequency_penalty = float(frequency_penalty)
        self.presence_penalty = float(presence_penalty)
        self.prompt_length = prompt_length

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        """input_ids: [B, S] the tokens so far; scores: [B, V] logits. Returns new [B, V] scores (no in-place)."""
        generated = input_ids[:, self.prompt_length:]  # [B, S - prompt_length]
        counts = torch.zeros_like(scores)  # [B, V] how often each token was generated
        counts.scatter_add_(1, generated, torch.ones_like(generated, dtype=scores.dtype))
        return scores - counts * self.frequency_penalty - (counts > 0).to(scores.dtype) * self.presence_penalty


class SortFreeTopPLogitsWarper(TopPLogitsWarper):
    """TopPLogitsWarper without its sort of (score, index) pairs: the library's result, or, where equal scores sit
    on both sides of the cut, the result the library's code gives with a stable sort.

    The library sorts all V scores with their indices (torch.sort: ~15 ms for Gemma's 262k scores on this machine,
    one thread), takes the softmax and the cumulative sum of the sorted scores and removes the prefix whose
    cumulative probability is <= 1 - top_p. Here the values alone are sorted (`sorted_values`: 0.8 ms with numpy's
    vectorised sort on the Xeon of docs/engine-bench.md; on the EPYC without it 1.7 ms for a bfloat16 row, 7 ms
    for a float32 one):
    - the sorted *values* do not depend on how ties are ordered, so this sort gives the same tensor, and the same
      softmax and cumsum on it give the same numbers, bit for bit;
    - the removed tokens are the first m of that order: every score below the m-th sorted score s[m-1], and, when
      s[m-1] has ties, the first of them in the sort's order. With no tie across the cut (s[m] > s[m-1]) that is
      `scores <= s[m-1]`: the library's result exactly.
    - With ties across the cut, torch.sort (not stable) puts the equal scores in an order that depends on the whole
      row, so which of them the library removes is an accident of its sort. Here the first ones in index order go,
      as the library's own code does with `torch.sort(..., stable=True)`: the same number of tokens removed, the same
      probability left to every kept one, only *which* of the equal-scored tokens at the cut stay may differ from
      transformers'. This is the common case in bfloat16, whose logits have 8 significant bits: at a cut deep in
      the tail many tokens share a score (tests/unit/test_sampling.py; docs/performance.md, 2026-12-06).
    Anything else than one CPU float row, and NaN, runs the library's own code.
    """

    def __call__(self, input_ids: torch.LongTensor, scores: torch.Tensor) -> torch.Tensor:
        return self.cut(input_ids, scores)

    def cut(self, input_ids: torch.LongTensor, scores: torch.Tensor, ascending: np.ndarray | None = None
            ) -> torch.Tensor:
        """The warper's result; `ascending`, where the caller has it, is np.sort of the row's values (run_chain
        gets it by counting a bfloat16 row, also for a row divided by a temperature), so the row is not sorted
        again."""
        if (scores.dim() != 2 or scores.shape[0] != 1 or scores.device.type != "cpu"
                or scores.dtype not in (torch.float32, torch.float64)):
            return super().__call__(input_ids, scores)
        if ascending is None:  # a bfloat16 model's raw row is counted; any other row sorted (NaN last: a NaN ends it)
            row_values = scores[0].detach().numpy()
            ascending = bf16_ascending(row_values)
            if ascending is None:
                ascending = sorted_values(row_values)
        if np.isnan(ascending[-1]):
            return super().__call__(input_ids, scores)
        sorted_logits = torch.from_numpy(ascending).unsqueeze(0)  # ascending, as the library
        cumulative_probs = sorted_logits.softmax(dim=-1).cumsum(dim=-1)  # the library's two lines
        # The library removes where cumulative_probs <= 1 - top_p (float32 against the float32 of 1 - top_p), but
        # never the last min_tokens_to_keep. A cumulative sum of probabilities never falls (torch adds in double and
        # rounds each sum, and rounding keeps order), so that is a prefix, and one binary search counts it.
        threshold = np.array(1 - self.top_p, dtype=ascending.dtype)
        m = int(np.searchsorted(cumulative_probs[0].numpy(), threshold, side="right"))
        m = min(m, max(ascending.shape[0] - self.min_tokens_to_keep, 0))
        if m == 0:
            return scores.clone()
        row = sorted_logits[0]
        cut = row[m - 1]
        values = scores[0].detach().numpy()
        remove = values <= cut.item()  # numpy, one thread: torch's masked_fill of a 262k row took 3x as long
        if m < row.shape[0] and bool(row[m] == cut):
            # ties across the cut: a stable sort puts the equal scores in index order, and its first m - below go
            remove = values < cut.item()
            below = int(np.count_nonzero(remove))
            remove[np.flatnonzero(values == cut.item())[:m - below]] = True
        out = values.copy()
        out[remove] = self.filter_value
        return torch.from_numpy(out).unsqueeze(0)


_BF16_VALUES = (np.arange(1 << 16, dtype=np.uint32) << 16).view(np.float32)  # every bfloat16 value, as float32
_BF16_ORDER = np.argsort(_BF16_VALUES, kind="stable")  # ascending, NaN last
_BF16_NAN = np.isnan(_BF16_VALUES)


def bf16_ascending(values: np.ndarray) -> np.ndarray | None:
    """np.sort of a float32 row whose every value is a bfloat16 value (a bfloat16 model's logits, upcast), by
    counting how often each of the 65,536 bfloat16 values occurs: one np.bincount (0.3 ms for Gemma's 262,144
    logits on the EPYC of docs/engine-bench.md, against 2 ms for sorted_values). None for any other row, and for
    a row with NaN. Equal values come out in the same places as np.sort's (a -0.0 and a 0.0 may swap)."""
    if values.ndim != 1 or values.dtype != np.float32 or values.size < 4 * _SAMPLE or not values.flags.c_contiguous:
        return None
    bits = values.view(np.uint32)
    if (bits & np.uint32(0xFFFF)).any():
        return None
    counts = np.bincount(bits >> 16, minlength=1 << 16)
    if counts[_BF16_NAN].any():
        return None
    present = _BF16_ORDER[counts[_BF16_ORDER] > 0]
    return np.repeat(_BF16_VALUES[present], counts[present])


_SAMPLE = 2048  # entries read to guess whether a row has few distinct values
_sort_by_counting: bool | None = None  # None: not measured yet on this machine
_measure_lock = threading.Lock()


def sorted_values(values: np.ndarray) -> np.ndarray:
    """np.sort(values) for a 1-D float row, made the faster of two exact ways on this machine.

    A bfloat16 model's logits (and those divided by a temperature) hold about 3,000 distinct values in 262,144
    entries. Counting them in a hash table (pandas' value_counts), sorting the distinct ones and repeating each as
    often as it occurs gives the same array as np.sort: 1.7 ms against np.sort's 7 ms on a CPU where numpy's sort
    is not vectorised (the 2-core AMD EPYC of docs/engine-bench.md, "The draw, top-p's sort and a decode pass's
    threads"). Where it is vectorised (0.8 ms on the 2-core Xeon) np.sort stays faster, and with many distinct
    values (a float32 model's logits) counting is slower everywhere (39 ms). So the row takes the counting path
    only where the first call measured it faster on this machine and a sample of the row has many repeats (at
    most 3/4 of its finite values distinct; a bfloat16 row's sample has about half); NaN and equal values of
    other signs (-0.0, 0.0) come out as equal values in either way, so the softmax and cumsum after them are the
    same.
    """
    if values.ndim != 1 or values.size < 4 * _SAMPLE or not _counting_faster():
        return np.sort(values)
    sample = values[:: values.size // _SAMPLE]
    finite = sample[np.isfinite(sample)]  # -inf (a top-k's cut) repeats, but says nothing of the other values
    if np.unique(finite).size > 3 * finite.size // 4 or np.isnan(sample).any():  # bfloat16: ~1,000 of 2,048
        return np.sort(values)
    return _by_counting(values)


def _by_counting(values: np.ndarray) -> np.ndarray:
    import pandas as pd  # here: pandas' import time is paid at the first top-p, not by every importer

    counts = pd.Series(values, copy=False).value_counts(sort=False, dropna=False)
    distinct = counts.index.to_numpy(dtype=values.dtype)
    order = np.argsort(distinct)
    return np.repeat(distinct[order], counts.to_numpy()[order])


def _counting_faster() -> bool:
    """Measured once per process on a bfloat16-like row: is counting faster than np.sort here?"""
    global _sort_by_counting
    if _sort_by_counting is None:
        with _measure_lock:
            if _sort_by_counting is None:
                rng = np.random.default_rng(0)
                row = (rng.standard_normal(262_144) * 3).astype(np.float32)
                row = (row.view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32) / np.float32(0.7)
                _sort_by_counting = _best_of(lambda: _by_counting(row)) < 0.8 * _best_of(lambda: np.sort(row))
    return _sort_by_counting


def _best_of(work, times: int = 3) -> float:
    best = float("inf")
    for _ in range(times):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


@dataclass(frozen=True)
class StageScores:
    """Scores after one processor (-inf marks a token the processor cut), and their softmax."""

    name: str
    scores: torch.Tensor  # [1, V] float32
    probs: torch.Tensor  # [1, V] softmax(scores), computed once

    @classmethod
    def of(cls, name: str, scores: torch.Tensor) -> StageScores:
        return cls(name, scores, torch.softmax(scores, dim=-1))


def build_chain(params: SamplingParams) -> list[tuple[str, object]]:
    """The processors generate() would use for these settings, in its order.

    generate() skips a processor whose setting is neutral (temperature 1, top_k 0, top_p 1,
    penalty 1), and with greedy decoding it applies only the repetition penalty.
    """
    chain: list[tuple[str, object]] = []
    if params.repetition_penalty != 1.0:
        chain.append(("repetition_penalty", RepetitionPenaltyLogitsProcessor(params.repetition_penalty)))
    if params.greedy:
        return chain
    if params.temperature != 1.0:
        chain.append(("temperature", TemperatureLogitsWarper(params.temperature)))
    if params.top_k:
        chain.append(("top_k", TopKLogitsWarper(top_k=params.top_k, min_tokens_to_keep=1)))
    if params.top_p < 1.0:
        chain.append(("top_p", SortFreeTopPLogitsWarper(top_p=params.top_p, min_tokens_to_keep=1)))
    return chain


def run_chain(context_ids: torch.Tensor, logits: torch.Tensor, params: SamplingParams) -> list[StageScores]:
    """Apply the chain and keep the scores after every processor.

    Args:
        context_ids: [1, S] every token so far (prompt + generated); the penalty reads it.
        logits: [1, V] raw next-token logits.
    Returns:
        [raw, after processor 1, after processor 2, ...]; the last one is what is sampled from.
    """
    scores = logits.to(dtype=torch.float32)
    stages = [StageScores.of("raw", scores)]
    chain = build_chain(params)
    ascending = _ascending_raw(scores, chain)
    for name, processor in chain:
        if name == "top_p" and ascending is not None:
            scores = processor.cut(context_ids, scores, ascending[0].numpy())
        else:
            scores = processor(context_ids, scores.clone())  # processors may work in place
            if ascending is not None:  # the same processor on the sorted row: still the sorted row of `scores`
                ascending = processor(context_ids, ascending.clone()) if name in _BY_VALUE else None
        stages.append(StageScores.of(name, scores))
    return stages


_BY_VALUE = ("temperature", "top_k")  # each score's new value depends on its value alone, and never lowers its rank:
# so applied to the sorted row, they give the sorted row of their result (the penalty depends on the token: not these)


def _ascending_raw(scores: torch.Tensor, chain) -> torch.Tensor | None:
    """The sorted raw row [1, V], where top-p will need it and only value-wise processors come before it: counted
    (bf16_ascending) for a bfloat16 model's row; None otherwise (top-p then sorts its own input)."""
    names = [name for name, _ in chain]
    if ("top_p" not in names or any(n not in _BY_VALUE for n in names[:names.index("top_p")])
            or scores.dim() != 2 or scores.shape[0] != 1 or scores.device.type != "cpu"):
        return None
    ascending = bf16_ascending(scores[0].detach().numpy())
    return None if ascending is None else torch.from_numpy(ascending).unsqueeze(0)


def choose(final: StageScores, params: SamplingParams, generator: torch.Generator | None) -> int:
    """Greedy takes the argmax; sampling draws one token with torch.multinomial, as generate() does (draw.py makes
    the same draw faster)."""
    if params.greedy:
        return int(torch.argmax(final.scores, dim=-1))
    return int(multinomial_one(final.probs, generator))


def distributions(logits: np.ndarray, params: SamplingParams,
                  context_ids: list[int] | None = None) -> list[tuple[str, np.ndarray]]:
    """The probability vector after each stage, for pages that redraw on every slider move.

    Works on cached logits: no forward pass. Returns [(stage name, probs [V])].
    """
    ctx = torch.tensor([context_ids or []], dtype=torch.long)
    if ctx.shape[1] == 0:
        ctx = torch.zeros((1, 0), dtype=torch.long)
    row = np.asarray(logits, dtype=np.float32)
    if not row.flags.writeable:  # a shared, read-only memo: the chain gets its own copy, never a view of it
        row = row.copy()
    stages = run_chain(ctx, torch.from_numpy(row).reshape(1, -1), params)
    return [(s.name, s.probs.reshape(-1).numpy()) for s in stages]


def softmax_with_temperature(logits: list[float], temperature: float) -> list[float]:
    """Softmax of logits / T through TemperatureLogitsWarper (T = 0 -> one-hot on the argmax)."""
    scores = torch.tensor([logits], dtype=torch.float64)
    if temperature == 0:
        out = torch.zeros_like(scores)
        out[0, int(torch.argmax(scores))] = 1.0
        return out[0].tolist()
    scores = TemperatureLogitsWarper(temperature)(torch.zeros((1, 0), dtype=torch.long), scores)
    return torch.softmax(scores, dim=-1)[0].tolist()


def kept_count(scores: torch.Tensor) -> int:
    """How many tokens a stage left with non-zero probability (scores above -inf).

    Counted in numpy for a CPU tensor: one thread, no OpenMP team to wake, which matters when 30 visitors' steps
    each count 262k scores at once (torch's count split over threads cost 7% of a loaded server's step work)."""
    if scores.device.type == "cpu" and scores.dtype in (torch.float32, torch.float64):
        return int(np.count_nonzero(scores.detach().numpy() > -np.inf))
    return int((scores > float("-inf")).sum())
