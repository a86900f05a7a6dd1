"""The temperature page's drawing: the seed's worked example, the live bars (generate()'s chain computed by the
browser from sliders bound to the chart), the chain's stages, seeded draws, the pair of prompts, the T x p grid and
the greedy loop. It takes what ui.temperature.compute returned and never reaches the model; the panels that compute
are an "ask" half (their controls) and a "result" half, with the compute call in the page."""
from __future__ import annotations

from contextlib import contextmanager

import altair as alt
import pandas as pd
import streamlit as st

import model_backend as mb
from model_backend.core import stats
from model_backend.lessons import temperature as sv
from ui.charts import (
    MASKED,
    OKABE_ITO,
    PRIMARY,
    PT_BR_NUMBERS,
    SEQUENTIAL,
    cached_chart,
    projection_on,
    save_buttons,
    show,
)
from ui.export import downloads, files_shown
from ui.i18n import fmt_float, fmt_int, fmt_pct, lang, t
from ui.nav import decoding_link
from ui.share import Param
from ui.temperature.compute import GRID_P, GRID_T, LiveBars, PairSide
from ui.untrusted import escape_markdown
from ui.widgets import data_table, model_text, show_error

PRESETS = ("A capital da França é a cidade de", "The capital of France is", "Meu animal favorito é o")
# Greedy runs for the repetition penalty: (case, prompt, tokens). "muito" falls into a loop, as the seed's
# "muito muito muito…"; counting needs the comma and the digits again, which a penalty punishes.
LOOP_CASES = (("loop", "muito", 30), ("needed", "1, 2, 3, 4, 5,", 16))
COUNT_FROM = 6  # the "needed" case should go on 6, 7, 8, ...
LOOP_PENALTIES = (1.1, 1.2, 1.3, 1.5, 2.0, 3.0)
DRAW_SIZES = (100, 1000, 10000)
STAGES = ("raw", "repetition_penalty", "temperature", "top_k", "top_p")
CURVE_T = tuple(round(0.05 * i, 2) for i in range(1, 41))


def pair_text(temperature: float, tops: dict[str, float], sizes: dict[str, int]) -> str:
    """The pair's caption from its measurements (review B, TEMP-1 and TEMP-2): which prompt is the more
    concentrated is read from the two top-1 probabilities at this T, and the nuclei are compared by their sizes
    at these sliders, never typed as "confident" or "much later".

    Args:
        temperature: the panel's T.
        tops: prompt -> probability of its most likely token after the temperature.
        sizes: prompt -> tokens in its top-p nucleus.
    """
    concentrated, spread = sorted(tops, key=tops.get, reverse=True)
    said = [t("temperature.pair.tops", t=fmt_float(temperature, 2), a=concentrated, pa=fmt_pct(tops[concentrated]),
              b=spread, pb=fmt_pct(tops[spread]))]
    narrow, wide = sorted(sizes, key=sizes.get)
    if sizes[narrow] == sizes[wide]:
        said.append(t("temperature.pair.sizes.same", n=fmt_int(sizes[narrow])))
    else:
        said.append(t("temperature.pair.sizes.apart", a=narrow, na=fmt_int(sizes[narrow]), b=wide,
                      nb=fmt_int(sizes[wide]), ratio=fmt_float(sizes[wide] / sizes[narrow], 1)))
    return " ".join(said)


def curve_caption(logits: list[float]) -> str:
    """The caption of the visitor's own curve, with both limits computed (review B, TEMP-8): as T -> 0 the top
    probability tends to 1/m, m the number of logits tied at the maximum (100% only without a tie)."""
    top = max(logits)
    m = sum(1 for x in logits if x == top)
    return t("temperature.curve.caption_own" if m == 1 else "temperature.curve.caption_tied",
             floor=fmt_pct(1 / len(logits)), cold=fmt_pct(1 / m, 0 if 100 % m == 0 else 1), m=m)


def count_verdict(r: float, without: int, with_penalty: int) -> str:
    """What the penalty did to the count, from the two counts (review B, TEMP-9): at a small penalty the count
    can survive whole, and then "it falls apart" would sit under a perfect count."""
    if with_penalty >= without:
        return t("temperature.loop.survives", r=fmt_float(r, 1), n=with_penalty)
    return t("temperature.loop.breaks", r=fmt_float(r, 1), n=with_penalty, m=without)


def link_params() -> list[Param]:
    """What a shared link carries: the prompt and every setting of the live panel."""
    return [Param("prompt", "prompt_temperature", str, PRESETS[0]),
            Param("t", "temperature_T", float, 0.7, low=0.0, high=2.0),
            Param("k", "temperature_k", int, 50, low=0, high=100),
            Param("p", "temperature_p", float, 0.9, low=0.05, high=1.0),
            Param("rep", "temperature_r", float, 1.1, low=1.0, high=2.0),
            Param("n", "temperature_n", int, 1000, choices=DRAW_SIZES),
            Param("seed", "temperature_seed", int, 42, low=0, high=2**31 - 1),
            Param("logits", "temperature_logits", str, "2.0, 1.0, 0.1")]


def chain_frame(view: sv.ChainView, names: list[str]) -> pd.DataFrame:
    """The chain as a table for download: one row per display token, one column per stage."""
    df = pd.DataFrame({"token": names, "id": [int(i) for i in view.ids]})
    for s in view.stages:
        df[s.name] = s.probs.astype(float)
    return df


def grid_frame(sizes: tuple[tuple[int, ...], ...]) -> pd.DataFrame:
    """Nucleus size for every (T, p) of the grid, as the chart reads it."""
    return pd.DataFrame([{"T": fmt_float(temp, 1), "p": fmt_float(p, 2), "size": size, "label": fmt_int(size)}
                         for temp, row in zip(GRID_T, sizes) for p, size in zip(GRID_P, row)])


