"""The autoregressive loop, live: step one token at a time or run to the end, and see why it stopped.
Layout only: ui.loop.compute keeps and steps the runs (one per settings, shared), ui.loop.draw draws."""
import streamlit as st

import model_backend as mb
from ui import a11y, live_class
from ui.i18n import t
from ui.loop import compute, draw
from ui.nav import next_page_link
from ui.widgets import intro, prompt_box, show_error, truncation_notice


def render() -> None:
    intro("loop")
    st.html(draw.window_css())  # our own static CSS: the steps window keeps its height
    cap = compute.max_new_tokens()
    links = draw.link_params(cap)
    from_link = draw.restore_link(links)  # before any widget exists
    draw.publish_link(links)  # a notice here, at the top, if the link had bad values
    prompt = prompt_box("loop")
    params = draw.controls(cap)
    if prompt is not None:  # a phone that follows the teacher takes her step in the run's fragment alone:
        live_class.follow_in_fragment("loop", "loop_run", links[-2:-1], draw.take_step, draw.step_in_fragment)
        loop(prompt, params, from_link)
        positions(prompt, params, cap)  # outside the fragment: a "Next token" click does not send it again
    completion()  # seed 000's opening: prompt, completion, chat, and no hidden thinking
    draw.publish_link(links, box=True)  # the URL and a copyable link to this view
    next_page_link("loop")


@st.fragment(key="loop_run")
def loop(prompt: str, params: mb.SamplingParams, from_link: bool) -> None:
    """The run and everything it draws. A fragment: "Next token", "Generate" and the step picker rerun only
    this part (one decode step from the kept KV cache, then its drawings), not the settings above it."""
    live_class.took_teacher_values("loop")  # a following phone: the teacher's step, replayed below
    cap = compute.max_new_tokens()
    if (error := compute.invalid(params, cap)) is not None:
        show_error(error)
        return
    facts = compute.prompt_facts(prompt)  # its token count and the model's figures (no forward pass)
    truncation_notice(facts.truncated_from, facts.n_tokens)
    state = st.session_state  # the visitor's runs are kept there
    run, wanted = compute.rewound(state, compute.current_run(state, prompt, params), prompt, params)
    with draw.replaying(wanted, len(run.steps)) as progress:  # a link's step, taken again once
        compute.replay(run, wanted, progress)
    if from_link and not run.steps:  # a link carries settings, not tokens: one click makes the same ones
        st.info(t("loop.link.hint"), icon=":material/link:")
    had_steps = bool(run.steps)
    step_once, to_end, reset = draw.buttons(run.done)
    if reset:
        compute.reset_run(state, prompt, params)
        run = compute.current_run(state, prompt, params)
        if had_steps:
            st.rerun()  # the positions panel below the fragment drops its comparison with step 1
    slots = draw.slots()
    if step_once:
        run.advance()
    elif to_end:
        draw.stream(compute.to_end(run), slots, params.max_new_tokens)  # each step drawn as it comes
    if bool(run.steps) != had_steps:  # the first step, or a reset: the positions panel below the fragment changes too
        state["loop_steps"] = len(run.steps)  # the full run publishes it in the link
        st.rerun()
    if (step_once or to_end) and run.done:  # the buttons above were drawn before the loop ended: redraw them disabled
        draw.rerun_buttons()
    draw.live(run, slots)
    if run.done:
        a11y.announce_once(("loop", run.prompt, len(run.steps)), t("a11y.live.generated", n=len(run.steps)))
        draw.finish_box(run.result)
        draw.greedy_loop_panel(prompt, compute.greedy_loop(run.result))
    draw.flow(run, facts)  # the course text's flowchart, the box where the loop is now coloured
    if run.steps:
        draw.steps_panels(run, facts)
    draw.publish_steps(run, cap)  # the link holds the step (a teacher's phones follow it)
    run.look_ahead()  # the next step's pass runs while the visitor reads this one


def positions(prompt: str, params: mb.SamplingParams, cap: int) -> None:
    """Logits at every position of the prompt. It depends on the prompt, and on the run only through its first
    step (which the fragment's first step and reset rerun the page for), so it is drawn outside the fragment."""
    if compute.invalid(params, cap) is None:  # else the fragment said why
        draw.positions_title()
        draw.positions_panel(compute.trace(prompt), compute.current_run(st.session_state, prompt, params))


@st.fragment
def completion() -> None:
    """Seed 000's opening: a chat is one formatted text; a question answered directly and after the steps."""
    chat = compute.chat_text(question := draw.question())
    draw.chat(chat)
    draw.chat_caption(compute.chat_tokens(chat))  # its length in tokens, under it
    if draw.think_ask():
        right = []
        for col, case in zip(st.columns(2), draw.THINK_CASES):
            with col:  # the answer is computed in its column, as it is drawn
                prompt = draw.think_prompt(question, case)
                right.append(draw.think_case(case, prompt, compute.answered(prompt)))
        draw.moral(right, compute.n_params())


render()
