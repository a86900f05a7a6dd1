"""The nondeterminism page's drawing: the sampling controls, the runs and where they part, the tree of runs, float
order, the model two ways, with their downloads and the settings a link carries. It takes what
ui.nondeterminism.compute returned and never reaches the model; a panel that computes on a click has an "ask" half
(its controls: what to compute, or None before the click) and a "result" half."""
from __future__ import annotations

import math
import secrets
from contextlib import contextmanager

import altair as alt
import pandas as pd
import streamlit as st
import torch

import model_backend as mb
from model_backend.core.tokens import visible
from model_backend.lessons import nondeterminism as nd
from ui.charts import MASKED, OKABE_ITO, cached_chart, projection_on, show
from ui.export import downloads
from ui.i18n import fmt_float, fmt_int, lang, t
from ui.nondeterminism.compute import Comparison
from ui.share import Param
from ui.widgets import data_table, model_text, truncation_notice

FINISH = ("stop", "length", "stop_sequence")
BRANCH_COLOURS = list(OKABE_ITO)  # every one at least 3:1 on white, thin lines included


def cell(text: str) -> str:
    """Model text for a table cell: shown as text, line breaks made visible so rows stay one line."""
    return text.replace("\r", "").replace("\n", "↵")


def number(x: float, exact: bool = False) -> str:
    """A float32 value with the digits it really holds (or an exact sum to 9 significant digits),
    with the visitor's decimal mark."""
    text = f"{x:.9g}" if exact else nd.float32_text(x)
    return text.replace(".", ",") if lang() == "pt-BR" else text


# ---------------------------------------------------------------- links that carry the view

PAGE = "nondeterminism"
MAX_RUNS = 8
MAX_SEED = 2**31 - 1
SUM_SIZES = (1_000, 10_000, 100_000, 1_000_000)
FLOAT32_MAX = 3.4e38  # the float example inputs stay finite once rounded to float32


def link_params() -> list[Param]:
    """Everything a link to this page carries (query name, widget key, type, default, range)."""
    floats = [Param(name, f"nd_{name}", float, default, -FLOAT32_MAX, FLOAT32_MAX)
              for name, default in zip("abc", (1e8, -1e8, 1.0))]
    return [Param("prompt", f"prompt_{PAGE}", str, t("common.default_prompt")),
            Param("temperature", "nd_temperature", float, 0.7, 0.0, 1.5),
            Param("runs", "nd_runs", int, 5, 2, MAX_RUNS),
            Param("max_new", "nd_tokens", int, 12, 4, 24),
            Param("mode", "nd_mode", str, "fresh", choices=("fresh", "fixed")),
            Param("seed", "nd_seed", int, 42, 0, MAX_SEED),
            Param("seeds", "nd_seeds_link", str, ""),  # the fresh seeds, so a link repeats the same runs
            Param("vec", "nd_sum_n", int, 100_000, choices=SUM_SIZES),
            *floats,
            Param("mprompt", "nd_model_prompt", str, t("nondeterminism.model.default_prompt")),
            Param("mtokens", "nd_model_tokens", int, 20, 4, 32),
            Param("run", "nd_run", bool, False)]  # the visitor asked for runs of new prompts


def parse_seeds(raw: str) -> list[int] | None:
    """A link's "seeds" value ("12,345,...": 1 to MAX_RUNS seeds in [0, 2**31-1]) as a list, or None if bad."""
    parts = raw.split(",") if isinstance(raw, str) and len(raw) <= 12 * MAX_RUNS else []
    if not 1 <= len(parts) <= MAX_RUNS or not all(p.strip().isascii() and p.strip().isdigit() for p in parts):
        return None
    out = [int(p) for p in parts]
    return out if all(0 <= s <= MAX_SEED for s in out) else None


def prepare_state(params: list[Param]) -> None:
    """After restore(): turn a link's seeds into the kept fresh seeds, and give every widget its default."""
    raw = st.session_state.pop("nd_seeds_link", None)
    if raw is not None:
        parsed = parse_seeds(raw)
        if parsed is None:
            rejected = st.session_state.setdefault(f"_rejected_{PAGE}", [])
            rejected.append("seeds")
        else:
            st.session_state["nd_seeds"] = parsed
    for p in params:
        if p.key.startswith("nd_") and p.name != "seeds":
            st.session_state.setdefault(p.key, p.default)


