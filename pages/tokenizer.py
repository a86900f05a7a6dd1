"""Tokenizer: text becomes tokens (IDs, bytes), one-hot vectors pick embedding rows, rows carry meaning.
Layout only: ui.tokenizer.compute tokenizes and reads the model's embeddings (cached), ui.tokenizer.draw draws."""
import streamlit as st

from ui import weights_view
from ui.nav import next_page_link
from ui.share import publish, restore, share_box
from ui.tokenizer import compute, draw
from ui.widgets import intro


@st.fragment
def tokens_panel(params) -> None:
    """Reruns alone while the visitor types; its link box and the URL follow every change."""
    draw.preset_buttons()
    text = draw.text_box()
    if text is not None:
        tokens(text)
    share_box("tokenizer", params)


def tokens(text: str) -> None:
    items = compute.entries(draw.reading)  # the running model's tokenizer first; a first read moves a bar
    tok = compute.tokenize(items[0], text)
    shown = draw.counts(tok)  # the tokens the special-tokens switch leaves shown
    if not shown:
        return
    pick_key = draw.chips_panel(shown, items[0].label)
    sides = compute.sides(text, items)  # the text, the contrast spellings and the cost, by every tokenizer
    draw.explain(tok, sides)
    draw.compare(sides)
    draw.table(shown)
    token_id = draw.embedding_ask(shown, pick_key)
    look = compute.lookup(token_id)
    draw.embedding_result(token_id, look, compute.around(token_id, look.vocab_size), weights_view.embedding_bits())


def neighbours() -> None:  # not a fragment: a new word reruns the page, so the link box follows it
    asked = draw.neighbours_ask()  # (query, k), or None for an empty word
    if asked is not None:
        main = compute.entries(draw.reading)[0]  # the running model's; as before, a pending first read shows here
        draw.neighbours_result(asked[0], compute.neighbours(*asked, main, busy=draw.searching))


def word_map() -> None:  # not a fragment either, for the same reason
    words = draw.map_ask()  # None for fewer than 3 words
    if words is not None:
        draw.map_result(words, *compute.projection(words))


def render() -> None:
    params = draw.link_params()
    restore("tokenizer", params)  # a shared link's text and settings, before any widget exists
    for p in params[1:]:
        if p.name != "pos":  # the token picker has its own default (the first text token)
            st.session_state.setdefault(p.key, p.default)
    intro("tokenizer")
    publish("tokenizer", params)  # a notice here, at the top, if the link had bad values
    tokens_panel(params)
    st.divider()
    neighbours()
    st.divider()
    word_map()
    next_page_link("tokenizer")


render()
