"""Hallucination: every generated token with the probability the model gave it, the seed's examples, and
fact/invention pairs that measure whether confidence tells them apart (it is computed live, not claimed).
Layout only: ui.hallucination.compute computes (each run once for every visitor), ui.hallucination.draw draws."""
import streamlit as st

import model_backend as mb
from ui.hallucination import compute, draw
from ui.nav import next_page_link
from ui.share import restore, share_box
from ui.widgets import intro, prompt_box


def completion(prompt: str, params: mb.SamplingParams, dtype: str) -> None:
    """The visitor's run: at once when it may run (an example, a run already made, a visitor who asked), else on
    a click."""
    if not draw.completion_ask(prompt, params, compute.cached(prompt, params, dtype) is not None):
        return
    with draw.running() as progress:  # a bar that moves at each token, only while the run is computed
        gen = compute.generation(prompt, params, dtype, progress)
    draw.completion_result(prompt, params, dtype, gen)


def pairs(dtype: str) -> None:
    """The fact/invention pairs, both completions of each (computed once for every visitor), and their count."""
    draw.pairs_intro()
    with draw.running() as progress:  # one bar over the completions not computed yet
        runs = compute.run_pairs(dtype, progress)
    draw.pairs_panel(runs, dtype)


def render() -> None:
    restore("hallucination", draw.PARAMS)
    if not st.session_state.get("_hallucination_seen"):  # first visit: the seed's example comes first
        st.session_state["_hallucination_seen"] = True
        st.session_state.setdefault("prompt_hallucination", draw.FIRST["prompt"])
    for p in draw.PARAMS[1:]:
        st.session_state.setdefault(p.key, p.default)
    intro("hallucination")
    draw.presets()
    prompt = prompt_box("hallucination")
    params, dtype = draw.controls()
    if prompt is not None:
        completion(prompt, params, dtype)
    share_box("hallucination", draw.PARAMS)
    pairs(dtype)
    next_page_link("hallucination")


render()
