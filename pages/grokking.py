"""Grokking: a model of a + b mod p memorises first and generalises thousands of steps later; inside, waves."""
import streamlit as st

from model_backend.lessons.grokking import GrokConfig
from model_backend.lessons.grokking.training import GROKKED_AT
from ui import grokking_view as view
from ui.i18n import fmt_float, fmt_int, fmt_pct, t
from ui.nav import next_page_link
from ui.share import restore, share_box
from ui.widgets import intro


def shipped_section() -> None:
    """The run shipped in assets/: curves with the phases marked, then its Fourier view with a step scrubber."""
    st.header(t("grokking.shipped.header"))
    run = view.shipped()
    if run is None:
        st.warning(t("grokking.missing"), icon=":material/folder_off:")
        return
    cfg = run.config
    st.markdown(t("grokking.shipped.text", frac=fmt_pct(cfg.train_frac, 0), pairs=fmt_int(cfg.p ** 2), p=cfg.p,
                  wd=fmt_float(cfg.weight_decay, 1), lr=view.fmt_small(cfg.lr), steps=fmt_int(cfg.max_steps)))
    steps = [int(s) for s in run.checkpoint_steps]
    selected = st.session_state.get("grok_ship_step")
    view.curve_panel("grok_ship", [("p = " + str(cfg.p), run.curves)], steps,
                     selected if selected in steps else steps[-1], p=cfg.p)
    st.caption(t("grokking.shipped.same"))

    st.header(t("grokking.fourier.header"))
    st.markdown(t("grokking.fourier.text"))
    step = view.step_slider("grok_ship", steps)
    view.fourier_panel("grok_ship", steps, run.embeddings, step)
    st.markdown(t("grokking.identity"))


def render() -> None:
    run = view.shipped()
    params = view.link_params(run.checkpoint_steps if run is not None else ())
    restore("grokking", params)  # a shared link's settings, before any widget exists
    intro("grokking")
    shipped_section()
    st.header(t("grokking.live.header"))
    secs, runs = view.measured_grok_seconds()
    st.markdown(t("grokking.live.text", hidden=GrokConfig().d_hidden, secs=fmt_float(secs, 0), runs=runs,
                  acc=fmt_pct(GROKKED_AT, 0)))
    view.live_panel()
    share_box("grokking", params)
    next_page_link("grokking")


render()
