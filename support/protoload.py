"""A load client that measures the server, not browsers: it speaks Streamlit's own websocket protocol.

A browser visit is: load the static files, open the websocket `/_stcore/stream`, send one `BackMsg`
whose `rerun_script` is a `ClientState` (the page's URL path as `page_name`, the query string), then
receive `ForwardMsg`s (`new_session`, deltas, ...) until `script_finished`. This module does the
websocket part with the protobufs of the installed streamlit package, so 30-100 visitors cost the
client a few CPU-milliseconds each instead of a Chromium each. Static files are not fetched (a
browser caches them after its first visit).

    from support.protoload import visit, run_load
    r = await visit("http://127.0.0.1:8621", "temperature", "prompt=Ol%C3%A1&lang=en", marker="Olá")
    report = await run_load("http://127.0.0.1:8621", 30, ["home", "loop"], shared=True)

    .venv/bin/python -m support.protoload --url http://127.0.0.1:8621 --visitors 30 --shared
    .venv/bin/python -m support.protoload --start-server --visitors 30 --out bench/protoload.json

A visit is "ready" when its script run ends (`script_finished` FINISHED_SUCCESSFULLY; a run that ends
early for a rerun is followed to the next one). It records the time to ready, the bytes received
(protobuf payloads, and on the wire), exceptions drawn on the page, error boxes, and whether the
visitor's own marker text (its prompt) came back in the page's elements and nobody else's did.
Only loopback servers are allowed, visitors and time are bounded.
"""
from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import statistics
import time
from collections.abc import Callable
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import quote, urlsplit

from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import ClientConnection, connect

from support.server import start_server, stop_server

ROOT = Path(__file__).resolve().parent.parent
MAX_VISITORS = 200  # bounded: this is a measuring tool, not a flood
MAX_TIMEOUT_S = 900.0
FINISHED = ForwardMsg.ScriptFinishedStatus
PAGES = ["home", "pipeline", "loop", "tokenizer", "attention", "why", "temperature", "decoding", "nondeterminism",
         "hallucination", "grokking"]  # the guided path (ui/nav.py), without importing streamlit's UI
NO_PROMPT = {"grokking"}  # pages without a prompt box: the marker is not expected back


@dataclass
class VisitResult:
    """What one protocol visitor saw. Times in seconds from the start of the visit (connect included)."""

    page: str
    query: str
    ready_s: float | None = None  # script_finished (successfully) for the visitor's run
    first_delta_s: float | None = None  # first element drawn
    payload_bytes: int = 0  # ForwardMsg bytes as Streamlit serialised them
    wire_bytes: int = 0  # bytes read from the socket (frames; compressed if the server compresses)
    messages: int = 0
    deltas: int = 0
    runs: int = 0  # script runs started for this visit (new_session messages)
    status: str = "pending"  # ok | timeout | error | page_not_found | compile_error | closed
    error: str | None = None
    exceptions: list[str] = field(default_factory=list)  # st.exception / uncaught errors drawn
    error_alerts: int = 0  # st.error boxes drawn
    marker: str | None = None
    marker_seen: bool | None = None
    foreign_markers: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status == "ok" and not self.exceptions


class _CountingConnection(ClientConnection):
    """A websockets client connection that counts the bytes read from the socket."""

    wire_bytes = 0

    def data_received(self, data: bytes) -> None:
        self.wire_bytes += len(data)
        super().data_received(data)


def _check_loopback(base_url: str) -> str:
    """The websocket URL of a loopback server; anything else is refused."""
    parts = urlsplit(base_url)
    host = parts.hostname or ""
    try:
        loop = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loop = host == "localhost"
    if not loop or parts.scheme not in ("http", "ws"):
        raise ValueError(f"protoload only talks to a loopback http server, not {base_url!r}")
    return f"ws://{parts.netloc}{parts.path.rstrip('/')}/_stcore/stream"