# ---------------------------------------------------------------- the seed's worked example

def seed_table(rows: tuple[sv.TableRow, ...]) -> pd.DataFrame:
    letters = [chr(ord("A") + i) for i in range(len(rows[0].probs))]
    data = []
    for row in rows:
        line = {t("temperature.seed.col.t"): fmt_float(row.temperature, 1)}
        line.update({t("temperature.seed.col.token", name=k): fmt_pct(p) for k, p in zip(letters, row.probs)})
        if row.seed_pct is not None:
            line[t("temperature.seed.col.seed")] = " / ".join(f"{v}%" for v in row.seed_pct)
            line[t("temperature.seed.col.check")] = (
                t("temperature.seed.match") if not row.mismatches else
                "; ".join(t("temperature.seed.diff", name=letters[i], exact=fmt_pct(row.probs[i]),
                            seed=row.seed_pct[i]) for i in row.mismatches))
        data.append(line)
    return pd.DataFrame(data)


@cached_chart
def top_prob_chart(curve, seed_points: dict | None) -> alt.Chart:
    computed, printed = t("temperature.curve.computed"), t("temperature.curve.seed")
    df = pd.DataFrame([{"T": x, "p": y, "kind": computed, "label": fmt_pct(y)} for x, y in curve])
    x = alt.X("T:Q", title=t("temperature.axis.t"), scale=alt.Scale(domain=[0, 2]))
    y = alt.Y("p:Q", title=t("temperature.axis.ptop"), axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1]))
    tip = [alt.Tooltip("T:Q", title="T", format=".2f"), alt.Tooltip("label:N", title=t("temperature.axis.ptop")),
           alt.Tooltip("kind:N", title=t("temperature.curve.kind"))]
    color = alt.Color("kind:N", title=None, scale=alt.Scale(domain=[computed, printed], range=[PRIMARY, OKABE_ITO[5]]),
                      legend=alt.Legend(orient="bottom"))
    line = alt.Chart(df).mark_line(strokeWidth=3).encode(x=x, y=y, color=color, tooltip=tip)
    layers = [line]
    if seed_points:
        pts = pd.DataFrame([{"T": k, "p": v / 100, "kind": printed, "label": f"{v}%"} for k, v in seed_points.items()])
        layers.append(alt.Chart(pts).mark_point(shape="square", size=110, filled=True).encode(
            x=x, y=y, color=color, tooltip=tip))
    return alt.layer(*layers).properties(height=300)


# ---------------------------------------------------------------- the chain, run in the browser

# Vega-Lite's number locale for each language, so "19,4%" in pt-BR as fmt_pct writes it.
VEGA_LOCALE = {"pt-BR": PT_BR_NUMBERS,  # every chart's (ui.charts.localise); this chart's title formats numbers too
               "en": {"decimal": ".", "thousands": ",", "grouping": [3], "currency": ["$", ""]}}
SLIDERS = (("T", "temperature_T", "temperature.ctl.t", 0.0, 2.0, 0.05),  # (param, state key, label, min, max, step)
           ("K", "temperature_k", "temperature.ctl.k", 0, 100, 1),
           ("P", "temperature_p", "temperature.ctl.p", 0.05, 1.0, 0.01),
           ("R", "temperature_r", "temperature.ctl.r", 1.0, 2.0, 0.05))


def browser_frame(data: sv.BrowserLogits, names: list[str]) -> pd.DataFrame:
    """The rows the browser computes with: the sent tokens (the first len(names) are the display tokens,
    most likely first), then the tail's bins with their mass at every T of the slider."""
    n = len(data.ids)
    tokens = pd.DataFrame({"bin": 0, "l": data.logits, "c": data.in_context.astype(int), "rp": data.raw_probs,
                           "d": [i if i < len(names) else -1 for i in range(n)],
                           "tok": [names[i] if i < len(names) else "" for i in range(n)]})
    bins = pd.DataFrame({"bin": 1, "l": data.bin_top, "c": 0, "rp": 0.0, "d": -1, "tok": "",
                         "lw": [[round(float(x), 6) for x in row] for row in data.bin_logmass]})
    tokens["lw"] = None
    return pd.concat([tokens, bins], ignore_index=True)


def _q(text: str) -> str:
    """Our own label as a Vega expression string literal."""
    import json

    return json.dumps(text, ensure_ascii=False)


BINDINGS_CSS = """<style>
[data-testid="stVegaLiteChart"] form.vega-bindings { display: grid; gap: 0.4rem 1.5rem; margin-top: 0.6rem;
  grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); }
[data-testid="stVegaLiteChart"] .vega-bind, [data-testid="stVegaLiteChart"] .vega-bind label { width: 100%; }
[data-testid="stVegaLiteChart"] .vega-bind label { display: flex; flex-direction: column; gap: 0.15rem;
  align-items: flex-start; text-align: left; }
[data-testid="stVegaLiteChart"] .vega-bind-name { font-size: 0.95rem; }
[data-testid="stVegaLiteChart"] .vega-bind input[type="range"] { width: 100% !important; min-height: 1.8rem; margin: 0;
  accent-color: #0072B2; }
[data-testid="stVegaLiteChart"] .vega-bind input[type="range"]:focus-visible { outline: 3px solid #0060a0; }
[data-testid="stVegaLiteChart"] .vega-bind input[type="range"] + span { display: none; }
.stElementContainer[data-retained="true"][class*="st-key-temperature_live_"] { display: none; }
</style>"""  # the raw value span is hidden: the chart's title shows the values in the visitor's number style.
# The last rule: a phone that took the teacher's values draws the bars under a new key (take_teacher_values); the
# browser keeps the old chart beside it ("retained", Streamlit 1.67) until a run of the live fragment finishes, and
# a run cut short by the next timer tick leaves it there, with the student's old slider values, until her next move.
BINDINGS_PROJECTION_CSS = """<style>
[data-testid="stVegaLiteChart"] .vega-bind-name { font-size: 1.3rem !important; color: #000 !important; }
[data-testid="stVegaLiteChart"] .vega-bind input[type="range"] { min-height: 2.4rem; }
</style>"""


