"""What different heads do, measured: an 18 x 4 grid per habit, the heads ranked, the patterns named in words.

Shared by the attention page and the "Why this token?" page. Layers and heads are shown from 1 (ui.numbering).
"""
from __future__ import annotations

import functools

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from model_backend.lessons import attention as att
from ui.charts import OKABE_ITO, SEQUENTIAL, show
from ui.export import downloads, files_shown
from ui.i18n import fmt_pct, t
from ui.numbering import head_no, layer_no
from ui.untrusted import escape_markdown
from ui.widgets import data_table

GRID_HEIGHT = 180  # px of an 18 x 4 grid (also passed to st.altair_chart, which otherwise drew them flat)
THRESHOLDS = {"bos": 0.5, "previous": 0.4, "same": 0.3}  # "more than this share" names a head for a pattern
OUTLINED = 3  # the grid outlines this many highest heads, and its caption names them
FEW = 0.5  # "few heads specialise" only when fewer than this share of the heads pass a pattern's threshold
TOP = 5  # heads ranked per habit
MARK = OKABE_ITO[5]  # vermilion outline on the top heads


def head_name(layer: int, head: int) -> str:
    """'Layer 6, head 2' for the 0-based indices (5, 1): the attention page's own name for a head."""
    return t("attention.view.one", layer=layer_no(layer), head=head_no(head))


def head_frame(values: np.ndarray) -> pd.DataFrame:
    """One row per head, numbered from 1, with the cell's corners. (A column named "head" drew no cells.)"""
    n_layers, n_heads = values.shape
    df = pd.DataFrame([{"layer": layer_no(layer), "head_no": head_no(head), "value": float(values[layer, head])}
                       for layer in range(n_layers) for head in range(n_heads)])
    df["x0"], df["x1"] = df["layer"] - 0.46, df["layer"] + 0.46
    df["y0"], df["y1"] = df["head_no"] - 0.46, df["head_no"] + 0.46
    return df


def head_grid(df: pd.DataFrame, title: str, diverging: bool, fmt: str = ".3f",
              marked: list[tuple[int, int]] = (), heading: str | None = None,
              legend: str | None = None) -> alt.LayerChart | alt.Chart:
    """The grid of heads, layers across and heads down (wide enough for phones and projectors alike).

    title: the value's name (tooltip, and legend unless `legend` is given); heading: the chart's title;
    marked: 0-based (layer, head) pairs outlined in vermilion (the top heads the caption names).
    """
    finite = df["value"][np.isfinite(df["value"])]
    top = float(np.abs(finite).max()) if len(finite) else 1.0
    top = top or 1.0
    scale = (alt.Scale(scheme="blueorange", domain=[top, -top]) if diverging
             else alt.Scale(scheme=SEQUENTIAL, domain=[0, top]))
    n_layers, n_heads = int(df["layer"].max()), int(df["head_no"].max())
    x = alt.X("x0:Q", title=t("heads.axis.layer"), scale=alt.Scale(domain=[0.5, n_layers + 0.5], nice=False),
              axis=alt.Axis(values=list(range(1, n_layers + 1)), format="d", grid=False))
    y = alt.Y("y0:Q", title=t("heads.axis.head"), scale=alt.Scale(domain=[0.5, n_heads + 0.5], nice=False,
                                                                  reverse=True),
              axis=alt.Axis(values=list(range(1, n_heads + 1)), format="d", grid=False))
    tooltip = [alt.Tooltip("layer:Q", title=t("heads.axis.layer")), alt.Tooltip("head_no:Q", title=t("heads.axis.head")),
               alt.Tooltip("value:Q", title=title, format=fmt)]
    cells = alt.Chart(df).mark_rect().encode(
        x=x, x2="x1:Q", y=y, y2="y1:Q", tooltip=tooltip,
        color=alt.Color("value:Q", title=legend or title, scale=scale,
                        legend=alt.Legend(orient="right", gradientLength=150, format=fmt.replace(".1%", ".0%"))),
    ).properties(height=GRID_HEIGHT)
    if not marked:
        return cells.properties(title=heading) if heading else cells
    picked = df[df.apply(lambda r: (int(r["layer"]) - 1, int(r["head_no"]) - 1) in set(marked), axis=1)]
    ring = alt.Chart(picked).mark_rect(fill=None, stroke=MARK, strokeWidth=2.5).encode(
        x=x, x2="x1:Q", y=y, y2="y1:Q", tooltip=tooltip)
    return alt.layer(cells, ring, title=heading) if heading else alt.layer(cells, ring)


# ---------------------------------------------------------------- words and tables


def names(pairs) -> str:
    return "; ".join(head_name(int(a), int(b)) for a, b in pairs)