def shared_params(params: list[Param], fixed: bool) -> list[Param]:
    """What this view's link holds: the fresh seeds only when they are in use."""
    return [p for p in params if not (fixed and p.name == "seeds")]


# ---------------------------------------------------------------- 1. sampled runs


FIRST_SEEDS = tuple(range(1, MAX_RUNS + 1))


def seeds(runs: int, redraw: bool) -> list[int]:
    """One seed per run, kept in the session so a rerun does not redraw them. A visit without seeds in its
    link starts from seeds 1, 2, 3, …: every visitor sees the same first runs, computed once for all of them
    (the server's cost of a visit, README "Capacity"); "Draw again" draws random ones."""
    kept = st.session_state.get("nd_seeds")
    if kept is None:
        kept = list(FIRST_SEEDS)
    if redraw:
        kept = []
    kept = (kept + [secrets.randbelow(2**31) for _ in range(runs)])[:runs]
    st.session_state["nd_seeds"] = kept
    st.session_state["nd_seeds_link"] = ",".join(str(s) for s in kept)
    return kept


def sampling_controls() -> tuple[mb.SamplingParams, list[int], bool]:
    """The widgets of section 1: (settings without a seed, one seed per run, whether the seed is fixed).

    Values come from session_state (defaults or a link: prepare_state), never from value=."""
    c1, c2, c3 = st.columns(3)
    temperature = c1.slider(t("nondeterminism.temperature"), 0.0, 1.5, step=0.05, key="nd_temperature")
    runs = c2.slider(t("nondeterminism.runs"), 2, MAX_RUNS, key="nd_runs")
    tokens = c3.slider(t("nondeterminism.tokens"), 4, 24, key="nd_tokens")
    modes = {m: t(f"nondeterminism.mode.{m}") for m in ("fresh", "fixed")}
    m1, m2 = st.columns([2, 1], vertical_alignment="bottom")
    mode = m1.radio(t("nondeterminism.mode"), list(modes), format_func=modes.get, horizontal=True, key="nd_mode")
    fixed = mode == "fixed"
    if fixed:
        seed = m2.number_input(t("nondeterminism.seed"), 0, MAX_SEED, step=1, key="nd_seed")
        run_seeds = [int(seed)] * runs
    else:
        redraw = m2.button(t("nondeterminism.redraw"), help=t("nondeterminism.redraw.help"),
                           icon=":material/casino:", key="nd_redraw")
        if redraw:
            st.session_state["nd_run"] = True  # a click asks for runs: the new seeds run at once
        run_seeds = seeds(runs, redraw)
    return mb.SamplingParams(temperature=temperature, max_new_tokens=tokens), run_seeds, fixed


def runs_ask(n: int, tokens: int) -> None:
    """The "ask" half of section 1, for a prompt nobody has run: a click sets nd_run, and the rerun runs it."""
    st.caption(t("nondeterminism.ask.hint", n=n, tokens=tokens))
    st.button(t("nondeterminism.ask.run", n=n), type="primary", icon=":material/play_arrow:",
              key="nd_go", on_click=st.session_state.__setitem__, args=("nd_run", True))


def generating(n: int):
    """A spinner while n runs are computed (or another visitor's same runs are awaited)."""
    return st.spinner(t("nondeterminism.generating", n=n))


def runs_frame(gens: list[nd.SampledRun], temperature: float) -> pd.DataFrame:
    """The runs for download: raw text, why each stopped, its seed (empty when greedy) and its token ids."""
    return pd.DataFrame({
        "run": range(1, len(gens) + 1),
        "text": [g.completion for g in gens],
        "finish_reason": [g.finish_reason for g in gens],
        "seed": [g.seed if g.seed is not None else "" for g in gens],
        "temperature": temperature,
        "token_ids": [" ".join(str(i) for i in g.token_ids) for g in gens],
    })


