"""Temperature and sampling: the seed's worked example, then the real model's distribution through
generate()'s chain (repetition penalty -> temperature -> top-k -> top-p), draws, and a greedy loop."""
import streamlit as st

from ui import backend, penalties_view, presets_view
from ui import temperature_view as view
from ui.charts import projection_on
from ui.i18n import t
from ui.nav import next_page_link
from ui.share import publish, restore
from ui.untrusted import escape_markdown
from ui.widgets import intro, prompt_box, truncation_notice


def live_panel(prompt: str) -> None:
    """The sliders and the bars run in the browser (no server round trip per step); the panels below
    follow the sliders in a fragment, rerun once a move has settled (Streamlit reports the chart's
    sliders 150 ms after the last step)."""
    st.html(view.BINDINGS_CSS + (view.BINDINGS_PROJECTION_CSS if projection_on() else ""))  # our own static CSS
    view.live_fragment(prompt, view.state_params())


def render() -> None:
    links = view.link_params()
    restore("temperature", links)  # a shared link's values, before any widget exists
    if "prompt_temperature" not in st.session_state and st.session_state.get("prompt") in (
            None, t("common.default_prompt")):
        st.session_state["prompt_temperature"] = view.PRESETS[0]  # the preset, unless one was typed
    st.session_state.setdefault("temperature_logits", t("temperature.seed.default"))  # in the visitor's style
    for p in links[1:]:
        st.session_state.setdefault(p.key, p.default)
    intro("temperature", model=escape_markdown(backend.model_label()))
    publish("temperature", links)  # a notice here, at the top, if a link had bad values
    view.seed_example()
    st.header(t("temperature.real.header"))
    st.pills(t("temperature.presets"), view.PRESETS, key="temperature_preset", on_change=_use_preset)
    prompt = prompt_box("temperature")
    if prompt is not None:
        _, ids, truncated_from = view.prompt_logits(prompt)  # the cached forward pass of this prompt
        truncation_notice(truncated_from, len(ids))
        live_panel(prompt)
        view.dark_section(prompt)
        presets_view.panel(prompt)  # the seed's factual / creative advice, run live on this prompt
    view.compare_panel()
    view.loop_panel()
    penalties_view.panel()  # the seed's subtractive penalties beside transformers' repetition penalty
    next_page_link("temperature")


def _use_preset() -> None:
    choice = st.session_state.get("temperature_preset")
    if choice:
        st.session_state["prompt_temperature"] = choice
        st.session_state["prompt"] = choice


render()
