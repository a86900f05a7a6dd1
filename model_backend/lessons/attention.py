"""Attention maths for the attention page: masks, crops, averages, strongest heads, Q/K/V sizes, "banco", and
what different heads do, measured (each head's attention on <bos>, on the previous token, on earlier copies)."""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from model_backend.core.kv import kv_values_per_token
from model_backend.types import ModelInfo, TokenInfo

HIDDEN = -1  # key "position" of the column that sums the positions a crop hides


# ---------------------------------------------------------------- which cells a query may look at


def allowed(n: int, sliding_window: int | None = None) -> np.ndarray:
    """Where a query may look: key <= query (causal mask), and within the window on sliding layers.

    Returns:
        bool [n, n], rows = query positions, columns = key positions.
    """
    q = np.arange(n)[:, None]
    k = np.arange(n)[None, :]
    ok = k <= q  # the causal mask: no looking at the future
    if sliding_window is not None:
        ok &= (q - k) < sliding_window  # a sliding layer sees only the last `sliding_window` tokens
    return ok


def layer_allowed(info: ModelInfo, layer: int | None, n: int) -> np.ndarray:
    """allowed() for one layer of the model; for an average over layers, the union (what any layer sees)."""
    if layer is None:
        return allowed(n)
    sliding = info.layer_types[layer] == "sliding_attention" if layer < len(info.layer_types) else False
    return allowed(n, info.sliding_window if sliding else None)


def pattern(attn: np.ndarray, layer: int | None, head: int | None) -> np.ndarray:
    """One attention pattern, or the average over heads (head=None) and/or layers (layer=None).

    Args:
        attn: [L, H, T, T] weights.
    Returns:
        [T, T]; every row still sums to 1, because an average of rows that sum to 1 does.
    """
    a = attn if layer is None else attn[layer : layer + 1]  # [L', H, T, T]
    a = a if head is None else a[:, head : head + 1]  # [L', H', T, T]
    return a.mean(axis=(0, 1))


# ---------------------------------------------------------------- long inputs: draw a window


@dataclass(frozen=True)
class Window:
    """Which positions a drawing shows. Keys may include HIDDEN, one column summing the hidden middle."""

    total: int  # T, positions in the trace
    queries: tuple[int, ...]  # positions drawn as rows
    keys: tuple[int, ...]  # positions drawn as columns (HIDDEN = the folded middle)
    hidden: tuple[int, int] | None  # [start, stop) of the key positions folded into HIDDEN

    @property
    def capped(self) -> bool:
        return self.hidden is not None

    @property
    def n_hidden(self) -> int:
        return 0 if self.hidden is None else self.hidden[1] - self.hidden[0]


def window(total: int, limit: int) -> Window:
    """Keep at most `limit` columns: the first position (<bos>, where many heads rest), one column
    that sums the hidden middle, and the last `limit - 2` positions, which are also the rows."""
    if limit < 3:
        raise ValueError(f"`limit` has to be at least 3, but is {limit}")
    if total <= limit:
        every = tuple(range(total))
        return Window(total=total, queries=every, keys=every, hidden=None)
    tail = tuple(range(total - (limit - 2), total))
    return Window(total=total, queries=tail, keys=(0, HIDDEN, *tail), hidden=(1, tail[0]))


@dataclass(frozen=True)
class Cropped:
    """A pattern cut to a Window. Rows still sum to 1: the HIDDEN column holds the hidden weight."""

    weights: np.ndarray  # [R, C] float
    allowed: np.ndarray  # [R, C] bool; False = masked
    window: Window


def crop(pat: np.ndarray, ok: np.ndarray, win: Window) -> Cropped:
    """Cut a [T, T] pattern (and its [T, T] allowed mask) to the window's rows and columns."""
    rows = np.asarray(win.queries)
    cols = []
    masks = []
    for k in win.keys:
        if k == HIDDEN:
            lo, hi = win.hidden
            cols.append(pat[rows, lo:hi].sum(axis=1))  # [R] the hidden weight, so rows still sum to 1
            masks.append(ok[rows, lo:hi].any(axis=1))
        else:
            cols.append(pat[rows, k])
            masks.append(ok[rows, k])
    return Cropped(weights=np.stack(cols, axis=1), allowed=np.stack(masks, axis=1), window=win)


# ---------------------------------------------------------------- where one token looks


@dataclass(frozen=True)
class HeadPick:
    """A head where one query token puts a lot of weight on a single earlier token."""

    layer: int
    head: int
    key: int  # the position it looks at most
    weight: float