def state_params() -> mb.SamplingParams:
    """The live panel's settings as they are in session_state (defaults, a shared link, or the sliders)."""
    s = st.session_state
    return mb.SamplingParams(temperature=float(s["temperature_T"]), top_k=int(s["temperature_k"]),
                             top_p=float(s["temperature_p"]), repetition_penalty=float(s["temperature_r"]))


def set_initial() -> None:
    """The sliders' values the bars' spec is built from: the page's full run sets them, and so does a phone that
    takes the teacher's values (ui.live_class.follow_in_fragment); the live fragment's own reruns keep them, so the
    browser keeps its chart while a visitor drags."""
    st.session_state["_temperature_init"] = state_params()


def take_teacher_values() -> None:
    """A phone that follows the teacher took her sliders' values (ui.live_class.follow_in_fragment): the bars are
    built at them, under a new chart key. The chart's id stays the same across specs, so its old selection (where
    this student last dragged a slider) would otherwise come back as the event and put her own values back."""
    set_initial()
    st.session_state["_temperature_taken"] = st.session_state.get("_temperature_taken", 0) + 1


def initial() -> mb.SamplingParams:
    return st.session_state.get("_temperature_init") or state_params()


def use_preset() -> None:
    """A preset chip picked: its prompt becomes the page's (and the shared prompt)."""
    choice = st.session_state.get("temperature_preset")
    if choice:
        st.session_state["prompt_temperature"] = choice
        st.session_state["prompt"] = choice


def follow(event) -> mb.SamplingParams:
    """Copy the chart's slider values (reported by Streamlit as its selections) into session_state,
    clamped to each slider's range and step, and return the settings now in force."""
    selection = (event or {}).get("selection", {}) if isinstance(event, dict) else getattr(event, "selection", {})
    for name, key, _, lo, hi, step in SLIDERS:
        picked = (selection or {}).get(name)
        if isinstance(picked, list):
            picked = picked[0] if picked else None
        if isinstance(picked, dict):
            picked = picked.get(name)
        if isinstance(picked, list):
            picked = picked[0] if picked else None
        try:
            value = min(hi, max(lo, float(picked)))
        except (TypeError, ValueError):
            continue
        st.session_state[key] = int(round(value)) if isinstance(step, int) else round(round(value / step) * step, 2)
    return state_params()


@cached_chart
def _live_bars(bars: LiveBars, init: mb.SamplingParams) -> alt.Chart:
    return live_bars(bars.data, list(bars.names), init)


def live_bars_for(bars: LiveBars, init: mb.SamplingParams) -> alt.Chart:
    """The browser-computed bars for this prompt, built once per (prompt, language, projection mode, initial
    settings) and shared (ui.charts.cached_chart): the same spec every rerun, so the browser updates nothing until
    a slider moves."""
    return _live_bars(bars, init)


