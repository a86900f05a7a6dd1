"""Load test: 30 concurrent visitors in headless Chromium, spread over every page, each with its own
prompt marker. Prints p50/p95 time-to-ready, errors, memory per session, model loads and any leak of
one visitor's prompt into another's page; writes bench/loadtest.json.

    make loadtest      # or: .venv/bin/python bench/loadtest.py [--sessions 30]
Only talks to a server it starts itself on 127.0.0.1.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402
from playwright.async_api import async_playwright  # noqa: E402

from tests.conftest import _free_port  # noqa: E402
from ui.nav import available  # noqa: E402

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
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
        await asyncio.sleep(1.0)
        end = time.perf_counter() + TIMEOUT_S
        while time.perf_counter() < end and await page.locator('[data-testid="stStatusWidget"]').count():
            await asyncio.sleep(0.3)
        entry["ready_s"] = time.perf_counter() - t0
        body = await page.inner_text("body")
        entry["exceptions"] = await page.locator('[data-testid="stException"]').count()
        values = await page.locator("textarea, input[type=text]").evaluate_all("els => els.map(e => e.value)")
        seen = " ".join(values) + " " + body
        entry["own_marker_seen"] = markers[i] in seen
        entry["foreign_markers"] = [j for j, m in enumerate(markers) if j != i and m in seen]
    except Exception as exc:  # noqa: BLE001 - every failure is a reported figure, not a crash
        entry["error"] = f"{type(exc).__name__}: {exc}"[:300]
    finally:
        await ctx.close()
    results.append(entry)


async def run(sessions: int) -> dict:
    port = _free_port()
    log_path = ROOT / "artifacts" / "loadtest-server.log"
    log_path.parent.mkdir(exist_ok=True)
    log = open(log_path, "w")
    server = subprocess.Popen([sys.executable, "-m", "ui.serve", "--server.port", str(port), "--server.address",
                               "127.0.0.1"], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    proc = psutil.Process(server.pid)
    pages = [n for n, _ in available()]
    markers = [marker(i) for i in range(sessions)]
    try:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
            warm: list = []
            await visit(browser, url, "home", 0, warm, markers)  # load the model once
            rss_loaded = proc.memory_info().rss / 1e6
            results: list = []
            t = time.perf_counter()
            await asyncio.gather(*(visit(browser, url, pages[i % len(pages)], i, results, markers)
                                   for i in range(sessions)))
            wall = time.perf_counter() - t
            await browser.close()
        rss_after = proc.memory_info().rss / 1e6
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    ready = sorted(r["ready_s"] for r in results if "ready_s" in r)
    loads = log_path.read_text().count("Loaded ")
    report = {
        "sessions": sessions, "pages": pages, "wall_s": wall,
        "ready_p50_s": statistics.median(ready) if ready else None,
        "ready_p95_s": ready[min(len(ready) - 1, int(0.95 * len(ready)))] if ready else None,
        "errors": [r for r in results if r["error"] or r.get("exceptions")],
        "leaks": [r for r in results if r.get("foreign_markers")],
        "own_marker_missing": [r["session"] for r in results if r.get("own_marker_seen") is False],
        "rss_mb_loaded": rss_loaded, "rss_mb_after": rss_after,
        "rss_mb_per_session": (rss_after - rss_loaded) / sessions,
        "model_loads": loads,
    }
    return report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sessions", type=int, default=30)
    args = ap.parse_args()
    report = asyncio.run(run(args.sessions))
    for key in ("sessions", "wall_s", "ready_p50_s", "ready_p95_s", "rss_mb_loaded", "rss_mb_after",
                "rss_mb_per_session", "model_loads"):
        print(f"{key:<22} {report[key]}")
    print(f"{'errors':<22} {len(report['errors'])}")
    print(f"{'cross-session leaks':<22} {len(report['leaks'])}")
    print(f"{'own prompt not shown':<22} {report['own_marker_missing']}")
    (ROOT / "bench" / "loadtest.json").write_text(json.dumps(report, indent=1, default=str))
    print("wrote bench/loadtest.json")


if __name__ == "__main__":
    main()