def runs_table(gens: list[nd.SampledRun], temperature: float) -> None:
    finish = {k: t(f"nondeterminism.finish.{k}") for k in FINISH}
    text_col = t("nondeterminism.col.text")
    df = pd.DataFrame({
        t("nondeterminism.col.run"): range(1, len(gens) + 1),
        text_col: [cell(g.completion) for g in gens],
        t("nondeterminism.col.finish"): [finish.get(g.finish_reason, g.finish_reason) for g in gens],
        t("nondeterminism.col.seed"): [str(g.seed) if g.seed is not None else t("nondeterminism.greedy_seed")
                                       for g in gens],
    })
    data_table(df, hide_index=True, width="stretch", column_config={text_col: st.column_config.TextColumn(width="large")})
    st.caption(t("nondeterminism.table.caption"))
    downloads(runs_frame(gens, temperature), "nondeterminism-runs", key="nd_dl_runs")


def divergence(gens: list[nd.SampledRun], greedy: bool, fixed: bool) -> int | None:
    """Say whether the runs agree and, if not, what each chose at the first different token."""
    ids = [list(g.token_ids) for g in gens]
    at = nd.first_divergence(ids)
    if at is None:
        why = "greedy" if greedy else "seeded" if fixed else "fresh"
        st.success(t(f"nondeterminism.same.{why}", n=len(gens)), icon=":material/check_circle:")
        return None
    st.markdown(t("nondeterminism.split", k=at, pos=at + 1) if at else t("nondeterminism.split.first"))
    groups: dict[str, list[str]] = {}
    for run, g in enumerate(gens, start=1):
        choice = g.tokens[at].display if at < len(g.tokens) else t("nondeterminism.ended")
        groups.setdefault(choice, []).append(str(run))
    data_table(pd.DataFrame({t("nondeterminism.col.choice"): list(groups),
                               t("nondeterminism.col.runs"): [", ".join(r) for r in groups.values()]}),
                 hide_index=True)
    downloads(pd.DataFrame({"position": at + 1, "choice": list(groups),
                            "runs": [", ".join(r) for r in groups.values()]}), "nondeterminism-split", key="nd_dl_split")
    return at


# ---------------------------------------------------------------- 2. the tree of runs


def tree_frame(branches: tuple[nd.Branch, ...]) -> pd.DataFrame:
    """One row per branch: where its line starts and ends, its lane and its parent's lane (for the fork)."""
    lanes = {b.id: b.lane for b in branches}
    return pd.DataFrame({
        "branch": [b.id + 1 for b in branches],
        "start": [b.start + 1 for b in branches],  # token numbers count from 1, as in the tables
        "end": [max(b.end, b.start + 0.3) + 1 for b in branches],
        "lane": [b.lane for b in branches],
        "parent_lane": [lanes[b.parent] if b.parent is not None else b.lane for b in branches],
        "label": [visible(b.text) if b.token_ids else t("nondeterminism.ended") for b in branches],
        "runs": [", ".join(str(r + 1) for r in b.runs) for b in branches],
        "colour": [str(b.id % len(BRANCH_COLOURS)) if b.parent is not None else "root" for b in branches],
    })


