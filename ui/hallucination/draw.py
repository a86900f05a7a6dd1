"""The hallucination page's drawing: its controls, token chips shaded by probability, per-token charts, the
alternatives at one step, and the fact/invention pairs with their count. It takes what ui.hallucination.compute
returned and never reaches the model; the visitor's run is an "ask" half (what to compute, or nothing before the
click) and a "result" half."""
from __future__ import annotations

import hashlib
import math
from contextlib import contextmanager

import altair as alt
import pandas as pd
import streamlit as st

import model_backend as mb
from model_backend.core.tokens import visible
from model_backend.lessons import hallucination as cf
from ui import a11y
from ui.charts import MASKED, OKABE_ITO, PRIMARY, SEQUENTIAL, cached_chart, show
from ui.chip_layout import BUDGETS, UNIT_PX, label_units, wrap
from ui.export import downloads
from ui.hallucination.compute import CONFIG, DTYPES, PairRun
from ui.i18n import fmt_float, fmt_int, fmt_pct, t
from ui.share import Param
from ui.untrusted import escape_markdown
from ui.widgets import data_table, model_text, truncation_notice

MAX_LABEL = 16  # characters on a chip; the tooltip has the whole token
N_ALTERNATIVES = 10  # what each step keeps (model_backend's top_n)
# real prompt that states the known fact / misses it / invented twin / twin with a false premise about a real
# subject (Gondwana existed, but never had a president: review B, HAL-5)
KINDS = ("fact", "miss", "invented", "premise")
KIND_COLOURS = {"fact": OKABE_ITO[2], "miss": OKABE_ITO[5], "invented": OKABE_ITO[3], "premise": OKABE_ITO[4]}
KIND_SHAPES = {"fact": "circle", "miss": "square", "invented": "triangle", "premise": "diamond"}

FIRST = CONFIG["presets"][0]  # Einstein: shown on the first visit
PARAMS = [Param("prompt", "prompt_hallucination", str, FIRST["prompt"]),
          Param("mode", "hallucination_mode", str, "greedy", choices=("greedy", "sampled")),
          Param("T", "hallucination_T", float, 1.0, 0.1, 2.0), Param("seed", "hallucination_seed", int, 0, 0, 2**31 - 1),
          Param("n", "hallucination_n", int, FIRST["max_new_tokens"], 4, 48),
          Param("dtype", "hallucination_dtype", str, "float32", choices=DTYPES),
          Param("pair", "hallucination_pair", str, CONFIG["pairs"][0]["id"],
                choices=tuple(p["id"] for p in CONFIG["pairs"])),
          Param("run", "hallucination_run", bool, False)]  # the visitor asked for runs of new prompts


def preset_for(prompt: str) -> dict | None:
    return next((p for p in CONFIG["presets"] if p["prompt"] == prompt), None)


def digest(*parts) -> str:
    """A short fingerprint (widget keys that must change with the run)."""
    return hashlib.blake2b(repr(parts).encode(), digest_size=6).hexdigest()


@contextmanager
def running():
    """Yields the `progress(fraction)` to give compute. The bar is drawn on its first call, so a run already in
    the memo shows none, and it is cleared after."""
    bar = None

    def progress(fraction: float) -> None:
        nonlocal bar
        bar = bar or st.progress(0.0, text=t("hallucination.running"))
        bar.progress(fraction, text=t("hallucination.running"))

    try:
        yield progress
    finally:
        if bar is not None:
            bar.empty()


# --- controls -----------------------------------------------------------------------------------

def use_preset(preset: dict) -> None:
    st.session_state["prompt_hallucination"] = st.session_state["prompt"] = preset["prompt"]
    st.session_state["hallucination_n"] = preset["max_new_tokens"]


def presets() -> None:
    """The seed's examples as buttons: a click puts the prompt (and its length) in the box."""
    with st.container(horizontal=True, vertical_alignment="center"):
        st.caption(t("hallucination.presets"))
        for preset in CONFIG["presets"]:
            st.button(t(f"hallucination.preset.{preset['id']}"), key=f"hallucination_preset_{preset['id']}",
                      on_click=use_preset, args=(preset,))


