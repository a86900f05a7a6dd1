"""Why the same prompt gives different answers: where runs split, float order, and the model computed two ways."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from model_backend.core.sampling import choose, run_chain
from model_backend.core.tokens import safe_text, token_infos, visible
from model_backend.core.tracing import candidates, encode
from model_backend.runtime.loading import ModelBundle
from model_backend.types import Candidate, SamplingParams, TokenInfo

# Other requests a busy server might put in the same batch as the visitor's prompt. They are longer
# than a short prompt, so the visitor's prompt gets left-padded, as a server pads a batch.
BATCH_FILLERS = (
    "Era uma vez, num reino muito distante, uma princesa que gostava de",
    "The quick brown fox jumps over the lazy dog, and then the dog",
    "Para fazer um bolo de chocolate simples, você vai precisar de farinha,",
)

# Three sums that float32 rounds differently depending on where the parentheses go: a big number
# cancelling, everyday decimals, and small numbers added to a big one one at a time (each is lost).
ASSOCIATIVITY_EXAMPLES = ((1e8, -1e8, 1.0), (0.1, 0.3, 0.4), (1.0, 3e-8, 3e-8))

SUM_ORDERS = ("stored", "ascending", "descending", "shuffled", "pairwise", "torch")


# ---------------------------------------------------------------- where runs split


def first_divergence(runs: Sequence[Sequence[int]]) -> int | None:
    """Index of the first token position where the runs do not all agree.

    A run that ended (EOS) while another goes on counts as different there.
    Returns None when every run is the same sequence (fewer than two runs: None).
    """
    if len(runs) < 2:
        return None
    longest = max(len(r) for r in runs)
    for index in range(longest):
        if len({r[index] if index < len(r) else None for r in runs}) > 1:
            return index
    return None


@dataclass(frozen=True)
class Branch:
    """A stretch of tokens that some runs share, in the tree of runs.

    The root holds the start every run shares (possibly no tokens); each child starts at the first
    token where its runs left their parent's other runs.
    """

    id: int
    parent: int | None
    start: int  # index (in generated tokens) of the branch's first token
    token_ids: tuple[int, ...]
    tokens: tuple[str, ...]  # the decoded text of each token
    runs: tuple[int, ...]  # 0-based indices of the runs that pass through this branch
    depth: int  # 0 = root
    lane: float  # vertical position for drawing: leaves 0, 1, 2...; a parent sits at its children's mean

    @property
    def end(self) -> int:
        return self.start + len(self.token_ids)

    @property
    def text(self) -> str:
        return "".join(self.tokens)


def branch_tree(token_ids: Sequence[Sequence[int]], token_texts: Sequence[Sequence[str]]) -> tuple[Branch, ...]:
    """Build the tree of runs (a trie whose edges are shared stretches of tokens).

    Args:
        token_ids: [R][T_r] the generated token ids of each run (lengths may differ).
        token_texts: [R][T_r] the text of each of those tokens.
    Returns:
        Branches in depth-first order, root first. A run that stops where others go on gets an
        empty leaf branch there, so every run ends in exactly one leaf.
    """
    nodes: list[dict] = []
    next_lane = [0]

    def build(group: list[int], start: int, parent: int | None, depth: int) -> int:
        end = start
        while all(len(token_ids[r]) > end for r in group) and len({token_ids[r][end] for r in group}) == 1:
            end += 1
        first = group[0]
        node = {"id": len(nodes), "parent": parent, "start": start, "runs": tuple(group), "depth": depth,
                "ids": tuple(token_ids[first][start:end]), "texts": tuple(token_texts[first][start:end])}
        nodes.append(node)
        children: dict[int | None, list[int]] = {}
        for r in group:  # group by the token each run takes next; None = the run stopped here
            children.setdefault(token_ids[r][end] if len(token_ids[r]) > end else None, []).append(r)
        if len(children) == 1 and None in children:  # every run in the group stopped: a leaf
            node["lane"] = float(next_lane[0])
            next_lane[0] += 1
            return node["id"]
        lanes = []
        for sub in children.values():  # in order of the lowest run index (dicts keep insertion order)
            child = build(sub, end, node["id"], depth + 1)
            lanes.append(nodes[child]["lane"])
        node["lane"] = float(np.mean(lanes))
        return node["id"]

    if token_ids:
        build(list(range(len(token_ids))), 0, None, 0)
    return tuple(Branch(id=n["id"], parent=n["parent"], start=n["start"], token_ids=n["ids"], tokens=n["texts"],
                        runs=n["runs"], depth=n["depth"], lane=n["lane"]) for n in nodes)


# ---------------------------------------------------------------- sampled runs, as one batch


@dataclass(frozen=True)
class SampledRun:
    """One sampled continuation of the prompt, drawn with its own seed."""

    seed: int | None  # None when greedy (every run is the same)
    token_ids: tuple[int, ...]  # [T] generated tokens (an end-of-sequence token, if drawn, is the last)
    tokens: tuple[TokenInfo, ...]  # [T] the same tokens described
    completion: str  # the generated text (without an end-of-sequence token)
    finish_reason: str  # "stop" (EOS) or "length" (max_new_tokens)


@dataclass(frozen=True)
class SampledRuns:
    """The same prompt run once per seed, with the same settings."""

    prompt_tokens: int
    truncated_from: int | None
    params: SamplingParams
    runs: tuple[SampledRun, ...]  # one per seed, in the order of the seeds


def sample_runs(bundle: ModelBundle, prompt: str, params: SamplingParams, seeds: Sequence[int],
                max_prompt_tokens: int = 512) -> SampledRuns:
    """Run the prompt once per seed, all runs decoded together as one batch.

    One prefill pass reads the prompt (every run shares it), its KV cache is repeated once per run, and
    each later step decodes every run's newest token in one forward pass ([B, 1]); both go through the engine's
    batching, so the presses of a class share their passes. Each run draws its
    tokens through the loop's own processor chain (run_chain, choose) from its own torch.Generator
    seeded with its seed, so a seed always gives the same run for the same batch of seeds; in bfloat16 on
    oneDNN bit for bit whoever else is on the server (the engine computes a request of several rows alone as it does
    beside others; in float32 the prompt's one-row pass may differ in the last digits when it is batched). (A row of
    a batch is computed with other matrix shapes than a run alone, so its logits can differ in the last
    bits from `generate()`'s: the effect section 3 of the page shows.) Runs that share a seed are
    computed once; greedy settings compute one run. Stop sequences are not supported here.
    Args:
        seeds: [R] one seed per run.
    Returns:
        SampledRuns with R runs, in the order of `seeds`.
    """
    if params.stop:
        raise ValueError("sample_runs does not support stop sequences")
    ids, truncated_from = encode(bundle, prompt, max_prompt_tokens)
    unique = [None] if params.greedy else list(dict.fromkeys(int(s) for s in seeds))
    rows = len(unique)
    generators = [None if s is None else torch.Generator(device=bundle.device).manual_seed(s) for s in unique]
    eos = set(bundle.info.eos_token_ids)
    picked: list[list[int]] = [[] for _ in unique]
    done = [False] * rows
    with bundle.engine.run() as run:  # its steps meet the other runs of its pass (engine.Engine.run)
        out = bundle.prefill(torch.tensor([ids], device=bundle.device), run=run)  # with other visitors' prefills of the moment
        past = out.past_key_values
        logits = out.logits[:, -1, :].to(torch.float32).expand(rows, -1)  # [B, V]: the prompt's, for every run
        if rows > 1:
            past.batch_repeat_interleave(rows)  # the prompt's keys and values, once per run
        for step in range(params.max_new_tokens):
            for row in range(rows):
                if done[row]:
                    continue
                context = torch.tensor([ids + picked[row]], device=bundle.device)  # [1, S + t] the penalty reads it
                token = choose(run_chain(context, logits[row: row + 1], params)[-1], params, generators[row])
                picked[row].append(token)
                done[row] = token in eos
            if all(done) or step == params.max_new_tokens - 1:
                break
            newest = [p[-1] for p in picked]  # a finished run keeps feeding its last token; its rows are unused
            out = bundle.decode(torch.tensor(newest, device=bundle.device)[:, None], past, run=run)  # [B, 1]: every run's
            # newest token in one pass, which other visitors' decode steps of the moment join
            past = out.past_key_values
            logits = out.logits[:, -1, :].to(torch.float32)  # [B, V]
    made = {}
    for seed, tokens in zip(unique, picked):
        text = safe_text(bundle.tokenizer.decode([t for t in tokens if t not in eos], skip_special_tokens=False))
        made[seed] = SampledRun(seed=seed, token_ids=tuple(tokens), tokens=token_infos(bundle.tokenizer, tokens),
                                completion=text, finish_reason="stop" if tokens and tokens[-1] in eos else "length")
    runs = tuple(made[None] if params.greedy else made[int(s)] for s in seeds)
    return SampledRuns(prompt_tokens=len(ids), truncated_from=truncated_from, params=params, runs=runs)


# ---------------------------------------------------------------- floating-point order


@dataclass(frozen=True)
class Associativity:
    """One float32 sum grouped two ways: (a + b) + c against a + (b + c)."""

    a: float  # the inputs after rounding to float32
    b: float
    c: float
    left: float  # (a + b) + c, every step rounded to float32
    right: float  # a + (b + c), every step rounded to float32
    exact: float  # a + b + c without rounding (math.fsum of the float32 inputs)

    @property
    def associative(self) -> bool:
        return self.left == self.right


def associativity(a: float, b: float, c: float) -> Associativity:
    """Add three numbers in float32 with both groupings (numpy rounds every step to float32)."""
    x, y, z = np.float32(a), np.float32(b), np.float32(c)
    left = (x + y) + z
    right = x + (y + z)
    return Associativity(a=float(x), b=float(y), c=float(z), left=float(left), right=float(right),
                         exact=math.fsum([float(x), float(y), float(z)]))


def commutativity(n: int = 10_000, seed: int = 0) -> tuple[int, int, int]:
    """Count, over n pairs of the same mixed float32 numbers, how often a + b == b + a and how often the
    triples' two groupings agree: (pairs tried, pairs that commute, triples whose groupings agree).

    IEEE 754 rounds the exact sum, and a + b and b + a have the same exact sum: float addition is commutative.
    What breaks is associativity, which is what the page shows (the course text says "não são comutativas")."""
    a, b, c = (random_vector(n, seed + k) for k in range(3))
    commute = int(np.count_nonzero((a + b) == (b + a)))
    grouped = int(np.count_nonzero(((a + b) + c) == (a + (b + c))))
    return n, commute, grouped


@dataclass(frozen=True)
class OrderedSum:
    """The float32 total of one vector added up in one order."""

    order: str  # one of SUM_ORDERS
    total: float  # the float32 result
    error: float  # total minus the exact sum of the same float32 numbers


def random_vector(n: int, seed: int = 0) -> np.ndarray:
    """[n] float32 numbers of mixed signs and sizes (10^-3 to 10^4), like activations with outliers."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(n) * 10.0 ** rng.uniform(-3, 4, n)).astype(np.float32)


def sums_in_orders(values: np.ndarray, seed: int = 0) -> tuple[tuple[OrderedSum, ...], float]:
    """Add the same float32 numbers in several orders.

    Orders: "stored" (left to right), "ascending", "descending", "shuffled" (one left-to-right pass each,
    via cumsum, which adds in sequence), "pairwise" (numpy's tree-shaped np.sum) and "torch" (torch.sum,
    which splits the work across vector lanes and threads).
    Args:
        values: [n] float32.
    Returns:
        (one OrderedSum per order, the exact total as a float64 from math.fsum)
    """
    x = np.asarray(values, dtype=np.float32)
    exact = math.fsum(x.astype(np.float64).tolist())
    rng = np.random.default_rng(seed)

    def sequential(v: np.ndarray) -> float:
        return float(np.cumsum(v, dtype=np.float32)[-1]) if v.size else 0.0

    totals = {
        "stored": sequential(x),
        "ascending": sequential(np.sort(x)),
        "descending": sequential(np.sort(x)[::-1]),
        "shuffled": sequential(x[rng.permutation(x.size)]),
        "pairwise": float(np.sum(x, dtype=np.float32)),
        "torch": float(torch.from_numpy(x.copy()).sum()),
    }
    return tuple(OrderedSum(order=k, total=v, error=v - exact) for k, v in totals.items()), exact


# ---------------------------------------------------------------- the model, two ways


@dataclass(frozen=True)
class Continuation:
    """A greedy continuation of one prompt, T generated tokens (cut after an end-of-sequence token)."""

    token_ids: tuple[int, ...]
    tokens: tuple[str, ...]  # each token's text with whitespace made visible
    text: str  # the whole continuation, decoded
    gaps: tuple[float, ...]  # [T] logit of the chosen token minus the runner-up's, at each step


@dataclass(frozen=True)
class GreedyRun:
    """One way of computing a prompt: its next-token logits and its greedy continuation."""

    way: str  # e.g. "float32", "bfloat16", "batch of 4", "cuda"
    prompt_tokens: int
    truncated_from: int | None
    last_logits: np.ndarray  # [V] float32, at the prompt's last position
    top: Candidate  # the most likely next token
    continuation: Continuation


@dataclass(frozen=True)
class TwoWays:
    """The same prompt computed two ways (two dtypes, two batch shapes, two devices)."""

    a: GreedyRun
    b: GreedyRun
    max_abs_diff: float  # largest |logit_a - logit_b| over the vocabulary, at the prompt's last position
    diverge_at: int | None  # first generated token (0-based) where the greedy continuations differ

    @property
    def same_top(self) -> bool:
        return self.a.top.id == self.b.top.id


def _left_pad(rows: Sequence[Sequence[int]], pad_id: int, device) -> tuple[torch.Tensor, torch.Tensor]:
    """[B, S] ids and attention mask, every row padded on the left to the longest."""
    width = max(len(r) for r in rows)
    ids = [[pad_id] * (width - len(r)) + list(r) for r in rows]
    mask = [[0] * (width - len(r)) + [1] * len(r) for r in rows]
    return torch.tensor(ids, device=device), torch.tensor(mask, device=device)


def greedy_batch(bundle: ModelBundle, rows: Sequence[Sequence[int]], n_tokens: int) -> tuple[torch.Tensor, list]:
    """Greedy-decode several prompts together, left-padded into one batch, with the KV cache.

    With padding, the attention mask hides the pad tokens and positions count from each row's first real
    token (position_ids = cumsum(mask) - 1), as generate() does, so padding changes only the shapes the
    arithmetic runs on, not what the model should compute. (Gemma's rotary positions are relative, so the
    mask is what matters; the positions keep it right for models with absolute ones.) Rows of equal length
    need no mask: then this is exactly stepping.py's loop.
    Args:
        rows: [B][S_b] prompt token ids (with <bos>).
    Returns:
        (first-step logits [B, V] float32 on the CPU, per row a list of (token id, top1 - top2 logit gap))
    """
    pad_id = bundle.tokenizer.pad_token_id if bundle.tokenizer.pad_token_id is not None else 0
    ids, mask = _left_pad(rows, pad_id, bundle.device)  # [B, S], [B, S]
    padded = bool((mask == 0).any())
    positions = (mask.cumsum(-1) - 1).clamp(min=0)  # [B, S]
    step_input, past, first, picked = ids, None, None, [[] for _ in rows]
    for _ in range(n_tokens):
        extra = {"attention_mask": mask, "position_ids": positions} if padded else {}
        out = bundle.forward(input_ids=step_input, past_key_values=past, use_cache=True, logits_to_keep=1, **extra)
        past = out.past_key_values
        logits = out.logits[:, -1, :].float()  # [B, V]
        if first is None:
            first = logits.cpu()
        next_ids = torch.argmax(logits, dim=-1)  # [B] greedy, as the app's loop: on an exact tie, the lower id
        top2 = torch.topk(logits, k=2, dim=-1).values  # [B, 2] only for the lead over the runner-up
        for row, (token, gap) in enumerate(zip(next_ids.tolist(), (top2[:, 0] - top2[:, 1]).tolist())):
            picked[row].append((token, gap))
        step_input = next_ids[:, None]  # [B, 1]
        mask = torch.cat([mask, torch.ones_like(step_input)], dim=1)  # [B, S + t]
        positions = positions[:, -1:] + 1  # [B, 1]
    return first, picked


def _continuation(bundle: ModelBundle, picked: list[tuple[int, float]]) -> Continuation:
    eos = set(bundle.info.eos_token_ids)
    cut = next((i + 1 for i, (token, _) in enumerate(picked) if token in eos), len(picked))
    ids = [token for token, _ in picked[:cut]]
    texts = [visible(safe_text(bundle.tokenizer.decode([i], skip_special_tokens=False))) for i in ids]
    text = safe_text(bundle.tokenizer.decode([i for i in ids if i not in eos], skip_special_tokens=False))
    return Continuation(token_ids=tuple(ids), tokens=tuple(texts), text=text, gaps=tuple(g for _, g in picked[:cut]))


def _greedy_run(bundle: ModelBundle, way: str, ids: list[int], truncated_from: int | None,
                logits: torch.Tensor, picked: list) -> GreedyRun:
    return GreedyRun(way=way, prompt_tokens=len(ids), truncated_from=truncated_from,
                     last_logits=logits.numpy().astype(np.float32), top=candidates(bundle.tokenizer, logits, 1)[0],
                     continuation=_continuation(bundle, picked))


def run_alone(bundle: ModelBundle, prompt: str, n_tokens: int, way: str, max_prompt_tokens: int = 512) -> GreedyRun:
    """The prompt on its own (a batch of one, no padding), greedy for n_tokens: what the app's loop does."""
    ids, truncated_from = encode(bundle, prompt, max_prompt_tokens)
    first, picked = greedy_batch(bundle, [ids], n_tokens)
    return _greedy_run(bundle, way, ids, truncated_from, first[0], picked[0])


def run_in_batch(bundle: ModelBundle, prompt: str, n_tokens: int, way: str, fillers: Sequence[str] = BATCH_FILLERS,
                 max_prompt_tokens: int = 512) -> GreedyRun:
    """The prompt as row 1 of a left-padded batch with other prompts (the fillers), greedy for n_tokens."""
    ids, truncated_from = encode(bundle, prompt, max_prompt_tokens)
    others = [encode(bundle, f, max_prompt_tokens)[0] for f in fillers]
    first, picked = greedy_batch(bundle, others[:1] + [ids] + others[1:], n_tokens)
    return _greedy_run(bundle, way, ids, truncated_from, first[1], picked[1])


def compare(a: GreedyRun, b: GreedyRun) -> TwoWays:
    """Largest logit difference at the prompt's last position and where the greedy texts part."""
    diff = float(np.max(np.abs(a.last_logits.astype(np.float64) - b.last_logits.astype(np.float64))))
    return TwoWays(a=a, b=b, max_abs_diff=diff,
                   diverge_at=first_divergence([a.continuation.token_ids, b.continuation.token_ids]))


def float32_text(x: float) -> str:
    """The shortest decimal that reads back as the same float32 (0.8000001, 100000000, 1e-08)."""
    value = np.float32(x)
    if value != 0 and not 1e-4 <= abs(value) < 1e9:
        return np.format_float_scientific(value, unique=True, trim="-")
    return np.format_float_positional(value, unique=True, trim="-")
