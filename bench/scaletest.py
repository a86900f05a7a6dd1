"""`make scaletest`: two replicas of the app behind Debian's nginx, on loopback, measured with the protocol
load client (support/protoload.py); then one replica is killed while visitors are connected.

    make scaletest                                  # 30 visitors, every page: bench/scaletest.json + docs/deploy.md
    .venv/bin/python -m bench scaletest --visitors 9 --no-doc     # a quick run while developing

What it does, in one run, with real parts only:
1. installs nginx from Debian's package if it is missing (as .ci/run installs Chromium);
2. starts replica A and replica B (`python -m ui.serve`, each on its own loopback port and, with --pin,
   its own CPU core) and nginx with deploy/nginx/token-by-token.conf.template, the file compose.yaml uses;
3. warms both replicas (every page once: the models load, the first reads are done);
4. "alone": N protocol visitors, every page, each with a prompt of its own, straight to replica A;
5. "nginx": N other visitors (other prompts) through nginx to both replicas. Each visitor behaves like a
   browser: it GETs the page (nginx gives it its affinity cookie), then opens the websocket with that
   cookie. nginx's access log ($upstream_addr) says how many sessions each replica took;
6. "failover": F visitors connect through nginx and stay connected; replica B is killed (SIGKILL). Its
   visitors' websockets close; each reconnects like Streamlit's browser client (a new websocket through
   nginx, the same cookie, the link as the app last wrote it) and its page reruns on replica A. Counted:
   broken sessions (no page again before the deadline), lost state (a widget whose value differs from
   before: anything the link did not carry), seconds from the kill to the page drawn again. Replica A's
   visitors rerun on their open websocket: same session, nothing noticed.
Everything listens on 127.0.0.1 only, every phase has a deadline, and the script stops what it started.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import statistics
import subprocess
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.cookiejar import CookieJar
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

import psutil  # noqa: E402
from google.protobuf.json_format import MessageToDict  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from support import protoload as pl  # noqa: E402
from support import server  # noqa: E402
from support.lb import COOKIE, access_log, ensure_nginx, start_nginx, write_nginx_conf  # noqa: E402

PORTS = {"nginx": 8651, "A": 8652, "B": 8653}  # this worktree's ports; --port-base moves them
WIDGETS = {"text_area", "text_input", "slider", "selectbox", "radio", "checkbox", "number_input",
           "multiselect", "button_group", "color_picker", "date_input", "time_input"}


# ---------------------------------------------------------------- replicas

@dataclass
class Replica:
    name: str
    port: int
    proc: subprocess.Popen
    log: object

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def cpu_s(self) -> float:
        """CPU seconds of the server and its children (training processes), running or ended."""
        try:
            p = psutil.Process(self.proc.pid)
            t = p.cpu_times()
            total = t.user + t.system + t.children_user + t.children_system
            for child in p.children(recursive=True):
                total += sum(child.cpu_times()[:2])
            return total
        except psutil.Error:
            return float("nan")

    def rss_mb(self) -> float:
        try:
            return psutil.Process(self.proc.pid).memory_info().rss / 1e6
        except psutil.Error:
            return float("nan")


def start_replica(name: str, port: int, workdir: Path, core: int | None) -> Replica:
    """`python -m ui.serve` on 127.0.0.1:port with its own temporary directory (and CPU core, if pinned)."""
    tmp = workdir / f"tmp-{name}"
    tmp.mkdir(exist_ok=True)
    env = {"TMPDIR": str(tmp)}
    prefix: list[str] = []
    if core is not None:
        prefix = ["taskset", "-c", str(core)]
        env.update(OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")  # torch's threads = the replica's one core
    proc, _, log = server.launch(port, env=env, log_path=workdir / f"replica-{name}.log", prefix=prefix,
                                 new_session=True)
    return Replica(name, port, proc, log)


def wait_healthy(url: str, path: str, deadline_s: float = 180) -> float:
    return server.wait_healthy(url, deadline_s, path=path)


def stop(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    server.stop_server(proc, sig=sig, timeout=20)


# ---------------------------------------------------------------- a visitor that behaves like a browser

def widget_state(messages: list) -> list[str]:
    """The widgets of the page's last script run, with their values (labels, defaults, values, options)."""
    out: list[str] = []
    for msg in messages:
        kind = msg.WhichOneof("type")
        if kind == "new_session":
            out = []  # a new run draws the page again
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            name = element.WhichOneof("type")
            if name in WIDGETS:
                fields = MessageToDict(getattr(element, name))
                fields.pop("id", None)
                out.append(name + json.dumps(fields, sort_keys=True, ensure_ascii=False))
    return out


