"""Token by Token: the entry point. Builds the navigation and the shared sidebar, then runs the page."""
import logging

import streamlit as st

from model_backend import model_catalog
from ui import a11y, backend, charts, live_class, nav
from ui.i18n import LANG_NAMES, LANGS, lang, t
from ui.widgets import fragment_run, prompt_presets, reset_prompt_widgets

PRESETS = prompt_presets()
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def _from_link() -> None:
    """A shared link may set the language and projection mode (read once per visitor session)."""
    if st.session_state.get("_link_read"):
        return
    st.session_state["_link_read"] = True
    if st.query_params.get("lang") in LANGS:
        st.session_state["lang"] = st.query_params.get("lang")
    if st.query_params.get("projection") in ("1", "true"):
        st.session_state["projection"] = True


_from_link()
st.set_page_config(page_title=t("app.title"), page_icon=":material/token:", layout="wide")
charts.enable()


def _use_preset() -> None:
    choice = st.session_state.get("preset")
    if choice in PRESETS:
        st.session_state["prompt"] = choice
        reset_prompt_widgets()


def _bound(widget, label: str, options: list | None, state_key: str, default, **kwargs) -> None:
    """A sidebar widget whose value lives in session_state[state_key], shared by all pages.
    options=None means a toggle (True/False)."""
    wkey = f"_w_{state_key}"
    allowed = options if options is not None else [True, False]
    if st.session_state.get(state_key) not in allowed:
        st.session_state[state_key] = default
    if st.session_state.get(wkey) not in allowed:
        st.session_state[wkey] = st.session_state[state_key]

    def copy() -> None:
        if fragment_run():  # a fragment's timer cannot change a sidebar widget: the browser resent a stale or
            st.session_state[wkey] = st.session_state[state_key]  # default value (seen on a following phone)
            return
        st.session_state[state_key] = st.session_state[wkey]

    # The current value is also the widget's default: a browser that holds no value of its own for it (the widget
    # drawn again after a run it was not in) shows that default, and sends it back with the next full run. With the
    # first option as default, a student whose language or projection mode came from the link saw Portuguese and
    # projection off, and their next press ("Send guess" is a full run) switched the page to them.
    if options is None:
        widget(label, key=wkey, value=st.session_state[wkey], on_change=copy, **kwargs)
    else:
        widget(label, options, index=options.index(st.session_state[wkey]), key=wkey, on_change=copy, **kwargs)


def sidebar() -> None:
    with st.sidebar:
        _bound(st.selectbox, t("side.language"), list(LANGS), "lang", lang(), format_func=LANG_NAMES.get)
        labels = {m["key"]: m["label"] for m in model_catalog()}
        configured = backend.settings().model
        models = list(labels) + ([configured] if configured not in labels else [])
        _bound(st.selectbox, t("side.model"), models, "model", configured, format_func=lambda k: labels.get(k, k))
        st.selectbox(t("side.presets"), PRESETS, key="preset", on_change=_use_preset, index=None,
                     placeholder=t("side.presets.pick"), help=t("side.presets.help"))
        _bound(st.toggle, t("side.projection"), None, "projection", False)
        if st.session_state.get("projection"):
            st.html(charts.PROJECTION_CSS)  # our own static CSS, never visitor text
        with st.expander(t("side.advanced")):
            names = {d: t(f"side.dtype.{d}", auto=backend.dtype_name("auto"))  # not t() inside a lambda:
                     for d in ("auto", "float32", "bfloat16")}
            _bound(st.radio, t("side.dtype"), list(names), "dtype", backend.settings().dtype,  # tests format later
                   format_func=names.get)
        live_class.sidebar_panel()
        a11y.page_setup()  # <html lang>, focus and motion styles, the live region (takes no room)


pages = nav.pages()  # the lesson pages and the class page, built once per language (ui.nav)
page = st.navigation(list(pages.values()))
page_name = next((name for name, p in pages.items() if p is page), page.url_path or "home")
st.session_state["_chart_seq"] = 0  # ui.charts numbers each chart's image buttons from here, at every full run
live_class.rejoin_from_link()  # a student's phone back after a reload or a replica that died
live_class.resume_teacher()  # and the teacher's browser, from its cookie
sidebar()
live_class.at(page_name)  # what this run is about to show (a following phone compares it with the teacher's view)
if live_class.is_student() and page_name != "live":  # the class page's own timer follows (student_status)
    with st.sidebar:
        live_class.follow()  # a student's phone: one small read every 0.5 s (no timer for anyone else)
page.run()
live_class.ran(page_name)  # what this run showed (a following phone compares it with the teacher's view)
live_class.lead(page_name)  # the teacher's page and settings, to the room