def live_bars(data: sv.BrowserLogits, names: list[str], init: mb.SamplingParams, precise: bool = False,
              height_step: int = 26) -> alt.Chart:
    """The display tokens' bars, with generate()'s chain (repetition penalty -> temperature -> top-k -> top-p
    -> softmax) computed by the browser from the sliders bound to the chart: a slider step redraws the bars
    within a frame, with no server round trip. model_backend/core/sampling.py stays the reference: a test renders
    this spec with vl-convert and compares it with the chain (precise=True prints the numbers at full precision).
    """
    kept_label, cut_label = t("temperature.bars.kept"), t("temperature.bars.cut")
    values = {"T": init.temperature, "K": init.top_k, "P": init.top_p, "R": init.repetition_penalty}
    params = [alt.selection_point(name=name, fields=[name], value=values[name], clear=False, on="none",
                                  bind=alt.binding_range(min=lo, max=hi, step=step, name=t(label)))
              for name, _, label, lo, hi, step in reversed(SLIDERS)]  # Vega lists bound inputs last-first
    T, K, P, R = "toNumber(T_T)", "toNumber(K_K)", "toNumber(P_P)", "toNumber(R_R)"  # the inputs' signals
    pct = ".1%"
    chart = alt.Chart(browser_frame(data, names)).transform_calculate(
        # 1. repetition penalty (context tokens only): a positive logit is divided by R, a negative one multiplied
        pen=f"datum.c ? (datum.l < 0 ? datum.l * {R} : datum.l / {R}) : datum.l",
        # 2. temperature divides the logits (T = 0 is greedy: the argmax of the penalised logits, shown at T = 1)
        te=f"{T} > 0 ? {T} : 1",
    ).transform_calculate(
        x="datum.bin ? datum.lw[round(datum.te * 20)] : datum.pen / datum.te",  # a bin: log of its mass at this T
        o="datum.bin ? datum.l / datum.te : datum.pen / datum.te",  # order: a bin sits at its highest logit
    ).transform_joinaggregate(m="max(x)").transform_calculate(e="exp(datum.x - datum.m)").transform_joinaggregate(
        z="sum(e)").transform_calculate(
        pb="datum.e / datum.z",  # softmax after penalty and temperature: the height of a cut bar
    ).transform_window(rk="rank()", sort=[alt.SortField("o", order="descending")]).transform_calculate(
        # 3. top-k keeps the k highest scores (ties with the k-th included); 0 = off
        kk=f"{K} == 0 || datum.rk <= {K}",
    ).transform_calculate(e2="datum.kk ? datum.e : 0").transform_joinaggregate(z2="sum(e2)").transform_calculate(
        q="datum.e2 / datum.z2",
    ).transform_window(cum="sum(q)", frame=[None, 0], ignorePeers=True, sort=[alt.SortField("o", order="descending")]).transform_calculate(
        # 4. top-p keeps a token while the tokens above it hold less than p (the first one always); in a bin,
        # the part that fills the nucleus up to p
        a="max(0, datum.cum - datum.q)",  # the mass of the tokens above this one
    ).transform_calculate(
        e3=f"{P} >= 1 ? datum.e2 : datum.bin ? (datum.a < {P} ? min(datum.e2, ({P} - datum.a) * datum.z2) : 0)"
           f" : (datum.a < {P} || datum.rk == 1 ? datum.e2 : 0)",
    ).transform_joinaggregate(z3="sum(e3)").transform_calculate(
        # 5. softmax over what is left, renormalised; greedy is one-hot on the argmax
        fin=f"{T} == 0 ? (datum.rk == 1 ? 1 : 0) : datum.e3 / datum.z3",
    ).transform_filter("datum.d >= 0").transform_calculate(
        why=f"{T} == 0 ? (datum.fin > 0 ? '' : 'greedy') : !datum.kk ? 'top_k' : datum.e3 > 0 ? '' : 'top_p'",
    ).transform_calculate(
        value="datum.why ? datum.pb : datum.fin",
        state=f"datum.why ? {_q(cut_label)} : {_q(kept_label)}",
        text=f"datum.why == 'greedy' ? {_q(t('temperature.cut.greedy'))} : datum.why == 'top_k' ? "
             f"{_q(t('temperature.cut.top_k'))} : datum.why == 'top_p' ? {_q(t('temperature.cut.top_p'))} : "
             f"format(datum.fin, '{pct}')",
        raw=f"format(datum.rp, '{pct}')", final=f"format(datum.fin, '{pct}')", before=f"format(datum.pb, '{pct}')",
    )
    enc = dict(
        x=alt.X("value:Q", title=t("temperature.axis.prob"), axis=alt.Axis(format="%")),
        y=alt.Y("tok:N", sort=list(names), title=t("temperature.axis.token"), axis=alt.Axis(labelOverlap=False)),
        tooltip=[alt.Tooltip("tok:N", title=t("temperature.axis.token")),
                 alt.Tooltip("raw:N", title=t("temperature.tip.raw")),
                 alt.Tooltip("final:N", title=t("temperature.tip.final")),
                 alt.Tooltip("text:N", title=t("temperature.tip.state"))],
    )
    color = alt.Color("state:N", title=None, scale=alt.Scale(domain=[kept_label, cut_label], range=[PRIMARY, MASKED]),
                      legend=alt.Legend(orient="bottom"))
    bars = chart.mark_bar().encode(color=color, **enc).add_params(*params)
    if precise:  # for the tests: final probability, probability before the cut, and the cut, in full
        chart = chart.transform_calculate(text="format(datum.fin, '.12f') + ' ' + format(datum.pb, '.12f') + ' ' + datum.why")
    text = chart.mark_text(align="left", dx=4).encode(text="text:N", **enc)
    off = _q(t("temperature.chain.off"))  # two lines, so that a phone shows them whole
    settings = (f"['T = ' + format({T}, '.2f') + '  ·  top-k ' + ({K} == 0 ? {off} : format({K}, 'd')), "
                f"'top-p ' + ({P} >= 1 ? {off} : format({P}, '.2f')) + '  ·  ' + "
                f"{_q(t('temperature.stage.repetition_penalty'))} + ' ' + format({R}, '.2f')]")
    return (bars + text).properties(
        height=alt.Step(height_step), title=alt.TitleParams(text=alt.ExprRef(settings), anchor="start"),
    ).configure(locale={"number": VEGA_LOCALE[lang()]})


@cached_chart
def entropy_chart(curve, temperature: float, view: sv.ChainView) -> alt.Chart:
    """Entropy against T (temperature only), with this setting's point before and after the cuts."""
    before, after = t("temperature.entropy.before"), t("temperature.entropy.after")
    df = pd.DataFrame([{"T": x, "H": h, "kind": before, "label": fmt_float(h, 2)} for x, h in curve])
    final_bits = view.stages[-1].entropy_bits
    here = 0.0 if temperature == 0 else next(
        s.entropy_bits for s in reversed(view.stages) if s.name in ("temperature", "repetition_penalty", "raw"))
    pts = pd.DataFrame([{"T": temperature, "H": here, "kind": before, "label": fmt_float(here, 2)},
                        {"T": temperature, "H": final_bits, "kind": after, "label": fmt_float(final_bits, 2)}])
    x = alt.X("T:Q", title=t("temperature.axis.t"), scale=alt.Scale(domain=[0, 2]))
    y = alt.Y("H:Q", title=t("temperature.axis.entropy"))
    tip = [alt.Tooltip("T:Q", title="T", format=".2f"), alt.Tooltip("label:N", title=t("temperature.axis.entropy")),
           alt.Tooltip("kind:N", title=t("temperature.curve.kind"))]
    legend = alt.Legend(orient="bottom", direction="vertical")  # one row ran past a 390 px phone's edge
    color = alt.Color("kind:N", title=None, scale=alt.Scale(domain=[before, after], range=[PRIMARY, OKABE_ITO[5]]),
                      legend=legend)
    shape = alt.Shape("kind:N", title=None, scale=alt.Scale(domain=[before, after], range=["circle", "diamond"]),
                      legend=legend)  # the two dots differ in shape too (greyscale)
    line = alt.Chart(df).mark_line(strokeWidth=3).encode(x=x, y=y, color=color, tooltip=tip)
    dots = alt.Chart(pts).mark_point(size=160, filled=True).encode(x=x, y=y, color=color, shape=shape, tooltip=tip)
    mark = t("temperature.greedy.mark")  # "T = 0: greedy", on two lines: on a phone one line crossed the curve
    greedy = alt.Chart(pd.DataFrame([{"T": 0.0, "H": 0.0, "label": mark, "lines": mark.replace(": ", ":\n", 1)}])).mark_text(
        align="left", dx=2, dy=-22, baseline="bottom", lineBreak="\n").encode(
            x=x, y=y, text="lines:N", tooltip=[alt.Tooltip("label:N", title="T = 0")])
    return alt.layer(line, dots, greedy).properties(height=320)  # the legend's two rows take ~60 px of it