@dataclass
class Visitor:
    """One browser tab: a cookie jar, the link it shows (updated when the app writes the URL), a websocket."""

    i: int
    page: str
    query: str  # the link's query string, as the app last wrote it
    marker: str
    others: list[str]
    jar: CookieJar = field(default_factory=CookieJar)
    session_id: str | None = None
    widgets: list[str] = field(default_factory=list)
    ws: object = None
    closed_at: float | None = None

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    @property
    def affinity(self) -> str | None:
        return next((c.value for c in self.jar if c.name == COOKIE), None)

    def get_page(self, base: str) -> int:
        """GET the page's HTML like a browser; nginx answers with the affinity cookie on the first visit."""
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        path = "" if self.page == "home" else self.page
        with opener.open(f"{base}/{path}?{self.query}", timeout=60) as response:
            response.read()
            return response.status


async def open_session(v: Visitor, base: str, timeout: float, keep_open: bool = False,
                       previous_session: str | None = None) -> pl.VisitResult:
    """GET the page, open the websocket with the cookies and ask for the script run, like a browser.

    With keep_open the websocket stays open afterwards (v.ws); previous_session is what Streamlit's
    client sends when it reconnects (the server resumes that session if it still has it).
    """
    r = pl.VisitResult(page=v.page, query=v.query, marker=v.marker)
    r.received = []
    if v.page not in pl.NO_PROMPT:
        r.marker_seen = False
    markers = [v.marker.encode(), *(o.encode() for o in v.others)]
    t0 = time.perf_counter()
    ws = None
    try:
        await asyncio.to_thread(v.get_page, base)
        # What Streamlit's client sends: its auth token or XSRF cookie (a placeholder without one), then the
        # session it had, when it reconnects.
        xsrf = next((c.value for c in v.jar if c.name == "_streamlit_xsrf"), None)
        protocols = ["streamlit", xsrf or "PLACEHOLDER_AUTH_TOKEN", *([previous_session] if previous_session else [])]
        ws = await connect(pl._check_loopback(base), subprotocols=protocols, max_size=None, open_timeout=timeout,
                           ping_interval=None, additional_headers={"Cookie": v.cookie_header(), "Origin": base})
        async with asyncio.timeout(timeout):
            await ws.send(pl.rerun_msg(v.page, v.query).SerializeToString())
            await pl._read_until_finished(ws, r, t0, markers, v.others)
    except TimeoutError:
        r.status, r.error = "timeout", f"not ready after {timeout:.0f} s"
    except Exception as exc:  # noqa: BLE001 - a failed visit is a figure, not a crash of the test
        r.status, r.error = "error", f"{type(exc).__name__}: {exc}"[:300]
    for msg in r.received:
        kind = msg.WhichOneof("type")
        if kind == "new_session" and msg.new_session.initialize.session_id:
            v.session_id = msg.new_session.initialize.session_id
        elif kind == "page_info_changed":
            v.query = msg.page_info_changed.query_string  # the browser's URL follows the app
    v.widgets = widget_state(r.received)
    r.received = None
    if keep_open and r.status == "ok":
        v.ws = ws
    elif ws is not None:
        await ws.close()
    return r


async def watch_close(v: Visitor) -> None:
    """Hold the websocket open, idle; note when the server side goes away."""
    try:
        async for _ in v.ws:
            pass
    except ConnectionClosed:
        pass
    v.closed_at = time.perf_counter()


# ---------------------------------------------------------------- phases

def visitors_for(n: int, offset: int, pages: list[str], lang: str) -> list[Visitor]:
    texts = [pl.marker(offset + i) for i in range(n)]
    out = []
    for i in range(n):
        page = pages[i % len(pages)]
        out.append(Visitor(i, page, pl.query_for(page, texts[i], lang), texts[i], [t for t in texts if t != texts[i]]))
    return out


