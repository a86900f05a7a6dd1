"""Decoding strategies side by side (Holtzman et al. 2019): greedy, beam search and three kinds of sampling,
all through transformers' own generate(), with the measures of degeneration the page and the bench report."""
from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import torch
from transformers import (
    DynamicCache,
    LogitsProcessor,
    LogitsProcessorList,
    RepetitionPenaltyLogitsProcessor,
    TopKLogitsWarper,
)

from model_backend.core.sampling import SortFreeTopPLogitsWarper
from model_backend.core.stats import find_loop
from model_backend.core.tokens import safe_text, visible
from model_backend.core.tracing import encode
from model_backend.runtime import fastpath
from model_backend.runtime.loading import ModelBundle

STRATEGIES = ("greedy", "beam", "sampling", "top_k", "top_p")  # the page's order
SAMPLED = ("sampling", "top_k", "top_p")  # run together as one batched generate()
TOP_K = 40  # the paper's top-k setting
TOP_P = 0.95  # the paper's nucleus
BEAM_WIDTHS = (4, 8, 16)
MAX_NEW = 100  # longest continuation a visitor can ask for
MIN_NEW = 20
MAX_SAMPLES = 4  # samples per sampled strategy (self-similarity)
TREE_STEPS = 4  # beam-tree depth the page draws (one more step is recorded to know which candidates survived)
LENGTH_PENALTY = 1.0  # beam search's length normalisation: score = sum of log-probs / length
NGRAM = 4  # repeated 4-grams
SIM_NGRAM = 3  # self-similarity compares 3-grams
Progress = Callable[[int], None]  # steps done so far -> None


# ---------------------------------------------------------------- measures (pure)


def ngrams(ids: Sequence[int], n: int) -> list[tuple[int, ...]]:
    """Every n-gram of the sequence, in order: len(ids) - n + 1 of them (none when it is shorter)."""
    return [tuple(ids[i:i + n]) for i in range(len(ids) - n + 1)]


def repeated_share(ids: Sequence[int], n: int = NGRAM) -> float:
    """Share of the n-grams that already appeared earlier in the same text (0 = none repeats).

    "a b c a b c" with n=2: 2-grams ab bc ca ab bc -> the last two are repeats: 2/5. No n-grams: 0.
    """
    grams = ngrams(ids, n)
    return (len(grams) - len(set(grams))) / len(grams) if grams else 0.0


def distinct_n(ids: Sequence[int], n: int) -> float:
    """distinct-n (Li et al. 2016): distinct n-grams / all n-grams. 1 = nothing repeats. No n-grams: 0."""
    grams = ngrams(ids, n)
    return len(set(grams)) / len(grams) if grams else 0.0


def repeated_mask(ids: Sequence[int], n: int = NGRAM) -> list[bool]:
    """Per token: True when it belongs to an n-gram that already appeared earlier (the repeats are marked,
    not their first occurrence)."""
    mask, seen = [False] * len(ids), set()
    for i, gram in enumerate(ngrams(ids, n)):
        if gram in seen:
            mask[i:i + n] = [True] * n
        seen.add(gram)
    return mask


def overlap(a: Sequence[int], b: Sequence[int], n: int = SIM_NGRAM) -> float:
    """Jaccard overlap of two texts' distinct n-gram sets: |A ∩ B| / |A ∪ B| (both empty: 1, same text)."""
    sa, sb = set(ngrams(a, n)), set(ngrams(b, n))
    return len(sa & sb) / len(sa | sb) if sa | sb else 1.0


