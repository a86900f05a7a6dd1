"""A new browser's first visit, compared: the same readiness test as bench/visit_cost.py's Chromium part,
run on several servers in turn so that they share the machine's load.

    .venv/bin/python -m bench first_visit URL [URL ...] [--runs 6] [--text "A capital da França é"]

Each run opens each URL in a fresh Chromium context (no cache, as a new visitor) and times from the
navigation to the page being ready: a text box holds --text (the page's prompt) and Streamlit's status
widget has been gone for two polls 0.1 s apart. The URLs are visited once first (the links become warm).
Prints the median and every run per URL. A script that prints figures, not a test.

Used to compare main before and after a change (two servers from two checkouts) and against a bare
Streamlit page (the floor Streamlit's own frontend sets on this machine).
"""
from __future__ import annotations

import argparse
import statistics
import time


def ready_s(browser, url: str, text: str, limit: float = 120) -> float | None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="pt-BR")
    tab = ctx.new_page()
    time.sleep(0.3)
    t0 = time.perf_counter()
    tab.goto(url, timeout=limit * 1000)
    ready, calm = None, 0
    while calm < 2 and time.perf_counter() - t0 < limit:
        running = tab.locator('[data-testid="stStatusWidget"]').count()
        values = tab.locator("textarea, input[type=text]").evaluate_all("e => e.map(x => x.value)")
        calm = calm + 1 if text in values and not running else 0
        if calm == 1:
            ready = time.perf_counter() - t0
        time.sleep(0.1)
    ctx.close()
    return ready if calm >= 2 else None


def main() -> None:
    from playwright.sync_api import sync_playwright

    from support import chromium

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("urls", nargs="+")
    ap.add_argument("--runs", type=int, default=6)
    ap.add_argument("--text", default="A capital da França é", help="the prompt the page shows when ready")
    args = ap.parse_args()
    times: dict[str, list] = {u: [] for u in args.urls}
    with sync_playwright() as p:
        browser = chromium.launch(p)
        for url in args.urls:
            ready_s(browser, url, args.text)
        for _ in range(args.runs):
            for url in args.urls:
                times[url].append(ready_s(browser, url, args.text))
        browser.close()
    for url, runs in times.items():
        done = [r for r in runs if r is not None]
        median = f"{statistics.median(done):.2f} s" if done else "never ready"
        print(f"{url}: median {median}; runs {[None if r is None else round(r, 2) for r in runs]}")


if __name__ == "__main__":
    main()
