"""What one visit costs the server, page by page, and what 30 or 100 visitors do to it.

    make bench                      # runs this after bench/bench.py
    .venv/bin/python -m bench visit_cost [--repeat 2] [--skip chromium idle ...] [--port 8621]

Starts the app on 127.0.0.1 (bf16, the default), loads both models once, then for every page:
- cold: a protocol visitor (support/protoload.py) opens the page with a prompt nobody has used;
- warm: a second visitor opens the same link (every model result is cached by then);
- for pages whose heavy panel waits for a click on a new prompt (ASKED), the same two visits again with a
  link that asks for it (run=1), i.e. what the click costs;
and reads the server process's CPU seconds (user + system, its children included) before and after
each visit, so the figure is the server's work, not this client's. Bytes are the websocket payloads
the server sent. Then one Chromium visitor per page (warm link: page ready time in a real browser,
and the server's CPU for it, static files included), and the protocol load cases: 30 visitors on one
shared link over all pages, 30 with their own prompts, 100 idle sessions (memory, and a visit's time
while they are connected). Writes its own keys ("visit_cost", "load") into bench/results.json.
A script that prints figures, not a test.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ["TBT_VALIDATE_CHARTS"] = "0"  # measure what visitors get (see ui/charts.py)

import psutil  # noqa: E402

from support import chromium  # noqa: E402
from support.protoload import PAGES, query_for, run_load, visit  # noqa: E402
from support.protoload import idle_sessions as open_idle  # noqa: E402
from support.server import launch, start_server, stop_server, wait_healthy  # noqa: E402

RESULTS = ROOT / "bench" / "results.json"
# Pages whose heavy panel waits for a click when a prompt is new: a link made after the click carries this, and
# the panel then runs at once. page_costs measures those visits too ("asked": cold, then the same link warm).
ASKED = {"nondeterminism": "run=1", "hallucination": "run=1"}
GOALS = {"cpu_warm_s": 0.25, "cpu_cold_s": 1.5, "kb": 400, "shared_p95_s": 5.0, "own_p95_s": 20.0,
         "idle_rss_mb": 1000, "chromium_home_s": 1.5,
         "chromium_cpu_over_bare": 2.0}


def server_cpu(proc: psutil.Process) -> float:
    """CPU seconds of the server and of its child processes (running, or ended and reaped)."""
    t = proc.cpu_times()
    total = t.user + t.system + t.children_user + t.children_system
    for child in proc.children(recursive=True):
        try:
            total += sum(child.cpu_times()[:2])
        except psutil.Error:
            pass
    return total


async def costed_visit(proc: psutil.Process, url: str, page: str, query: str, marker: str | None) -> dict:
    """One protocol visit with the server's CPU seconds around it (after its session has closed)."""
    await asyncio.sleep(0.3)
    before = server_cpu(proc)
    r = await visit(url, page, query, marker=marker, timeout=600)
    await asyncio.sleep(0.5)  # the session's teardown is part of the visit
    return {"cpu_s": server_cpu(proc) - before, "kb": r.payload_bytes / 1000, "ready_s": r.ready_s,
            "ok": r.ok, "error": r.error, "exceptions": r.exceptions, "marker_seen": r.marker_seen}