def self_similarity(samples: Sequence[Sequence[int]], n: int = SIM_NGRAM) -> float | None:
    """Mean pairwise overlap() between samples of the same prompt (1 = every sample the same text).
    None with fewer than two samples."""
    pairs = list(itertools.combinations(samples, 2))
    return float(np.mean([overlap(a, b, n) for a, b in pairs])) if pairs else None


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class Continuation:
    """One strategy's continuation of the prompt, with its measures."""

    strategy: str  # one of STRATEGIES
    label: str  # e.g. "beam 8", "top-k 40"
    token_ids: tuple[int, ...]  # generated tokens, up to and including an <eos>
    tokens: tuple[str, ...]  # each token's text with whitespace made visible
    text: str  # the continuation as text (without <eos>)
    logprobs: tuple[float, ...]  # log p(token | everything before) under the model itself (T = 1, no filter)
    seconds: float  # wall time of the generate() call that made it
    batch: int  # rows in that call (the sampled strategies share one)

    @property
    def mean_logprob(self) -> float:
        return float(np.mean(self.logprobs)) if self.logprobs else float("nan")

    @property
    def repeated(self) -> float:
        return repeated_share(self.token_ids)

    @property
    def distinct1(self) -> float:
        return distinct_n(self.token_ids, 1)

    @property
    def distinct2(self) -> float:
        return distinct_n(self.token_ids, 2)


@dataclass(frozen=True)
class TreeNode:
    """A candidate in the beam search's first steps.

    status: "kept" (one of the beams carried to the next step), "pruned" (scored but cut), "ended" (an <eos>
    candidate, which beam search moves to its finished list instead of keeping it running).
    """

    id: int
    step: int  # 1 = the first generated token
    parent: int | None  # id of the kept node at step - 1 it extends (None: it extends the prompt)
    token_id: int
    token: str  # visible text of the token
    logprob: float  # log p(token | its beam)
    cum: float  # the beam's cumulative log-probability with this token: what beam search ranks by
    rank: int  # 1 = best candidate of its step
    status: str
    winner: bool  # on the path of the sequence generate() returned


@dataclass(frozen=True)
class BeamRun:
    """A beam-search continuation and the tree of its first steps."""

    width: int
    continuation: Continuation
    nodes: tuple[TreeNode, ...]
    sequence_score: float  # what generate() ranks by: sum of log-probs / length (length_penalty 1), see sequence_score


@dataclass(frozen=True)
class FeedbackCurve:
    """The paper's Figure 4: a sentence repeated n times, the model's probability of each of its tokens."""

    tokens: tuple[str, ...]  # one repetition's tokens (visible text)
    repetition: tuple[int, ...]  # [T] 1-based repetition of each scored token
    position: tuple[int, ...]  # [T] index of the token inside its repetition
    probs: tuple[float, ...]  # [T] p(token | everything before), raw model
    penalized: tuple[float, ...]  # [T] the same after transformers' RepetitionPenaltyLogitsProcessor
    penalty: float

    def means(self, penalized: bool = False) -> list[float]:
        """Mean probability of the tokens of each repetition, 1..n."""
        values = np.asarray(self.penalized if penalized else self.probs)
        reps = np.asarray(self.repetition)
        return [float(values[reps == r].mean()) for r in range(1, int(reps.max()) + 1)]


# ---------------------------------------------------------------- generate() with observers


