"""Accessibility helpers: the page's language, focus and motion styles, chart text alternatives, live announcements.

Streamlit writes `<html lang="en">` whatever the page says (streamlit#15726). `page_setup()` draws, once per run,
one small element of our own static code: a script that sets `document.documentElement.lang` to the visitor's
language (and keeps it there if anything resets it), the CSS for visually hidden text, visible focus and reduced
motion, and a polite live region kept outside Streamlit's tree, so that it survives reruns.
"""
from __future__ import annotations

import html
import json
import math
import numbers
import re
from collections.abc import Iterator

import numpy as np
import pandas as pd
import streamlit as st

from ui.i18n import fmt_float, fmt_int, fmt_pct, lang, t

LIVE_ID = "tbt-live"  # the polite live region's id (created by the setup script, once per browser tab)

CSS = """
<style>
.tbt-sr-only { position: absolute !important; width: 1px !important; height: 1px !important; padding: 0 !important;
  margin: -1px !important; overflow: hidden !important; clip: rect(0 0 0 0) !important; white-space: normal !important;
  border: 0 !important; }
/* the element that holds a hidden text takes no room in the page's column (no gap either) */
[data-testid="stElementContainer"]:has(> [data-testid="stHtml"] > .tbt-sr-only),
[data-testid="stElementContainer"]:has(> [data-testid="stHtml"] > .tbt-setup) {
  position: absolute !important; width: 1px !important; height: 1px !important; overflow: hidden !important;
  clip: rect(0 0 0 0) !important; margin: 0 !important; padding: 0 !important; }
/* a visible focus on everything the keyboard reaches (WCAG 2.4.7), also where Streamlit draws none */
a:focus-visible, button:focus-visible, input:focus-visible, textarea:focus-visible, select:focus-visible,
summary:focus-visible, [tabindex]:focus-visible, [role="slider"]:focus-visible, [role="tab"]:focus-visible {
  outline: 3px solid #0060a0 !important; outline-offset: 2px !important; }
/* Streamlit's help icons and heading anchors are 17 px: their hit area grows to 24 x 24 px around the same icon
   (WCAG 2.5.8, target size on a phone) */
[data-testid="stTooltipHoverTarget"] > button, [data-testid="stHeaderActionElements"] a {
  min-width: 24px !important; min-height: 24px !important; display: inline-flex !important; align-items: center;
  justify-content: center; }
/* a figure and its name wrap instead of being cut with "…" (the loop page's three FLOPs figures on a projector) */
[data-testid="stMetricValue"], [data-testid="stMetricValue"] *, [data-testid="stMetricLabel"],
[data-testid="stMetricLabel"] * { white-space: normal !important; overflow: visible !important;
  text-overflow: clip !important; overflow-wrap: anywhere; }
/* a button's label wraps instead of being cut with "…" (a long label on a phone, three buttons in a row on a
   projector) */
button[data-testid^="stBaseButton"] .stMarkdownEllipsis, button[data-testid^="stBaseButton"] .stMarkdownEllipsis p {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important; line-height: 1.25; }
@media (prefers-reduced-motion: reduce) {
  *, *::before, *::after { animation-duration: 0.01ms !important; animation-iteration-count: 1 !important;
    transition-duration: 0.01ms !important; scroll-behavior: auto !important; }
}
</style>
"""

