"""Attention: who looks at whom, in every layer and head of the real model, and what context does to a word."""
import numpy as np
import streamlit as st

from model_backend import attention as att
from model_backend.validation import InvalidInput, check_prompt
from ui import attention_view as view
from ui import backend
from ui.i18n import fmt_float, fmt_int, t
from ui.nav import next_page_link
from ui.widgets import intro, model_text, prompt_box, show_error, truncation_notice

LAYER, HEAD, QUERY, GEN_QUERY = "attention_layer", "attention_head", "attention_query", "attention_gen_query"
BANCO = {"a": "attention_banco_a", "b": "attention_banco_b", "word": "attention_banco_word"}  # field -> state key


def _pick_query(chart_key: str, state_key: str):
    def callback():  # a click on a heatmap cell picks that row's token
        pick = view.picked(st.session_state.get(chart_key), "row_pick", ("q",))
        if pick is not None:
            st.session_state[state_key] = pick[0]
    return callback


def token_panel(tr, pat, labels, state_key: str, generated_from: int | None = None) -> None:
    positions = list(range(generated_from or 0, len(tr.tokens)))
    seen = tuple(tok.id for tok in tr.tokens)
    if st.session_state.get(state_key) not in positions or st.session_state.get(f"{state_key}_for") != seen:
        st.session_state[state_key] = positions[-1]  # a new text starts at its newest token
        st.session_state[f"{state_key}_for"] = seen
    names = dict(enumerate(labels))
    q = st.selectbox(t("attention.pick.token"), positions, key=state_key, format_func=names.get)
    left, right = st.columns([3, 2])
    with left:
        st.altair_chart(view.bars(tr, pat, q, generated_from), width="stretch")
        st.caption(t("attention.bars.caption", n=view.BARS_LIMIT))
    with right:
        st.markdown(t("attention.strongest.title"))
        st.dataframe(view.strongest_table(tr, q), hide_index=True, width="stretch")
        st.caption(t("attention.strongest.caption", n=tr.info.n_layers * tr.info.n_heads))


@st.fragment
def generated_panel(prompt: str, layer: int, head: int) -> None:
    st.subheader(t("attention.gen.title"))
    n = st.slider(t("attention.gen.n"), 1, 16, 6, key="attention_gen_n")
    if st.button(t("attention.gen.button"), icon=":material/play_arrow:", key="attention_gen_go"):
        st.session_state["attention_gen_for"] = prompt
    if st.session_state.get("attention_gen_for") != prompt:
        st.caption(t("attention.gen.hint"))
        return
    bar = st.progress(0.05, text=t("attention.gen.running", n=n))
    tr, first, gen = view.generated_trace(prompt, n, lambda f, key: bar.progress(f, text=t(key, n=n)))
    bar.empty()
    model_text(gen.completion)
    labels = view.token_labels(tr.tokens, first)
    pat = att.pattern(tr.attentions, view.axis_value(layer), view.axis_value(head))
    cut = att.crop(pat, att.layer_allowed(tr.info, view.axis_value(layer), len(tr.tokens)),
                   att.window(len(tr.tokens), view.HEATMAP_LIMIT))
    st.markdown(f"**{view.view_title(tr.info, layer, head)}**")
    boundary = labels[first] if first < len(labels) else None
    view.show_heatmap(cut, tr.tokens, labels, "attention_gen_map", _pick_query("attention_gen_map", GEN_QUERY),
                      boundary)
    st.caption(t("attention.gen.caption", n=fmt_int(len(tr.tokens) - first)) + " " + view.row_sum_note(cut, tr.info.dtype))
    if first < len(tr.tokens):
        token_panel(tr, pat, labels, GEN_QUERY, generated_from=first)


def _banco_preset(which: str) -> None:
    for field, key in BANCO.items():
        st.session_state[key] = t(f"attention.banco.{which}.{field}")


