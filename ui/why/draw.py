"""The why page's drawing: its controls, pickers, charts, captions and panels (Streamlit and Altair). It never
reaches the model: what it shows comes from ui.why.compute, through the page (pages/why.py)."""
from __future__ import annotations

import time
from contextlib import contextmanager

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

import model_backend as mb
from model_backend.lessons import why as at
from ui import heads_view
from ui.charts import OKABE_ITO, SEQUENTIAL, show
from ui.export import downloads
from ui.hallucination.compute import CONFIG as HALLUCINATION
from ui.heads_view import GRID_HEIGHT, head_frame, head_grid, head_name
from ui.i18n import fmt_float, fmt_pct, t
from ui.numbering import FIRST, head_no, layer_no
from ui.share import Param, share_box
from ui.why.compute import IG_STEPS, IND_SHARE, IND_TOKENS, NEW_TOKENS, Continuation
from ui.widgets import model_text

AUTO, NONE = -2, -1  # contrast: the page's choice / no contrast
AVG = -1  # attention: average over layers or heads
FOR, AGAINST = OKABE_ITO[0], OKABE_ITO[5]  # blue pushes towards the chosen token, vermilion against
# Blue and orange mean "for" and "against" on this page (the attribution bars, the heads grid); the other charts
# keep other colours, so that one colour never means two things here (review W6): attention green, the MLP purple,
# the attribution black, the running total black beside the lens's olive
ATTENTION, MLP, ATTRIBUTION, LENS = OKABE_ITO[2], OKABE_ITO[3], OKABE_ITO[7], OKABE_ITO[6]

POS, CONTRAST, METHOD = "why_pos", "why_contrast", "why_method"
VS_LAYER, VS_HEAD, SEED, IND_HEAD = "why_vs_layer", "why_vs_head", "why_seed", "why_ind_head"
GO_FOR = "why_go_for"  # the prompt the visitor asked to explain (nothing heavy runs before that click)


def preset() -> dict:
    """The hallucination page's Einstein example: its prompt and the token it inspects first."""
    return next(p for p in HALLUCINATION["presets"] if p["id"] == "einstein")


def link_params(info: mb.ModelInfo) -> list[Param]:
    """What a link carries: prompt, the explained token, the contrast, the method, the attention view, the draw."""
    return [Param("prompt", "prompt_why", str, preset()["prompt"]),
            Param("pos", POS, int, AUTO, low=AUTO, high=NEW_TOKENS - 1),
            Param("contrast", CONTRAST, int, AUTO, low=AUTO, high=info.vocab_size - 1),
            Param("method", METHOD, str, "ig", choices=at.METHODS),
            Param("layer", VS_LAYER, int, AVG, low=AVG, high=layer_no(info.n_layers - 1), offset=FIRST),  # from 1
            Param("head", VS_HEAD, int, AVG, low=AVG, high=head_no(info.n_heads - 1), offset=FIRST),
            Param("seed", SEED, int, 0, low=0, high=99)]


def share(info: mb.ModelInfo) -> None:
    share_box("why", link_params(info))


# ---------------------------------------------------------------- the first click


def asked(prompt: str) -> bool:
    """True once the visitor asked to explain this prompt: a first visit runs nothing heavy (no float32 copy of the
    model, no generation), so it costs what any page costs."""
    if st.session_state.get(GO_FOR) == prompt:
        return True
    st.caption(t("why.go.hint"))
    st.button(t("why.go"), icon=":material/play_arrow:", key="why_go", type="primary",
              on_click=lambda: st.session_state.__setitem__(GO_FOR, prompt))
    return False


# ---------------------------------------------------------------- labels


def token_label(tokens: list[mb.TokenInfo], i: int) -> str:
    return f"{i}: {tokens[i].display}"


# ---------------------------------------------------------------- pickers


