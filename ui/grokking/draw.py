"""The grokking page's drawing: curve, spectrum and wave charts, the Fourier panel, the live run's controls, its
progress and its outcome. It takes what ui.grokking.compute returned (curves, Phases, Fourier) and starts nothing."""
from __future__ import annotations

import json
import math
from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from model_backend.lessons.grokking import MODEL_KINDS, BackgroundRun, GrokConfig
from model_backend.lessons.grokking.live import MAX_RUNS
from ui import a11y
from ui.charts import MASKED, OKABE_ITO, PRIMARY, cached_chart, projection_on, show
from ui.export import downloads
from ui.grokking.compute import (
    DEFAULTS,
    GOOD_FIT,
    KEEP_RUNS,
    LEARNING_RATES,
    MAX_SECONDS,
    PRIMES,
    STEP_CAPS,
    WEIGHT_DECAYS,
    Fourier,
    Phases,
)
from ui.i18n import fmt_float, fmt_floats, fmt_int, fmt_ints, fmt_pct, fmt_pcts, t
from ui.share import Param
from ui.untrusted import code_span

TRAIN_COLOR, TEST_COLOR, JUMP_COLOR = OKABE_ITO[1], OKABE_ITO[0], OKABE_ITO[5]


def curves_frame(runs: Sequence[tuple[str, dict]]) -> pd.DataFrame:
    """Long table for the curve charts: one row per (run, step, split) with accuracy, loss and tooltip labels.

    Args:
        runs: (label, curves) pairs; curves has "step", "train_acc", "test_acc", "train_loss", "test_loss".
    """
    frames = []
    for label, c in runs:
        for split in ("train", "test"):
            frames.append(pd.DataFrame({
                "run": label, "split": t(f"grokking.split.{split}"), "step": np.asarray(c["step"]),
                "acc": np.asarray(c[f"{split}_acc"]), "loss": np.maximum(np.asarray(c[f"{split}_loss"]), 1e-7),
            }))
    df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["run", "split", "step", "acc", "loss"])
    df["acc_label"] = fmt_pcts(df["acc"])
    df["loss_label"] = fmt_floats(df["loss"], 4)
    df["step_label"] = fmt_ints(df["step"])
    return df


def _step_x(x_max: int) -> alt.X:
    """Step on a log axis from 1 to x_max (the run's length: a live run grows into a fixed axis)."""
    return alt.X("step:Q", scale=alt.Scale(type="log", domain=[1, max(int(x_max), 2)], nice=False),
                 title=t("grokking.axis.step"), axis=alt.Axis(format="~s"))


def _encodings(df: pd.DataFrame, value: str, x_max: int | None = None) -> dict:
    splits = [t("grokking.split.train"), t("grokking.split.test")]
    enc = {
        "x": _step_x(x_max or (df["step"].max() if len(df) else 2)),
        "color": alt.Color("split:N", title=t("grokking.axis.split"),  # below: a right legend left a phone's plot narrow
                           scale=alt.Scale(domain=splits, range=[TRAIN_COLOR, TEST_COLOR]),
                           legend=alt.Legend(orient="bottom")),
        "tooltip": [alt.Tooltip("split:N", title=t("grokking.axis.split")),
                    alt.Tooltip("step_label:N", title=t("grokking.tip.step")),
                    alt.Tooltip(f"{value}_label:N", title=t("grokking.tip.value"))],
    }
    runs = list(dict.fromkeys(df["run"])) if "run" in df else []
    if len(runs) > 1:  # the earlier run dashed, the latest solid
        enc["tooltip"].insert(0, alt.Tooltip("run:N", title=t("grokking.axis.run")))
        enc["strokeDash"] = alt.StrokeDash("run:N", title=t("grokking.axis.run"),
                                           scale=alt.Scale(domain=runs, range=[[6, 4], [1, 0]][-len(runs):]),
                                           legend=alt.Legend(orient="bottom", direction="vertical"))
    return enc