async def page_costs(proc: psutil.Process, url: str, pages: list[str], repeat: int) -> dict:
    """Cold and warm protocol visits, repeat times per page, each round with new prompts."""
    out: dict[str, dict] = {}
    stamp = time.strftime("%H%M%S")
    for page in pages:
        cold, warm = [], []
        for k in range(repeat):
            prompt = f"Custo da visita {stamp}-{k} na página {page}"
            query = query_for(page, prompt, "pt-BR")
            cold.append(await costed_visit(proc, url, page, query, prompt))
            warm.append(await costed_visit(proc, url, page, query, prompt))
        failed = [v for v in cold + warm if not v["ok"] or v["marker_seen"] is False]
        out[page] = {
            "cpu_cold_s": statistics.median(v["cpu_s"] for v in cold),
            "cpu_warm_s": statistics.median(v["cpu_s"] for v in warm),
            "kb": statistics.median(v["kb"] for v in warm),
            "ready_cold_s": statistics.median(v["ready_s"] or float("nan") for v in cold),
            "ready_warm_s": statistics.median(v["ready_s"] or float("nan") for v in warm),
            "runs": repeat, "failed": failed,
        }
        p = out[page]
        print(f"  {page:<15} CPU cold {p['cpu_cold_s']:6.2f} s  warm {p['cpu_warm_s']:5.2f} s  "
              f"{p['kb']:7.0f} KB  ready cold {p['ready_cold_s']:5.2f} s  warm {p['ready_warm_s']:5.2f} s"
              f"{'  FAILED ' + str(failed)[:200] if failed else ''}", flush=True)
        if page in ASKED:  # the panel that waits for a click, asked for by the link: what the click costs
            cold, warm = [], []
            for k in range(repeat):
                prompt = f"Custo da visita pedida {stamp}-{k} na página {page}"
                query = query_for(page, prompt, "pt-BR", ASKED[page])
                cold.append(await costed_visit(proc, url, page, query, prompt))
                warm.append(await costed_visit(proc, url, page, query, prompt))
            p.update(cpu_asked_cold_s=statistics.median(v["cpu_s"] for v in cold),
                     cpu_asked_warm_s=statistics.median(v["cpu_s"] for v in warm),
                     kb_asked=statistics.median(v["kb"] for v in warm))
            p["failed"] += [v for v in cold + warm if not v["ok"] or v["marker_seen"] is False]
            print(f"  {page + ' ' + ASKED[page]:<15} CPU cold {p['cpu_asked_cold_s']:6.2f} s  warm "
                  f"{p['cpu_asked_warm_s']:5.2f} s  {p['kb_asked']:7.0f} KB", flush=True)
    return out


async def live_cost(proc: psutil.Process, url: str, repeat: int) -> dict:
    """The class page (/live) as a phone that follows a link to it without a room yet: the join form. Not a lesson
    page (no prompt), so its figures stand beside the walk, not in it."""
    visits = [await costed_visit(proc, url, "live", "lang=pt-BR", None) for _ in range(2 * repeat)]
    cold, warm = visits[0], visits[1:]
    out = {"cpu_first_s": cold["cpu_s"], "cpu_warm_s": statistics.median(v["cpu_s"] for v in warm),
           "kb": statistics.median(v["kb"] for v in warm),
           "ready_warm_s": statistics.median(v["ready_s"] or float("nan") for v in warm),
           "failed": [v for v in visits if not v["ok"]]}
    print(f"  {'live (join)':<15} CPU first {out['cpu_first_s']:6.2f} s  warm {out['cpu_warm_s']:5.2f} s  "
          f"{out['kb']:7.0f} KB  ready warm {out['ready_warm_s']:5.2f} s", flush=True)
    return out


async def _fresh_visit(browser, proc: psutil.Process, link: str, arrived) -> dict:
    """One visit in a new browser context (nothing cached: every static file too, as a new phone): the time until
    `arrived(tab)` holds and Streamlit's status widget is gone, twice 0.1 s apart, and the server's whole CPU."""
    ctx = await browser.new_context(viewport={"width": 1280, "height": 720}, locale="pt-BR")
    tab = await ctx.new_page()
    await asyncio.sleep(0.3)
    before, t0 = server_cpu(proc), time.perf_counter()
    await tab.goto(link, timeout=600_000)
    ready, calm = None, 0
    while time.perf_counter() - t0 < 600 and calm < 2:
        running = await tab.locator('[data-testid="stStatusWidget"]').count()
        calm = calm + 1 if await arrived(tab) and not running else 0
        if calm == 1:
            ready = time.perf_counter() - t0
        await asyncio.sleep(0.1)
    await ctx.close()
    await asyncio.sleep(0.5)
    return {"ready_s": ready if calm >= 2 else None, "cpu_s": server_cpu(proc) - before}


async def bare_page(browser, runs: int = 3) -> dict:
    """The floor: a bare Streamlit page (bench/bare_app.py: a title and a text area) served like the app, visited
    the same way; the median of `runs` visits."""
    server, url, log = launch(module="bench.bare_app", log_path=ROOT / "artifacts" / "bare_app.log")
    try:
        wait_healthy(url, 120, server)
        proc = psutil.Process(server.pid)

        async def arrived(tab):
            return await tab.locator("textarea").count() > 0

        await _fresh_visit(browser, proc, url, arrived)  # Streamlit's own first-run work
        visits = [await _fresh_visit(browser, proc, url, arrived) for _ in range(runs)]
    finally:
        stop_server(server, log)
    return {"ready_s": statistics.median(v["ready_s"] or float("nan") for v in visits),
            "cpu_s": statistics.median(v["cpu_s"] for v in visits), "runs": runs}


