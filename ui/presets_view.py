"""The course text's advice on settings, run live: "factual" (temperature 0) and "creative" (T 0.8, top-p 0.9)
on the same prompt; the creative one three times, with three seeds, to show that it varies."""
from __future__ import annotations

from dataclasses import replace

import pandas as pd
import streamlit as st

import model_backend as mb
from ui import backend
from ui.i18n import fmt_float, t
from ui.widgets import data_table

MAX_NEW = 24
CREATIVE_SEEDS = (1, 2, 3)
# Seed 000, "Como pensar nos três juntos": factual -> temperature low (or 0); creative -> T ~0.7-1.0 + top_p ~0.9.
PRESETS = {
    "factual": mb.SamplingParams(temperature=0.0, max_new_tokens=MAX_NEW),
    "creative": mb.SamplingParams(temperature=0.8, top_p=0.9, max_new_tokens=MAX_NEW),
}


def runs(prompt: str) -> list[tuple[str, int | None, mb.Generation]]:
    """(preset, seed, generation): factual once (greedy), creative once per seed; each cached."""
    out = [("factual", None, backend.generation(prompt, PRESETS["factual"]))]
    for seed in CREATIVE_SEEDS:
        out.append(("creative", seed, backend.generation(prompt, replace(PRESETS["creative"], seed=seed))))
    return out


def preset_name(name: str) -> str:
    """A preset's label with its settings read from PRESETS (never typed into the string)."""
    p = PRESETS[name]
    return t(f"presets.{name}", t=fmt_float(p.temperature, 1), p=fmt_float(p.top_p, 1))


def runs_frame(results: list[tuple[str, int | None, mb.Generation]]) -> pd.DataFrame:
    """A table of the completions: model text goes into a dataframe cell (shown as text, never Markdown)."""
    return pd.DataFrame({
        t("presets.col.preset"): [preset_name(name) for name, _, _ in results],
        t("presets.col.seed"): ["—" if seed is None else str(seed) for _, seed, _ in results],
        t("presets.col.text"): [g.completion.replace("\n", " ↵ ") for _, _, g in results],
    })


@st.fragment
def panel(prompt: str) -> None:
    st.header(t("presets.header"))
    f, c = PRESETS["factual"], PRESETS["creative"]
    st.markdown(t("presets.text", t_c=fmt_float(c.temperature, 1), p_c=fmt_float(c.top_p, 1), n=MAX_NEW,
                  seeds=len(CREATIVE_SEEDS), t_f=fmt_float(f.temperature, 0)))
    if st.button(t("presets.run"), icon=":material/play_arrow:", key="presets_go"):
        st.session_state["presets_for"] = prompt
    if st.session_state.get("presets_for") != prompt:
        st.caption(t("presets.hint", n=1 + len(CREATIVE_SEEDS)))  # the factual run, then one per seed
        return
    with st.spinner(t("presets.running")):
        results = runs(prompt)
    data_table(runs_frame(results), hide_index=True, width="stretch")
    distinct = len({g.completion for name, _, g in results if name == "creative"})
    st.caption(t("presets.caption", distinct=distinct, seeds=len(CREATIVE_SEEDS),
                 verdict=t("presets.verdict.differ" if distinct > 1 else "presets.verdict.same")))