# Our own static code; the only value put in is the language code, one of ui.i18n.LANGS.
_SCRIPT = """
<script>
(() => {
  const root = document.documentElement;
  window.__tbtLang = %(lang)s;
  if (root.lang !== window.__tbtLang) root.lang = window.__tbtLang;
  if (!window.__tbtLangWatch) {  // once per tab: put the language back if anything resets it
    window.__tbtLangWatch = new MutationObserver(() => {
      if (root.lang !== window.__tbtLang) root.lang = window.__tbtLang;
    });
    window.__tbtLangWatch.observe(root, {attributes: true, attributeFilter: ["lang"]});
  }
  window.__tbtWords = %(words)s;  // Streamlit's own English labels -> the visitor's language (none in English)
  if (!window.__tbtScrollWatch) {  // once per tab, then on every change of the page:
    const reach = () => {  // a region that scrolls and holds nothing focusable gets tabindex=0 (WCAG 2.1.1)
      for (const el of document.querySelectorAll(
          '.katex-display, [data-testid="stTable"] div, [data-testid="stMarkdownContainer"] pre, [data-testid="stCode"] pre')) {
        const css = getComputedStyle(el);
        const scrolls = el.classList.contains("katex-display")  // a formula may overflow once its fonts load
                     || (/(auto|scroll)/.test(css.overflowX) && el.scrollWidth > el.clientWidth)
                     || (/(auto|scroll)/.test(css.overflowY) && el.scrollHeight > el.clientHeight);
        if (scrolls && !el.hasAttribute("tabindex") && !el.querySelector("a, button, input, textarea, select, [tabindex]")) {
          el.setAttribute("tabindex", "0");
        }
      }
    };
    const say = (original) => {  // Streamlit's English label in the visitor's language (WCAG 3.1.2)
      const words = window.__tbtWords || {};
      if (words[original] !== undefined) return words[original];
      const help = "Help for ";  // its help icons: "Help for " and the widget's label
      return original.startsWith(help) && words[help] !== undefined ? words[help] + original.slice(help.length) : original;
    };
    const translate = () => {  // the original stays in a data- attribute, so a switch back to English restores it
      for (const name of ["aria-label", "title", "placeholder"]) {
        const keep = "data-tbt-" + name;
        for (const el of document.querySelectorAll("[" + name + "]")) {
          if (el.closest('[data-testid="stVegaLiteChart"]')) continue;  // a chart's name is ours already
          const now = el.getAttribute(name), original = el.getAttribute(keep);
          const base = original !== null && now === el.getAttribute(keep + "-said") ? original : now;
          const wanted = say(base);
          if (wanted !== now) {
            el.setAttribute(keep, base);
            el.setAttribute(keep + "-said", wanted);
            el.setAttribute(name, wanted);
          }
        }
      }
      const skip = document.querySelector('[data-testid="stSkipToContent"]');
      const text = skip && skip.firstChild;  // its one text node: changed in place, React keeps its node
      if (text && text.nodeType === Node.TEXT_NODE) {
        skip.dataset.tbtText = skip.dataset.tbtText || text.nodeValue;
        const wanted = say(skip.dataset.tbtText);
        if (text.nodeValue !== wanted) text.nodeValue = wanted;
      }
    };
    let pending = 0;  // at most one look per 200 ms, however often the page changes (a debounce would starve)
    const soon = () => { if (!pending) pending = setTimeout(() => { pending = 0; reach(); translate(); }, 200); };
    window.__tbtScrollWatch = new MutationObserver(soon);
    window.__tbtScrollWatch.observe(document.body, {childList: true, subtree: true, attributes: true,
                                                    attributeFilter: ["aria-label", "title", "placeholder"]});
    window.addEventListener("resize", soon);
    window.__tbtTidy = () => { reach(); translate(); };
  }
  window.__tbtTidy();
  if (!document.getElementById(%(live)s)) {  // a polite live region outside React's tree: it outlives reruns
    const live = document.createElement("div");
    live.id = %(live)s;
    live.className = "tbt-sr-only";
    live.setAttribute("role", "status");
    live.setAttribute("aria-live", "polite");
    live.setAttribute("aria-atomic", "true");
    document.body.appendChild(live);
  }
})();
</script>
"""