def strongest_heads(attn: np.ndarray, query: int, n: int = 5, skip: tuple[int, ...] = (0,)) -> tuple[HeadPick, ...]:
    """The n heads whose attention from `query` is most concentrated on one key.

    Keys in `skip` are left out: most heads park their weight on <bos> (position 0), which says
    little about the text. If only skipped keys are visible, they are used after all.

    Args:
        attn: [L, H, T, T] weights.
    """
    row = attn[:, :, query, : query + 1].copy()  # [L, H, query+1]: the row of this token
    keep = [k for k in range(query + 1) if k not in skip] or list(range(query + 1))
    row = row[:, :, keep]
    best = row.argmax(axis=-1)  # [L, H]: index into keep
    value = row.max(axis=-1)  # [L, H]
    order = np.argsort(-value, axis=None, kind="stable")[:n]
    picks = []
    for flat in order:
        layer, head = divmod(int(flat), attn.shape[1])
        picks.append(HeadPick(layer=layer, head=head, key=keep[int(best[layer, head])],
                              weight=float(value[layer, head])))
    return tuple(picks)


def top_keys(row: np.ndarray, limit: int) -> tuple[tuple[int, ...], float]:
    """For a long row, the `limit` strongest keys (in position order) and the weight of all others.

    Args:
        row: [K] one query's weights over the keys it may see.
    """
    if len(row) <= limit:
        return tuple(range(len(row))), 0.0
    keep = np.sort(np.argsort(-row, kind="stable")[:limit])
    return tuple(int(k) for k in keep), float(row.sum() - row[keep].sum())


# ---------------------------------------------------------------- generated text


def byte_spans(tokens: tuple[TokenInfo, ...]) -> list[tuple[int, int]]:
    """[start, stop) of each token in the UTF-8 bytes of the text; special tokens are empty spans."""
    spans, at = [], 0
    for tok in tokens:
        size = 0 if tok.special else len(tok.bytes)
        spans.append((at, at + size))
        at += size
    return spans


def first_generated(tokens: tuple[TokenInfo, ...], prompt: str) -> int:
    """Index of the first token that starts after the prompt's text (= len(tokens) if none)."""
    end = len(prompt.encode("utf-8"))
    for i, (start, stop) in enumerate(byte_spans(tokens)):
        if stop > start and start >= end:
            return i
    return len(tokens)


# ---------------------------------------------------------------- Q, K, V with the real sizes


@dataclass(frozen=True)
class Mechanics:
    """The sizes of one attention layer for T tokens (batch of 1), read from the model's config."""

    tokens: int  # T
    d_model: int  # D, width of the residual stream
    n_heads: int  # query heads
    n_kv_heads: int  # key/value heads (fewer = grouped-query attention)
    head_dim: int  # d_k: length of one query/key/value vector
    scale_basis: int  # the number whose inverse square root scales QK^T
    scale_from: str  # "query_pre_attn_scalar" (Gemma) or "head_dim"
    softcap: float | None  # tanh cap on the scores, if the model uses one
    qk_norm: bool  # queries and keys go through RMSNorm before RoPE (Gemma 3)

    @property
    def scale(self) -> float:
        return self.scale_basis ** -0.5

    @property
    def group(self) -> int:
        """How many query heads share one key/value head."""
        return self.n_heads // self.n_kv_heads

    def shapes(self) -> dict[str, tuple[int, ...]]:
        """Weights as (in, out); activations as (heads, T, d_k)."""
        t, d, h, kv, dk = self.tokens, self.d_model, self.n_heads, self.n_kv_heads, self.head_dim
        return {"X": (t, d), "W_Q": (d, h * dk), "W_K": (d, kv * dk), "W_V": (d, kv * dk),
                "Q": (h, t, dk), "K": (kv, t, dk), "V": (kv, t, dk), "QKᵀ": (h, t, t),
                "softmax(QKᵀ)V": (h, t, dk), "W_O": (h * dk, d), "out": (t, d)}

    def kv_values_per_token(self) -> int:
        """Numbers the KV cache keeps per token and layer (one K and one V vector per KV head)."""
        return kv_values_per_token(self.n_kv_heads, self.head_dim)


def mechanics(info: ModelInfo, config, tokens: int) -> Mechanics:
    """Read the attention sizes and the score scale from the model's config.

    Gemma scales queries by query_pre_attn_scalar ** -0.5 instead of head_dim ** -0.5
    (transformers' Gemma3Attention: `self.scaling = config.query_pre_attn_scalar**-0.5`).
    """
    scalar = getattr(config, "query_pre_attn_scalar", None)
    basis, source = (int(scalar), "query_pre_attn_scalar") if scalar else (info.head_dim, "head_dim")
    softcap = getattr(config, "attn_logit_softcapping", None)
    qk_norm = getattr(config, "model_type", "").startswith("gemma3")
    return Mechanics(tokens=tokens, d_model=info.d_model, n_heads=info.n_heads, n_kv_heads=info.n_kv_heads,
                     head_dim=info.head_dim, scale_basis=basis, scale_from=source,
                     softcap=float(softcap) if softcap else None, qk_norm=qk_norm)


# ---------------------------------------------------------------- "banco": one word, two contexts


