"""The decoding page's drawing: its controls, charts and sections. It takes what ui.decoding.compute returned and
never reaches the model; a section that runs on a click has an "ask" half (its controls: the settings to run, or
None before the click) and a "result" half, and a progress bar is a context manager that yields the callback."""
from __future__ import annotations

import zlib
from contextlib import contextmanager

import altair as alt
import pandas as pd
import streamlit as st

from model_backend.lessons import decoding as dec
from ui import a11y
from ui.charts import OKABE_ITO, cached_chart, projection_on, show
from ui.chip_layout import BUDGETS, UNIT_PX, label_units, wrap
from ui.decoding.compute import BENCH_PROMPTS, KEPT_S, LOOP_TOKENS
from ui.i18n import fmt_float, fmt_int, fmt_pct, t
from ui.share import Param
from ui.widgets import data_table, model_text

SENTENCES = {"pt-BR": "O gato sentou no tapete e olhou pela janela.",
             "en": "The cat sat on the mat and looked out of the window."}
MAX_LABEL = 14
COLOURS = {"kept": OKABE_ITO[0], "pruned": "#8c8c8c", "ended": OKABE_ITO[3], "winner": OKABE_ITO[1]}
# ---------------------------------------------------------------- settings and links


def default_prompt(lang: str) -> str:
    """A story opening from the shipped prompts, in the visitor's language (degeneration needs room to show)."""
    return next(p["text"] for p in BENCH_PROMPTS if p["lang"] == lang)


def link_params() -> list[Param]:
    """What a shared link carries: the prompt and every setting of the page."""
    n = len(BENCH_PROMPTS)
    return [Param("prompt", "prompt_decoding", str, default_prompt("pt-BR")),
            Param("w", "decoding_width", int, 4, choices=dec.BEAM_WIDTHS),
            Param("n", "decoding_tokens", int, 60, low=dec.MIN_NEW, high=dec.MAX_NEW),
            Param("seed", "decoding_seed", int, 0, low=0, high=2**31 - 1),
            Param("fb", "decoding_sentence", str, SENTENCES["pt-BR"]),
            Param("fbn", "decoding_times", int, 8, low=2, high=15),
            Param("fbr", "decoding_penalty", float, 1.3, low=1.0, high=2.0),
            Param("bp", "decoding_bench_prompt", int, 0, low=0, high=n - 1)]


def strategy_label(strategy: str, width: int) -> str:
    return t(f"decoding.strategy.{strategy}", w=width, k=dec.TOP_K, p=fmt_float(dec.TOP_P, 2))


# ---------------------------------------------------------------- runs: progress and notes


@contextmanager
def running():
    """A progress bar over the page's runs: yields `progress(stage, n, total)` for compute (the bar is
    live feedback of this visitor's computation; a run found kept tells it nothing)."""
    bar = st.progress(0.0)
    names = {"all": t("decoding.progress.all"), "bench": t("decoding.progress.bench")}

    def progress(stage: str, n: int, total: int) -> None:
        bar.progress(min(n / total, 1.0), text=t("decoding.progress", what=names[stage], n=min(n, total), total=total))
    try:
        yield progress
    finally:
        bar.empty()


def dtype_note(run: str, visitor: str) -> str | None:
    """A line saying that section 1 runs in float32 and why, when it does not run in the visitor's dtype."""
    return None if run == visitor else t("decoding.dtype.note", dtype=run, was=visitor)


def truncated(n: int, limit: int) -> None:
    """The prompt is longer than the page feeds the model."""
    if n > limit:
        st.info(t("common.truncated", n=fmt_int(n), kept=fmt_int(limit)), icon=":material/content_cut:")


def cpu_name(machine: dict) -> str:
    """A CPU as the page names it: its model and torch's kernel level ("AMD EPYC, AVX512"), or what is known."""
    parts = [machine.get("cpu"), machine.get("cpu_capability")]
    return ", ".join(p for p in parts if p) or machine.get("machine", "?")


