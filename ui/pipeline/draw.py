"""The pipeline page's drawing: the overview, one panel per stage with the real model's numbers for the prompt, the
logit lens and the model card, with their downloads and the settings a link carries. It takes what
ui.pipeline.compute returned and never reaches the model; a panel with a control of its own has the control in one
function (what to compute) and the panel in another."""
from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

import model_backend as mb
from model_backend.core.mlp import MlpView
from model_backend.core.tokens import visible
from model_backend.lessons.pipeline import OutputLayer, SoftmaxView, residual_norms, visible_keys
from ui.charts import MASKED, OKABE_ITO, PRIMARY, SEQUENTIAL, cached_chart, projection_on, show, wrapped_labels
from ui.export import downloads
from ui.i18n import fmt_float, fmt_floats, fmt_int, fmt_pct, fmt_pcts, t
from ui.numbering import head_no, layer_index, layer_no
from ui.published import GPT2_LAYERS, GPT2_PARAMS, GPT2_SEED_PARAMS, GPT3
from ui.share import Param
from ui.untrusted import escape_markdown
from ui.widgets import data_table, model_text

MAX_HEATMAP_TOKENS = 16  # a bigger square is unreadable on a projector
MAX_POSITION = 4095  # a link's token position; a position past the prompt's end falls back to the last token
ROW = 35  # table row height in px, so a table's height fits its rows exactly
STAGES = ("input", "tokens", "embedding", "attention", "mlp", "softmax", "sampling", "output")
# The course text's table (seed 004, section 6), with the published figures where they exist:
# (model, layers, parameters per size, estimated?, FLOPs note key or None = 2 x parameters)
# GPT-2: 124M (12 layers) to 1.5B (48), as OpenAI corrected the paper's counts (ui/published.py).
# GPT-3 175B: 96 layers, Brown et al. 2020.
# Llama 3.1 8B / 70B / 405B: 32 / 80 / 126 layers (Meta's model cards, "The Llama 3 Herd of Models" table 3).
# GPT-4 and Claude 3.5: not published; GPT-4 is reportedly a mixture of experts, so only part of its
# parameters work on each token: the seed (003) puts a frontier model at tens to hundreds of GFLOPs per token.
SEED_MODELS = (
    ("GPT-2", " / ".join(str(n) for n in GPT2_LAYERS), GPT2_PARAMS, False, None),
    ("GPT-3", "96", (175e9,), False, None),
    ("GPT-4", "~120", (1.7e12,), True, "pipeline.card.moe"),
    ("Claude 3.5", "?", (), False, None),
    ("Llama 3.1", "32 / 80 / 126", (8e9, 70e9, 405e9), False, None),
)