def controls() -> tuple[mb.SamplingParams, str]:
    modes = {m: t(f"hallucination.mode.{m}") for m in ("greedy", "sampled")}
    a, b, c = st.columns([2, 2, 1])
    mode = a.segmented_control(t("hallucination.mode"), list(modes), format_func=modes.get, key="hallucination_mode",
                               help=t("hallucination.mode.help"))
    dtype = b.segmented_control(t("hallucination.dtype"), list(DTYPES), key="hallucination_dtype",
                                help=t("hallucination.dtype.help")) or "float32"
    n = c.number_input(t("hallucination.tokens"), 4, 48, key="hallucination_n")
    if mode != "sampled":
        return mb.SamplingParams(temperature=0, max_new_tokens=n), dtype
    a, b, c = st.columns([2, 2, 1], vertical_alignment="bottom")
    temp = a.slider(t("hallucination.temperature"), 0.1, 2.0, step=0.1, key="hallucination_T")
    seed = b.number_input(t("hallucination.seed"), 0, 2**31 - 1, key="hallucination_seed", help=t("hallucination.seed.help"))
    c.button(t("hallucination.redraw"), icon=":material/casino:",  # a click asks for the run: it runs at once
             on_click=lambda: st.session_state.update(hallucination_seed=(seed + 1) % 2**31, hallucination_run=True))
    return mb.SamplingParams(temperature=temp, seed=int(seed), max_new_tokens=n), dtype


def completion_ask(prompt: str, params: mb.SamplingParams, made: bool) -> bool:
    """Whether to generate now (`made`: the run is already in the memo). A prompt nobody has run waits for a click
    (a new prompt's run is most of what a visit costs the server); the text's examples run at once, a run already
    made is shown at once, and after one click (or from a link made after one) every new prompt of this visitor
    runs as it is typed."""
    if st.session_state.get("hallucination_run") or preset_for(prompt) is not None:
        return True
    if made:
        return True
    st.caption(t("hallucination.ask.hint", n=params.max_new_tokens))
    st.button(t("hallucination.ask.run"), type="primary", icon=":material/play_arrow:", key="hallucination_go",
              on_click=st.session_state.__setitem__, args=("hallucination_run", True))
    return False


# --- chips --------------------------------------------------------------------------------------

def short(label: str) -> str:
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


def alt_line(c: mb.Candidate) -> str:
    """One alternative as tooltip text: the token with visible whitespace, and its probability."""
    return f"{visible(c.text) or '∅'}   {fmt_pct(c.prob)}"


def chip_frame(rows: tuple[cf.TokenConfidence, ...], params: mb.SamplingParams | None = None) -> pd.DataFrame:
    """One row per generated token: label, probability, tooltip fields and its (x, row) for every budget."""
    labels = [short(r.token.display) for r in rows]
    widths = [max(label_units(s), 4.0) + 1.2 for s in labels]  # room for "99,9%" under the token
    df = pd.DataFrame({
        "step": [r.index + 1 for r in rows],  # shown 1-based, as on the loop page
        "label": labels,
        "full": [r.token.display for r in rows],
        "prob": [r.prob for r in rows],
        "pct": [fmt_pct(r.prob) for r in rows],
        "rank": [r.rank for r in rows],
        "entropy": [fmt_float(r.entropy_bits, 2) + " bits" for r in rows],
        "dark": [r.prob < 0.55 for r in rows],  # viridis is dark below ~0.55: white text there
        "w": widths,
    })
    for i in range(N_ALTERNATIVES):
        df[f"alt{i + 1}"] = [alt_line(r.alternatives[i]) if i < len(r.alternatives) else "" for r in rows]
    for budget in BUDGETS:
        xs, rs = zip(*wrap(widths, budget)) if widths else ((), ())
        df[f"x_{budget}"] = xs
        df[f"row_{budget}"] = rs
    return df


