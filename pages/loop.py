"""The autoregressive loop, live: step one token at a time or run to the end, and see why it stopped."""
import time

import streamlit as st
from streamlit.errors import StreamlitAPIException

import model_backend as mb
from ui import a11y, backend, completion_view
from ui import loop_view as view
from ui.charts import projection_on
from ui.i18n import t
from ui.nav import next_page_link
from ui.widgets import intro, prompt_box, show_error, truncation_notice


def render() -> None:
    intro("loop")
    st.html(view.window_css())  # our own static CSS: the steps window keeps its height
    links = view.link_params(backend.settings().max_new_tokens)
    from_link = view.restore_link(links)  # before any widget exists
    view.publish_link(links)  # a notice here, at the top, if the link had bad values
    prompt = prompt_box("loop")
    params = view.controls()
    if prompt is not None:
        loop(prompt, params, from_link)
        view.positions(prompt, params)  # outside the fragment: a "Next token" click does not send it again
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
    run = view.replayed(view.current_run(prompt, params), prompt, params)
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
        st.session_state["loop_steps"] = len(run.steps)  # the full run publishes it in the link
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
        view.steps_panels(run, tr)
    view.publish_steps(run)  # the link holds the step (a teacher's phones follow it)
    run.look_ahead()  # the next step's pass runs while the visitor reads this one


render()