def rerun_msg(page: str, query: str, locale: str = "pt-BR") -> BackMsg:
    """The BackMsg a browser sends first: run the page at this URL path with this query string."""
    msg = BackMsg()
    state = msg.rerun_script
    state.query_string = query.lstrip("?")
    state.page_name = "" if page in ("", "home") else page  # the URL path; the default page is ""
    state.page_script_hash = ""  # a fresh browser does not know the hashes yet
    info = state.context_info
    info.locale = locale
    info.timezone = "UTC"
    info.timezone_offset = 0
    info.url = f"http://127.0.0.1/{state.page_name}?{state.query_string}"
    info.is_embedded = False
    info.color_scheme = "light"
    return msg


def _scan(r: VisitResult, data: bytes, msg: ForwardMsg, markers: list[bytes], others: list[str]) -> None:
    """Elements: exceptions, error boxes, and the markers in their bytes."""
    if msg.delta.WhichOneof("type") != "new_element":
        return
    element = msg.delta.new_element
    kind = element.WhichOneof("type")
    if kind == "exception":
        r.exceptions.append(f"{element.exception.type}: {element.exception.message}"[:300])
    elif kind == "alert" and element.alert.format == Alert.ERROR:
        r.error_alerts += 1
    if markers and markers[0] in data:
        r.marker_seen = True
    for text, raw in zip(others, markers[1:], strict=True):
        if raw in data and text not in r.foreign_markers:
            r.foreign_markers.append(text)


@dataclass(frozen=True)
class Button:
    """A button as the page drew it: what a press must send back (its widget id, and its fragment if any)."""

    id: str
    label: str
    fragment_id: str = ""
    disabled: bool = False


def _note_button(r: VisitResult, msg: ForwardMsg) -> None:
    element = msg.delta.new_element
    if element.WhichOneof("type") == "button":
        b = element.button
        r.buttons[b.id] = Button(b.id, b.label, msg.delta.fragment_id, b.disabled)


async def _read_until_finished(ws, r: VisitResult, t0: float, markers: list[bytes], others: list[str],
                               fragment_ends: bool = False) -> None:
    """Read ForwardMsgs until the visitor's script run has finished (following reruns).

    fragment_ends: a fragment's own run finishing also ends it (a press of a button inside a fragment).
    Buttons drawn are kept in r.buttons (by widget id), the page's script hash (from the navigation
    message) in r.page_script_hash.
    """
    if not hasattr(r, "buttons"):
        r.buttons, r.page_script_hash = {}, ""
    async for data in ws:
        if isinstance(data, str):
            continue
        r.messages += 1
        r.payload_bytes += len(data)
        msg = ForwardMsg.FromString(data)
        if r.received is not None:
            r.received.append(msg)
        kind = msg.WhichOneof("type")
        if kind == "delta":
            r.deltas += 1
            if r.first_delta_s is None:
                r.first_delta_s = time.perf_counter() - t0
            _scan(r, data, msg, markers, others)
            if msg.delta.WhichOneof("type") == "new_element":
                _note_button(r, msg)
        elif kind == "new_session":
            r.runs += 1
        elif kind == "navigation" and msg.navigation.page_script_hash:
            r.page_script_hash = msg.navigation.page_script_hash  # the page st.navigation ran (not app.py's)
        elif kind == "page_not_found":
            r.status = "page_not_found"
        elif kind == "script_finished":
            status = msg.script_finished
            if status == FINISHED.FINISHED_SUCCESSFULLY:
                r.ready_s = time.perf_counter() - t0
                if r.status == "pending":
                    r.status = "ok"
                return
            if status == FINISHED.FINISHED_WITH_COMPILE_ERROR:
                r.status = "compile_error"
                return
            if status == FINISHED.FINISHED_FRAGMENT_RUN_SUCCESSFULLY and fragment_ends:
                r.ready_s = time.perf_counter() - t0
                if r.status == "pending":
                    r.status = "ok"
                return
            # FINISHED_EARLY_FOR_RERUN: the next run follows; a fragment's run: keep waiting
    r.status = "closed"


