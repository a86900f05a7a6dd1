"""Attention: who looks at whom, in every layer and head of the real model, and what context does to a word."""
import streamlit as st

from model_backend.lessons import attention as att
from ui import attention_view as view
from ui import backend
from ui.i18n import t
from ui.nav import next_page_link
from ui.share import publish, restore
from ui.widgets import intro, prompt_box, truncation_notice


def attention_views(prompt: str) -> None:
    with st.spinner(t("attention.reading")):
        tr = backend.trace(prompt)  # one cached forward pass; every picker below only slices it
    truncation_notice(tr.truncated_from, len(tr.tokens))

    st.subheader(t("attention.big.title"))
    layer, head = view.pickers(tr.info)
    pat = att.pattern(tr.attentions, view.axis_value(layer), view.axis_value(head))  # [T, T], cheap: no model run
    labels = view.token_labels(tr.tokens)
    view.heatmap_panel(tr, pat, layer, head, labels)

    st.subheader(t("attention.token.title"))
    view.token_panel(tr, pat, labels, view.QUERY)

    st.subheader(t("attention.grid.title"))
    view.grid_panel(tr, layer, head)
    view.habits_panel(tr)  # what each head does, measured on this prompt (on a click)

    view.generated_panel(prompt, layer, head)
    st.subheader(t("attention.mech.title"))
    view.mechanics_panel(tr.info, len(tr.tokens))


def render() -> None:
    intro("attention")
    info = backend.bundle_for().info
    params = view.link_params(info)
    restore("attention", view.link_params(info, old_link=view.is_old_link()))  # before any widget exists
    view.check_link("attention")
    publish("attention", params)  # a notice here, at the top, if the link had bad values
    prompt = prompt_box("attention")
    if prompt is not None:
        attention_views(prompt)
    view.banco_and_link(params)  # "banco" and the link to this view, rerun together as one fragment
    next_page_link("attention")


render()