def pick_token(cont: Continuation) -> int:
    """The generated token to explain (index into the continuation); the Einstein preset starts at " Paris"."""
    steps = cont.generation.steps
    positions = list(range(len(steps)))
    stamp = st.session_state.get("_why_for")
    if stamp is not None and stamp != cont.ids:  # a new text: its own default token and contrast
        st.session_state.pop(POS, None)
        st.session_state.pop(CONTRAST, None)
    st.session_state["_why_for"] = cont.ids
    value = st.session_state.get(POS)
    if value not in positions:
        focus = preset().get("focus")
        texts = [s.token.text for s in steps]
        st.session_state[POS] = texts.index(focus) if focus in texts else 0
    names = {i: t("why.token.option", i=i, text=steps[i].token.display) for i in positions}
    return st.selectbox(t("why.pick.token"), positions, key=POS, format_func=names.get)


def pick_contrast(step: mb.Step, tokens, default) -> int | None:
    """"…and not this one": one of the step's top alternatives, or none. `tokens(ids)` gives their tokens and
    `default(options)` the preset's contrast among them, if any (ui.why.compute)."""
    options = [NONE] + [c.id for c in step.top if c.id != step.token.id]
    value = st.session_state.get(CONTRAST)
    if value not in options:
        wanted = default(options)
        st.session_state[CONTRAST] = wanted if wanted is not None else (options[1] if len(options) > 1 else NONE)
    probs = {c.id: c for c in step.top}
    others = [i for i in options if i != NONE]
    infos = {i: info.display for i, info in zip(others, tokens(others))}
    names = {i: t("why.contrast.none") if i == NONE else t("why.contrast.option", text=infos[i],
                                                                   p=fmt_pct(probs[i].prob)) for i in options}
    choice = st.selectbox(t("why.pick.contrast"), options, key=CONTRAST, format_func=names.get)
    return None if choice == NONE else choice


# ---------------------------------------------------------------- direct logit attribution


def dla_frame(dla: at.LogitAttribution) -> pd.DataFrame:
    n = len(dla.attn)
    rows = [{"layer": layer_no(i), "part": t(f"why.dla.part.{part}"), "value": float(v)}
            for part, values in (("attn", dla.attn), ("mlp", dla.mlp)) for i, v in zip(range(n), values)]
    return pd.DataFrame(rows)


def dla_chart(df: pd.DataFrame) -> alt.Chart:
    parts = [t("why.dla.part.attn"), t("why.dla.part.mlp")]
    return alt.Chart(df).mark_bar().encode(
        x=alt.X("layer:O", title=t("why.dla.axis.layer")),  # numbered from 1
        xOffset=alt.XOffset("part:N", sort=parts),
        y=alt.Y("value:Q", title=t("why.dla.axis.value")),
        color=alt.Color("part:N", title=t("why.dla.part"), sort=parts,
                        scale=alt.Scale(domain=parts, range=[ATTENTION, MLP]),
                        legend=alt.Legend(orient="top")),
        tooltip=[alt.Tooltip("layer:O", title=t("why.dla.axis.layer")), alt.Tooltip("part:N", title=t("why.dla.part")),
                 alt.Tooltip("value:Q", title=t("why.dla.axis.value"), format=".3f")],
    ).properties(height=300)


def lens_frame(dla: at.LogitAttribution) -> pd.DataFrame:
    after = list(range(0, len(dla.attn) + 1))  # 0 = the embeddings alone, l = after layer l (numbered from 1)
    return pd.DataFrame(
        [{"after": a, "series": t("why.dla.series.cum"), "value": float(v)} for a, v in zip(after, dla.cumulative)]
        + [{"after": a, "series": t("why.dla.series.lens"), "value": float(v)} for a, v in zip(after, dla.lens)])


def lens_chart(df: pd.DataFrame) -> alt.Chart:
    return alt.Chart(df).mark_line(point=True).encode(
        x=alt.X("after:Q", title=t("why.dla.axis.after"), axis=alt.Axis(tickMinStep=1)),
        y=alt.Y("value:Q", title=t("why.dla.axis.value"), scale=alt.Scale(type="symlog")),
        color=alt.Color("series:N", title=t("why.dla.series"), legend=alt.Legend(orient="top"),
                        scale=alt.Scale(domain=[t("why.dla.series.cum"), t("why.dla.series.lens")],
                                        range=[ATTRIBUTION, LENS])),
        strokeDash=alt.StrokeDash("series:N", legend=None),
        tooltip=[alt.Tooltip("after:Q", title=t("why.dla.axis.after")), alt.Tooltip("series:N", title=t("why.dla.series")),
                 alt.Tooltip("value:Q", title=t("why.dla.axis.value"), format=".3f")],
    ).properties(height=260)