@dataclass(frozen=True)
class WordSpan:
    """Where a word sits in a token sequence."""

    first: int  # index of its first token
    last: int  # index of its last token (the one whose hidden state is compared)
    pieces: tuple[str, ...]  # the tokens it is made of, as displayed


def find_word(tokens: tuple[TokenInfo, ...], word: str) -> WordSpan | None:
    """The first whole-word, case-insensitive occurrence of `word`, as the tokens that cover it."""
    word = word.strip()
    if not word:
        return None
    spans = byte_spans(tokens)
    data = b"".join(bytes(t.bytes) for t in tokens if not t.special)
    text = data.decode("utf-8", errors="replace")
    # character index -> byte index, so a match in the text maps back to token spans
    starts = np.cumsum([0] + [len(ch.encode("utf-8", errors="replace")) for ch in text])
    match = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, flags=re.IGNORECASE)
    if match is None:
        return None
    lo, hi = int(starts[match.start()]), int(starts[match.end()])
    covering = [i for i, (a, b) in enumerate(spans) if b > a and a < hi and b > lo]
    return WordSpan(first=covering[0], last=covering[-1],
                    pieces=tuple(tokens[i].display for i in covering))


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    """Cosine similarity of two vectors; nan when either is (almost) zero."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    na, nb = np.linalg.norm(a), np.linalg.norm(b)
    if na < 1e-12 or nb < 1e-12:
        return float("nan")
    return float(a @ b / (na * nb))


@dataclass(frozen=True)
class Similarity:
    """Cosine similarity between one word's hidden states in two sentences, at every layer."""

    raw: tuple[float, ...]  # [L+1] plain cosine; 0 = the (scaled) embeddings
    centred: tuple[float, ...]  # [L+1] cosine after subtracting the layer's mean token vector
    baseline: tuple[float, ...]  # [L+1] centred cosine averaged over pairs of *different* tokens
    embedding_raw: float  # cosine of the two embedding rows (must equal raw[0])
    embedding_centred: float  # the same, centred (must equal centred[0])
    same_token: bool  # both words are the same token ids


def _centred_units(xa: np.ndarray, xb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Subtract the mean of all rows of both sentences, then scale each row to length 1.

    Args:
        xa: [Ta, D], xb: [Tb, D] vectors of the non-special tokens of each sentence.
    Returns:
        ([Ta, D], [Tb, D]); a row that was (almost) the mean becomes nan, so its cosine is undefined.
    """
    mean = np.concatenate([xa, xb]).astype(np.float64).mean(axis=0)  # [D]
    units = []
    for x in (xa, xb):
        c = x.astype(np.float64) - mean
        norm = np.linalg.norm(c, axis=1, keepdims=True)  # [T, 1]
        tiny = norm <= 1e-6 * np.linalg.norm(x, axis=1, keepdims=True)  # the row is just the mean
        units.append(np.where(tiny, np.nan, c / np.where(tiny, 1.0, norm)))
    return units[0], units[1]


def word_similarity(tr_a, span_a: WordSpan, tr_b, span_b: WordSpan) -> Similarity:
    """Compare the word's last token in two traces, layer by layer.

    Raw cosine stays near 1 in the middle layers because a few dimensions of the residual stream
    are huge in every token; the centred cosine subtracts the mean vector of both sentences'
    (non-special) tokens at that layer first, so what the tokens share does not count.
    """
    keep_a = [i for i, t in enumerate(tr_a.tokens) if not t.special]
    keep_b = [i for i, t in enumerate(tr_b.tokens) if not t.special]
    a, b = keep_a.index(span_a.last), keep_b.index(span_b.last)
    diff = np.array([[tr_a.tokens[i].id != tr_b.tokens[j].id for j in keep_b] for i in keep_a])  # [Ta, Tb]
    raw, centred, base = [], [], []
    for layer in range(tr_a.hidden_states.shape[0]):
        xa, xb = tr_a.hidden_states[layer, keep_a], tr_b.hidden_states[layer, keep_b]  # [Ta, D], [Tb, D]
        raw.append(cosine(xa[a], xb[b]))
        ua, ub = _centred_units(xa, xb)
        centred.append(float(ua[a] @ ub[b]))
        base.append(float((ua @ ub.T)[diff].mean()) if diff.any() else float("nan"))
    ua, ub = _centred_units(tr_a.embeddings[keep_a], tr_b.embeddings[keep_b])
    ids_a = tuple(t.id for t in tr_a.tokens[span_a.first : span_a.last + 1])
    ids_b = tuple(t.id for t in tr_b.tokens[span_b.first : span_b.last + 1])
    return Similarity(raw=tuple(raw), centred=tuple(centred), baseline=tuple(base),
                      embedding_raw=cosine(tr_a.embeddings[span_a.last], tr_b.embeddings[span_b.last]), embedding_centred=float(ua[a] @ ub[b]),
                      same_token=ids_a == ids_b)


# ---------------------------------------------------------------- what different heads do, measured

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
