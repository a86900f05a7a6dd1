"""Nondeterminism: the same prompt run several times, the tree of runs, float order, the model two ways.
Layout only: ui.nondeterminism.compute computes (runs shared by every visitor, cached, through the model's queue),
ui.nondeterminism.draw draws."""
import streamlit as st

import model_backend as mb
from model_backend.validation import InvalidInput, check_prompt
from ui import a11y
from ui.i18n import t
from ui.nav import next_page_link
from ui.nondeterminism import compute, draw
from ui.share import publish, restore, share_box
from ui.widgets import intro, prompt_box, show_error, truncation_notice

PARAMS = draw.link_params()


def asked(prompt: str, params: mb.SamplingParams, run_seeds: list[int]) -> bool:
    """Whether to run the prompt now. A prompt nobody has run waits for a click (its runs are most of what a
    visit costs the server); the default prompt runs at once (its runs are shared by every visitor), runs
    already made are shown at once, and after one click (or from a link made after one) this visitor's new
    prompts and settings run as they change."""
    if st.session_state.get("nd_run") or prompt == t("common.default_prompt"):
        return True
    if compute.ready_runs(prompt, params, run_seeds) is not None:
        return True
    draw.runs_ask(len(run_seeds), params.max_new_tokens)
    return False


def model_two_ways() -> None:
    """Section 3c: the real model computed two ways, run on request and cached."""
    wanted = draw.model_ask()
    if wanted is None:
        return
    text, n = wanted
    try:
        prompt = check_prompt(text)
        with draw.comparing() as progress:
            results = compute.comparisons(prompt, n, progress)
        draw.model_result(results)
        st.caption(t("nondeterminism.engine.note"))  # how this app's own engine batches (runtime/invariance.py)
        if not compute.has_gpu():
            draw.no_gpu_note()
    except InvalidInput as exc:
        show_error(exc)


def render() -> None:
    restore("nondeterminism", PARAMS)  # before any widget exists
    draw.prepare_state(PARAMS)
    intro("nondeterminism")
    # A notice here, at the top, if the link had bad values (the seeds join the URL once they are drawn).
    publish("nondeterminism", draw.shared_params(PARAMS, fixed=True))
    prompt = prompt_box("nondeterminism")

    st.header(t("nondeterminism.sample.head"))
    st.markdown(t("nondeterminism.sample.text"))
    params, run_seeds, fixed = draw.sampling_controls()
    if prompt is not None and asked(prompt, params, run_seeds):
        sampled = compute.sampled_runs(prompt, params, run_seeds, busy=lambda: draw.generating(len(run_seeds)))
        truncation_notice(sampled.truncated_from, sampled.prompt_tokens)
        gens = list(sampled.runs)
        a11y.announce_once(("nondeterminism", prompt, params, tuple(run_seeds)), t("a11y.live.runs", n=len(gens)))
        draw.runs_table(gens, params.temperature)
        draw.divergence(gens, params.greedy, fixed)

        st.header(t("nondeterminism.cascade.head"))
        st.markdown(t("nondeterminism.cascade.text"))
        draw.cascade(gens, params.max_new_tokens)

    st.header(t("nondeterminism.float.head"))
    st.subheader(t("nondeterminism.assoc.head"))
    st.markdown(t("nondeterminism.assoc.text"))
    draw.associativity_table()
    draw.own_numbers()
    st.subheader(t("nondeterminism.sum.head"))
    st.markdown(t("nondeterminism.sum.text"))
    n = draw.sum_size()
    draw.ordered_sums(n, *compute.vector_sums(n))
    model_two_ways()
    share_box("nondeterminism", draw.shared_params(PARAMS, fixed))

    st.header(t("nondeterminism.dev.head"))
    st.markdown(t("nondeterminism.dev.text"))
    next_page_link("nondeterminism")


render()
