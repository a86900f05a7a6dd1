"""The grokking page's pieces: the cached shipped run, curve/spectrum/wave charts, the Fourier panel."""
from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from model_backend.lessons.grokking import (
    MODEL_KINDS,
    BackgroundRun,
    GrokConfig,
    jump_steps,
    spectrum,
    wave_basis,
    wave_projection,
)
from model_backend.lessons.grokking import shipped as shipped_run_mod
from model_backend.lessons.grokking.live import MAX_RUNS
from ui import a11y
from ui.charts import MASKED, OKABE_ITO, PRIMARY, cached_chart, show
from ui.export import downloads
from ui.i18n import fmt_float, fmt_int, fmt_pct, t
from ui.share import Param
from ui.untrusted import code_span

TRAIN_COLOR, TEST_COLOR, JUMP_COLOR = OKABE_ITO[1], OKABE_ITO[0], OKABE_ITO[5]
GOOD_FIT = 0.9  # R^2 above which the dots "lie on the waves"
N_WAVES = 3  # how many key frequencies get a wave chart


@st.cache_resource(show_spinner=False)
def shipped() -> shipped_run_mod.Run | None:
    """The run in assets/grokking/ (None when the files are missing), loaded once per process."""
    try:
        return shipped_run_mod.load()
    except FileNotFoundError:
        return None


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
    df["acc_label"] = [fmt_pct(v) for v in df["acc"]]
    df["loss_label"] = [fmt_float(v, 4) for v in df["loss"]]
    df["step_label"] = [fmt_int(s) for s in df["step"]]
    return df


def _step_x(x_max: int) -> alt.X:
    """Step on a log axis from 1 to x_max (the run's length: a live run grows into a fixed axis)."""
    return alt.X("step:Q", scale=alt.Scale(type="log", domain=[1, max(int(x_max), 2)], nice=False),
                 title=t("grokking.axis.step"), axis=alt.Axis(format="~s"))


def _encodings(df: pd.DataFrame, value: str, x_max: int | None = None) -> dict:
    splits = [t("grokking.split.train"), t("grokking.split.test")]
    enc = {
        "x": _step_x(x_max or (df["step"].max() if len(df) else 2)),
        "color": alt.Color("split:N", title=t("grokking.axis.split"),
                           scale=alt.Scale(domain=splits, range=[TRAIN_COLOR, TEST_COLOR])),
        "tooltip": [alt.Tooltip("split:N", title=t("grokking.axis.split")),
                    alt.Tooltip("step_label:N", title=t("grokking.tip.step")),
                    alt.Tooltip(f"{value}_label:N", title=t("grokking.tip.value"))],
    }
    runs = list(dict.fromkeys(df["run"])) if "run" in df else []
    if len(runs) > 1:  # the earlier run dashed, the latest solid
        enc["tooltip"].insert(0, alt.Tooltip("run:N", title=t("grokking.axis.run")))
        enc["strokeDash"] = alt.StrokeDash("run:N", title=t("grokking.axis.run"),
                                           scale=alt.Scale(domain=runs, range=[[6, 4], [1, 0]][-len(runs):]))
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
    return alt.layer(*layers).properties(height=300)


@cached_chart
def loss_chart(df: pd.DataFrame) -> alt.Chart:
    """Train and test loss against step, both axes logarithmic."""
    df = _columns(df, "loss")
    y = alt.Y("loss:Q", title=t("grokking.axis.loss"), scale=alt.Scale(type="log"), axis=alt.Axis(format="~g"))
    return alt.Chart(df).mark_line(strokeWidth=2.5).encode(y=y, **_encodings(df, "loss")).properties(height=240)


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
                       "label": [fmt_pct(v) for v in spec.power]})
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
    dots["label"] = [fmt_float(v, 2) for v in dots["value"]]
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


