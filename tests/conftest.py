"""Fixtures shared by every tier: a tiny random model (unit), the real model (integration),
and a real Streamlit server (e2e)."""
from __future__ import annotations

import asyncio
import concurrent.futures
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TBT_VALIDATE_CHARTS", "1")  # the suite checks every chart against the Vega-Lite schema
import model_backend  # noqa: E402, F401  its thread policy is set before numpy and torch load
from support import chromium, server  # noqa: E402

ARTIFACTS = ROOT / "artifacts"

# Each folder of tests/ is a tier with its own marker (`pytest -m unit`, registered in pyproject.toml) and its own
# default time limit (pytest-timeout), applied below; a test that waits longer carries @pytest.mark.timeout(N).
TIERS = ("unit", "integration", "app", "e2e", "deploy", "adversarial")
TIER_TIMEOUT_S = {"unit": 120, "integration": 900, "app": 900, "e2e": 900, "deploy": 300, "adversarial": 900}
SLOW_UNIT_TIMEOUT_S = 1200  # a unit test marked slow (the grokking script run twice)
# `make test` runs the suite as two streams at once (pytest-xdist, `-n 2 --dist loadgroup`): one serial run used
# about one of the two cores, waiting on servers and browsers. Each stream is one worker, and its tests keep their
# order. "model": the tiers that run the model in the test's own process (unit, integration, app, and the AppTest
# files of adversarial); "browser": the tiers that drive servers and Chromium (e2e, deploy, and adversarial's
# browser files, whose names say "browser"). Two streams and not more: the servers and the in-process models of both
# fit in CI's 24 GiB (docs/testing.md has the measured peak), and one stream of each kind keeps that so.
# xdist's own loadgroup reads a group from a suffix its worker appends to the test's node id; pytest 9 keeps the id
# elsewhere, so that suffix never appears and every test was its own group: both workers ran both kinds. The
# scheduler below takes `--dist loadgroup` instead and groups by the node id's path, which the controller has.
STREAM = {"unit": "model", "integration": "model", "app": "model", "e2e": "browser", "deploy": "browser"}
BROWSER_FIXTURES = {"browser", "server_url"}


def stream_of(nodeid: str) -> str:
    """The stream a test runs in, from its node id alone (xdist's controller collects nothing)."""
    parts = nodeid.split("::")[0].split("/")
    tier = parts[1] if len(parts) > 2 and parts[0] == "tests" else None
    return STREAM.get(tier) or ("browser" if "browser" in parts[-1] else "model")


@pytest.hookimpl(optionalhook=True)  # a hook of xdist's: `-p no:xdist` has no such hook
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class StreamScheduling(LoadScopeScheduling):
        """One work unit a stream: each of the two workers runs one stream, in the suite's order."""

        def _split_scope(self, nodeid: str) -> str:
            return stream_of(nodeid)

    return StreamScheduling(config, log)


def pytest_collection_modifyitems(config, items):
    for item in items:
        parts = Path(str(item.fspath)).relative_to(ROOT).parts
        tier = parts[1] if len(parts) > 2 and parts[0] == "tests" and parts[1] in TIERS else None
        if tier is None:
            continue
        item.add_marker(getattr(pytest.mark, tier))
        if BROWSER_FIXTURES & set(item.fixturenames) and stream_of(item.nodeid) != "browser":
            raise pytest.UsageError(f"{item.nodeid} drives a server and a browser: put it in tests/e2e, or name its "
                                    "file *browser*, so that it runs in the browser stream (tests/conftest.py)")
        if item.get_closest_marker("timeout") is None:
            slow = tier == "unit" and item.get_closest_marker("slow") is not None
            item.add_marker(pytest.mark.timeout(SLOW_UNIT_TIMEOUT_S if slow else TIER_TIMEOUT_S[tier]))


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


def start_server(log_name: str = "server.log"):
    """Start the real app the way `make run` does (support.server), with the model prepared first so the
    server does not spend a test's time on it; return (process, url, log)."""
    return server.start_server(log_path=ARTIFACTS / log_name, prepare=True)


def stop_server(proc, log) -> None:
    server.stop_server(proc, log)


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

    with sync_playwright() as p:
        b = chromium.launch(p)
        yield b
        b.close()
