"""Tokenizer: text becomes tokens (IDs, bytes), one-hot vectors pick embedding rows, rows carry meaning."""
import streamlit as st

from ui import tokenizer_view as view
from ui.export import downloads
from ui.i18n import fmt_float, fmt_int, t
from ui.nav import next_page_link
from ui.share import publish, restore, share_box
from ui.widgets import data_table, intro


@st.fragment
def tokens_panel(params) -> None:
    """Reruns alone while the visitor types; its link box and the URL follow every change."""
    view.preset_buttons()
    text = view.text_box()
    if text is not None:
        tokens(text)
    share_box("tokenizer", params)


def tokens(text: str) -> None:
    items = view.entries()
    main = items[0]
    tok = view.tokenize(main.key, text, main.tokenizer)
    show_special = st.toggle(t("tokenizer.special"), key="tok_special")
    shown = [p for p in tok.pieces if show_special or not p.info.special]
    a, b, c = st.columns(3)
    a.metric(t("tokenizer.m.chars"), fmt_int(tok.n_chars))
    b.metric(t("tokenizer.m.tokens"), fmt_int(tok.n_tokens), help=t("tokenizer.m.tokens.help"))
    c.metric(t("tokenizer.m.ratio"), fmt_float(tok.chars_per_token, 2))
    if not shown:
        return
    st.subheader(t("tokenizer.chips.head", model=main.label))
    pick_key = view.pick(shown)
    view.chips(shown, key="tok_chips", selected=st.session_state[pick_key])
    view.explain(tok, items)
    view.compare(text, items)
    table = view.token_table(shown)
    st.subheader(t("tokenizer.table.head"))
    data_table(table, hide_index=True, height=280)
    downloads(table, "tokens", key="tok_dl")
    view.embedding(shown, pick_key, main.tokenizer)


def render() -> None:
    params = view.link_params()
    restore("tokenizer", params)  # a shared link's text and settings, before any widget exists
    for p in params[1:]:
        if p.name != "pos":  # the token picker has its own default (the first text token)
            st.session_state.setdefault(p.key, p.default)
    intro("tokenizer")
    publish("tokenizer", params)  # a notice here, at the top, if the link had bad values
    tokens_panel(params)
    st.divider()
    view.neighbours_panel()
    st.divider()
    view.map_panel()
    next_page_link("tokenizer")


render()