def _js(value) -> str:
    """A JavaScript literal (a string, or an object of strings) that is safe inside a <script> element."""
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def streamlit_words() -> dict[str, str]:
    """Streamlit's own English labels (its buttons' aria-labels, placeholders, the skip link) -> the visitor's
    language, from the translation table's `a11y.st.*` keys (whose English text is Streamlit's label). Empty in
    English. "Help for " is a prefix: Streamlit labels each help icon "Help for <the widget's label>"."""
    if lang() == "en":
        return {}
    from ui.i18n import table

    return {en: t(key) for key, (_, en) in table().items() if key.startswith("a11y.st.")}


def _compact(code: str) -> str:
    """The CSS or script as sent: without its comments and indentation (it goes to the browser on every run)."""
    code = re.sub(r"/\*.*?\*/", "", code, flags=re.S)  # CSS comments (the script has none of this form)
    lines = (re.sub(r"\s+// .*$", "", line).strip() for line in code.splitlines())  # the script's "  // ..." ones
    return "\n".join(line for line in lines if line)


_SENT = _compact(CSS) + _compact(_SCRIPT)


def setup_html() -> str:
    """The setup element's body for the visitor's language."""
    values = {"lang": _js(lang()), "live": _js(LIVE_ID), "words": _js(streamlit_words())}
    return f'<div class="tbt-setup">{_SENT % values}</div>'


def page_setup() -> None:
    """Draw the language script, the CSS and the live region (call once per run, from app.py)."""
    st.html(setup_html(), unsafe_allow_javascript=True)


def announce(text: str) -> None:
    """Have a screen reader say `text` (politely, when it is idle): it is put into the page's live region.
    The text is ours (from t()), with numbers; anything else is still escaped, it lands as textContent."""
    n = st.session_state.get("_a11y_announce", 0) + 1  # a new body each time, so the same text is said again
    st.session_state["_a11y_announce"] = n
    st.session_state["_a11y_text"] = text  # what was said last (the app tests read it)
    st.html(f'<div class="tbt-sr-only" data-n="{n}"><script>(() => {{ const live = document.getElementById('
            f'{_js(LIVE_ID)}); if (live) {{ live.textContent = ""; setTimeout(() => {{ live.textContent = '
            f'{_js(text)}; }}, 150); }} }})();</script></div>', unsafe_allow_javascript=True)


def announce_once(event, text: str) -> None:
    """Announce `text` the first run that sees `event` (any hashable: what finished, e.g. (prompt, steps)); later
    runs with the same event say nothing again (a slider moved after a generation does not repeat its end)."""
    if st.session_state.get("_a11y_said") == event:
        return
    st.session_state["_a11y_said"] = event
    announce(text)


def sr_only(text: str) -> None:
    """A paragraph that only assistive technology reads (escaped: it may hold the model's tokens)."""
    st.html(f'<p class="tbt-sr-only">{html.escape(text)}</p>')


# ---- chart text alternatives -------------------------------------------------------------------------------

_POSITIONAL = ("x", "y")
_MEASURES = ("x", "y", "theta", "color", "size", "opacity")


def _parts(spec: dict) -> Iterator[dict]:
    """The spec and every sub-spec (layers, concatenations, facets)."""
    yield spec
    for key in ("layer", "hconcat", "vconcat", "concat"):
        for sub in spec.get(key) or []:
            if isinstance(sub, dict):
                yield from _parts(sub)
    if isinstance(spec.get("spec"), dict):
        yield from _parts(spec["spec"])


def _titles(spec: dict) -> dict[str, str]:
    """field -> a title in the visitor's language, from any channel or tooltip of the spec that names it."""
    titles: dict[str, str] = {}
    for part in _parts(spec):
        for channel in (part.get("encoding") or {}).values():
            for enc in channel if isinstance(channel, list) else [channel]:
                if not isinstance(enc, dict) or not isinstance(enc.get("field"), str):
                    continue
                title = enc.get("title")
                if not isinstance(title, str):
                    axis = enc.get("axis") or enc.get("legend")
                    title = axis.get("title") if isinstance(axis, dict) else None
                if isinstance(title, str) and title.strip() and enc["field"] not in titles:
                    titles[enc["field"]] = title.strip()
    return titles


