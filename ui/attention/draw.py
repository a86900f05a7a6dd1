"""The attention page's drawing: the big heatmap, one token, the grid of heads, generated text, Q/K/V sizes,
"banco", what each head does (measured), with their downloads and the settings a link carries. It takes what
ui.attention.compute returned and never reaches the model; a panel that computes on a click has an "ask" half
(its controls: what to compute, or None before the click) and a "result" half."""
from __future__ import annotations

from contextlib import contextmanager

import numpy as np
import pandas as pd
import streamlit as st

import model_backend as mb
from model_backend.lessons import attention as att
from ui import a11y, heads_view
from ui import attention_charts as fig
from ui.attention.compute import Banco
from ui.attention_charts import AVG, axis_value, token_labels, view_title
from ui.charts import show
from ui.export import downloads, files_shown
from ui.i18n import fmt_float, fmt_int, fmt_pct, t
from ui.numbering import FIRST, head_no, layer_no, numbers
from ui.share import Param, share_box
from ui.widgets import data_table, model_text

LAYER, HEAD, QUERY, GEN_QUERY = "attention_layer", "attention_head", "attention_query", "attention_gen_query"
GRID, COLS = "attention_grid_group", "attention_cols"
HABITS_FOR = "attention_habits_for"  # the (model, dtype, ids) whose head habits the visitor asked for
BANCO = {"a": "attention_banco_a", "b": "attention_banco_b", "word": "attention_banco_word"}  # field -> state key
BANCO_CHARS = {"a": 400, "b": 400, "word": 40}  # the text boxes' max_chars
DEFAULT_LAYER, DEFAULT_HEAD = 2, 3  # indices: layer 3, head 4 on screen, which mostly looks one token back


# ---------------------------------------------------------------- links that carry this view


def link_params(info: mb.ModelInfo, max_tokens: int, old_link: bool = False) -> list[Param]:
    """What a link to this page carries: the prompt, layer, head (-1 = average), the picked token (-1 = the
    last, at most `max_tokens` - 1), the heatmap's size, the grid's layer group and the three "banco" boxes.

    Layers, heads and the grid's first layer travel numbered from 1, as the page shows them (ui.numbering),
    with `base=1` in the link. Links made before that (no `base`) counted from 0: old_link=True reads them so.
    """
    shift = 0 if old_link else FIRST
    groups = tuple(layer_no(g) if not old_link else g for g in fig.grid_groups(info.n_layers))
    return [Param("prompt", "prompt_attention", str, t("common.default_prompt")),
            Param("layer", LAYER, int, min(DEFAULT_LAYER, info.n_layers - 1), low=AVG, high=info.n_layers - 1 + shift,
                  offset=shift),
            Param("head", HEAD, int, min(DEFAULT_HEAD, info.n_heads - 1), low=AVG, high=info.n_heads - 1 + shift,
                  offset=shift),
            Param("token", QUERY, int, -1, low=-1, high=max_tokens - 1),
            Param("cols", COLS, int, fig.HEATMAP_LIMIT, choices=fig.HEATMAP_SIZES),
            Param("grid", GRID, int, AVG, choices=groups, offset=shift),
            *[Param(field, key, str, t(f"attention.banco.seed.{field}")) for field, key in BANCO.items()],
            Param("base", "attention_link_base", int, FIRST, choices=(FIRST,))]


def is_old_link() -> bool:
    """A link from before layers were numbered from 1: it names a layer, head or group but has no `base`."""
    query = st.query_params
    return "base" not in query and any(k in query for k in ("layer", "head", "grid"))


def check_link(page: str) -> None:
    """After restore(): "banco" texts longer than their boxes allow fall back too (a box cannot hold them)."""
    for field, key in BANCO.items():
        value = st.session_state.get(key)
        if isinstance(value, str) and len(value) > BANCO_CHARS[field]:
            st.session_state[key] = t(f"attention.banco.seed.{field}")
            st.session_state.setdefault(f"_rejected_{page}", []).append(field)


# ---------------------------------------------------------------- selections (pure: unit-tested)


