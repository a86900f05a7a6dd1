"""Chart defaults: large labels for projectors and a colour-blind-safe palette (Okabe-Ito)."""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import threading
import weakref
from collections.abc import Callable, Hashable

import altair as alt
import numpy as np
import pandas as pd
from altair.utils import schemapi

from model_backend.runtime.memo import SharedMemo

# Altair checks every chart object against the Vega-Lite JSON schema twice: when it is built and when it is
# converted. On the temperature page that was ~60% of a slider move's time (cProfile). The app's charts are
# fixed code, so the check runs in the test suite (TBT_VALIDATE_CHARTS=1, set in tests/conftest.py) and not
# for visitors.
VALIDATE = os.environ.get("TBT_VALIDATE_CHARTS") == "1"
if not VALIDATE:
    schemapi.disable_debug_mode()

# Okabe and Ito's colour-blind-safe palette, in its order (blue, orange, bluish green, reddish purple, sky blue,
# vermilion, yellow, black), with the three colours that are too pale for a mark on white darkened to at least 3:1
# (WCAG 1.4.11; tests/unit/test_palette.py): orange #E69F00 (2.3:1) -> #B87800, sky blue #56B4E9 (2.3:1) -> #2E8BC0,
# yellow #F0E442 (1.3:1) -> #8A7F00. The hues stay; the marks get darker.
OKABE_ITO = ["#0072B2", "#B87800", "#009E73", "#CC79A7", "#2E8BC0", "#D55E00", "#8A7F00", "#000000"]
SEQUENTIAL = "viridis"  # perceptually uniform and colour-blind safe
MASKED = "#d9d9d9"  # cells that the causal mask hides, or bars a filter cut: a background, always named in text too
PRIMARY = OKABE_ITO[0]


@alt.theme.register("token_by_token", enable=True)
def _theme() -> alt.theme.ThemeConfig:
    return {
        "config": {
            # no ARIA labels of Vega's own on marks and axes: it names them by internal field names and raw floats,
            # in English, one per bar. A screen reader gets the chart's name (`description`), its hidden summary
            # (ui.a11y.summarise) and the data table instead (docs/accessibility.md).
            "aria": False,
            "mark": {"aria": False},  # every mark type (aria-hidden): a nameless graphics role fails axe's svg-img-alt
            "font": "Source Sans Pro, sans-serif",
            "axis": {"labelFontSize": 14, "titleFontSize": 15, "labelLimit": 220, "aria": False},
            "legend": {"labelFontSize": 14, "titleFontSize": 14, "aria": False},
            "header": {"labelFontSize": 14, "titleFontSize": 15},
            "title": {"fontSize": 17},
            "text": {"fontSize": 14},
            "range": {"category": OKABE_ITO, "heatmap": {"scheme": SEQUENTIAL}, "ramp": {"scheme": SEQUENTIAL}},
        }
    }


def enable() -> None:
    """Importing this module registers and enables the theme; call to make the intent explicit."""
    alt.theme.enable("token_by_token")


def projection_on() -> bool:
    import streamlit as st

    return bool(st.session_state.get("projection"))


# Projection mode draws axis titles at 22 px. Streamlit lays a chart stretched to the page's width out to its height
# *including* its axes and legend, so at that size a vertical title longer than the plot (or a frame grown with the
# text) left the plot a strip and cut the title ("P(most likely token" on the temperature page). So there a chart
# given a height in px gets PROJECTION_EXTRA_PX more (the frame's larger text), and at least CHAR_PX per character
# of its longest y title (Source Sans at 22 px averages about 11 px a character; 13 leaves room) plus FRAME_PX for
# the x axis's labels and title, a legend row and padding. A height per band (alt.Step) grows with its rows already.
PROJECTION_EXTRA_PX = 100
PROJECTION_CHAR_PX = 13
PROJECTION_FRAME_PX = 150


