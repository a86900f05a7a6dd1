"""Tokenizer: text becomes tokens (IDs, bytes), one-hot vectors pick embedding rows, rows carry meaning."""
import pandas as pd
import streamlit as st

from model_backend.core.tokens import token_info
from model_backend.lessons.tokenizer import parse_words, tokenizer_kind
from ui import tokenizer_view as view
from ui import weights_view
from ui.charts import show
from ui.export import downloads
from ui.i18n import fmt_float, fmt_int, fmt_pct, t
from ui.nav import next_page_link
from ui.share import publish, restore, share_box
from ui.widgets import data_table, intro, model_text

FIRST_VALUES = 8  # the embedding row's first values, printed under its strip


def _show(chart, caption: str, **kwargs) -> None:
    show(chart, **kwargs)
    st.caption(caption)


def _presets() -> None:
    with st.container(horizontal=True):
        for key, text in view.PRESETS.items():
            st.button(t(f"tokenizer.preset.{key}"), key=f"tok_preset_{key}", on_click=view.set_text, args=(text,))


def _chips(shown, key=None, selected=None, limit=view.MAX_CHIPS) -> None:
    drawn = shown[:limit]
    chart = view.chips_chart(view.chip_frame(drawn), selectable=key is not None, selected=selected)
    extra = {"on_select": "rerun", "key": key, "selection_mode": "chip"} if key else {}
    caption = t("tokenizer.chips.caption") if key else t("tokenizer.compare.chips")
    if len(drawn) < len(shown):
        caption = t("tokenizer.chips.capped", shown=fmt_int(len(drawn)), n=fmt_int(len(shown))) + " " + caption
    _show(chart, caption, **extra)


def _pick(shown) -> str:
    """Prepare the token picker's state: a clicked chip wins, then the last choice, then the first token.

    The picker's key changes with the text (new options, new widget); "tok_pos" carries the choice across.
    """
    valid = [p.position for p in shown[:view.MAX_CHIPS]]
    key = "tok_pick_" + view.digest(p.info.id for p in shown[:view.MAX_CHIPS])
    clicked = view.selected_position(st.session_state.get("tok_chips"), set(valid))
    if clicked is not None and clicked != st.session_state.get("tok_chip_seen"):
        st.session_state[key] = st.session_state["tok_chip_seen"] = clicked
    if st.session_state.get(key) not in valid:
        last = st.session_state.get("tok_pos")
        st.session_state[key] = last if last in valid else next(
            (p.position for p in shown if not p.info.special), valid[0])
    return key


@st.fragment
def tokens_panel(params) -> None:
    """Reruns alone while the visitor types; its link box and the URL follow every change."""
    _presets()
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
    pick_key = _pick(shown)
    _chips(shown, key="tok_chips", selected=st.session_state[pick_key])
    explain(tok, items)
    compare(text, items)
    table = view.token_table(shown)
    st.subheader(t("tokenizer.table.head"))
    data_table(table, hide_index=True, height=280)
    downloads(table, "tokens", key="tok_dl")
    embedding(shown, pick_key, main.tokenizer)


def explain(tok, items) -> None:
    if tok.n_partial:
        st.info(t("tokenizer.partial.found", n=fmt_int(tok.n_partial)), icon=":material/call_split:")
    else:
        st.caption(t("tokenizer.partial.none"))
    st.subheader(t("tokenizer.contrast.head"))
    st.markdown(t("tokenizer.contrast.text"))
    data_table(view.contrast_table(items), hide_index=True)