@cached_chart
def generation_chips(gen: mb.Generation, selected: int | None = None) -> alt.Chart:
    """chips_chart of a generation's tokens. Kept per generation (a memo's object: its digest is computed once),
    so a visit with a kept chart builds no table: building the chips' table and fingerprinting it was most of the
    hallucination page's run for each phone of a class."""
    return chips_chart(chip_frame(cf.token_table(gen)), selected=selected)


def chip_tooltip() -> list[alt.Tooltip]:
    tips = [alt.Tooltip("step:Q", title=t("hallucination.col.step")),
            alt.Tooltip("full:N", title=t("hallucination.col.token")),
            alt.Tooltip("pct:N", title=t("hallucination.col.prob")),
            alt.Tooltip("rank:Q", title=t("hallucination.col.rank")),
            alt.Tooltip("entropy:N", title=t("hallucination.col.entropy"))]
    return tips + [alt.Tooltip(f"alt{i}:N", title=t("hallucination.col.alt", n=i)) for i in range(1, N_ALTERNATIVES + 1)]


def _budget_expr() -> str:
    """Vega expression: the widest row budget that fits the chart's current width."""
    expr = str(BUDGETS[0])
    for b in BUDGETS[1:]:
        expr = f"width >= {b * UNIT_PX:g} ? {b} : ({expr})"
    return expr


def chips_chart(df: pd.DataFrame, selected: int | None = None) -> alt.Chart:
    """Generated tokens as chips that wrap like text, filled by probability (viridis), % under each token."""
    budget = alt.param(name="budget", expr=_budget_expr())
    base = alt.Chart(df).transform_calculate(
        x="datum['x_' + budget]", row="datum['row_' + budget]",
    ).transform_calculate(x2="datum.x + datum.w", mid="datum.x + datum.w / 2")
    scale = alt.Scale(domainMin=0, domainMax=alt.ExprRef(expr="budget"), nice=False, zero=True)
    y = alt.Y("row:O", axis=None, scale=alt.Scale(paddingInner=0.18, paddingOuter=0.05))
    tips = chip_tooltip()
    width = alt.value(1)
    if selected is not None:
        width = alt.condition(f"datum.step == {int(selected) + 1}", alt.value(4), alt.value(1))
    fill = alt.Color("prob:Q", title=t("hallucination.col.prob"),
                     scale=alt.Scale(scheme=SEQUENTIAL, domain=[0, 1]),
                     legend=alt.Legend(orient="top", format="%", gradientLength=220, titleOrient="left"))
    rect = base.mark_rect(cornerRadius=6, stroke="#111111").encode(
        x=alt.X("x:Q", axis=None, scale=scale), x2="x2:Q", y=y, fill=fill, strokeWidth=width, tooltip=tips)
    colour = alt.condition("datum.dark", alt.value("#ffffff"), alt.value("#111111"))
    mid = alt.X("mid:Q", scale=scale)
    word = base.mark_text(fontSize=16, dy=-9).encode(x=mid, y=y, text="label:N", color=colour, tooltip=tips)
    pct = base.mark_text(fontSize=12, dy=11).encode(x=mid, y=y, text="pct:N", color=colour, tooltip=tips)
    return alt.layer(rect, word, pct).add_params(budget).properties(height=alt.Step(50))


# --- per-token charts ---------------------------------------------------------------------------

def token_frame(rows: tuple[cf.TokenConfidence, ...], steps: tuple[mb.Step, ...]) -> pd.DataFrame:
    """The table the page shows and downloads: one row per generated token."""
    return pd.DataFrame({
        "step": [r.index + 1 for r in rows],
        "token": [r.token.display for r in rows],
        "id": [r.token.id for r in rows],
        "prob": [r.prob for r in rows],
        "logprob": [r.logprob for r in rows],
        "rank": [r.rank for r in rows],
        "entropy_bits": [r.entropy_bits for r in rows],
        "sampled_prob": [s.sampled_prob for s in steps],
    })


