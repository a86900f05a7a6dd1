"""Home: the greeting, the guided path, and a first live look at the model's next-token guess."""
import altair as alt
import pandas as pd
import streamlit as st

from model_backend.core.tokens import visible
from ui import backend, weights_view
from ui.charts import PRIMARY, show
from ui.export import downloads
from ui.i18n import fmt_int, fmt_pct, t
from ui.nav import available
from ui.share import Param, restore, share_box
from ui.untrusted import escape_markdown
from ui.widgets import intro, prompt_box, truncation_notice


def params() -> list[Param]:
    """What a link to the home page carries: the prompt (its default in the visitor's language)."""
    return [Param("prompt", "prompt_home", str, t("common.default_prompt"))]


def render() -> None:
    restore("home", params())
    intro("home")
    st.subheader(t("home.path"))
    for number, (name, icon) in enumerate(available()[1:], start=1):
        st.page_link(f"pages/{name}.py", label=f"{number}. {t(f'nav.{name}')}", icon=icon)

    st.subheader(t("home.try"))
    prompt = prompt_box("home")
    if prompt is None:
        return
    tr = backend.trace(prompt)
    truncation_notice(tr.truncated_from, len(tr.tokens))
    top = tr.top[-1]
    df = pd.DataFrame({"rank": range(1, len(top) + 1), "id": [c.id for c in top],
                       "token": [visible(c.text) for c in top], "prob": [c.prob for c in top]})
    df["label"] = [fmt_pct(p) for p in df["prob"]]
    bars = alt.Chart(df).mark_bar(color=PRIMARY).encode(
        x=alt.X("prob:Q", title=t("home.col.prob"), axis=alt.Axis(format="%")),
        y=alt.Y("token:N", sort="-x", title=t("home.col.token"), axis=alt.Axis(labelOverlap=False)),
        tooltip=[alt.Tooltip("token:N", title=t("home.col.token")), alt.Tooltip("label:N", title=t("home.col.prob"))],
    ).properties(height=alt.Step(28))
    show(bars + bars.mark_text(align="left", dx=4).encode(text="label:N"))
    total = float(df["prob"].sum())  # what the bars show together (review A, H7: the sum, not "less than 100%")
    st.caption(t("home.try.caption", n=len(top), rest=fmt_int(tr.info.vocab_size - len(top)), top=fmt_pct(total),
                 left=fmt_pct(max(0.0, 1.0 - total))))
    downloads(df.drop(columns="label"), "next-token-top10", key="home_dl")
    share_box("home", params())

    info = tr.info
    st.subheader(t("home.model"))
    st.markdown(t("home.model.text", name=escape_markdown(info.name), params=fmt_int(info.n_params), layers=info.n_layers,
                  vocab=fmt_int(info.vocab_size), device=info.device, dtype=info.dtype))
    note = weights_view.short(info)
    if note:
        st.markdown(note)


render()
