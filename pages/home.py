"""Home: the greeting, the guided path, and a first live look at the model's next-token guess. Layout only:
ui.home.compute makes the one forward pass, ui.home.draw draws."""
import streamlit as st

from ui.home import compute, draw
from ui.i18n import t
from ui.share import restore, share_box
from ui.widgets import intro, prompt_box, truncation_notice


def render() -> None:
    restore("home", draw.params())
    intro("home")
    draw.path()
    st.subheader(t("home.try"))
    prompt = prompt_box("home")
    if prompt is None:
        return
    tr = compute.trace(prompt)  # the cached forward pass, shared with the other pages
    truncation_notice(tr.truncated_from, len(tr.tokens))
    draw.guess(compute.top_table(tr), tr.info.vocab_size)
    share_box("home", draw.params())
    draw.model_card(tr.info)


render()