def link_params(info: mb.ModelInfo) -> list[Param]:
    """What a link to this page carries: the prompt and every view setting (layer and head as shown, from 1:
    the widgets hold the numbers shown, ui.numbering).

    pos = -1 means the last token (the page's default), whatever the prompt's length.
    """
    return [Param("prompt", "prompt_pipeline", str, t("common.default_prompt")),
            Param("layer", "pipeline_att_layer", int, 1, low=1, high=info.n_layers),
            Param("head", "pipeline_att_head", int, 1, low=1, high=info.n_heads),
            Param("pos", "pipeline_emb_pos", int, -1, low=-1, high=MAX_POSITION),
            Param("mlp", "pipeline_mlp_layer", int, info.n_layers // 2, low=1, high=info.n_layers),
            Param("seed", "pipeline_seed", int, 0, low=0, high=2**31 - 1)]


def _label(i: int, tok: mb.TokenInfo) -> str:
    return f"{i}: {tok.display}"


def _show(chart: alt.Chart, key: str, **values) -> None:
    """Every chart gets a caption saying what it shows."""
    show(chart)
    st.caption(t(key, **values))


def _step(px: int) -> alt.Step:
    """Room per bar or row: more in projection mode, where the labels are half as large again."""
    return alt.Step(round(px * 1.5) if projection_on() else px)


@cached_chart
def _strip(values: np.ndarray, height: int = 30) -> alt.Chart:
    """Every number of a vector as one coloured cell: the vector *is* the representation."""
    df = pd.DataFrame({"dim": np.arange(len(values)), "value": values.astype(float), "row": 0})
    return alt.Chart(df).mark_rect().encode(
        x=alt.X("dim:O", axis=None),
        y=alt.Y("row:O", axis=None),
        color=alt.Color("value:Q", scale=alt.Scale(scheme="blueorange", domainMid=0), legend=None),
        tooltip=[alt.Tooltip("dim:O", title=t("pipeline.axis.dim")),
                 alt.Tooltip("value:Q", format=".4f", title=t("pipeline.axis.value"))],
    ).properties(height=alt.Step(height))  # a Step, not a total: Streamlit fits a total height to the axes


def _numbers(values: np.ndarray, n: int = 6) -> str:
    return "[" + "; ".join(fmt_float(float(v), 3) for v in values[:n]) + "; …]"


def fmt_flops(x: float) -> str:
    """536,196,352 -> '0.54 GFLOPs'; 3.5e14 -> '350 TFLOPs'."""
    if x >= 1e12:
        return fmt_float(x / 1e12, 1) + " TFLOPs"
    return fmt_float(x / 1e9, 2 if x < 1e9 else (1 if x < 1e10 else 0)) + " GFLOPs"


def fmt_params(x: float) -> str:
    if x >= 1e12:
        return fmt_float(x / 1e12, 1) + " T"
    if x >= 1e9:
        return fmt_float(x / 1e9, 0 if x >= 1e10 or x % 1e9 == 0 else 1) + " B"
    return fmt_int(round(x / 1e6)) + " M"


def overview(prompt: str, tr: mb.Trace, sm: SoftmaxView, chosen: mb.TokenInfo) -> None:
    """The eight stages in one screen, each with its real number."""
    info = tr.info
    values = {
        "input": t("pipeline.ov.input", n=fmt_int(len(prompt))),
        "tokens": t("pipeline.ov.tokens", n=fmt_int(len(tr.tokens))),
        "embedding": t("pipeline.ov.embedding", t=fmt_int(len(tr.tokens)), d=fmt_int(info.d_model)),
        "attention": t("pipeline.ov.attention", layers=info.n_layers, heads=info.n_heads),
        "mlp": f"{fmt_int(info.d_model)} → {fmt_int(info.d_ff)} → {fmt_int(info.d_model)}",
        "softmax": t("pipeline.ov.softmax", v=fmt_int(sm.vocab_size), total=fmt_pct(sm.total, 0)),
    }
    n = 2 if projection_on() else 4  # projection mode's large text needs wider cards
    for row in (STAGES[i:i + n] for i in range(0, len(STAGES), n)):
        for col, stage in zip(st.columns(n), row):
            with col.container(border=True, gap=None):
                head = f"**{STAGES.index(stage) + 1} · {t(f'pipeline.stage.{stage}')}**"
                if stage == "sampling":  # model text: shown as text, never inside Markdown
                    st.markdown(head)
                    model_text(f"{chosen.display}  ({fmt_pct(sm.probs[0])})")
                elif stage == "output":
                    st.markdown(head)
                    model_text("…" + (prompt + chosen.text)[-24:])
                else:
                    st.markdown(f"{head}  \n{values[stage]}")
    st.caption(t("pipeline.ov.caption", layers=info.n_layers))


def tokens_frame(tokens: Sequence[mb.TokenInfo]) -> pd.DataFrame:
    """One row per prompt token: what the tokens table shows, with stable column names for the files."""
    return pd.DataFrame({"position": range(len(tokens)), "token": [tok.display for tok in tokens],
                         "text": [tok.text for tok in tokens], "id": [tok.id for tok in tokens]})


def vector_frame(values: np.ndarray) -> pd.DataFrame:
    """A vector as (dim, value) rows: what a strip chart shows, one row per cell."""
    return pd.DataFrame({"dim": np.arange(len(values)), "value": np.asarray(values, dtype=float)})


def tokens_panel(tr: mb.Trace) -> None:
    df = pd.DataFrame({t("pipeline.col.pos"): range(len(tr.tokens)),
                       t("pipeline.col.token"): [tok.display for tok in tr.tokens],
                       t("pipeline.col.id"): [tok.id for tok in tr.tokens]})
    data_table(df, hide_index=True)
    st.caption(t("pipeline.tokens.caption", n=fmt_int(len(tr.tokens)), v=fmt_int(tr.info.vocab_size)))
    tokens = tr.tokens  # the function below keeps these, not the whole trace, until the visitor's next run
    downloads(lambda: tokens_frame(tokens), "pipeline-tokens", key="pipeline_dl_tokens")


@cached_chart
def onehot_chart(token_id: int, vocab: int) -> alt.Chart:
    """The one-hot vector around the token's index: nine cells, one of them 1."""
    window = [i for i in range(token_id - 4, token_id + 5) if 0 <= i < vocab]
    df = pd.DataFrame({"index": [fmt_int(i) for i in window], "value": [int(i == token_id) for i in window], "row": 0})
    cells = alt.Chart(df).encode(x=alt.X("index:N", sort=None, title=t("pipeline.axis.vocab_index")),
                                 y=alt.Y("row:O", axis=None),
                                 tooltip=[alt.Tooltip("index:N", title=t("pipeline.axis.vocab_index")),
                                          alt.Tooltip("value:Q", title=t("pipeline.axis.value"))])
    chart = cells.mark_rect(stroke="white").encode(
        color=alt.Color("value:Q", scale=alt.Scale(domain=[0, 1], range=[MASKED, PRIMARY]), legend=None)
    ) + cells.mark_text(fontSize=16).encode(text="value:Q")
    return chart.properties(height=alt.Step(44))


def embedding_panel(tr: mb.Trace) -> None:
    info = tr.info
    labels = {i: _label(i, tok) for i, tok in enumerate(tr.tokens)}
    if st.session_state.get("pipeline_emb_pos") not in labels:  # new session, -1 from a link, or a shorter prompt
        st.session_state["pipeline_emb_pos"] = len(labels) - 1
    pos = st.selectbox(t("pipeline.emb.pick"), list(labels), format_func=labels.get, key="pipeline_emb_pos")
    tok = tr.tokens[pos]
    left, right = st.columns(2)
    with left:
        st.markdown(t("pipeline.onehot.text", v=fmt_int(info.vocab_size), id=fmt_int(tok.id),
                      zeros=fmt_int(info.vocab_size - 1)))
        _show(onehot_chart(tok.id, info.vocab_size), "pipeline.onehot.caption", id=fmt_int(tok.id))
    with right:
        row = tr.embeddings[pos]
        st.markdown(t("pipeline.emb.text", d=fmt_int(info.d_model), first=_numbers(row),
                      scale=fmt_float(info.embed_scale, 2)))
        _show(_strip(row), "pipeline.emb.caption", d=fmt_int(info.d_model), id=fmt_int(tok.id))
    vector = np.array(tr.embeddings[pos])  # a copy of the row: the function keeps it, not the trace
    downloads(lambda: vector_frame(vector), f"pipeline-embedding-{pos}", key="pipeline_dl_emb")


def attention_frame(tr: mb.Trace, layer: int, head: int) -> pd.DataFrame:
    """The heatmap's cells: one row per (query, key) of the last MAX_HEATMAP_TOKENS tokens.

    layer and head are indices from 0; the rows number them from 1, as every page does (ui.numbering). weight is None where
    the mask hides the key (masked, not zero)."""
    info = tr.info
    n = len(tr.tokens)
    start = max(0, n - MAX_HEATMAP_TOKENS)
    allowed = visible_keys(n, info.layer_types[layer], info.sliding_window)
    rows = []
    for q in range(start, n):
        for k in range(start, n):
            w = float(tr.attentions[layer, head, q, k])
            rows.append({"layer": layer_no(layer), "head": head_no(head), "query_pos": q, "query": tr.tokens[q].display,
                         "key_pos": k, "key": tr.tokens[k].display, "masked": not allowed[q, k],
                         "weight": None if not allowed[q, k] else w})
    return pd.DataFrame(rows)


def drawn_row_sums(cells: pd.DataFrame) -> tuple[float, float]:
    """(smallest, largest) sum of the weights drawn in one row of the heatmap (masked cells count 0)."""
    sums = cells.groupby("query_pos")["weight"].sum(min_count=0)
    return float(sums.min()), float(sums.max())


@cached_chart
def attention_view(tr: mb.Trace, layer: int, head: int) -> tuple[alt.Chart, pd.DataFrame, tuple[float, float]]:
    """One head's heatmap, its cells and their drawn row sums, kept per trace, layer and head (the trace is a memo's
    object: its digest is computed once), so a visit with a kept view builds no table of cells."""
    cells = attention_frame(tr, layer, head)
    return attention_chart(tr, layer, head, cells), cells, drawn_row_sums(cells)


@cached_chart
def attention_chart(tr: mb.Trace, layer: int, head: int, df: pd.DataFrame | None = None) -> alt.Chart:
    """[T, T] weights of one head, future cells greyed by the causal mask (they are masked, not zero)."""
    cells = attention_frame(tr, layer, head) if df is None else df
    labels = list(dict.fromkeys(_label(q, tr.tokens[q]) for q in cells["query_pos"]))
    df = pd.DataFrame({"query": [_label(q, tr.tokens[q]) for q in cells["query_pos"]],
                       "key": [_label(k, tr.tokens[k]) for k in cells["key_pos"]], "masked": cells["masked"],
                       "weight": cells["weight"],
                       "shown": [t("pipeline.att.masked") if m else fmt_pct(w)
                                 for m, w in zip(cells["masked"], cells["weight"])]})
    base = alt.Chart(df).encode(
        x=alt.X("key:N", sort=labels, title=t("pipeline.axis.key"), axis=alt.Axis(labelAngle=-45, labelLimit=110)),
        y=alt.Y("query:N", sort=labels, title=t("pipeline.axis.query"), axis=alt.Axis(labelLimit=110)),
        tooltip=[alt.Tooltip("query:N", title=t("pipeline.axis.query")),
                 alt.Tooltip("key:N", title=t("pipeline.axis.key")),
                 alt.Tooltip("shown:N", title=t("pipeline.axis.weight"))],
    )
    masked = base.transform_filter("datum.masked").mark_rect(color=MASKED, stroke="white")
    seen = base.transform_filter("!datum.masked").mark_rect(stroke="white").encode(
        color=alt.Color("weight:Q", scale=alt.Scale(scheme=SEQUENTIAL, domain=[0, 1]), title=t("pipeline.axis.weight"),
                        legend=alt.Legend(format="%")))
    return (masked + seen).properties(height=_step(30 if len(labels) <= 10 else 22))


def attention_panel(tr: mb.Trace) -> None:
    info = tr.info
    c1, c2 = st.columns([3, 1])
    layer = layer_index(c1.slider(t("pipeline.att.layer"), layer_no(0), layer_no(info.n_layers - 1),
                                  key="pipeline_att_layer"))
    head = layer_index(c2.selectbox(t("pipeline.att.head"), [head_no(h) for h in range(info.n_heads)],
                                    key="pipeline_att_head"))
    kind = t(f"pipeline.att.{info.layer_types[layer]}", window=fmt_int(info.sliding_window or 0))
    chart, cells, (lo, hi) = attention_view(tr, layer, head)
    _show(chart, "pipeline.att.caption", layer=layer_no(layer), head=head_no(head), kind=kind, n=MAX_HEATMAP_TOKENS)
    if len(tr.tokens) > MAX_HEATMAP_TOKENS:  # the crop leaves <bos> and the first tokens out: rows sum below 100%
        st.caption(t("pipeline.att.cropped", n=fmt_int(len(tr.tokens)), k=MAX_HEATMAP_TOKENS,
                     hidden=fmt_int(len(tr.tokens) - MAX_HEATMAP_TOKENS), lo=fmt_pct(lo), hi=fmt_pct(hi)))
    downloads(cells, f"pipeline-attention-L{layer_no(layer)}-H{head_no(head)}", key="pipeline_dl_att")


LIT = 0.1  # a middle neuron "lights up" when its value is above this share of the largest one
FEW_LIT = 0.25  # "few neurons light up" only when fewer than this share of them do


def active_neurons(hidden: np.ndarray) -> int:
    """How many of the MLP's middle values exceed LIT of the largest (in absolute value)."""
    peak = float(np.abs(hidden).max())
    return int((np.abs(hidden) > LIT * peak).sum()) if peak > 0 else 0


def mlp_verdict(active: int, d_ff: int) -> str:
    """The sentence that follows from the count: few neurons light up, or many (the key, filled with the share)."""
    return "pipeline.mlp.few" if active < FEW_LIT * d_ff else "pipeline.mlp.many"


def mlp_layer(info: mb.ModelInfo) -> int:
    """The MLP panel's layer picker (numbered from 1, as shown); returns the layer's index."""
    return layer_index(st.slider(t("pipeline.mlp.layer"), layer_no(0), layer_no(info.n_layers - 1),
                                 key="pipeline_mlp_layer"))


def mlp_panel(view: MlpView, layer: int) -> None:
    """One layer's MLP: its sizes, its three vectors as strips, how many middle neurons light up."""
    kind = t("pipeline.mlp.gated" if view.gated else "pipeline.mlp.plain", act=view.activation)
    st.markdown(t("pipeline.mlp.text", d=fmt_int(view.d_model), f=fmt_int(view.d_ff), act=view.activation,
                  x=fmt_float(view.expansion, 1), params=fmt_int(view.n_params), kind=kind))
    for key, values in (("in", view.x), ("hidden", view.hidden), ("out", view.out)):
        st.markdown(t(f"pipeline.mlp.{key}", n=fmt_int(len(values)), first=_numbers(values)))
        show(_strip(values, height=24))
    active = active_neurons(view.hidden)
    st.caption(t("pipeline.mlp.caption", layer=layer_no(layer), active=fmt_int(active), f=fmt_int(view.d_ff),
                 cut=fmt_pct(LIT, 0), verdict=t(mlp_verdict(active, view.d_ff), share=fmt_pct(active / view.d_ff, 0))))
    shown_layer = layer_no(layer)

    def table() -> pd.DataFrame:  # built when a file is asked for (export.downloads)
        df = pd.concat([vector_frame(v).assign(vector=name) for name, v in
                        (("in", view.x), ("hidden", view.hidden), ("out", view.out))], ignore_index=True)
        return df.assign(layer=shown_layer)[["layer", "vector", "dim", "value"]]

    downloads(table, f"pipeline-mlp-L{shown_layer}", key="pipeline_dl_mlp")


RESIDUAL_KINDS = ("embedding", "stream", "final")


def residual_points(n_points: int) -> list[tuple[str, str]]:
    """(x label, kind) for hidden_states[0..L]: point 0 is the scaled embedding (before any layer), point h
    is after layer h, and the last point is after the last layer *and* the final norm (transformers gives the
    last layer's output only normalized), so it is labelled as both."""
    last = n_points - 1
    points = [(t("pipeline.res.x.emb"), "embedding")]
    points += [(str(layer_no(h - 1)), "stream") for h in range(1, last)]
    points.append((t("pipeline.res.x.final", n=layer_no(last - 1)), "final"))
    return points


@cached_chart
def residual_chart(tr: mb.Trace) -> tuple[alt.Chart, pd.DataFrame, np.ndarray]:
    """The residual stream's norm at each point: the chart, its table and the norms (kept per trace)."""
    norms = residual_norms(tr.hidden_states)
    points = residual_points(len(norms))
    names = {k: t(f"pipeline.res.{k}") for k in RESIDUAL_KINDS}
    df = pd.DataFrame({"point": range(len(norms)), "label": [p[0] for p in points], "norm": norms,
                       "kind": [names[p[1]] for p in points]})
    df["shown"] = fmt_floats(norms, 1)
    base = alt.Chart(df).encode(
        x=alt.X("label:N", sort=list(df["label"]), title=t("pipeline.axis.point"), axis=alt.Axis(labelAngle=0)),
        y=alt.Y("norm:Q", scale=alt.Scale(type="log"), title=t("pipeline.axis.norm")),
        tooltip=[alt.Tooltip("kind:N", title=t("pipeline.axis.point")), alt.Tooltip("label:N", title=t("pipeline.axis.layer")),
                 alt.Tooltip("shown:N", title=t("pipeline.axis.norm"))],
    )
    kinds = [names[k] for k in RESIDUAL_KINDS]
    points_chart = base.mark_point(filled=True, size=90).encode(
        color=alt.Color("kind:N", scale=alt.Scale(domain=kinds, range=[OKABE_ITO[2], PRIMARY, OKABE_ITO[1]]),
                        title=None, legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=400,
                                                         labelExpr=wrapped_labels(kinds))))
    return (base.mark_line(color=PRIMARY) + points_chart).properties(height=320), df, norms