def stage_table(view: sv.ChainView, params: mb.SamplingParams) -> pd.DataFrame:
    """Tokens kept, entropy and the top token's probability after each stage (off stages say so)."""
    ran = {s.name: s for s in view.stages}
    rows = []
    for name in STAGES + (("greedy",) if "greedy" in ran else ()):
        s = ran.get(name)
        rows.append({t("temperature.chain.col.stage"): t(f"temperature.stage.{name}"),
                     t("temperature.chain.col.setting"): _setting(name, params),
                     t("temperature.chain.col.kept"): fmt_int(s.kept) if s else "—",
                     t("temperature.chain.col.entropy"): fmt_float(s.entropy_bits, 2) if s else "—",
                     t("temperature.chain.col.top"): fmt_pct(float(s.probs.max())) if s else "—"})
    return pd.DataFrame(rows)


def _setting(name: str, p: mb.SamplingParams) -> str:
    off = t("temperature.chain.off")
    if name == "repetition_penalty":
        return fmt_float(p.repetition_penalty, 2) if p.repetition_penalty != 1 else off
    if name == "temperature":
        return t("temperature.greedy.short") if p.greedy else (fmt_float(p.temperature, 2) if p.temperature != 1 else off)
    if name == "top_k":
        return off if p.greedy or not p.top_k else fmt_int(p.top_k)
    if name == "top_p":
        return off if p.greedy or p.top_p >= 1 else fmt_float(p.top_p, 2)
    return "argmax" if name == "greedy" else ""


@cached_chart
def chain_heatmap(view: sv.ChainView, names: list[str]) -> alt.Chart:
    """Tokens (rows) x stages (columns): each cell is the token's probability after that stage."""
    ran = {s.name: s for s in view.stages}
    order = [n for n in STAGES + ("greedy",) if n in ran]
    rows = []
    for col, name in enumerate(order):
        for i, tok in enumerate(names):
            p = float(ran[name].probs[i])
            rows.append({"stage": t(f"temperature.stage.{name}"), "col": col, "token": tok, "rank": i, "p": p,
                         "cut": p == 0, "label": fmt_pct(p) if p > 0 else t("temperature.heat.cut")})
    df = pd.DataFrame(rows)
    big = projection_on()  # a projector's numbers and rows larger, as its axis labels are (22 px, 14 px else)
    stages = [t(f"temperature.stage.{n}") for n in order]
    need = max(map(len, stages)) * (22 if big else 14) * 0.6 + 8  # px: the longest name, level (ui.charts' sizes)
    narrow = f"width / {len(order)} < {need:.0f}"  # a column narrower (a phone; a projector): names slanted, none cut
    x = alt.X("stage:N", sort=stages, title=None, axis=alt.Axis(
        orient="top", labelLimit=240, labelOverlap=False, labelAngle=alt.expr(f"{narrow} ? -40 : 0"),
        labelAlign=alt.expr(f"{narrow} ? 'left' : 'center'"),
        labelBaseline=alt.expr(f"{narrow} ? 'middle' : 'bottom'")))
    y = alt.Y("token:N", sort=list(names), title=t("temperature.axis.token"), axis=alt.Axis(labelOverlap=False))
    tip = [alt.Tooltip("token:N", title=t("temperature.axis.token")), alt.Tooltip("stage:N", title=t("temperature.chain.col.stage")),
           alt.Tooltip("label:N", title=t("temperature.axis.prob"))]
    color = alt.condition("datum.cut", alt.value(MASKED), alt.Color(
        "p:Q", title=t("temperature.axis.prob"), scale=alt.Scale(scheme=SEQUENTIAL, domain=[0, 1]),
        legend=alt.Legend(format="%", orient="bottom")))
    cells = alt.Chart(df).mark_rect(stroke="white").encode(x=x, y=y, color=color, tooltip=tip)
    text = alt.Chart(df).mark_text(fontSize=18 if big else 12).encode(
        x=x, y=y, text="label:N", tooltip=tip,
        color=alt.condition("datum.cut || datum.p > 0.55", alt.value("black"), alt.value("white")))
    return (cells + text).properties(height=alt.Step(34 if big else 26))


@cached_chart
def grid_chart(df: pd.DataFrame) -> alt.Chart:
    x = alt.X("p:O", title=t("temperature.axis.top_p"), axis=alt.Axis(labelAngle=0))
    y = alt.Y("T:O", title=t("temperature.axis.t"))
    tip = [alt.Tooltip("T:O", title="T"), alt.Tooltip("p:O", title="top-p"),
           alt.Tooltip("label:N", title=t("temperature.dark.size"))]
    big = projection_on()  # a projector's rows and numbers as large as its axis labels (22 px): every T labelled
    cells = alt.Chart(df).mark_rect(stroke="white").encode(
        x=x, y=y, tooltip=tip, color=alt.Color("size:Q", title=t("temperature.dark.size"),
                                               scale=alt.Scale(type="log", scheme=SEQUENTIAL),
                                               legend=alt.Legend(orient="bottom", titleLimit=600)))
    max_size = float(df["size"].max())
    text = alt.Chart(df).mark_text(fontSize=20 if big else 13).encode(
        x=x, y=y, text="label:N", tooltip=tip,
        color=alt.condition(f"datum.size > {max_size ** 0.75:.0f}", alt.value("black"), alt.value("white")))
    return (cells + text).properties(height=alt.Step(48 if big else 34))