def _y_titles(chart) -> list[str]:
    """The lines of the y-axis titles written out in a chart and its layers, nested ones too (the channel's title or
    its axis's; a title left to Vega-Lite is not counted)."""
    titles = []
    layers = getattr(chart, "layer", alt.Undefined)
    for part in (layers if isinstance(layers, list) else []):
        titles += _y_titles(part)
    try:
        y = chart.encoding.y
    except AttributeError:
        return titles
    for source in (y, _item(y, "axis")):
        title = _item(source, "title")  # item access: `.title` is Altair's method-style setter
        if isinstance(title, alt.SchemaBase):  # a title given as a dict becomes a schema object
            title = title.to_dict()
        if isinstance(title, str):
            titles.append(title)
        elif isinstance(title, list):  # one title written on several lines
            titles += [line for line in title if isinstance(line, str)]
    return titles


def _item(obj, key: str):
    try:
        return obj[key]
    except (KeyError, TypeError, AttributeError):
        return None


def projection_height(height: int, chart) -> int:
    """A chart's height in px in projection mode (see PROJECTION_EXTRA_PX)."""
    titles = _y_titles(chart)
    need = PROJECTION_CHAR_PX * max(map(len, titles)) + PROJECTION_FRAME_PX if titles else 0
    return max(height + PROJECTION_EXTRA_PX, need)


def wrapped_labels(labels: list[str], width: int = 24) -> str:
    """A legend's or axis's `labelExpr` that draws each of `labels` on lines of at most `width` characters (Vega draws
    a text given as an array one element a line). A bottom legend starts where the plot does, after the y axis, so on
    a 390 px phone a label longer than ~30 characters ran past the screen's edge."""
    import textwrap

    expr = "datum.label"
    for label in labels:
        lines = textwrap.wrap(label, width, break_long_words=False) or [label]
        if len(lines) > 1:
            expr = f"datum.label === {json.dumps(label)} ? {json.dumps(lines)} : {expr}"
    return expr


def finish(chart: alt.TopLevelMixin) -> alt.TopLevelMixin:
    """Apply per-visitor chart settings (projection mode: much larger labels, and charts tall enough for them:
    projection_height)."""
    if projection_on():
        height = getattr(chart, "height", alt.Undefined)
        if isinstance(height, (int, float)) and not isinstance(height, bool):
            chart = chart.properties(height=projection_height(int(height), chart))
        chart = chart.configure_axis(labelFontSize=22, titleFontSize=22, labelLimit=320, labelColor="#000",
                                     titleColor="#000").configure_legend(
            labelFontSize=20, titleFontSize=20, labelColor="#000", titleColor="#000", labelLimit=0).configure_header(
            labelFontSize=20, titleFontSize=22, labelColor="#000", titleColor="#000").configure_title(
            fontSize=26, color="#000").configure_text(fontSize=20, color="#000")
    return chart


# d3-format's number locale for pt-BR (Vega-Lite's config.locale): the axes, legends and tooltips that Vega formats in
# the browser write 1.234,5 as the page's text does (ui.i18n.fmt_*); without it they wrote 1,234.5 on pt-BR pages.
PT_BR_NUMBERS = {"decimal": ",", "thousands": ".", "grouping": [3], "currency": ["R$", ""]}


def number_locale(language: str) -> dict | None:
    """The Vega number locale for `language`, or None for Vega's own (en)."""
    return {"number": PT_BR_NUMBERS} if language == "pt-BR" else None


def localise(spec: dict, language: str) -> dict:
    """`spec` (a fresh dict) with the visitor's number format (number_locale)."""
    locale = number_locale(language)
    if locale is not None:
        spec.setdefault("config", {}).setdefault("locale", {}).update(locale)
    return spec


class _NoFingerprint(Exception):
    """An argument this module cannot fingerprint: the builder is called, not cached."""