@cached_chart
def line_chart(df: pd.DataFrame, field: str, title: str, fmt: str, domain=None, selected: int | None = None
               ) -> alt.Chart:
    """One point per generated token, joined by a line; x = step, tooltip = token and value.
    A vertical rule marks the step picked in the step slider (0-based `selected`)."""
    y = alt.Y(f"{field}:Q", title=title, axis=alt.Axis(format=fmt),
              scale=alt.Scale(domain=domain) if domain else alt.Undefined)
    tips = [alt.Tooltip("step:Q", title=t("hallucination.col.step")),
            alt.Tooltip("token:N", title=t("hallucination.col.token")),
            alt.Tooltip(f"{field}:Q", title=title, format=fmt)]
    x = alt.X("step:Q", title=t("hallucination.col.step"), axis=alt.Axis(tickMinStep=1))
    base = alt.Chart(df).encode(x=x, y=y, tooltip=tips)
    chart = base.mark_line(color=PRIMARY) + base.mark_point(filled=True, size=70, color=PRIMARY)
    if selected is not None:
        mark = df[df["step"] == selected + 1]
        chart = alt.Chart(mark).mark_rule(color=OKABE_ITO[1], strokeWidth=3).encode(x=x, tooltip=tips) + chart
    return chart.properties(height=230)


@cached_chart
def alternatives_chart(row: cf.TokenConfidence) -> alt.Chart:
    """The step's top alternatives as bars; the token the run took is drawn in another colour."""
    df = pd.DataFrame({
        "order": range(1, len(row.alternatives) + 1),
        "token": [visible(c.text) or "∅" for c in row.alternatives],
        "prob": [c.prob for c in row.alternatives],
        "pct": [fmt_pct(c.prob) for c in row.alternatives],
        "chosen": [c.id == row.token.id for c in row.alternatives],
    })
    df["name"] = [f"{o}. {short(s)}" for o, s in zip(df["order"], df["token"])]
    colour = alt.condition("datum.chosen", alt.value(OKABE_ITO[1]), alt.value(PRIMARY))
    tips = [alt.Tooltip("order:Q", title=t("hallucination.col.rank")),
            alt.Tooltip("token:N", title=t("hallucination.col.token")),
            alt.Tooltip("pct:N", title=t("hallucination.col.prob"))]
    base = alt.Chart(df).encode(
        y=alt.Y("name:N", sort=alt.SortField("order"), title=None, axis=alt.Axis(labelOverlap=False)),
        x=alt.X("prob:Q", title=t("hallucination.col.prob"), axis=alt.Axis(format="%")), tooltip=tips)
    bars = base.mark_bar().encode(color=colour)
    return (bars + base.mark_text(align="left", dx=4).encode(text="pct:N")).properties(height=alt.Step(28))


# --- pairs --------------------------------------------------------------------------------------

def pair_table(run: PairRun) -> pd.DataFrame:
    """Mean probability, weakest token and sequence log-probability of the two completions."""
    def col(s: cf.Summary) -> list[str]:
        return [fmt_pct(s.mean_prob), f"{visible(s.min_token.text) or '∅'}  ({fmt_pct(s.min_prob)})",
                fmt_float(s.seq_logprob, 2)]
    c = run.comparison
    return pd.DataFrame({
        t("hallucination.pair.measure"): [t("hallucination.metric.mean"), t("hallucination.metric.min"),
                                          t("hallucination.metric.logprob")],
        t("hallucination.pair.real"): col(c.real),
        t(f"hallucination.pair.{run.twin}"): col(c.invented),
    })


def kind_labels() -> dict[str, str]:
    return {k: t(f"hallucination.kind.{k}") for k in KINDS}