def _columns(df: pd.DataFrame, value: str) -> pd.DataFrame:
    """Only what a chart of `value` ("acc" or "loss") draws and shows: the page sends less (README "Capacity");
    the run's name only when there are two runs to tell apart."""
    keep = ["split", "step", value, f"{value}_label", "step_label"]
    if "run" in df and df["run"].nunique() > 1:
        keep.insert(0, "run")
    return df[[c for c in keep if c in df]]


def _phase_marks(memo: int | None, jump: int | None, last: int, selected: int | None) -> list[alt.Chart]:
    """Grey band = memorisation (train >= 99%, test < 95%), red rule = the jump, dashed rule = chosen step."""
    layers = []
    if memo is not None:
        end = jump if jump is not None else last
        band = pd.DataFrame({"x": [memo], "x2": [max(end, memo)], "label": [t("grokking.mark.memo")],
                             "tip": [f"{fmt_int(memo)} – {fmt_int(end)}"]})
        base = alt.Chart(band)
        layers.append(base.mark_rect(color=MASKED, opacity=0.5).encode(
            x=alt.X("x:Q"), x2=alt.X2("x2"),
            tooltip=[alt.Tooltip("label:N", title=" "), alt.Tooltip("tip:N", title=t("grokking.tip.step"))]))
        layers.append(base.mark_text(align="left", baseline="top", dx=4, dy=4, color="#555").encode(
            x=alt.X("x:Q"), y=alt.value(0), text=alt.Text("label:N"), tooltip=[alt.Tooltip("label:N", title=" ")]))
    for step, key, color, dash in ((jump, "grokking.mark.jump", JUMP_COLOR, []), (selected, "grokking.mark.here", "#000", [4, 4])):
        if step is None:
            continue
        rule = pd.DataFrame({"x": [step], "label": [t(key)], "tip": [fmt_int(step)]})
        tip = [alt.Tooltip("label:N", title=" "), alt.Tooltip("tip:N", title=t("grokking.tip.step"))]
        base = alt.Chart(rule)
        layers.append(base.mark_rule(color=color, strokeWidth=2, strokeDash=dash).encode(x=alt.X("x:Q"), tooltip=tip))
        if key == "grokking.mark.jump":
            layers.append(base.mark_text(align="right", baseline="top", dx=-5, color=color, fontWeight="bold").encode(
                x=alt.X("x:Q"), y=alt.value(26), text=alt.Text("label:N"), tooltip=tip))
    return layers


