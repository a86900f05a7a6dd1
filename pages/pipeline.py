"""Pipeline overview: one prompt through the eight stages, with the real model's numbers at each."""
import streamlit as st

from model_backend.core.mlp import mlp_gated
from model_backend.core.tokens import token_info
from model_backend.lessons.pipeline import softmax_view
from ui import backend, mlp_compare
from ui import pipeline_view as view
from ui.i18n import t
from ui.nav import next_page_link
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
        view.embedding_panel(tr)
    with slots["attention"]:
        view.attention_panel(tr)
    with slots["mlp"]:
        view.mlp_panel(prompt, tr)
    with slots["sampling"]:
        view.sampling_panel(tr, sm, chosen)
    with slots["share"]:
        share_box("pipeline", params)


def stages(prompt: str) -> dict:
    """Every stage; the panels with controls get an empty place here, filled by `controls`."""
    slots = {}
    tr = backend.trace(prompt)  # one cached forward pass: every panel below reads it
    truncation_notice(tr.truncated_from, len(tr.tokens))
    sm = softmax_view(tr.last_logits)  # cheap: softmax over cached logits, no forward pass
    chosen = token_info(backend.bundle_for().tokenizer, sm.ids[0])
    view.overview(prompt, tr, sm, chosen)

    section(1, "input")
    st.markdown(t("pipeline.input.fact", n=len(prompt)))
    section(2, "tokens")
    view.tokens_panel(tr)
    section(3, "embedding")
    slots["embedding"] = st.container()
    section(4, "attention")
    slots["attention"] = st.container()
    section(5, "mlp")
    slots["mlp"] = st.container()
    with st.expander(t("mlp.cmp.title"), icon=":material/compare_arrows:"):  # the seed's "x4 with GELU" vs this model
        mlp_compare.compare_panel(tr.info, gated=mlp_gated(backend.bundle_for().weights))
    st.subheader(t("pipeline.res.title"))
    st.markdown(t("pipeline.res.what"))
    view.residual_panel(tr)
    section(6, "softmax")
    view.output_layer_panel(prompt, tr)
    view.softmax_panel(tr, sm)
    section(7, "sampling")
    slots["sampling"] = st.container()
    section(8, "output")
    view.output_panel(prompt, chosen)

    st.subheader(t("pipeline.lens.title"))
    st.markdown(t("pipeline.lens.what"))
    view.lens_panel(tr)
    st.subheader(t("pipeline.card.title"))
    view.model_card(tr.info)
    return {"slots": slots, "args": (prompt, tr, sm, chosen)}


def render() -> None:
    intro("pipeline")
    params = view.link_params(backend.bundle_for().info)
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