@cached_chart
def tree_chart(branches: tuple[nd.Branch, ...], n_tokens: int) -> alt.LayerChart:
    """Lanes of runs: a thick line per shared stretch, a thin grey fork where a branch leaves its parent."""
    nodes = tree_frame(branches)
    x = alt.X("start:Q", title=t("nondeterminism.tree.x"), scale=alt.Scale(domain=[1, n_tokens + 1]),
              axis=alt.Axis(values=list(range(1, n_tokens + 1)), format="d"))
    y = alt.Y("lane:Q", axis=None, scale=alt.Scale(domain=[nodes["lane"].max() + 0.6, -0.6]))
    colours = alt.Color("colour:N", legend=None,
                        scale=alt.Scale(domain=["root"] + [str(i) for i in range(len(BRANCH_COLOURS))],
                                        range=["#555555"] + BRANCH_COLOURS))
    tips = [alt.Tooltip("branch:Q", title=t("nondeterminism.tree.branch")),
            alt.Tooltip("start:Q", title=t("nondeterminism.tree.start")),
            alt.Tooltip("runs:N", title=t("nondeterminism.col.runs")),
            alt.Tooltip("label:N", title=t("nondeterminism.tree.text"))]
    forks = alt.Chart(nodes).mark_rule(color=MASKED, strokeWidth=2).encode(x=x, y=y, y2="parent_lane:Q", tooltip=tips)
    base = alt.Chart(nodes[[b.token_ids != () or b.parent is not None for b in branches]])  # no empty root
    lines = base.mark_rule(strokeWidth=5, strokeCap="round").encode(x=x, x2="end:Q", y=y, color=colours,
                                                                      tooltip=tips)
    dots = base.mark_circle(size=140, opacity=1).encode(x=x, y=y, color=colours, tooltip=tips)
    big = projection_on()  # the room reads the branch words too
    words = base.mark_text(align="left", baseline="bottom", dx=2, dy=-7, limit=420, clip=True,
                           fontSize=20 if big else 11).encode(
        x=x, y=y, text="label:N", tooltip=tips)
    height = 60 + (80 if big else 64) * (nodes["lane"].max() + 1)
    return alt.layer(forks, lines, dots, words).properties(height=int(height))


def branch_table(branches: tuple[nd.Branch, ...]) -> None:
    branches = tuple(b for b in branches if b.token_ids or b.parent is not None)  # an empty root says nothing
    df = pd.DataFrame({
        t("nondeterminism.tree.branch"): [b.id + 1 for b in branches],
        t("nondeterminism.tree.start"): [b.start + 1 for b in branches],
        t("nondeterminism.col.runs"): [", ".join(str(r + 1) for r in b.runs) for b in branches],
        t("nondeterminism.tree.text"): [cell(b.text) if b.token_ids else t("nondeterminism.ended")
                                        for b in branches],
    })
    data_table(df, hide_index=True, width="stretch")


def branches_frame(branches: tuple[nd.Branch, ...]) -> pd.DataFrame:
    """The tree for download: each branch's parent, first token number (from 1), runs, text and token ids."""
    branches = tuple(b for b in branches if b.token_ids or b.parent is not None)
    return pd.DataFrame({
        "branch": [b.id + 1 for b in branches],
        "parent": [b.parent + 1 if b.parent is not None else "" for b in branches],
        "start": [b.start + 1 for b in branches],
        "runs": [", ".join(str(r + 1) for r in b.runs) for b in branches],
        "text": [b.text for b in branches],
        "token_ids": [" ".join(str(i) for i in b.token_ids) for b in branches],
    })


def cascade(gens: list[nd.SampledRun], n_tokens: int) -> None:
    branches = nd.branch_tree([list(g.token_ids) for g in gens], [[tok.text for tok in g.tokens] for g in gens])
    if len(branches) < 2:
        st.info(t("nondeterminism.tree.one"), icon=":material/info:")
        return
    show(tree_chart(branches, n_tokens))
    st.caption(t("nondeterminism.tree.caption"))
    branch_table(branches)
    downloads(branches_frame(branches), "nondeterminism-branches", key="nd_dl_branches")


# ---------------------------------------------------------------- 3. floating point


def associativity_table() -> None:
    rows = [nd.associativity(*example) for example in nd.ASSOCIATIVITY_EXAMPLES]
    yes, no = t("nondeterminism.yes"), t("nondeterminism.no")
    data_table(pd.DataFrame({
        "a": [number(r.a) for r in rows], "b": [number(r.b) for r in rows], "c": [number(r.c) for r in rows],
        "(a + b) + c": [number(r.left) for r in rows], "a + (b + c)": [number(r.right) for r in rows],
        t("nondeterminism.col.equal"): [yes if r.associative else no for r in rows],
        t("nondeterminism.col.exact"): [number(r.exact, exact=True) for r in rows],
    }), hide_index=True, width="stretch")
    st.caption(t("nondeterminism.assoc.caption"))
    n, commute, grouped = nd.commutativity()
    st.info(t("nondeterminism.assoc.seed", n=fmt_int(n), commute=fmt_int(commute), grouped=fmt_int(grouped)),
            icon=":material/rule:")
    downloads(pd.DataFrame({"a": [r.a for r in rows], "b": [r.b for r in rows], "c": [r.c for r in rows],
                            "left": [r.left for r in rows], "right": [r.right for r in rows],
                            "equal": [r.associative for r in rows], "exact": [r.exact for r in rows]}),
              "nondeterminism-associativity", key="nd_dl_assoc")


