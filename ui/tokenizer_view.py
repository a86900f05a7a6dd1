"""The tokenizer page's cached tokenizers and embeddings, its charts (chips, one-hot, strip, map) and its sections."""
from __future__ import annotations

import hashlib
import logging
import threading
import time
from dataclasses import dataclass

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

import model_backend as mb
from model_backend.core import tokens
from model_backend.core.tokens import token_info, visible
from model_backend.lessons import tokenizer as tk
from model_backend.runtime.config import default_model_key
from model_backend.runtime.loading import cache_is_valid, cache_path, catalog_entry
from model_backend.validation import MAX_PROMPT_CHARS, InvalidInput, check_prompt
from ui import backend, weights_view
from ui.charts import MASKED, OKABE_ITO, PRIMARY, cached_chart, projection_on, show
from ui.chip_layout import BUDGETS, UNIT_PX, label_units, wrap
from ui.export import downloads
from ui.i18n import fmt_float, fmt_int, fmt_pct, t
from ui.share import Param
from ui.widgets import data_table, model_text, show_error

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
MAX_CHIPS = 300  # drawn chips; the table and the CSV always hold every token
MAX_LABEL = 18  # characters on a chip; the tooltip has the whole token

FIRST_VALUES = 8  # the embedding row's first values, printed under its strip


def link_params() -> list[Param]:
    """What a link to this page carries: the text, the token picked, and the neighbour and map inputs."""
    return [Param("prompt", "prompt_tokenizer", str, PRESETS["hello"]),
            Param("special", "tok_special", bool, True),
            Param("pos", "tok_pos", int, 1, low=0, high=MAX_CHIPS - 1),
            Param("word", "tok_word", str, "gato"),
            Param("space", "tok_space", bool, True),
            Param("k", "tok_k", int, 10, low=5, high=25),
            Param("words", "tok_words", str, t("tokenizer.map.default"))]


# --- the tokenizers -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Entry:
    key: str  # a model key / directory, or an extra tokenizer's key
    label: str
    tokenizer: object


@st.cache_resource(show_spinner=False, max_entries=4)
def _extra_tokenizer(key: str, cache_dir: str):
    extra = next(e for e in tokens.EXTRA_TOKENIZERS if e.key == key)
    try:
        return tokens.load_extra_tokenizer(extra, cache_dir)
    except Exception as exc:  # noqa: BLE001 - a missing extra tokenizer must not break the page
        log.warning("Tokenizer %s could not be read: %s", key, exc)
        return None


@st.cache_resource(show_spinner=False, max_entries=4)
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


def _model_label(spec: str) -> str:
    entry = catalog_entry(spec)
    return entry["label"] if entry else spec


def entries() -> list[Entry]:
    """The running model's tokenizer first, then other configured models', then the extra ones."""
    current = backend.current_model()
    out = [Entry(current, _model_label(current), backend.bundle_for().tokenizer)]
    for spec in dict.fromkeys([backend.settings().model, default_model_key()]):
        if spec != current and (tok := _model_tokenizer(spec)) is not None:
            out.append(Entry(spec, _model_label(spec), tok))
    cache_dir = str(backend.settings().cache_dir)
    for extra in tokens.EXTRA_TOKENIZERS:
        if not _is_saved(extra):
            _first_read(extra, cache_dir)
        if (tok := _extra_tokenizer(extra.key, cache_dir)) is not None:
            out.append(Entry(extra.key, extra.label, tok))
    return out


def _is_saved(extra: tk.ExtraTokenizer) -> bool:
    return (backend.settings().cache_dir / "tokenizers" / extra.key / tokens.MARKER).is_file()