def summary_frame(runs: list[PairRun]) -> pd.DataFrame:
    """Every completion of every pair: which pair, which kind, its prompt, completion and confidence."""
    labels = kind_labels()
    rows = []
    for r in runs:
        for kind, prompt, gen, s in (("fact" if r.states_fact else "miss", r.real_prompt, r.real, r.comparison.real),
                                     (r.twin, r.invented_prompt, r.invented, r.comparison.invented)):
            rows.append({"pair": t(f"hallucination.pair.{r.id}.label"), "kind": labels[kind], "prompt": prompt,
                         "completion": visible(gen.completion), "mean": s.mean_prob, "min": s.min_prob,
                         "logprob": s.seq_logprob, "mean_pct": fmt_pct(s.mean_prob)})
    return pd.DataFrame(rows)


@cached_chart
def summary_chart(df: pd.DataFrame) -> alt.Chart:
    """Mean probability of every completion: one row per pair (its name written above the row, so narrow
    screens keep the whole width for the dots), one dot per completion, coloured and shaped by kind."""
    labels = kind_labels()
    kinds = [labels[k] for k in KINDS]
    tips = [alt.Tooltip("pair:N", title=t("hallucination.col.pair")),
            alt.Tooltip("kind:N", title=t("hallucination.col.kind")),
            alt.Tooltip("prompt:N", title=t("hallucination.col.prompt")),
            alt.Tooltip("completion:N", title=t("hallucination.col.completion")),
            alt.Tooltip("mean_pct:N", title=t("hallucination.metric.mean"))]
    y = alt.Y("pair:N", title=None, sort=None, axis=None, scale=alt.Scale(paddingOuter=0.6))
    x = alt.X("mean:Q", title=t("hallucination.metric.mean"), axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1]))
    base = alt.Chart(df).encode(y=y)
    names = base.mark_text(align="left", dy=-17, fontSize=13, color="#444444").encode(
        x=alt.value(0), text="pair:N", tooltip=[alt.Tooltip("pair:N", title=t("hallucination.col.pair"))])
    rules = base.mark_rule(color=MASKED, strokeWidth=2).encode(
        x=alt.X("min(mean):Q", title=t("hallucination.metric.mean"), axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1])), x2="max(mean):Q", tooltip=[alt.Tooltip("pair:N", title=t("hallucination.col.pair"))])
    dots = base.mark_point(filled=True, size=150, opacity=1).encode(
        x=x, tooltip=tips,
        color=alt.Color("kind:N", title=None, scale=alt.Scale(domain=kinds, range=[KIND_COLOURS[k] for k in KINDS]),
                        legend=alt.Legend(orient="top", direction="vertical", labelLimit=400)),
        shape=alt.Shape("kind:N", title=None, scale=alt.Scale(domain=kinds, range=[KIND_SHAPES[k] for k in KINDS])))
    return (rules + dots + names).properties(height=alt.Step(50))


def verdict_key(tally: cf.Tally) -> str:
    """Which honest sentence fits the count: every pair, most pairs, about half or fewer."""
    if not tally.pairs:
        return "hallucination.verdict.none"
    if tally.lower_mean == tally.pairs:
        return "hallucination.verdict.all"
    if tally.lower_mean * 4 >= tally.pairs * 3:
        return "hallucination.verdict.most"
    if tally.lower_mean * 2 > tally.pairs:
        return "hallucination.verdict.some"
    return "hallucination.verdict.none"


def separation(runs: list[PairRun]) -> tuple[float, float] | None:
    """(the highest mean probability of a completion that got it wrong, the lowest of one that stated the fact),
    when the first is below the second: then a threshold between them would separate the two here (review B,
    HAL-1), and the sentences that say the numbers cannot must not be printed. None when no threshold does."""
    facts = [r.comparison.real.mean_prob for r in runs if r.states_fact]
    wrong = [r.comparison.invented.mean_prob for r in runs]
    wrong += [r.comparison.real.mean_prob for r in runs if not r.states_fact]
    if not facts or not wrong or max(wrong) >= min(facts):
        return None
    return max(wrong), min(facts)