def residual_panel(tr: mb.Trace) -> None:
    chart, df, norms = residual_chart(tr)
    inner = norms[1:-1]  # after layers 1 .. L-1: the points that are neither the embedding nor normalized
    _show(chart, "pipeline.res.caption", first=fmt_float(norms[0], 1), peak=fmt_float(inner.max(), 0),
          at=layer_no(int(inner.argmax())), upto=layer_no(len(norms) - 3), last=fmt_float(norms[-1], 1),
          layers=tr.info.n_layers)
    downloads(df[["point", "label", "norm"]], "pipeline-residual-norms", key="pipeline_dl_res")


@cached_chart
def softmax_charts(sm: SoftmaxView, names: tuple[str, ...]) -> tuple[alt.Chart, alt.Chart]:
    """The top tokens' logits and probabilities, as two bar charts (kept per view, language, projection)."""
    bars = pd.DataFrame({"token": list(names), "logit": sm.logits, "prob": sm.probs,
                         "shown": fmt_pcts(sm.probs)})
    base = alt.Chart(bars).encode(y=alt.Y("token:N", sort=list(names), title=None,
                                          axis=alt.Axis(labelLimit=120, labelOverlap=False)),
                                  tooltip=[alt.Tooltip("token:N", title=t("pipeline.col.token")),
                                           alt.Tooltip("logit:Q", format=".2f", title=t("pipeline.col.logit")),
                                           alt.Tooltip("shown:N", title=t("pipeline.col.prob"))])
    logit = base.mark_bar(color=OKABE_ITO[1]).encode(x=alt.X("logit:Q", title=t("pipeline.col.logit")))
    prob = base.mark_bar(color=PRIMARY).encode(x=alt.X("prob:Q", title=t("pipeline.col.prob"),
                                                       axis=alt.Axis(format="%")))
    return logit.properties(height=_step(20)), prob.properties(height=_step(20))