def dla_panel(dla: at.LogitAttribution) -> None:
    st.subheader(t("why.dla.title"))
    st.markdown(t("why.dla.text"))
    st.caption(t("why.dla.check", total=fmt_float(dla.total, 4), logit=fmt_float(dla.logit, 4),
                 diff=fmt_float(dla.total - dla.logit, 6)))
    if dla.softcapped:
        st.caption(t("why.dla.softcap"))
    df = dla_frame(dla)
    show(dla_chart(df))
    st.caption(t("why.dla.layers.caption", embed=fmt_float(dla.embed, 3)))
    show(head_grid(head_frame(dla.heads), t("why.dla.axis.value"), diverging=True), height=GRID_HEIGHT + 60)
    layer, head = np.unravel_index(int(np.argmax(np.abs(dla.heads))), dla.heads.shape)
    st.caption(t("why.dla.heads.caption", n=dla.heads.size, layers=dla.heads.shape[0], heads=dla.heads.shape[1],
                 best=f"{head_name(int(layer), int(head))} ({fmt_float(float(dla.heads[layer, head]), 3)})"))
    show(lens_chart(lens_frame(dla)))
    st.caption(t("why.dla.lens.caption"))
    downloads(df, "why-direct-logit-attribution", "why_dla")


# ---------------------------------------------------------------- input attribution


def method_name(method: str) -> str:
    return t(f"why.method.{method}", n=IG_STEPS)


def attribution_frame(tokens: list[mb.TokenInfo], scores: np.ndarray) -> pd.DataFrame:
    return pd.DataFrame([{"position": i, "label": token_label(tokens, i), "token": tokens[i].text,
                          "score": float(scores[i])} for i in range(len(scores))])


def attribution_chart(df: pd.DataFrame) -> alt.Chart:
    order = list(df["label"])
    return alt.Chart(df).mark_bar().encode(
        x=alt.X("score:Q", title=t("why.attr.axis.score")),
        y=alt.Y("label:N", sort=order, title=t("why.attr.axis.token")),
        color=alt.condition("datum.score >= 0", alt.value(FOR), alt.value(AGAINST)),
        tooltip=[alt.Tooltip("label:N", title=t("why.attr.axis.token")),
                 alt.Tooltip("score:Q", title=t("why.attr.axis.score"), format=".4f")],
    ).properties(height=max(160, 22 * len(df)))


def completeness(result: at.InputAttribution) -> None:
    st.markdown(f"**{t('why.check.title')}**")
    c1, c2, c3 = st.columns(3)
    c1.metric(t("why.check.sum"), fmt_float(result.total, 3))
    c2.metric(t("why.check.diff"), fmt_float(result.value - result.baseline_value, 3))
    c3.metric(t("why.check.residual"), fmt_float(result.residual, 4))
    diff = abs(result.value - result.baseline_value)
    pct = fmt_pct(abs(result.residual) / diff, 2) if diff > 0 else "—"
    if result.method == "ig":
        st.caption(t("why.check.ig", n=result.steps, tried=" → ".join(str(n) for n in result.tried), pct=pct,
                     bound=fmt_pct(at.IG_BOUND, 0), floor=fmt_float(at.IG_FLOOR, 2)))
        if not result.complete:
            st.warning(t("why.check.poor", n=result.steps), icon=":material/warning:")
    else:
        st.caption(t("why.check.gxi", pct=pct))


def attribution_ask(name: str, ids: tuple[int, ...], target: at.Target, device: str = "cpu") -> str | None:
    """The method picker, and the button before the first run of these inputs: the method to run, or None while
    the visitor has not asked (a run already asked for is shown again at once: it is cached)."""
    st.subheader(t("why.attr.title"))
    names = {m: method_name(m) for m in at.METHODS}
    if st.session_state.get(METHOD) not in at.METHODS:
        st.session_state[METHOD] = "ig"
    method = st.radio(t("why.attr.method"), at.METHODS, key=METHOD, format_func=names.get, horizontal=True)
    if (name, ids, target.token, target.contrast, method) in st.session_state.setdefault("_why_done", set()):
        return method
    schedule = at.IG_SCHEDULE
    st.caption(t("why.attr.hint", n=schedule[0], more=", ".join(str(n) for n in schedule[1:-1]) or schedule[-1],
                 cap=schedule[-1], bound=fmt_pct(at.IG_BOUND, 0), device=device.upper()))
    return method if st.button(t("why.attr.run"), icon=":material/play_arrow:", key="why_attr_run") else None