async def load_phase(name: str, base: str, visitors: list[Visitor], replicas: list[Replica], timeout: float) -> dict:
    """All visitors at once; page-ready times, errors, leaks, and each replica's CPU seconds for the phase."""
    cpu0 = {r.name: r.cpu_s() for r in replicas}
    t = time.perf_counter()
    results = await asyncio.gather(*(open_session(v, base, timeout) for v in visitors))
    wall = time.perf_counter() - t
    report = pl.summarize(list(results), wall)
    report["cpu_s"] = {r.name: round(r.cpu_s() - cpu0[r.name], 1) for r in replicas}
    report["rss_mb"] = {r.name: round(r.rss_mb()) for r in replicas}
    report["visits_per_min"] = round(len(visitors) / wall * 60, 1)
    report.pop("by_page", None)
    print(f"[{name}] {len(visitors)} visitors: p50 {report['ready_p50_s']:.1f} s, p95 {report['ready_p95_s']:.1f} s, "
          f"errors {len(report['errors'])}, leaks {len(report['leaks'])}, wall {wall:.0f} s, CPU {report['cpu_s']}")
    return report


def sessions_per_replica(rows: list[dict], ports: dict[str, int]) -> dict[str, int]:
    """Websocket sessions (101 Switching Protocols on /_stcore/stream) per replica, from nginx's access log."""
    names = {f"127.0.0.1:{port}": name for name, port in ports.items()}
    counts = dict.fromkeys(ports, 0)
    for row in rows:
        if row["uri"].startswith("/_stcore/stream") and row["status"] == "101" and row["upstream"] in names:
            counts[names[row["upstream"]]] += 1
    return counts