def draw_chart(draw: sv.Draw, names: list[str]) -> alt.Chart:
    prob, seen = t("temperature.draw.prob"), t("temperature.draw.seen")
    rows = []
    entries = [(n, float(p), int(c)) for n, p, c in zip(names, draw.probs, draw.counts)]
    entries.append((t("temperature.draw.other"), draw.other_prob, draw.other_count))
    for rank, (name, p, c) in enumerate(entries):
        if p == 0 and c == 0:
            continue
        rows.append({"token": name, "rank": rank, "kind": prob, "value": p, "label": fmt_pct(p)})
        rows.append({"token": name, "rank": rank, "kind": seen, "value": c / draw.n,
                     "label": f"{fmt_pct(c / draw.n)} ({fmt_int(c)}/{fmt_int(draw.n)})"})
    df = pd.DataFrame(rows)
    return alt.Chart(df).mark_bar().encode(
        x=alt.X("value:Q", title=t("temperature.axis.prob"), axis=alt.Axis(format="%")),
        y=alt.Y("token:N", sort=list(dict.fromkeys(df["token"])), title=t("temperature.axis.token"),
                axis=alt.Axis(labelOverlap=False)),
        yOffset=alt.YOffset("kind:N", sort=[prob, seen]),
        color=alt.Color("kind:N", title=None, scale=alt.Scale(domain=[prob, seen], range=[PRIMARY, OKABE_ITO[1]]),
                        legend=alt.Legend(orient="bottom")),
        tooltip=[alt.Tooltip("token:N", title=t("temperature.axis.token")), alt.Tooltip("kind:N", title=" "),
                 alt.Tooltip("label:N", title=t("temperature.axis.prob"))],
    ).properties(height=alt.Step(14))


@cached_chart
def mass_chart(curves: dict[str, tuple], sizes: dict[str, int], p: float) -> alt.Chart:
    """Probability of the n most likely tokens together, against n (log scale): the nucleus is where a
    curve crosses p."""
    rows = [{"prompt": name, "n": n, "mass": m, "label": fmt_pct(m)} for name, curve in curves.items()
            for n, m in curve]
    dots = pd.DataFrame([{"prompt": name, "n": size, "mass": p, "label": t("temperature.pair.dot", n=fmt_int(size))}
                         for name, size in sizes.items()])
    x = alt.X("n:Q", title=t("temperature.axis.ntokens"), scale=alt.Scale(type="log", domainMin=1),
              axis=alt.Axis(format="~s"))
    y = alt.Y("mass:Q", title=t("temperature.axis.mass"), axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1]))
    color = alt.Color("prompt:N", title=None, scale=alt.Scale(domain=list(curves), range=[PRIMARY, OKABE_ITO[5]]),
                      legend=alt.Legend(orient="bottom", columns=1, labelLimit=400))
    tip = [alt.Tooltip("prompt:N", title=t("temperature.axis.prompt")), alt.Tooltip("n:Q", title="n", format=","),
           alt.Tooltip("label:N", title=t("temperature.axis.mass"))]
    names = list(curves)
    dash = alt.StrokeDash("prompt:N", title=None, scale=alt.Scale(domain=names, range=[[1, 0], [7, 4]][:len(names)]),
                          legend=None)  # in greyscale too, each prompt's curve by its dash and its dot by its shape
    shape = alt.Shape("prompt:N", title=None, scale=alt.Scale(domain=names, range=["circle", "diamond"][:len(names)]),
                      legend=alt.Legend(orient="bottom", columns=1, labelLimit=400))
    line = alt.Chart(pd.DataFrame(rows)).mark_line(strokeWidth=3).encode(x=x, y=y, color=color, strokeDash=dash,
                                                                         tooltip=tip)
    rule = alt.Chart(pd.DataFrame([{"mass": p, "label": f"p = {fmt_float(p, 2)}"}])).mark_rule(
        strokeDash=[6, 4], color="black").encode(y="mass:Q", tooltip=[alt.Tooltip("label:N", title="top-p")])
    points = alt.Chart(dots).mark_point(size=180, filled=True).encode(x=x, y=y, color=color, shape=shape, tooltip=tip)
    first, second = list(curves)[:2]  # one label above-left of its dot, the other below-right: no overlap
    above = alt.Chart(dots[dots["prompt"] == first]).mark_text(align="right", dx=-8, dy=-12, fontSize=14)
    below = alt.Chart(dots[dots["prompt"] == second]).mark_text(align="left", dx=8, dy=16, fontSize=14)
    labels = [m.encode(x=x, y=y, color=color, text="label:N", tooltip=tip) for m in (above, below)]
    return alt.layer(line, rule, points, *labels).properties(height=320)


