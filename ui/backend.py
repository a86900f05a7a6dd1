"""The pages' only way to the model: one cached bundle per (model, dtype), cached traces and runs."""
from __future__ import annotations

import logging
import threading
import time
from contextlib import contextmanager

import streamlit as st

import model_backend as mb
from model_backend.loading import cache_is_valid, cache_path, catalog_entry, pick_device, pick_dtype
from ui.i18n import t
from ui.untrusted import code_span

log = logging.getLogger("token_by_token")

PREPARE_EXPECTED_S = 50.0  # measured first preparation on 2 CPU cores; drives the progress bar


@st.cache_resource(show_spinner=False)
def settings() -> mb.Settings:
    """Read once per process; the log says what this server runs (never what visitors type)."""
    s = mb.load_settings()
    device = pick_device(s.device)
    log.info("Token by Token: model=%s device=%s dtype=%s cache_dir=%s max_prompt_tokens=%d max_new_tokens=%d",
             s.model, device, str(pick_dtype(s.dtype, device)).replace("torch.", ""), s.cache_dir,
             s.max_prompt_tokens, s.max_new_tokens)
    return s


def current_model() -> str:
    return st.session_state.get("model") or settings().model


def current_dtype() -> str:
    return st.session_state.get("dtype") or settings().dtype


def _prepare_with_progress(spec: str) -> None:
    """First run only: de-quantize the GGUF in a thread while a progress bar moves."""
    if catalog_entry(spec) is None or cache_is_valid(cache_path(spec, settings())):
        return
    state = {"fraction": 0.0, "message": "prepare.assemble", "error": None}

    def work():
        try:
            mb.prepare(spec, settings(), progress=lambda f, m: state.update(fraction=f, message=m))
        except Exception as exc:  # noqa: BLE001 - shown to the visitor below, logged by prepare
            state["error"] = exc

    thread = threading.Thread(target=work, daemon=True)
    started = time.monotonic()
    thread.start()
    bar = st.progress(0.0, text=t("prepare.title"))
    while thread.is_alive():
        elapsed = time.monotonic() - started
        guess = min(0.95, elapsed / PREPARE_EXPECTED_S)
        fraction = max(state["fraction"], guess)
        bar.progress(fraction, text=f"{t('prepare.title')} — {t(state['message'])} ({elapsed:.0f} s)")
        thread.join(0.5)
    bar.empty()
    if state["error"]:
        raise state["error"]


@st.cache_resource(show_spinner=False, max_entries=3)
def _bundle(spec: str, dtype: str) -> mb.ModelBundle:
    return mb.load_bundle(spec, dtype, settings=settings())


def bundle() -> mb.ModelBundle:
    """The shared model for the visitor's chosen model and dtype (loaded once per process)."""
    spec, dtype = current_model(), current_dtype()
    try:
        _prepare_with_progress(spec)
        with st.spinner(t("prepare.loading", model=spec)):
            return _bundle(spec, dtype)
    except mb.ModelUnavailable as exc:  # a clear message instead of a traceback; the log has the rest
        log.error("model %s unavailable: %s", spec, exc)
        st.error(t("err.model", detail=code_span(exc)), icon=":material/error:")
        st.stop()


@st.cache_data(show_spinner=False, max_entries=64, ttl=3600)
def _trace(spec: str, dtype: str, prompt: str, max_tokens: int) -> mb.Trace:
    return mb.trace(_bundle(spec, dtype), prompt, max_tokens=max_tokens)


@contextmanager
def queue_notice(model: mb.ModelBundle):
    """While other visitors' passes hold the model, say so: "n requests ahead of yours" (cleared after)."""
    ahead = model.lock.queued
    if not ahead:
        yield
        return
    box = st.empty()
    box.info(t("backend.queued", n=ahead), icon=":material/hourglass_top:")
    try:
        yield
    finally:
        box.empty()


def trace(prompt: str) -> mb.Trace:
    """A cached forward pass over the prompt (same prompt and model: no new pass)."""
    with queue_notice(bundle()):  # bundle(): the model is ready, with progress on the first run
        return _trace(current_model(), current_dtype(), prompt, settings().max_prompt_tokens)


@st.cache_data(show_spinner=False, max_entries=128, ttl=3600)
def _generation(spec: str, dtype: str, prompt: str, params: mb.SamplingParams, record_attentions: bool,
                max_prompt: int, max_new: int) -> mb.Generation:
    return mb.generate(_bundle(spec, dtype), prompt, params, max_prompt_tokens=max_prompt,
                       max_new_cap=max_new, record_attentions=record_attentions)


def generation(prompt: str, params: mb.SamplingParams, record_attentions: bool = False) -> mb.Generation:
    """A whole run of the loop, cached when it is reproducible (greedy or seeded)."""
    s = settings()
    with queue_notice(bundle()):
        if params.greedy or params.seed is not None:
            return _generation(current_model(), current_dtype(), prompt, params, record_attentions,
                               s.max_prompt_tokens, s.max_new_tokens)
        return mb.generate(_bundle(current_model(), current_dtype()), prompt, params,
                           max_prompt_tokens=s.max_prompt_tokens, max_new_cap=s.max_new_tokens,
                           record_attentions=record_attentions)


def iter_generation(prompt: str, params: mb.SamplingParams, record_attentions: bool = False):
    """Steps as they come, for pages that draw each token as it is made."""
    s = settings()
    return mb.iter_generation(bundle(), prompt, params, max_prompt_tokens=s.max_prompt_tokens,
                              max_new_cap=s.max_new_tokens, record_attentions=record_attentions)


def forward_passes() -> int:
    """How many forward passes the shared model has run (tests count them around a slider move)."""
    return _bundle(current_model(), current_dtype()).forward_passes