def _fingerprint(x, h) -> None:
    """Feed x's content into the hash h. Values, tuples, lists, dicts, numpy arrays, DataFrames and frozen
    dataclasses of those; anything else raises _NoFingerprint (never an object's id: ids are reused)."""
    if x is None or isinstance(x, (bool, int, float, str, bytes, np.integer, np.floating)):
        h.update(repr((type(x).__name__, x)).encode())
    elif isinstance(x, np.ndarray):
        if x.dtype == object:
            raise _NoFingerprint
        h.update(f"nd{x.dtype}{x.shape}".encode())
        h.update(np.ascontiguousarray(x).tobytes())
    elif isinstance(x, pd.DataFrame):
        h.update(repr(("df", list(x.columns), [str(d) for d in x.dtypes], x.shape)).encode())
        try:
            h.update(pd.util.hash_pandas_object(x, index=True).to_numpy().tobytes())
        except TypeError as exc:  # cells that pandas cannot hash (lists, objects)
            raise _NoFingerprint from exc
    elif isinstance(x, (list, tuple)):
        h.update(f"{type(x).__name__}{len(x)}(".encode())
        for v in x:
            _fingerprint(v, h)
        h.update(b")")
    elif isinstance(x, dict):
        h.update(f"dict{len(x)}(".encode())
        for k, v in x.items():
            _fingerprint(k, h)
            _fingerprint(v, h)
        h.update(b")")
    elif dataclasses.is_dataclass(x) and not isinstance(x, type) and x.__dataclass_params__.frozen:
        h.update(_dataclass_digest(x))
    else:
        raise _NoFingerprint


_DIGESTS: dict[int, tuple[weakref.ref, bytes]] = {}  # id -> (the object, its digest), while it lives
_DIGESTS_LOCK = threading.Lock()


def _dataclass_digest(x) -> bytes:
    """A frozen dataclass's content digest, computed once per object: a page passes the same Trace (arrays of
    a few MB) to many builders. Kept while the object lives; frozen, so its content cannot change."""
    with _DIGESTS_LOCK:
        found = _DIGESTS.get(id(x))
        if found is not None and found[0]() is x:
            return found[1]
    h = hashlib.blake2b(type(x).__qualname__.encode(), digest_size=16)
    for f in dataclasses.fields(x):
        _fingerprint(getattr(x, f.name), h)
    digest = h.digest()
    key = id(x)
    try:
        ref = weakref.ref(x, lambda _, key=key, forget=_forget, table=_DIGESTS, lock=_DIGESTS_LOCK: forget(table, lock, key))
    except TypeError:  # a dataclass with __slots__ and no __weakref__: computed each time
        return digest
    with _DIGESTS_LOCK:
        _DIGESTS[key] = (ref, digest)
    return digest


def _forget(table: dict, lock: threading.Lock, key: int) -> None:
    """A weakref callback: drop table[key] once its object is gone (the id may already be reused)."""
    with lock:
        found = table.get(key)
        if found is not None and found[0]() is None:
            del table[key]


_BUILT = SharedMemo(256)  # finished chart objects, shared by every visitor (they are read, never changed)


def cached_chart(builder):
    """Keep what a chart builder returns, per its arguments' content, the language and projection mode.

    Building an Altair chart (encodings, layers, parameters) was most of a warm visit's server time on the
    tokenizer, loop and grokking pages; a second visitor with the same inputs now gets the same chart
    object. A builder that reads anything else than its arguments, the language and projection mode must
    not use this. Arguments this module cannot fingerprint make the call go straight to the builder."""
    @functools.wraps(builder)
    def build(*args, **kwargs):
        from ui.i18n import lang

        h = hashlib.blake2b(digest_size=16)
        try:
            _fingerprint((args, sorted(kwargs.items())), h)
        except _NoFingerprint:
            return builder(*args, **kwargs)
        key = (builder.__module__, builder.__qualname__, lang(), projection_on(), h.digest())
        return _BUILT.get(key, lambda: builder(*args, **kwargs))

    return build


