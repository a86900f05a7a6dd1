"""Views of the sampling chain on cached logits: the seed's table, nucleus sizes, entropy, draws, loops.

Everything here is cheap math on a logit vector that a forward pass already produced: no function
in this module runs the model. The processors themselves are transformers' own (model_backend.core.sampling).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np
import torch
from transformers import LogitsProcessorList, RepetitionPenaltyLogitsProcessor, TemperatureLogitsWarper

from model_backend.core.sampling import (
    FrequencyPresencePenaltyLogitsProcessor,
    kept_count,
    run_chain,
    softmax_with_temperature,
)
from model_backend.core.stats import counted, entropy_bits, find_loop
from model_backend.core.tokens import safe_text
from model_backend.core.tracing import encode
from model_backend.runtime.loading import ModelBundle
from model_backend.runtime.memo import cached
from model_backend.types import SamplingParams
from model_backend.validation import InvalidInput

# The seed text's worked example ("Temperatura na prática"): three tokens, three temperatures.
SEED_LOGITS = (2.0, 1.0, 0.1)
SEED_TABLE = {1.0: (66, 24, 10), 0.5: (86, 12, 2), 2.0: (50, 30, 20)}  # percent, as the seed prints them
# The seed's line "P(token mais provável) %" against T.
SEED_CURVE = {0.1: 99, 0.3: 95, 0.5: 86, 0.7: 78, 1.0: 66, 1.5: 55, 2.0: 50}
MIN_LOGITS, MAX_LOGITS = 2, 10
MAX_ABS_LOGIT = 1000.0
_SPLIT = re.compile(r"[;·|\s]+|,(?=\s)")  # ";", "·", "|", spaces, or a comma followed by a space


# ---------------------------------------------------------------- the seed's three-token example

@dataclass(frozen=True)
class TableRow:
    """One temperature of the worked example."""

    temperature: float
    probs: tuple[float, ...]  # exact probabilities, one per logit (sum 1)
    seed_pct: tuple[int, ...] | None  # what the seed prints for this row, if it has the row

    @property
    def rounded(self) -> tuple[int, ...]:
        return tuple(round(100 * p) for p in self.probs)

    @property
    def mismatches(self) -> tuple[int, ...]:
        """Indices where the seed's printed percent differs from the exact value rounded."""
        if self.seed_pct is None:
            return ()
        return tuple(i for i, (a, b) in enumerate(zip(self.rounded, self.seed_pct)) if a != b)


def parse_logits(text: str) -> tuple[float, ...]:
    """Read 2-10 logits typed by a person: "2.0, 1.0, 0.1", "2,0; 1,0; 0,1" or "2 1 0.1".

    Numbers are separated by spaces, ";", "·", "|" or ", " (comma + space); a comma inside a number
    is a decimal comma. Raises InvalidInput (keys "logits_number", "logits_count") otherwise.
    """
    parts = [p for p in _SPLIT.split(str(text).strip()) if p]
    values = []
    for part in parts:
        clean = part.replace(",", ".") if part.count(",") == 1 and "." not in part else part
        try:
            value = float(clean)
        except ValueError:
            raise InvalidInput("logits_number", "`{value}` is not a number", value=part) from None
        if not math.isfinite(value) or abs(value) > MAX_ABS_LOGIT:
            raise InvalidInput("logits_number", "`{value}` is not a number", value=part)
        values.append(value)
    if not MIN_LOGITS <= len(values) <= MAX_LOGITS:
        raise InvalidInput("logits_count", "give between {lo} and {hi} logits, not {n}",
                           lo=MIN_LOGITS, hi=MAX_LOGITS, n=len(values))
    return tuple(values)


@cached(64)  # the seed's example on every run of the page: the same few numbers for every visitor
def temperature_table(logits: tuple[float, ...], temperatures=(1.0, 0.5, 2.0)) -> tuple[TableRow, ...]:
    """softmax(logits / T) for each T, next to the seed's printed row when the logits are the seed's."""
    is_seed = tuple(logits) == SEED_LOGITS
    return tuple(TableRow(temperature=float(t), probs=tuple(softmax_with_temperature(list(logits), t)),
                          seed_pct=SEED_TABLE.get(t) if is_seed else None) for t in temperatures)


