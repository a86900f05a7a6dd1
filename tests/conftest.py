"""Fixtures shared by every tier: a tiny random model (unit), the real model (integration),
and a real Streamlit server (e2e)."""
from __future__ import annotations

import asyncio
import concurrent.futures
import os
import socket
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TBT_VALIDATE_CHARTS", "1")  # the suite checks every chart against the Vega-Lite schema
import model_backend  # noqa: E402, F401  its thread policy is set before numpy and torch load

ARTIFACTS = ROOT / "artifacts"


def run_async(coro):
    """Run a coroutine to its end on a thread of its own. The session's Playwright browser (sync API)
    keeps an event loop running on the main thread, where asyncio.run() would refuse to start."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


@pytest.fixture(scope="session")
def tiny_bundle():
    """A 2-layer Gemma-3-shaped model with random weights and a character tokenizer (no download)."""
    from tests.tiny import make_tiny_bundle

    return make_tiny_bundle()


@pytest.fixture(scope="session")
def real_bundle():
    """The embedded Gemma 3 270M in float32, loaded once per test session (prepared if needed)."""
    from model_backend import load_bundle

    return load_bundle(dtype="float32", device="cpu")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(log_name: str = "server.log"):
    """Start the real app the way `make run` does (python -m ui.serve), with the model prepared first so
    the server does not spend a test's time on it; return (process, url, log). Shared with the bench."""
    from bench.protoload import start_server as start
    from model_backend import prepare

    prepare()
    return start(port=free_port(), log_path=ARTIFACTS / log_name)


def stop_server(proc, log) -> None:
    from bench.protoload import stop_server as stop

    stop(proc, log)


@pytest.fixture(scope="session")
def server_url():
    """One real server for the browser tests of a session."""
    proc, url, log = start_server()
    yield url
    stop_server(proc, log)


@pytest.fixture(scope="session")
def browser():
    """Headless Debian Chromium driven by Playwright (its own browser download is not used)."""
    from playwright.sync_api import sync_playwright

    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=flags)
        yield b
        b.close()