async def visit(base_url: str, page: str, query: str = "", *, marker: str | None = None,
                others: list[str] | tuple[str, ...] = (), timeout: float = 300.0, locale: str = "pt-BR",
                hold: asyncio.Event | None = None,
                on_loaded: Callable[[VisitResult], None] | None = None, keep: bool = False) -> VisitResult:
    """Open the page like a new browser tab and read until its script has finished.

    marker: text this visitor's page should show (its prompt); others: texts it must not show (other
    visitors' prompts). hold: keep the session connected until this event is set (idle sessions);
    on_loaded(result) is called once when the page has loaded or failed. keep: also keep every
    ForwardMsg received, in order, as result.received (for tests that read the page's elements).
    Never raises for the server's behaviour: failures are in the result's status and error.
    """
    url = _check_loopback(base_url)
    timeout = min(float(timeout), MAX_TIMEOUT_S)
    r = VisitResult(page=page, query=query, marker=marker)
    r.received = [] if keep else None  # not a dataclass field: asdict() leaves it out
    if marker is not None and page not in NO_PROMPT:
        r.marker_seen = False
    markers = [m.encode() for m in ([marker or ""] + list(others))] if (marker or others) else []
    if markers and not marker:
        markers[0] = b"\x00never\x00"
    t0 = time.perf_counter()
    loaded = False

    def done_loading() -> None:
        nonlocal loaded
        if not loaded and on_loaded is not None:
            on_loaded(r)
        loaded = True

    try:
        async with connect(url, subprotocols=["streamlit"], max_size=None, open_timeout=timeout,
                           create_connection=_CountingConnection, ping_interval=None) as ws:
            async with asyncio.timeout(max(1.0, timeout - (time.perf_counter() - t0))):
                await ws.send(rerun_msg(page, query, locale).SerializeToString())
                await _read_until_finished(ws, r, t0, markers, list(others))
            r.wire_bytes = ws.wire_bytes
            done_loading()
            if hold is not None and r.status == "ok":
                await hold.wait()  # an idle visitor: connected, the page drawn, doing nothing
    except TimeoutError:
        r.status, r.error = "timeout", f"not ready after {timeout:.0f} s"
    except Exception as exc:  # noqa: BLE001 - a failed visit is a figure, not a crash of the load test
        r.status, r.error = "error", f"{type(exc).__name__}: {exc}"[:300]
    finally:
        done_loading()
    return r


def marker(i: int) -> str:
    """A prompt no other visitor has: a marker that must come back to visitor i only."""
    return f"Visitante número {i:03d} pergunta"


def query_for(page: str, prompt: str | None, lang: str = "pt-BR", extra: str = "") -> str:
    """The query string of a link to the page with this prompt and language."""
    parts = [] if prompt is None or page in NO_PROMPT else [f"prompt={quote(prompt)}"]
    parts.append(f"lang={quote(lang)}")
    if extra:
        parts.append(extra.lstrip("&"))
    return "&".join(parts)


def _pct(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..1) of values; None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(q * len(ordered) + 0.5)) - 1))]


def summarize(results: list[VisitResult], wall_s: float | None = None) -> dict:
    """p50/p95/max ready, errors, leaks and bytes, overall and per page."""
    ready = [r.ready_s for r in results if r.ready_s is not None]
    by_page: dict[str, dict] = {}
    for name in dict.fromkeys(r.page for r in results):
        mine = [r for r in results if r.page == name]
        times = [r.ready_s for r in mine if r.ready_s is not None]
        by_page[name] = {"visits": len(mine), "ready_s": sorted(round(t, 2) for t in times),
                         "p95_s": _pct(times, 0.95),
                         "payload_kb": statistics.median(r.payload_bytes for r in mine) / 1000,
                         "errors": sum(not r.ok for r in mine)}
    return {
        "visits": len(results), "wall_s": wall_s,
        "ready_p50_s": _pct(ready, 0.5), "ready_p95_s": _pct(ready, 0.95), "ready_max_s": max(ready, default=None),
        "errors": [asdict(r) for r in results if not r.ok],
        "leaks": [{"page": r.page, "marker": r.marker, "saw": r.foreign_markers} for r in results if r.foreign_markers],
        "own_marker_missing": [{"page": r.page, "marker": r.marker} for r in results if r.marker_seen is False],
        "error_alerts": sum(r.error_alerts for r in results),
        "payload_kb_total": sum(r.payload_bytes for r in results) / 1000,
        "wire_kb_total": sum(r.wire_bytes for r in results) / 1000,
        "by_page": by_page,
    }