@cached_chart
def accuracy_chart(df: pd.DataFrame, memo: int | None, jump: int | None, selected: int | None = None,
                   pickable: bool = False, x_max: int | None = None) -> alt.LayerChart:
    """Accuracy against step (log axis) with the phases marked; `pickable` adds a click-to-pick selection."""
    df = _columns(df, "acc")
    enc = _encodings(df, "acc", x_max)
    y = alt.Y("acc:Q", title=t("grokking.axis.acc"), scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%"))
    lines = alt.Chart(df).mark_line(strokeWidth=2.5).encode(y=y, **enc)
    last = int(df["step"].max()) if len(df) else 1
    layers = [*_phase_marks(memo, jump, last, selected), lines]
    if pickable:
        pick = alt.selection_point(name="pick", fields=["step"], nearest=True, on="click", clear=False)
        layers.append(alt.Chart(df).mark_point(opacity=0, size=80).encode(y=y, **enc).add_params(pick))
    return alt.layer(*layers).properties(height=340)  # the legend below takes ~40 px of it


@cached_chart
def runs_accuracy_chart(runs: tuple[tuple[str, dict], ...], memo: int | None, jump: int | None,
                        selected: int | None) -> alt.LayerChart:
    """accuracy_chart (pickable) of curves_frame(runs), kept per the runs' arrays, language and projection mode: the
    table's labels and its content key were a sixth of the grokking page's run, for a run that every visitor sees
    (the shipped one)."""
    return accuracy_chart.__wrapped__(curves_frame(runs), memo, jump, selected, pickable=True)  # kept here, once


@cached_chart
def runs_loss_chart(runs: tuple[tuple[str, dict], ...]) -> alt.Chart:
    """loss_chart of curves_frame(runs), kept as runs_accuracy_chart."""
    return loss_chart.__wrapped__(curves_frame(runs))


@cached_chart
def loss_chart(df: pd.DataFrame) -> alt.Chart:
    """Train and test loss against step, both axes logarithmic."""
    df = _columns(df, "loss")
    y = alt.Y("loss:Q", title=t("grokking.axis.loss"), scale=alt.Scale(type="log"), axis=alt.Axis(format="~g"))
    return alt.Chart(df).mark_line(strokeWidth=2.5).encode(y=y, **_encodings(df, "loss")).properties(height=300)


def curves_table(curves: dict, run: str | None = None) -> pd.DataFrame:
    """The curves as a plain table for download: step, train/test accuracy and loss (and the run's label)."""
    df = pd.DataFrame({k: np.asarray(curves[k]) for k in ("step", "train_acc", "test_acc", "train_loss", "test_loss")})
    if run is not None:
        df.insert(0, "run", run)
    return df


def step_from_selection(selection, checkpoints: Sequence[int]) -> int | None:
    """The checkpoint nearest (on a log scale) to the step a click on the curve picked; None if nothing picked.

    `selection` is what st.altair_chart(on_select=...) stores: {"selection": {"pick": [{"step": 1234, ...}]}}.
    """
    try:
        points = selection["selection"]["pick"]
        step = float(points[0]["step"])
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    if not checkpoints or step <= 0:
        return None
    logs = np.log(np.asarray(checkpoints, dtype=float))
    return int(checkpoints[int(np.argmin(np.abs(logs - np.log(step))))])


@cached_chart
def spectrum_chart(spec) -> alt.Chart:
    """Bars: share of the embedding's power at each frequency k; key frequencies in the primary colour."""
    key, other = t("grokking.kind.key"), t("grokking.kind.other")
    df = pd.DataFrame({"k": spec.freqs, "power": spec.power,
                       "kind": [key if int(k) in spec.key else other for k in spec.freqs],
                       "label": fmt_pcts(spec.power)})
    return alt.Chart(df).mark_bar().encode(
        x=alt.X("k:Q", title=t("grokking.axis.k"), scale=alt.Scale(domain=[0, int(spec.freqs[-1]) + 1])),
        y=alt.Y("power:Q", title=t("grokking.axis.power"), axis=alt.Axis(format="%")),
        color=alt.Color("kind:N", title=t("grokking.axis.kind"), legend=None,  # the caption says blue = key
                        scale=alt.Scale(domain=[key, other], range=[PRIMARY, "#a0a0a0"])),
        tooltip=[alt.Tooltip("k:Q", title="k"), alt.Tooltip("kind:N", title=t("grokking.axis.kind")),
                 alt.Tooltip("label:N", title=t("grokking.axis.power"))],
    ).properties(height=230)


@cached_chart
def waves_chart(wave, p: int, top: float = 1.5) -> alt.LayerChart:
    """Exact cos/sin as smooth lines and the embedding's projections as dots, with the numbers a placed
    at k·a mod p (their position on the wave of frequency k), so a perfect wave is one clean period.

    `top` bounds the value axis (the same for every chart in a row, so amplitudes compare)."""
    names = {"cos": t("grokking.wave.cos"), "sin": t("grokking.wave.sin")}
    # The smooth reference curves are computed in the browser (a sequence and two formulas), not sent:
    # 8 points per unit of x, as the server once sent them.
    wave_name = f"datum.key === 'cos' ? {json.dumps(names['cos'])} : {json.dumps(names['sin'])}"
    ideal = alt.Chart(alt.sequence(0, 8 * p + 1, as_="i")).transform_calculate(
        x="datum.i / 8", cos=f"cos(2 * PI * datum.i / {8 * p})", sin=f"sin(2 * PI * datum.i / {8 * p})",
    ).transform_fold(["cos", "sin"], as_=["key", "value"]).transform_calculate(wave=wave_name)
    a = np.arange(p)
    dots = pd.concat([pd.DataFrame({"a": a, "value": wave.cos_curve, "wave": names["cos"],
                                    "what": t("grokking.wave.learned_cos")}),
                      pd.DataFrame({"a": a, "value": wave.sin_curve, "wave": names["sin"],
                                    "what": t("grokking.wave.learned_sin")})])
    dots["x"] = (wave.k * dots["a"]) % p  # where a sits on the wave of frequency k
    dots["label"] = fmt_floats(dots["value"], 2)
    color = alt.Color("wave:N", title=t("grokking.axis.wave"), legend=None,
                      scale=alt.Scale(domain=list(names.values()), range=[OKABE_ITO[0], OKABE_ITO[1]]))
    x = alt.X("x:Q", title=t("grokking.axis.position", k=wave.k), scale=alt.Scale(domain=[0, p], nice=False))
    y = alt.Y("value:Q", title=t("grokking.axis.value"), scale=alt.Scale(domain=[-top, top], nice=False))
    lines = ideal.mark_line(strokeWidth=1.5, opacity=0.6).encode(
        x=x, y=y, color=color, detail=alt.Detail("wave:N"), tooltip=[alt.Tooltip("wave:N", title=t("grokking.axis.wave"))])
    points = alt.Chart(dots).mark_circle(size=30, opacity=0.85).encode(
        x=x, y=y, color=color, tooltip=[alt.Tooltip("what:N", title=t("grokking.axis.wave")),
                                        alt.Tooltip("a:Q", title=t("grokking.axis.a")),
                                        alt.Tooltip("label:N", title=t("grokking.axis.value"))])
    return alt.layer(lines, points).properties(height=240, title=t("grokking.waves.title", k=wave.k))


def phase_metrics(phases: Phases) -> None:
    """Three st.metric tiles: the memorised step, the jump's step, and their ratio."""
    memo, jump = phases.memo, phases.jump
    never = t("grokking.metric.never")
    cols = st.columns(3)
    cols[0].metric(t("grokking.metric.memo"), fmt_int(memo) if memo else never)
    cols[1].metric(t("grokking.metric.jump"), fmt_int(jump) if jump else never)
    cols[2].metric(t("grokking.metric.ratio"), f"{fmt_float(jump / memo, 0)}×" if memo and jump else never)


def curve_panel(key: str, runs: Sequence[tuple[str, dict]], checkpoints: Sequence[int], phases: Phases) -> None:
    """Accuracy (click to pick a checkpoint) and loss charts for `runs`; `phases` (the last run's) marked. With
    phases.p, the caption says what the test curve reads against chance (1 in p)."""
    phase_metrics(phases)
    memo, jump, readings, p = phases.memo, phases.jump, phases.readings, phases.p
    slider_key = f"{key}_step"

    def picked() -> None:
        step = step_from_selection(st.session_state.get(f"{key}_curve"), checkpoints)
        if step is not None:
            st.session_state[slider_key] = step

    selected = st.session_state.get(slider_key)
    selected = selected if selected in checkpoints else checkpoints[-1]
    if all(isinstance(v, np.ndarray) for _, c in runs for v in c.values()):  # the shipped run: the same for everyone
        table = tuple((label, dict(c)) for label, c in runs)
        accuracy, loss = runs_accuracy_chart(table, memo, jump, selected), runs_loss_chart(table)
    else:  # a live run's growing curves
        df = curves_frame(runs)
        accuracy, loss = accuracy_chart(df, memo, jump, selected, pickable=True), loss_chart(df)
    show(accuracy, on_select=picked, key=f"{key}_curve")
    story = ("" if not readings else " " + t(
        "grokking.acc.readings", chance=fmt_pct(1 / p), p=p,
        readings="; ".join(t("grokking.acc.reading", acc=fmt_pct(a), step=fmt_int(s)) for s, a in readings)))
    st.caption(t("grokking.acc.caption") + story)
    show(loss)
    st.caption(t("grokking.loss.caption"))
    runs = list(runs)
    downloads(lambda: pd.concat([curves_table(c, label) for label, c in runs], ignore_index=True),
              f"{key.replace('_', '-')}-curves",
              key=f"{key}_dl_curves")


def step_slider(key: str, checkpoints: Sequence[int]) -> int:
    """The checkpoint scrubber; its value lives in session_state[f"{key}_step"] (a chart click sets it too)."""
    steps = [int(s) for s in checkpoints]
    slider_key = f"{key}_step"
    if st.session_state.get(slider_key) not in steps:
        st.session_state[slider_key] = steps[-1]
    labels = {s: fmt_int(s) for s in steps}
    return st.select_slider(t("grokking.step.label"), options=steps, key=slider_key, format_func=labels.get,
                            help=t("grokking.step.help"))


def fourier_panel(key: str, view: Fourier) -> None:
    """Spectrum at the chosen checkpoint, then the waves of the final checkpoint's strongest frequencies."""
    step, spec = view.step, view.spectrum
    show(spectrum_chart(spec))
    downloads(lambda: pd.DataFrame({"step": step, "k": spec.freqs, "power": spec.power,
                                    "key": [int(k) in spec.key for k in spec.freqs]}),
              f"grokking-spectrum-step-{step}", key=f"{key}_dl_spectrum")
    if spec.key:
        st.caption(t("grokking.spectrum.caption", step=fmt_int(step), share=fmt_pct(spec.key_share)))
    else:
        st.caption(t("grokking.spectrum.flat", step=fmt_int(step)))

    header = t("grokking.waves.header") if spec.key else t("grokking.waves.header.flat", n=len(view.waves))
    st.markdown(f"**{header}**")  # "the waves the model built" only where key frequencies stand out
    # side by side, or one under another in projection mode: at 22 px the horizontal axis title is wider than a
    # third of the page, and Vega shrank each plot to a sliver to fit it
    cols = [st.container() for _ in view.waves] if projection_on() else st.columns(len(view.waves))
    for col, wave in zip(cols, view.waves):
        with col:
            show(waves_chart(wave, view.p, view.top))
    fit = view.fit
    verdict = t("grokking.waves.fit" if fit >= GOOD_FIT else "grokking.waves.nofit", fit=fmt_pct(fit, 0))
    st.caption(t("grokking.waves.caption", step=fmt_int(step), verdict=verdict))


# ---- live training -------------------------------------------------------------------------------------------


def link_params(checkpoints: Sequence[int] = ()) -> list[Param]:
    """What a link to this page carries: the next live run's settings and the shipped run's chosen step."""
    d = DEFAULTS
    params = [Param("model", "grok_ctl_model", str, d["model"], choices=tuple(MODEL_KINDS)),
              Param("p", "grok_ctl_p", int, d["p"], choices=tuple(PRIMES)),
              Param("frac", "grok_ctl_frac", int, d["frac"], choices=tuple(range(10, 91, 5))),
              Param("wd", "grok_ctl_wd", float, d["wd"], choices=tuple(WEIGHT_DECAYS)),
              Param("lr", "grok_ctl_lr", float, d["lr"], choices=tuple(LEARNING_RATES)),
              Param("seed", "grok_ctl_seed", int, d["seed"], 0, 9999),
              Param("steps", "grok_ctl_steps", int, d["steps"], choices=tuple(STEP_CAPS))]
    if len(checkpoints):
        steps = tuple(int(s) for s in checkpoints)
        params.append(Param("step", "grok_ship_step", int, steps[-1], choices=steps))
    return params


def fmt_small(x: float) -> str:
    """0.001 -> '0.001' (en) or '0,001' (pt-BR): as many decimals as the first significant digit needs."""
    return fmt_float(x, max(0, -math.floor(math.log10(x)))) if x > 0 else fmt_float(x, 0)


def _reset_controls() -> None:
    for name, value in DEFAULTS.items():
        st.session_state[f"grok_ctl_{name}"] = value


def controls(disabled: bool) -> GrokConfig:
    """The settings of the next run, read from widgets (keys grok_ctl_*)."""
    for name, value in DEFAULTS.items():
        st.session_state.setdefault(f"grok_ctl_{name}", value)
    models = {k: t(f"grokking.model.{k}") for k in MODEL_KINDS}
    st.radio(t("grokking.ctl.model"), list(models), format_func=models.get, key="grok_ctl_model",
             horizontal=True, disabled=disabled)
    c1, c2 = st.columns(2)
    p = c1.select_slider(t("grokking.ctl.p"), PRIMES, key="grok_ctl_p", disabled=disabled)
    frac = c2.slider(t("grokking.ctl.frac"), 10, 90, step=5, key="grok_ctl_frac", format="%d%%", disabled=disabled)
    wd_labels = {w: fmt_float(w, 1) for w in WEIGHT_DECAYS}
    wd = c1.select_slider(t("grokking.ctl.wd"), WEIGHT_DECAYS, key="grok_ctl_wd", format_func=wd_labels.get,
                          help=t("grokking.ctl.wd.help"), disabled=disabled)
    lr_labels = {v: fmt_small(v) for v in LEARNING_RATES}
    lr = c2.select_slider(t("grokking.ctl.lr"), LEARNING_RATES, key="grok_ctl_lr", format_func=lr_labels.get,
                          disabled=disabled)
    seed = c1.number_input(t("grokking.ctl.seed"), 0, 9999, step=1, key="grok_ctl_seed",
                           help=t("grokking.ctl.seed.help"), disabled=disabled)
    step_labels = {s: fmt_int(s) for s in STEP_CAPS}
    steps = c2.select_slider(t("grokking.ctl.steps"), STEP_CAPS, key="grok_ctl_steps", format_func=step_labels.get,
                             disabled=disabled)
    st.button(t("grokking.reset"), disabled=disabled, key="grok_reset", on_click=_reset_controls,
              icon=":material/restart_alt:", type="tertiary")
    return GrokConfig(p=int(p), train_frac=frac / 100, model=st.session_state["grok_ctl_model"], lr=float(lr),
                      weight_decay=float(wd), seed=int(seed), max_steps=int(steps))


def config_from_state() -> GrokConfig:
    """The settings the controls hold (read inside the fragment, which does not draw the controls)."""
    v = {name: st.session_state.get(f"grok_ctl_{name}", default) for name, default in DEFAULTS.items()}
    return GrokConfig(p=int(v["p"]), train_frac=v["frac"] / 100, model=v["model"], lr=float(v["lr"]),
                      weight_decay=float(v["wd"]), seed=int(v["seed"]), max_steps=int(v["steps"]))


def _label(cfg: GrokConfig, n: int) -> str:
    return t("grokking.run.label", n=n, wd=fmt_float(cfg.weight_decay, 1))


def runs() -> list[tuple[str, BackgroundRun]]:
    """This visitor's live runs, the latest last (at most KEEP_RUNS), each with its label."""
    return st.session_state.setdefault("grok_runs", [])


def busy() -> None:
    st.warning(t("grokking.busy", n=MAX_RUNS), icon=":material/hourglass_top:")


def keep(cfg: GrokConfig, run: BackgroundRun) -> None:
    """Keep a run that started for this visitor (one at a time), and the previous one for comparison."""
    n = st.session_state.get("grok_run_n", 0) + 1
    st.session_state["grok_run_n"] = n
    kept = runs()
    kept.append((_label(cfg, n), run))
    del kept[:-KEEP_RUNS]


def _progress_text(run: BackgroundRun) -> str:
    last = run.snapshots[-1] if run.snapshots else None
    return t("grokking.progress", step=fmt_int(last.step if last else 0), total=fmt_int(run.cfg.max_steps),
             train=fmt_pct(last.train_acc if last else 0.0), test=fmt_pct(last.test_acc if last else 0.0),
             secs=fmt_float(run.elapsed, 0))


def live_chart(curves: list[tuple[str, dict]], phases: Phases, x_max: int) -> alt.LayerChart:
    """The growing curves of the live runs (`curves`: label, curves), the latest run's phases marked, on a step
    axis as long as the longest run will be."""
    return accuracy_chart(curves_frame(curves), phases.memo, phases.jump, x_max=x_max)


def ticking(run: BackgroundRun, curves: list[tuple[str, dict]], phases: Phases, x_max: int) -> None:
    """While the latest run trains (its fragment reruns every REDRAW_S s): progress and the growing curves."""
    last = run.snapshots[-1].step if run.snapshots else 0
    st.progress(min(last / run.cfg.max_steps, 1.0), text=_progress_text(run) if run.snapshots else t("grokking.starting"))
    if curves:
        show(live_chart(curves, phases, x_max))
        st.caption(t("grokking.live.acc.caption"))


def outcome(runs: list[tuple[str, BackgroundRun]]) -> None:
    """How the latest run ended, said once to a screen reader too."""
    run = runs[-1][1]
    steps = run.snapshots[-1].step if run.snapshots else 0
    secs = fmt_float(run.elapsed, 1)
    if run.state == "done":
        st.success(t("grokking.state.done", steps=fmt_int(steps), secs=secs,
                     rate=fmt_int(steps / max(run.elapsed, 1e-9))), icon=":material/check_circle:")
    elif run.state == "error":
        st.error(t("grokking.state.error", error=code_span(run.error or "?")))
    elif run.state == "time_limit":
        st.info(t("grokking.state.time_limit", steps=fmt_int(steps), limit=MAX_SECONDS))
    elif run.state in ("stopped", "abandoned"):
        st.info(t(f"grokking.state.{run.state}", steps=fmt_int(steps), secs=secs))
    if run.snapshots:  # a screen reader hears that the training ended (once per run)
        a11y.announce_once(("grokking", len(runs), steps), t("a11y.live.trained", n=fmt_int(steps)))


def live_intro(secs: float, n_runs: int, d_hidden: int, grokked_at: float) -> None:
    st.header(t("grokking.live.header"))
    st.markdown(t("grokking.live.text", hidden=d_hidden, secs=fmt_float(secs, 0), runs=n_runs,
                  acc=fmt_pct(grokked_at, 0)))


def buttons(running: bool) -> tuple[bool, bool, bool]:
    """Train / Stop / Compare: which one was pressed in this run."""
    c1, c2, c3 = st.columns([1, 1, 2])
    train = c1.button(t("grokking.train"), type="primary", disabled=running, key="grok_train",
                      icon=":material/play_arrow:", width="stretch")
    stop = c2.button(t("grokking.stop"), disabled=not running, key="grok_stop", icon=":material/stop:",
                     width="stretch")
    compare = c3.button(t("grokking.compare"), disabled=running, key="grok_compare", icon=":material/compare:",
                        width="stretch")
    return train, stop, compare


def empty() -> None:
    st.info(t("grokking.live.empty"), icon=":material/touch_app:")


def pick_run(labels: list[str]) -> str:
    """Which finished run the charts below show (a choice only when there are two)."""
    if len(labels) > 1:
        return st.radio(t("grokking.run.pick"), labels, index=len(labels) - 1, horizontal=True, key="grok_live_pick")
    return labels[-1]


def fourier_header_live() -> None:
    st.subheader(t("grokking.live.fourier"))


def shipped_intro(cfg: GrokConfig) -> None:
    st.header(t("grokking.shipped.header"))
    st.markdown(t("grokking.shipped.text", frac=fmt_pct(cfg.train_frac, 0), pairs=fmt_int(cfg.p ** 2), p=cfg.p,
                  wd=fmt_float(cfg.weight_decay, 1), lr=fmt_small(cfg.lr), steps=fmt_int(cfg.max_steps)))


def missing() -> None:
    st.header(t("grokking.shipped.header"))
    st.warning(t("grokking.missing"), icon=":material/folder_off:")