def softmax_panel(sm: SoftmaxView, shown: tuple[str, ...]) -> None:
    """The top tokens' logits and probabilities, as a table and two bar charts; `shown`: their names
    (compute.softmax_names)."""
    names = list(shown)
    df = pd.DataFrame({t("pipeline.col.token"): names + [t("pipeline.sm.rest", n=fmt_int(sm.vocab_size - len(names))),
                                                         t("pipeline.sm.total")],
                       t("pipeline.col.logit"): [fmt_float(v, 2) for v in sm.logits] + ["", ""],
                       t("pipeline.col.prob"): [fmt_pct(p, 2) for p in sm.probs] + [fmt_pct(sm.rest_sum, 2),
                                                                                    fmt_pct(sm.total, 2)]})
    left, right = st.columns([1, 1] if projection_on() else [2, 3])  # projection's larger cells: "probability" whole
    with left:
        data_table(df, hide_index=True, row_height=ROW, height=ROW * (len(df) + 1) + 3)
    with right:  # two charts stacked (not side by side) so each fits a phone's width
        logit, prob = softmax_charts(sm, tuple(names))
        show(logit)
        show(prob)
    st.caption(t("pipeline.sm.caption", k=len(names), top=fmt_pct(sm.top_sum, 1), rest=fmt_pct(sm.rest_sum, 1),
                 v=fmt_int(sm.vocab_size), total=fmt_pct(sm.total, 4)))
    downloads(pd.DataFrame({"rank": range(1, len(names) + 1), "id": list(sm.ids), "token": names,
                            "logit": [float(v) for v in sm.logits], "prob": [float(p) for p in sm.probs]}),
              "pipeline-softmax-top", key="pipeline_dl_sm")