def picked(event, param: str, fields: tuple[str, ...]) -> tuple[int, ...] | None:
    """The values of `fields` in a chart's point selection, or None when nothing is selected.

    `event` is what st.altair_chart(on_select=...) stores in session_state under its key:
    {"selection": {param: [{field: value, ...}, ...]}}.
    """
    try:
        points = event["selection"][param]
    except (KeyError, TypeError):
        return None
    if not points:
        return None
    try:
        return tuple(int(points[0][f]) for f in fields)
    except (KeyError, TypeError, ValueError):
        return None


def grid_to_view(event, n_layers: int, n_heads: int) -> tuple[int, int] | None:
    """A click on the grid -> (layer, head), AVG (-1) standing for an average; None if off the grid."""
    pick = picked(event, "grid_pick", ("layer", "head"))
    if pick is None:
        return None
    layer, head = pick
    if not (layer == AVG or 0 <= layer < n_layers) or not (head == AVG or 0 <= head < n_heads):
        return None
    return layer, head


def _pick_query(chart_key: str, state_key: str):
    def callback():  # a click on a heatmap cell picks that row's token
        pick = picked(st.session_state.get(chart_key), "row_pick", ("q",))
        if pick is not None:
            st.session_state[state_key] = pick[0]
    return callback


# ---------------------------------------------------------------- pickers


def layer_options(info: mb.ModelInfo) -> dict[int, str]:
    """Layer picker labels, each saying whether the layer slides a window or sees everything."""
    out = {}
    for layer, kind in enumerate(info.layer_types):
        key = "attention.layer.full" if kind == "full_attention" else "attention.layer.sliding"
        out[layer] = t(key, n=layer_no(layer), window=fmt_int(info.sliding_window or 0))
    out[AVG] = t("attention.layer.avg", n=info.n_layers)
    return out


def head_options(info: mb.ModelInfo) -> dict[int, str]:
    out = {h: t("attention.head.one", n=head_no(h)) for h in range(info.n_heads)}
    out[AVG] = t("attention.head.avg", n=info.n_heads)
    return out


