"""A fresh replica's warm-up (ui/warm.py): which pages, where it visits, and the health gate it holds shut.

The real warm-up of a real server (`make run` visits its home page in both languages before "ok") is tested in
tests/integration/test_hosting.py; these check the rules around it without a server."""
from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import pytest
from streamlit.runtime import RuntimeState
from streamlit.runtime.runtime import Runtime

from tests.conftest import run_async  # the session's browser may hold an event loop on this thread
from ui import warm

PATH = ["home", "pipeline", "loop", "grokking"]


def test_pages_follow_the_setting_in_the_paths_order():
    assert warm.pages_to_warm(None, PATH) == PATH  # the default: every page
    assert warm.pages_to_warm(" ALL ", PATH) == PATH
    assert warm.pages_to_warm("off", PATH) == [] and warm.pages_to_warm("0", PATH) == []
    assert warm.pages_to_warm("loop, home", PATH) == ["home", "loop"]


def test_an_unknown_page_is_named_in_the_message():
    with pytest.raises(ValueError, match="unknown: homme"):
        warm.pages_to_warm("home,homme", PATH)


def test_the_server_visits_itself_on_loopback_only():
    assert warm.loopback_url("0.0.0.0", 8501) == "http://127.0.0.1:8501"
    assert warm.loopback_url("", 9000) == "http://127.0.0.1:9000"
    assert warm.loopback_url("::1", 9000) == "http://[::1]:9000"
    assert warm.loopback_url("10.0.0.5", 8501) is None  # a server bound to another address is not visited


def test_the_port_and_address_are_read_as_streamlit_reads_them():
    argv = ["--server.port", "9123", "--server.address=127.0.0.1"]
    assert warm._option(argv, "--server.port", "8501") == "9123"
    assert warm._option(argv, "--server.address", "0.0.0.0") == "127.0.0.1"
    assert warm._option([], "--server.port", "8501") == "8501"


@pytest.fixture
def fresh_ready(monkeypatch):
    """A warm-up state of its own, and Streamlit's Runtime as it was after the test."""
    monkeypatch.setattr(warm, "ready", threading.Event())
    monkeypatch.setattr(Runtime, "is_ready_for_browser_connection", Runtime.is_ready_for_browser_connection)
    return warm.ready


def test_health_says_warming_up_until_the_warm_up_ends(fresh_ready):
    runtime = SimpleNamespace(_state=RuntimeState.NO_SESSIONS_CONNECTED)  # a server that is up
    assert run_async(Runtime.is_ready_for_browser_connection.fget(runtime)) == (True, "ok")
    warm.gate_health()
    warm.gate_health()  # twice is once
    assert run_async(Runtime.is_ready_for_browser_connection.fget(runtime)) == (False, "warming up")
    fresh_ready.set()
    assert run_async(Runtime.is_ready_for_browser_connection.fget(runtime)) == (True, "ok")
    stopping = SimpleNamespace(_state=RuntimeState.STOPPING)  # Streamlit's own answer still counts after it
    assert run_async(Runtime.is_ready_for_browser_connection.fget(stopping)) == (False, "unavailable")


def test_a_server_that_never_answers_still_becomes_ready(fresh_ready, monkeypatch):
    from support.ports import free_port

    monkeypatch.setattr(warm, "DEADLINE_S", 1.0)
    said: list[str] = []
    started = time.monotonic()
    assert warm.run(f"http://127.0.0.1:{free_port()}", ["home"], said.append) == []
    assert fresh_ready.is_set() and time.monotonic() - started < 10
    assert any("did not answer" in s for s in said) and "ready after" in said[-1]


def test_nothing_to_warm_is_ready_at_once(fresh_ready):
    assert warm.start(["--server.port", "8501"], {"TBT_WARM": "off"}) is None
    assert fresh_ready.is_set()