def above(values: np.ndarray, share: float) -> list[tuple[int, int]]:
    """The heads whose value is above `share`, highest first (0-based)."""
    v = np.nan_to_num(values, nan=-1.0)
    order = np.argsort(-v, axis=None, kind="stable")
    return [(int(i // v.shape[1]), int(i % v.shape[1])) for i in order if v.flat[i] > share]


def measure_name(habit: str) -> str:
    return t(f"heads.{habit}")


def sentences(h: att.HeadHabits) -> list[str]:
    """The patterns a class can see, each sentence computed from the measurements (Markdown-safe)."""
    n = h.bos.size
    sinks = int((np.nan_to_num(h.bos) > THRESHOLDS["bos"]).sum())
    out = [t("heads.sink" if sinks else "heads.sink.none", k=sinks, n=n, pct=fmt_pct(THRESHOLDS["bos"], 0))]
    pct = fmt_pct(THRESHOLDS["previous"], 0)
    out.append(t("heads.prev", pct=pct, heads=names(above(h.previous, THRESHOLDS["previous"]))
                 or t("heads.nobody", pct=pct)))
    if h.n_same:
        pct = fmt_pct(THRESHOLDS["same"], 0)
        out.append(t("heads.dup", pct=pct, heads=names(above(h.same, THRESHOLDS["same"])) or t("heads.nobody", pct=pct)))
    items = [t("heads.item", measure=escape_markdown(measure_name(habit)), head=head_name(la, he),
               value=fmt_pct(v), median=fmt_pct(h.median(habit)))
             for habit in att.HABITS for la, he, v in h.top(habit, 1)]
    k = specialised(h)
    out.append(t("heads.far", items="; ".join(items), k=k, n=n,
                 verdict=t("heads.verdict.few" if k < FEW * n else "heads.verdict.many")))
    return out


def specialised(h: att.HeadHabits) -> int:
    """How many heads pass the threshold of a content pattern (previous token, or duplicate token where the text
    repeats one). <bos> is left out: resting there is what a head does when it does not specialise."""
    hit = np.nan_to_num(h.previous, nan=-1.0) > THRESHOLDS["previous"]
    if h.n_same:
        hit |= np.nan_to_num(h.same, nan=-1.0) > THRESHOLDS["same"]
    return int(hit.sum())


def ranking(h: att.HeadHabits, k: int = TOP) -> pd.DataFrame:
    """The k highest heads per habit, named from 1, with their share."""
    table = {t("heads.col.rank"): list(range(1, k + 1))}
    for habit in att.HABITS:
        top = h.top(habit, k)
        cells = [f"{head_name(la, he)} · {fmt_pct(v)}" for la, he, v in top]
        table[measure_name(habit)] = cells + ["—"] * (k - len(cells))
    return pd.DataFrame(table)


def habits_frame(h: att.HeadHabits) -> pd.DataFrame:
    """Every head's three measures, layers and heads numbered from 1 (the download)."""
    n_layers, n_heads = h.bos.shape
    return pd.DataFrame([{"layer": layer_no(la), "head": head_no(he), **{m: float(h.of(m)[la, he]) for m in att.HABITS}}
                         for la in range(n_layers) for he in range(n_heads)])


def positions(h: att.HeadHabits, n_tokens: int, habit: str) -> int:
    """How many query positions a habit is averaged over."""
    return {"bos": max(n_tokens - 1, 0), "previous": max(n_tokens - 2, 0), "same": h.n_same}[habit]


# ---------------------------------------------------------------- the panel


def grid_caption(h: att.HeadHabits, habit: str, n_tokens: int) -> str:
    top = "; ".join(f"{head_name(la, he)} ({fmt_pct(v)})" for la, he, v in h.top(habit, OUTLINED))
    n_layers, n_heads = h.bos.shape
    return t("heads.grid.caption", measure=measure_name(habit), n=h.bos.size, layers=n_layers, heads=n_heads, k=OUTLINED,
             q=positions(h, n_tokens, habit), top=top, median=fmt_pct(h.median(habit)))


def panel(h: att.HeadHabits, n_tokens: int, key: str) -> None:
    """An 18 x 4 grid per habit (top heads outlined), the sentences, the ranking and the downloads."""
    st.markdown(t("heads.seen"))
    for sentence in sentences(h):
        st.markdown(f"- {sentence}")  # our sentences: head names and numbers only, no model text
    for habit in att.HABITS:
        if habit == "same" and not h.n_same:
            st.info(t("heads.none"), icon=":material/info:")
            continue
        marked = [(la, he) for la, he, _v in h.top(habit, 3)]
        show(head_grid(head_frame(h.of(habit)), measure_name(habit), diverging=False, fmt=".1%", marked=marked,
                       heading=t(f"heads.chart.{habit}"), legend=t("heads.axis.share")), height=GRID_HEIGHT + 80)
        st.caption(grid_caption(h, habit, n_tokens))
    st.markdown(f"**{t('heads.rank', k=TOP)}**")
    data_table(ranking(h), hide_index=True, width="stretch")
    st.caption(t("heads.rank.caption") + (" " + t("heads.rank.files") if files_shown() else ""))
    downloads(functools.partial(habits_frame, h), "head-habits", f"{key}_habits")  # built on a click