def metrics_frame(conts: list[dec.Continuation], width: int) -> pd.DataFrame:
    return pd.DataFrame({
        t("decoding.col.strategy"): [strategy_label(c.strategy, width) for c in conts],
        t("decoding.col.tokens"): [len(c.token_ids) for c in conts],
        t("decoding.col.repeated"): [fmt_pct(c.repeated) for c in conts],
        t("decoding.col.distinct1"): [fmt_float(c.distinct1, 2) for c in conts],
        t("decoding.col.distinct2"): [fmt_float(c.distinct2, 2) for c in conts],
        t("decoding.col.logprob"): [fmt_float(c.mean_logprob, 2) for c in conts],
        t("decoding.col.seconds"): [t("decoding.batch", s=fmt_float(c.seconds, 1))
                                    if c.strategy in dec.SAMPLED else fmt_float(c.seconds, 1) for c in conts],
    })


def _short(label: str) -> str:
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


def text_frame(conts: list[dec.Continuation], width: int) -> pd.DataFrame:
    """One row per token of every continuation (and one header row per strategy), laid out for every width
    budget: x and row per budget, strategies one under the other."""
    rows = []
    for c in conts:
        mask = dec.repeated_mask(c.token_ids)
        name = strategy_label(c.strategy, width)
        rows.append({"strategy": name, "label": name, "full": name, "step": 0, "repeated": False, "header": True,
                     "w": 0.0})
        for i, (tok, rep) in enumerate(zip(c.tokens, mask)):
            label = _short(tok) or "∅"
            rows.append({"strategy": name, "label": label, "full": tok, "step": i + 1, "repeated": rep,
                         "header": False, "w": max(label_units(label), 1.0) + 0.6})
    df = pd.DataFrame(rows)
    df["rep_text"] = [t("decoding.yes") if r else t("decoding.no") for r in df["repeated"]]
    for budget in BUDGETS:
        xs, rs, offset = [], [], 0
        for _, group in df.groupby("strategy", sort=False):
            body = group[~group["header"]]
            placed = wrap(list(body["w"]), budget, gap=0.3)
            xs += [0.0] + [x for x, _ in placed]
            rs += [offset] + [offset + 1 + r for _, r in placed]
            offset += 2 + (max(r for _, r in placed) if placed else 0)
        df[f"x_{budget}"], df[f"row_{budget}"] = xs, rs
    return df


def _budget_expr() -> str:
    expr = str(BUDGETS[0])
    for b in BUDGETS[1:]:
        expr = f"width >= {b * UNIT_PX:g} ? {b} : ({expr})"
    return expr


def text_chart(df: pd.DataFrame) -> alt.Chart:
    """The continuations as token chips that wrap like text; tokens of a repeated 4-gram filled orange."""
    budget = alt.param(name="budget", expr=_budget_expr())
    base = alt.Chart(df).transform_calculate(x="datum['x_' + budget]", row="datum['row_' + budget]",
                                             ).transform_calculate(x2="datum.x + datum.w", mid="datum.x + datum.w / 2")
    scale = alt.Scale(domainMin=0, domainMax=alt.ExprRef(expr="budget"), nice=False, zero=True)
    y = alt.Y("row:O", axis=None, scale=alt.Scale(paddingInner=0.15, paddingOuter=0.05))
    tips = [alt.Tooltip("strategy:N", title=t("decoding.col.strategy")),
            alt.Tooltip("step:Q", title=t("decoding.col.position")),
            alt.Tooltip("full:N", title=t("decoding.col.token")),
            alt.Tooltip("rep_text:N", title=t("decoding.col.repeat"))]
    body = base.transform_filter("!datum.header")
    fill = alt.condition("datum.repeated", alt.value(OKABE_ITO[1]), alt.value("#ffffff"))
    rect = body.mark_rect(cornerRadius=4, stroke="#777777", strokeWidth=0.6).encode(
        x=alt.X("x:Q", axis=None, scale=scale), x2="x2:Q", y=y, fill=fill, tooltip=tips)
    word = body.mark_text(fontSize=14, color="#111111").encode(x=alt.X("mid:Q", scale=scale), y=y, text="label:N",
                                                             tooltip=tips)
    head = base.transform_filter("datum.header").mark_text(fontSize=15, fontWeight="bold", align="left",
                                                           color=OKABE_ITO[0]).encode(
        x=alt.X("x:Q", scale=scale), y=y, text="label:N", tooltip=tips[:1])
    return alt.layer(rect, word, head).add_params(budget).properties(height=alt.Step(26))


# ---------------------------------------------------------------- section 2: the beam tree