def own_numbers() -> None:  # not a fragment: a new number reruns the page, so the link box follows it
    with st.expander(t("nondeterminism.assoc.own")):
        cols = st.columns(3)
        values = [col.number_input(name, min_value=-FLOAT32_MAX, max_value=FLOAT32_MAX, format="%.9g",
                                   key=f"nd_{name}") for col, name in zip(cols, "abc")]
        r = nd.associativity(*values)
        st.markdown(t("nondeterminism.assoc.result", left=number(r.left), right=number(r.right),
                      exact=number(r.exact, exact=True)))
        st.markdown(t("nondeterminism.assoc.same" if r.associative else "nondeterminism.assoc.differ"))


def sum_size() -> int:  # not a fragment either (the sums are cached): the link box follows the size
    """The vector's length, picked by the visitor."""
    return st.select_slider(t("nondeterminism.sum.n"), options=list(SUM_SIZES), format_func=fmt_int, key="nd_sum_n")


def _sums_frame(sums: tuple[nd.OrderedSum, ...]) -> pd.DataFrame:
    """Each order's label, its total (as shown), its distance from the exact sum, and that distance as shown."""
    return pd.DataFrame({"order": [t(f"nondeterminism.order.{s.order}") for s in sums],
                         "total": [fmt_float(s.total, 4) for s in sums], "error": [s.error for s in sums],
                         "error_text": [fmt_float(s.error, 4) for s in sums]})


@cached_chart
def sums_chart(sums: tuple[nd.OrderedSum, ...]) -> alt.Chart:
    """Each order's distance from the exact sum, as bars. Built once per sums, language and projection mode: built
    and converted at every run it was a sixth of the page's run, and a class opens the page at once."""
    big = projection_on()  # 22-px labels need taller rows
    df = _sums_frame(sums)
    labels = list(df["order"])
    return alt.Chart(df).mark_bar().encode(
        x=alt.X("error:Q", title=t("nondeterminism.col.error")),
        y=alt.Y("order:N", sort=labels, title=t("nondeterminism.col.order"),
                axis=alt.Axis(labelLimit=420 if big else 170, titleAngle=0, titleAlign="right", titleBaseline="bottom",
                              titleX=-6, titleY=-6)),  # title above the labels: beside them it hit the long ones;
        # labels cut at 170 px leave a phone room for the bars (the table above has them whole)
        color=alt.Color("order:N", sort=labels, legend=None),
        tooltip=[alt.Tooltip("order:N", title=t("nondeterminism.col.order")),
                 alt.Tooltip("total:N", title=t("nondeterminism.col.total")),
                 alt.Tooltip("error_text:N", title=t("nondeterminism.col.error"))],
    ).properties(height=alt.Step(44 if big else 30))


def ordered_sums(n: int, sums: tuple[nd.OrderedSum, ...], exact: float) -> None:
    """The same n numbers added up in several orders: each total and its distance from the exact sum."""
    chart = sums_chart(tuple(sums))
    df = chart.data  # the chart's own table (_sums_frame), in the visitor's language
    data_table(df[["order", "total", "error_text"]].rename(columns={
        "order": t("nondeterminism.col.order"), "total": t("nondeterminism.col.total"),
        "error_text": t("nondeterminism.col.error")}), hide_index=True, width="stretch")
    show(chart)
    st.caption(t("nondeterminism.sum.caption", n=fmt_int(n), exact=fmt_float(exact, 4)))
    labels = list(df["order"])
    downloads(lambda: pd.DataFrame({"n": n, "order": [s.order for s in sums], "label": labels,
                                    "total": [s.total for s in sums], "error": [s.error for s in sums],
                                    "exact": exact}), "nondeterminism-sums", key="nd_dl_sums")


