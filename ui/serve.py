"""Start the Streamlit server for app.py: `python -m ui.serve [streamlit options]`.

`make run`, the Dockerfile and the tests start the app through this module rather than bare
`streamlit run app.py`. First: Streamlit still auto-discovers a `pages/` folder (its older
multipage mode) until app.py has called st.navigation once in the process. On a fresh server, a
visitor arriving by a deep link such as /temperature would get that page run alone, without
app.py's sidebar, language or theme. Turning the old mode off before the server starts fixes it.

It also stops the one poller that `fileWatcherType = "none"` does not stop: Streamlit's bootstrap
watches every config.toml path (~/.streamlit and ./.streamlit) with a PollingPathWatcher, forced to
"poll", re-reading and hashing each path every 0.2 s so that a changed config reloads. A server
reads its config once.

Its listening socket gets TCP_NODELAY onto every connection. Streamlit 1.67's Starlette server binds
the socket itself with `socket.socket(family)`, whose protocol number is 0, and asyncio sets
TCP_NODELAY only on sockets whose protocol is IPPROTO_TCP. Without it, every reply after the first on a
kept-alive connection waited for the browser's delayed ACK, about 40 ms: 50 requests in a row took
2.2 s instead of 0.05 s, and a fresh browser's ~125 static files took ~0.9 s instead of ~0.2 s.

A following phone's timer cannot blank its page (`stale_fragment_runs`). A fragment's timer tick names the
page the browser showed when it ticked. A tick sent just before a switch to another page (ui/live_class/follow.py)
can reach the server after the new page's run began, and wait behind it. Streamlit 1.67 then started a run for
the old page's fragments even when that page's run had dropped them: the run found nothing to draw, but its start
told the browser that the old page was back, and the browser cleared the page it showed. The new page's own
fragment then drew into the emptied page ("Bad delta path index"), and the browser's app stopped: a blank phone
until a reload (seen in CI and under load in tests/e2e/test_live_class_browser.py).

The compiled scripts stay compiled (`kept_while_unwatched`). Streamlit clears its script cache whenever the last
session leaves, so that an unwatched server picks up an edited script then; the next visitor of an empty server
parsed and compiled app.py and the page again (5 and 3-4 ms here). An edited app.py or page now takes effect at the
next restart, as the ui/ modules it imports already did.

Streamlit's frontend files are answered from memory after their first request (ui/static_cache.py): a fresh
browser fetches 70-160 of them, and Streamlit reads each from disk through worker threads.

The theme's part of a run's first message is built once (`theme_read_once`). Streamlit 1.67 starts every run, a
phone's 0.5 s follow timer's fragment run included, with a new_session message that carries the six [theme]
sections, and reads each by walking all ~370 config options under a lock: py-spy put 8.7% of the server's
held-GIL samples there while 30 phones followed the teacher to the pipeline page (more than the follow timers' own
code). The config is read once at start (no watcher, above), so the theme's values cannot change while the server
runs.

Python's cyclic collector runs less often (`fewer_collections`, GC_THRESHOLD). With the default thresholds a class
following the teacher from page to page made about one full collection per move (45 in 40), 0.08-0.13 s each on
average and up to 0.27 s, with every thread stopped, the event loop and the model's passes too. What they walk is
what the visitors' sessions build (ui/backend.py freezes what exists once the model is loaded).

And it imports model_backend before Streamlit, so that the process-wide thread policy (model_backend's
THREAD_POLICY) is in the environment before numpy and torch load their thread pools.
"""
from __future__ import annotations

import gc
import socket
import sys
from collections.abc import Callable
from pathlib import Path

import model_backend  # noqa: F401  first: its thread policy is set before Streamlit loads numpy

# isort: split
from streamlit import config
from streamlit.runtime import app_session
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.runtime.scriptrunner.script_runner import ScriptRunner
from streamlit.web import bootstrap, cli
from streamlit.web.server.starlette import starlette_server

from ui import warm
from ui.static_cache import StaticCache, frontend_files

APP = Path(__file__).resolve().parent.parent / "app.py"

# Python's collector thresholds for the server (default 700, 10, 10). CPython 3.11 collects the young generation once
# 700 more container objects were made than freed since its last collection, the middle one every 10 young
# collections, and the old one (a full collection) every 10 middle ones, and then only if what reached it since its
# last full collection is a quarter of what that one left. 10,000 instead of 700 slows all three clocks 14-fold.
# 40 moves of a class of 30 between the pipeline and why pages (this 2-core EPYC, gc callbacks in the server):
# 45 full collections in 3.4 CPU-s (0.08 s each, the longest 0.23 s) and 6.1 CPU-s of collections in all, against
# 2 full collections in 0.3 CPU-s and 2.3 CPU-s; the server's memory at the end 1,956 against 1,964 MB. The moves'
# own times stayed within their spread: what this removes is most of the pauses (a full collection stops every
# thread). A server running for hours was not measured. (docs/performance.md)
GC_THRESHOLD = (10_000, 10, 10)


def fewer_collections() -> None:
    """The server's collector thresholds (GC_THRESHOLD)."""
    gc.set_threshold(*GC_THRESHOLD)


