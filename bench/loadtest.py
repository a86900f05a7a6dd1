"""Load test: concurrent visitors (10 in `make loadtest`) in headless Chromium, spread over every page, each with its own
prompt marker. Prints p50/p95 time-to-ready, errors, memory per session, model loads and any leak of
one visitor's prompt into another's page; writes bench/loadtest.json.

    make loadtest      # both cases below
    .venv/bin/python -m bench loadtest [--sessions 30]                 # every visitor with a prompt of its own
    .venv/bin/python -m bench loadtest --shared --out bench/loadtest-shared.json   # a class on one link
Only talks to a server it starts itself on 127.0.0.1.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent

import psutil  # noqa: E402
from playwright.async_api import async_playwright  # noqa: E402

from support import chromium  # noqa: E402
from support.server import start_server, stop_server  # noqa: E402
from ui.nav import available  # noqa: E402

TIMEOUT_S = 600


def marker(i: int) -> str:
    return f"Visitante número {i:02d} pergunta"


async def visit(browser, url: str, page_name: str, i: int, results: list, markers: list[str]) -> None:
    ctx = await browser.new_context(viewport={"width": 1280, "height": 720}, locale="pt-BR")
    page = await ctx.new_page()
    t0 = time.perf_counter()
    entry = {"session": i, "page": page_name, "error": None}
    try:
        await page.goto(f"{url}/{'' if page_name == 'home' else page_name}?prompt={quote(markers[i])}",
                        timeout=TIMEOUT_S * 1000)
        await page.wait_for_selector('[data-testid="stApp"]', timeout=TIMEOUT_S * 1000)
        # Ready = the script has run with this visitor's prompt (or, on the grokking page, drawn its Train
        # button) and Streamlit's "running" indicator stayed off for two checks in a row.
        end, calm = time.perf_counter() + TIMEOUT_S, 0
        while time.perf_counter() < end and calm < 2:
            running = await page.locator('[data-testid="stStatusWidget"]').count()
            if page_name == "grokking":
                arrived = await page.get_by_role("button", name="Treinar").count() > 0
            else:
                values = await page.locator("textarea, input[type=text]").evaluate_all("els => els.map(e => e.value)")
                arrived = markers[i] in values
            calm = calm + 1 if arrived and not running else 0
            if calm == 1:
                entry["ready_s"] = time.perf_counter() - t0  # the first calm check: when it was ready
            await asyncio.sleep(0.5)
        if calm < 2:
            entry.pop("ready_s", None)
            raise TimeoutError(f"not ready after {TIMEOUT_S} s")
        body = await page.inner_text("body")
        entry["exceptions"] = await page.locator('[data-testid="stException"]').count()
        values = await page.locator("textarea, input[type=text]").evaluate_all("els => els.map(e => e.value)")
        seen = " ".join(values) + " " + body
        if page_name == "grokking":  # no prompt here: this visitor trains instead, while the others generate
            entry["training"] = await train(page)
        else:
            entry["own_marker_seen"] = markers[i] in seen
        entry["foreign_markers"] = [j for j, m in enumerate(markers) if m != markers[i] and m in seen]
    except Exception as exc:  # noqa: BLE001 - every failure is a reported figure, not a crash
        entry["error"] = f"{type(exc).__name__}: {exc}"[:300]
    finally:
        await ctx.close()
    results.append(entry)


def _times(p: psutil.Process) -> float:
    """User + system CPU seconds of a process and of its children that have ended (Linux counts those)."""
    t = p.cpu_times()
    return t.user + t.system + getattr(t, "children_user", 0.0) + getattr(t, "children_system", 0.0)


def _cpu(p: psutil.Process) -> float:
    """CPU seconds of the server and its training processes, running or ended."""
    total = _times(p)
    for child in p.children(recursive=True):
        try:
            total += sum(child.cpu_times()[:2])
        except psutil.Error:
            pass
    return total


def _browser_cpu() -> float:
    """CPU seconds of every Chromium process (the headless browsers this script drives)."""
    total = 0.0
    for p in psutil.process_iter(["name"]):
        if "chrom" in (p.info["name"] or "").lower():
            try:
                total += _times(p)  # renderers that closed are counted by the process that reaped them
            except psutil.Error:
                pass
    return total


async def train(page) -> dict:
    """Click Train on the grokking page; return when it trained (or was told the server's slots are busy)."""
    t0 = time.perf_counter()
    await page.get_by_role("button", name="Treinar").click()
    end = time.perf_counter() + 180
    while time.perf_counter() < end:
        text = await page.inner_text("body")
        if "treinos rodando neste servidor" in text:
            return {"outcome": "busy", "after_s": time.perf_counter() - t0}
        match = re.search(r"Passo ([\d.]+) de", text)
        if match and int(match.group(1).replace(".", "")) >= 100:
            return {"outcome": "trained 100 steps", "after_s": time.perf_counter() - t0}
        await asyncio.sleep(0.5)
    return {"outcome": "no progress in 180 s", "after_s": time.perf_counter() - t0}


async def run(sessions: int, shared: bool = False) -> dict:
    # started as `make run` does, and visited only once it answers /_stcore/health (without that wait a
    # visitor could reach the port before the server listened: every visit of a run failed once that way)
    log_path = ROOT / "artifacts" / "loadtest-server.log"
    server, url, log = start_server(log_path=log_path)
    proc = psutil.Process(server.pid)
    pages = [n for n, _ in available()]
    # shared: the classroom case, everyone opens the teacher's link (one prompt, so the cache serves most)
    markers = [marker(0 if shared else i) for i in range(sessions)]
    try:
        async with async_playwright() as p:
            browser = await chromium.launch(p)
            warm: list = []
            await visit(browser, url, "home", 0, warm, markers)  # load the model once (bfloat16, the default)
            await visit(browser, url, "hallucination", 1, warm, markers)  # and in float32, which this page uses
            rss_loaded = proc.memory_info().rss / 1e6
            results: list = []
            server_cpu0, browser_cpu0 = _cpu(proc), _browser_cpu()
            t = time.perf_counter()
            await asyncio.gather(*(visit(browser, url, pages[i % len(pages)], i, results, markers)
                                   for i in range(sessions)))
            wall = time.perf_counter() - t
            server_cpu, browser_cpu = _cpu(proc) - server_cpu0, _browser_cpu() - browser_cpu0
            await browser.close()
        rss_after = proc.memory_info().rss / 1e6
    finally:
        stop_server(server, log)
    ready = sorted(r["ready_s"] for r in results if "ready_s" in r)
    loads = re.findall(r"Loaded (\S+) on (\S+) as (\S+)", log_path.read_text())
    report = {
        "sessions": sessions, "pages": pages, "wall_s": wall,
        "ready_p50_s": statistics.median(ready) if ready else None,
        "ready_p95_s": ready[min(len(ready) - 1, int(0.95 * len(ready)))] if ready else None,
        "errors": [r for r in results if r["error"] or r.get("exceptions")],
        "leaks": [r for r in results if r.get("foreign_markers")],
        "own_marker_missing": [r["session"] for r in results if r.get("own_marker_seen") is False],
        "trainings": [r["training"] for r in results if "training" in r],
        "ready_s_by_page": {n: sorted(round(r["ready_s"], 1) for r in results if r["page"] == n and "ready_s" in r)
                            for n in pages},
        "rss_mb_loaded": rss_loaded, "rss_mb_after": rss_after,
        "rss_mb_per_session": (rss_after - rss_loaded) / sessions,
        # Where the 2 cores went: the browsers run on the same machine here, not on visitors' devices.
        "server_cpu_s": server_cpu, "browser_cpu_s": browser_cpu,
        "server_cpu_s_per_visit": server_cpu / sessions,
        "model_loads": len(loads), "model_loads_by_dtype": {f"{m} {d} {t}": loads.count((m, d, t)) for m, d, t in set(loads)},
    }
    return report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sessions", type=int, default=30)
    ap.add_argument("--shared", action="store_true",
                    help="every visitor opens the same link (a class following its teacher), not a prompt of its own")
    ap.add_argument("--out", default="bench/loadtest.json")
    args = ap.parse_args()
    report = asyncio.run(run(args.sessions, args.shared))
    report["shared_prompt"] = args.shared
    for key in ("sessions", "wall_s", "ready_p50_s", "ready_p95_s", "rss_mb_loaded", "rss_mb_after",
                "rss_mb_per_session", "server_cpu_s", "browser_cpu_s", "server_cpu_s_per_visit", "model_loads",
                "model_loads_by_dtype"):
        print(f"{key:<22} {report[key]}")
    print(f"{'errors':<22} {len(report['errors'])}")
    print(f"{'cross-session leaks':<22} {len(report['leaks'])}")
    print(f"{'own prompt not shown':<22} {report['own_marker_missing']}")
    print(f"{'grokking trainings':<22} {report['trainings']}")
    for name, times in report["ready_s_by_page"].items():
        print(f"  ready s, {name:<16} {times}")
    (ROOT / args.out).write_text(json.dumps(report, indent=1, default=str))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