@cached(64)  # 40 softmaxes through TemperatureLogitsWarper were 35% of a run of the page (py-spy, 30 visits)
def top_prob_curve(logits: tuple[float, ...], temperatures: tuple[float, ...]) -> tuple[tuple[float, float], ...]:
    """(T, probability of the most likely token) for each T: the seed's "P(mais provável)" line."""
    return tuple((float(t), max(softmax_with_temperature(list(logits), t))) for t in temperatures)


@cached(8)
def seed_curve_mismatches(logits: tuple[float, ...] = SEED_LOGITS) -> tuple[tuple[float, float, int], ...]:
    """The seed's P(top) points that do not match the exact value to the percent: (T, exact, printed %)."""
    exact = dict(top_prob_curve(logits, tuple(SEED_CURVE)))
    return tuple((t, exact[t], v) for t, v in SEED_CURVE.items() if round(100 * exact[t]) != v)


@cached(256)  # the penalties panel draws it on every run of the page: once per setting, not once per visitor's run
def penalty_example(logits: tuple[float, ...], context: tuple[int, ...], r: float, f: float,
                    p: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Both kinds of penalty on a few hand-made logits, after the tokens `context`: (divided by transformers'
    repetition penalty r, minus the frequency f and presence p penalties)."""
    scores = torch.tensor([logits])
    ids = torch.tensor([context])
    mult = RepetitionPenaltyLogitsProcessor(r)(ids, scores.clone())[0]
    sub = FrequencyPresencePenaltyLogitsProcessor(f, p)(ids, scores)[0]
    return tuple(mult.tolist()), tuple(sub.tolist())


# ---------------------------------------------------------------- the chain on a real logit vector

@dataclass(frozen=True)
class StageView:
    """The distribution after one processor, seen through a fixed set of display tokens."""

    name: str  # "raw", "repetition_penalty", "temperature", "top_k", "top_p" or "greedy"
    probs: np.ndarray  # [N] probability of each display token after this stage (0 = cut)
    kept: int  # tokens of the whole vocabulary still possible after this stage
    entropy_bits: float  # of the whole [V] distribution


@dataclass(frozen=True)
class ChainView:
    """What the chain did to one next-token distribution."""

    ids: np.ndarray  # [N] display tokens: the N most likely before any processor (raw logits)
    stages: tuple[StageView, ...]  # raw first, then one per processor in generate()'s order
    final: np.ndarray  # [V] the distribution a token is drawn from (one-hot on the argmax if greedy)
    before_cut: np.ndarray  # [N] display tokens' probabilities before top-k/top-p (after the temperature)


def _ctx(context_ids) -> torch.Tensor:
    ids = list(context_ids or [])
    return torch.tensor([ids], dtype=torch.long) if ids else torch.zeros((1, 0), dtype=torch.long)


def _scores(logits) -> torch.Tensor:
    return torch.tensor(np.asarray(logits, dtype=np.float32)).reshape(1, -1)  # [1, V], a copy


def chain_view(logits: np.ndarray, params: SamplingParams, context_ids=(), top_n: int = 15) -> ChainView:
    """Run generate()'s processors over the full vector and keep what a page draws.

    Args:
        logits: [V] raw next-token logits (cached; no forward pass here).
        params: the sampling settings; temperature 0 means greedy (argmax after the penalty).
        context_ids: every token id so far (the repetition penalty reads them), <bos> included.
        top_n: how many display tokens to keep per stage.
    """
    scores = _scores(logits)
    stages = run_chain(_ctx(context_ids), scores, params)  # transformers' processors, generate()'s order
    ids = torch.topk(scores[0], k=min(top_n, scores.shape[-1])).indices.numpy()  # [N]
    views, probs = [], None
    for s in stages:
        probs = s.probs[0].numpy()  # [V]: one softmax per stage
        kept = int((s.scores[0].numpy() > -np.inf).sum())  # = sampling.kept_count
        views.append(StageView(s.name, probs[ids].copy(), kept, entropy_bits(probs)))
    if params.greedy:  # generate(do_sample=False) takes the argmax of the (penalised) scores
        argmax = int(torch.argmax(stages[-1].scores))
        final = np.zeros_like(probs)
        final[argmax] = 1.0
        views.append(StageView("greedy", final[ids].copy(), 1, 0.0))
    else:
        final = probs
    cut_from = next(v for v in reversed(views) if v.name in ("temperature", "repetition_penalty", "raw"))
    return ChainView(ids=ids, stages=tuple(views), final=final, before_cut=cut_from.probs)


def nucleus_size(logits: np.ndarray, temperature: float, top_p: float, context_ids=(),
                 repetition_penalty: float = 1.0) -> int:
    """How many tokens survive top-p at this temperature (TopPLogitsWarper over the full vector)."""
    if temperature == 0:
        return 1
    params = SamplingParams(temperature=temperature, top_p=top_p, repetition_penalty=repetition_penalty)
    return kept_count(run_chain(_ctx(context_ids), _scores(logits), params)[-1].scores)


def nucleus_row(logits: np.ndarray, temperature: float, top_ps, context_ids=(),
                repetition_penalty: float = 1.0) -> tuple[int, ...]:
    """Nucleus sizes for several p at one temperature: one row of the "in the dark" grid."""
    return nucleus_grid(logits, (temperature,), top_ps, context_ids, repetition_penalty)[0]


def nucleus_grid(logits: np.ndarray, temperatures, top_ps, context_ids=(),
                 repetition_penalty: float = 1.0) -> tuple[tuple[int, ...], ...]:
    """Nucleus sizes for every (T, p): one row per temperature, one size per p, equal to nucleus_size's.

    TopPLogitsWarper sorts the scaled scores, takes softmax and cumsum, and removes the tokens whose
    cumulative probability is <= 1 - p, keeping the most likely one. Dividing by T > 0 keeps the order, so
    the raw (penalised) scores are sorted once for the whole grid and divided by each T afterwards: the
    same values in the same order as the warper's own sort, hence the same softmax, cumsum and counts,
    without one 262,144-element sort per (T, p) (tests/unit/test_temperature_math.py checks them equal).
    """
    scores = _scores(logits)
    if repetition_penalty != 1.0:
        scores = run_chain(_ctx(context_ids), scores, SamplingParams(repetition_penalty=repetition_penalty))[-1].scores
    ascending = torch.sort(scores, descending=False).values  # [1, V]
    rows = []
    for t in temperatures:
        if t == 0:
            rows.append(tuple(1 for _ in top_ps))  # greedy: one token
            continue
        scaled = ascending if t == 1.0 else TemperatureLogitsWarper(float(t))(_ctx(()), ascending)
        cum = scaled.softmax(dim=-1).cumsum(dim=-1)  # [1, V], as in TopPLogitsWarper
        finite, row = scaled > float("-inf"), []
        for p in top_ps:
            if p >= 1.0:  # top-p off (generate() skips it): every token with a finite score
                row.append(int(finite.sum()))
                continue
            remove = cum <= (1 - p)
            remove[..., -1:] = False  # min_tokens_to_keep = 1
            row.append(int((finite & ~remove).sum()))  # = kept_count of the warper's output
        rows.append(tuple(row))
    return tuple(rows)


def entropy_curve(logits: np.ndarray, temperatures, context_ids=(),
                  repetition_penalty: float = 1.0) -> tuple[tuple[float, float], ...]:
    """(T, entropy in bits of softmax(penalised logits / T)) for each T; T = 0 (greedy) is 0 bits."""
    ctx, scores = _ctx(context_ids), _scores(logits)
    base = run_chain(ctx, scores, SamplingParams(repetition_penalty=repetition_penalty))[-1].scores
    out = []
    for t in temperatures:
        if t == 0:
            out.append((0.0, 0.0))
            continue
        warped = TemperatureLogitsWarper(float(t))(ctx, base.clone())
        out.append((float(t), entropy_bits(torch.softmax(warped, dim=-1)[0].numpy())))
    return tuple(out)


def mass_curve(logits: np.ndarray, temperature: float, ranks) -> tuple[tuple[int, float], ...]:
    """(n, probability of the n most likely tokens together) at temperature T, for each n in ranks.

    The curve top-p reads: the nucleus is where it first reaches p. For display; the nucleus size
    itself comes from TopPLogitsWarper (nucleus_size).
    """
    warped = TemperatureLogitsWarper(float(temperature))(_ctx(()), _scores(logits))
    probs = torch.softmax(warped, dim=-1)[0].numpy()  # [V]
    cum = np.cumsum(np.sort(probs)[::-1], dtype=np.float64)  # [V] most likely first
    return tuple((int(n), float(cum[n - 1])) for n in ranks if 1 <= n <= len(cum))


# ---------------------------------------------------------------- the chain, run again in the browser

T_STEPS = tuple(round(0.05 * i, 2) for i in range(41))  # every value of the page's T slider: 0, 0.05, ..., 2


@dataclass(frozen=True)
class BrowserLogits:
    """What a browser needs to run generate()'s chain itself, for any slider setting, without the
    262,144 logits: the most likely tokens and every context token one by one, and the rest (the tail)
    in bins whose softmax mass is precomputed for each temperature the slider can take.

    The tail holds no context token, so the repetition penalty never touches it; temperature only
    rescales it (its mass at each T is in bin_logmass); top-k never reaches it (k <= 100 < len(ids)
    minus the context tokens); top-p may end inside it, where the browser keeps the part of one bin
    that fills the nucleus (tests/unit/test_browser_chain.py checks the result against the chain).
    """

    ids: np.ndarray  # [M] token ids sent one by one: the `top` most likely (raw), then the other context tokens
    logits: np.ndarray  # [M] their raw logits (float32 values, as float64)
    in_context: np.ndarray  # [M] bool: the token is in the context, so the repetition penalty applies
    raw_probs: np.ndarray  # [M] softmax of the raw logits over the whole vocabulary
    bin_top: np.ndarray  # [B] the highest raw logit in each tail bin (bins in descending order)
    bin_size: np.ndarray  # [B] tokens in each bin
    bin_logmass: np.ndarray  # [B, len(T_STEPS)] log(sum over the bin of exp(logit / T)); T = 0 uses T = 1


def browser_logits(logits: np.ndarray, context_ids=(), top: int = 1000, bins: int = 160) -> BrowserLogits:
    """Split a [V] logit vector into what the browser computes with (see BrowserLogits).

    Bins grow geometrically down the tail (about 35 tokens each just below the top tokens, a few
    thousand at the far end), so the bins where the nucleus may end, at the top of the tail, are small.
    """
    raw = np.asarray(logits, dtype=np.float32).astype(np.float64)  # [V]
    order = np.argsort(-raw, kind="stable")  # [V] most likely first
    ctx = {int(i) for i in context_ids if 0 <= int(i) < raw.shape[0]}
    head = [int(i) for i in order[:top]]
    ids = np.array(head + sorted(ctx - set(head)), dtype=np.int64)  # [M]
    rest = order[top:]
    outside = np.ones(raw.shape[0], dtype=bool)
    outside[list(ctx)] = False
    tail = rest[outside[rest]].astype(np.int64)  # [V - M], descending: the rest without context tokens
    shift = raw.max()
    log_z = shift + np.log(np.exp(raw - shift).sum())
    edges = np.unique(np.round(np.geomspace(top, top + len(tail), bins + 1)).astype(np.int64) - top)
    temps = np.array([t if t > 0 else 1.0 for t in T_STEPS])[:, None]  # [T, 1]
    tops, sizes, masses = [], [], []
    for lo, hi in zip(edges[:-1], edges[1:]):
        part = raw[tail[lo:hi]]  # [n] one bin's logits
        tops.append(float(part[0]))
        sizes.append(len(part))
        x = part[None, :] / temps  # [T, n]: every temperature at once
        top_x = x.max(axis=1, keepdims=True)  # [T, 1]
        masses.append((top_x + np.log(np.exp(x - top_x).sum(axis=1, keepdims=True)))[:, 0])
    return BrowserLogits(ids=ids, logits=raw[ids], in_context=np.array([int(i) in ctx for i in ids]),
                         raw_probs=np.exp(raw[ids] - log_z), bin_top=np.array(tops), bin_size=np.array(sizes),
                         bin_logmass=np.array(masses))


# ---------------------------------------------------------------- drawing samples

@dataclass(frozen=True)
class Draw:
    """N tokens drawn with torch.multinomial from one distribution, with the seed that made them."""

    n: int
    seed: int
    ids: np.ndarray  # [N] the display tokens
    probs: np.ndarray  # [N] their probability in the distribution drawn from
    counts: np.ndarray  # [N] how many of the n draws were each display token
    other_prob: float  # probability of every other token together
    other_count: int  # draws that fell outside the display tokens
    distinct: int  # how many different tokens came out


def draw_samples(final: np.ndarray, ids: np.ndarray, n: int, seed: int) -> Draw:
    """Draw n tokens (with replacement) the way generate() draws one: torch.multinomial with a seeded
    torch.Generator. The same (distribution, n, seed) always gives the same draws.

    Args:
        final: [V] the distribution after the whole chain.
        ids: [N] tokens to count one by one; the rest are counted together.
    """
    probs = torch.tensor(np.asarray(final, dtype=np.float32))  # [V], a copy
    generator = torch.Generator().manual_seed(int(seed))
    drawn = torch.multinomial(probs, num_samples=int(n), replacement=True, generator=generator)  # [n]
    counts = torch.bincount(drawn, minlength=probs.shape[0])  # [V]
    shown = torch.tensor(np.asarray(ids, dtype=np.int64))  # a copy: `ids` may be a shared memo's read-only array
    per = counts[shown]
    return Draw(n=int(n), seed=int(seed), ids=np.asarray(ids), probs=probs[shown].numpy().copy(),
                counts=per.numpy().copy(), other_prob=float(max(0.0, 1.0 - float(probs[shown].sum()))),
                other_count=int(n - int(per.sum())), distinct=int((counts > 0).sum()))


# ---------------------------------------------------------------- repetition loops


# ---------------------------------------------------------------- penalties, run live with generate()
# The API kind that subtracts (frequency and presence) and transformers' repetition penalty that divides.

@dataclass(frozen=True)
class PenaltyRun:
    """One greedy generation under one penalty."""

    kind: str  # "none", "multiplicative" or "subtractive"
    completion: str
    token_ids: tuple[int, ...]
    loop_period: int  # the repeating cycle at the end (0: none)
    loop_repeats: int
    counted: int  # for a counting prompt: numbers continued correctly (see core.stats.counted)


def processors(kind: str, prompt_length: int, repetition: float = 1.0, frequency: float = 0.0,
               presence: float = 0.0) -> LogitsProcessorList:
    """The penalty as a logits processor: transformers' own, or the subtractive one with the API formula."""
    if kind == "multiplicative":
        return LogitsProcessorList([RepetitionPenaltyLogitsProcessor(repetition)])
    if kind == "subtractive":
        return LogitsProcessorList([FrequencyPresencePenaltyLogitsProcessor(frequency, presence, prompt_length)])
    return LogitsProcessorList()


def greedy_run(bundle: ModelBundle, prompt: str, kind: str, max_new_tokens: int, count_from: int = 0,
               max_prompt_tokens: int = 512, **penalty) -> PenaltyRun:
    """generate(do_sample=False) with one penalty processor, through the model's engine."""
    ids, _ = encode(bundle, prompt, max_prompt_tokens)
    input_ids = torch.tensor([ids], device=bundle.device)  # [1, S]
    eos = bundle.tokenizer.eos_token_id
    out = bundle.engine.generate(input_ids=input_ids, attention_mask=torch.ones_like(input_ids),
                                 do_sample=False, max_new_tokens=max_new_tokens,
                                 logits_processor=processors(kind, len(ids), **penalty),
                                 pad_token_id=eos, top_k=None, top_p=None, temperature=None)
    new = tuple(int(i) for i in out[0, len(ids):])
    text = safe_text(bundle.tokenizer.decode(list(new), skip_special_tokens=True))
    loop = find_loop(list(new))
    return PenaltyRun(kind=kind, completion=text, token_ids=new, loop_period=loop.period, loop_repeats=loop.repeats,
                      counted=counted(text, count_from) if count_from else 0)
