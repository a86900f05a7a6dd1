"""The course text's advice on settings, run live: "factual" (temperature 0) and "creative" (T 0.8, top-p 0.9)
on the same prompt; the creative one three times, with three seeds, to show that it varies. Drawing only: the runs
are ui.temperature.compute.preset_runs, called by the page between `ask` and `result`."""
from __future__ import annotations

import pandas as pd
import streamlit as st

import model_backend as mb
from ui.i18n import fmt_float, t
from ui.temperature.compute import ADVICE, CREATIVE_SEEDS, MAX_NEW
from ui.widgets import data_table


def preset_name(name: str) -> str:
    """A preset's label with its settings read from ADVICE (never typed into the string)."""
    p = ADVICE[name]
    return t(f"presets.{name}", t=fmt_float(p.temperature, 1), p=fmt_float(p.top_p, 1))


def runs_frame(results: list[tuple[str, int | None, mb.Generation]]) -> pd.DataFrame:
    """A table of the completions: model text goes into a dataframe cell (shown as text, never Markdown)."""
    return pd.DataFrame({
        t("presets.col.preset"): [preset_name(name) for name, _, _ in results],
        t("presets.col.seed"): ["—" if seed is None else str(seed) for _, seed, _ in results],
        t("presets.col.text"): [g.completion.replace("\n", " ↵ ") for _, _, g in results],
    })


def ask(prompt: str) -> bool:
    """The advice and its button: whether to run it now (the visitor asked for it on this prompt)."""
    st.header(t("presets.header"))
    f, c = ADVICE["factual"], ADVICE["creative"]
    st.markdown(t("presets.text", t_c=fmt_float(c.temperature, 1), p_c=fmt_float(c.top_p, 1), n=MAX_NEW,
                  seeds=len(CREATIVE_SEEDS), t_f=fmt_float(f.temperature, 0)))
    if st.button(t("presets.run"), icon=":material/play_arrow:", key="presets_go"):
        st.session_state["presets_for"] = prompt
    if st.session_state.get("presets_for") != prompt:
        st.caption(t("presets.hint", n=1 + len(CREATIVE_SEEDS)))  # the factual run, then one per seed
        return False
    return True


def running():
    """A spinner while the runs are made."""
    return st.spinner(t("presets.running"))


def result(results: list[tuple[str, int | None, mb.Generation]]) -> None:
    """The completions side by side, and whether the creative ones differ."""
    data_table(runs_frame(results), hide_index=True, width="stretch")
    distinct = len({g.completion for name, _, g in results if name == "creative"})
    st.caption(t("presets.caption", distinct=distinct, seeds=len(CREATIVE_SEEDS),
                 verdict=t("presets.verdict.differ" if distinct > 1 else "presets.verdict.same")))
