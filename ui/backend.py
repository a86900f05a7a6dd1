"""The pages' only way to the model: one cached bundle per (model, dtype), cached traces and runs."""
from __future__ import annotations

import contextlib
import functools
import gc
import logging
import threading
import time
from contextlib import contextmanager

import streamlit as st
from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner import add_script_run_ctx, get_script_run_ctx
from streamlit.runtime.scriptrunner_utils.exceptions import StopException
from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequestType

import model_backend as mb
from model_backend.runtime.loading import cache_is_valid, cache_path, catalog_entry, pick_device, pick_dtype
from model_backend.runtime.memo import SharedMemo, cached, key_maker, seal
from ui.i18n import t
from ui.untrusted import code_span

log = logging.getLogger("token_by_token")

PREPARE_EXPECTED_S = 50.0  # measured first preparation on 2 CPU cores; drives the progress bar


@cached(1)
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


def model_label(spec: str | None = None) -> str:
    """The name of the model a page runs, as the catalogue (assets/models.json) labels it, or its spec."""
    spec = spec or current_model()
    entry = catalog_entry(spec)
    return entry["label"] if entry else spec


def current_dtype() -> str:
    return st.session_state.get("dtype") or settings().dtype


# Models whose prepared copy was found complete in this process: not checked again. Reading models.json and
# stat-ing every weight file on each model call was ~10% of a warm tokenizer visit (py-spy); a model in use is in
# memory anyway.
_READY: set[str] = set()


def _prepare_with_progress(spec: str) -> None:
    """First run only: de-quantize the GGUF in a thread while a progress bar moves."""
    if spec in _READY:
        return
    if catalog_entry(spec) is None or cache_is_valid(cache_path(spec, settings())):
        _READY.add(spec)
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
    _READY.add(spec)


# (model, dtype) pairs _bundle has loaded in this process. One that _bundle later drops (more than 3 in use) is
# loaded again without the spinner: a rare case, and only the spinner is missed.
_LOADED: set[tuple[str, str]] = set()


@cached(3, seal_values=False)  # the model itself: shared, and its weights are not ours to seal
def _bundle(spec: str, dtype: str) -> mb.ModelBundle:
    bundle = mb.load_bundle(spec, dtype, settings=settings())
    # What exists now (the libraries, the model, the tokenizer) lives as long as the server. Python's full
    # collections walked it all again and again: with 30 phones following the loop page's steps, one of 0.3 s
    # every second step, every thread stopped meanwhile (gc callbacks in the server). Frozen, they skip it.
    gc.freeze()
    return bundle


def dtype_name(dtype: str | None = None) -> str:
    """The dtype a setting means on this server ("auto" -> "bfloat16" or "float32", by device and CPU), so
    both share one model."""
    device = pick_device(settings().device)
    return str(pick_dtype(dtype or current_dtype(), device)).replace("torch.", "")


def bundle_for(dtype: str | None = None) -> mb.ModelBundle:
    """The shared model for the visitor's chosen model in this dtype (default: the visitor's dtype).

    Loaded once per process and kept; the first run prepares the cache with a progress bar.
    """
    spec, name = current_model(), dtype_name(dtype)
    try:
        if (spec, name) in _LOADED:  # in memory: no spinner (an st.spinner starts a timer thread, ~0.3 ms a
            return _bundle(spec, name)  # call, and a slider move on the temperature page makes four such calls)
        _prepare_with_progress(spec)
        with st.spinner(t("prepare.loading", model=spec)):
            bundle = _bundle(spec, name)
        _LOADED.add((spec, name))
        return bundle
    except mb.ModelUnavailable as exc:  # a clear message instead of a traceback; the log has the rest
        log.error("model %s unavailable: %s", spec, exc)
        st.error(t("err.model", detail=code_span(exc)), icon=":material/error:")
        st.stop()


CACHE_TTL_S = 3600  # how long on_model keeps a result by default (the decoding page's "kept up to 1 h")