def pickers(info: mb.ModelInfo) -> tuple[int, int]:
    """The layer and head pickers (valid for this model even after a switch to one with fewer layers)."""
    layers, heads = layer_options(info), head_options(info)
    if st.session_state.get(LAYER) not in layers:
        st.session_state[LAYER] = min(DEFAULT_LAYER, info.n_layers - 1)
    if st.session_state.get(HEAD) not in heads:
        st.session_state[HEAD] = min(DEFAULT_HEAD, info.n_heads - 1)
    c1, c2 = st.columns([2, 3])
    layer = c1.selectbox(t("attention.pick.layer"), list(layers), key=LAYER, format_func=layers.get,
                         help=t("attention.pick.layer.help"))
    head = c2.radio(t("attention.pick.head"), list(heads), key=HEAD, format_func=heads.get, horizontal=True,
                    help=t("attention.pick.head.help", n=info.n_heads, share=t(
                        f"attention.share.{kv_kind(info.n_heads, info.n_kv_heads)}",
                        group=info.n_heads // max(info.n_kv_heads, 1))))
    return layer, head


def scale_reason(head_dim: int) -> str:
    """Why the scores are divided by √d_k (review A, A3), with this model's d_k: a dot product of two
    d_k-dimensional vectors of unit-variance entries has a spread of √d_k, which saturates the softmax."""
    root = head_dim ** 0.5
    return t("attention.scale.why", dk=fmt_int(head_dim),
             sqrt=fmt_int(root) if root.is_integer() else fmt_float(root, 1))


def kv_kind(n_heads: int, n_kv_heads: int) -> str:
    """How the heads share keys and values: "mqa" (one key/value head for all: multi-query attention, the extreme
    case of grouped-query attention), "gqa" (groups share one), or "mha" (every head has its own)."""
    if n_kv_heads == 1 and n_heads > 1:
        return "mqa"
    return "gqa" if n_kv_heads < n_heads else "mha"


# ---------------------------------------------------------------- the big heatmap


def show_heatmap(cut: att.Cropped, tokens, labels, key: str, on_pick, boundary: str | None = None) -> None:
    show(fig.heatmap(cut, tokens, labels, boundary), key=key, on_select=on_pick, selection_mode="row_pick",
         summary=fig.heatmap_summary(cut, labels))


def row_sum_note(cut: att.Cropped, dtype: str) -> str:
    """'Every row sums to 1 (largest deviation 0.0029 ...)', measured on what is drawn."""
    dev = float(np.abs(cut.weights.sum(axis=1) - 1).max())
    return t("attention.rowsum", dev=fmt_float(dev, 6 if dev < 1e-4 else 4), dtype=dtype)


def file_part(layer: int, head: int) -> str:
    """'L3-H4' (numbered as on screen, from 1), 'Lavg-H4', ... for file names."""
    def part(v):
        return "avg" if v == AVG else str(layer_no(v))
    return f"L{part(layer)}-H{part(head)}"


def data_downloads(info: mb.ModelInfo, tokens, cut: att.Cropped, layer: int, head: int, name: str,
                   generated_from: int | None = None) -> None:
    """The tokens and the drawn attention cells, as CSV and JSON, in a closed expander (none on a phone that follows
    the teacher: ui.export.files_shown)."""
    if not files_shown():
        return
    with st.expander(t("attention.dl.title"), icon=":material/download:"):
        st.caption(t("attention.dl.tokens", n=fmt_int(len(tokens))))
        downloads(lambda: fig.tokens_frame(tokens, generated_from), f"{name}-tokens", key=f"{name}_dl_tokens")
        st.caption(t("attention.dl.matrix", what=view_title(info, layer, head), n=fmt_int(cut.weights.size)))
        hidden = fig.hidden_label(cut)  # in the visitor's language, now: the table is built on a click
        downloads(lambda: fig.cells_frame(cut, tokens, layer, head, hidden=hidden), f"{name}-{file_part(layer, head)}",
                  key=f"{name}_dl_cells")


def heatmap_columns(n: int) -> int:
    """For a long text, let the visitor pick how many columns the heatmap draws (fewer: readable on a phone)."""
    if st.session_state.get(COLS) not in fig.HEATMAP_SIZES:
        st.session_state[COLS] = fig.HEATMAP_LIMIT
    if n <= min(fig.HEATMAP_SIZES):
        return fig.HEATMAP_LIMIT  # every column fits: nothing to pick
    names = {k: t("attention.cols.n", n=k - 2) for k in fig.HEATMAP_SIZES}
    return st.segmented_control(t("attention.cols"), fig.HEATMAP_SIZES, key=COLS, format_func=names.get,
                                required=True, help=t("attention.cols.help"))


def heatmap_panel(tr: mb.Trace, pat: np.ndarray, layer: int, head: int, labels: list[str]) -> None:
    info, n = tr.info, len(tr.tokens)
    limit = heatmap_columns(n)
    cut = att.crop(pat, att.layer_allowed(info, axis_value(layer), n), att.window(n, limit))
    st.markdown(f"**{view_title(info, layer, head)}**")
    show_heatmap(cut, tr.tokens, labels, "attention_map", _pick_query("attention_map", QUERY))
    st.caption(t("attention.heatmap.caption") + " " + row_sum_note(cut, info.dtype))
    if cut.window.capped:
        st.info(t("attention.capped", n=fmt_int(n), rows=len(cut.window.queries), hidden=fmt_int(cut.window.n_hidden)),
                icon=":material/content_cut:")
    data_downloads(info, tr.tokens, cut, layer, head, "attention")


# ---------------------------------------------------------------- one token: bars and strongest heads


def strongest_table(tr: mb.Trace, query: int) -> pd.DataFrame:
    """The heads where this token focuses most on one earlier token (<bos> left out)."""
    skip = (0,) if tr.tokens and tr.tokens[0].special else ()
    picks = att.strongest_heads(tr.attentions, query, n=5, skip=skip)
    return pd.DataFrame({
        t("attention.col.layer"): [layer_no(p.layer) for p in picks],
        t("attention.col.head"): [head_no(p.head) for p in picks],
        t("attention.col.looks_at"): [f"{p.key}: {tr.tokens[p.key].display}" for p in picks],
        t("attention.legend.weight"): [fmt_pct(p.weight) for p in picks],
    })


def token_panel(tr, pat, labels, state_key: str, generated_from: int | None = None) -> None:
    positions = list(range(generated_from or 0, len(tr.tokens)))
    seen = tuple(tok.id for tok in tr.tokens)
    stamp, value = st.session_state.get(f"{state_key}_for"), st.session_state.get(state_key)
    if value not in positions or (stamp is not None and stamp != seen):  # a new text starts at its newest token
        if stamp is None and isinstance(value, int) and value != -1:  # a link named a token this text lacks
            st.info(t("share.rejected", names="token"), icon=":material/link_off:")
        st.session_state[state_key] = positions[-1]
    st.session_state[f"{state_key}_for"] = seen
    names = dict(enumerate(labels))
    q = st.selectbox(t("attention.pick.token"), positions, key=state_key, format_func=names.get)
    left, right = st.columns([3, 2])
    with left:
        show(fig.bars(tr, pat, q, generated_from))
        st.caption(t("attention.bars.caption", n=fig.BARS_LIMIT))
    with right:
        st.markdown(t("attention.strongest.title"))
        data_table(strongest_table(tr, q), hide_index=True, width="stretch")
        st.caption(t("attention.strongest.caption", n=tr.info.n_layers * tr.info.n_heads))


# ---------------------------------------------------------------- the grid of small multiples


def grid_panel(tr: mb.Trace, layer: int, head: int) -> None:
    info = tr.info
    groups = fig.grid_groups(info.n_layers)
    names = {g: t("attention.grid.all") if g == AVG else
             t("attention.grid.group", a=layer_no(g), b=min(g + fig.GRID_GROUP, info.n_layers)) for g in groups}
    if st.session_state.get(GRID) not in groups:
        st.session_state[GRID] = AVG
    group = st.segmented_control(t("attention.grid.pick"), groups, key=GRID, format_func=names.get, required=True,
                                 help=t("attention.grid.pick.help"))

    def open_from_grid():
        pick = grid_to_view(st.session_state.get("attention_grid"), info.n_layers, info.n_heads)
        if pick is not None:
            st.session_state[LAYER], st.session_state[HEAD] = pick

    drawn = fig.grid_columns(info.n_layers, group)
    what = view_title(info, layer, head)  # the frame is drawn when the open view's layer is a drawn column
    marked = t("attention.a11y.grid.marked" if layer in drawn else "attention.a11y.grid.unmarked", what=what)
    summary = t("attention.a11y.grid", cols=len(drawn), rows=info.n_heads + 1,
                avg=t("attention.a11y.grid.avg") if AVG in drawn else "", marked=marked)
    show(fig.grid(tr, (layer, head), group), key="attention_grid", on_select=open_from_grid, selection_mode="grid_pick",
         summary=summary)
    heads = info.n_layers * info.n_heads
    if group == AVG:
        st.caption(t("attention.grid.caption", n=fig.GRID_LIMIT, tail=fig.GRID_LIMIT - 2, heads=heads))
    else:
        columns = fig.grid_columns(info.n_layers, group)
        st.caption(t("attention.grid.caption.group", a=layer_no(columns[0]), b=layer_no(columns[-1]), n=fig.GRID_LIMIT,
                              tail=fig.GRID_LIMIT - 2, heads=heads))


# ---------------------------------------------------------------- what each head does, measured


def habits_ask(tr: mb.Trace) -> bool:
    """The title, and a button until the visitor asks for this text's head habits: True once asked (the button
    goes once clicked; no model run follows: the trace above already holds every weight)."""
    st.subheader(t("heads.title"))
    ids = tuple(tok.id for tok in tr.tokens)
    st.markdown(t("heads.text", n=tr.info.n_layers * tr.info.n_heads, t=len(ids)))
    key = (tr.info.name, tr.info.dtype, ids)
    if st.session_state.get(HABITS_FOR) == key:
        return True
    st.caption(t("heads.hint"))
    st.button(t("heads.run"), icon=":material/play_arrow:", key="attention_habits_go",
              on_click=lambda: st.session_state.__setitem__(HABITS_FOR, key))
    return False


def habits_result(habits: att.HeadHabits, n_tokens: int) -> None:
    heads_view.panel(habits, n_tokens, "attention")


# ---------------------------------------------------------------- attention over generated text


def generated_ask(prompt: str) -> int | None:
    """How many tokens to generate after the visitor's text, once the button was pressed for this text."""
    st.subheader(t("attention.gen.title"))
    n = st.slider(t("attention.gen.n"), 1, 16, 6, key="attention_gen_n")
    if st.button(t("attention.gen.button"), icon=":material/play_arrow:", key="attention_gen_go"):
        st.session_state["attention_gen_for"] = prompt
    if st.session_state.get("attention_gen_for") != prompt:
        st.caption(t("attention.gen.hint"))
        return None
    return n


@contextmanager
def generating(n: int):
    """A progress bar while n tokens are generated and read: yields the `progress(fraction, key)` to give compute."""
    bar = st.progress(0.05, text=t("attention.gen.running", n=n))
    try:
        yield lambda fraction, key: bar.progress(fraction, text=t(key, n=n))
    finally:
        bar.empty()


def generated_result(prompt: str, n: int, tr: mb.Trace, first: int, gen: mb.Generation, layer: int,
                     head: int) -> None:
    a11y.announce_once(("attention", prompt, n), t("a11y.live.generated", n=len(tr.tokens) - first))
    model_text(gen.completion)
    labels = token_labels(tr.tokens, first)
    pat = att.pattern(tr.attentions, axis_value(layer), axis_value(head))
    cut = att.crop(pat, att.layer_allowed(tr.info, axis_value(layer), len(tr.tokens)),
                   att.window(len(tr.tokens), st.session_state.get(COLS, fig.HEATMAP_LIMIT)))
    st.markdown(f"**{view_title(tr.info, layer, head)}**")
    boundary = labels[first] if first < len(labels) else None
    show_heatmap(cut, tr.tokens, labels, "attention_gen_map", _pick_query("attention_gen_map", GEN_QUERY), boundary)
    st.caption(t("attention.gen.caption", n=fmt_int(len(tr.tokens) - first)) + " " + row_sum_note(cut, tr.info.dtype))
    data_downloads(tr.info, tr.tokens, cut, layer, head, "attention-generated", generated_from=first)
    if first < len(tr.tokens):
        token_panel(tr, pat, labels, GEN_QUERY, generated_from=first)


# ---------------------------------------------------------------- Q, K, V with the real sizes


def mechanics_panel(info: mb.ModelInfo, m: att.Mechanics, n_tokens: int, max_tokens: int) -> None:
    basis, scale = m.scale_basis, fmt_float(m.scale, 4).replace(",", "{,}")  # a decimal comma, in LaTeX
    # two lines: on one, a phone's screen cut the formula's last V
    st.latex(r"\begin{aligned}\mathrm{Attention}(Q,K,V)&=\\&\mathrm{softmax}\!\left(\frac{QK^{\top}}{\sqrt{" + str(basis)
             + r"}}\right)V\end{aligned}")
    st.latex(r"\frac{1}{\sqrt{" + str(basis) + "}} = " + scale)
    shapes = m.shapes()
    meaning = {name: t(f"attention.shape.{i}") for i, name in enumerate(shapes)}
    st.table(pd.DataFrame({t("attention.col.tensor"): list(shapes),
                           t("attention.col.shape"): [" × ".join(fmt_int(d) for d in s) for s in shapes.values()],
                           t("attention.col.meaning"): [meaning[n] for n in shapes]}), hide_index=True)
    st.caption(t("attention.shapes.caption", t=fmt_int(n_tokens)))
    source = t("attention.scale.gemma" if m.scale_from == "query_pre_attn_scalar" else "attention.scale.plain",
               basis=m.scale_basis, dk=m.head_dim, scale=fmt_float(m.scale, 4))
    st.markdown(source + " " + scale_reason(m.head_dim) + (" " + t("attention.qknorm") if m.qk_norm else ""))
    st.markdown(t("attention.gqa", kind=t(f"attention.kind.{kv_kind(m.n_heads, m.n_kv_heads)}"), heads=m.n_heads, kv=m.n_kv_heads, group=m.group, per=fmt_int(m.kv_values_per_token()),
                  full=fmt_int(2 * m.n_heads * m.head_dim), ratio=m.group))
    st.markdown(sliding_text(info, max_tokens))


def sliding_text(info: mb.ModelInfo, limit: int) -> str:
    """The sliding-window paragraph (review A, A5): whether the window can cut inside a prompt follows from the
    page's prompt limit and the model's window (a query at position q sees keys k > q - window)."""
    full = [i for i, k in enumerate(info.layer_types) if k == "full_attention"]
    window = info.sliding_window or 0
    args = dict(full=numbers(full), n_full=len(full), n_sliding=info.n_layers - len(full), window=fmt_int(window),
                limit=fmt_int(limit), after=fmt_int(window + 1))
    if not window or len(full) == info.n_layers:  # no sliding-window layer: nothing is cut
        return t("attention.sliding", **args)
    return t("attention.sliding", **args) + " " + t(
        "attention.sliding.inside" if limit <= window else "attention.sliding.beyond", **args)


# ---------------------------------------------------------------- "banco": one word, two contexts


def word_table(word_spans: list[tuple[mb.Trace, att.WordSpan]]) -> pd.DataFrame:
    """Which tokens the word is made of in each sentence, and the text the model has read at its last token."""
    return pd.DataFrame({
        t("attention.banco.col.sentence"): [str(i + 1) for i in range(len(word_spans))],
        t("attention.banco.col.tokens"): [" | ".join(span.pieces) for _, span in word_spans],
        t("attention.banco.col.position"): [str(span.last) for _, span in word_spans],
        t("attention.banco.col.sees"): ["".join(tok.text for tok in tr.tokens[: span.last + 1] if not tok.special)
                                         for tr, span in word_spans],
    })


def _banco_preset(which: str) -> None:
    for field, key in BANCO.items():
        st.session_state[key] = t(f"attention.banco.{which}.{field}")


def banco_ask() -> tuple[list[str], str]:
    """The two sentences and the word, as typed (with the two preset buttons)."""
    st.subheader(t("attention.banco.title"))
    st.markdown(t("attention.banco.intro"))
    for field, key in BANCO.items():
        st.session_state.setdefault(key, t(f"attention.banco.seed.{field}"))
    c1, c2 = st.columns(2)
    c1.button(t("attention.banco.seed"), on_click=_banco_preset, args=("seed",), width="stretch", key="attention_seed")
    c2.button(t("attention.banco.before"), on_click=_banco_preset, args=("before",), width="stretch",
              key="attention_before")
    sentences = [st.text_input(t("attention.banco.sentence", n=i + 1), key=BANCO[f], max_chars=BANCO_CHARS[f])
                 for i, f in enumerate("ab")]
    word = st.text_input(t("attention.banco.word"), key=BANCO["word"], max_chars=BANCO_CHARS["word"]).strip()
    return sentences, word


def banco_result(banco: Banco) -> None:
    if banco.similarity is None:
        st.warning(t("attention.banco.missing", n=", ".join(map(str, banco.missing))), icon=":material/search_off:")
        return
    sim = banco.similarity
    data_table(word_table(list(zip(banco.traces, banco.spans))), hide_index=True)  # their sentences: never Markdown
    show_raw = st.toggle(t("attention.banco.raw"), key="attention_banco_raw")
    show(fig.similarity_chart(sim, show_raw))
    if all(np.isfinite(sim.centred)):
        lowest, last = fmt_float(min(sim.centred), 3), fmt_float(sim.centred[-1], 3)
        path = (t("attention.banco.drops", lowest=lowest, last=last) if min(sim.centred) < sim.centred[0]
                else t("attention.banco.stays", last=last))
        st.caption(t("attention.banco.caption", first=fmt_float(sim.centred[0], 3),
                     emb=fmt_float(sim.embedding_centred, 3), path=path))
    else:  # e.g. both sentences are the word alone: each vector *is* the mean, nothing is left to compare
        st.warning(t("attention.banco.undefined"), icon=":material/info:")
    if files_shown():
        with st.expander(t("attention.dl.title"), icon=":material/download:"):
            st.caption(t("attention.dl.banco"))
            downloads(fig.similarity_frame(sim), "attention-banco-similarity", key="attention_dl_banco")
    st.info(t("attention.banco.causal"), icon=":material/arrow_forward:")


def share(params: list[Param]) -> None:
    share_box("attention", params)