def tree_frames(run: dec.BeamRun) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Nodes (x = step, y = place in the step, best first) and edges (parent -> child) for the tree chart."""
    nodes = sorted(run.nodes, key=lambda n: (n.step, n.rank))
    place, y = {}, {}
    for n in nodes:
        place[n.step] = place.get(n.step, -1) + 1
        y[n.id] = place[n.step]
    top = max(place.values(), default=0)
    root_y = 0.0
    status = {s: t(f"decoding.status.{s}") for s in ("kept", "pruned", "ended", "winner")}
    df = pd.DataFrame({
        "id": [n.id for n in nodes], "step": [n.step for n in nodes], "y": [y[n.id] for n in nodes],
        "label": [_short(n.token) or "∅" for n in nodes], "token": [n.token for n in nodes],
        "cum": [n.cum for n in nodes], "logp": [n.logprob for n in nodes], "rank": [n.rank for n in nodes],
        "kind": [status["winner"] if n.winner else status[n.status] for n in nodes],
    })
    parent_y = {n.id: y[n.id] for n in nodes}
    edges = pd.DataFrame({
        "x": [n.step - 1 for n in nodes], "y": [parent_y.get(n.parent, root_y) for n in nodes],
        "x2": [n.step for n in nodes], "y2": [y[n.id] for n in nodes],
        "kind": list(df["kind"]), "token": list(df["token"]), "cum": list(df["cum"]),
    })
    df.attrs["rows"] = top + 1
    return df, edges


def tree_chart(df: pd.DataFrame, edges: pd.DataFrame, selected: int | None) -> alt.LayerChart:
    """The beam search's first steps: one column per step, candidates best first; click a node."""
    order = [t(f"decoding.status.{s}") for s in ("winner", "kept", "pruned", "ended")]
    colour = alt.Color("kind:N", title=t("decoding.tree.status"),
                       scale=alt.Scale(domain=order, range=[COLOURS[s] for s in ("winner", "kept", "pruned", "ended")]),
                       legend=alt.Legend(orient="top", labelLimit=0, columns=2))  # whole labels, also at 390 px
    xs = alt.Scale(domain=[-0.2, float(df["step"].max()) + 0.9])
    ys = alt.Scale(reverse=True, nice=False)
    x = alt.X("step:Q", title=t("decoding.tree.axis.step"), axis=alt.Axis(tickMinStep=1, format="d"), scale=xs)
    y = alt.Y("y:Q", title=t("decoding.tree.axis.rank"), scale=ys, axis=alt.Axis(labels=False, ticks=False, grid=False))
    tips = [alt.Tooltip("token:N", title=t("decoding.col.token")),
            alt.Tooltip("kind:N", title=t("decoding.tree.status")),
            alt.Tooltip("logp:Q", title=t("decoding.col.logp"), format=".2f"),
            alt.Tooltip("cum:Q", title=t("decoding.col.cum"), format=".2f"),
            alt.Tooltip("rank:Q", title=t("decoding.col.rank"))]
    lines = alt.Chart(edges).mark_rule(strokeWidth=1.5, opacity=0.7).encode(
        x=alt.X("x:Q", scale=xs), x2="x2:Q", y=alt.Y("y:Q", scale=ys), y2="y2:Q", color=colour,
        tooltip=[alt.Tooltip("token:N", title=t("decoding.col.token")),
                 alt.Tooltip("cum:Q", title=t("decoding.col.cum"), format=".2f")])
    pick = alt.selection_point(name="node", fields=["id"], on="click", clear="dblclick")
    size = alt.condition(f"datum.id == {int(selected)}", alt.value(420), alt.value(160)) if selected is not None \
        else alt.value(160)
    dots = alt.Chart(df).mark_circle(opacity=1, stroke="#111111", strokeWidth=0.5).encode(
        x=x, y=y, color=colour, size=size, tooltip=tips).add_params(pick)
    words = alt.Chart(df).mark_text(align="left", dx=9, fontSize=13, color="#111111").encode(
        x=x, y=y, text="label:N", tooltip=tips)
    root = alt.Chart(pd.DataFrame({"step": [0], "y": [0.0], "label": [t("decoding.tree.root")]})).mark_square(
        size=160, color="#111111").encode(x=x, y=y, tooltip=[alt.Tooltip("label:N", title=t("decoding.col.token"))])
    legend_rows = 60 if projection_on() else 30  # the legend's second row
    height = max(320, 40 * int(df.attrs.get("rows", 8))) + legend_rows  # projection: ui.charts.finish adds room
    return alt.layer(lines, root, dots, words).properties(height=height)


