"""Why this token? Which input tokens, layers and heads made the model write it, beside attention; induction heads."""
import streamlit as st

from model_backend.lessons import why as at
from ui import a11y, backend
from ui import why_view as view
from ui.i18n import fmt_float, t
from ui.nav import next_page_link
from ui.share import publish, restore
from ui.widgets import intro, model_text, prompt_box, truncation_notice


def explain(prompt: str) -> None:
    model = backend.bundle_for(view.DTYPE)  # float32 for gradients; loaded once per process, on the first click
    st.caption(t("why.prompt.cap", n=view.MAX_PROMPT_TOKENS, m=view.NEW_TOKENS))
    with st.spinner(t("why.running")):
        cont = view._continuation(prompt, dtype=view.DTYPE)  # cached per prompt, queued for the model
    truncation_notice(cont.truncated_from, len(cont.prompt_ids))
    st.subheader(t("why.gen.title"))
    model_text(cont.generation.completion)
    st.caption(t("why.gen.caption", m=view.NEW_TOKENS))
    if not cont.generation.steps:
        return
    tokens = view.tokens_of(model, cont.ids)
    c1, c2 = st.columns(2)
    with c1:
        pos = view.pick_token(cont)
    step = cont.generation.steps[pos]
    with c2:
        target = at.Target(step.token.id, view.pick_contrast(step, model))
    ids = tuple(cont.prefix(pos))
    dla = view._dla(ids, target.token, target.contrast, dtype=view.DTYPE)  # one cached pass
    st.caption(t("why.target.one" if target.contrast is None else "why.target.pair"))
    shown = step.token.display if target.contrast is None else (
        f"{step.token.display} − {view.tokens_of(model, [target.contrast])[0].display}")
    model_text(f"{shown}   ({t('why.target.value', v=fmt_float(dla.logit, 3))})")
    view.dla_panel(dla)
    a11y.announce_once(("why", cont.ids, pos, target), t("a11y.live.explained", token=f"“{step.token.display}”"))
    result = view.attribution_panel(model, cont, pos, target, tokens)
    view.vs_panel(model.info, ids, tokens, result, st.session_state.get(view.METHOD, "ig"))
    with st.expander(t("why.limits.title"), icon=":material/info:"):
        st.markdown(t("why.limits.text"))
    view.induction_panel(model)
    view.roles_panel(cont.ids, model.info)


def render() -> None:
    intro("why")
    info = backend.bundle_for().info  # the visitor's model, already loaded: nothing heavy before the click
    params = view.link_params(info)
    st.session_state.setdefault("prompt_why", view.preset()["prompt"])  # the hallucination page's Einstein example
    restore("why", params)  # a shared link's prompt and settings, before any widget exists
    publish("why", params)
    prompt = prompt_box("why")
    if prompt is not None and view.asked(prompt):
        explain(prompt)
    view.share(info)
    next_page_link("why")


render()