class Observer(LogitsProcessor):
    """Records what generate() hands a logits processor, and changes nothing.

    Each call is one step: `on_step(step)` reports progress; for the first `record` steps it keeps the rows'
    generated tokens and each row's `top` best (token, score) pairs. In beam search the scores are the
    running beams' log-probabilities (generate() applies log_softmax before the processors).

    rows=True (greedy and sampled runs, whose rows never change places): it also keeps each row's log-probability
    of the token each step chose, from the raw scores it was handed (the model's logits as generate() made them:
    put it first, before any warper); `logprobs(sequences)` returns them, [R, steps]. So the continuation's
    log-probs are the generation's own, and no pass over prompt and continuation is run again to score them
    (score(): five such passes were most of a decoding press's own work, outside the batched steps).
    """

    def __init__(self, prompt_len: int, record: int = 0, top: int = 10, on_step: Progress | None = None,
                 rows: bool = False):
        self.prompt_len, self.record, self.top, self.on_step = prompt_len, record, top, on_step
        self.steps: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # ([R, s] tokens, [R, top] ids, values)
        self.count = 0
        self.rows = rows
        self._chosen: list[torch.Tensor] = []  # per step: [R] log p(the token that step chose)
        self._last: torch.Tensor | None = None  # the last step's [R, V] log-probabilities

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        if self.count < self.record:
            values, ids = torch.topk(scores.float(), k=min(self.top, scores.shape[-1]), dim=-1)  # [R, top]
            self.steps.append((input_ids[:, self.prompt_len:].cpu().numpy(), ids.cpu().numpy(),
                               values.cpu().numpy()))
        if self.rows:
            if self._last is not None:  # the token the last step chose is now the last column
                self._chosen.append(self._last.gather(1, input_ids[:, -1:].to(self._last.device))[:, 0].cpu())
            self._last = torch.log_softmax(scores.float(), dim=-1)  # as score() computes it
        self.count += 1
        if self.on_step is not None:
            self.on_step(self.count)
        return scores

    def logprobs(self, sequences: torch.LongTensor) -> np.ndarray:
        """[R, steps]: row r's log-probability of the token it got at each step (rows=True). `sequences` is
        generate()'s output ([R, prompt + steps]): its last column is the last step's token."""
        steps = sequences.shape[1] - self.prompt_len
        if not self.rows or self._last is None or steps <= 0:
            return np.zeros((sequences.shape[0], 0))
        if len(self._chosen) >= steps:  # a step ran whose token generate() then dropped: the columns count
            return torch.stack(self._chosen[:steps], dim=1).double().numpy()
        last = self._last.gather(1, sequences[:, -1:].to(self._last.device))[:, 0].cpu()
        return torch.stack([*self._chosen, last], dim=1).double().numpy()


def beam_candidates(width: int, eos_ids: Sequence[int]) -> int:
    """How many candidates transformers' beam search keeps at each step, over all beams (its `_beam_search`)."""
    return max(2, 1 + len(eos_ids)) * width


def beam_logprobs(steps: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]], winner: Sequence[int]
                  ) -> tuple[float, ...] | None:
    """The winner's log-probability of each of its tokens, read from what an Observer recorded at every step of a
    beam search (each running beam's generated tokens and its best `beam_candidates` tokens' log-probs). At step k
    the winner's token is one of the best of the beam that held its first k tokens: generate() keeps the best
    max(2, 1 + number of <eos> ids) x width candidates over all beams, and every candidate of one beam carries that
    beam's same running score, so a token outside that beam's own best as many is never kept.
    None if a step is missing (fewer steps recorded than the winner has tokens)."""
    out = []
    for k, token in enumerate(winner):
        if k >= len(steps):
            return None
        tokens, ids, values = steps[k]
        prefix = list(winner[:k])
        found = None
        for r in range(tokens.shape[0]):
            if tokens[r].tolist() == prefix:
                hit = np.flatnonzero(ids[r] == token)
                if hit.size:
                    found = float(values[r, hit[0]])
                    break
        if found is None:
            return None
        out.append(found)
    return tuple(out)


class RowWarpers(LogitsProcessor):
    """Different library warpers for different rows of one batch: rows [a, b) get warper w.

    It lets pure sampling, top-k and top-p run as one batched generate() (one pass per step for all rows).
    """

    def __init__(self, groups: Sequence[tuple[int, int, LogitsProcessor | None]]):
        self.groups = groups

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        out = scores.clone()
        for a, b, warper in self.groups:
            if warper is not None:
                out[a:b] = warper(input_ids[a:b], scores[a:b])
        return out