def tcp_listener(bind: Callable[[str, int, int], socket.socket]) -> Callable[[str, int, int], socket.socket]:
    """Wrap a bind function so that its listening socket says IPPROTO_TCP: the connections it accepts
    inherit that, and asyncio then turns Nagle's algorithm off on each (TCP_NODELAY)."""
    def bind_tcp(address: str, port: int, backlog: int) -> socket.socket:
        sock = bind(address, port, backlog)
        if sock.type != socket.SOCK_STREAM or sock.proto == socket.IPPROTO_TCP:
            return sock
        tcp = socket.socket(sock.family, socket.SOCK_STREAM, socket.IPPROTO_TCP, fileno=sock.detach())
        tcp.setblocking(False)  # the descriptor is non-blocking already; the object must say so too
        tcp.set_inheritable(True)
        return tcp
    return bind_tcp


def stale_fragment_runs(run: Callable) -> Callable:
    """Wrap ScriptRunner._run_script so that a run of fragments alone is skipped, before it tells the browser
    anything, when it would draw nothing on the page the session shows: none of its fragments is still kept, or
    it names another page than the one the session's last run showed."""
    def run_script(runner, rerun_data) -> None:
        queue = rerun_data.fragment_id_queue
        pages, storage = getattr(runner, "_pages_manager", None), getattr(runner, "_fragment_storage", None)
        if queue and pages is not None and storage is not None:  # Streamlit 1.67's names (a test pins them)
            current = pages.current_page_script_hash
            if not any(storage.contains(f) for f in queue) or (
                    rerun_data.page_script_hash and current and rerun_data.page_script_hash != current):
                return
        run(runner, rerun_data)
    run_script.tbt_wrapped = run
    return run_script


def kept_while_unwatched(clear: Callable) -> Callable:
    """Wrap ScriptCache.clear so that it keeps the scripts' compiled code while no file is watched
    (server.fileWatcherType "none", .streamlit/config.toml). Streamlit 1.67 clears it whenever the last session
    leaves, so that an edited script is read again then; a visitor who came to an empty server paid for parsing and
    compiling app.py and the page again. An edited app.py or page now takes effect at the next restart, as the ui/
    modules it imports already did."""
    def clear_if_watched(cache) -> None:
        from streamlit import config

        if config.get_option("server.fileWatcherType") != "none":
            clear(cache)
    clear_if_watched.tbt_wrapped = clear
    return clear_if_watched


def theme_read_once(populate: Callable) -> Callable:
    """Wrap app_session._populate_theme_msg so that each [theme...] section's message is built once per parsed
    config (the config's dict of options is replaced when it is parsed again) and merged into each new_session
    message from its bytes."""
    kept: dict[str, tuple[object, bytes]] = {}

    def populate_theme_msg(msg, section: str = "theme") -> None:
        options = config._config_options  # Streamlit 1.67's name; None until the config is parsed
        if options is None:
            return populate(msg, section)
        hit = kept.get(section)
        if hit is None or hit[0] is not options:
            built = type(msg)()
            populate(built, section)
            hit = kept[section] = (options, built.SerializeToString())
        if hit[1]:  # an empty section stays absent, as Streamlit leaves it (merging b"" would mark it present)
            msg.MergeFromString(hit[1])
    populate_theme_msg.tbt_wrapped = populate
    return populate_theme_msg


def static_from_memory(create: Callable) -> Callable:
    """Wrap the server's app factory so that its app answers the frontend's files from memory (StaticCache), under
    the configured base path."""
    def create_app(*args, **kwargs):
        from streamlit import config, file_util

        base = (config.get_option("server.baseUrlPath") or "").strip("/")
        return StaticCache(create(*args, **kwargs), frontend_files(file_util.get_static_dir()),
                           prefix=f"/{base}/static/" if base else "/static/")
    create_app.tbt_wrapped = create
    return create_app


def main(argv: list[str] | None = None, app: Path = APP) -> None:
    PagesManager.uses_pages_directory = False  # app.py's st.navigation is the only page registry
    if hasattr(starlette_server, "_bind_socket"):  # Streamlit 1.67's name; see the module's text
        starlette_server._bind_socket = tcp_listener(starlette_server._bind_socket)
    if hasattr(starlette_server, "create_starlette_app") and not hasattr(starlette_server.create_starlette_app,
                                                                          "tbt_wrapped"):  # Streamlit 1.67's name
        starlette_server.create_starlette_app = static_from_memory(starlette_server.create_starlette_app)
    if not hasattr(ScriptCache.clear, "tbt_wrapped"):
        ScriptCache.clear = kept_while_unwatched(ScriptCache.clear)
    if hasattr(app_session, "_populate_theme_msg") and not hasattr(app_session._populate_theme_msg, "tbt_wrapped"):
        app_session._populate_theme_msg = theme_read_once(app_session._populate_theme_msg)  # Streamlit 1.67's name
    if not hasattr(ScriptRunner._run_script, "tbt_wrapped"):
        ScriptRunner._run_script = stale_fragment_runs(ScriptRunner._run_script)
    if hasattr(bootstrap, "_install_config_watchers"):  # Streamlit 1.67's name; without it, nothing polls
        bootstrap._install_config_watchers = lambda flag_options: None
    args = list(sys.argv[1:] if argv is None else argv)
    fewer_collections()
    warm.start(args)  # the pages' shared one-time work, before the health check says ready (ui/warm.py)
    sys.argv = ["streamlit", "run", str(app), *args]
    cli.main()


if __name__ == "__main__":
    main()