async def run_load(base_url: str, visitors: int, pages: list[str] | None = None, *, shared: bool = False,
                   lang: str = "pt-BR", timeout: float = 300.0, ramp_s: float = 0.0, extra: str = "",
                   prompt: str | None = None) -> dict:
    """`visitors` protocol visitors at once, visitor i on pages[i % len(pages)].

    shared: everyone opens the same link (a class following its teacher: one prompt, marker(0));
    otherwise each visitor has a prompt of its own (marker(i)). prompt: the shared prompt instead of
    marker(0). ramp_s: spread the arrivals evenly over this many seconds (0 = all at once).
    Returns summarize() of the visits plus the list of VisitResults under "results".
    """
    if not 0 < visitors <= MAX_VISITORS:
        raise ValueError(f"visitors must be 1..{MAX_VISITORS}")
    pages = pages or PAGES
    texts = [(prompt or marker(0)) if shared else marker(i) for i in range(visitors)]

    async def one(i: int) -> VisitResult:
        if ramp_s:
            await asyncio.sleep(ramp_s * i / visitors)
        page = pages[i % len(pages)]
        others = sorted({m for m in texts if m != texts[i]})
        return await visit(base_url, page, query_for(page, texts[i], lang, extra), marker=texts[i],
                           others=others, timeout=timeout, locale=lang)

    t = time.perf_counter()
    results = await asyncio.gather(*(one(i) for i in range(visitors)))
    report = summarize(list(results), time.perf_counter() - t)
    report.update(visitors=visitors, shared=shared, pages=pages, lang=lang)
    report["results"] = [asdict(r) for r in results]
    return report


@asynccontextmanager
async def idle_sessions(base_url: str, n: int, page: str = "home", query: str = "lang=pt-BR",
                        timeout: float = 300.0):
    """n sessions that load the page and then stay connected, idle, while the block runs.

        async with idle_sessions(url, 100) as loaded:   # loaded: the VisitResults, all pages drawn
            ...measure the server's memory, time a visit...
    """
    if not 0 < n <= MAX_VISITORS:
        raise ValueError(f"n must be 1..{MAX_VISITORS}")
    release, all_loaded, loaded = asyncio.Event(), asyncio.Event(), []

    def on_loaded(r: VisitResult) -> None:
        loaded.append(r)
        if len(loaded) == n:
            all_loaded.set()

    tasks = [asyncio.create_task(visit(base_url, page, query, timeout=timeout, hold=release, on_loaded=on_loaded))
             for _ in range(n)]
    try:
        await all_loaded.wait()
        yield loaded
    finally:
        release.set()
        await asyncio.gather(*tasks)


# ---------------------------------------------------------------- button presses

@dataclass
class PressResult:
    """One visitor who opened a page and pressed one of its buttons. Times in seconds.

    load_s: the page's first run, connect included. press_s: from sending the click to the server's
    script_finished for the run it started (a full run, or the button's fragment run; reruns followed)."""

    page: str
    query: str
    button: str
    load_s: float | None = None
    press_s: float | None = None
    status: str = "pending"  # ok | hung_up | no_button | load_<status> | timeout | error | closed | ...
    error: str | None = None
    exceptions: list[str] = field(default_factory=list)  # drawn by the press's run
    error_alerts: int = 0
    deltas: int = 0  # elements the press's runs sent
    runs: int = 0  # script runs the press started (reruns included)

    @property
    def ok(self) -> bool:
        return self.status in ("ok", "hung_up") and not self.exceptions