def seed_example() -> None:
    st.header(t("temperature.seed.header"))
    st.markdown(t("temperature.seed.text"))
    text = st.text_input(t("temperature.seed.input"), key="temperature_logits", help=t("temperature.seed.help"))
    try:
        logits = sv.parse_logits(text)
    except mb.InvalidInput as exc:
        show_error(exc, prefix="temperature.err")  # the typed value as a code span, never Markdown
        return
    rows = sv.temperature_table(logits)
    data_table(seed_table(rows), hide_index=True, width="stretch")
    is_seed = logits == sv.SEED_LOGITS
    table_diffs = [t("temperature.seed.caption_diff", name=chr(ord("A") + i), t=fmt_float(row.temperature, 1),
                     exact=fmt_pct(row.probs[i]), seed=row.seed_pct[i]) for row in rows for i in row.mismatches]
    st.caption(t("temperature.seed.caption_seed", diffs="; ".join(table_diffs)) if is_seed
               else t("temperature.seed.caption_own"))
    show(top_prob_chart(sv.top_prob_curve(logits, CURVE_T), sv.SEED_CURVE if is_seed else None))
    diffs = sv.seed_curve_mismatches() if is_seed else ()
    st.caption(curve_caption(logits) if not is_seed else t(
        "temperature.curve.caption_seed", n=len(diffs), floor=fmt_pct(1 / len(logits)),
        diffs="; ".join(t("temperature.curve.diff", t=fmt_float(temp, 1), seed=printed,
                          exact=fmt_pct(p, 3 if p > 0.995 else 1)) for temp, p, printed in diffs)))



# ---------------------------------------------------------------- the live panel (its fragment is in the page)

def live_controls(bars: LiveBars, init: mb.SamplingParams) -> mb.SamplingParams:
    """The bars with their sliders, computed in the browser, and the saved image; returns the settings now in force.

    The bars' spec is built from `init` (the values at the page's last full run), so it stays the same when the
    live fragment reruns and the browser keeps its chart, its sliders and their focus."""
    key = f"temperature_live_{st.session_state.get('_temperature_taken', 0)}"  # a new chart when the teacher's came
    event = show(live_bars_for(bars, init), on_select="rerun", key=key,
                 selection_mode=[s[0] for s in SLIDERS], save=False)
    st.caption(t("temperature.ctl.caption", **{k: t(f"temperature.ctl.{k}.help") for k in ("t", "k", "p", "r")}))
    return follow(event)  # the sliders' values now, into session_state (the link reads them there)


def live_result(view: sv.ChainView, names: list[str], params: mb.SamplingParams, curve) -> sv.Draw | None:
    """What the sliders change, from the chain at these settings: the numbers, the entropy curve (`curve`, entropy
    against T), the chain's stages and the seeded draws (returned, once drawn)."""
    st.caption(t("temperature.bars.caption", n=len(names), vocab=fmt_int(len(view.final))))
    if params.greedy:
        st.info(t("temperature.greedy.on"), icon=":material/trending_flat:")
    nucleus = next((s.kept for s in view.stages if s.name == "top_p"), None)
    m = st.columns(3)
    m[0].metric(t("temperature.metric.kept"), fmt_int(view.stages[-1].kept),
                help=t("temperature.metric.kept.help", nucleus=fmt_int(nucleus) if nucleus else "—"))
    m[1].metric(t("temperature.metric.entropy"), f"{fmt_float(view.stages[-1].entropy_bits, 2)} bits")
    m[2].metric(t("temperature.metric.top"), fmt_pct(float(view.final.max())))
    show(entropy_chart(curve, params.temperature, view), save=False)  # its PNG/SVG buttons: files()
    st.caption(t("temperature.entropy.caption"))

    st.subheader(t("temperature.chain.header"))
    st.markdown(t("temperature.chain.text"))
    show(chain_heatmap(view, names), save=False)  # its PNG/SVG buttons: files()
    st.caption(t("temperature.chain.caption"))
    data_table(stage_table(view, params), hide_index=True, width="stretch")
    return draws(view, names)


def draws(view: sv.ChainView, names: list[str]) -> sv.Draw | None:
    """Seeded draws from the final distribution (numpy, no model), on a click and from then on; None before."""
    st.subheader(t("temperature.draw.header"))
    # three in a row; in projection mode the sizes and the seed share a row and the button goes under them (at 1280
    # px with the sidebar open, three columns cut the third size and the button's label)
    c = [*st.columns([3, 2]), st] if projection_on() else st.columns(3)
    sizes = {n: fmt_int(n) for n in DRAW_SIZES}  # precomputed: AppTest formats outside the script
    n = c[0].segmented_control(t("temperature.draw.n"), list(sizes), key="temperature_n", format_func=sizes.get) or 1000
    seed = int(c[1].number_input(t("temperature.draw.seed"), 0, 2**31 - 1, step=1, key="temperature_seed"))
    if c[2].button(t("temperature.draw.button", n=fmt_int(n)), key="temperature_draw", type="primary"):
        st.session_state["temperature_drawn"] = True
    if st.session_state.get("temperature_drawn"):
        draw = sv.draw_samples(view.final, view.ids, n, seed)
        show(draw_chart(draw, names), save=False)  # its PNG/SVG buttons: files()
        st.caption(t("temperature.draw.caption", n=fmt_int(n), seed=seed, distinct=fmt_int(draw.distinct)))
        return draw
    return None


def files(bars: LiveBars, view: sv.ChainView, names: list[str], params: mb.SamplingParams, curve,
          drawn: sv.Draw | None) -> None:
    """The live panel's charts as PNG and SVG and the chain as CSV and JSON, in one box drawn only while it is open.

    Why one closed box: each download button is registered with Streamlit's file manager at every run, under one
    lock for the whole server, and a class's 30 phones that follow the teacher's sliders rerun this panel at the
    same moment (see ui.loop.draw.files, where bench class_bench measured it)."""
    if not files_shown():  # a phone that follows the teacher draws no files
        return
    box = st.expander(t("temperature.files.title"), icon=":material/download:", key="temperature_files_open",
                      on_change="rerun")
    if not box.open:
        return
    with box:
        st.markdown(t("temperature.files.bars"))
        save_buttons(live_bars_for(bars, params), align="left")  # the saved image: the bars at the sliders' values now
        st.markdown(t("temperature.files.entropy"))
        save_buttons(entropy_chart(curve, params.temperature, view), align="left")
        st.markdown(t("temperature.files.chain"))
        save_buttons(chain_heatmap(view, names), align="left")
        downloads(chain_frame(view, names), "sampling-chain", key="temperature_dl_chain")
        if drawn is not None:
            st.markdown(t("temperature.files.draw"))
            save_buttons(draw_chart(drawn, names), align="left")