async def chromium_ready(proc: psutil.Process, url: str, pages: list[str]) -> dict:
    """One Chromium visitor per page on a link already computed: time until the page is drawn and idle, and the
    server's CPU for it; then the same for a bare Streamlit page, and each page's CPU as a multiple of it."""
    from playwright.async_api import async_playwright

    out = {}
    async with async_playwright() as p:
        browser = await chromium.launch(p)
        for page_name in pages:
            prompt = f"Visita no navegador à página {page_name}"
            link = f"{url}/{'' if page_name == 'home' else page_name}?{query_for(page_name, prompt, 'pt-BR')}"
            await visit(url, page_name, query_for(page_name, prompt, "pt-BR"), timeout=600)  # the link is warm

            async def arrived(tab, page_name=page_name, prompt=prompt):
                if page_name == "grokking":
                    return await tab.locator('[data-testid="stButton"]').count() > 0
                values = await tab.locator("textarea, input[type=text]").evaluate_all("e => e.map(x => x.value)")
                return prompt in values

            out[page_name] = await _fresh_visit(browser, proc, link, arrived)
            print(f"  {page_name:<15} Chromium ready {out[page_name]['ready_s']} s, server CPU "
                  f"{out[page_name]['cpu_s']:.2f} s", flush=True)
        bare = await bare_page(browser)
        await browser.close()
    ratios = {page: out[page]["cpu_s"] / bare["cpu_s"] for page in pages if bare["cpu_s"] > 0}
    print(f"  bare Streamlit page: ready {bare['ready_s']:.2f} s, server CPU {bare['cpu_s']:.2f} s; pages' CPU "
          f"{min(ratios.values(), default=0):.1f}-{max(ratios.values(), default=0):.1f}x of it (goal <= 2)", flush=True)
    return {"pages": out, "bare": bare, "cpu_over_bare": ratios}


def _load_summary(report: dict, proc: psutil.Process, cpu0: float) -> dict:
    keep = ("visitors", "shared", "wall_s", "ready_p50_s", "ready_p95_s", "ready_max_s", "error_alerts",
            "payload_kb_total")
    out = {k: report[k] for k in keep}
    out.update(errors=len(report["errors"]), error_details=report["errors"][:5], leaks=len(report["leaks"]),
               own_marker_missing=len(report["own_marker_missing"]),
               p95_by_page={n: p["p95_s"] for n, p in report["by_page"].items()},
               server_cpu_s=server_cpu(proc) - cpu0)
    out["server_cpu_s_per_visit"] = out["server_cpu_s"] / report["visitors"]
    print(f"  {'shared link' if report['shared'] else 'own prompts'}: {report['visitors']} visitors, "
          f"p50 {out['ready_p50_s']:.1f} s, p95 {out['ready_p95_s']:.1f} s, max {out['ready_max_s']:.1f} s, "
          f"errors {out['errors']}, leaks {out['leaks']}, markers missing {out['own_marker_missing']}, "
          f"server CPU {out['server_cpu_s']:.1f} s ({out['server_cpu_s_per_visit']:.2f} per visit)", flush=True)
    return out


async def load_cases(proc: psutil.Process, url: str, pages: list[str], skip: set[str], n: int, idle_n: int) -> dict:
    out = {}
    if "shared" not in skip:
        teacher = "A professora pergunta: o que vem depois de"
        for page in pages:  # the teacher opened the link first
            await visit(url, page, query_for(page, teacher, "pt-BR"), timeout=600)
        await asyncio.sleep(1)
        cpu0 = server_cpu(proc)
        report = await run_load(url, n, pages, shared=True, prompt=teacher, timeout=600)
        out["shared_link"] = _load_summary(report, proc, cpu0)
    if "own" not in skip:
        await asyncio.sleep(1)
        cpu0 = server_cpu(proc)
        report = await run_load(url, n, pages, shared=False, timeout=900)
        out["own_prompts"] = _load_summary(report, proc, cpu0)
    if "idle" not in skip:
        out["idle_sessions"] = await idle_case(proc, url, idle_n)
    return out