def most_confident(runs: list[PairRun], kind: str) -> tuple[PairRun, cf.Summary] | None:
    """The pair whose completion of `kind` ("miss" or "invented") had the highest mean probability."""
    pool = [(r, r.comparison.real) for r in runs if kind == "miss" and not r.states_fact]
    pool += [(r, r.comparison.invented) for r in runs if kind == "invented"]
    return max(pool, key=lambda x: x[1].mean_prob) if pool else None


def beaten(runs: list[PairRun], mean: float) -> tuple[int, int]:
    """How many completions that state the fact had a lower mean probability than `mean`, of how many."""
    facts = [r.comparison.real.mean_prob for r in runs if r.states_fact]
    return sum(m < mean for m in facts), len(facts)


def fmt_logprob(x: float) -> str:
    return "−∞" if math.isinf(x) else fmt_float(x, 2)


def whole_chance(logprob: float) -> str:
    """exp(sequence log-probability) in words a class can read: '0,4%' or '1 em 616.000'."""
    p = math.exp(logprob) if not math.isinf(logprob) else 0.0
    if p >= 0.001:
        return fmt_pct(p)
    if p <= 0:
        return "0"
    n = 1 / p
    return t("hallucination.one_in", n=fmt_int(round(n)) if n < 1e12 else f"10^{math.floor(math.log10(n))}")


def inspect_step(rows: tuple[cf.TokenConfidence, ...], key: str) -> None:
    """One step's alternatives. The slider reruns the page on the memoized run: no forward pass."""
    st.subheader(t("hallucination.inspect"))
    labels = {r.index: f"{r.index + 1} · {escape_markdown(short(r.token.display))}" for r in rows}  # options: Markdown
    i = st.select_slider(t("hallucination.inspect.step"), list(labels), format_func=labels.get, key=key)
    row = rows[i]
    other = max((c.prob for c in row.alternatives if c.id != row.token.id), default=0.0)
    st.markdown(t("hallucination.inspect.text", step=i + 1, prob=fmt_pct(row.prob), rank=row.rank,
                  other=fmt_pct(other), bits=fmt_float(row.entropy_bits, 2)))
    show(alternatives_chart(row))
    written = (t("hallucination.inspect.written") if row.rank <= len(row.alternatives)  # a draw at T > 1 may not be
               else t("hallucination.inspect.outside", rank=fmt_int(row.rank)))
    st.caption(t("hallucination.inspect.caption", n=len(row.alternatives), written=written,
                 total=fmt_pct(sum(c.prob for c in row.alternatives))))


# --- the pairs section --------------------------------------------------------------------------

def pairs_intro() -> None:
    st.header(t("hallucination.pairs.header"))
    st.markdown(t("hallucination.pairs.intro", n=CONFIG["pair_tokens"]))


def pairs_panel(runs: list[PairRun], dtype: str) -> None:
    """Pick a pair and see it side by side; then the count over every pair, measured now."""
    labels = {r.id: t(f"hallucination.pair.{r.id}.label") for r in runs}
    pick = st.selectbox(t("hallucination.pairs.pick"), list(labels), format_func=labels.get, key="hallucination_pair")
    run = next(r for r in runs if r.id == pick)
    for col, side, prompt, gen in zip(st.columns(2), ("real", run.twin), (run.real_prompt, run.invented_prompt),
                                      (run.real, run.invented)):
        with col:
            st.markdown(f"**{t(f'hallucination.pair.{side}')}**")
            model_text(prompt + gen.completion)
            show(generation_chips(gen))
    st.caption(t("hallucination.pair.caption"))
    data_table(pair_table(run), hide_index=True, width="stretch")
    st.markdown(t(f"hallucination.pair.{run.id}.truth"))
    summary(runs, dtype)


def confident_key(kind: str, beaten: int) -> str:
    """The sentence for the most confident wrong ("miss") or invented completion that beat `beaten` of the right
    ones: with none beaten, "below every one" ("more than 0 of 6" read as a win)."""
    return f"hallucination.summary.{kind}" + ("" if beaten else ".none")