@st.fragment
def banco_panel() -> None:
    st.subheader(t("attention.banco.title"))
    st.markdown(t("attention.banco.intro"))
    for field, key in BANCO.items():
        st.session_state.setdefault(key, t(f"attention.banco.seed.{field}"))
    c1, c2 = st.columns(2)
    c1.button(t("attention.banco.seed"), on_click=_banco_preset, args=("seed",), width="stretch", key="attention_seed")
    c2.button(t("attention.banco.before"), on_click=_banco_preset, args=("before",), width="stretch",
              key="attention_before")
    sentences = [st.text_input(t("attention.banco.sentence", n=i + 1), key=BANCO[f], max_chars=400)
                 for i, f in enumerate("ab")]
    word = st.text_input(t("attention.banco.word"), key=BANCO["word"], max_chars=40).strip()
    try:
        traces = [backend.trace(check_prompt(s)) for s in sentences]
    except InvalidInput as exc:
        show_error(exc)
        return
    spans = [att.find_word(tr.tokens, word) for tr in traces]
    missing = [i + 1 for i, span in enumerate(spans) if span is None]
    if missing:
        st.warning(t("attention.banco.missing", n=", ".join(map(str, missing))), icon=":material/search_off:")
        return
    sim = att.word_similarity(traces[0], spans[0], traces[1], spans[1])
    st.table(view.word_table(list(zip(traces, spans))), hide_index=True)
    show_raw = st.toggle(t("attention.banco.raw"), key="attention_banco_raw")
    st.altair_chart(view.similarity_chart(sim, show_raw), width="stretch")
    if all(np.isfinite(sim.centred)):
        st.caption(t("attention.banco.caption", first=fmt_float(sim.centred[0], 3),
                     emb=fmt_float(sim.embedding_centred, 3), last=fmt_float(sim.centred[-1], 3),
                     lowest=fmt_float(min(sim.centred), 3)))
    else:  # e.g. both sentences are the word alone: each vector *is* the mean, nothing is left to compare
        st.warning(t("attention.banco.undefined"), icon=":material/info:")
    st.info(t("attention.banco.causal"), icon=":material/arrow_forward:")


def render() -> None:
    intro("attention")
    prompt = prompt_box("attention")
    if prompt is None:
        return
    with st.spinner(t("attention.reading")):
        tr = backend.trace(prompt)  # one cached forward pass; every picker below only slices it
    truncation_notice(tr.truncated_from, len(tr.tokens))
    info, n = tr.info, len(tr.tokens)
    layers, heads = view.layer_options(info), view.head_options(info)
    if st.session_state.get(LAYER) not in layers:  # first visit, or another model with fewer layers
        st.session_state[LAYER] = min(2, info.n_layers - 1)  # layer 2, head 3 mostly looks one token back
    if st.session_state.get(HEAD) not in heads:
        st.session_state[HEAD] = min(3, info.n_heads - 1)

    st.subheader(t("attention.big.title"))
    c1, c2 = st.columns([2, 3])
    layer = c1.selectbox(t("attention.pick.layer"), list(layers), key=LAYER, format_func=layers.get,
                         help=t("attention.pick.layer.help"))
    head = c2.radio(t("attention.pick.head"), list(heads), key=HEAD, format_func=heads.get, horizontal=True,
                    help=t("attention.pick.head.help", n=info.n_heads))
    pat = att.pattern(tr.attentions, view.axis_value(layer), view.axis_value(head))  # [T, T], cheap: no model run
    cut = att.crop(pat, att.layer_allowed(info, view.axis_value(layer), n), att.window(n, view.HEATMAP_LIMIT))
    labels = view.token_labels(tr.tokens)
    st.markdown(f"**{view.view_title(info, layer, head)}**")
    view.show_heatmap(cut, tr.tokens, labels, "attention_map", _pick_query("attention_map", QUERY))
    st.caption(t("attention.heatmap.caption") + " " + view.row_sum_note(cut, info.dtype))
    if cut.window.capped:
        st.info(t("attention.capped", n=fmt_int(n), rows=len(cut.window.queries), hidden=fmt_int(cut.window.n_hidden)),
                icon=":material/content_cut:")

    st.subheader(t("attention.token.title"))
    token_panel(tr, pat, labels, QUERY)

    st.subheader(t("attention.grid.title"))

    def open_from_grid():
        pick = view.grid_to_view(st.session_state.get("attention_grid"), info.n_layers, info.n_heads)
        if pick is not None:
            st.session_state[LAYER], st.session_state[HEAD] = pick

    st.altair_chart(view.grid(tr, (layer, head)), width="stretch", key="attention_grid", on_select=open_from_grid,
                    selection_mode="grid_pick")
    st.caption(t("attention.grid.caption", n=view.GRID_LIMIT, heads=info.n_layers * info.n_heads))

    generated_panel(prompt, layer, head)
    st.subheader(t("attention.mech.title"))
    view.mechanics_panel(info, n)
    banco_panel()
    next_page_link("attention")


render()