def output_layer_panel(info: mb.ModelInfo, out: OutputLayer) -> None:
    """logits = W·h, then softmax; W measured against the embedding matrix (Gemma ties them)."""
    st.latex(r"\mathrm{logits} = W\,h \qquad P(\mathrm{token}_i) = \frac{e^{\mathrm{logit}_i}}{\sum_j e^{\mathrm{logit}_j}}")
    st.markdown(t("pipeline.out.shapes", v=fmt_int(out.vocab), d=fmt_int(out.d_model)))
    if out.same_tensor and out.equal_values:
        st.markdown(t("pipeline.out.tied", n=fmt_int(out.shared_params), scale=fmt_float(info.embed_scale, 2)))
    else:
        st.markdown(t("pipeline.out.untied", equal=t("pipeline.out.yes" if out.equal_values else "pipeline.out.no")))
    why = t("pipeline.out.why.order") if info.dtype == "float32" else t("pipeline.out.why.round", dtype=info.dtype)
    st.caption(t("pipeline.out.check", diff=fmt_float(out.max_diff, 4), why=why,
                 top=t("pipeline.out.yes" if out.same_top else "pipeline.out.no"))
               + (" " + t("pipeline.out.softcap", cap=fmt_float(out.softcap, 1)) if out.softcap else ""))


