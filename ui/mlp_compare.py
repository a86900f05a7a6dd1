"""One picture for the MLP: the course text's "x4 with GELU" next to this model's gated MLP, sizes from its config."""
from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

import model_backend as mb
from ui.charts import OKABE_ITO, cached_chart, projection_on, show
from ui.i18n import fmt_float, fmt_int, t

STAGES = ("in", "up", "act", "out")  # the vector's width at each step of the block


def compare_frame(d: int, f: int, act: str, gated: bool = True) -> pd.DataFrame:
    """Widths at each step: the seed's classic MLP (4·d, GELU) and this model's (f, `act`, gated or not).

    A gated MLP computes down(act(gate(x)) * up(x)): two projections up (gate and up, f each), then one f-wide
    vector, then down to d. Weights per layer: 2·d·4d classic, 3·d·f gated (2·d·f plain).
    """
    classic, ours = t("mlp.cmp.classic"), t("mlp.cmp.ours", act=act)
    rows = [
        (classic, "in", d, fmt_int(d)), (classic, "up", 4 * d, fmt_int(4 * d)),
        (classic, "act", 4 * d, t("mlp.cmp.act_classic", n=fmt_int(4 * d))), (classic, "out", d, fmt_int(d)),
        (ours, "in", d, fmt_int(d)),
        (ours, "up", 2 * f if gated else f, t("mlp.cmp.up_gated", n=fmt_int(f)) if gated else fmt_int(f)),
        (ours, "act", f, t("mlp.cmp.act_gated" if gated else "mlp.cmp.act_plain", n=fmt_int(f), act=act)),
        (ours, "out", d, fmt_int(d)),
    ]
    df = pd.DataFrame(rows, columns=["model", "stage", "width", "label"])
    df["step"] = [t(f"mlp.cmp.stage.{s}") for s in df["stage"]]
    return df


def weights(d: int, f: int, gated: bool = True) -> tuple[int, int]:
    """(classic 4x MLP weights, this model's MLP weights) per layer, biases left out."""
    return 2 * d * 4 * d, (3 if gated else 2) * d * f


@cached_chart
def compare_chart(df: pd.DataFrame) -> alt.Chart:
    steps = list(dict.fromkeys(df["step"]))
    models = list(dict.fromkeys(df["model"]))
    base = alt.Chart(df).encode(
        x=alt.X("step:N", sort=steps, title=None, axis=alt.Axis(labelAngle=0, labelLimit=160)),
        xOffset=alt.XOffset("model:N", sort=models),
        y=alt.Y("width:Q", title=t("mlp.cmp.axis.width")),
        color=alt.Color("model:N", sort=models, scale=alt.Scale(range=[OKABE_ITO[1], OKABE_ITO[0]]), title=None,
                        legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=400)),
        tooltip=[alt.Tooltip("model:N", title=t("mlp.cmp.axis.model")), alt.Tooltip("step:N", title=t("mlp.cmp.axis.step")),
                 alt.Tooltip("label:N", title=t("mlp.cmp.axis.width"))],
    )
    text = base.mark_text(dy=-8, fontSize=16 if projection_on() else 11).encode(text="label:N")
    return (base.mark_bar() + text).properties(height=320)


@cached_chart
def compare_view(d: int, f: int, act: str, gated: bool = True) -> alt.Chart:
    """compare_chart of compare_frame: kept per sizes (a visit with a kept chart builds no table)."""
    return compare_chart(compare_frame(d, f, act, gated))


def compare_panel(info: mb.ModelInfo, gated: bool = True) -> None:
    """The picture and its caption, with every number read from the model's config."""
    d, f, act = info.d_model, info.d_ff, info.activation
    show(compare_view(d, f, act, gated))
    classic_w, ours_w = weights(d, f, gated)
    st.caption(t("mlp.cmp.caption", d=fmt_int(d), d4=fmt_int(4 * d), f=fmt_int(f), x=fmt_float(f / d, 1), act=act,
                 w_classic=fmt_int(classic_w), w_ours=fmt_int(ours_w)))