@contextmanager
def attribution_running(method: str):
    """A progress bar while an attribution runs: yields progress(fraction done) for compute; the bar says how many
    seconds it has run, and goes once it ends."""
    text = t("why.attr.running", method=method_name(method))
    bar = st.progress(0.0, text=text)
    started = time.monotonic()
    try:
        yield lambda fraction: bar.progress(min(1.0, fraction), text=f"{text} ({time.monotonic() - started:.0f} s)")
    finally:
        bar.empty()


def attribution_result(name: str, ids: tuple[int, ...], target: at.Target, method: str, tokens: list[mb.TokenInfo],
                       result: at.InputAttribution, seconds: float) -> None:
    st.session_state.setdefault("_why_done", set()).add((name, ids, target.token, target.contrast, method))
    df = attribution_frame(tokens[: len(ids)], result.scores)
    show(attribution_chart(df))
    st.caption(t("why.attr.caption", method=method_name(method)))
    completeness(result)
    st.caption(t("why.attr.time", s=fmt_float(seconds, 1)))
    downloads(df, "why-input-attribution", "why_attr")


# ---------------------------------------------------------------- attention beside attribution


def vs_frame(tokens: list[mb.TokenInfo], attention: np.ndarray, scores: np.ndarray) -> pd.DataFrame:
    mag = np.abs(scores)
    share = mag / mag.sum() if mag.sum() > 0 else mag
    rows = []
    for i in range(len(scores)):
        rows.append({"label": token_label(tokens, i), "series": t("why.vs.attention"), "share": float(attention[i])})
        rows.append({"label": token_label(tokens, i), "series": t("why.vs.attribution"), "share": float(share[i])})
    return pd.DataFrame(rows)