def _encodings(spec: dict, df: pd.DataFrame) -> Iterator[dict[str, dict]]:
    """Per mark layer: its channels whose field is a plain column of df (not aggregated, not binned)."""
    for part in _parts(spec):
        enc = part.get("encoding") or {}
        usable = {ch: e for ch, e in enc.items() if isinstance(e, dict) and e.get("field") in df.columns
                  and not e.get("aggregate") and not e.get("bin") and ch in _MEASURES}
        if usable:
            yield usable


def _number(value, enc: dict) -> str:
    fmt = str(((enc.get("axis") or {}) if isinstance(enc.get("axis"), dict) else {}).get("format") or "")
    if not fmt and isinstance(enc.get("legend"), dict):
        fmt = str(enc["legend"].get("format") or "")
    v = float(value)
    if "%" in fmt:
        return fmt_pct(v, 1)
    if math.isfinite(v) and v == int(v) and abs(v) < 1e15:
        return fmt_int(int(v))
    a = abs(v)
    return fmt_float(v, 0 if a >= 100 else 2 if a >= 1 else 3)


def _label(value) -> str:
    if isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)):
        v = float(value)
        if not math.isfinite(v):
            return str(v)
        return fmt_int(int(v)) if v == int(v) else fmt_float(v, 2)
    if isinstance(value, pd.Timestamp):
        return str(value)
    return f"“{value}”"


def _is_measure(e: dict) -> bool:
    return e.get("type") == "quantitative"


def summarise(chart_spec: dict, frames: list[pd.DataFrame]) -> str:
    """A chart's text alternative: its title, then the numbers that matter for its shape (the highest bars,
    a curve's peak and last value, a grid's highest cell), in the visitor's language."""
    title = chart_spec.get("title")
    if isinstance(title, dict):
        title = title.get("text")
    head = t("a11y.chart.titled", title=title) if isinstance(title, str) and title.strip() else t("a11y.chart")
    frames = [f for f in frames if f is not None and not f.empty]
    if not frames:
        return f"{head}. {t('a11y.chart.empty')}."
    titles = _titles(chart_spec)
    name = lambda f: titles.get(f, f)  # noqa: E731
    for df in frames:
        for enc in _encodings(chart_spec, df):
            body = _describe(enc, df, name)
            if body:
                return f"{head}. {body}."
    return f"{head}. {t('a11y.chart.rows', n=fmt_int(len(frames[0])))}."


def short_name(chart_spec: dict) -> str:
    """The chart's accessible name (Vega-Lite's `description`, which Vega puts on the drawn SVG's aria-label): its
    title, or what its two axes show, read from the spec alone, so it stays the same when only the data changes.
    Without it a screen reader names the chart by every label and value drawn in it, run together."""
    title = chart_spec.get("title")
    if isinstance(title, dict):
        title = title.get("text")
    if isinstance(title, str) and title.strip():
        return t("a11y.chart.titled", title=title.strip())
    titles = _titles(chart_spec)  # only titled fields: an untitled one is an internal name ("row", "x2")
    named = lambda e: isinstance(e, dict) and titles.get(e.get("field")) is not None  # noqa: E731
    for part in _parts(chart_spec):
        enc = part.get("encoding") or {}
        x, y = enc.get("x"), enc.get("y")
        color = enc.get("color")
        if named(x) and named(y) and not _is_measure(x) and not _is_measure(y) and named(color) and _is_measure(color):
            return t("a11y.chart.titled", title=titles[color["field"]])  # a grid: what its colour measures
        if named(x) and named(y):
            value, label = (x, y) if _is_measure(x) and not _is_measure(y) else (y, x)
            return t("a11y.chart.of", value=titles[value["field"]], by=titles[label["field"]])
    for part in _parts(chart_spec):
        for channel in ("x", "y", "color", "theta"):
            e = (part.get("encoding") or {}).get(channel)
            if named(e) and _is_measure(e):
                return t("a11y.chart.titled", title=titles[e["field"]])
    return t("a11y.chart")