async def failover_phase(base: str, visitors: list[Visitor], a: Replica, b: Replica, log_path: Path,
                         timeout: float, settle_s: float) -> dict:
    """Visitors connect through nginx and stay; replica B is killed; B's visitors reconnect; A's rerun."""
    loaded = await asyncio.gather(*(open_session(v, base, timeout, keep_open=True) for v in visitors))
    connected = [v for v, r in zip(visitors, loaded) if r.status == "ok" and v.ws is not None]
    # Which replica served each visitor: nginx logged its page's GET with the affinity key and the upstream.
    home_of = {row["key"]: row["upstream"] for row in access_log(log_path) if not row["uri"].startswith("/_stcore")}
    on_b = [v for v in connected if home_of.get(v.affinity) == f"127.0.0.1:{b.port}"]
    on_a = [v for v in connected if home_of.get(v.affinity) == f"127.0.0.1:{a.port}"]
    before = {v.i: (v.session_id, list(v.widgets), v.query) for v in connected}
    watchers = {v.i: asyncio.create_task(watch_close(v)) for v in connected}
    await asyncio.sleep(settle_s)
    print(f"[failover] {len(connected)}/{len(visitors)} connected: {len(on_a)} on A, {len(on_b)} on B; killing B")
    killed_at = time.perf_counter()
    b.proc.send_signal(signal.SIGKILL)

    async def reconnect(v: Visitor) -> dict:
        """Streamlit's client: notice the close, wait a moment, open a new websocket to the same URL."""
        while v.closed_at is None and time.perf_counter() - killed_at < timeout:
            await asyncio.sleep(0.05)
        if v.closed_at is None:
            return {"i": v.i, "page": v.page, "ok": False, "error": "its websocket never closed"}
        delay, tries, errors = 0.5, 0, []
        while time.perf_counter() - killed_at < timeout:
            tries += 1
            await asyncio.sleep(delay)
            r = await open_session(v, base, timeout - (time.perf_counter() - killed_at), keep_open=True,
                                   previous_session=before[v.i][0])
            if r.status != "ok":
                errors.append(f"{r.status}: {r.error}")
            if r.status == "ok":
                return {"i": v.i, "page": v.page, "ok": r.ok, "tries": tries,
                        "noticed_s": round(v.closed_at - killed_at, 2),
                        "recovered_s": round(time.perf_counter() - killed_at, 2),
                        "new_session": v.session_id != before[v.i][0],
                        "link_kept": v.query == before[v.i][2],
                        "lost_widgets": sorted(set(before[v.i][1]) ^ set(v.widgets)),
                        "marker_seen": r.marker_seen, "exceptions": r.exceptions, "errors": errors[-3:]}
            delay = min(delay * 2, 5.0)
        return {"i": v.i, "page": v.page, "ok": False, "tries": tries, "error": "not recovered before the deadline",
                "errors": errors[-3:]}

    async def stay(v: Visitor) -> dict:
        """A visitor of the surviving replica reruns its page on its open websocket (its next interaction)."""
        watcher = watchers[v.i]
        watcher.cancel()  # its replies are read below
        await asyncio.gather(watcher, return_exceptions=True)
        if v.closed_at is not None:
            return {"i": v.i, "page": v.page, "noticed": True, "why": "its websocket closed"}
        r = pl.VisitResult(page=v.page, query=v.query, marker=v.marker)
        r.received = []
        if v.page not in pl.NO_PROMPT:
            r.marker_seen = False
        t0 = time.perf_counter()
        try:
            async with asyncio.timeout(timeout):
                await v.ws.send(pl.rerun_msg(v.page, v.query).SerializeToString())
                await pl._read_until_finished(v.ws, r, t0, [v.marker.encode()], [])
        except (TimeoutError, ConnectionClosed) as exc:
            return {"i": v.i, "page": v.page, "noticed": True, "why": type(exc).__name__}
        sessions = {m.new_session.initialize.session_id for m in r.received if m.WhichOneof("type") == "new_session"}
        same = sessions <= {before[v.i][0], ""}
        # Noticed = its websocket closed, its session changed, or its next run failed. This rerun sends no
        # widget states (a browser sends the values it shows), so widgets may come back at their defaults:
        # recorded, not counted.
        changed = sorted(set(widget_state(r.received)) ^ set(before[v.i][1]))
        return {"i": v.i, "page": v.page, "noticed": not (r.ok and same), "same_session": same, "status": r.status,
                "rerun_s": round(r.ready_s or -1, 2), "marker_seen": r.marker_seen, "widgets_changed": changed[:4]}

    results_b = await asyncio.gather(*(reconnect(v) for v in on_b))
    results_a = await asyncio.gather(*(stay(v) for v in on_a))
    for task in watchers.values():
        task.cancel()
    await asyncio.gather(*watchers.values(), return_exceptions=True)
    for v in connected:
        if v.ws is not None:
            await v.ws.close()
    recovered = [r["recovered_s"] for r in results_b if r.get("ok")]
    return {
        "visitors": len(visitors), "connected": len(connected), "on_survivor": len(on_a), "on_killed": len(on_b),
        "broken_sessions": sum(not r.get("ok") for r in results_b),
        "lost_state": sum(bool(r.get("lost_widgets")) or not r.get("link_kept") for r in results_b if r.get("ok")),
        "recover_s_median": statistics.median(recovered) if recovered else None,
        "recover_s_max": max(recovered, default=None),
        "survivors_noticed": sum(r["noticed"] for r in results_a),
        "killed": results_b, "survivors": results_a,
    }


# ---------------------------------------------------------------- the run

async def warm(replicas: list[Replica], pages: list[str], lang: str, timeout: float) -> dict:
    """Every page once on each replica (both dtypes load, first reads happen), the replicas in parallel."""
    async def one(r: Replica) -> float:
        t = time.perf_counter()
        for page in pages:
            res = await pl.visit(r.url, page, pl.query_for(page, "Era uma vez", lang), timeout=timeout, locale=lang)
            if res.status != "ok":
                raise RuntimeError(f"warm-up of {r.name} failed on {page}: {res.status} {res.error}")
        return round(time.perf_counter() - t, 1)

    times = await asyncio.gather(*(one(r) for r in replicas))
    return {r.name: s for r, s in zip(replicas, times)}


def replica_cost(phase: dict) -> dict:
    """CPU seconds per page visit (both replicas' CPU over the visits that finished) and resident memory."""
    done = phase["visits"] - len(phase["errors"])
    return {"cpu_s_per_visit": round(sum(phase["cpu_s"].values()) / max(1, done), 2),
            "rss_mb_after": max(phase["rss_mb"].values())}


def _ratio(a, b) -> float | None:
    return round(a / b, 2) if a and b else None