def on_model(max_entries: int = 32, ttl: float | None = CACHE_TTL_S, seal_values: bool = True, queued: bool = True):
    """Decorator: `fn(model, *args)` becomes `fn(*args, dtype=None)`, kept per (model, dtype, args) and computed
    on the visitor's model (bundle_for(dtype)). With bundle_for, the pages' only way to the model. The one caching
    style of model_backend.runtime.memo (`cached`), keyed by the model and dtype too:

        @backend.on_model(max_entries=32)
        def mlp_inputs(model: mb.ModelBundle, prompt: str, max_tokens: int) -> np.ndarray: ...

        mlp_inputs(prompt, 512)                    # the visitor's model and dtype
        mlp_inputs(prompt, 512, dtype="float32")   # the same model in float32
        mlp_inputs.peek(prompt, 512)               # kept now? (None if not: computes nothing, waits for nothing)

    A parameter whose name starts with "_" is not part of the key. Every visitor gets the same object: its arrays
    are made read-only (seal_values=False for an object that is used, not read, such as a model copy).
    Entries go ttl seconds after they were made, or when max_entries newer ones push them out.
    queued: while other visitors' passes hold the model, say "n requests ahead of yours".
    """
    def wrap(fn):
        memo, key = SharedMemo(max_entries, ttl), key_maker(fn, skip=1)

        def full_key(args: tuple, kwargs: dict, dtype: str | None) -> tuple:
            return current_model(), dtype_name(dtype), key(args, kwargs)

        @functools.wraps(fn)
        def call(*args, dtype: str | None = None, **kwargs):
            model = bundle_for(dtype)  # loads (with progress) before anything is kept
            spec, name, k = full_key(args, kwargs, dtype)

            def compute():
                value = fn(_bundle(spec, name), *args, **kwargs)
                return seal(value) if seal_values else value

            if not queued:
                return memo.get((spec, name, k), compute)
            with queue_notice(model):
                return memo.get((spec, name, k), compute)

        call.peek = lambda *args, dtype=None, **kwargs: memo.peek(full_key(args, kwargs, dtype))
        call.clear = memo.clear
        return call

    return wrap


@on_model(max_entries=64)
def _trace(model: mb.ModelBundle, prompt: str, max_tokens: int) -> mb.Trace:
    return mb.trace(model, prompt, max_tokens=max_tokens)


_job_thread = threading.local()  # .on: the thread runs one of at_once's jobs (its notice is the caller's)


@contextmanager
def queue_notice(model: mb.ModelBundle):
    """While other visitors' work holds the model, say so: how many turns of the model are ahead and about how
    long they take (the engine serves waiting decode steps together, so a class's steps are one turn). Cleared
    after."""
    turns, seconds = model.engine.ahead()
    if not turns or getattr(_job_thread, "on", False):  # at_once's job: its siblings' turns are no one else's
        yield
        return
    box = st.empty()
    box.info(t("backend.queued", n=turns, seconds=max(1, round(seconds))), icon=":material/hourglass_top:")
    try:
        yield
    finally:
        box.empty()


def trace(prompt: str, dtype: str | None = None) -> mb.Trace:
    """A cached forward pass over the prompt (same prompt and model: no new pass)."""
    return _trace(prompt, settings().max_prompt_tokens, dtype=dtype)


@on_model(max_entries=128)
def _generation(model: mb.ModelBundle, prompt: str, params: mb.SamplingParams, record_attentions: bool,
                max_prompt: int, max_new: int) -> mb.Generation:
    return mb.generate(model, prompt, params, max_prompt_tokens=max_prompt, max_new_cap=max_new,
                       record_attentions=record_attentions)


def generation(prompt: str, params: mb.SamplingParams, record_attentions: bool = False) -> mb.Generation:
    """A whole run of the loop, cached when it is reproducible (greedy or seeded)."""
    s = settings()
    if params.greedy or params.seed is not None:
        return _generation(prompt, params, record_attentions, s.max_prompt_tokens, s.max_new_tokens)
    model = bundle_for()
    with queue_notice(model):
        return mb.generate(model, prompt, params, max_prompt_tokens=s.max_prompt_tokens,
                           max_new_cap=s.max_new_tokens, record_attentions=record_attentions)


def iter_generation(prompt: str, params: mb.SamplingParams, record_attentions: bool = False,
                    dtype: str | None = None):
    """Steps as they come, for pages that draw each token as it is made."""
    s = settings()
    return mb.iter_generation(bundle_for(dtype), prompt, params, max_prompt_tokens=s.max_prompt_tokens,
                              max_new_cap=s.max_new_tokens, record_attentions=record_attentions)


def forward_passes(dtype: str | None = None) -> int:
    """How many forward passes the shared model has run (tests count them around a slider move)."""
    return bundle_for(dtype).forward_passes


# ---------------------------------------------------------------- whose work, and whether it is still wanted


class MovedOn(StopException, mb.Cancelled):
    """The engine dropped this run's model work: the visitor left, or the page reran to something else. Streamlit
    ends the run quietly, as for st.stop(), and runs the pending rerun, if any (it never calls request_stop)."""