def prompt_cache(bundle: ModelBundle, ids: Sequence[int], copies: int) -> DynamicCache | None:
    """The KV cache of the prompt without its last token, computed once and repeated for `copies` rows.

    generate() starts every row of a batch, and every beam, from the same prompt. Left alone it runs the prompt
    through the model once per row: beam 16 on a 17-token prompt is a 272-row prefill (1.2 CPU s here on one
    thread; 7 CPU s for the page's longest prompt, 128 tokens, against 1 shared), where one row gives the same
    keys and values. generate() takes a cache it is handed ("prefix caching", transformers' documented way to
    reuse a prompt's cache) and only runs the tokens the cache does not hold: here the prompt's last token, so
    the first step still returns the logits of every row. Only the rounding differs from the plain prefill
    (its products have 16 rows instead of 16 x 17 and may sum in another order); tests compare the two paths.
    Returns None where there is nothing to share (one row, or a prompt of one token).
    """
    if copies < 2 or len(ids) < 2:
        return None
    prefix = torch.tensor([list(ids[:-1])], device=bundle.device)  # [1, S - 1]
    cache = bundle.engine.prefill(prefix).past_key_values  # batched with other visitors' prefills
    cache.batch_repeat_interleave(copies)  # [copies, heads, S - 1, dim] per layer, rows equal
    return cache


def _generate(bundle: ModelBundle, ids: list[int], rows: int, new: int, processors: list, share_prompt: bool = True,
              generator: torch.Generator | None = None, **kwargs):
    """One generate() through the engine, whose steps join other visitors' (Engine.generate); returns (output,
    seconds). A visitor who leaves or moves on: the generation ends at its next step and raises.

    share_prompt: the prompt's cache is computed once for all rows and beams (prompt_cache); False runs
    generate()'s own prefill of every row (the plain reference the tests and the bench compare with).
    generator: a sampled generate()'s own draws (Engine.generate).
    """
    input_ids = torch.tensor([ids] * rows, device=bundle.device)  # [rows, S]: the same prompt, no padding
    tok = bundle.tokenizer
    pad = tok.pad_token_id if tok.pad_token_id is not None else 0
    started = time.perf_counter()
    with torch.inference_mode():
        cache = prompt_cache(bundle, ids, rows * int(kwargs.get("num_beams", 1))) if share_prompt else None
    if cache is not None:
        kwargs["past_key_values"] = cache
    out = bundle.engine.generate(input_ids=input_ids, attention_mask=torch.ones_like(input_ids),
                                 max_new_tokens=new, pad_token_id=pad,
                                 eos_token_id=list(bundle.info.eos_token_ids) or None,
                                 logits_processor=LogitsProcessorList(processors), generator=generator,
                                 return_dict_in_generate=True, **kwargs)
    return out, time.perf_counter() - started


def _cut(bundle: ModelBundle, row: Sequence[int]) -> list[int]:
    """A generated row up to and including its first <eos> (generate() pads finished rows after it)."""
    eos = set(bundle.info.eos_token_ids)
    out = []
    for token in row:
        out.append(int(token))
        if token in eos:
            break
    return out


def score(bundle: ModelBundle, prompt_ids: Sequence[int], cont: Sequence[int]) -> tuple[float, ...]:
    """log p(each continuation token | prompt and the tokens before it) under the raw model, one forward pass.

    Only the continuation's positions leave the model (logits_to_keep), in chunks through log_softmax.
    """
    if not cont:
        return ()
    ids = torch.tensor([list(prompt_ids) + list(cont)], device=bundle.device)  # [1, P + C]
    out = bundle.forward(input_ids=ids, use_cache=False, logits_to_keep=len(cont) + 1)
    logits = out.logits[0, :-1]  # [C, V]: position i predicts continuation token i
    target = torch.tensor(list(cont), device=logits.device)
    parts = []
    for a in range(0, len(cont), 32):  # float32 log_softmax 32 rows at a time (262,144 columns each)
        lp = torch.log_softmax(logits[a:a + 32].float(), dim=-1)
        parts.append(lp.gather(1, target[a:a + 32, None])[:, 0])
    return tuple(float(x) for x in torch.cat(parts).cpu())