# ---------------------------------------------------------------- the pair, the grid and the greedy loop

def compare_ask() -> tuple[float, float, list]:
    """The pair's controls: returns (top-p, T, the two columns its numbers go in)."""
    st.header(t("temperature.pair.header"))
    st.markdown(t("temperature.pair.text"))
    c = st.columns(2)
    p = c[0].slider(t("temperature.pair.p"), 0.05, 0.99, 0.9, 0.01, key="temperature_pair_p")
    temp = c[1].slider(t("temperature.pair.t"), 0.05, 2.0, 1.0, 0.05, key="temperature_pair_T")
    return p, temp, st.columns(2)


def compare_result(p: float, temp: float, cols: list, sides: list[PairSide]) -> None:
    """Each prompt's nucleus and top tokens in its column, the two mass curves, and what they say."""
    sizes, tops = {}, {}
    for col, side in zip(cols, sides):
        view, prompt = side.view, side.prompt
        sizes[prompt], tops[prompt] = view.stages[-1].kept, float(view.before_cut.max())
        top = ", ".join(f"{escape_markdown(name)} {fmt_pct(float(view.final[i]))}" for name, i in  # help: Markdown
                        zip(side.top, view.ids[:3]))
        col.metric(t("temperature.pair.nucleus", prompt=prompt, p=fmt_float(p, 2)), fmt_int(sizes[prompt]),
                   help=t("temperature.pair.top", top=top))
    show(mass_chart({side.prompt: side.mass for side in sides}, sizes, p))
    st.caption(t("temperature.pair.caption") + " " + pair_text(temp, tops, sizes))


def dark_section(sizes: tuple[tuple[int, ...], ...]) -> None:
    """The nucleus's size over the T x p grid (`sizes`: one row per T, one column per p)."""
    st.header(t("temperature.dark.header"))
    st.markdown(t("temperature.dark.text"))
    grid = grid_frame(sizes)
    show(grid_chart(grid))
    ends = grid.groupby("T", sort=False)["size"].agg(["min", "max"])  # rows in GRID_T order: lowest T first
    lo, hi = ends.index[0], ends.index[-1]
    st.caption(t("temperature.dark.caption", lo=lo, hi=hi, lo_min=fmt_int(ends["min"][lo]),
                 lo_max=fmt_int(ends["max"][lo]), hi_min=fmt_int(ends["min"][hi]), hi_max=fmt_int(ends["max"][hi])))


def loop_ask() -> float:
    """The greedy loop's penalty slider: returns the penalty r to compare with none."""
    st.header(t("temperature.loop.header"))
    st.markdown(t("temperature.loop.text"))
    shown = {r: fmt_float(r, 1) for r in LOOP_PENALTIES}  # precomputed: AppTest formats outside the script
    return st.select_slider(t("temperature.ctl.r"), LOOP_PENALTIES, value=1.3, key="temperature_loop_r",
                            format_func=shown.get, help=t("temperature.loop.runs"))


def loop_slots(r: float):
    """Each case in its column (its heading and prompt), then one slot per penalty, none then r: yields
    (case, prompt, tokens, penalty) while its column is the place drawn into, so that a run's bar and its text
    appear where they are read."""
    for col, (case, prompt, n) in zip(st.columns(2), LOOP_CASES):
        with col:
            st.subheader(t(f"temperature.loop.case.{case}"))
            model_text(prompt)
            for penalty in (1.0, r):
                yield case, prompt, n, penalty


@contextmanager
def loop_running(penalty: float):
    """Yields the `progress(fraction)` to give compute.loop_run. The bar is drawn on its first call, so a run already
    made shows none, and it is cleared after."""
    bar = None

    def progress(fraction: float) -> None:
        nonlocal bar
        text = t("temperature.loop.running", r=fmt_float(penalty, 1))
        if bar is None:
            bar = st.progress(fraction, text=text)
        else:
            bar.progress(fraction, text=text)

    try:
        yield progress
    finally:
        if bar is not None:
            bar.empty()


def loop_result(case: str, penalty: float, run: mb.Generation) -> dict[float, int]:
    """One run's text and what it did: the loop found, or the numbers counted (returned as {penalty: count})."""
    st.markdown(t("temperature.loop.with", r=fmt_float(penalty, 1)) if penalty != 1.0
                else t("temperature.loop.without"))
    model_text(run.completion)
    if case == "needed":
        counted = stats.counted(run.completion, COUNT_FROM)
        st.caption(t("temperature.loop.counted", n=counted))
        return {penalty: counted}
    loop = stats.find_loop([s.token.id for s in run.steps])
    st.caption(t("temperature.loop.found", period=loop.period, repeats=loop.repeats) if loop.period
               else t("temperature.loop.none"))
    return {}


def loop_verdict(r: float, counts: dict[float, int]) -> None:
    """The warning, what the penalty did to the count (`counts`: penalty -> numbers counted), and the advice."""
    st.markdown(t("temperature.loop.warning") + " " + count_verdict(r, counts[1.0], counts[r]) + " "
                + t("temperature.loop.advice"))
    decoding_link(next(prompt for case, prompt, _ in LOOP_CASES if case == "loop"), "temperature")