def find_button(buttons: dict[str, Button], want: str) -> Button | None:
    """The button whose key (the end of its widget id) or label is `want`; an enabled one first."""
    found = [b for b in buttons.values() if b.id.endswith(f"-{want}") or b.label == want]
    return next((b for b in found if not b.disabled), found[0] if found else None)


def press_msg(page: str, query: str, button: Button, page_script_hash: str, locale: str = "pt-BR") -> BackMsg:
    """The BackMsg a browser sends for a click: rerun this page (or the button's fragment) with the button's
    trigger set. Other widgets are not sent: the session keeps their values from the previous run."""
    msg = rerun_msg(page, query, locale)
    state = msg.rerun_script
    state.page_script_hash = page_script_hash
    if button.fragment_id:
        state.fragment_id = button.fragment_id
    widget = state.widget_states.widgets.add()
    widget.id = button.id
    widget.trigger_value = True
    return msg


async def press(base_url: str, page: str, query: str, button: str, *, timeout: float = 600.0,
                locale: str = "pt-BR", go: asyncio.Event | None = None,
                on_loaded: Callable[[PressResult], None] | None = None, hang_up_after: float | None = None,
                keep: bool = False) -> PressResult:
    """Open the page like a new tab, wait for `go`, then press `button` (a widget key or a label).

    on_loaded(result) is called once the page has loaded (or failed to). hang_up_after: close the
    websocket this many seconds after the click instead of waiting for the run (a visitor who leaves).
    keep: the press's ForwardMsgs, in order, in result.received. Never raises for the server's behaviour.
    """
    url = _check_loopback(base_url)
    timeout = min(float(timeout), MAX_TIMEOUT_S)
    pr = PressResult(page=page, query=query, button=button)
    pr.received = None
    announced = False

    def loaded() -> None:
        nonlocal announced
        if not announced and on_loaded is not None:
            on_loaded(pr)
        announced = True

    try:
        async with connect(url, subprotocols=["streamlit"], max_size=None, open_timeout=timeout,
                           ping_interval=None) as ws:
            load = VisitResult(page=page, query=query)
            load.received = None
            t0 = time.perf_counter()
            async with asyncio.timeout(timeout):
                await ws.send(rerun_msg(page, query, locale).SerializeToString())
                await _read_until_finished(ws, load, t0, [], [])
            pr.load_s, pr.exceptions = load.ready_s, list(load.exceptions)
            target = find_button(load.buttons, button) if load.status == "ok" else None
            if load.status != "ok":
                pr.status, pr.error = f"load_{load.status}", load.error
            elif target is None or target.disabled:
                pr.status = "no_button"
                pr.error = f"no enabled button {button!r}; the page has {sorted(b.label for b in load.buttons.values())}"
            loaded()
            if pr.status != "pending":
                return pr
            if go is not None:
                await go.wait()
            t1 = time.perf_counter()
            await ws.send(press_msg(page, query, target, load.page_script_hash, locale).SerializeToString())
            if hang_up_after is not None:
                await asyncio.sleep(hang_up_after)
                pr.status = "hung_up"
                return pr  # leaving the block closes the websocket
            run = VisitResult(page=page, query=query)
            run.received = [] if keep else None
            async with asyncio.timeout(timeout):
                await _read_until_finished(ws, run, t1, [], [], fragment_ends=bool(target.fragment_id))
            pr.press_s, pr.status, pr.error = run.ready_s, run.status, run.error
            pr.exceptions += run.exceptions
            pr.error_alerts, pr.deltas, pr.runs, pr.received = run.error_alerts, run.deltas, run.runs, run.received
    except TimeoutError:
        pr.status, pr.error = "timeout", f"not finished after {timeout:.0f} s"
    except Exception as exc:  # noqa: BLE001 - a failed press is a figure, not a crash of the bench
        pr.status, pr.error = "error", f"{type(exc).__name__}: {exc}"[:300]
    finally:
        loaded()
    return pr