async def run(args, workdir: Path) -> dict:
    ports = {"nginx": args.port_base, "A": args.port_base + 1, "B": args.port_base + 2}
    nginx = ensure_nginx()
    pin = args.pin and (os.cpu_count() or 1) >= 2 and shutil.which("taskset")
    a = start_replica("A", ports["A"], workdir, 0 if pin else None)
    b = start_replica("B", ports["B"], workdir, 1 if pin else None)
    conf = write_nginx_conf(workdir, ports["nginx"], [ports["A"], ports["B"]])
    lb = start_nginx(nginx, conf)
    base = f"http://127.0.0.1:{ports['nginx']}"
    report: dict = {"date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), "visitors": args.visitors,
                    "failover_visitors": args.failover, "pages": args.pages, "lang": args.lang,
                    "pinned": bool(pin), "cpu_cores": os.cpu_count(),
                    "nginx": subprocess.run([nginx, "-v"], capture_output=True, text=True).stderr.strip(),
                    "load_avg_start": os.getloadavg()[0]}  # other work on the machine shares the cores
    try:
        report["health_s"] = {r.name: round(wait_healthy(r.url, "/_stcore/health"), 1) for r in (a, b)}
        wait_healthy(base, "/_lb/health", 10)
        report["warm_s"] = await warm([a, b], args.pages, args.lang, args.timeout)
        report["rss_mb_warm"] = {r.name: round(r.rss_mb()) for r in (a, b)}
        print(f"warm: {report['warm_s']} s, RSS {report['rss_mb_warm']} MB")
        n = args.visitors
        report["alone"] = await load_phase("alone", a.url, visitors_for(n, 100, args.pages, args.lang), [a], args.timeout)
        mark = len(access_log(workdir / "access.log"))
        report["nginx_2"] = await load_phase("nginx", base, visitors_for(n, 200, args.pages, args.lang), [a, b],
                                             args.timeout)
        report["nginx_2"]["sessions_per_replica"] = sessions_per_replica(access_log(workdir / "access.log")[mark:],
                                                                         {"A": a.port, "B": b.port})
        print(f"[nginx] sessions per replica: {report['nginx_2']['sessions_per_replica']}")
        one, two = report["alone"], report["nginx_2"]
        report["ratio_nginx_to_alone"] = {"p50": _ratio(two["ready_p50_s"], one["ready_p50_s"]),
                                          "p95": _ratio(two["ready_p95_s"], one["ready_p95_s"]),
                                          "visits_per_min": _ratio(two["visits_per_min"], one["visits_per_min"])}
        report["replica"] = replica_cost(two)
        report["failover"] = await failover_phase(base, visitors_for(args.failover, 300, args.pages, args.lang), a, b,
                                                  workdir / "access.log", args.timeout, args.settle)
        f = report["failover"]
        print(f"[failover] broken {f['broken_sessions']}, lost state {f['lost_state']}, recovered in "
              f"{f['recover_s_median']} s (median) / {f['recover_s_max']} s (max); survivors noticed "
              f"{f['survivors_noticed']} of {f['on_survivor']}")
    finally:
        report["load_avg_end"] = os.getloadavg()[0]
        stop(lb, signal.SIGQUIT)
        for r in (a, b):
            stop(r.proc)
            r.log.close()
    return report


DOC_BEGIN, DOC_END = "<!-- scaletest:begin -->", "<!-- scaletest:end -->"


def _errors(phase: dict) -> str:
    kinds = sorted({e["status"] for e in phase["errors"]})
    return f"{len(phase['errors'])} ({', '.join(kinds)})" if kinds else "0"


