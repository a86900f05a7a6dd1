"""The home page's drawing: the guided path, the bars of the model's next-token guess with their caption and
download, and the model's card. Takes what ui.home.compute returned."""
from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

import model_backend as mb
from ui import weights_view
from ui.charts import PRIMARY, cached_chart, show
from ui.export import downloads
from ui.i18n import fmt_int, fmt_pct, t
from ui.nav import available, link
from ui.share import Param
from ui.untrusted import escape_markdown


def params() -> list[Param]:
    """What a link to the home page carries: the prompt (its default in the visitor's language)."""
    return [Param("prompt", "prompt_home", str, t("common.default_prompt"))]


def path() -> None:
    """The guided path: every lesson page, numbered in the order the course reads them."""
    st.subheader(t("home.path"))
    for number, (name, icon) in enumerate(available()[1:], start=1):
        link(name, label=f"{number}. {t(f'nav.{name}')}", icon=icon)


@cached_chart
def guess_chart(df: pd.DataFrame) -> alt.TopLevelMixin:
    """The bars of the model's most likely next tokens, each with its probability written beside it. Built once per
    table, language and projection mode: building and converting it was two fifths of the home page's run, and a
    class opens the home page at once."""
    df = df.assign(label=[fmt_pct(p) for p in df["prob"]])
    bars = alt.Chart(df).mark_bar(color=PRIMARY).encode(
        x=alt.X("prob:Q", title=t("home.col.prob"), axis=alt.Axis(format="%")),
        y=alt.Y("token:N", sort="-x", title=t("home.col.token"), axis=alt.Axis(labelOverlap=False)),
        tooltip=[alt.Tooltip("token:N", title=t("home.col.token")), alt.Tooltip("label:N", title=t("home.col.prob"))],
    ).properties(height=alt.Step(28))
    return bars + bars.mark_text(align="left", dx=4).encode(text="label:N")


def guess(df: pd.DataFrame, vocab_size: int) -> None:
    """The model's most likely next tokens as bars with their probabilities, what they add up to, and the table."""
    show(guess_chart(df))
    total = float(df["prob"].sum())  # what the bars show together (review A, H7: the sum, not "less than 100%")
    st.caption(t("home.try.caption", n=len(df), rest=fmt_int(vocab_size - len(df)), top=fmt_pct(total),
                 left=fmt_pct(max(0.0, 1.0 - total))))
    downloads(df, "next-token-top10", key="home_dl")


def model_card(info: mb.ModelInfo) -> None:
    """The model the page runs: its name, size, layers, vocabulary, device and precision; the 4-bit note."""
    st.subheader(t("home.model"))
    st.markdown(t("home.model.text", name=escape_markdown(info.name), params=fmt_int(info.n_params),
                  layers=info.n_layers, vocab=fmt_int(info.vocab_size), device=info.device, dtype=info.dtype))
    note = weights_view.short(info)
    if note:
        st.markdown(note)