def _first_read(extra: tk.ExtraTokenizer, cache_dir: str, expected_s: float = 15.0) -> None:
    """First run only: read the tokenizer from its GGUF (~15 s here) in a thread, with a progress bar.

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
    bar = st.progress(0.0, text=t("tokenizer.loading_extra", name=extra.label))
    while not done.wait(0.4):
        elapsed = time.monotonic() - started
        bar.progress(min(0.95, elapsed / expected_s),
                     text=f"{t('tokenizer.loading_extra', name=extra.label)} ({elapsed:.0f} s)")
    bar.empty()


@st.cache_data(show_spinner=False, max_entries=256, ttl=3600)
def tokenize(key: str, text: str, _tokenizer) -> tk.Tokenization:
    """Cached per (tokenizer key, text): no model, just the tokenizer (~1 ms for a sentence)."""
    return tk.tokenize(_tokenizer, text)


@st.cache_data(show_spinner=False, max_entries=16)
def language_cost(key: str, _tokenizer) -> tk.LanguageCost:
    return tk.language_cost(_tokenizer, PARALLEL)


def compare_frame(text: str, items: list[Entry]) -> pd.DataFrame:
    """Every token of the text by every tokenizer side by side (the comparison's chips, all of them)."""
    frames = []
    for e in items:
        pieces = tokenize(e.key, text, e.tokenizer).pieces
        frames.append(pd.DataFrame({
            "tokenizer": e.label, "position": [p.position for p in pieces], "id": [p.info.id for p in pieces],
            "token": [p.label for p in pieces], "bytes": [hex_bytes(p) for p in pieces],
            "partial": [p.partial for p in pieces], "special": [p.info.special for p in pieces]}))
    return pd.concat(frames, ignore_index=True)


def cost_frame(costs: dict[str, tk.LanguageCost]) -> pd.DataFrame:
    """The language-cost chart's numbers: tokens and characters of the parallel sentences, per tokenizer."""
    return pd.DataFrame([{"tokenizer": name, "pt_tokens": c.pt_tokens, "en_tokens": c.en_tokens,
                          "pt_chars": c.pt_chars, "en_chars": c.en_chars, "extra": c.extra}
                         for name, c in costs.items()])


def contrast_table(items: list[Entry]) -> pd.DataFrame:
    """Each CONTRAST spelling tokenized by each tokenizer: chips joined by │, and their count."""
    rows = []
    for text in CONTRAST:
        row = {t("tokenizer.col.text"): visible(text)}
        for e in items:
            pieces = [p for p in tokenize(e.key, text, e.tokenizer).pieces if not p.info.special]
            row[e.label] = " │ ".join(p.label for p in pieces) + f"   ({len(pieces)})"
        rows.append(row)
    return pd.DataFrame(rows)


# --- the text box -------------------------------------------------------------------------------

def _share(key: str) -> None:
    st.session_state["prompt"] = st.session_state[key]


def set_text(text: str) -> None:
    """A preset button: fill this page's box and the prompt every page shares."""
    st.session_state["prompt_tokenizer"] = text
    st.session_state["prompt"] = text


def text_box() -> str | None:
    """A text box that tokenizes while the visitor types (after a 300 ms pause).

    Like ui.widgets.prompt_box it starts from the shared prompt (unless that is still the app's
    default) and writes back to it when the visitor edits; but it is a live text_input, because
    Streamlit's text_area only sends its value on blur or Ctrl+Enter.
    """
    key = "prompt_tokenizer"
    if key not in st.session_state:  # the visitor's own prompt from another page, else the course's example
        shared = st.session_state.get("prompt")
        st.session_state[key] = shared if shared and shared != t("common.default_prompt") else PRESETS["hello"]
    text = st.text_input(t("tokenizer.box"), key=key, max_chars=MAX_PROMPT_CHARS, live="300ms",
                         on_change=_share, args=(key,))
    try:
        return check_prompt(text)
    except InvalidInput as exc:
        show_error(exc)
        return None


# --- chips --------------------------------------------------------------------------------------

def hex_bytes(piece: tk.Piece) -> str:
    """'C3 A1' for á; empty for a special token, which stands for no text."""
    return "" if piece.info.special else " ".join(f"{b:02X}" for b in piece.info.bytes)


def _short(label: str) -> str:
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


def _tint(hex_colour: str, amount: float = 0.55) -> str:
    """Mix a colour with white so black text on it stays readable."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*(round(c + (255 - c) * amount) for c in (r, g, b)))


TINTS = [_tint(c) for c in OKABE_ITO[:6]]


def chip_frame(pieces: tuple[tk.Piece, ...]) -> pd.DataFrame:
    """One row per chip with its tooltip fields and its (x, row) for every budget in BUDGETS."""
    labels = [_short(p.label) for p in pieces]
    widths = [max(label_units(s), 1.0) + 1.4 for s in labels]  # text plus padding
    df = pd.DataFrame({
        "pos": [p.position for p in pieces],
        "label": labels,
        "full": [p.label for p in pieces],
        "id": [p.info.id for p in pieces],
        "piece": [visible(p.info.piece) for p in pieces],
        "bytes": [hex_bytes(p) for p in pieces],
        "kind": ["special" if p.info.special else "partial" if p.partial else "text" for p in pieces],
        "tone": [TINTS[i % len(TINTS)] for i in range(len(pieces))],
        "w": widths,
    })
    for budget in BUDGETS:
        xs, rows = zip(*wrap(widths, budget)) if widths else ((), ())
        df[f"x_{budget}"] = xs
        df[f"row_{budget}"] = rows
    return df


def _budget_expr(scale: float = 1.0) -> str:
    """Vega expression: the widest row budget that fits the chart's current width (scale: larger font)."""
    expr = str(BUDGETS[0])
    for b in BUDGETS[1:]:
        expr = f"width >= {b * UNIT_PX * scale:g} ? {b} : ({expr})"
    return expr


@cached_chart
def chips_chart(df: pd.DataFrame, selectable: bool = False, selected: int | None = None) -> alt.Chart:
    """Tokens as coloured chips that wrap like text. The layout follows the chart's width.

    In projection mode the chips are half as large again, like the rest of the text."""
    scale = 1.5 if projection_on() else 1.0
    budget = alt.param(name="budget", expr=_budget_expr(scale))
    base = alt.Chart(df).transform_calculate(
        x="datum['x_' + budget]", row="datum['row_' + budget]",
    ).transform_calculate(x2="datum.x + datum.w", mid="datum.x + datum.w / 2")
    tooltip = [alt.Tooltip("pos:Q", title=t("tokenizer.col.position")),
               alt.Tooltip("id:Q", title="ID", format=","),
               alt.Tooltip("full:N", title=t("tokenizer.col.token")),
               alt.Tooltip("piece:N", title=t("tokenizer.col.piece")),
               alt.Tooltip("bytes:N", title=t("tokenizer.col.bytes"))]
    x = alt.X("x:Q", axis=None, scale=alt.Scale(domainMin=0, domainMax=alt.ExprRef(expr="budget"), nice=False,
                                                zero=True))
    y = alt.Y("row:O", axis=None, scale=alt.Scale(paddingInner=0.2, paddingOuter=0.1))
    fill = alt.condition("datum.kind == 'special'", alt.value(MASKED), alt.Color("tone:N", scale=None))
    stroke_width = alt.value(1)
    if selected is not None:
        stroke_width = alt.condition(f"datum.pos == {int(selected)}", alt.value(3.5), alt.value(1))
    rect = base.mark_rect(cornerRadius=6, stroke="#333333").encode(
        x=x, x2="x2:Q", y=y, fill=fill, strokeWidth=stroke_width, tooltip=tooltip,
        strokeDash=alt.condition("datum.kind == 'partial'", alt.value([4, 3]), alt.value([1, 0])),
    )
    text = base.mark_text(fontSize=round(16 * scale), color="#111111").encode(
        x=alt.X("mid:Q", scale=alt.Scale(domainMin=0, domainMax=alt.ExprRef(expr="budget"), nice=False)),
        y=y, text="label:N", tooltip=tooltip,
    )
    if selectable:
        pick = alt.selection_point(name="chip", fields=["pos"], on="click", clear=False)
        rect = rect.add_params(pick)
    return alt.layer(rect, text).add_params(budget).properties(height=alt.Step(round(38 * scale)))


def digest(ids) -> str:
    """A short fingerprint of a token sequence (widget keys that must change with the text)."""
    return hashlib.blake2b(",".join(map(str, ids)).encode(), digest_size=6).hexdigest()


def selected_position(state, valid: set[int]) -> int | None:
    """The token position clicked in the chips chart (AppTest cannot click: this is unit-tested)."""
    try:
        points = state["selection"]["chip"]
    except (KeyError, TypeError):
        return None
    if not points:
        return None
    pos = points[0].get("pos") if isinstance(points[0], dict) else None
    return int(pos) if pos is not None and int(pos) in valid else None


# --- the token table ----------------------------------------------------------------------------

def token_table(pieces) -> pd.DataFrame:
    """One row per token shown: what the page's table shows and what the CSV holds."""
    cols = {k: t(f"tokenizer.col.{k}") for k in ("position", "id", "token", "piece", "bytes", "partial", "special")}
    return pd.DataFrame({
        cols["position"]: [p.position for p in pieces],
        cols["id"]: [p.info.id for p in pieces],
        cols["token"]: [p.label for p in pieces],
        cols["piece"]: [p.info.piece for p in pieces],
        cols["bytes"]: [hex_bytes(p) for p in pieces],
        cols["partial"]: [p.partial for p in pieces],
        cols["special"]: [p.info.special for p in pieces],
    })


@cached_chart
def cost_chart(costs: dict[str, tk.LanguageCost]) -> alt.Chart:
    """Tokens for the same sentences in Portuguese and English, one pair of bars per tokenizer."""
    pt, en = t("tokenizer.cost.pt"), t("tokenizer.cost.en")
    df = pd.DataFrame([{"tokenizer": name, "lang": lang, "tokens": n}
                       for name, c in costs.items() for lang, n in ((pt, c.pt_tokens), (en, c.en_tokens))])
    tooltip = [alt.Tooltip("tokenizer:N", title=t("tokenizer.cost.tokenizer")),
               alt.Tooltip("lang:N", title=t("tokenizer.cost.lang")),
               alt.Tooltip("tokens:Q", title=t("tokenizer.cost.axis"))]
    colour = alt.Color("lang:N", scale=alt.Scale(domain=[pt, en], range=[OKABE_ITO[1], PRIMARY]),
                       legend=alt.Legend(title=None, orient="top"))
    base = alt.Chart(df).encode(
        x=alt.X("tokens:Q", title=t("tokenizer.cost.axis")),
        y=alt.Y("tokenizer:N", title=None, sort=list(costs), axis=alt.Axis(labelLimit=300 if projection_on() else 160)),
        yOffset=alt.YOffset("lang:N", sort=[pt, en]),
        tooltip=tooltip,
    )
    bars = base.mark_bar().encode(color=colour)
    text = base.mark_text(align="left", dx=4).encode(text="tokens:Q")
    return alt.layer(bars, text).properties(height=alt.Step(30 if projection_on() else 24))


# --- one-hot and the embedding row --------------------------------------------------------------

@backend.on_model(max_entries=64, queued=False)
def _lookup(model: mb.ModelBundle, token_id: int) -> tk.Lookup:
    return tk.embedding_lookup(model.weights, token_id)


def lookup(token_id: int) -> tk.Lookup:
    """one_hot(id) @ E next to E[id], for the running model (cached per token)."""
    return _lookup(int(token_id))


def one_hot_chart(token_id: int, vocab_size: int, tokenizer, around: int = 6) -> alt.Chart:
    """The neighbourhood of the single 1: positions id-around .. id+around with their values."""
    lo, hi = max(0, token_id - around), min(vocab_size, token_id + around + 1)
    specials = frozenset(tokenizer.all_special_ids)
    return _one_hot(token_id, lo, tuple(token_info(tokenizer, i, specials).display for i in range(lo, hi)))


@cached_chart
def _one_hot(token_id: int, lo: int, tokens: tuple[str, ...]) -> alt.Chart:
    """one_hot_chart's drawing, kept per (id, the tokens around it), language and projection mode."""
    positions = range(lo, lo + len(tokens))
    df = pd.DataFrame({
        "position": list(positions),
        "value": [int(i == token_id) for i in positions],
        "token": list(tokens),
        "row": 0,
    })
    df["label"] = [fmt_int(p) for p in df["position"]]
    tooltip = [alt.Tooltip("label:N", title=t("tokenizer.col.position")),
               alt.Tooltip("token:N", title=t("tokenizer.col.token")),
               alt.Tooltip("value:Q", title=t("tokenizer.onehot.value"))]
    x = alt.X("label:N", sort=None, title=t("tokenizer.onehot.axis"), axis=alt.Axis(labelAngle=-45))
    y = alt.Y("row:O", axis=None)
    cells = alt.Chart(df).mark_rect(stroke="#999999").encode(
        x=x, y=y, color=alt.condition("datum.value == 1", alt.value(PRIMARY), alt.value("#ffffff")), tooltip=tooltip)
    digits = alt.Chart(df).mark_text(fontSize=18).encode(
        x=x, y=y, text="value:Q", tooltip=tooltip,
        color=alt.condition("datum.value == 1", alt.value("#ffffff"), alt.value("#555555")))
    return alt.layer(cells, digits).properties(height=alt.Step(52))  # a fixed height collapses a one-row chart


@cached_chart
def strip_chart(values: np.ndarray) -> alt.Chart:
    """Every number of a row as a coloured cell (blue negative, orange positive; the top 2% saturate)."""
    edge = float(np.quantile(np.abs(values), 0.98)) or 1.0  # a few outliers must not wash out the rest
    df = pd.DataFrame({"dim": np.arange(len(values)), "value": values.astype(float), "row": 0})
    return alt.Chart(df).mark_rect().encode(
        x=alt.X("dim:O", title=t("tokenizer.embed.axis"), axis=alt.Axis(values=list(range(0, len(values), 64)),
                                                                       labelAngle=0)),
        y=alt.Y("row:O", axis=None),
        color=alt.Color("value:Q", scale=alt.Scale(scheme="blueorange", domain=[-edge, edge], clamp=True),
                        title=t("tokenizer.embed.value")),
        tooltip=[alt.Tooltip("dim:O", title=t("tokenizer.embed.axis")),
                 alt.Tooltip("value:Q", format=".4f", title=t("tokenizer.embed.value"))],
    ).properties(height=alt.Step(60))


# --- neighbours and the 2-D map -----------------------------------------------------------------

@backend.on_model(max_entries=2, ttl=None, resource=True, queued=False)
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


def neighbours(word: str, k: int) -> NeighbourResult:
    return _neighbours(word, k, _index())


@backend.on_model(max_entries=32, queued=False)
def _projection(model: mb.ModelBundle, words: tuple[str, ...], _index: tk.EmbeddingIndex
                ) -> tuple[tk.Projection, tuple[int, ...]]:
    index = _index
    ids = [tk.word_ids(model.tokenizer, " " + w) for w in words]
    vectors = np.stack([tk.word_vector(index, i).numpy() for i in ids])  # [n, D]
    return tk.pca_2d(vectors), tuple(len(i) for i in ids)


def projection(words: tuple[str, ...]) -> tuple[tk.Projection, tuple[int, ...]]:
    """PCA of the words' embedding rows (each word with its leading space; several tokens: mean)."""
    return _projection(words, _index())


@cached_chart
def neighbours_chart(df: pd.DataFrame) -> alt.Chart:
    """Cosine similarity of each nearest token (df: token, id, cosine), most similar first."""
    bars = alt.Chart(df).mark_bar(color=PRIMARY).encode(
        x=alt.X("cosine:Q", title=t("tokenizer.nb.axis"), scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("token:N", sort="-x", title=None, axis=alt.Axis(labelOverlap=False)),
        tooltip=[alt.Tooltip("token:N", title=t("tokenizer.col.token")), alt.Tooltip("id:Q", title="ID"),
                 alt.Tooltip("cosine:Q", format=".3f", title=t("tokenizer.nb.axis"))])
    return bars.properties(height=alt.Step(36 if projection_on() else 24))


@cached_chart
def map_chart(df: pd.DataFrame) -> alt.Chart:
    """The words' embeddings on their first two principal components (df: word, x, y, tokens)."""
    tooltip = [alt.Tooltip("word:N", title=t("tokenizer.map.word")), alt.Tooltip("tokens:Q", title=t("tokenizer.m.tokens")),
               alt.Tooltip("x:Q", format=".3f", title="PC1"), alt.Tooltip("y:Q", format=".3f", title="PC2")]
    base = alt.Chart(df).encode(x=alt.X("x:Q", title="PC1"), y=alt.Y("y:Q", title="PC2"), tooltip=tooltip)
    return (base.mark_circle(size=90, color=PRIMARY) + base.mark_text(align="left", dx=7, fontSize=15).encode(
        text="word:N")).properties(height=420)


def _show(chart, caption: str, **kwargs) -> None:
    show(chart, **kwargs)
    st.caption(caption)


def preset_buttons() -> None:
    with st.container(horizontal=True):
        for key, text in PRESETS.items():
            st.button(t(f"tokenizer.preset.{key}"), key=f"tok_preset_{key}", on_click=set_text, args=(text,))


def chips(shown, key=None, selected=None, limit=MAX_CHIPS) -> None:
    drawn = shown[:limit]
    chart = chips_chart(chip_frame(drawn), selectable=key is not None, selected=selected)
    extra = {"on_select": "rerun", "key": key, "selection_mode": "chip"} if key else {}
    caption = t("tokenizer.chips.caption") if key else t("tokenizer.compare.chips")
    if len(drawn) < len(shown):
        caption = t("tokenizer.chips.capped", shown=fmt_int(len(drawn)), n=fmt_int(len(shown))) + " " + caption
    _show(chart, caption, **extra)


def pick(shown) -> str:
    """Prepare the token picker's state: a clicked chip wins, then the last choice, then the first token.

    The picker's key changes with the text (new options, new widget); "tok_pos" carries the choice across.
    """
    valid = [p.position for p in shown[:MAX_CHIPS]]
    key = "tok_pick_" + digest(p.info.id for p in shown[:MAX_CHIPS])
    clicked = selected_position(st.session_state.get("tok_chips"), set(valid))
    if clicked is not None and clicked != st.session_state.get("tok_chip_seen"):
        st.session_state[key] = st.session_state["tok_chip_seen"] = clicked
    if st.session_state.get(key) not in valid:
        last = st.session_state.get("tok_pos")
        st.session_state[key] = last if last in valid else next(
            (p.position for p in shown if not p.info.special), valid[0])
    return key


def explain(tok, items) -> None:
    if tok.n_partial:
        st.info(t("tokenizer.partial.found", n=fmt_int(tok.n_partial)), icon=":material/call_split:")
    else:
        st.caption(t("tokenizer.partial.none"))
    st.subheader(t("tokenizer.contrast.head"))
    st.markdown(t("tokenizer.contrast.text"))
    data_table(contrast_table(items), hide_index=True)


def compare(text, items) -> None:
    st.subheader(t("tokenizer.compare.head"))
    for col, e in zip(st.columns(len(items)), items):
        with col:
            tok = tokenize(e.key, text, e.tokenizer)
            st.markdown(t("tokenizer.compare.name", name=e.label,
                          kind=t(f"tokenizer.kind.{tk.tokenizer_kind(e.tokenizer)}"), vocab=fmt_int(len(e.tokenizer))))
            st.metric(t("tokenizer.m.tokens"), fmt_int(tok.n_tokens), help=t("tokenizer.m.tokens.help"))
            chips([p for p in tok.pieces if not p.info.special], limit=MAX_CHIPS // 2)
    if len(items) < 2:
        st.info(t("tokenizer.compare.missing"))
    downloads(compare_frame(text, items), "tokens-by-tokenizer", key="tok_dl_compare")
    costs = {e.label: language_cost(e.key, e.tokenizer) for e in items}
    st.subheader(t("tokenizer.cost.head"))
    show(cost_chart(costs))
    each = "; ".join(t("tokenizer.cost.each", name=name, pct=fmt_pct(abs(c.extra), 0),
                       more=t("tokenizer.cost.more" if c.extra >= 0 else "tokenizer.cost.fewer"))
                     for name, c in costs.items())
    st.caption(t("tokenizer.cost.caption", n=len(PARALLEL), each=each))
    downloads(cost_frame(costs), "tokens-pt-en", key="tok_dl_cost")
    with st.expander(t("tokenizer.cost.sentences")):
        data_table(pd.DataFrame(PARALLEL, columns=[t("tokenizer.cost.pt"), t("tokenizer.cost.en")]), hide_index=True)


def embedding(shown, pick_key, tokenizer) -> None:
    labels = {p.position: f"#{p.position} · {p.label} · ID {p.info.id}" for p in shown[:MAX_CHIPS]}
    st.subheader(t("tokenizer.onehot.head"))
    pos = st.selectbox(t("tokenizer.onehot.pick"), list(labels), key=pick_key, format_func=labels.get)
    st.session_state["tok_pos"] = pos
    token_id = next(p.info.id for p in shown if p.position == pos)
    look = lookup(token_id)
    vocab, dim = look.vocab_size, len(look.row)
    st.markdown(t("tokenizer.onehot.text", v=fmt_int(vocab), zeros=fmt_int(vocab - 1), id=fmt_int(token_id)))
    _show(one_hot_chart(token_id, vocab, tokenizer), t("tokenizer.onehot.caption", id=fmt_int(token_id)))
    st.subheader(t("tokenizer.embed.head"))
    st.latex(rf"\underbrace{{x}}_{{1\times {vocab}}}\;\underbrace{{E}}_{{{vocab}\times {dim}}} = E_{{{token_id},:}}")
    bits = weights_view.embedding_bits()
    st.markdown(t("tokenizer.embed.text", v=fmt_int(vocab), d=fmt_int(dim), n=fmt_int(vocab * dim),
                  stored=t("tokenizer.embed.stored", bits=bits) if bits else ""))
    if look.exact:
        st.success(t("tokenizer.embed.exact", id=fmt_int(token_id)), icon=":material/check_circle:")
    else:
        st.warning(t("tokenizer.embed.inexact", diff=f"{abs(look.row - look.product).max():.3g}"))
    _show(strip_chart(look.row), t("tokenizer.embed.caption", d=fmt_int(dim), id=fmt_int(token_id),
                                    scale=fmt_float(look.embed_scale, 2), k=FIRST_VALUES))
    model_text("[" + ", ".join(f"{v:+.4f}" for v in look.row[:FIRST_VALUES]) + ", …]")
    downloads(pd.DataFrame({"id": token_id, "dim": range(dim), "value": look.row.astype(float)}),
              f"embedding-row-{token_id}", key="tok_dl_row")


def neighbours_panel() -> None:  # not a fragment: a new word reruns the page, so the link box follows it
    st.subheader(t("tokenizer.nb.head"))
    st.markdown(t("tokenizer.nb.text"))
    with st.container(horizontal=True):
        for word in ("gato", "Paris", "rei"):
            st.button(word, key=f"tok_nb_{word}", on_click=st.session_state.__setitem__, args=("tok_word", word))
    word = st.text_input(t("tokenizer.nb.word"), key="tok_word", max_chars=100, live="400ms")
    space = st.checkbox(t("tokenizer.nb.space"), key="tok_space")
    k = st.slider(t("tokenizer.nb.k"), 5, 25, key="tok_k")
    if not word.strip():
        st.warning(t("tokenizer.nb.empty"))
        return
    query = " " + word.strip() if space else word
    tokenizer = entries()[0].tokenizer
    with st.spinner(t("tokenizer.nb.searching", v=fmt_int(len(tokenizer)))):  # the first search also
        found = neighbours(query, k)  # measures the norm of every row once (~1-2 s here)
    own = [token_info(tokenizer, i) for i in found.ids]
    st.caption(t("tokenizer.nb.tokens", n=len(own)) + (" " + t("tokenizer.nb.mean") if len(own) > 1 else ""))
    model_text(" │ ".join(f"{i.display} (ID {i.id})" for i in own))
    infos = [token_info(tokenizer, n.id) for n in found.neighbours]
    names = [i.display for i in infos]
    names = [f"{s} ({i.id})" if names.count(s) > 1 else s for s, i in zip(names, infos)]
    df = pd.DataFrame({"token": names, "id": [n.id for n in found.neighbours],
                       "cosine": [n.cosine for n in found.neighbours]})
    _show(neighbours_chart(df), t("tokenizer.nb.caption", v=fmt_int(len(tokenizer)), ms=fmt_float(found.ms, 0)))
    downloads(df.assign(query=query)[["query", "token", "id", "cosine"]], "neighbours", key="tok_dl_nb")


def map_panel() -> None:  # not a fragment either, for the same reason
    st.subheader(t("tokenizer.map.head"))
    st.markdown(t("tokenizer.map.text"))
    raw = st.text_area(t("tokenizer.map.words"), key="tok_words", height=90)
    words = tk.parse_words(raw)
    if len(words) < 3:
        st.warning(t("tokenizer.map.few"))
        return
    if len(tk.parse_words(raw, limit=10_000)) > len(words):
        st.info(t("tokenizer.map.capped", n=fmt_int(len(words))))
    proj, counts = projection(words)
    df = pd.DataFrame({"word": words, "x": proj.coords[:, 0], "y": proj.coords[:, 1], "tokens": counts})
    _show(map_chart(df), t("tokenizer.map.caption", a=fmt_pct(proj.explained[0], 0), b=fmt_pct(proj.explained[1], 0)))
    downloads(df.astype({"x": float, "y": float}).rename(columns={"x": "pc1", "y": "pc2"}), "word-map",
              key="tok_dl_map")