def seed() -> int:
    """The sampling panel's seed: the draw it names is computed by compute.drawn."""
    return int(st.number_input(t("pipeline.sample.seed"), 0, 2**31 - 1, step=1, key="pipeline_seed"))


def sampling_panel(sm: SoftmaxView, greedy: mb.TokenInfo, seed: int, drawn: mb.TokenInfo, drawn_prob: float) -> None:
    """The greedy choice beside a seeded draw at T = 1, each with its probability."""
    left, right = st.columns(2)
    with left:
        st.markdown(t("pipeline.sample.greedy", p=fmt_pct(sm.probs[0])))
        model_text(greedy.display)
    with right:
        st.markdown(t("pipeline.sample.drawn", seed=seed, p=fmt_pct(drawn_prob)))
        model_text(drawn.display)
    st.caption(t("pipeline.sample.caption"))


def output_panel(prompt: str, chosen: mb.TokenInfo) -> None:
    model_text(prompt + chosen.text)
    st.caption(t("pipeline.output.caption"))


def lens_name(hidden: int, last: int) -> str:
    """The logit lens's row name for hidden_states[hidden]: the embedding, "layer h" (after model.layers[h - 1],
    numbered as every page numbers it), or the final output."""
    if hidden == 0:
        return t("pipeline.lens.emb")
    return t("pipeline.lens.out") if hidden == last else t("pipeline.lens.layer", n=layer_no(hidden - 1))