def tree_key(run: dec.BeamRun) -> str:
    """The tree chart's key: its width and a digest of the winning tokens, so that a node picked on one run's tree
    (its selection, kept in session_state under the key) is not read as a node of another run's tree."""
    digest = zlib.crc32(repr((run.width, run.continuation.token_ids)).encode())
    return f"decoding_tree_{run.width}_{digest:08x}"


def climb(means: list[float]) -> str:
    """How the feedback curve moves over the copies: "climbs" (up at every copy), "rises" (last above first, not
    at every copy) or "flat" (not above the first). Names strings decoding.loop.{climbs, rises, flat}."""
    if len(means) > 1 and all(b > a for a, b in zip(means, means[1:])):
        return "climbs"
    return "rises" if len(means) > 1 and means[-1] > means[0] else "flat"


def picked_node(selection, node_ids) -> int | None:
    """The node a click picked, from st.altair_chart's selection state ({"node": [{"id": 5}]}), or None when
    nothing (or a node that no longer exists) is picked. Pure, so it can be tested without a browser."""
    try:
        points = selection.get("node") or []
        value = int(points[0]["id"])
    except (AttributeError, IndexError, KeyError, TypeError, ValueError):
        return None
    return value if value in set(node_ids) else None


def step_frame(run: dec.BeamRun, step: int) -> pd.DataFrame:
    """A step's candidates, best first, with the beam each one extends."""
    by_id = {n.id: n for n in run.nodes}

    def path(node) -> str:
        parts = []
        while node is not None:
            parts.append(node.token)
            node = by_id.get(node.parent)
        return "".join(reversed(parts))

    cands = dec.step_candidates(run.nodes, step)
    status = {s: t(f"decoding.status.{s}") for s in ("kept", "pruned", "ended")}
    return pd.DataFrame({
        t("decoding.col.rank"): [n.rank for n in cands],
        t("decoding.col.beam"): [path(n) for n in cands],
        t("decoding.col.token"): [n.token for n in cands],
        t("decoding.col.logp"): [fmt_float(n.logprob, 2) for n in cands],
        t("decoding.col.cum"): [fmt_float(n.cum, 2) for n in cands],
        t("decoding.tree.status"): [status[n.status] + (" ★" if n.winner else "") for n in cands],
    })


# ---------------------------------------------------------------- section 3: the feedback loop


def feedback_frames(curve: dec.FeedbackCurve) -> tuple[pd.DataFrame, pd.DataFrame]:
    raw, pen = t("decoding.loop.raw"), t("decoding.loop.penalized", r=fmt_float(curve.penalty, 1))
    n = max(curve.repetition)
    means = pd.DataFrame({"rep": list(range(1, n + 1)) * 2, "curve": [raw] * n + [pen] * n,
                          "p": curve.means() + curve.means(True)})
    k = len(curve.probs)
    tokens = [curve.tokens[p] if r > 1 and p < len(curve.tokens) else "" for r, p in zip(curve.repetition,
                                                                                       curve.position)]
    points = pd.DataFrame({"rep": list(curve.repetition) * 2, "curve": [raw] * k + [pen] * k,
                           "p": list(curve.probs) + list(curve.penalized), "token": tokens * 2})
    return means, points