def compare(text, items) -> None:
    st.subheader(t("tokenizer.compare.head"))
    for col, e in zip(st.columns(len(items)), items):
        with col:
            tok = view.tokenize(e.key, text, e.tokenizer)
            st.markdown(t("tokenizer.compare.name", name=e.label, kind=t(f"tokenizer.kind.{tokenizer_kind(e.tokenizer)}"),
                          vocab=fmt_int(len(e.tokenizer))))
            st.metric(t("tokenizer.m.tokens"), fmt_int(tok.n_tokens), help=t("tokenizer.m.tokens.help"))
            _chips([p for p in tok.pieces if not p.info.special], limit=view.MAX_CHIPS // 2)
    if len(items) < 2:
        st.info(t("tokenizer.compare.missing"))
    downloads(view.compare_frame(text, items), "tokens-by-tokenizer", key="tok_dl_compare")
    costs = {e.label: view.language_cost(e.key, e.tokenizer) for e in items}
    st.subheader(t("tokenizer.cost.head"))
    show(view.cost_chart(costs))
    each = "; ".join(t("tokenizer.cost.each", name=name, pct=fmt_pct(abs(c.extra), 0),
                       more=t("tokenizer.cost.more" if c.extra >= 0 else "tokenizer.cost.fewer"))
                     for name, c in costs.items())
    st.caption(t("tokenizer.cost.caption", n=len(view.PARALLEL), each=each))
    downloads(view.cost_frame(costs), "tokens-pt-en", key="tok_dl_cost")
    with st.expander(t("tokenizer.cost.sentences")):
        data_table(pd.DataFrame(view.PARALLEL, columns=[t("tokenizer.cost.pt"), t("tokenizer.cost.en")]),
                     hide_index=True)


def embedding(shown, pick_key, tokenizer) -> None:
    labels = {p.position: f"#{p.position} · {p.label} · ID {p.info.id}" for p in shown[:view.MAX_CHIPS]}
    st.subheader(t("tokenizer.onehot.head"))
    pos = st.selectbox(t("tokenizer.onehot.pick"), list(labels), key=pick_key, format_func=labels.get)
    st.session_state["tok_pos"] = pos
    token_id = next(p.info.id for p in shown if p.position == pos)
    look = view.lookup(token_id)
    vocab, dim = look.vocab_size, len(look.row)
    st.markdown(t("tokenizer.onehot.text", v=fmt_int(vocab), zeros=fmt_int(vocab - 1), id=fmt_int(token_id)))
    _show(view.one_hot_chart(token_id, vocab, tokenizer), t("tokenizer.onehot.caption", id=fmt_int(token_id)))
    st.subheader(t("tokenizer.embed.head"))
    st.latex(rf"\underbrace{{x}}_{{1\times {vocab}}}\;\underbrace{{E}}_{{{vocab}\times {dim}}} = E_{{{token_id},:}}")
    bits = weights_view.embedding_bits()
    st.markdown(t("tokenizer.embed.text", v=fmt_int(vocab), d=fmt_int(dim), n=fmt_int(vocab * dim),
                  stored=t("tokenizer.embed.stored", bits=bits) if bits else ""))
    if look.exact:
        st.success(t("tokenizer.embed.exact", id=fmt_int(token_id)), icon=":material/check_circle:")
    else:
        st.warning(t("tokenizer.embed.inexact", diff=f"{abs(look.row - look.product).max():.3g}"))
    _show(view.strip_chart(look.row), t("tokenizer.embed.caption", d=fmt_int(dim), id=fmt_int(token_id),
                                         scale=fmt_float(look.embed_scale, 2), k=FIRST_VALUES))
    model_text("[" + ", ".join(f"{v:+.4f}" for v in look.row[:FIRST_VALUES]) + ", …]")
    downloads(pd.DataFrame({"id": token_id, "dim": range(dim), "value": look.row.astype(float)}),
              f"embedding-row-{token_id}", key="tok_dl_row")


def neighbours_panel() -> None:  # not a fragment: a new word reruns the page, so the link box follows it
    st.subheader(t("tokenizer.nb.head"))
    st.markdown(t("tokenizer.nb.text"))
    with st.container(horizontal=True):
        for word in ("gato", "Paris", "rei"):
            st.button(word, key=f"tok_nb_{word}", on_click=st.session_state.__setitem__, args=("tok_word", word))
    word = st.text_input(t("tokenizer.nb.word"), key="tok_word", max_chars=100, live="400ms")
    space = st.checkbox(t("tokenizer.nb.space"), key="tok_space")
    k = st.slider(t("tokenizer.nb.k"), 5, 25, key="tok_k")
    if not word.strip():
        st.warning(t("tokenizer.nb.empty"))
        return
    query = " " + word.strip() if space else word
    tokenizer = view.entries()[0].tokenizer
    with st.spinner(t("tokenizer.nb.searching", v=fmt_int(len(tokenizer)))):  # the first search also
        found = view.neighbours(query, k)  # measures the norm of every row once (~1-2 s here)
    own = [token_info(tokenizer, i) for i in found.ids]
    st.caption(t("tokenizer.nb.tokens", n=len(own)) + (" " + t("tokenizer.nb.mean") if len(own) > 1 else ""))
    model_text(" │ ".join(f"{i.display} (ID {i.id})" for i in own))
    infos = [token_info(tokenizer, n.id) for n in found.neighbours]
    names = [i.display for i in infos]
    names = [f"{s} ({i.id})" if names.count(s) > 1 else s for s, i in zip(names, infos)]
    df = pd.DataFrame({"token": names, "id": [n.id for n in found.neighbours],
                       "cosine": [n.cosine for n in found.neighbours]})
    _show(view.neighbours_chart(df), t("tokenizer.nb.caption", v=fmt_int(len(tokenizer)), ms=fmt_float(found.ms, 0)))
    downloads(df.assign(query=query)[["query", "token", "id", "cosine"]], "neighbours", key="tok_dl_nb")


def map_panel() -> None:  # not a fragment either, for the same reason
    st.subheader(t("tokenizer.map.head"))
    st.markdown(t("tokenizer.map.text"))
    raw = st.text_area(t("tokenizer.map.words"), key="tok_words", height=90)
    words = parse_words(raw)
    if len(words) < 3:
        st.warning(t("tokenizer.map.few"))
        return
    if len(parse_words(raw, limit=10_000)) > len(words):
        st.info(t("tokenizer.map.capped", n=fmt_int(len(words))))
    proj, counts = view.projection(words)
    df = pd.DataFrame({"word": words, "x": proj.coords[:, 0], "y": proj.coords[:, 1], "tokens": counts})
    _show(view.map_chart(df), t("tokenizer.map.caption", a=fmt_pct(proj.explained[0], 0), b=fmt_pct(proj.explained[1], 0)))
    downloads(df.astype({"x": float, "y": float}).rename(columns={"x": "pc1", "y": "pc2"}), "word-map",
              key="tok_dl_map")


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
    neighbours_panel()
    st.divider()
    map_panel()
    next_page_link("tokenizer")


render()
