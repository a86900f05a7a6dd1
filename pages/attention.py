"""Attention: who looks at whom, in every layer and head of the real model, and what context does to a word.
Layout only: ui.attention.compute computes (cached, through the model's queue), ui.attention.draw draws."""
import streamlit as st

from model_backend.lessons import attention as att
from model_backend.validation import InvalidInput
from ui.attention import compute, draw
from ui.i18n import t
from ui.nav import next_page_link
from ui.share import publish, restore
from ui.widgets import intro, prompt_box, show_error, truncation_notice


def attention_views(prompt: str) -> None:
    with st.spinner(t("attention.reading")):
        tr = compute.trace(prompt)  # one cached forward pass; every picker below only slices it
    truncation_notice(tr.truncated_from, len(tr.tokens))

    st.subheader(t("attention.big.title"))
    layer, head = draw.pickers(tr.info)
    pat = att.pattern(tr.attentions, draw.axis_value(layer), draw.axis_value(head))  # [T, T]: no model run
    labels = draw.token_labels(tr.tokens)
    draw.heatmap_panel(tr, pat, layer, head, labels)

    st.subheader(t("attention.token.title"))
    draw.token_panel(tr, pat, labels, draw.QUERY)

    st.subheader(t("attention.grid.title"))
    draw.grid_panel(tr, layer, head)
    habits(tr)  # what each head does, measured on this prompt (on a click)

    generated(prompt, layer, head)
    st.subheader(t("attention.mech.title"))
    draw.mechanics_panel(tr.info, compute.mechanics(len(tr.tokens)), len(tr.tokens), compute.max_prompt_tokens())


@st.fragment
def habits(tr) -> None:
    if draw.habits_ask(tr):
        draw.habits_result(compute.habits(tr), len(tr.tokens))


@st.fragment
def generated(prompt: str, layer: int, head: int) -> None:
    """Attention over a greedy continuation of the visitor's text, on a click."""
    n = draw.generated_ask(prompt)
    if n is None:
        return
    with draw.generating(n) as progress:
        tr, first, gen = compute.generated_trace(prompt, n, progress)
    draw.generated_result(prompt, n, tr, first, gen, layer, head)


@st.fragment
def banco_and_link(params) -> None:
    """The "banco" demo and the link to this view, in one fragment: typing a sentence reruns only this part,
    and the link (and the address bar) still follow it."""
    sentences, word = draw.banco_ask()
    try:
        draw.banco_result(compute.banco(sentences, word))
    except InvalidInput as exc:
        show_error(exc)
    draw.share(params)


def render() -> None:
    intro("attention")
    info, limit = compute.info(), compute.max_prompt_tokens()
    params = draw.link_params(info, limit)
    restore("attention", draw.link_params(info, limit, old_link=draw.is_old_link()))  # before any widget exists
    draw.check_link("attention")
    publish("attention", params)  # a notice here, at the top, if the link had bad values
    prompt = prompt_box("attention")
    if prompt is not None:
        attention_views(prompt)
    banco_and_link(params)
    next_page_link("attention")


render()