async def press_together(base_url: str, n: int, page: str, button: str, *, lang: str = "en",
                         prompts: list[str] | None = None, timeout: float = 600.0,
                         hang_up_after: float | None = None, on_go: Callable[[], None] | None = None,
                         keep: bool = False) -> dict:
    """n visitors open the page, each with its own prompt (prompts[i], default marker(i)), and once every
    page has loaded they all press `button` at the same moment. on_go() is called just before the clicks.

    Returns {"loaded_s": how long the pages took, "results": [PressResult], and press_p50_s/p95_s/max_s}."""
    if not 0 < n <= MAX_VISITORS:
        raise ValueError(f"n must be 1..{MAX_VISITORS}")
    prompts = prompts or [marker(i) for i in range(n)]
    go, all_loaded, count = asyncio.Event(), asyncio.Event(), [0]

    def on_loaded(_: PressResult) -> None:
        count[0] += 1
        if count[0] == n:
            all_loaded.set()

    t = time.perf_counter()
    tasks = [asyncio.create_task(press(base_url, page, query_for(page, prompts[i], lang), button, timeout=timeout,
                                       locale=lang, go=go, on_loaded=on_loaded, hang_up_after=hang_up_after,
                                       keep=keep))
             for i in range(n)]
    await all_loaded.wait()
    loaded_s = time.perf_counter() - t
    if on_go is not None:
        on_go()
    go.set()
    results = list(await asyncio.gather(*tasks))
    times = [r.press_s for r in results if r.press_s is not None]
    return {"visitors": n, "page": page, "button": button, "loaded_s": loaded_s,
            "press_p50_s": _pct(times, 0.5), "press_p95_s": _pct(times, 0.95), "press_max_s": max(times, default=None),
            "errors": [asdict(r) for r in results if not r.ok], "results": results}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--url", help="a running server on this machine, e.g. http://127.0.0.1:8621")
    where.add_argument("--start-server", action="store_true", help="start the app on a free loopback port")
    ap.add_argument("--visitors", type=int, default=30)
    ap.add_argument("--pages", default="all", help="comma-separated URL paths (home, loop, ...) or 'all'")
    ap.add_argument("--shared", action="store_true", help="one link for everyone (otherwise a prompt each)")
    ap.add_argument("--lang", default="pt-BR", choices=["pt-BR", "en"])
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per visit (at most 900)")
    ap.add_argument("--ramp", type=float, default=0.0, help="spread arrivals over this many seconds")
    ap.add_argument("--warm", action="store_true", help="visit every page once first (model loads, caches)")
    ap.add_argument("--out", help="write the report as JSON here")
    args = ap.parse_args(argv)
    pages = PAGES if args.pages == "all" else [p.strip() for p in args.pages.split(",") if p.strip()]
    server = None
    try:
        if args.start_server:
            server = start_server(log_path=ROOT / "artifacts" / "protoload-server.log")
            url = server[1]
        else:
            url = args.url

        async def go() -> dict:
            if args.warm:
                for page in pages:
                    await visit(url, page, query_for(page, marker(0), args.lang), timeout=args.timeout)
            return await run_load(url, args.visitors, pages, shared=args.shared, lang=args.lang,
                                  timeout=args.timeout, ramp_s=args.ramp)

        report = asyncio.run(go())
    finally:
        if server:
            stop_server(server[0], server[2])
    for key in ("visitors", "shared", "wall_s", "ready_p50_s", "ready_p95_s", "ready_max_s", "payload_kb_total"):
        print(f"{key:<18} {report[key]}")
    print(f"{'errors':<18} {len(report['errors'])}")
    print(f"{'leaks':<18} {len(report['leaks'])}")
    print(f"{'marker missing':<18} {len(report['own_marker_missing'])}")
    for name, p in report["by_page"].items():
        print(f"  {name:<15} p95 {p['p95_s']} s  {p['payload_kb']:.0f} KB  errors {p['errors']}  {p['ready_s']}")
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1, default=str))
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