def _continuation(bundle: ModelBundle, strategy: str, label: str, prompt_ids: list[int], row, seconds: float,
                  batch: int, logprobs: Sequence[float] | None = None) -> Continuation:
    """One generated row as a Continuation. logprobs: the generation's own log-probabilities of the row's tokens
    (Observer); None (or too few) scores them with one pass (score())."""
    ids = _cut(bundle, row)
    eos = set(bundle.info.eos_token_ids)
    tok = bundle.tokenizer
    texts = tuple(visible(safe_text(tok.decode([i], skip_special_tokens=False))) for i in ids)
    text = safe_text(tok.decode([i for i in ids if i not in eos], skip_special_tokens=False))
    own = tuple(float(x) for x in logprobs[:len(ids)]) if logprobs is not None and len(logprobs) >= len(ids) else None
    return Continuation(strategy=strategy, label=label, token_ids=tuple(ids), tokens=texts, text=text,
                        logprobs=own if own is not None else score(bundle, prompt_ids, ids), seconds=seconds,
                        batch=batch)


def _check(new: int, width: int | None = None, samples: int = 1) -> None:
    if not MIN_NEW <= int(new) <= MAX_NEW:
        raise ValueError(f"max_new_tokens has to be between {MIN_NEW} and {MAX_NEW}, but is {new}")
    if width is not None and not 2 <= int(width) <= max(BEAM_WIDTHS):
        raise ValueError(f"the beam width has to be between 2 and {max(BEAM_WIDTHS)}, but is {width}")
    if not 1 <= int(samples) <= MAX_SAMPLES:
        raise ValueError(f"samples has to be between 1 and {MAX_SAMPLES}, but is {samples}")


def run_greedy(bundle: ModelBundle, prompt: str, new: int, max_prompt_tokens: int = 512,
               on_step: Progress | None = None) -> Continuation:
    """Greedy: generate(do_sample=False, num_beams=1), the most likely token at every step."""
    _check(new)
    ids, _ = encode(bundle, prompt, max_prompt_tokens)
    observer = Observer(len(ids), on_step=on_step, rows=True)
    out, secs = _generate(bundle, ids, 1, new, [observer], do_sample=False, num_beams=1)
    return _continuation(bundle, "greedy", "greedy", ids, out.sequences[0, len(ids):].tolist(), secs, 1,
                         observer.logprobs(out.sequences)[0])


def run_beam(bundle: ModelBundle, prompt: str, width: int, new: int, max_prompt_tokens: int = 512,
             on_step: Progress | None = None, tree_steps: int = TREE_STEPS, share_prompt: bool = True) -> BeamRun:
    """Beam search: generate(num_beams=width), with an Observer recording the first steps' beams.

    Returns the continuation generate() chose and the tree of its first `tree_steps` steps. share_prompt: the
    prompt runs once for all beams (prompt_cache); False: generate()'s own prefill of `width` copies.
    """
    _check(new, width)
    ids, _ = encode(bundle, prompt, max_prompt_tokens)
    # 2 x width per beam is enough: generate() keeps the best 2 x width candidates over all beams.
    # Every step is recorded (a few hundred numbers each): the winner's log-probs are read from them (beam_logprobs),
    # and the tree uses the first tree_steps + 1.
    observer = Observer(len(ids), record=new + 1, top=max(beam_candidates(width, bundle.info.eos_token_ids), 10),
                        on_step=on_step)
    # output_scores stays off: it would keep a [width, vocabulary] float32 copy per step (16 x 262,144 x 4 bytes
    # = 16.8 MB a step, 1.3 GB for width 16 over 80 tokens). generate()'s sequences_scores come only with it,
    # so the score is computed from the winner's log-probs (tests compare it with generate()'s own).
    out, secs = _generate(bundle, ids, 1, new, [observer], share_prompt=share_prompt, do_sample=False, num_beams=width,
                          num_return_sequences=1, output_scores=False, early_stopping=False,
                          length_penalty=LENGTH_PENALTY)
    row = out.sequences[0, len(ids):].tolist()
    cont = _continuation(bundle, "beam", f"beam {width}", ids, row, secs, width,
                         beam_logprobs(observer.steps, _cut(bundle, row)))
    nodes = beam_tree(observer.steps[:tree_steps + 1], _cut(bundle, row), width, bundle.info.eos_token_ids,
                      lambda i: visible(safe_text(bundle.tokenizer.decode([i], skip_special_tokens=False))))
    return BeamRun(width=width, continuation=cont, nodes=nodes, sequence_score=sequence_score(cont.logprobs))