@cached_chart
def lens_chart(tr: mb.Trace) -> tuple[alt.Chart, pd.DataFrame]:
    """The logit lens's grid and its table (kept per trace, language and projection mode)."""
    top_n = min(3, len(tr.lens[0].top))
    last = len(tr.lens) - 1
    rows = []
    for lens in tr.lens:
        name = lens_name(lens.layer, last)
        for rank, cand in enumerate(lens.top[:top_n], start=1):
            token = visible(cand.text) or "∅"
            rows.append({"layer": name, "rank": rank, "token": token, "prob": cand.prob, "shown": fmt_pct(cand.prob),
                         "short": token if len(token) <= 9 else token[:8] + "…", "n": lens.layer, "id": cand.id})
    df = pd.DataFrame(rows)
    order = list(dict.fromkeys(df["layer"]))
    base = alt.Chart(df).encode(
        x=alt.X("rank:O", title=t("pipeline.axis.rank"), axis=alt.Axis(labelAngle=0, orient="top")),
        y=alt.Y("layer:N", sort=order, title=None, axis=alt.Axis(labelOverlap=False)),
        tooltip=[alt.Tooltip("layer:N", title=t("pipeline.axis.layer")), alt.Tooltip("token:N", title=t("pipeline.col.token")),
                 alt.Tooltip("shown:N", title=t("pipeline.col.prob"))],
    )
    cells = base.mark_rect(stroke="white").encode(
        color=alt.Color("prob:Q", scale=alt.Scale(scheme=SEQUENTIAL, domain=[0, 1]), title=t("pipeline.col.prob"),
                        legend=alt.Legend(format="%", orient="bottom")))
    text = base.mark_text(fontSize=13).encode(
        text="short:N", color=alt.condition("datum.prob > 0.5", alt.value("black"), alt.value("white")))
    return (cells + text).properties(height=_step(24)), df