# ---------------------------------------------------------------- 3. the model, two ways


def way_labels() -> dict[str, str]:
    """Each way of computing the prompt, as the page names it (keys: compute's ways, and "alone")."""
    ways = {k: t(f"nondeterminism.way.{k}") for k in ("float32", "bfloat16", "alone", "cpu", "cuda")}
    ways["batch"] = t("nondeterminism.way.batch", n=len(nd.BATCH_FILLERS) + 1)
    return ways


def model_ask() -> tuple[str, int] | None:
    """The "ask" half of section 3c: (the text as typed, tokens) once Compare was pressed (it stays pressed for the
    visit, so new values run as they change), else None."""
    st.subheader(t("nondeterminism.model.head"))
    st.markdown(t("nondeterminism.model.text"))
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    text = c1.text_input(t("nondeterminism.model.prompt"), key="nd_model_prompt", max_chars=2000)
    n = c2.slider(t("nondeterminism.model.tokens"), 4, 32, key="nd_model_tokens")
    if st.button(t("nondeterminism.model.run"), type="primary", icon=":material/compare_arrows:", key="nd_compare"):
        st.session_state["nd_compared"] = True
    if not st.session_state.get("nd_compared"):
        st.caption(t("nondeterminism.model.hint"))
        return None
    return text, n


@contextmanager
def comparing():
    """A progress bar while the comparisons run: yields the `progress(fraction, way)` to give compute."""
    ways = way_labels()
    bar = st.progress(0.0)
    try:
        yield lambda fraction, way: bar.progress(fraction, text=t("nondeterminism.progress.run", way=ways[way]))
    finally:
        bar.empty()


def labelled(comparisons: tuple[Comparison, ...]) -> list[tuple[str, nd.TwoWays, tuple[str, str], str]]:
    """Each comparison with its title and its two ways' labels: [(title, result, way labels, kind)]."""
    ways = way_labels()
    titles = {"dtype": t("nondeterminism.cmp.dtype"), "device": t("nondeterminism.cmp.device"),
              "batch": t("nondeterminism.cmp.batch", n=len(nd.BATCH_FILLERS) + 1)}
    pairs = {"dtype": ("float32", "bfloat16"), "batch": ("alone", "batch"), "device": ("cpu", "cuda")}
    return [(titles[c.kind], c.result, tuple(ways[w] for w in pairs[c.kind]), c.kind) for c in comparisons]


def mantissa_bits(dtype: torch.dtype) -> int:
    """Significant bits a float type keeps, the implicit leading 1 included (bfloat16: 8, float32: 24)."""
    return round(-math.log2(torch.finfo(dtype).eps)) + 1


def cause_key(kind: str, result: nd.TwoWays) -> str:
    """The sentence that says why this comparison's two ways differ: each comparison has its own cause.

    float32 against bfloat16 is not a reordering: bfloat16 rounds every number to fewer bits, so the logits
    move by whatever that rounding adds up to (not necessarily a tiny amount). A batch or another device does
    the same arithmetic in another order of addition."""
    if kind == "dtype":
        return "nondeterminism.cause.dtype"
    if result.max_abs_diff == 0:
        return "nondeterminism.zero"
    return "nondeterminism.tiny" if result.diverge_at is None else "nondeterminism.cause.order"


