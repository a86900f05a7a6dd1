"""Pipeline overview: one prompt through the eight stages, with the real model's numbers at each.
Layout only: ui.pipeline.compute computes (one cached forward pass, through the model's queue), ui.pipeline.draw
draws."""
import streamlit as st

from ui import mlp_compare, weights_view
from ui.i18n import t
from ui.nav import next_page_link
from ui.pipeline import compute, draw
from ui.share import publish, restore, share_box
from ui.widgets import intro, prompt_box, truncation_notice


def section(number: int, stage: str) -> None:
    st.subheader(f"{number} · {t(f'pipeline.stage.{stage}')}")
    st.markdown(t(f"pipeline.{stage}.what"))


@st.fragment
def controls(prompt: str, tr, sm, chosen, slots: dict, params: list) -> None:
    """The panels with controls of their own, and the link. One fragment writing into the page's places for
    them: moving a control reruns these (and the link follows), not the whole page."""
    with slots["embedding"]:
        draw.embedding_panel(tr)
    with slots["attention"]:
        draw.attention_panel(tr)
    with slots["mlp"]:
        layer = draw.mlp_layer(tr.info)
        draw.mlp_panel(compute.mlp(prompt, layer), layer)
    with slots["sampling"]:
        seed = draw.seed()
        draw.sampling_panel(sm, chosen, seed, *compute.drawn(tr, seed))
    with slots["share"]:
        share_box("pipeline", params)


def stages(prompt: str) -> dict:
    """Every stage; the panels with controls get an empty place here, filled by `controls`."""
    slots = {}
    tr = compute.trace(prompt)  # one cached forward pass: every panel below reads it
    truncation_notice(tr.truncated_from, len(tr.tokens))
    sm = compute.softmax(prompt, tr)  # over the trace's logits, no forward pass; kept per prompt
    chosen = compute.token(sm.ids[0])
    draw.overview(prompt, tr, sm, chosen)

    section(1, "input")
    st.markdown(t("pipeline.input.fact", n=len(prompt)))
    section(2, "tokens")
    draw.tokens_panel(tr)
    section(3, "embedding")
    slots["embedding"] = st.container()
    section(4, "attention")
    slots["attention"] = st.container()
    section(5, "mlp")
    slots["mlp"] = st.container()
    with st.expander(t("mlp.cmp.title"), icon=":material/compare_arrows:"):  # the seed's "x4 with GELU" vs this model
        mlp_compare.compare_panel(tr.info, gated=compute.gated())
    st.subheader(t("pipeline.res.title"))
    st.markdown(t("pipeline.res.what"))
    draw.residual_panel(tr)
    section(6, "softmax")
    draw.output_layer_panel(tr.info, compute.output(prompt, tr))
    draw.softmax_panel(sm, compute.softmax_names(sm))
    section(7, "sampling")
    slots["sampling"] = st.container()
    section(8, "output")
    draw.output_panel(prompt, chosen)

    st.subheader(t("pipeline.lens.title"))
    st.markdown(t("pipeline.lens.what"))
    draw.lens_panel(tr)
    st.subheader(t("pipeline.card.title"))
    draw.model_card(tr.info, compute.model_label(), weights_view.detail(tr.info))
    return {"slots": slots, "args": (prompt, tr, sm, chosen)}


def render() -> None:
    intro("pipeline")
    params = draw.link_params(compute.info())
    restore("pipeline", params)  # a shared link's prompt and settings, before any widget exists
    for p in params[1:]:
        st.session_state.setdefault(p.key, p.default)
    publish("pipeline", params)  # a notice here, at the top, if the link had bad values
    prompt = prompt_box("pipeline", height=68)
    drawn = stages(prompt) if prompt is not None else None
    if drawn is None:
        share_box("pipeline", params)
    else:
        slots = {**drawn["slots"], "share": st.container()}
        controls(*drawn["args"], slots, params)
    next_page_link("pipeline")


render()