def sequence_score(logprobs: Sequence[float], length_penalty: float = LENGTH_PENALTY) -> float:
    """What beam search ranks finished sequences by: sum of log-probs / length ** length_penalty (transformers
    divides by the generated length, <eos> included). NaN for no tokens."""
    return float(sum(logprobs) / len(logprobs) ** length_penalty) if logprobs else float("nan")


def run_dtype(dtype: str, device: str) -> str:
    """The dtype the page's live runs use for a bundle in `dtype` on `device` ("cpu", "cuda", ...).

    bfloat16 on a CPU without oneDNN's bfloat16 path (fastpath.supports) multiplies through torch's plain
    kernels: fine for one row, slow for a batch of rows, and beam search runs `width` rows each step (measured
    on an AVX2-only EPYC, one thread: beam 16 about 3 CPU s per step in bfloat16, about 0.5 in float32). There
    float32 runs instead; everywhere else the visitor's dtype.
    """
    if dtype == "bfloat16" and device == "cpu" and not fastpath.supports(torch.bfloat16):
        return "float32"
    return dtype


def run_sampled(bundle: ModelBundle, prompt: str, new: int, seed: int, samples: int = 1,
                max_prompt_tokens: int = 512, on_step: Progress | None = None, share_prompt: bool = True
                ) -> dict[str, list[Continuation]]:
    """Pure sampling (T = 1), top-k 40 and top-p 0.95 as one batched generate(do_sample=True).

    Rows [0, s) sample from the whole distribution, [s, 2s) through TopKLogitsWarper(40), [2s, 3s) through
    top-p 0.95: one group of rows each. Top-p is the library's TopPLogitsWarper without its sort of 262,144 scores
    (core.sampling.SortFreeTopPLogitsWarper, for one row; the same tensor, or where equal scores sit across the
    cut, the library's code with a stable sort); its sort was 16% of 10 visitors' decoding presses, in-process. The seed fixes every draw of the
    batch (the run's own torch.Generator: the draws generate() makes from the global one seeded the same way).
    Returns {strategy: [samples continuations]}.
    """
    _check(new, samples=samples)
    ids, _ = encode(bundle, prompt, max_prompt_tokens)
    s = int(samples)
    top_p = SortFreeTopPLogitsWarper(TOP_P)
    rows = RowWarpers([(0, s, None), (s, 2 * s, TopKLogitsWarper(TOP_K)), (2 * s, 3 * s, top_p)])
    generator = torch.Generator(device=bundle.device).manual_seed(int(seed))
    observer = Observer(len(ids), on_step=on_step, rows=True)  # first: it reads the raw scores, before the warpers
    out, secs = _generate(bundle, ids, 3 * s, new, [observer, rows],
                          share_prompt=share_prompt, generator=generator, do_sample=True, temperature=1.0, top_k=0,
                          top_p=1.0, num_beams=1)
    labels = {"sampling": "T = 1", "top_k": f"top-k {TOP_K}", "top_p": f"top-p {TOP_P}"}
    result = {}
    own = observer.logprobs(out.sequences)
    for g, name in enumerate(SAMPLED):
        result[name] = [_continuation(bundle, name, labels[name], ids, out.sequences[g * s + i, len(ids):].tolist(),
                                      secs, 3 * s, own[g * s + i]) for i in range(s)]
    return result


# ---------------------------------------------------------------- the beam tree