def vs_chart(df: pd.DataFrame) -> alt.Chart:
    series = [t("why.vs.attention"), t("why.vs.attribution")]
    order = list(dict.fromkeys(df["label"]))
    return alt.Chart(df).mark_bar().encode(
        y=alt.Y("label:N", sort=order, title=t("why.attr.axis.token")),
        yOffset=alt.YOffset("series:N", sort=series),
        x=alt.X("share:Q", title=t("why.vs.axis.share"), axis=alt.Axis(format="%")),
        color=alt.Color("series:N", title=t("why.vs.series"), sort=series, legend=alt.Legend(orient="top"),
                        scale=alt.Scale(domain=series, range=[ATTENTION, ATTRIBUTION])),
        tooltip=[alt.Tooltip("label:N", title=t("why.attr.axis.token")), alt.Tooltip("series:N", title=t("why.vs.series")),
                 alt.Tooltip("share:Q", title=t("why.vs.axis.share"), format=".1%")],
    ).properties(height=max(200, 36 * (len(df) // 2)))


def vs_caption(attention: np.ndarray, view: str, method: str) -> str:
    """The caption under attention vs attribution, with <bos>'s measured share in the view drawn (review A, W4):
    "much attention" only above the heads table's own threshold."""
    bos, limit = float(attention[0]), heads_view.THRESHOLDS["bos"]
    key = "why.vs.caption.sink" if bos > limit else "why.vs.caption"
    return t(key, view=view, method=method, p=fmt_pct(bos), pct=fmt_pct(limit, 0))


def ind_map_caption(ind: at.Induction, layer: int, head: int, name: str) -> str:
    """The caption under one head's map, from its induction score (review A, W2): the shifted diagonal is
    announced only for a head that scores above IND_SHARE."""
    score = float(ind.scores[layer, head])
    key = "why.ind.map.caption" if score > IND_SHARE else "why.ind.map.caption.weak"
    return t(key, head=name, s=fmt_float(score, 2), n=ind.scores.size, median=fmt_float(float(np.median(ind.scores)), 3),
             pct=fmt_pct(IND_SHARE, 0))


def vs_view_name(info: mb.ModelInfo, layer: int, head: int) -> str:
    where = t("why.vs.avg_layers", n=info.n_layers) if layer == AVG else t("why.vs.layer.n", n=layer_no(layer))
    who = t("why.vs.avg_heads", n=info.n_heads) if head == AVG else t("why.vs.head.n", n=head_no(head))
    return f"{where}, {who}"


def vs_view(info: mb.ModelInfo, result: at.InputAttribution | None) -> tuple[int | None, int | None] | None:
    """The layer and head whose attention goes beside the attribution (None: averaged), or None before there is
    an attribution to compare with."""
    st.subheader(t("why.vs.title"))
    st.markdown(t("why.vs.text"))
    if result is None:
        st.caption(t("why.vs.need"))
        return None
    c1, c2 = st.columns(2)
    layers = {AVG: t("why.vs.avg_layers", n=info.n_layers)} | {i: t("why.vs.layer.n", n=layer_no(i))
                                                                 for i in range(info.n_layers)}
    heads = {AVG: t("why.vs.avg_heads", n=info.n_heads)} | {i: t("why.vs.head.n", n=head_no(i)) for i in range(info.n_heads)}
    for key, options in ((VS_LAYER, layers), (VS_HEAD, heads)):
        if st.session_state.get(key) not in options:
            st.session_state[key] = AVG
    layer = c1.selectbox(t("why.vs.layer"), list(layers), key=VS_LAYER, format_func=layers.get)
    head = c2.selectbox(t("why.vs.head"), list(heads), key=VS_HEAD, format_func=heads.get)
    return None if layer == AVG else layer, None if head == AVG else head


def vs_result(info: mb.ModelInfo, view: tuple[int | None, int | None], tokens: list[mb.TokenInfo],
              attention: np.ndarray, result: at.InputAttribution, method: str) -> None:
    layer, head = (AVG if v is None else v for v in view)
    show(vs_chart(vs_frame(tokens, attention, result.scores)))
    st.caption(vs_caption(attention, vs_view_name(info, layer, head), method_name(method)))
    st.markdown(t("why.vs.disagree"))
    rows = [{t("why.vs.col.position"): d.position, t("why.vs.col.token"): tokens[d.position].display,
             t("why.vs.col.attention"): fmt_pct(d.attention), t("why.vs.col.attribution"): fmt_pct(d.attribution),
             t("why.vs.col.sign"): t("why.vs.sign.for") if d.signed >= 0 else t("why.vs.sign.against")}
            for d in at.disagreements(attention, result.scores)]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")  # model text: a dataframe, never Markdown


# ---------------------------------------------------------------- induction heads


def loss_frame(ind: at.Induction) -> pd.DataFrame:
    return pd.DataFrame([{"position": i, "loss": float(v),
                          "copy": t("why.ind.copy.1") if i < 1 + ind.n else t("why.ind.copy.2")}
                         for i, v in enumerate(ind.loss)])


def loss_chart(df: pd.DataFrame) -> alt.Chart:
    copies = [t("why.ind.copy.1"), t("why.ind.copy.2")]
    return alt.Chart(df).mark_line(point=True).encode(
        x=alt.X("position:Q", title=t("why.ind.axis.position")),
        y=alt.Y("loss:Q", title=t("why.ind.axis.loss")),
        color=alt.Color("copy:N", title=t("why.ind.copy"), sort=copies, legend=alt.Legend(orient="top"),
                        scale=alt.Scale(domain=copies, range=[LENS, ATTRIBUTION])),  # not for/against's
        tooltip=[alt.Tooltip("position:Q", title=t("why.ind.axis.position")), alt.Tooltip("copy:N", title=t("why.ind.copy")),
                 alt.Tooltip("loss:Q", title=t("why.ind.axis.loss"), format=".2f")],
    ).properties(height=260)


def pattern_frame(pattern: np.ndarray) -> pd.DataFrame:
    n = pattern.shape[0]
    q, k = np.tril_indices(n)
    return pd.DataFrame({"query": q, "key": k, "weight": pattern[q, k].astype(float)})


def pattern_chart(df: pd.DataFrame) -> alt.Chart:
    return alt.Chart(df).mark_rect().encode(
        x=alt.X("key:O", title=t("why.ind.axis.key"), axis=alt.Axis(labelAngle=0, values=list(range(0, 64, 5)))),
        y=alt.Y("query:O", title=t("why.ind.axis.query"), axis=alt.Axis(values=list(range(0, 64, 5)))),
        color=alt.Color("weight:Q", title=t("why.ind.axis.weight"), scale=alt.Scale(scheme=SEQUENTIAL, domain=[0, 1])),
        tooltip=[alt.Tooltip("query:O", title=t("why.ind.axis.query")), alt.Tooltip("key:O", title=t("why.ind.axis.key")),
                 alt.Tooltip("weight:Q", title=t("why.ind.axis.weight"), format=".3f")],
    ).properties(height=420)


def induction_ask(name: str) -> int | None:
    """The seed of the random sequence, and the button before its first run: the seed to run, or None."""
    st.subheader(t("why.ind.title"))
    st.markdown(t("why.ind.text", n=IND_TOKENS))
    if st.session_state.get(SEED) not in range(100):
        st.session_state[SEED] = 0
    seed = int(st.number_input(t("why.ind.seed"), min_value=0, max_value=99, step=1, key=SEED))
    if ("induction", name, seed) in st.session_state.setdefault("_why_done", set()):
        return seed
    return seed if st.button(t("why.ind.run"), icon=":material/play_arrow:", key="why_ind_run") else None


def induction_running() -> str:
    return t("why.ind.run")


def induction_result(name: str, seed: int, ind: at.Induction, sequence: str) -> None:
    """The induction heads found on the sequence (its text: `sequence`)."""
    st.session_state.setdefault("_why_done", set()).add(("induction", name, seed))
    st.caption(t("why.ind.sequence"))
    model_text(sequence)
    df = loss_frame(ind)
    show(loss_chart(df))
    first, second = ind.loss[: ind.n].mean(), ind.loss[ind.n + 1 :].mean()
    st.caption(t("why.ind.loss.caption", a=fmt_float(first, 2), b=fmt_float(second, 2),
                 verdict=t("why.ind.drop" if second < first else "why.ind.nodrop")))
    top = ind.top(3)
    show(head_grid(head_frame(ind.scores), t("why.ind.axis.score"), diverging=False,
                   marked=[(la, he) for la, he, _s in top]), height=GRID_HEIGHT + 60)
    st.caption(t("why.ind.grid.caption", n=ind.scores.size, median=fmt_float(float(np.median(ind.scores)), 3),
                 top="; ".join(f"{head_name(la, he)} ({fmt_float(s, 2)})" for la, he, s in top)))
    names = {f"{la}.{he}": head_name(la, he) for la, he, _s in ind.top(8)}
    if st.session_state.get(IND_HEAD) not in names:
        st.session_state[IND_HEAD] = next(iter(names))
    pick = st.selectbox(t("why.ind.pick"), list(names), key=IND_HEAD, format_func=names.get)
    la, he = (int(x) for x in pick.split("."))
    show(pattern_chart(pattern_frame(ind.patterns[la, he])))
    st.caption(ind_map_caption(ind, la, he, names[pick]))
    downloads(head_frame(ind.scores)[["layer", "head_no", "value"]].rename(columns={"head_no": "head", "value": "score"}),
              "why-induction-scores", "why_ind")


# ---------------------------------------------------------------- what each head does (issue 20: measured)


def roles_ask(ids: tuple[int, ...], info: mb.ModelInfo) -> bool:
    """True once the visitor asked what each head does on these tokens (then at once: it is cached)."""
    st.subheader(t("heads.title"))
    st.markdown(t("heads.text", n=info.n_layers * info.n_heads, t=len(ids)))
    if ("roles", info.name, ids) in st.session_state.setdefault("_why_done", set()):
        return True
    return st.button(t("heads.run"), icon=":material/play_arrow:", key="why_roles_run")


def roles_result(ids: tuple[int, ...], info: mb.ModelInfo, habits) -> None:
    st.session_state.setdefault("_why_done", set()).add(("roles", info.name, ids))
    heads_view.panel(habits, len(ids), "why")
