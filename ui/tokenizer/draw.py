"""The tokenizer page's drawing: the text box and its presets, the chips (coloured tokens that wrap like text), the
counts and the token table, the comparison of tokenizers and what Portuguese costs, the one-hot vector and the
embedding row, the nearest neighbours and the 2-D map, with their downloads and the settings a link carries. It
takes what ui.tokenizer.compute returned and never reaches a model or a tokenizer; a panel that computes has an
"ask" half (its controls: what to compute, or None) and a "result" half."""
from __future__ import annotations

import functools
import hashlib
from contextlib import contextmanager

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from model_backend.core.tokens import visible
from model_backend.lessons import tokenizer as tk
from model_backend.validation import MAX_PROMPT_CHARS, InvalidInput, check_prompt
from ui.charts import MASKED, OKABE_ITO, PRIMARY, cached_chart, projection_on, show
from ui.chip_layout import (
    BUDGETS,
    LABEL_SCALES,
    LABEL_WIDTH_PX,
    UNIT_PX,
    label_units,
    padded_domain,
    scatter_labels,
    wrap,
)
from ui.export import downloads, files_shown
from ui.i18n import fmt_float, fmt_int, fmt_pct, t
from ui.share import Param
from ui.tokenizer.compute import CONTRAST, PARALLEL, PRESETS, SEED_VOCAB, Neighbours, Side
from ui.untrusted import escape_markdown
from ui.widgets import DATAFRAME_ROW, data_table, model_text, show_error

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

@contextmanager
def reading(name: str):
    """A progress bar while an extra tokenizer is read for the first time: yields the `progress(fraction, seconds)`
    to give compute.entries."""
    bar = st.progress(0.0, text=t("tokenizer.loading_extra", name=name))
    try:
        yield lambda fraction, seconds: bar.progress(
            fraction, text=f"{t('tokenizer.loading_extra', name=name)} ({seconds:.0f} s)")
    finally:
        bar.empty()


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


@cached_chart
def piece_chips(pieces: tuple[tk.Piece, ...], selectable: bool = False, selected: int | None = None) -> alt.Chart:
    """chips_chart of these tokens' chip_frame, kept per tokens (frozen, so their digest is taken once): the chips of
    one text, frame and chart, are built once for every visitor, not on each run of each visitor's page."""
    return chips_chart(chip_frame(pieces), selectable=selectable, selected=selected)


def _budget_expr(scale: float = 1.0) -> str:
    """Vega expression: the widest row budget that fits the chart's current width (scale: larger font)."""
    expr = str(BUDGETS[0])
    for b in BUDGETS[1:]:
        expr = f"width >= {b * UNIT_PX * scale:g} ? {b} : ({expr})"
    return expr


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


# --- the tables ---------------------------------------------------------------------------------

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


def compare_frame(sides: tuple[Side, ...]) -> pd.DataFrame:
    """Every token of the text by every tokenizer side by side (the comparison's chips, all of them)."""
    frames = []
    for side in sides:
        pieces = side.tokens.pieces
        frames.append(pd.DataFrame({
            "tokenizer": side.label, "position": [p.position for p in pieces], "id": [p.info.id for p in pieces],
            "token": [p.label for p in pieces], "bytes": [hex_bytes(p) for p in pieces],
            "partial": [p.partial for p in pieces], "special": [p.info.special for p in pieces]}))
    return pd.concat(frames, ignore_index=True)


def cost_frame(costs: dict[str, tk.LanguageCost]) -> pd.DataFrame:
    """The language-cost chart's numbers: tokens and characters of the parallel sentences, per tokenizer."""
    return pd.DataFrame([{"tokenizer": name, "pt_tokens": c.pt_tokens, "en_tokens": c.en_tokens,
                          "pt_chars": c.pt_chars, "en_chars": c.en_chars, "extra": c.extra}
                         for name, c in costs.items()])


def contrast_table(sides: tuple[Side, ...]) -> pd.DataFrame:
    """Each CONTRAST spelling tokenized by each tokenizer: chips joined by │, and their count."""
    rows = []
    for i, text in enumerate(CONTRAST):
        row = {t("tokenizer.col.text"): visible(text)}
        for side in sides:
            pieces = [p for p in side.contrast[i].pieces if not p.info.special]
            row[side.label] = " │ ".join(p.label for p in pieces) + f"   ({len(pieces)})"
        rows.append(row)
    return pd.DataFrame(rows)