def two_ways(title: str, result: nd.TwoWays, labels: tuple[str, str], vocab: int, kind: str = "batch") -> None:
    st.markdown(f"#### {title}")
    n = len(result.a.continuation.token_ids)
    m1, m2, m3 = st.columns(3)
    m1.metric(t("nondeterminism.m.diff"), fmt_float(result.max_abs_diff, 6 if result.max_abs_diff < 0.01 else 4),
              help=t("nondeterminism.m.diff.help", vocab=fmt_int(vocab)))
    m2.metric(t("nondeterminism.m.top"), t("nondeterminism.m.top.same" if result.same_top else "nondeterminism.m.top.changed"))
    split = (t("nondeterminism.m.split.none") if result.diverge_at is None
             else t("nondeterminism.m.split.at", pos=result.diverge_at + 1))
    m3.metric(t("nondeterminism.m.split"), split, help=t("nondeterminism.m.split.help", n=n))
    bits = mantissa_bits(torch.bfloat16)
    st.caption(t(cause_key(kind, result), bits=bits, bits32=mantissa_bits(torch.float32),
                 digits=fmt_float(bits * math.log10(2), 1)))
    left, right = st.columns(2)
    for col, label, run in ((left, labels[0], result.a), (right, labels[1], result.b)):
        with col:
            st.caption(label)
            model_text(run.continuation.text)
    if result.diverge_at is not None:
        at = result.diverge_at
        rows = [(label, run.continuation) for label, run in zip(labels, (result.a, result.b))]
        data_table(pd.DataFrame({
            t("nondeterminism.col.way"): [label for label, _ in rows],
            t("nondeterminism.col.at", pos=at + 1): [c.tokens[at] if at < len(c.tokens) else t("nondeterminism.ended")
                                                     for _, c in rows],
            t("nondeterminism.col.gap"): [fmt_float(c.gaps[at], 3) if at < len(c.gaps) else "" for _, c in rows],
        }), hide_index=True)
        st.caption(split_caption(at, labels, result.a.continuation.gaps, result.b.continuation.gaps))


NEAR_TIE = 0.5  # logits: a lead this small is called a near tie (the gaps are shown either way)


def split_caption(at: int, labels: tuple[str, str], gaps_a, gaps_b) -> str:
    """Where the two ways' texts part: each way's lead of its chosen token over its runner-up there, as measured;
    "a near tie" only when both leads are under NEAR_TIE (a float32 vs bfloat16 split need not be one)."""
    if at >= len(gaps_a) or at >= len(gaps_b):
        return t("nondeterminism.split.ended", pos=at + 1)
    tie = (t("nondeterminism.split.tie", near=fmt_float(NEAR_TIE, 1))
           if max(gaps_a[at], gaps_b[at]) < NEAR_TIE else "")
    return t("nondeterminism.split.caption", pos=at + 1, a=labels[0], b=labels[1], gap_a=fmt_float(gaps_a[at], 3),
             gap_b=fmt_float(gaps_b[at], 3), tie=tie)


def two_ways_frame(results: list[tuple[str, nd.TwoWays, tuple[str, str], str]]) -> pd.DataFrame:
    """The comparisons for download: one row per way, with the comparison's figures and its continuation."""
    rows = []
    for title, result, labels, _kind in results:
        at = result.diverge_at
        for label, run in zip(labels, (result.a, result.b)):
            c = run.continuation
            rows.append({"comparison": title, "way": label, "max_abs_logit_diff": result.max_abs_diff,
                         "same_top_token": result.same_top, "top_token": visible(run.top.text),
                         "split_at": at + 1 if at is not None else "",
                         "token_at_split": c.tokens[at] if at is not None and at < len(c.tokens) else "",
                         "gap_at_split": c.gaps[at] if at is not None and at < len(c.gaps) else "",
                         "text": c.text, "token_ids": " ".join(str(i) for i in c.token_ids)})
    return pd.DataFrame(rows)


def model_result(comparisons: tuple[Comparison, ...]) -> None:
    """The "result" half of section 3c: each comparison's figures and texts, the download and the filler prompts."""
    results = labelled(comparisons)
    first = results[0][1].a
    truncation_notice(first.truncated_from, first.prompt_tokens)
    for title, result, labels, kind in results:
        two_ways(title, result, labels, vocab=first.last_logits.shape[0], kind=kind)
    downloads(two_ways_frame(results), "nondeterminism-model-two-ways", key="nd_dl_model")
    with st.expander(t("nondeterminism.fillers")):
        for filler in nd.BATCH_FILLERS:
            model_text(filler)


def no_gpu_note() -> None:
    st.info(t("nondeterminism.no_gpu"), icon=":material/memory:")
