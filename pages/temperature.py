"""Temperature and sampling: the seed's worked example, then the real model's distribution through
generate()'s chain (repetition penalty -> temperature -> top-k -> top-p), draws, and a greedy loop. Layout only:
ui.temperature.compute computes (one pass per prompt), ui.temperature.draw and its panels draw."""
import streamlit as st

from ui import live_class
from ui.charts import projection_on
from ui.i18n import t
from ui.nav import next_page_link
from ui.share import publish, restore, share_box
from ui.temperature import compute, draw, penalties, presets
from ui.untrusted import escape_markdown
from ui.widgets import intro, prompt_box, timed, truncation_notice


@st.fragment(key="temperature_live_panel")
@timed("temperature.live_panel")
def live_fragment(prompt: str) -> None:
    """Everything the sliders change: math on the cached logits, never a forward pass. The sliders and bars run in
    the browser; this reruns once a move has settled (Streamlit reports them 150 ms after the last step), and alone
    on a phone that follows the teacher's sliders (live_class.follow_in_fragment)."""
    live_class.took_teacher_values("temperature")  # a following phone: her sliders' values, before the widgets
    bars = compute.live_bars(prompt)
    params = draw.live_controls(bars, draw.initial())
    view = compute.chain(prompt, params)
    names, curve = compute.labels(view.ids), compute.entropy(prompt, params.repetition_penalty)
    drawn = draw.live_result(view, names, params, curve)
    draw.files(bars, view, names, params, curve, drawn)  # drawn only while its box is open
    share_box("temperature", draw.link_params())  # inside the fragment: the link follows the sliders


@st.fragment
def presets_panel(prompt: str) -> None:
    """The seed's factual / creative advice, run live on this prompt on a click."""
    if presets.ask(prompt):
        with presets.running():
            results = compute.preset_runs(prompt)
        presets.result(results)


@st.fragment
def compare_panel() -> None:
    """A concentrated prompt and a spread one at the same T and top-p (math on their cached logits)."""
    p, temp, cols = draw.compare_ask()
    draw.compare_result(p, temp, cols, compute.pair(temp, p))


@st.fragment
def loop_panel() -> None:
    """A greedy loop without and with a repetition penalty, and a count it breaks (each run made once, for all)."""
    r, counts = draw.loop_ask(), {}
    for case, prompt, n, penalty in draw.loop_slots(r):
        with draw.loop_running(penalty) as progress:
            run = compute.loop_run(prompt, penalty, n, progress)
        counts.update(draw.loop_result(case, penalty, run))
    draw.loop_verdict(r, counts)


@st.fragment
def penalties_panel() -> None:
    """The seed's subtractive penalties beside transformers' repetition penalty, run live on a click."""
    settings = penalties.ask()
    if settings is not None:
        for prompt, kind, n, count_from in penalties.slots():
            penalties.result(kind, count_from, settings, compute.penalty_run(prompt, kind, n, count_from, *settings))
    penalties.warning()


def render() -> None:
    links = draw.link_params()
    restore("temperature", links)  # a shared link's values, before any widget exists
    if "prompt_temperature" not in st.session_state and st.session_state.get("prompt") in (
            None, t("common.default_prompt")):
        st.session_state["prompt_temperature"] = draw.PRESETS[0]  # the preset, unless one was typed
    st.session_state.setdefault("temperature_logits", t("temperature.seed.default"))  # in the visitor's style
    for p in links[1:]:
        st.session_state.setdefault(p.key, p.default)
    intro("temperature", model=escape_markdown(compute.model_label()))
    publish("temperature", links)  # a notice here, at the top, if a link had bad values
    draw.seed_example()
    st.header(t("temperature.real.header"))
    st.pills(t("temperature.presets"), draw.PRESETS, key="temperature_preset", on_change=draw.use_preset)
    prompt = prompt_box("temperature")
    if prompt is not None:
        _, ids, truncated_from = compute.prompt_logits(prompt)  # the cached forward pass of this prompt
        truncation_notice(truncated_from, len(ids))
        st.html(draw.BINDINGS_CSS + (draw.BINDINGS_PROJECTION_CSS if projection_on() else ""))  # our own CSS
        draw.set_initial()  # the sliders' values at this full run: the bars' spec is built from them
        live_class.follow_in_fragment("temperature", "temperature_live_panel", links[1:7], taken=draw.take_teacher_values)
        live_fragment(prompt)
        draw.dark_section(compute.nucleus_grid(prompt))
        presets_panel(prompt)
    compare_panel()
    loop_panel()
    penalties_panel()
    next_page_link("temperature")


render()
