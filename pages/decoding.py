"""Decoding strategies (Holtzman et al. 2019): five strategies side by side, the beam tree, the feedback loop,
and the shipped comparison. The model runs only when a button asks for it."""
import streamlit as st

from ui import backend
from ui import decoding_view as view
from ui.i18n import fmt_int, lang, t
from ui.nav import LINK_FROM, next_page_link
from ui.share import publish, restore, share_box
from ui.untrusted import escape_markdown
from ui.widgets import intro, prompt_box

PARAMS = view.link_params()


@st.fragment
def feedback_panel(panel, share) -> None:
    """Section 3 and the link: one fragment writing into their places, so its controls rerun the panel and the
    link follows them (`share`: the share box's place at the end of the page)."""
    with panel:
        view.feedback_section()
    with share:
        share_box("decoding", PARAMS)


def render() -> None:
    if st.query_params.get(LINK_FROM):  # a link from another page (ui.nav.decoding_link): its prompt wins, even
        st.session_state.pop("_restored_decoding", None)  # over one typed here earlier; publish() drops the mark
    restore("decoding", PARAMS)  # a shared link's values, before any widget exists
    if "prompt_decoding" not in st.session_state and st.session_state.get("prompt") in (
            None, t("common.default_prompt")):
        st.session_state["prompt_decoding"] = view.default_prompt(lang())  # a story opening, unless one was typed
    st.session_state.setdefault("decoding_sentence", view.SENTENCES[lang()])
    for p in PARAMS[1:]:
        st.session_state.setdefault(p.key, p.default)
    intro("decoding", model=escape_markdown(backend.model_label()))
    publish("decoding", PARAMS)  # a notice here, at the top, if a link had bad values
    prompt = prompt_box("decoding")
    if prompt is not None:
        if view.prompt_tokens(prompt) > view.PROMPT_TOKENS:
            st.info(t("common.truncated", n=fmt_int(view.prompt_tokens(prompt)), kept=fmt_int(view.PROMPT_TOKENS)),
                    icon=":material/content_cut:")
    beam = view.side_by_side_section(prompt, PARAMS) if prompt is not None else None
    view.tree(beam)
    panel = st.container()  # section 3, drawn by its fragment below
    view.comparison()
    feedback_panel(panel, st.container())  # and the link, at the end of the page
    next_page_link("decoding")


render()