def doc_block(rep: dict) -> str:
    """docs/deploy.md's table of this run's figures."""
    one, two, f = rep["alone"], rep["nginx_2"], rep["failover"]
    spr = two["sessions_per_replica"]
    ratio = rep["ratio_nginx_to_alone"]
    cores = "one core each (`taskset`)" if rep["pinned"] else "the machine's cores, shared"
    lines = [
        DOC_BEGIN,
        f"`make scaletest`, {rep['date']}: {rep['visitors']} protocol visitors over {len(rep['pages'])} pages, "
        f"each with a prompt of its own; replicas on {cores}; {rep['nginx']}.",
        "",
        "| Case | p50 ready | p95 ready | errors | visits a minute | sessions per replica | replica CPU |",
        "|---|---|---|---|---|---|---|",
        f"| one replica alone | {one['ready_p50_s']:.1f} s | {one['ready_p95_s']:.1f} s | {_errors(one)} | "
        f"{one['visits_per_min']} | A {rep['visitors']} | A {one['cpu_s']['A']} s |",
        f"| 2 replicas behind nginx | {two['ready_p50_s']:.1f} s | {two['ready_p95_s']:.1f} s | {_errors(two)} | "
        f"{two['visits_per_min']} | A {spr['A']}, B {spr['B']} | A {two['cpu_s']['A']} s, B {two['cpu_s']['B']} s |",
        f"| ratio, nginx ÷ alone | {ratio['p50']} | {ratio['p95']} | | {ratio['visits_per_min']} | | |",
        "",
        f"Failover: {f['connected']} visitors connected through nginx ({f['on_survivor']} on A, {f['on_killed']} on "
        f"B); B was killed (SIGKILL). Broken sessions: **{f['broken_sessions']}**; lost state: **{f['lost_state']}**; "
        f"B's visitors had their pages again after {f['recover_s_median']} s (median), {f['recover_s_max']} s "
        f"(slowest); A's visitors that noticed anything: **{f['survivors_noticed']}**. One replica: "
        f"{rep['replica']['cpu_s_per_visit']} CPU s per visit with a new prompt, {rep['replica']['rss_mb_after']:,} MB "
        f"resident after the run.",
        DOC_END,
    ]
    return "\n".join(lines)


def write_doc(rep: dict, path: Path = ROOT / "docs" / "deploy.md") -> None:
    text = path.read_text()
    if DOC_BEGIN not in text:
        print(f"{path} has no {DOC_BEGIN} block; figures not written there")
        return
    head, rest = text.split(DOC_BEGIN, 1)
    tail = rest.split(DOC_END, 1)[1]
    path.write_text(head + doc_block(rep) + tail)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--visitors", type=int, default=30, help="visitors in each load phase (at most 100)")
    ap.add_argument("--failover", type=int, default=12, help="visitors connected when a replica is killed")
    ap.add_argument("--pages", default="all", help="comma-separated pages or 'all'")
    ap.add_argument("--lang", default="pt-BR", choices=["pt-BR", "en"])
    ap.add_argument("--timeout", type=float, default=300.0, help="deadline of each visit and of the failover")
    ap.add_argument("--settle", type=float, default=2.0, help="seconds connected and idle before the kill")
    ap.add_argument("--port-base", type=int, default=PORTS["nginx"], help="nginx here, replicas on the next two")
    ap.add_argument("--no-pin", dest="pin", action="store_false", help="do not give each replica its own core")
    ap.add_argument("--out", default=str(ROOT / "bench" / "scaletest.json"))
    ap.add_argument("--no-doc", dest="doc", action="store_false", help="do not write docs/deploy.md's figures")
    args = ap.parse_args(argv)
    if not (0 < args.visitors <= 100 and 0 < args.failover <= 100):
        ap.error("visitors and failover: 1..100")
    args.pages = pl.PAGES if args.pages == "all" else [p.strip() for p in args.pages.split(",") if p.strip()]
    workdir = Path(tempfile.mkdtemp(prefix="tbt-scaletest-"))
    os.chmod(workdir, 0o755)
    started = time.perf_counter()
    try:
        report = asyncio.run(run(args, workdir))
    finally:
        logs = ROOT / "artifacts" / "scaletest"
        logs.mkdir(parents=True, exist_ok=True)
        for name in ("access.log", "error.log", "replica-A.log", "replica-B.log"):
            if (workdir / name).exists():
                shutil.copy(workdir / name, logs / name)
        shutil.rmtree(workdir, ignore_errors=True)
    report["wall_s"] = round(time.perf_counter() - started)
    Path(args.out).write_text(json.dumps(report, indent=1, ensure_ascii=False, default=str) + "\n")
    print(f"wrote {args.out} ({report['wall_s']} s); logs in artifacts/scaletest/")
    if args.doc:
        write_doc(report)
        print("docs/deploy.md figures updated")


if __name__ == "__main__":
    main()