def beam_tree(steps: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]], winner: Sequence[int], width: int,
              eos_ids: Sequence[int], text: Callable[[int], str], pruned_per_step: int | None = None
              ) -> tuple[TreeNode, ...]:
    """The first steps of a beam search, from what an Observer recorded (no search is redone here).

    Args:
        steps: per step s = 0, 1, ...: ([R, s] the running beams' generated tokens, [R, M] each beam's best
            token ids, [R, M] their log-probs). At step 0 every row is the same prompt (generate() starts all
            beams from it and only the first counts), so only distinct rows are used.
        winner: the generated tokens of the sequence generate() returned.
        width: number of beams; pruned_per_step: how many cut candidates to keep per step (default width).
    Returns:
        Nodes for steps 1..len(steps) - 1 (the last recorded step only tells which candidates survived).
        A candidate is "kept" when its sequence is one of the next step's running beams. Cumulative
        log-probabilities add up along the kept beams, as generate() adds them.
    """
    eos = set(int(e) for e in eos_ids)
    pruned_per_step = width if pruned_per_step is None else pruned_per_step
    nodes: list[TreeNode] = []
    beams: dict[tuple[int, ...], tuple[int | None, float]] = {(): (None, 0.0)}  # prefix -> (node id, cum)
    for s in range(len(steps) - 1):
        seqs, top_ids, top_vals = steps[s]
        survivors = {tuple(int(x) for x in row) for row in steps[s + 1][0]}
        cands, seen = [], set()
        for r in range(seqs.shape[0]):
            prefix = tuple(int(x) for x in seqs[r])
            if prefix in seen or prefix not in beams:
                continue
            seen.add(prefix)
            parent, cum = beams[prefix]
            for token, value in zip(top_ids[r].tolist(), top_vals[r].tolist()):
                cands.append((cum + value, value, prefix, parent, int(token)))
        cands.sort(key=lambda c: -c[0])
        nxt: dict[tuple[int, ...], tuple[int | None, float]] = {}
        cut = 0
        for rank, (total, value, prefix, parent, token) in enumerate(cands, start=1):
            seq = prefix + (token,)
            status = "kept" if seq in survivors else ("ended" if token in eos else "pruned")
            if status != "kept":
                if cut >= pruned_per_step:
                    continue
                cut += 1
            node = TreeNode(id=len(nodes), step=s + 1, parent=parent, token_id=token, token=text(token),
                            logprob=float(value), cum=float(total), rank=rank, status=status,
                            winner=tuple(winner[:s + 1]) == seq)
            nodes.append(node)
            if status == "kept":
                nxt[seq] = (node.id, float(total))
        beams = nxt
    return tuple(nodes)


def step_candidates(nodes: Sequence[TreeNode], step: int) -> list[TreeNode]:
    """The nodes of one step, best first (what a click on a node of that step shows)."""
    return sorted((n for n in nodes if n.step == step), key=lambda n: n.rank)


# ---------------------------------------------------------------- the feedback loop (Figure 4)


def feedback_curve(bundle: ModelBundle, sentence: str, times: int, penalty: float,
                   max_tokens: int = 400) -> FeedbackCurve:
    """Repeat `sentence` `times` times and read, in one forward pass, the probability of every token.

    The text is <bos> + sentence + (" " + sentence) x (times - 1), built from token ids so each repetition
    has the same tokens. The penalized curve passes each position's logits and the tokens before it through
    transformers' RepetitionPenaltyLogitsProcessor first, as generate(repetition_penalty=...) would.
    """
    tok = bundle.tokenizer
    first = tok.encode(sentence, add_special_tokens=False)
    again = tok.encode(" " + sentence, add_special_tokens=False)
    if not first or not again:
        raise ValueError("the sentence has no tokens")
    times = max(2, int(times))
    while times > 2 and len(first) + len(again) * (times - 1) + 1 > max_tokens:
        times -= 1
    bos = [] if bundle.info.bos_token_id is None else [bundle.info.bos_token_id]
    ids = bos + first + again * (times - 1)
    reps = [1] * len(first) + [r for r in range(2, times + 1) for _ in again]
    pos = list(range(len(first))) + [p for _ in range(2, times + 1) for p in range(len(again))]
    start = len(bos)
    input_ids = torch.tensor([ids], device=bundle.device)  # [1, S]
    out = bundle.forward(input_ids=input_ids, use_cache=False)
    logits = out.logits[0]  # [S, V]
    processor = RepetitionPenaltyLogitsProcessor(penalty=float(penalty))
    probs, penal = [], []
    with torch.inference_mode():
        for i in range(max(start, 1), len(ids)):  # position i - 1 predicts token i
            row = logits[i - 1:i].float()  # [1, V]
            probs.append(float(torch.softmax(row, -1)[0, ids[i]]))
            penal.append(float(torch.softmax(processor(input_ids[:, :i], row), -1)[0, ids[i]]))
    skip = len(ids) - start - len(probs)  # with no <bos>, the very first token has no prediction
    texts = tuple(visible(safe_text(tok.decode([i], skip_special_tokens=False))) for i in again)
    return FeedbackCurve(tokens=texts, repetition=tuple(reps[skip:]), position=tuple(pos[skip:]),
                         probs=tuple(probs), penalized=tuple(penal), penalty=float(penalty))