def superseded(requests) -> bool:
    """True once Streamlit would end this script run at its next element: a stop request, or a rerun request
    that preempts it (a following phone's fragment timer does not). Reads the run's ScriptRequests, which
    Streamlit keeps as `_state` and `_rerun_data` (the same test as its on_scriptrunner_yield)."""
    state = getattr(requests, "_state", None)
    if state == ScriptRequestType.STOP:
        return True
    if state == ScriptRequestType.RERUN:
        data = requests._rerun_data
        return not (data.fragment_id_queue and not data.is_fragment_scoped_rerun)
    return False


def _gone(session_id: str) -> bool:
    try:
        return Runtime.exists() and not Runtime.instance().is_active_session(session_id)
    except RuntimeError:  # the runtime went away between the two calls (a test's AppTest, a server stopping)
        return False


def _visitor_of_this_run() -> mb.Visitor | None:
    """The engine's visitor for the calling thread: the session whose script run (or fragment run) it is, or whose
    run started it (a thread given the run's context); None for a thread of nobody's run. Its turns take
    round-robin with other visitors', and its waiting or running work is dropped (MovedOn) once the run is
    superseded or the visitor's browser has gone. The engine asks for it on each request (queueing.resolve_with):
    a fragment's own run ("Next token") starts a new thread where app.py did not run."""
    ctx = get_script_run_ctx()
    if ctx is None:
        return None
    requests, session_id = ctx.script_requests, ctx.session_id
    return mb.Visitor(owner=session_id, error=MovedOn,
                      cancelled=lambda: (requests is not None and superseded(requests)) or _gone(session_id))


mb.resolve_with(_visitor_of_this_run)


def at_once(jobs: dict, tick, every: float = 0.25, model: mb.ModelBundle | None = None) -> dict:
    """Run every job (name: a function of no arguments) at once, each in a thread of this script run, and return
    {name: its result}; meanwhile call tick() in this thread every `every` seconds (a progress bar). The threads
    carry the run's context (the caches' keys read the visitor's model) and work for this visitor: their turns
    are the visitor's, so the engine takes their steps together, in one pass a step. The first job's error (in
    `jobs` order) is raised here, once every job has ended.

    If this thread leaves early (tick() raises: Streamlit stops the run at its next element for a rerun, and
    resets the run's request before the threads could see it), the jobs' model work is cancelled at its next
    step (MovedOn in their threads), and this thread waits for them to end before it raises: the visitor's next
    run never queues behind them. The queue notice (queue_notice) is drawn here, for the other visitors' turns
    ahead when the jobs start (on `model`, the visitor's model by default); the jobs draw none (each one's siblings
    would count as "ahead of yours")."""
    ctx = get_script_run_ctx()
    base = _visitor_of_this_run() or mb.NOBODY
    left = threading.Event()
    who = mb.Visitor(owner=base.owner, error=base.error, cancelled=lambda: left.is_set() or base.cancelled())
    state: dict = {}

    def runner(name, job):
        def run():
            mb.serve(who)
            _job_thread.on = True
            try:
                state[name] = ("ok", job())
            except BaseException as exc:  # noqa: BLE001 - raised again below, in the run's own thread
                state[name] = ("error", exc)
        return run

    threads = []
    try:
        with queue_notice(model or bundle_for()) if ctx is not None else contextlib.nullcontext():  # others' turns, not the jobs'
            for name, job in jobs.items():
                thread = threading.Thread(target=runner(name, job), daemon=True, name=f"tbt-at-once-{name}")
                if ctx is not None:
                    add_script_run_ctx(thread, ctx)
                threads.append(thread)
                thread.start()
            for thread in threads:
                while thread.is_alive():
                    tick()
                    thread.join(every)
    except BaseException:
        left.set()
        for thread in threads:
            thread.join()
        raise
    for name in jobs:
        kind, value = state[name]
        if kind == "error":
            raise value
    return {name: state[name][1] for name in jobs}


def for_visitor(fn):
    """fn, to run in another thread for this visitor (the loop page's step computed ahead): its turns are this
    visitor's, and it is dropped only if the visitor's browser has gone (a click that reruns the page is what
    reads it)."""
    ctx = get_script_run_ctx()
    session_id = ctx.session_id if ctx is not None else None
    who = (mb.Visitor(owner=session_id, error=MovedOn, cancelled=lambda: _gone(session_id)) if ctx is not None
           else mb.NOBODY)  # a pool's thread keeps no earlier task's visitor

    def run(*args, **kwargs):
        mb.serve(who)
        return fn(*args, **kwargs)

    return run