def phase_metrics(curves: dict) -> tuple[int | None, int | None]:
    """(memorised step, jump step) from a curves dict, and three st.metric tiles that say so."""
    memo, jump = jump_steps(curves["step"], curves["train_acc"], curves["test_acc"])
    never = t("grokking.metric.never")
    cols = st.columns(3)
    cols[0].metric(t("grokking.metric.memo"), fmt_int(memo) if memo else never)
    cols[1].metric(t("grokking.metric.jump"), fmt_int(jump) if jump else never)
    cols[2].metric(t("grokking.metric.ratio"), f"{fmt_float(jump / memo, 0)}×" if memo and jump else never)
    return memo, jump


def readings_before_jump(steps: Sequence[int], test_acc: Sequence[float], memo: int | None, jump: int | None,
                  n: int = 4) -> list[tuple[int, float]]:
    """What the test curve reads between memorising and the jump: n recorded (step, accuracy) points spaced
    evenly on the log axis, from the memorised step to just before the jump (or the last step)."""
    if memo is None:
        return []
    end = jump if jump is not None else steps[-1]
    if end <= memo:
        return []
    logs = np.log(np.asarray(steps, dtype=float))
    out: list[tuple[int, float]] = []
    for target in np.geomspace(memo, end, n + 1)[:-1]:
        i = int(np.argmin(np.abs(logs - np.log(target))))
        if not out or out[-1][0] != int(steps[i]):
            out.append((int(steps[i]), float(test_acc[i])))
    return out