def _columns(df: pd.DataFrame, *fields: str) -> pd.DataFrame:
    """The rows of `fields` with a value in each, numbered 0..n-1 (a chart's frame may repeat index labels, and
    two channels may read the same field)."""
    return df[list(dict.fromkeys(fields))].dropna().reset_index(drop=True)


def _curve(df: pd.DataFrame, x: dict, y: dict, name, label: str | None = None) -> str | None:
    """One curve: its points, span, peak and last value (`label`: which series, when a chart draws several)."""
    rows = _columns(df, x["field"], y["field"]).sort_values(x["field"], kind="stable")
    if rows.empty:
        return None
    peak = rows.iloc[int(rows[y["field"]].to_numpy().argmax())]
    text = t("a11y.chart.curve", n=fmt_int(len(rows)), y=name(y["field"]), x=name(x["field"]),
             x0=_label(rows[x["field"]].iloc[0]), x1=_label(rows[x["field"]].iloc[-1]),
             peak=_number(peak[y["field"]], y), at=_label(peak[x["field"]]), last=_number(rows[y["field"]].iloc[-1], y))
    return t("a11y.chart.series", name=label, text=text) if label else text


def _describe(enc: dict[str, dict], df: pd.DataFrame, name) -> str | None:
    x, y = enc.get("x"), enc.get("y")
    measures = [e for ch, e in enc.items() if _is_measure(e)]
    if x and y and _is_measure(x) != _is_measure(y):  # bars: one axis counts, the other names
        value, label = (x, y) if _is_measure(x) else (y, x)
        rows = _columns(df, value["field"], label["field"]).sort_values(value["field"], ascending=False, kind="stable")
        rows = rows.drop_duplicates(label["field"])
        if rows.empty:
            return None
        items = [f"{_label(r[label['field']])} {_number(r[value['field']], value)}" for _, r in rows.head(3).iterrows()]
        text = t("a11y.chart.bars", n=fmt_int(len(rows)), value=name(value["field"]), top=items[0])
        return text + ("; " + t("a11y.chart.then", rest=", ".join(items[1:])) if len(items) > 1 else "")
    if x and y and _is_measure(y) and x.get("type") in ("quantitative", "temporal", "ordinal"):  # a curve
        series = enc.get("color")
        if series and not _is_measure(series) and df[series["field"]].nunique() > 1:  # several curves: one by one
            parts = [_curve(group, x, y, name, label=_label(value)) for value, group in
                     _columns(df, x["field"], y["field"], series["field"]).groupby(series["field"], sort=False)]
            return ". ".join(p for p in parts if p) or None
        return _curve(df, x, y, name)
    color = enc.get("color")
    if x and y and color and _is_measure(color):  # a grid (heatmap)
        rows = _columns(df, x["field"], y["field"], color["field"])
        if rows.empty:
            return None
        peak = rows.iloc[int(rows[color["field"]].to_numpy().argmax())]
        return t("a11y.chart.grid", rows=fmt_int(rows[y["field"]].nunique()), cols=fmt_int(rows[x["field"]].nunique()),
                 value=name(color["field"]), peak=_number(peak[color["field"]], color), y=name(y["field"]),
                 at_y=_label(peak[y["field"]]), x=name(x["field"]), at_x=_label(peak[x["field"]]))
    if measures:
        m = measures[0]
        col = pd.to_numeric(df[m["field"]], errors="coerce").dropna()
        if col.empty:
            return None
        return t("a11y.chart.values", n=fmt_int(len(col)), value=name(m["field"]), low=_number(col.min(), m),
                 high=_number(col.max(), m))
    return None