EXPORT_WIDTH = 760  # px: charts saved as images get this width when their spec does not set one


def image_spec(chart: alt.TopLevelMixin, language: str = "en") -> dict:
    """The chart as a self-contained Vega-Lite spec for an image file: data inline, white background, the numbers
    written as in `language`."""
    spec = localise(type(chart).to_dict(chart, validate=VALIDATE), language)
    if not any(k in spec for k in ("hconcat", "vconcat", "concat", "facet", "repeat")):
        spec.setdefault("width", EXPORT_WIDTH)
    spec.setdefault("config", {})["background"] = "white"
    spec.setdefault("padding", 12)
    return spec


def to_image(chart: alt.TopLevelMixin, fmt: str, data: pd.DataFrame | None = None, language: str = "en") -> bytes:
    """Render the chart to PNG (twice the pixels, for print and slides) or SVG, on the server, without a browser.
    With `data`: the chart drawn with these rows (a `show_frame` template holds none). It runs when a button is
    clicked, outside the page's run: the language is the one the run that drew the button had."""
    import vl_convert as vlc

    if data is not None:
        chart = chart.properties(data=data)
    spec = image_spec(chart, language)
    if fmt == "png":
        return vlc.vegalite_to_png(spec, scale=2)
    return vlc.vegalite_to_svg(spec).encode("utf-8")


def _save_buttons(chart: alt.TopLevelMixin, data: pd.DataFrame | None = None, align: str = "right") -> None:
    """PNG and SVG download buttons under a chart (align="left": in a list of files, under its name). The image
    is drawn only when one is clicked.

    Keys come from a counter that app.py resets at each full run, so they are stable across runs; a fragment's
    rerun keeps counting up from there, so its keys never meet those of the rest of the page. A phone that follows
    the teacher draws none (ui.export.files_shown).
    """
    import streamlit as st

    from ui.export import files_shown
    from ui.i18n import lang, t

    if not files_shown():
        return

    n = st.session_state.get("_chart_seq", 0)
    st.session_state["_chart_seq"] = n + 1
    with st.container(horizontal=True, horizontal_alignment=align, gap="small", key=f"chart_save_{n}"):
        for fmt in ("png", "svg"):
            st.download_button(t(f"export.{fmt}"), functools.partial(to_image, chart, fmt, data, lang()), key=f"chart_save_{n}_{fmt}",
                               file_name=f"token-by-token-chart-{n + 1}.{fmt}",
                               mime="image/png" if fmt == "png" else "image/svg+xml", on_click="ignore",
                               type="tertiary", icon=":material/image:", help=t(f"export.{fmt}.help"))


_SPECS: dict[int, tuple[weakref.ref, str, dict]] = {}  # id(chart) -> (the chart, its spec text, its datasets)
_SPECS_LOCK = threading.Lock()
_CONVERTING = tuple(threading.Lock() for _ in range(16))  # by id(chart): one conversion of a chart at a time


def _kept_spec(chart: alt.TopLevelMixin) -> tuple[str, dict] | None:
    with _SPECS_LOCK:
        found = _SPECS.get(id(chart))
    return (found[1], found[2]) if found is not None and found[0]() is chart else None


def vega_spec(chart: alt.TopLevelMixin) -> dict:
    """The chart as Streamlit sends it (Streamlit's own conversion: each table an Arrow dataset), with the
    datasets named by their order ("tbt_0", "tbt_1", ...) instead of by a hash of their content.

    Why: the browser compares a chart's spec with the one it already draws. The same spec with new data
    updates the drawn view in place (Vega's view.data()); a different spec builds a new view from scratch
    (parse, compile, lay out), hundreds of milliseconds per chart on a slow machine. With content-hash names
    every new step of the loop, every slider move changed the spec. A chart object drawn again (one from
    `cached_chart`) is converted once: the result is kept while the object lives.
    """
    found = _kept_spec(chart)
    if found is None:  # a class's phones that meet a new chart at once: one converts it, the others wait for it
        with _CONVERTING[id(chart) % len(_CONVERTING)]:  # (py-spy: 30 conversions at once when the class opened
            found = _kept_spec(chart) or _convert(chart)  # the loop page)
    text, datasets = found
    spec = json.loads(text)  # a fresh dict each time: Streamlit edits the spec it is given
    if datasets:
        spec["datasets"] = dict(datasets)
    return spec