# --- charts -------------------------------------------------------------------------------------

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
    most = int(df["tokens"].max()) if len(df) else 1
    base = alt.Chart(df).encode(  # room right of the longest bar for its number (cut at "87" in projection mode)
        x=alt.X("tokens:Q", title=t("tokenizer.cost.axis"), scale=alt.Scale(domain=[0, most * 1.15])),
        y=alt.Y("tokenizer:N", title=None, sort=list(costs), axis=alt.Axis(labelLimit=300 if projection_on() else 200)),
        yOffset=alt.YOffset("lang:N", sort=[pt, en]),
        tooltip=tooltip,
    )
    bars = base.mark_bar().encode(color=colour)
    text = base.mark_text(align="left", dx=4).encode(text="tokens:Q")
    return alt.layer(bars, text).properties(height=alt.Step(30 if projection_on() else 24))


@cached_chart
def one_hot_chart(token_id: int, lo: int, tokens: tuple[str, ...]) -> alt.Chart:
    """The neighbourhood of the single 1: positions lo .. lo+len(tokens)-1 with their values (tokens: as shown;
    kept per id, the tokens around it, language and projection mode)."""
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


@cached_chart
def neighbours_chart(df: pd.DataFrame) -> alt.Chart:
    """Cosine similarity of each nearest token (df: token, id, cosine), most similar first."""
    bars = alt.Chart(df).mark_bar(color=PRIMARY).encode(
        x=alt.X("cosine:Q", title=t("tokenizer.nb.axis"), scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("token:N", sort="-x", title=None, axis=alt.Axis(labelOverlap=False)),
        tooltip=[alt.Tooltip("token:N", title=t("tokenizer.col.token")), alt.Tooltip("id:Q", title="ID"),
                 alt.Tooltip("cosine:Q", format=".3f", title=t("tokenizer.nb.axis"))])
    return bars.properties(height=alt.Step(36 if projection_on() else 24))


MAP_HEIGHT = 420  # the word map's plot, in pixels
MAP_FONT = (15, 22)  # its names' size; in projection mode, as large as the axes' labels
MAP_WIDTH = (LABEL_WIDTH_PX, 560)  # the narrowest plot the names are placed for: a phone; a projector 1024 px
# wide with the sidebar open


MAP_TIERS = (1.0, 1.7, 2.8)  # a layout of the names for plots at least this many times MAP_WIDTH wide (the scales
# of LABEL_SCALES from there up): a phone, a tablet or a laptop, a projector; the chart picks one by its width


def map_labels(df: pd.DataFrame) -> pd.DataFrame:
    """df (word, x, y, tokens) with, for each width tier i of MAP_TIERS, where each word's name goes (ldx{i}, ldy{i},
    lalign{i}) and the name itself (label{i}: empty where it would cover another name or point at some width of
    that tier, chip_layout.scatter_labels)."""
    on = projection_on()
    out = df.copy()
    for i, tier in enumerate(MAP_TIERS):
        places = scatter_labels(df["x"], df["y"], df["word"], MAP_HEIGHT, MAP_FONT[on], width_px=MAP_WIDTH[on],
                                scales=tuple(s for s in LABEL_SCALES if s >= tier))
        out[f"label{i}"] = [w if p else "" for w, p in zip(df["word"], places)]
        out[f"ldx{i}"] = [p[0] if p else 0.0 for p in places]
        out[f"ldy{i}"] = [p[1] if p else 0.0 for p in places]
        out[f"lalign{i}"] = [p[2] if p else "left" for p in places]
    return out


def _by_width(field: str) -> str:
    """A Vega expression: the datum's `field` of the widest tier of MAP_TIERS that the plot's width reaches."""
    width = MAP_WIDTH[projection_on()]
    expr = f"datum.{field}0"
    for i, tier in list(enumerate(MAP_TIERS))[1:]:
        expr = f"width >= {tier * width:g} ? datum.{field}{i} : ({expr})"
    return expr


@cached_chart
def map_chart(df: pd.DataFrame) -> alt.Chart:
    """The words' embeddings on their first two principal components (df: map_labels' columns), each name placed
    where it covers no other name or point (chip_layout.scatter_labels), with a line to its point when it sits a
    line or two up or down beside it."""
    tooltip = [alt.Tooltip("word:N", title=t("tokenizer.map.word")), alt.Tooltip("tokens:Q", title=t("tokenizer.m.tokens")),
               alt.Tooltip("x:Q", format=".3f", title="PC1"), alt.Tooltip("y:Q", format=".3f", title="PC2")]
    base = alt.Chart(df).encode(
        x=alt.X("x:Q", title="PC1", scale=alt.Scale(domain=list(padded_domain(df["x"])), nice=False, zero=False)),
        y=alt.Y("y:Q", title="PC2", scale=alt.Scale(domain=list(padded_domain(df["y"])), nice=False, zero=False)),
        tooltip=tooltip)
    dx, dy = _by_width("ldx"), _by_width("ldy")  # the layout for the plot's width now (MAP_TIERS)
    names = base.mark_text(dx=alt.expr(dx), dy=alt.expr(dy), align=alt.expr(_by_width("lalign")),
                           text=alt.expr(_by_width("label")), fontSize=MAP_FONT[projection_on()])
    leaders = base.mark_rule(color="#8a8f98", strokeWidth=1, x2Offset=alt.expr(dx), y2Offset=alt.expr(dy),
                             opacity=alt.expr(f"({dx}) === 0 || ({dy}) === 0 ? 0 : 1")).encode(
        x2="x:Q", y2="y:Q")  # from a point to its name, where the name sits a line or two away beside it
    return (leaders + base.mark_circle(size=90, color=PRIMARY) + names).properties(height=MAP_HEIGHT)


# --- the sections -------------------------------------------------------------------------------

def _show(chart, caption: str, **kwargs) -> None:
    show(chart, **kwargs)
    st.caption(caption)


def preset_buttons() -> None:
    with st.container(horizontal=True):
        for key, text in PRESETS.items():
            st.button(t(f"tokenizer.preset.{key}"), key=f"tok_preset_{key}", on_click=set_text, args=(text,))


def counts(tok: tk.Tokenization) -> list[tk.Piece]:
    """The special-tokens switch and the three counts; returns the tokens the switch leaves shown."""
    show_special = st.toggle(t("tokenizer.special"), key="tok_special")
    shown = [p for p in tok.pieces if show_special or not p.info.special]
    a, b, c = st.columns(3)
    a.metric(t("tokenizer.m.chars"), fmt_int(tok.n_chars))
    b.metric(t("tokenizer.m.tokens"), fmt_int(tok.n_tokens), help=t("tokenizer.m.tokens.help"))
    c.metric(t("tokenizer.m.ratio"), fmt_float(tok.chars_per_token, 2))
    return shown


def chips_panel(shown, model: str) -> str:
    """The running model's chips, clickable; returns the token picker's state key (see pick)."""
    st.subheader(t("tokenizer.chips.head", model=model))
    pick_key = pick(shown)
    chips(shown, key="tok_chips", selected=st.session_state[pick_key])
    return pick_key


def chips(shown, key=None, selected=None, limit=MAX_CHIPS) -> None:
    drawn = shown[:limit]
    chart = piece_chips(tuple(drawn), selectable=key is not None, selected=selected)
    extra = {"on_select": "rerun", "key": key, "selection_mode": "chip"} if key else {}
    caption = t("tokenizer.chips.caption") if key else t("tokenizer.compare.chips")
    if len(drawn) < len(shown):
        caption = t("tokenizer.chips.capped" if files_shown() else "tokenizer.chips.capped.table", shown=fmt_int(len(drawn)), n=fmt_int(len(shown))) + " " + caption
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


def explain(tok: tk.Tokenization, sides: tuple[Side, ...]) -> None:
    if tok.n_partial:
        st.info(t("tokenizer.partial.found", n=fmt_int(tok.n_partial)), icon=":material/call_split:")
    else:
        st.caption(t("tokenizer.partial.none"))
    st.subheader(t("tokenizer.contrast.head"))
    st.markdown(t("tokenizer.contrast.text"))
    data_table(contrast_table(sides), hide_index=True)
    ours = sides[0]  # the running model's tokenizer comes first
    lo, hi = SEED_VOCAB
    where = "above" if ours.vocab > hi else "below" if ours.vocab < lo else "within"
    st.caption(t("tokenizer.contrast.seed", model=ours.label, v=fmt_int(ours.vocab), lo=fmt_int(lo), hi=fmt_int(hi),
                 where=t(f"tokenizer.contrast.{where}")))


def compare(sides: tuple[Side, ...]) -> None:
    st.subheader(t("tokenizer.compare.head"))
    for col, side in zip(st.columns(len(sides)), sides):
        with col:
            st.markdown(t("tokenizer.compare.name", name=side.label, kind=t(f"tokenizer.kind.{side.kind}"),
                          vocab=fmt_int(side.vocab)))
            st.metric(t("tokenizer.m.tokens"), fmt_int(side.tokens.n_tokens), help=t("tokenizer.m.tokens.help"))
            chips([p for p in side.tokens.pieces if not p.info.special], limit=MAX_CHIPS // 2)
    if len(sides) < 2:
        st.info(t("tokenizer.compare.missing"))
    downloads(lambda: compare_frame(sides), "tokens-by-tokenizer", key="tok_dl_compare")
    costs = {side.label: side.cost for side in sides}
    st.subheader(t("tokenizer.cost.head"))
    show(cost_chart(costs))
    each = "; ".join(t("tokenizer.cost.each", name=name, pct=fmt_pct(abs(c.extra), 0),
                       more=t("tokenizer.cost.more" if c.extra >= 0 else "tokenizer.cost.fewer"))
                     for name, c in costs.items())
    st.caption(t("tokenizer.cost.caption", n=len(PARALLEL), each=each))
    downloads(lambda: cost_frame(costs), "tokens-pt-en", key="tok_dl_cost")
    with st.expander(t("tokenizer.cost.sentences")):
        data_table(pd.DataFrame(PARALLEL, columns=[t("tokenizer.cost.pt"), t("tokenizer.cost.en")]), hide_index=True)


def table(shown) -> None:
    """Every token shown, in a table and its CSV."""
    table = token_table(shown)
    st.subheader(t("tokenizer.table.head"))
    # its rows exactly, up to 280 px (then it scrolls): a short text's table had empty rows under its tokens
    data_table(table, hide_index=True, height=min(280, DATAFRAME_ROW * (len(table) + 1) + 3))
    downloads(table, "tokens", key="tok_dl")


def embedding_ask(shown, pick_key: str) -> int:
    """The token picker (under its one-hot heading); returns the ID of the token picked."""
    labels = {p.position: f"#{p.position} · {p.label} · ID {p.info.id}" for p in shown[:MAX_CHIPS]}
    st.subheader(t("tokenizer.onehot.head"))
    pos = st.selectbox(t("tokenizer.onehot.pick"), list(labels), key=pick_key, format_func=labels.get)
    st.session_state["tok_pos"] = pos
    return next(p.info.id for p in shown if p.position == pos)


def embedding_result(token_id: int, look: tk.Lookup, around: tuple[int, tuple[str, ...]], bits: str | None) -> None:
    """The one-hot vector, the product that picks the row, and the row (`around`: compute.around's tokens;
    `bits`: how the shipped file stores the matrix, ui.weights_view.embedding_bits)."""
    vocab, dim = look.vocab_size, len(look.row)
    st.markdown(t("tokenizer.onehot.text", v=fmt_int(vocab), zeros=fmt_int(vocab - 1), id=fmt_int(token_id)))
    _show(one_hot_chart(token_id, *around), t("tokenizer.onehot.caption", id=fmt_int(token_id)))
    st.subheader(t("tokenizer.embed.head"))
    st.latex(rf"\underbrace{{x}}_{{1\times {vocab}}}\;\underbrace{{E}}_{{{vocab}\times {dim}}} = E_{{{token_id},:}}")
    st.markdown(t("tokenizer.embed.text", v=fmt_int(vocab), d=fmt_int(dim), n=fmt_int(vocab * dim),
                  stored=t("tokenizer.embed.stored", bits=bits) if bits else ""))
    if look.exact:
        st.success(t("tokenizer.embed.exact", id=fmt_int(token_id)), icon=":material/check_circle:")
    else:
        st.warning(t("tokenizer.embed.inexact", diff=f"{abs(look.row - look.product).max():.3g}"))
    scale, root = fmt_float(look.embed_scale, 2), fmt_float(float(np.sqrt(dim)), 2)
    rounded = t("tokenizer.embed.rounded", dtype=look.scale_dtype) if scale != root else ""  # bfloat16: 25.25
    _show(strip_chart(look.row), t("tokenizer.embed.caption", d=fmt_int(dim), id=fmt_int(token_id), scale=scale,
                                    root=root, rounded=rounded, k=FIRST_VALUES))
    model_text("[" + ", ".join(f"{v:+.4f}" for v in look.row[:FIRST_VALUES]) + ", …]")
    downloads(lambda: pd.DataFrame({"id": token_id, "dim": range(dim), "value": look.row.astype(float)}),
              f"embedding-row-{token_id}", key="tok_dl_row")


def neighbours_ask() -> tuple[str, int] | None:
    """The word and how many neighbours; returns (the query, k), or None (with a warning) for an empty word."""
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
        return None
    return (" " + word.strip() if space else word), k


def searching(vocab: int):
    """The spinner while the neighbours are searched (the first search also measures the norm of every row once,
    ~1-2 s here)."""
    return st.spinner(t("tokenizer.nb.searching", v=fmt_int(vocab)))


def neighbours_result(query: str, found: Neighbours) -> None:
    own = found.own
    st.caption(t("tokenizer.nb.tokens", n=len(own)) + (" " + t("tokenizer.nb.mean") if len(own) > 1 else ""))
    model_text(" │ ".join(f"{i.display} (ID {i.id})" for i in own))
    names = [i.display for i in found.near_info]
    names = [f"{s} ({i.id})" if names.count(s) > 1 else s for s, i in zip(names, found.near_info)]
    df = pd.DataFrame({"token": names, "id": [n.id for n in found.near], "cosine": [n.cosine for n in found.near]})
    _show(neighbours_chart(df), t("tokenizer.nb.caption", v=fmt_int(found.vocab), ms=fmt_float(found.ms, 0)))
    downloads(df.assign(query=query)[["query", "token", "id", "cosine"]], "neighbours", key="tok_dl_nb")


def map_ask() -> tuple[str, ...] | None:
    """The words to place; returns them, or None (with a warning) for fewer than 3."""
    st.subheader(t("tokenizer.map.head"))
    st.markdown(t("tokenizer.map.text"))
    raw = st.text_area(t("tokenizer.map.words"), key="tok_words", height=90)
    words = tk.parse_words(raw)
    if len(words) < 3:
        st.warning(t("tokenizer.map.few"))
        return None
    if len(tk.parse_words(raw, limit=10_000)) > len(words):
        st.info(t("tokenizer.map.capped", n=fmt_int(len(words))))
    return words


def hidden_words(words: list[str]) -> str:
    """Words a map leaves unnamed, for its caption: "none", "one (menino)" or "3 (menino, menina, cachorro)". The
    words are the visitor's: escaped, so the caption's Markdown shows them as typed."""
    if not words:
        return t("tokenizer.map.hidden.none")
    listed = escape_markdown(", ".join(words))
    return t("tokenizer.map.hidden.one", words=listed) if len(words) == 1 else t(
        "tokenizer.map.hidden.some", n=fmt_int(len(words)), words=listed)


@cached_chart
def word_map(words: tuple[str, ...], coords: np.ndarray, counts: tuple[int, ...]) -> alt.TopLevelMixin:
    """map_chart with the names placed (map_labels). Placing them at three widths, and the content key of the placed
    table, were a fifth of the page's run; a class's 30 phones show the same map: made once per words, projection,
    counts, language and projection mode."""
    df = pd.DataFrame({"word": list(words), "x": coords[:, 0], "y": coords[:, 1], "tokens": list(counts)})
    return map_chart(map_labels(df))


def _map_table(words: tuple[str, ...], proj: tk.Projection, counts: tuple[int, ...]) -> pd.DataFrame:
    """The word map's file: each word, its two coordinates and its number of tokens."""
    return pd.DataFrame({"word": list(words), "pc1": proj.coords[:, 0].astype(float),
                         "pc2": proj.coords[:, 1].astype(float), "tokens": list(counts)})


def map_result(words: tuple[str, ...], proj: tk.Projection, counts: tuple[int, ...]) -> None:
    chart = word_map(tuple(words), proj.coords, tuple(counts))
    placed = chart.data  # map_labels' table: every layer of the map draws it (Altair keeps it once, on the layers' chart)
    caption = t("tokenizer.map.caption", a=fmt_pct(proj.explained[0], 0), b=fmt_pct(proj.explained[1], 0))
    narrow, wide = (list(placed.loc[placed[f"label{i}"] == "", "word"]) for i in (0, len(MAP_TIERS) - 1))
    if narrow:
        caption += " " + t("tokenizer.map.hidden", narrow=hidden_words(narrow), wide=hidden_words(wide),
                           px=fmt_int(round(MAP_TIERS[-1] * MAP_WIDTH[projection_on()])))
    _show(chart, caption)
    downloads(functools.partial(_map_table, tuple(words), proj, tuple(counts)), "word-map", key="tok_dl_map")
