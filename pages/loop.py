"""The autoregressive loop, live: step one token at a time or run to the end, and see why it stopped."""
import time

import streamlit as st
from streamlit.errors import StreamlitAPIException

import model_backend as mb
from ui import a11y, backend, completion_view, compute_view
from ui import loop_view as view
from ui.charts import projection_on
from ui.i18n import t
from ui.nav import next_page_link
from ui.widgets import intro, prompt_box, show_error, truncation_notice


def controls() -> mb.SamplingParams:
    """The sampling settings, with the course text's sensible defaults (T 0.7, top-p 0.9)."""
    cap = backend.settings().max_new_tokens
    with st.expander(t("loop.ctl.title"), icon=":material/tune:"):
        c1, c2, c3, c4 = st.columns(4)
        # Values come from session_state (defaults or a shared link: view.link_params), never from value=.
        temperature = c1.slider(t("loop.ctl.temperature"), 0.0, 2.0, step=0.05, key="loop_temperature",
                                help=t("loop.ctl.temperature.help"))
        greedy = temperature == 0
        top_k = c2.number_input(t("loop.ctl.top_k"), 0, 1000, step=1, key="loop_top_k", disabled=greedy,
                                help=t("loop.ctl.top_k.help"))
        top_p = c3.slider(t("loop.ctl.top_p"), 0.05, 1.0, step=0.05, key="loop_top_p", disabled=greedy)
        penalty = c4.slider(t("loop.ctl.penalty"), 1.0, 2.0, step=0.05, key="loop_penalty",
                            help=t("loop.ctl.penalty.help"))
        c5, c6, c7 = st.columns([1, 2, 1])
        max_new = c5.number_input(t("loop.ctl.max_new"), 1, cap, step=1, key="loop_max_new")
        stops = c6.multiselect(t("loop.ctl.stop"), view.STOP_PRESETS, key="loop_stop", accept_new_options=True,
                               placeholder=t("loop.ctl.stop.placeholder"), help=t("loop.ctl.stop.help"))
        seed = c7.number_input(t("loop.ctl.seed"), 0, 2**31 - 1, step=1, key="loop_seed", disabled=greedy)
    params = mb.SamplingParams(temperature=float(temperature), top_k=int(top_k), top_p=float(top_p),
                               repetition_penalty=float(penalty), max_new_tokens=int(max_new),
                               stop=view.parse_stops(stops), seed=None if greedy else int(seed))
    st.caption(view.settings_summary(params))
    return params


def render() -> None:
    intro("loop")
    st.html(view.window_css())  # our own static CSS: the steps window keeps its height
    links = view.link_params(backend.settings().max_new_tokens)
    from_link = view.restore_link(links)  # before any widget exists
    view.publish_link(links)  # a notice here, at the top, if the link had bad values
    prompt = prompt_box("loop")
    params = controls()
    if prompt is not None:
        loop(prompt, params, from_link)
        positions(prompt, params)  # outside the fragment: a "Next token" click does not send it again
    completion_view.panel()  # seed 000's opening: prompt, completion, chat, and no hidden thinking
    view.publish_link(links, box=True)  # the URL and a copyable link to this view
    next_page_link("loop")


@st.fragment
def loop(prompt: str, params: mb.SamplingParams, from_link: bool) -> None:
    """The run and everything it draws. A fragment: "Next token", "Generate" and the step picker rerun only
    this part (one decode step from the kept KV cache, then its drawings), not the settings above it."""
    try:
        mb.check_params(params, backend.settings().max_new_tokens)
    except mb.InvalidInput as exc:
        show_error(exc)
        return
    tr = backend.trace(prompt)  # the prompt's forward pass (cached, shared with the other pages)
    truncation_notice(tr.truncated_from, len(tr.tokens))
    run = view.current_run(prompt, params)
    if from_link and not run.steps:  # a link carries settings, not tokens: one click makes the same ones
        st.info(t("loop.link.hint"), icon=":material/link:")

    had_steps = bool(run.steps)
    b1, b2, b3 = st.columns([1, 1.4, 1] if projection_on() else 3)  # the longest label gets room in projection mode
    step_once = b1.button(t("loop.btn.next"), icon=":material/skip_next:", type="primary", disabled=run.done,
                          width="stretch")
    to_end = b2.button(t("loop.btn.generate"), icon=":material/fast_forward:", disabled=run.done, width="stretch")
    if b3.button(t("loop.btn.reset"), icon=":material/restart_alt:", width="stretch"):
        view.reset_run(prompt, params)
        run = view.current_run(prompt, params)
        if had_steps:
            st.rerun()  # the positions panel below the fragment drops its comparison with step 1

    left, right = st.columns([3, 2])
    with left:
        text_slot, tokens_slot = st.empty(), st.empty()
    with right:
        chart_slot = st.empty()
    progress = st.empty()
    if step_once:
        run.advance()
    elif to_end:
        drawn = 0.0
        while not run.done:  # draw the tokens as they come, at most every view.REDRAW_S seconds
            run.advance()
            if time.perf_counter() - drawn >= view.REDRAW_S or run.done:
                progress.progress(len(run.steps) / params.max_new_tokens,
                                  text=t("loop.progress", n=len(run.steps), max=params.max_new_tokens))
                view.live(run, text_slot, tokens_slot, chart_slot, streaming=True)
                drawn = time.perf_counter()
        progress.empty()
    if bool(run.steps) != had_steps:  # the first step, or a reset: the positions panel below the fragment changes too
        st.rerun()
    if (step_once or to_end) and run.done:  # the buttons above were drawn before the loop ended: redraw them disabled
        try:
            st.rerun(scope="fragment")  # a click inside the fragment reran only the fragment: so again
        except StreamlitAPIException:  # the whole page ran (a test's click, a browser without fragments): rerun it
            st.rerun()
    view.live(run, text_slot, tokens_slot, chart_slot)
    if run.done:
        a11y.announce_once(("loop", run.prompt, len(run.steps)), t("a11y.live.generated", n=len(run.steps)))
        view.finish_box(run.result)
        view.greedy_loop_panel(prompt, run.result)
    st.graphviz_chart(view.flowchart(run, tr.info.vocab_size), width="stretch")
    st.caption(view.flow_caption(run, len(tr.tokens)))

    if run.steps:
        st.subheader(t("loop.steps.title"))
        view.steps_table(run.steps)
        view.inspector(run)
        st.subheader(t("loop.time.title"))
        c1, c2 = st.columns(2)
        with c1:
            view.timing_chart(run.steps, len(tr.tokens))
        with c2:
            view.kv_chart(run.steps, len(tr.tokens), tr.info)
        st.subheader(t("compute.title"))
        compute_view.answer_panel(tr.info, len(tr.tokens), run.steps)  # FLOPs x tokens, beside the seed's figures
    run.look_ahead()  # the next step's pass runs while the visitor reads this one


def positions(prompt: str, params: mb.SamplingParams) -> None:
    """Logits at every position of the prompt. It depends on the prompt, and on the run only through its first
    step (which the fragment's first step and reset rerun the page for), so it is drawn outside the fragment."""
    try:
        mb.check_params(params, backend.settings().max_new_tokens)
    except mb.InvalidInput:
        return  # the fragment said why
    st.subheader(t("loop.pos.title"))
    st.markdown(t("loop.pos.what"))
    view.positions_panel(backend.trace(prompt), view.current_run(prompt, params))


render()