def _convert(chart: alt.TopLevelMixin) -> tuple[str, dict]:
    """vega_spec's conversion, kept while the chart object lives."""
    from streamlit.elements.vega_charts import _convert_altair_to_vega_lite_spec  # what st.altair_chart runs

    spec = _convert_altair_to_vega_lite_spec(chart)
    hashed = spec.pop("datasets", None) or {}
    text, datasets = json.dumps(spec), {}
    for i, (name, data) in enumerate(hashed.items()):
        stable = f"tbt_{i}"  # not "data_N": Vega-Lite names its own compiled data sources so
        text = text.replace(json.dumps(str(name)), json.dumps(stable))  # {"name": ...} and lookups' "from"
        datasets[stable] = data
    key = id(chart)
    try:
        ref = weakref.ref(chart, lambda _, key=key, forget=_forget, table=_SPECS, lock=_SPECS_LOCK: forget(table, lock, key))
    except TypeError:
        ref = None
    if ref is not None:
        with _SPECS_LOCK:
            _SPECS[key] = (ref, text, datasets)
    return text, datasets


_SUMMARIES: dict[int, tuple[weakref.ref, dict[str, str]]] = {}  # id(chart) -> (the chart, {language: its summary})


def chart_summary(chart: alt.TopLevelMixin, spec: dict) -> str:
    """ui.a11y.summarise of a chart from its spec and data, kept per language while the chart object lives, as
    vega_spec keeps its conversion: a chart from `cached_chart` is drawn for every visitor, and reading its text
    alternative from its rows (sorting, grouping) was a fifth of a warm temperature-page run (py-spy)."""
    from ui import a11y
    from ui.i18n import lang

    key, language = id(chart), lang()
    with _SPECS_LOCK:
        found = _SUMMARIES.get(key)
        if found is not None and found[0]() is chart and language in found[1]:
            return found[1][language]
    text = a11y.summarise(spec, _frames(chart))
    try:
        ref = weakref.ref(chart, lambda _, key=key, forget=_forget, table=_SUMMARIES, lock=_SPECS_LOCK: forget(table, lock, key))
    except TypeError:
        return text
    with _SPECS_LOCK:
        found = _SUMMARIES.get(key)
        if found is None or found[0]() is not chart:
            found = _SUMMARIES[key] = (ref, {})
        found[1][language] = text
    return text


def describe(spec: dict, frames: list[pd.DataFrame], summary: str | None, picks: bool, note: str | None = None) -> None:
    """The chart's text alternative, just before it: `summary` if given, else one read from its data and
    encodings (ui.a11y.summarise). A chart that can be clicked says where the same choice is made by keyboard.
    The drawn chart gets a short name too (`description`: its SVG's aria-label)."""
    from ui import a11y
    from ui.i18n import t

    text = summary if summary is not None else a11y.summarise(spec, frames)
    spec.setdefault("description", a11y.short_name(spec))  # the drawn chart's own name (its SVG's aria-label)
    a11y.sr_only(text + (" " + note if note else "") + (" " + t("a11y.chart.keyboard") if picks else ""))