def lens_panel(tr: mb.Trace) -> None:
    chart, df = lens_chart(tr)
    own = bool(tr.lens and tr.lens[0].top and tr.tokens) and tr.lens[0].top[0].id == tr.tokens[-1].id  # not assured
    _show(chart, "pipeline.lens.caption", out=t("pipeline.lens.out"), k=int(df["rank"].max()),
          emb=t("pipeline.lens.emb.self" if own else "pipeline.lens.emb.other"))
    downloads(df.rename(columns={"layer": "stage", "n": "layer"})[["layer", "stage", "rank", "id", "token", "prob"]],
              "pipeline-logit-lens", key="pipeline_dl_lens")


def model_card(info: mb.ModelInfo, label: str, weights: list[str]) -> None:
    """Our model's sizes beside the course text's models. label: the model as the catalogue names it; weights:
    the paragraphs on what its weights are (ui.weights_view.detail)."""
    rows = [
        ("layers", fmt_int(info.n_layers)), ("heads", fmt_int(info.n_heads)), ("kv_heads", fmt_int(info.n_kv_heads)),
        ("d_model", fmt_int(info.d_model)), ("d_ff", fmt_int(info.d_ff)), ("vocab", fmt_int(info.vocab_size)),
        ("params", fmt_int(info.n_params)), ("emb_params", fmt_int(info.n_embedding_params)),
        ("context", fmt_int(info.context_length)), ("activation", info.activation),
        ("flops", f"≈ {fmt_flops(info.flops_per_token)}"), ("dtype", f"{info.dtype} · {info.device}"),
    ]
    # Side by side; stacked in projection mode, where the comparison table needs the whole width.
    left, right = (st.container(), st.container()) if projection_on() else st.columns([2, 3])
    with left:  # st.table: our own numbers only (it renders Markdown, so never model text here)
        st.markdown(t("pipeline.card.ours", name=escape_markdown(info.name)))  # a model path or hub id
        st.table(pd.DataFrame({t("pipeline.col.property"): [t(f"pipeline.card.{k}") for k, _ in rows],
                               t("pipeline.col.value"): [v for _, v in rows]}), hide_index=True)
        for paragraph in weights:  # what the weights are: the GGUF's mix, and its cost
            st.markdown(paragraph)
    with right:
        st.markdown(t("pipeline.card.seed"))
        st.table(models_frame(info, label), hide_index=True)
        gpt4 = next(m[2][0] for m in SEED_MODELS if m[0] == "GPT-4")
        st.caption(t("pipeline.card.caption", llama=next(m[1] for m in SEED_MODELS if m[0] == "Llama 3.1"),
                     gpt2=" / ".join(fmt_params(v) for v in GPT2_PARAMS),
                     gpt2_seed=" – ".join(fmt_params(v) for v in GPT2_SEED_PARAMS),
                     gpt4=fmt_params(gpt4), gpt4_flops=fmt_flops(2 * gpt4)))
        st.caption(t("pipeline.card.gpt3", d=fmt_int(GPT3["d_model"]), layers=GPT3["n_layers"], heads=GPT3["n_heads"],
                     ours_d=fmt_int(info.d_model), ours_layers=info.n_layers, ours_heads=info.n_heads))


def models_frame(info: mb.ModelInfo, label: str) -> pd.DataFrame:
    """The comparison table: the model running now (named as loaded, sized from its config), then the course
    text's models."""
    models = [(f"**{escape_markdown(label)}**", fmt_int(info.n_layers), (info.n_params,), False, None), *SEED_MODELS]
    return pd.DataFrame({
        t("pipeline.col.model"): [m[0] for m in models],
        t("pipeline.card.layers"): [m[1] for m in models],
        t("pipeline.card.params"): [_sizes(m[2], m[3], fmt_params) for m in models],
        t("pipeline.card.flops_short"): [t(m[4]) if m[4] else _sizes(tuple(2 * v for v in m[2]), m[3], fmt_flops)
                                         for m in models],
    })


def _sizes(values: tuple[float, ...], estimated: bool, fmt) -> str:
    """'124 M / 355 M / 774 M / 1,5 B' for each size of a family (GPT-2, Llama 3.1), a range 'a – b' for two,
    '~1,7 T (estimated)'; 'unknown' when unpublished."""
    if not values:
        return t("pipeline.card.unknown")
    sep = " – " if len(values) == 2 else " / "
    text = sep.join(fmt(v) for v in values)
    return f"~{text} ({t('pipeline.card.est')})" if estimated else text