def feedback_chart(means: pd.DataFrame, points: pd.DataFrame) -> alt.LayerChart:
    large = projection_on()
    # raw first, in vermilion, in both languages (without a domain the labels' alphabetical order picked the colours);
    # the two curves' names in one row are wider than a phone's chart (the second was cut): one a row
    colour = alt.Color("curve:N", title=t("decoding.loop.curve"), legend=alt.Legend(orient="top", labelLimit=0, columns=1),
                       scale=alt.Scale(domain=list(dict.fromkeys(means["curve"])), range=[OKABE_ITO[5], OKABE_ITO[0]]))
    # at 22 px the x title centred under a phone's plot ran past its right edge: it ends with the plot there
    x = alt.X("rep:Q", title=t("decoding.loop.axis.rep"), scale=alt.Scale(zero=False, padding=14),  # from copy 1
              axis=alt.Axis(tickMinStep=1, format="d", titleAnchor="end" if large else None))
    y = alt.Y("p:Q", title=t("decoding.loop.axis.prob"), scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%"))
    mean_tips = [alt.Tooltip("curve:N", title=t("decoding.loop.curve")),
                 alt.Tooltip("rep:Q", title="n"), alt.Tooltip("p:Q", title=t("decoding.loop.axis.prob"), format=".1%")]
    tok_tips = [alt.Tooltip("curve:N", title=t("decoding.loop.curve")), alt.Tooltip("rep:Q", title="n"),
                alt.Tooltip("token:N", title=t("decoding.col.token")),
                alt.Tooltip("p:Q", title=t("decoding.loop.token_prob"), format=".1%")]
    dots = alt.Chart(points).mark_circle(size=22, opacity=0.35).encode(x=x, y=y, color=colour, tooltip=tok_tips)
    line = alt.Chart(means).mark_line(strokeWidth=3, point=alt.OverlayMarkDef(size=90, filled=True)).encode(
        x=x, y=y, color=colour, tooltip=mean_tips)
    # Streamlit lays the chart out to its height *with* the legend (two rows and a title: ~80 px) and the x axis:
    # at 340 px the plot was ~145 px and the vertical title (~210 px at 15 px) was cut at both ends
    height = 420 + (30 if large else 0)  # projection mode: ui.charts.finish makes room for its 22 px title
    return alt.layer(dots, line).properties(height=height)


# ---------------------------------------------------------------- section 4: the shipped comparison


def ordering(table: list[dict]) -> list[str]:
    """Which parts of the paper's ordering fail in a results table ([] = it holds):
    "repetition": greedy and beam are not both more repetitive than every sampled strategy;
    "coherence": pure sampling does not have the lowest mean log-prob;
    "between": top-p's mean log-prob is not strictly between pure sampling's and the lower of greedy/beam,
    or its repetition is above greedy's or beam's."""
    row = {r["strategy"]: r for r in table}
    det_rep = min(row["greedy"]["repeated"], row["beam"]["repeated"])
    det_lp = min(row["greedy"]["mean_logprob"], row["beam"]["mean_logprob"])
    fails = []
    if not det_rep > max(row[s]["repeated"] for s in dec.SAMPLED):
        fails.append("repetition")
    if not row["sampling"]["mean_logprob"] < min(r["mean_logprob"] for s, r in row.items() if s != "sampling"):
        fails.append("coherence")
    if not (row["sampling"]["mean_logprob"] < row["top_p"]["mean_logprob"] < det_lp
            and row["top_p"]["repeated"] <= det_rep):
        fails.append("between")
    return fails


def shipped_frame(table: list[dict], width: int) -> pd.DataFrame:
    """The shipped means with the measures as rows and the strategies as columns: eight measure columns were
    wider than the page at 1280 px, five strategy columns fit (and a measure reads along its row)."""
    measures = [
        ("decoding.col.repeated", lambda r: fmt_pct(r["repeated"])),
        ("decoding.col.distinct1", lambda r: fmt_float(r["distinct1"], 2)),
        ("decoding.col.distinct2", lambda r: fmt_float(r["distinct2"], 2)),
        ("decoding.col.logprob", lambda r: fmt_float(r["mean_logprob"], 2)),
        ("decoding.col.similarity", lambda r: fmt_float(r["self_similarity"], 2)),
        ("decoding.col.loops", lambda r: fmt_pct(r["ends_in_loop"], 0)),
        ("decoding.col.tokens", lambda r: fmt_float(r["tokens"], 1)),
    ]
    frame = {t("decoding.col.measure"): [t(key) for key, _ in measures]}
    for r in table:
        frame[strategy_label(r["strategy"], width)] = [show(r) for _, show in measures]
    return pd.DataFrame(frame)


@cached_chart  # the shipped table's chart: built and converted once per language and projection mode, not per visit
def tradeoff_chart(table: list[dict], width: int) -> alt.LayerChart:
    df = pd.DataFrame({"strategy": [strategy_label(r["strategy"], width) for r in table],
                       "rep": [r["repeated"] for r in table], "lp": [r["mean_logprob"] for r in table],
                       "d2": [r["distinct2"] for r in table]})
    tips = [alt.Tooltip("strategy:N", title=t("decoding.col.strategy")),
            alt.Tooltip("rep:Q", title=t("decoding.col.repeated"), format=".1%"),
            alt.Tooltip("lp:Q", title=t("decoding.col.logprob"), format=".2f"),
            alt.Tooltip("d2:Q", title=t("decoding.col.distinct2"), format=".2f")]
    base = alt.Chart(df).encode(x=alt.X("rep:Q", title=t("decoding.col.repeated"), axis=alt.Axis(format="%")),
                                y=alt.Y("lp:Q", title=t("decoding.axis.logprob"), scale=alt.Scale(zero=False)),
                                tooltip=tips)
    dots = base.mark_circle(size=180).encode(color=alt.Color("strategy:N", title=t("decoding.col.strategy"),
                                                             legend=None))
    words = base.mark_text(align="left", dx=10, fontSize=14, color="#111111").encode(text="strategy:N")
    return alt.layer(dots, words).properties(height=300)


def winner_note(run: dec.BeamRun) -> str:
    """Where the winning path left rank 1, if it did in the steps drawn (review B, DEC-2): "Repare" is said only
    about something the tree above shows."""
    off = sorted((n for n in run.nodes if n.winner and n.rank > 1), key=lambda n: n.step)
    if not off:
        return t("decoding.tree.all_first")
    return t("decoding.tree.off_first", rank=off[0].rank, step=off[0].step)


LIVE_MEASURES = (("repeated", fmt_pct), ("mean_logprob", lambda v: fmt_float(v, 2)),
                 ("distinct2", lambda v: fmt_float(v, 2)))  # the table's cells, as it shows them


def live_verdict(stored: dict, now: dict, then: dict, machine: dict) -> str:
    """Whether the stored and the new numbers agree, and on which machines (review B, DEC-3), from the cells as
    the table shows them and the two machines' CPU and threads: never asserted.

    Args:
        stored, now: strategy -> {"repeated", "mean_logprob", "distinct2", ...}.
        then, machine: the bench's machine and this one ("threads", "cpu", "cpu_capability").
    """
    cells = [(show(stored[s][m]), show(now[s][m])) for s in dec.STRATEGIES for m, show in LIVE_MEASURES]
    changed = sum(a != b for a, b in cells)
    same = (then.get("threads"), cpu_name(then)) == (machine.get("threads"), cpu_name(machine))
    key = f"decoding.live.{'same' if same else 'other'}.{'changed' if changed else 'equal'}"
    return t(key, k=changed, n=len(cells))


def live_frame(stored: dict, now: dict, width: int) -> pd.DataFrame:
    """The shipped numbers of one prompt beside the ones computed now, one cell per measure: "stored → now"
    (a pair of columns per measure was wider than the page at 1280 px)."""
    def pair(show) -> list[str]:
        return [f"{show(stored[s])} → {show(now[s])}" for s in dec.STRATEGIES]

    return pd.DataFrame({
        t("decoding.col.strategy"): [strategy_label(s, width) for s in dec.STRATEGIES],
        t("decoding.col.repeated"): pair(lambda r: fmt_pct(r["repeated"])),
        t("decoding.col.logprob"): pair(lambda r: fmt_float(r["mean_logprob"], 2)),
        t("decoding.col.distinct2"): pair(lambda r: fmt_float(r["distinct2"], 2)),
    })


def side_ask(params: list[Param], prompt: str) -> tuple[str, int, int, int] | None:
    """Section 1's controls: the settings (prompt, width, tokens, seed) once the visitor has run them, else None."""
    st.header(t("decoding.side.header"))
    st.markdown(t("decoding.side.text", k=dec.TOP_K, p=fmt_float(dec.TOP_P, 2), p_pct=fmt_pct(dec.TOP_P, 0)))
    if projection_on():  # large letters: two rows of two, so no label breaks inside a word
        c = st.columns(2, vertical_alignment="bottom") + st.columns(2, vertical_alignment="bottom")
    else:
        c = st.columns([1.5, 1.6, 0.9, 2.1], vertical_alignment="bottom")  # the button's label fits at 1280 px
    widths = {w: fmt_int(w) for w in dec.BEAM_WIDTHS}  # precomputed: AppTest formats outside the script
    if st.session_state.get("decoding_width") not in widths:  # a width is always picked (none put w=None in the link)
        st.session_state["decoding_width"] = params[1].default
    width = c[0].segmented_control(t("decoding.ctl.width"), list(widths), key="decoding_width", format_func=widths.get,
                                   help=t("decoding.ctl.width.help"), required=True)
    new = c[1].slider(t("decoding.ctl.tokens"), dec.MIN_NEW, dec.MAX_NEW, step=10, key="decoding_tokens")
    seed = int(c[2].number_input(t("decoding.ctl.seed"), 0, 2**31 - 1, step=1, key="decoding_seed"))
    settings = (prompt, int(width), int(new), seed)
    if c[3].button(t("decoding.run"), type="primary", icon=":material/play_arrow:", key="decoding_go"):
        st.session_state["decoding_ran"] = settings
    ran = st.session_state.get("decoding_ran")
    if ran is None:
        st.caption(t("decoding.run.hint", w=fmt_int(max(dec.BEAM_WIDTHS)), n=fmt_int(dec.MAX_NEW)))
        return None
    if ran != settings:
        st.caption(t("decoding.run.changed"))
        return None
    return settings


def side_result(settings: tuple[str, int, int, int], conts: list[dec.Continuation], note: str | None) -> None:
    width = settings[1]
    a11y.announce_once(("decoding", settings), t("a11y.live.strategies", n=len(conts)))
    data_table(metrics_frame(conts, width), hide_index=True, width="stretch")
    st.caption(t("decoding.table.caption", n=conts[-1].batch))  # the sampled strategies' batch
    if note:
        st.caption(note)
    show(text_chart(text_frame(conts, width)))
    st.caption(t("decoding.text.caption", n=dec.NGRAM))
    with st.expander(t("decoding.text.plain"), icon=":material/notes:"):
        for cont in conts:
            st.text(strategy_label(cont.strategy, width))
            model_text(cont.text)


def tree(beam: dec.BeamRun | None) -> None:
    st.header(t("decoding.tree.header"))
    st.markdown(t("decoding.tree.text"))
    if beam is None:
        st.caption(t("decoding.tree.none"))
        return
    nodes, edges = tree_frames(beam)
    key = tree_key(beam)  # a click on one tree is not carried to another run's tree
    picked = picked_node(st.session_state.get(key, {}).get("selection", {}), nodes["id"])
    event = show(tree_chart(nodes, edges, picked), on_select="rerun", selection_mode="node", key=key)
    picked = picked_node(getattr(event, "selection", {}) if event else {}, nodes["id"])
    steps = int(nodes["step"].max())
    kept = sum(1 for n in beam.nodes if n.step == 1 and n.status == "kept")
    st.caption(t("decoding.tree.caption", w=beam.width, steps=steps, kept=kept,
                 pruned=sum(1 for n in beam.nodes if n.step == 1 and n.status != "kept"),
                 score=fmt_float(beam.sequence_score, 3)) + " " + winner_note(beam))
    node = next((n for n in beam.nodes if n.id == picked), None)
    step = node.step if node else 1
    st.subheader(t("decoding.tree.step", n=step))
    if node:
        st.caption(t("decoding.tree.picked", rank=node.rank, n=step))
    data_table(step_frame(beam, step), hide_index=True, width="stretch")


def feedback_ask() -> tuple[str, int, float] | None:
    """Section 3's controls: the settings (sentence, times, penalty) once the visitor has run them, else None."""
    st.header(t("decoding.loop.header"))
    st.markdown(t("decoding.loop.text"))
    presets = list(SENTENCES.values())
    st.pills(t("decoding.loop.presets"), presets, key="decoding_sentence_pick", on_change=_use_sentence)
    if projection_on():  # large letters: the sentence on a row of its own, so no label is cut
        c = [st.container()] + st.columns(3, vertical_alignment="bottom")
    else:
        c = st.columns([3, 1, 1, 1], vertical_alignment="bottom")
    sentence = c[0].text_input(t("decoding.loop.sentence"), key="decoding_sentence", max_chars=300)
    times = c[1].slider(t("decoding.loop.times"), 2, 15, key="decoding_times")
    shown = {r: fmt_float(r, 1) for r in (1.1, 1.2, 1.3, 1.5, 2.0)}
    penalty = c[2].select_slider(t("decoding.loop.penalty"), list(shown), key="decoding_penalty",
                                 format_func=shown.get)
    settings = (sentence, int(times), float(penalty))
    if c[3].button(t("decoding.loop.run"), icon=":material/show_chart:", key="decoding_loop_go"):
        st.session_state["decoding_loop_ran"] = settings
    if not sentence.strip():
        feedback_empty()
        return None
    if st.session_state.get("decoding_loop_ran") != settings:
        st.caption(t("decoding.loop.hint"))
        return None
    return settings


def feedback_empty() -> None:
    st.caption(t("decoding.loop.empty"))


def feedback_result(curve: dec.FeedbackCurve, times: int) -> None:
    means, points = feedback_frames(curve)
    show(feedback_chart(means, points))
    raw, pen = curve.means(), curve.means(True)
    n = len(raw)
    if n < times:
        st.caption(t("decoding.loop.cut", n=n, limit=fmt_int(LOOP_TOKENS)))
    st.caption(t("decoding.loop.caption", first=fmt_pct(raw[0]), last=fmt_pct(raw[-1]), n=n,
                 verdict=t(f"decoding.loop.{climb(raw)}"), r=fmt_float(curve.penalty, 1), pfirst=fmt_pct(pen[0]),
                 plast=fmt_pct(pen[-1])))


def _use_sentence() -> None:
    choice = st.session_state.get("decoding_sentence_pick")
    if choice:
        st.session_state["decoding_sentence"] = choice


def comparison(data: dict | None) -> int | None:
    """Section 4, the shipped comparison, and its live check's controls: the prompt to run again now once the
    visitor asked, else None."""
    st.header(t("decoding.cmp.header"))
    if data is None:
        st.caption(t("decoding.cmp.missing"))
        return None
    s = data["settings"]
    langs = [p["lang"] for p in data["prompts"]]
    pt, en = langs.count("pt-BR"), langs.count("en")
    st.markdown(t("decoding.cmp.text", n=len(data["prompts"]), pt=pt, en=en, tokens=s["tokens"], w=s["width"],
                  samples=s["samples"], date=data["date"], wall=fmt_int(data["wall_s"])))
    if not data.get("complete", True):
        st.caption(t("decoding.cmp.partial", n=len(data["prompts"]), total=data["prompts_listed"]))
    table = data["table"]
    data_table(shipped_frame(table, s["width"]), hide_index=True, width="stretch")
    st.caption(t("decoding.cmp.caption", n=len(data["prompts"])))
    show(tradeoff_chart(table, s["width"]))
    st.caption(t("decoding.cmp.chart.caption"))
    verdict(table, s["width"])
    return live_ask(data)


def verdict(table: list[dict], width: int) -> None:
    fails = ordering(table)
    row = {r["strategy"]: r for r in table}
    if not fails:
        st.markdown(t("decoding.cmp.verdict.yes",
                      rep_det=f"{fmt_pct(row['greedy']['repeated'])} / {fmt_pct(row['beam']['repeated'])}",
                      lp_pure=fmt_float(row["sampling"]["mean_logprob"], 2), rep_p=fmt_pct(row["top_p"]["repeated"]),
                      lp_p=fmt_float(row["top_p"]["mean_logprob"], 2)))
    else:
        st.markdown(t("decoding.cmp.verdict.no", detail="; ".join(t(f"decoding.cmp.fail.{f}") for f in fails)))


def live_ask(data: dict) -> int | None:
    st.subheader(t("decoding.live.header"))
    rows = {p["index"]: p for p in data["prompts"]}  # the prompts the shipped run covered, by their index
    if st.session_state.get("decoding_bench_prompt") not in rows:
        st.session_state["decoding_bench_prompt"] = next(iter(rows))
    labels = {i: p["prompt"] for i, p in rows.items()}
    c = st.columns([3.4, 1.6], vertical_alignment="bottom")
    index = c[0].selectbox(t("decoding.live.pick"), list(labels), key="decoding_bench_prompt", format_func=labels.get)
    if c[1].button(t("decoding.live.run"), icon=":material/replay:", key="decoding_live_go"):
        st.session_state["decoding_live_ran"] = index
    s = data["settings"]
    if st.session_state.get("decoding_live_ran") != index:
        st.caption(t("decoding.live.hint", dtype=data["dtype"], n=2 + 3 * s["samples"], tokens=s["tokens"]))
        return None
    return index


def live_result(data: dict, index: int, now: dict, machine: dict) -> None:
    rows, s = {p["index"]: p for p in data["prompts"]}, data["settings"]
    data_table(live_frame(rows[index]["rows"], now, s["width"]), hide_index=True, width="stretch")
    st.caption(t("decoding.live.caption", date=data["date"], dtype=data["dtype"], threads_then=data["threads"],
                 ttl=t("decoding.live.ttl", h=fmt_int(round(KEPT_S / 3600))),
                 cpu_then=cpu_name(data), threads_now=machine["threads"], cpu_now=cpu_name(machine))
               + " " + live_verdict(rows[index]["rows"], now, data, machine))
