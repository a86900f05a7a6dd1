"""A fresh replica does its pages' shared one-time work before its health check says it is ready.

The first visit of a page pays for what every later visitor shares: the model's load, the default prompt's
trace, the hallucination page's sixteen greedy pairs, the temperature page's chain, the charts built once. On a
replica that has just started (after a failover, an autoscale or a deploy) the first student on each page would
wait for all of it (issue 30, point 7: 41 CPU-s for the hallucination page, 18 for temperature, 10 for home).

So the server visits each page of the path itself, over loopback, exactly as a new browser tab does (the protocol
client of `support/protoload.py`: open the websocket, run the page with its default link, read until the run
ends), in each language, before `/_stcore/health` answers "ok". Until then it answers 503 "warming up": a load
balancer or Kubernetes' probes send nobody there, and compose's nginx waits for it. A browser that connects anyway
(a developer's own `make run`) is served as usual: the gate is on the health check only.

`TBT_WARM` chooses the pages: `all` (the default: every page of the path), `off` (none: the tests' servers, whose
cold visits are what they measure), or a comma-separated list of page names. A failed or slow visit is logged and
the replica becomes ready anyway: the warm-up never keeps a replica out of service (at most `DEADLINE_S`).
"""
from __future__ import annotations

import asyncio
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

LANGS = ("pt-BR", "en")
DEADLINE_S = 480.0  # the whole warm-up, within the startup probes (deploy/kubernetes, Dockerfile); then ready anyway
VISIT_TIMEOUT_S = 300.0
ready = threading.Event()  # set when the warm-up has ended (or was never asked for)


def pages_to_warm(setting: str | None, path: list[str]) -> list[str]:
    """The pages TBT_WARM names, in the path's order. Raises ValueError for a name that is not on the path."""
    value = (setting or "all").strip().lower()
    if value in ("all", "1", "on", "true", "yes"):
        return list(path)
    if value in ("off", "0", "none", "false", "no", ""):
        return []
    wanted = [p.strip() for p in value.split(",") if p.strip()]
    unknown = [p for p in wanted if p not in path]
    if unknown:
        raise ValueError(f"TBT_WARM must be all, off, or page names from {', '.join(path)}; unknown: "
                         f"{', '.join(unknown)}")
    return [p for p in path if p in wanted]


def loopback_url(address: str | None, port: int) -> str | None:
    """Where the server can visit itself: loopback when it listens on every address or on loopback, else None."""
    host = (address or "").strip()
    if host in ("", "0.0.0.0", "::", "127.0.0.1", "localhost"):
        return f"http://127.0.0.1:{port}"
    if host == "::1":
        return f"http://[::1]:{port}"
    return None


@dataclass(frozen=True)
class Warmed:
    """One warm-up visit: the page, the language, its status and how long its run took."""

    page: str
    lang: str
    status: str
    seconds: float
    error: str | None = None


async def _warm(url: str, pages: list[str], say: Callable[[str], None]) -> list[Warmed]:
    from support.protoload import query_for, visit  # the same protocol client the benches use

    done: list[Warmed] = []
    for page in pages:
        for lang in LANGS:
            r = await visit(url, page, query_for(page, None, lang), locale=lang, timeout=VISIT_TIMEOUT_S)
            problem = r.error or ("; ".join(r.exceptions) if r.exceptions else None)
            status = r.status if r.status != "ok" else ("exception" if r.exceptions else "ok")
            done.append(Warmed(page, lang, status, r.ready_s or 0.0, problem))
            say(f"warm-up: {page} ({lang}) {status} in {r.ready_s or 0.0:.1f} s" + (f": {problem}" if problem else ""))
    return done


def _wait_for_server(url: str, deadline: float) -> bool:
    import urllib.error
    import urllib.request
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{url}/_stcore/host-config", timeout=2).read()
            return True
        except (OSError, urllib.error.URLError):
            time.sleep(0.2)
    return False


def run(url: str, pages: list[str], say: Callable[[str], None] = print) -> list[Warmed]:
    """Visit `pages` on the server at `url` once it answers, in each language; then set `ready`. Never raises."""
    started, deadline = time.monotonic(), time.monotonic() + DEADLINE_S
    done: list[Warmed] = []
    try:
        if not _wait_for_server(url, deadline):
            say(f"warm-up: the server did not answer within {DEADLINE_S:.0f} s; ready without it")
            return done
        done = asyncio.run(asyncio.wait_for(_warm(url, pages, say), max(1.0, deadline - time.monotonic())))
    except Exception as exc:  # noqa: BLE001  the warm-up must never keep a replica out of service
        say(f"warm-up stopped: {type(exc).__name__}: {exc}")
    finally:
        ready.set()
        say(f"warm-up: ready after {time.monotonic() - started:.1f} s ({len(done)} visits)")
    return done


def gate_health() -> None:
    """Make Streamlit's health check answer 503 "warming up" until `ready` is set (the check only: browsers and
    websockets are served as usual). Streamlit 1.67 asks `Runtime.is_ready_for_browser_connection` there alone."""
    from streamlit.runtime.runtime import Runtime

    original = Runtime.is_ready_for_browser_connection
    if not isinstance(original, property) or getattr(original.fget, "_tbt_gated", False):
        return

    async def gated(self) -> tuple[bool, str]:
        if not ready.is_set():
            return False, "warming up"
        return await original.fget(self)

    gated._tbt_gated = True
    Runtime.is_ready_for_browser_connection = property(gated)


def start(argv: list[str], environ: dict[str, str] = os.environ) -> threading.Thread | None:
    """Start the warm-up in a background thread for the server `argv` will start (its --server.port and
    --server.address), and gate the health check on it. Returns the thread, or None when nothing is warmed."""
    from ui.nav import PATH

    pages = pages_to_warm(environ.get("TBT_WARM"), [name for name, _ in PATH])
    address = _option(argv, "--server.address", environ.get("STREAMLIT_SERVER_ADDRESS", "0.0.0.0"))
    url = loopback_url(address, int(_option(argv, "--server.port", environ.get("STREAMLIT_SERVER_PORT", "8501"))))
    if not pages or url is None:
        ready.set()
        if pages:
            print("warm-up skipped: the server does not listen on loopback", file=sys.stderr)
        return None
    gate_health()
    thread = threading.Thread(target=run, args=(url, pages, lambda s: print(s, flush=True)), name="tbt-warm-up",
                              daemon=True)
    thread.start()
    return thread


def _option(argv: list[str], name: str, default: str) -> str:
    """A Streamlit option's value from the command line (`--name value` or `--name=value`)."""
    for i, arg in enumerate(argv):
        if arg == name and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return default
