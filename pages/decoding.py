"""Decoding strategies (Holtzman et al. 2019): five strategies side by side, the beam tree, the feedback loop,
and the shipped comparison. The model runs only when a button asks for it.
Layout only: ui.decoding.compute runs (cached, through the model's queue), ui.decoding.draw draws."""
import streamlit as st

from ui.decoding import compute, draw
from ui.i18n import lang, t
from ui.nav import LINK_FROM, next_page_link
from ui.share import publish, restore, share_box
from ui.untrusted import escape_markdown
from ui.widgets import intro, prompt_box

PARAMS = draw.link_params()


def side_by_side(prompt: str):
    """Section 1 on a click; returns the beam run for section 2 once the visitor has run it."""
    settings = draw.side_ask(PARAMS, prompt)
    if settings is None:
        return None
    with draw.running() as progress:
        conts, beam = compute.side_by_side(*settings, progress)
    draw.side_result(settings, conts, draw.dtype_note(*compute.dtypes()))
    return beam


@st.fragment
def feedback_panel(panel, share) -> None:
    """Section 3 and the link: one fragment writing into their places, so its controls rerun the panel and the
    link follows them (`share`: the share box's place at the end of the page)."""
    with panel:
        settings = draw.feedback_ask()
        if settings is not None:
            try:
                draw.feedback_result(compute.feedback(*settings), settings[1])
            except ValueError:  # a sentence with no token
                draw.feedback_empty()
    with share:
        share_box("decoding", PARAMS)


def comparison() -> None:
    """Section 4: the shipped comparison, and one of its prompts run again now on a click."""
    data = compute.shipped()
    index = draw.comparison(data)
    if index is not None:
        with draw.running() as progress:
            now, machine = compute.compare_live(index, data, progress)
        draw.live_result(data, index, now, machine)


def render() -> None:
    if st.query_params.get(LINK_FROM):  # a link from another page (ui.nav.decoding_link): its prompt wins, even
        st.session_state.pop("_restored_decoding", None)  # over one typed here earlier; publish() drops the mark
    restore("decoding", PARAMS)  # a shared link's values, before any widget exists
    if "prompt_decoding" not in st.session_state and st.session_state.get("prompt") in (
            None, t("common.default_prompt")):
        st.session_state["prompt_decoding"] = draw.default_prompt(lang())  # a story opening, unless one was typed
    st.session_state.setdefault("decoding_sentence", draw.SENTENCES[lang()])
    for p in PARAMS[1:]:
        st.session_state.setdefault(p.key, p.default)
    intro("decoding", model=escape_markdown(compute.model_label()))
    publish("decoding", PARAMS)  # a notice here, at the top, if a link had bad values
    prompt = prompt_box("decoding")
    if prompt is not None:
        draw.truncated(compute.prompt_tokens(prompt), compute.PROMPT_TOKENS)
    beam = side_by_side(prompt) if prompt is not None else None
    draw.tree(beam)
    panel = st.container()  # section 3, drawn by its fragment below
    comparison()
    feedback_panel(panel, st.container())  # and the link, at the end of the page
    next_page_link("decoding")


render()