def show(chart: alt.TopLevelMixin, *, save: bool = True, summary: str | None = None, **kwargs):
    """Draw an Altair chart with the visitor's settings, then PNG/SVG buttons (unless save=False); kwargs go to Streamlit's
    chart call (width, height, key, on_select, selection_mode). Drawn as st.vega_lite_chart of `vega_spec`:
    what st.altair_chart sends, with stable dataset names, so a redraw with new data updates the view.
    Before it, a visually hidden text alternative (`summary`, or one read from the chart's data)."""
    import streamlit as st

    kwargs.setdefault("width", "stretch")
    from ui.i18n import lang

    if projection_on() and isinstance(kwargs.get("height"), int):  # Streamlit's height replaces the spec's
        kwargs["height"] = projection_height(kwargs["height"], chart)
    chart = _unchecked(finish(chart))  # the conversion calls chart.to_dict()
    spec = localise(vega_spec(chart), lang())
    summary = summary if summary is not None else chart_summary(chart, spec)
    describe(spec, [], summary, picks=kwargs.get("on_select") not in (None, "ignore"))
    shown = st.vega_lite_chart(spec=spec, **kwargs)
    if save:  # save=False: the caller draws them with save_buttons (a chart whose image differs from its view)
        _save_buttons(chart)
    return shown


_TEMPLATES = SharedMemo(128)  # show_frame's charts without rows, per builder, columns, language and projection mode
_ROWS = SharedMemo(512)  # show_frame's text alternatives, per template and rows (their Arrow bytes)
_ARROWS = SharedMemo(256)  # show_frame's rows, their Arrow bytes and digest, per builder and the caller's rows_key


def show_frame(builder, df: pd.DataFrame | Callable[[], pd.DataFrame], *, save: bool = True,
               summary: str | None = None, note: str | None = None, rows_key: Hashable | None = None, **kwargs):
    """Draw `builder(df)` without building it: the chart is built once from `df`'s columns with no rows (per
    language and projection mode) and converted once; each call only puts `df`'s rows into its one dataset.

    What `show(builder(df))` draws, the same spec and data (tests/unit/test_chart_spec.py), for charts redrawn
    with new rows on every click (the loop page's "Next token"): building and converting an Altair chart is
    ~30 ms of server time, and the browser updates the drawn view with the new data. The builder must read
    only df's columns (never its rows: no `sort=` list of values, no domain from the data), the language and
    projection mode, and use one table.

    rows_key: a name that these rows alone ever get, for this builder (the loop names a view's rows by its run, its
    number of steps and the language): the rows are then built (`df` may be a function that builds them) and
    converted to Arrow once for every visitor who draws them. A class's 30 phones at the teacher's step built and
    converted the same rows 30 times: a fifth of a phone's step (py-spy, bench class_bench)."""
    import streamlit as st
    from streamlit import dataframe_util

    def converted(rows) -> tuple[pd.DataFrame, bytes, bytes]:
        rows = rows() if callable(rows) else rows
        arrow = dataframe_util.convert_anything_to_arrow_bytes(rows)
        return rows, arrow, hashlib.blake2b(arrow, digest_size=16).digest()

    if rows_key is None:
        df, arrow, digest = converted(df)
    else:
        df, arrow, digest = _ARROWS.get((builder.__module__, builder.__qualname__, rows_key), lambda: converted(df))
    from ui.i18n import lang

    key, chart = _template(builder, df)
    spec = localise(vega_spec(chart), lang())
    names = list(spec.get("datasets") or {})
    if len(names) != 1:
        raise ValueError(f"show_frame needs a chart with one table; {builder.__qualname__} has {len(names)}")
    if summary is None:  # the rows' text alternative, once per chart and rows (a class's phones at the same step draw
        # the same rows): summarising was a fifth of a phone's loop step (py-spy, bench class_bench)
        from ui import a11y

        summary = _ROWS.get((key, digest), lambda: a11y.summarise(spec, [df]))
    describe(spec, [df], summary, picks=kwargs.get("on_select") not in (None, "ignore"), note=note)
    spec["datasets"][names[0]] = arrow
    kwargs.setdefault("width", "stretch")
    shown = st.vega_lite_chart(spec=spec, **kwargs)
    if save:
        _save_buttons(chart, data=df)
    return shown


