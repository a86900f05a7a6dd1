"""Nondeterminism: the same prompt run several times, the tree of runs, float order, the model two ways."""
import streamlit as st

import model_backend as mb
from ui import a11y
from ui import nondeterminism_view as view
from ui.i18n import t
from ui.nav import next_page_link
from ui.share import publish, restore, share_box
from ui.widgets import intro, prompt_box, truncation_notice

PARAMS = view.link_params()


def sampling_controls() -> tuple[mb.SamplingParams, list[int], bool]:
    """The widgets of section 1: (settings without a seed, one seed per run, whether the seed is fixed).

    Values come from session_state (defaults or a link: view.prepare_state), never from value=."""
    c1, c2, c3 = st.columns(3)
    temperature = c1.slider(t("nondeterminism.temperature"), 0.0, 1.5, step=0.05, key="nd_temperature")
    runs = c2.slider(t("nondeterminism.runs"), 2, view.MAX_RUNS, key="nd_runs")
    tokens = c3.slider(t("nondeterminism.tokens"), 4, 24, key="nd_tokens")
    modes = {m: t(f"nondeterminism.mode.{m}") for m in ("fresh", "fixed")}
    m1, m2 = st.columns([2, 1], vertical_alignment="bottom")
    mode = m1.radio(t("nondeterminism.mode"), list(modes), format_func=modes.get, horizontal=True, key="nd_mode")
    fixed = mode == "fixed"
    if fixed:
        seed = m2.number_input(t("nondeterminism.seed"), 0, view.MAX_SEED, step=1, key="nd_seed")
        run_seeds = [int(seed)] * runs
    else:
        redraw = m2.button(t("nondeterminism.redraw"), help=t("nondeterminism.redraw.help"),
                           icon=":material/casino:", key="nd_redraw")
        if redraw:
            st.session_state["nd_run"] = True  # a click asks for runs: the new seeds run at once
        run_seeds = view.seeds(runs, redraw)
    return mb.SamplingParams(temperature=temperature, max_new_tokens=tokens), run_seeds, fixed


def asked(prompt: str, params: mb.SamplingParams, run_seeds: list[int]) -> bool:
    """Whether to run the prompt now. A prompt nobody has run waits for a click (its runs are most of what a
    visit costs the server); the default prompt runs at once (its runs are shared by every visitor), runs
    already made are shown at once, and after one click (or from a link made after one) this visitor's new
    prompts and settings run as they change."""
    if st.session_state.get("nd_run") or prompt == t("common.default_prompt"):
        return True
    if view.ready_runs(prompt, params, run_seeds) is not None:
        return True
    st.caption(t("nondeterminism.ask.hint", n=len(run_seeds), tokens=params.max_new_tokens))
    st.button(t("nondeterminism.ask.run", n=len(run_seeds)), type="primary", icon=":material/play_arrow:",
              key="nd_go", on_click=st.session_state.__setitem__, args=("nd_run", True))
    return False


def render() -> None:
    restore("nondeterminism", PARAMS)  # before any widget exists
    view.prepare_state(PARAMS)
    intro("nondeterminism")
    # A notice here, at the top, if the link had bad values (the seeds join the URL once they are drawn).
    publish("nondeterminism", view.shared_params(PARAMS, fixed=True))
    prompt = prompt_box("nondeterminism")

    st.header(t("nondeterminism.sample.head"))
    st.markdown(t("nondeterminism.sample.text"))
    params, run_seeds, fixed = sampling_controls()
    if prompt is not None and asked(prompt, params, run_seeds):
        sampled = view.sampled_runs(prompt, params, run_seeds)
        truncation_notice(sampled.truncated_from, sampled.prompt_tokens)
        gens = list(sampled.runs)
        a11y.announce_once(("nondeterminism", prompt, params, tuple(run_seeds)), t("a11y.live.runs", n=len(gens)))
        view.runs_table(gens, params.temperature)
        view.divergence(gens, params.greedy, fixed)

        st.header(t("nondeterminism.cascade.head"))
        st.markdown(t("nondeterminism.cascade.text"))
        view.cascade(gens, params.max_new_tokens)

    st.header(t("nondeterminism.float.head"))
    st.subheader(t("nondeterminism.assoc.head"))
    st.markdown(t("nondeterminism.assoc.text"))
    view.associativity_table()
    view.own_numbers()
    st.subheader(t("nondeterminism.sum.head"))
    st.markdown(t("nondeterminism.sum.text"))
    view.ordered_sums()
    view.model_section()
    share_box("nondeterminism", view.shared_params(PARAMS, fixed))

    st.header(t("nondeterminism.dev.head"))
    st.markdown(t("nondeterminism.dev.text"))
    next_page_link("nondeterminism")


render()