# ---------------------------------------------------------------- the comparison (bench and page)


@dataclass(frozen=True)
class PromptResult:
    """Every strategy on one prompt: per strategy its continuations (several samples for sampled ones)."""

    prompt: str
    runs: dict  # strategy -> tuple[Continuation, ...]

    def row(self, strategy: str) -> dict:
        """The measures of one strategy on this prompt (means over its samples)."""
        conts = self.runs[strategy]
        return {"strategy": strategy, "label": conts[0].label,
                "repeated": float(np.mean([c.repeated for c in conts])),
                "distinct1": float(np.mean([c.distinct1 for c in conts])),
                "distinct2": float(np.mean([c.distinct2 for c in conts])),
                "mean_logprob": float(np.mean([c.mean_logprob for c in conts])),
                "self_similarity": self_similarity([c.token_ids for c in conts]) if len(conts) > 1 else 1.0,
                "tokens": float(np.mean([len(c.token_ids) for c in conts])),
                "seconds": float(np.mean([c.seconds for c in conts]))}


def compare_prompt(bundle: ModelBundle, prompt: str, new: int = 60, width: int = 4, seed: int = 0,
                   samples: int = 3, on_step: Progress | None = None) -> PromptResult:
    """Greedy, beam search and the sampled strategies on one prompt (what the bench runs on each prompt).

    Greedy and beam search are deterministic: one run each stands for every seed (self-similarity 1).
    """
    greedy = run_greedy(bundle, prompt, new, on_step=on_step)
    beam = run_beam(bundle, prompt, width, new, on_step=on_step, tree_steps=0)
    sampled = run_sampled(bundle, prompt, new, seed, samples, on_step=on_step)
    runs = {"greedy": (greedy,), "beam": (beam.continuation,)}
    runs.update({k: tuple(v) for k, v in sampled.items()})
    # The shipped table's log-probs come from one pass over prompt and continuation (score()), as the table was
    # made: a live run of a prompt of the table is compared with it, so it is scored the same way.
    ids, _ = encode(bundle, prompt, 512)
    runs = {k: tuple(replace(c, logprobs=score(bundle, ids, c.token_ids)) for c in v) for k, v in runs.items()}
    return PromptResult(prompt=prompt, runs=runs)


def summarize(results: Sequence[PromptResult]) -> list[dict]:
    """Per strategy, the mean of every measure over the prompts (the shipped table's rows)."""
    rows = []
    for strategy in STRATEGIES:
        per = [r.row(strategy) for r in results]
        row = {"strategy": strategy, "label": per[0]["label"], "prompts": len(per)}
        for key in ("repeated", "distinct1", "distinct2", "mean_logprob", "self_similarity", "tokens", "seconds"):
            row[key] = float(np.mean([p[key] for p in per]))
        row["ends_in_loop"] = float(np.mean([ends_in_loop(c.token_ids) for r in results for c in r.runs[strategy]]))
        rows.append(row)
    return rows


def ends_in_loop(ids: Sequence[int], min_repeats: int = 3) -> bool:
    """True when the text ends in a cycle of tokens repeated at least min_repeats times in a row."""
    return find_loop(ids, min_repeats=min_repeats).period > 0


def counted(ids: Sequence[int], n: int = NGRAM) -> Counter:
    """How often each n-gram occurs (for tests and for the page's tooltip)."""
    return Counter(ngrams(ids, n))