async def idle_case(proc: psutil.Process, url: str, n: int) -> dict:
    """n sessions on the home page, connected and idle: memory, idle CPU, and a visit's time meanwhile."""
    query = query_for("home", "Uma turma conectada e parada", "pt-BR")
    alone = await visit(url, "home", query, timeout=600)  # computes the link once
    alone = await visit(url, "home", query, timeout=600)
    await asyncio.sleep(2)
    rss0 = proc.memory_info().rss / 1e6
    async with open_idle(url, n, "home", query, timeout=900) as loaded:
        await asyncio.sleep(3)
        rss1 = proc.memory_info().rss / 1e6
        cpu0 = server_cpu(proc)
        await asyncio.sleep(10)
        idle_cpu = (server_cpu(proc) - cpu0) / 10
        during = await visit(url, "home", query, timeout=600)
        ok = sum(r.ok for r in loaded)
    out = {"sessions": n, "loaded_ok": ok, "rss_mb_before": rss0, "rss_mb_connected": rss1,
           "rss_growth_mb": rss1 - rss0, "idle_cpu_s_per_s": idle_cpu,
           "visit_alone_s": alone.ready_s, "visit_with_idle_sessions_s": during.ready_s}
    print(f"  {n} idle sessions: {ok} loaded, RSS {rss0:.0f} -> {rss1:.0f} MB (+{rss1 - rss0:.0f}), idle CPU "
          f"{idle_cpu:.3f} s/s, a home visit {alone.ready_s:.2f} s alone, {during.ready_s:.2f} s with them", flush=True)
    return out


def server_idle_cpu(proc: psutil.Process, seconds: float = 10.0) -> float:
    """CPU seconds per second of a server with no visitor (pollers, timers)."""
    c0 = server_cpu(proc)
    time.sleep(seconds)
    return (server_cpu(proc) - c0) / seconds


async def measure(args) -> dict:
    server, url, log = start_server(args.port)
    proc = psutil.Process(server.pid)
    try:
        pages = args.pages
        print(f"server {url}, pid {server.pid}; warming up (both models load once)", flush=True)
        for page in pages:
            await visit(url, page, query_for(page, "Aquecimento do servidor", "pt-BR"), timeout=900)
        from model_backend.runtime.hardware import describe

        out: dict = {"date": time.strftime("%Y-%m-%d %H:%M"), "cpus": os.cpu_count(), "machine": describe(),
                     "pages": pages, "goals": GOALS, "rss_mb_warm": proc.memory_info().rss / 1e6}
        out["server_idle_cpu_s_per_s"] = server_idle_cpu(proc)
        print(f"idle server: {out['server_idle_cpu_s_per_s']:.4f} CPU-s per s", flush=True)
        if "cost" not in args.skip:
            print("per visit, protocol client (server CPU seconds, payload KB):", flush=True)
            out["pages_cost"] = await page_costs(proc, url, pages, args.repeat)
            costs = out["pages_cost"].values()
            out["walk"] = {"cpu_cold_s": sum(p["cpu_cold_s"] for p in costs),
                           "cpu_warm_s": sum(p["cpu_warm_s"] for p in costs), "kb": sum(p["kb"] for p in costs)}
            out["live_page"] = await live_cost(proc, url, args.repeat)
            print(f"  one walk through all pages: CPU cold {out['walk']['cpu_cold_s']:.1f} s, warm "
                  f"{out['walk']['cpu_warm_s']:.1f} s, {out['walk']['kb']:.0f} KB", flush=True)
        if "chromium" not in args.skip:
            print("one visitor in Chromium (a warm link):", flush=True)
            out["chromium"] = await chromium_ready(proc, url, pages)
        print("protocol load:", flush=True)
        out["load"] = await load_cases(proc, url, pages, set(args.skip), args.visitors, args.idle)
        out["rss_mb_end"] = proc.memory_info().rss / 1e6
        return out
    finally:
        stop_server(server, log)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=2, help="cold + warm visits per page (new prompts each round)")
    ap.add_argument("--pages", nargs="*", default=PAGES, choices=PAGES)
    ap.add_argument("--skip", nargs="*", default=[], choices=["cost", "chromium", "shared", "own", "idle"])
    ap.add_argument("--visitors", type=int, default=30)
    ap.add_argument("--idle", type=int, default=100)
    ap.add_argument("--port", type=int, default=None)
    ap.add_argument("--out", default=str(RESULTS), help="JSON file whose 'visit_cost' key this script replaces")
    args = ap.parse_args()
    figures = asyncio.run(measure(args))
    path = Path(args.out)
    data = json.loads(path.read_text()) if path.exists() else {}
    data["visit_cost"] = figures  # read-modify-write: only this script's key
    path.write_text(json.dumps(data, indent=1, default=str))
    print(f"wrote {path} (key visit_cost)")


if __name__ == "__main__":
    main()
