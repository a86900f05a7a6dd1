"""Why this token? Which input tokens, layers and heads made the model write it, beside attention; induction heads.
Layout only: ui.why.compute computes (float32, cached, through the model's queue), ui.why.draw draws."""
import streamlit as st

from model_backend.lessons import why as at
from ui import a11y
from ui.i18n import fmt_float, t
from ui.nav import next_page_link
from ui.share import publish, restore
from ui.why import compute, draw
from ui.widgets import intro, model_text, prompt_box, truncation_notice


def explain(prompt: str) -> None:
    info = compute.model().info  # float32 for gradients; loaded once per process, on the first click
    st.caption(t("why.prompt.cap", n=compute.MAX_PROMPT_TOKENS, m=compute.NEW_TOKENS))
    with st.spinner(t("why.running")):
        cont = compute.continuation(prompt)  # cached per prompt, queued for the model
    truncation_notice(cont.truncated_from, len(cont.prompt_ids))
    st.subheader(t("why.gen.title"))
    model_text(cont.generation.completion)
    st.caption(t("why.gen.caption", m=len(cont.generation.steps), cap=compute.NEW_TOKENS))  # EOS may stop it early
    if not cont.generation.steps:
        return
    tokens = compute.tokens(cont.ids)
    c1, c2 = st.columns(2)
    with c1:
        pos = draw.pick_token(cont)
    step = cont.generation.steps[pos]
    with c2:
        target = at.Target(step.token.id, draw.pick_contrast(step, compute.tokens, compute.contrast_default))
    ids = tuple(cont.prefix(pos))
    dla = compute.dla(ids, target)
    st.caption(t("why.target.one" if target.contrast is None else "why.target.pair"))
    shown = step.token.display if target.contrast is None else (
        f"{step.token.display} − {compute.tokens([target.contrast])[0].display}")
    model_text(f"{shown}   ({t('why.target.value', v=fmt_float(dla.logit, 3))})")
    draw.dla_panel(dla)
    a11y.announce_once(("why", cont.ids, pos, target), t("a11y.live.explained", token=f"“{step.token.display}”"))
    result = attribution(info, ids, target, tokens)
    view = draw.vs_view(info, result)
    if view is not None:
        draw.vs_result(info, view, tokens, compute.attention(ids, *view), result, st.session_state.get(draw.METHOD, "ig"))
    with st.expander(t("why.limits.title"), icon=":material/info:"):
        st.markdown(t("why.limits.text"))
    if (seed := draw.induction_ask(info.name)) is not None:
        with st.spinner(draw.induction_running()):
            ind = compute.induction(seed)
        draw.induction_result(info.name, seed, ind, compute.decode(ind.ids[1 : 1 + ind.n]))
    if draw.roles_ask(cont.ids, info):
        draw.roles_result(cont.ids, info, compute.habits(cont.ids))  # one cached pass (the model queue)


def attribution(info, ids: tuple[int, ...], target: at.Target, tokens) -> at.InputAttribution | None:
    """Input attribution on a click: cached per (model, ids, token, contrast, method), queued for the model."""
    method = draw.attribution_ask(info.name, ids, target, info.device)
    if method is None:
        return None
    with draw.attribution_running(method) as progress:
        result, seconds = compute.attribution(ids, target, method, progress)
    draw.attribution_result(info.name, ids, target, method, tokens, result, seconds)
    return result


def render() -> None:
    intro("why")
    info = compute.info()  # the visitor's model, already loaded: nothing heavy before the click
    params = draw.link_params(info)
    st.session_state.setdefault("prompt_why", draw.preset()["prompt"])  # the hallucination page's Einstein example
    restore("why", params)  # a shared link's prompt and settings, before any widget exists
    publish("why", params)
    prompt = prompt_box("why")
    if prompt is not None and draw.asked(prompt):
        explain(prompt)
    draw.share(info)
    next_page_link("why")


render()