def summary(runs: list[PairRun], dtype: str) -> None:
    tally = cf.tally([r.comparison for r in runs])
    m = tally.pairs
    st.subheader(t("hallucination.summary.header", m=m))
    st.markdown(t("hallucination.summary.count", dtype=dtype, n=tally.lower_mean, k=tally.lower_logprob,
                  j=tally.lower_min, m=m))
    apart = separation(runs)  # a threshold that separates, if one does: it overrides the count's sentence
    st.markdown(t("hallucination.verdict.separated", m=m, lo=fmt_pct(apart[0]), hi=fmt_pct(apart[1])) if apart
                else t(verdict_key(tally)))
    stated = sum(r.states_fact for r in runs)
    st.markdown(t("hallucination.summary.facts" if stated < m else "hallucination.summary.facts_all", a=stated, m=m))
    for kind in ("miss", "invented"):
        top = most_confident(runs, kind)
        if top is not None:
            k, n = beaten(runs, top[1].mean_prob)
            if n == 0:  # no completion stated its fact: nothing to compare with
                continue
            st.markdown(t(confident_key(kind, k), pair=t(f"hallucination.pair.{top[0].id}.label"),
                          p=fmt_pct(top[1].mean_prob), k=k, n=n))
    df = summary_frame(runs)
    show(summary_chart(df))
    st.caption(t("hallucination.summary.caption"))
    st.markdown(t("hallucination.summary.moral"))
    with st.expander(t("hallucination.summary.table")):
        table = df.drop(columns="mean_pct")
        data_table(table, hide_index=True, width="stretch")
        downloads(table, "hallucination-pairs", key="hallucination_pairs_dl")


def completion_result(prompt: str, params: mb.SamplingParams, dtype: str, gen: mb.Generation) -> None:
    """The generated text, its tokens as chips coloured by probability, the three measures, the picked step's
    alternatives, and the probability and entropy curves."""
    truncation_notice(gen.truncated_from, len(gen.prompt_tokens))
    preset = preset_for(prompt)
    if preset:
        st.markdown(t(f"hallucination.preset.{preset['id']}.note"))
    st.subheader(t("hallucination.output"))
    model_text(prompt + gen.completion)
    rows = cf.token_table(gen)
    summary = cf.summarize(gen)
    key = "hallucination_step_" + digest(prompt, params, dtype)
    st.session_state.setdefault(key, cf.focus_step(rows, (preset or {}).get("focus")))
    if not params.greedy:
        st.info(t("hallucination.sampled.note"), icon=":material/casino:")
    show(generation_chips(gen, selected=st.session_state[key]))
    st.caption(t("hallucination.chips.caption", n=N_ALTERNATIVES))
    m = st.columns(3)
    m[0].metric(t("hallucination.metric.mean"), fmt_pct(summary.mean_prob), help=t("hallucination.metric.mean.help"))
    m[1].metric(t("hallucination.metric.min.label", step=summary.min_index + 1), fmt_pct(summary.min_prob),
                help=t("hallucination.metric.min.help"))
    m[2].metric(t("hallucination.metric.logprob"), fmt_logprob(summary.seq_logprob),
                help=t("hallucination.metric.logprob.help", whole=whole_chance(summary.seq_logprob)))
    a11y.announce_once(("hallucination", prompt, params, dtype),
                       t("a11y.live.measured", n=len(gen.steps), mean=fmt_pct(summary.mean_prob)))
    inspect_step(rows, key)
    st.subheader(t("hallucination.charts"))
    df = token_frame(rows, gen.steps)
    left, right = st.columns(2)
    with left:
        show(line_chart(df, "prob", t("hallucination.col.prob"), "%", [0, 1], st.session_state[key]))
        st.caption(t("hallucination.chart.prob.caption"))
    with right:
        show(line_chart(df, "entropy_bits", t("hallucination.col.entropy_axis"), ".1f", None,
                             st.session_state[key]))
        st.caption(t("hallucination.chart.entropy.caption"))
    downloads(df, "hallucination-tokens", key="hallucination_dl")