def _template(builder, df: pd.DataFrame) -> tuple[tuple, alt.TopLevelMixin]:
    """show_frame's chart for `builder` without rows (built once per columns, language and projection mode)."""
    from ui.i18n import lang

    key = (builder.__module__, builder.__qualname__, lang(), projection_on(), tuple(df.columns),
           tuple(str(d) for d in df.dtypes))
    return key, _TEMPLATES.get(key, lambda: _unchecked(finish(builder(df.iloc[:0]))))


def save_frame(builder, df: pd.DataFrame) -> None:
    """The PNG/SVG buttons of the chart that `show_frame(builder, df, save=False)` drew, placed anywhere else (the
    loop page gathers its charts' buttons in one box that is drawn only while open)."""
    _save_buttons(_template(builder, df)[1], data=df, align="left")


def _frames(chart) -> list[pd.DataFrame]:
    """The DataFrames an Altair chart carries: its own and its sub-charts' (layers, concatenations)."""
    found = [chart.data] if isinstance(getattr(chart, "data", None), pd.DataFrame) else []
    for key in ("layer", "hconcat", "vconcat", "concat"):
        for sub in getattr(chart, key, None) or []:
            if isinstance(sub, alt.TopLevelMixin) or hasattr(sub, "data"):
                found.extend(_frames(sub))
    return found


def _unchecked(chart: alt.TopLevelMixin) -> alt.TopLevelMixin:
    """The chart, converted without the schema check when VALIDATE is off (see VALIDATE)."""
    if not VALIDATE:
        object.__setattr__(chart, "to_dict", functools.partial(type(chart).to_dict, chart, validate=False))
    return chart


def save_buttons(chart: alt.TopLevelMixin, align: str = "right") -> None:
    """The PNG/SVG buttons for `chart`, with the visitor's settings (after a show(..., save=False))."""
    _save_buttons(finish(chart), align=align)


PROJECTION_CSS = """
<style>
html, body, [data-testid="stAppViewContainer"] { font-size: 22px !important; }
[data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li,
[data-testid="stCaptionContainer"], label, [data-testid="stWidgetLabel"] p { font-size: 1.15rem !important; color: #000 !important; }
[data-testid="stCaptionContainer"] { color: #1a1a1a !important; }
h1 { font-size: 3rem !important; } h2 { font-size: 2.2rem !important; } h3 { font-size: 1.8rem !important; }
code, pre { font-size: 1.1rem !important; }
[data-testid="stTable"] th, [data-testid="stTable"] td { font-size: 1.1rem !important; color: #000 !important; }
[data-testid="stMetricValue"], [data-testid="stMetricValue"] p { font-size: 2.6rem !important; color: #000 !important; }
[data-testid="stMetricLabel"] p { font-size: 1.15rem !important; color: #000 !important; }
[data-testid="stSidebarNavLink"] { height: auto !important; }  /* a page's whole name, on two lines if need be */
[data-testid="stSidebarNavLink"] > span:last-child { min-width: 0; flex: 1 1 auto; }
[data-testid="stSidebarNavLink"] .stMarkdownEllipsis, [data-testid="stSidebarNavLink"] .stMarkdownEllipsis p {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important; line-height: 1.25; }
[data-testid="stPageLink-NavLink"] { height: auto !important; }  /* a link in a page (home's path): the same */
[data-testid="stPageLink-NavLink"] > span:last-child, [data-testid="stPageLink-NavLink"] > span:last-child * {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important; line-height: 1.25; }
/* a primary button's label stays white on its blue (the black of the rules above: 3.3:1; white: 6.4:1) */
[data-testid^="stBaseButton-primary"]:not(:disabled) p { color: #fff !important; }
[data-testid^="stBaseButton-primary"]:disabled p { color: #595959 !important; }  /* grey on the page's white */
</style>
"""
