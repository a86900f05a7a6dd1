"""Penalties side by side: the API kind that subtracts (frequency, presence) and transformers' repetition
penalty that divides, on a hand-made example and live on the model, with the course text's warning. Drawing
only: the runs are ui.temperature.compute.penalty_run, called by the page between `ask` and `result`."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from model_backend.lessons.temperature import PenaltyRun, penalty_example
from ui.i18n import fmt_float, t
from ui.widgets import data_table, model_text

CASES = (("loop", "muito", 30, 0), ("needed", "1, 2, 3, 4, 5,", 16, 6))  # (case, prompt, tokens, count from)
KINDS = ("none", "multiplicative", "subtractive")  # each case is generated once per kind
EXAMPLE_LOGITS = (2.0, 1.0, -1.0, 0.5)  # tokens A, B, C, D
EXAMPLE_CONTEXT = (0, 1, 0, 2)  # generated so far: A, B, A, C (D never)


def example_frame(r: float, f: float, p: float) -> pd.DataFrame:
    """Both processors on four hand-made logits, computed live: what each does to a token seen 0, 1, 2 times."""
    mult, sub = penalty_example(EXAMPLE_LOGITS, EXAMPLE_CONTEXT, r, f, p)
    counts = [EXAMPLE_CONTEXT.count(i) for i in range(len(EXAMPLE_LOGITS))]
    return pd.DataFrame({
        t("pen.col.token"): [chr(ord("A") + i) for i in range(len(EXAMPLE_LOGITS))],
        t("pen.col.count"): counts,
        t("pen.col.logit"): [fmt_float(v, 2) for v in EXAMPLE_LOGITS],
        t("pen.col.mult", r=fmt_float(r, 2)): [fmt_float(float(v), 2) for v in mult],
        t("pen.col.sub", f=fmt_float(f, 2), p=fmt_float(p, 2)): [fmt_float(float(v), 2) for v in sub],
    })


def _verdict(res: PenaltyRun, count_from: int) -> str:
    if count_from:
        return t("pen.counted", n=res.counted)
    return t("pen.loop", period=res.loop_period, repeats=res.loop_repeats) if res.loop_period else t("pen.noloop")


def ask() -> tuple[float, float, float] | None:
    """The text, the three sliders and the hand-made example; returns (r, f, p) once the visitor has asked for the
    runs (and from then on), else None."""
    st.header(t("pen.header"))
    st.markdown(t("pen.text"))
    st.latex(r"\mathrm{logit}_j \leftarrow \mathrm{logit}_j - c_j\,\alpha_{\mathrm{freq}} - [\,c_j > 0\,]\,\alpha_{\mathrm{pres}}")
    c = st.columns(3)
    r = c[0].slider(t("pen.ctl.r"), 1.0, 3.0, 1.3, 0.1, key="pen_r")
    f = c[1].slider(t("pen.ctl.f"), 0.0, 2.0, 0.5, 0.1, key="pen_f")
    p = c[2].slider(t("pen.ctl.p"), 0.0, 2.0, 0.5, 0.1, key="pen_p")
    data_table(example_frame(r, f, p), hide_index=True, width="stretch")
    st.caption(t("pen.example.caption"))
    if st.button(t("pen.run"), icon=":material/play_arrow:", key="pen_go"):
        st.session_state["pen_ran"] = True
    if not st.session_state.get("pen_ran"):
        st.caption(t("pen.hint", n=len(CASES) * len(KINDS), cases=len(CASES), kinds=len(KINDS)))
        return None
    return r, f, p


def slots():
    """Each case's heading and prompt, then one column per kind: yields (prompt, kind, tokens, count from) while
    that column is the place drawn into, so that each run appears in its column as soon as it is made."""
    for case, prompt, n, count_from in CASES:
        st.subheader(t(f"pen.case.{case}"))
        model_text(prompt)
        for col, kind in zip(st.columns(3), KINDS):
            with col:
                yield prompt, kind, n, count_from


def result(kind: str, count_from: int, settings: tuple[float, float, float], res: PenaltyRun) -> None:
    """One run in its column: the kind with its settings, the text, and the loop found or the numbers counted."""
    r, f, p = settings
    st.markdown(t(f"pen.kind.{kind}", r=fmt_float(r, 1), f=fmt_float(f, 1), p=fmt_float(p, 1)))
    model_text(res.completion)
    st.caption(_verdict(res, count_from))


def warning() -> None:
    st.markdown(t("pen.warning"))