def curve_panel(key: str, runs: Sequence[tuple[str, dict]], checkpoints: Sequence[int], selected: int | None,
                p: int | None = None) -> None:
    """Accuracy (click to pick a checkpoint) and loss charts for `runs`; phases marked for the last run.

    p: the modulus, when the caption should say what the test curve reads against chance (1 in p)."""
    df = curves_frame(runs)
    memo, jump = phase_metrics(runs[-1][1])
    slider_key = f"{key}_step"

    def picked() -> None:
        step = step_from_selection(st.session_state.get(f"{key}_curve"), checkpoints)
        if step is not None:
            st.session_state[slider_key] = step

    show(accuracy_chart(df, memo, jump, selected, pickable=True), on_select=picked, key=f"{key}_curve")
    readings = readings_before_jump(runs[-1][1]["step"], runs[-1][1]["test_acc"], memo, jump) if p else []
    story = ("" if not readings else " " + t(
        "grokking.acc.readings", chance=fmt_pct(1 / p), p=p,
        readings="; ".join(t("grokking.acc.reading", acc=fmt_pct(a), step=fmt_int(s)) for s, a in readings)))
    st.caption(t("grokking.acc.caption") + story)
    show(loss_chart(df))
    st.caption(t("grokking.loss.caption"))
    downloads(pd.concat([curves_table(c, label) for label, c in runs], ignore_index=True), f"{key.replace('_', '-')}-curves",
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


def fourier_panel(key: str, checkpoints: Sequence[int], embeddings: np.ndarray, step: int) -> None:
    """Spectrum at the chosen checkpoint, then the waves of the final checkpoint's strongest frequencies."""
    steps = [int(s) for s in checkpoints]
    emb = embeddings[steps.index(step)]  # [p, d]
    p = emb.shape[0]
    spec = spectrum(emb)
    show(spectrum_chart(spec))
    downloads(pd.DataFrame({"step": step, "k": spec.freqs, "power": spec.power,
                            "key": [int(k) in spec.key for k in spec.freqs]}),
              f"grokking-spectrum-step-{step}", key=f"{key}_dl_spectrum")
    if spec.key:
        st.caption(t("grokking.spectrum.caption", step=fmt_int(step), share=fmt_pct(spec.key_share)))
    else:
        st.caption(t("grokking.spectrum.flat", step=fmt_int(step)))

    st.markdown(f"**{t('grokking.waves.header')}**")
    final = spectrum(embeddings[-1])
    ks = [int(k) for k in np.argsort(-final.power)[:N_WAVES] + 1]  # the end's strongest, at every step
    waves = [wave_projection(emb, wave_basis(embeddings[-1], k)) for k in ks]  # read along the final directions
    top = max(1.5, max(float(np.abs(np.concatenate([w.cos_curve, w.sin_curve])).max()) for w in waves))
    cols = st.columns(len(waves))
    for col, wave in zip(cols, waves):
        with col:
            show(waves_chart(wave, p, top))
    fit = float(np.mean([w.fit for w in waves]))
    verdict = t("grokking.waves.fit" if fit >= GOOD_FIT else "grokking.waves.nofit", fit=fmt_pct(fit, 0))
    st.caption(t("grokking.waves.caption", step=fmt_int(step), verdict=verdict))


# ---- live training -------------------------------------------------------------------------------------------
PRIMES = [23, 31, 41, 53, 61, 71, 83, 97, 113]
WEIGHT_DECAYS = [0.0, 0.1, 0.3, 0.5, 1.0, 2.0, 3.0, 5.0]
LEARNING_RATES = [3e-4, 1e-3, 3e-3, 1e-2, 3e-2]
STEP_CAPS = [500, 1000, 1500, 3000, 5000, 10000]
# Measured on 1 CPU thread: this MLP reaches 95% test accuracy at step 680 (seeds 1, 2: 780, 680), where
# lr 3e-3 needs ~2,400 steps; with weight decay 0 it memorises by step 33 and stays at 0% test for 1,500 steps.
DEFAULTS = {"model": "mlp", "p": 97, "frac": 30, "wd": 2.0, "lr": 1e-2, "seed": 0, "steps": 1500}  # frac in %
MAX_SECONDS = 240  # no live training runs longer than this, whatever the settings
REDRAW_S = 1.5  # the progress and the curves are redrawn this often while training (see bench/grok_bench.py)
IDLE_S = 20.0  # a run nobody has redrawn for this long stops: its visitor left
KEEP_RUNS = 2  # the latest two runs are kept, so the second one can be compared with the first


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


def _start(cfg: GrokConfig) -> bool:
    """Start a run for this visitor (one at a time); keep the previous one for comparison."""
    run = BackgroundRun(cfg, idle_timeout=IDLE_S, max_seconds=MAX_SECONDS)
    if not run.start():
        st.warning(t("grokking.busy", n=MAX_RUNS), icon=":material/hourglass_top:")
        return False
    n = st.session_state.get("grok_run_n", 0) + 1
    st.session_state["grok_run_n"] = n
    runs = st.session_state.setdefault("grok_runs", [])
    runs.append((_label(cfg, n), run))
    del runs[:-KEEP_RUNS]
    return True


def run_curves(run: BackgroundRun) -> dict:
    """The metrics a run has logged so far, as a curves dict (see curves_frame)."""
    snaps = list(run.snapshots)  # a copy: the training thread keeps appending
    return {"step": [s.step for s in snaps], "train_acc": [s.train_acc for s in snaps],
            "test_acc": [s.test_acc for s in snaps], "train_loss": [s.train_loss for s in snaps],
            "test_loss": [s.test_loss for s in snaps]}


def _progress_text(run: BackgroundRun) -> str:
    last = run.snapshots[-1] if run.snapshots else None
    return t("grokking.progress", step=fmt_int(last.step if last else 0), total=fmt_int(run.cfg.max_steps),
             train=fmt_pct(last.train_acc if last else 0.0), test=fmt_pct(last.test_acc if last else 0.0),
             secs=fmt_float(run.elapsed, 0))


def _live_chart(runs: list[tuple[str, BackgroundRun]]) -> alt.LayerChart:
    curves = [(label, run_curves(run)) for label, run in runs if run.snapshots]
    df = curves_frame(curves)
    memo, jump = jump_steps(*(curves[-1][1][k] for k in ("step", "train_acc", "test_acc"))) if curves else (None, None)
    return accuracy_chart(df, memo, jump, x_max=max(run.cfg.max_steps for _, run in runs))


def _ticking() -> None:
    """While the latest run trains (this fragment reruns every REDRAW_S s): progress, growing curves, heartbeat.

    Each tick says "still watching". If the visitor leaves (closes the tab, opens another page), the ticks
    stop and the run stops itself after its idle timeout.
    """
    runs = st.session_state["grok_runs"]
    run = runs[-1][1]
    run.touch()
    last = run.snapshots[-1].step if run.snapshots else 0
    st.progress(min(last / run.cfg.max_steps, 1.0), text=_progress_text(run) if run.snapshots else t("grokking.starting"))
    if any(r.snapshots for _, r in runs):
        show(_live_chart(runs))
        st.caption(t("grokking.live.acc.caption"))


def _outcome(run: BackgroundRun) -> None:
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


def measured_grok_seconds() -> tuple[float, int]:
    """(median seconds, runs) to grok at DEFAULTS, as bench/grok_bench.py measured and recorded it
    (bench/results.json, figures.grok_s): a measured figure, never one typed into a sentence."""
    fig = json.loads((Path(__file__).resolve().parents[1] / "bench" / "results.json").read_text())["figures"]["grok_s"]
    return float(fig["median"]), int(fig["runs"])


def live_panel() -> None:
    """The live-training panel: a fragment that reruns every REDRAW_S s while a run trains, and not otherwise.

    (A fragment that loops cannot see its own Stop button: Streamlit queues a fragment's widget events
    until the fragment's run ends. Short periodic runs keep every button live.)
    """
    runs = st.session_state.setdefault("grok_runs", [])
    ticking = bool(runs) and runs[-1][1].running
    st.session_state["grok_ticking"] = ticking
    controls(disabled=ticking)  # outside the fragment: drawn once per full run, not at every tick
    st.fragment(_live_body, run_every=REDRAW_S if ticking else None)()


def _live_body() -> None:
    """Train / Stop / Compare, then the growing curves or the finished run with its Fourier view."""
    runs: list[tuple[str, BackgroundRun]] = st.session_state["grok_runs"]
    running = bool(runs) and runs[-1][1].running
    if running != st.session_state.get("grok_ticking"):
        st.rerun(scope="app")  # a run started or ended: draw the controls and the fragment again, ticking or not
    cfg = config_from_state()
    c1, c2, c3 = st.columns([1, 1, 2])
    train = c1.button(t("grokking.train"), type="primary", disabled=running, key="grok_train",
                      icon=":material/play_arrow:", width="stretch")
    stop = c2.button(t("grokking.stop"), disabled=not running, key="grok_stop", icon=":material/stop:",
                     width="stretch")
    compare = c3.button(t("grokking.compare"), disabled=running, key="grok_compare", icon=":material/compare:",
                        width="stretch")
    if stop and running:
        runs[-1][1].stop()  # the run sends a last checkpoint and ends; the next tick sees it
    elif (train or compare) and not running and _start(replace(cfg, weight_decay=0.0) if compare else cfg):
        st.rerun(scope="app")  # start ticking
    if running:
        _ticking()
    elif not runs:
        st.info(t("grokking.live.empty"), icon=":material/touch_app:")
    else:
        last = runs[-1][1]
        _outcome(last)
        if last.snapshots:  # a screen reader hears that the training ended (once per run)
            a11y.announce_once(("grokking", len(runs), last.snapshots[-1].step),
                               t("a11y.live.trained", n=fmt_int(last.snapshots[-1].step)))
        _finished(runs)


def _finished(runs: list[tuple[str, BackgroundRun]]) -> None:
    """A finished (or stopped) run: curves with the phases, then the Fourier view of a chosen run."""
    shown = [(label, run) for label, run in runs if run.snapshots]
    if not shown:
        return
    labels = [label for label, _ in shown]
    if len(shown) > 1:
        pick = st.radio(t("grokking.run.pick"), labels, index=len(labels) - 1, horizontal=True, key="grok_live_pick")
    else:
        pick = labels[-1]
    run = dict(shown)[pick]
    ckpts = [s for s in run.snapshots if s.embedding is not None]
    steps = [s.step for s in ckpts]
    ordered = [(label, run_curves(r)) for label, r in shown if label != pick] + [(pick, run_curves(run))]
    selected = st.session_state.get("grok_live_step")
    curve_panel("grok_live", ordered, steps, selected if selected in steps else steps[-1])
    st.subheader(t("grokking.live.fourier"))
    step = step_slider("grok_live", steps)
    fourier_panel("grok_live", steps, np.stack([s.embedding for s in ckpts]), step)
