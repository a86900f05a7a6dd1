"""How fast the controls answer: a real key press or click in headless Chromium, to the last redraw.

    make bench            # runs this after bench/bench.py
    .venv/bin/python -m bench interactions [--repeat 10] [--only NAME ...] [--key interactions]

For each interaction the browser records the time of the key press or click (a capture listener on the
page, in the page's own clock), then every change to the main area: DOM mutations (a MutationObserver on
Streamlit's main block) and every canvas paint inside it (Vega charts and Streamlit's tables draw on
canvases, which a MutationObserver cannot see). The page has settled when Streamlit's status widget is
gone and nothing has changed for QUIET_MS; the figure is the last change minus the action. Where the
interaction has a target chart (the sampling sliders' bars) the last change inside that chart is
reported too ("target"). The server process's CPU time from the action to the settle is reported per
action ("server_cpu_ms"). Median and max of --repeat actions, warm (each page is opened and used once
before the timed actions). A script that prints figures, not a test: it asserts nothing.

Writes the figures under one key of bench/results.json (read, modified, written back).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ["TBT_VALIDATE_CHARTS"] = "0"  # measure what visitors get (see ui/charts.py)

import psutil  # noqa: E402

QUIET_MS = 1000  # no change for this long = settled (longer than any debounce the page uses)

# Installed before any page script: the action's time, and the time of the last change to the main area and to
# each chart. Canvas paints are seen by wrapping the 2-D context's drawing calls. The probe runs in the page it
# measures, on the same two cores, so it does as little as it can per change: it keeps the last time overall and
# per chart element (no list of events, no search of the page), and the polls read four numbers. (The first
# probe kept every event with its chart's index, found by a search of the page per change, and each poll copied
# that list out: ~40-60 ms of main-thread time per "Next token" click, a CDP profile, on top of the page's own.)
PROBE = """
(() => {
  const P = window.__tbt = {act: 0, last: 0, changes: 0, charts: new Map()};
  let main = null;
  const mark = (node) => {
    if (!main || !main.isConnected) main = document.querySelector('[data-testid="stMain"]');
    if (!main || !node || !main.contains(node)) return;
    const now = performance.now();
    P.last = now;
    P.changes++;
    const chart = node.closest ? node.closest('[data-testid="stVegaLiteChart"]') : null;
    if (chart) P.charts.set(chart, now);
  };
  for (const type of ['keydown', 'pointerdown']) {
    document.addEventListener(type, () => {
      P.act = performance.now(); P.last = 0; P.changes = 0; P.charts = new Map();
    }, true);
  }
  const observe = () => {
    const root = document.querySelector('[data-testid="stMain"]');
    if (!root) { setTimeout(observe, 50); return; }
    new MutationObserver((records) => {
      for (const r of records) mark(r.target.nodeType === 1 ? r.target : r.target.parentElement);
    }).observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
  };
  observe();
  const proto = CanvasRenderingContext2D.prototype;
  for (const name of ['clearRect', 'fillRect', 'fillText', 'drawImage']) {
    const original = proto[name];
    proto[name] = function (...args) {
      if (this.canvas && this.canvas.isConnected) mark(this.canvas);
      return original.apply(this, args);
    };
  }
})();
"""

READ = """() => {
  const P = window.__tbt;
  const busy = document.querySelectorAll('[data-testid="stStatusWidget"]').length > 0;
  return {act: P.act, last: P.last, changes: P.changes, now: performance.now(), busy};
}"""

# Once settled: the last change in each chart on the page, by the chart's place among the page's charts.
BY_CHART = """() => {
  const P = window.__tbt;
  const charts = [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stVegaLiteChart"]')];
  return charts.map((c, i) => [i, P.charts.get(c) || 0]).filter(([, t]) => t > 0);
}"""


@dataclass
class Interaction:
    """One control: the page to open, how to act once, and which chart (index on the page) it redraws."""

    name: str
    url: str
    act: object  # callable(page, i) that presses a key or clicks
    target_chart: int | None = None
    prepare: object = None  # callable(page) run once after opening (scroll, open an expander)
    samples: list = field(default_factory=list)


def _settle(page, timeout: float = 60.0) -> dict:
    """Wait until the page settled; return {settled, by_chart, changed}: ms after the action."""
    end = time.time() + timeout
    time.sleep(0.2)
    while time.time() < end:
        s = page.evaluate(READ)
        last = s["last"] or s["act"]
        if not s["busy"] and s["now"] - last >= QUIET_MS and s["now"] - s["act"] >= QUIET_MS:
            break
        time.sleep(0.05)
    by_chart = {i: t - s["act"] for i, t in page.evaluate(BY_CHART) if t >= s["act"]}
    return {"settled": last - s["act"], "by_chart": by_chart, "changed": s["changes"]}


def _open(browser, url: str):
    page = browser.new_page(viewport={"width": 1280, "height": 720}, locale="en-US")
    page.add_init_script(PROBE)
    page.goto(url)
    page.wait_for_selector('[data-testid="stApp"]', timeout=600_000)
    time.sleep(1.0)
    end = time.time() + 600
    while time.time() < end and page.locator('[data-testid="stStatusWidget"]').count():
        time.sleep(0.3)
    time.sleep(2.0)
    return page


def _slider_step(name: str):
    """Focus the slider named `name` and press one arrow key: right on even actions, left on odd ones."""
    def act(page, i):
        slider = page.get_by_role("slider", name=name).first
        slider.focus()
        time.sleep(0.3)
        slider.press("ArrowRight" if i % 2 == 0 else "ArrowLeft")
    return act


def _click(name: str):
    def act(page, i):
        page.get_by_role("button", name=name).first.click()
    return act


def interactions(base: str) -> list[Interaction]:
    temp = f"{base}/temperature?lang=en"
    return [
        Interaction("temperature_T", temp, _slider_step("Temperature T (0 = greedy)"), target_chart=1),
        Interaction("temperature_top_k", temp, _slider_step("top-k (0 = off)"), target_chart=1),
        Interaction("temperature_top_p", temp, _slider_step("top-p (1 = off)"), target_chart=1),
        Interaction("temperature_penalty", temp, _slider_step("Repetition penalty (1 = off)"), target_chart=1),
        Interaction("loop_next_token", f"{base}/loop?lang=en&max_new=256&temperature=0.7&seed=42",
                    _click("Next token")),
        Interaction("temperature_pair_top_p", temp, _slider_step("top-p (the same for both)")),
        Interaction("loop_inspect_step", f"{base}/loop?lang=en&max_new=256&temperature=0.7&seed=42",
                    _slider_step("Look at step"), prepare=_take_steps(4, open_text="Look back at a step already taken")),
        Interaction("pipeline_mlp_layer", f"{base}/pipeline?lang=en", _slider_step("Layer")),
        Interaction("tokenizer_neighbours", f"{base}/tokenizer?lang=en", _slider_step("How many neighbours")),
    ]


def _take_steps(n: int, open_text: str | None = None):
    """Click "Next token" n times; then open the expander titled open_text, if given."""
    def prepare(page):
        for _ in range(n):
            page.get_by_role("button", name="Next token").first.click()
            _settle(page)
        if open_text:
            page.get_by_text(open_text, exact=True).first.click()
            _settle(page)
    return prepare


def run(repeat: int, only: list[str]) -> dict:
    from playwright.sync_api import sync_playwright

    from support import chromium
    from support.server import start_server, stop_server

    proc, base, log = start_server(log_path=ROOT / "artifacts" / "interactions-server.log")
    server, out = psutil.Process(proc.pid), {}
    try:
        with sync_playwright() as p:
            browser = chromium.launch(p)
            _open(browser, base).close()  # the home page first: the model loads, the navigation is built
            for it in interactions(base):
                if only and it.name not in only:
                    continue
                try:
                    out[it.name] = _measure(browser, it, repeat, server)
                except Exception as exc:  # noqa: BLE001 - a control that is not there: say so, go on
                    print(f"{it.name:<28} skipped: {type(exc).__name__}: {str(exc)[:160]}", flush=True)
            browser.close()
    finally:
        stop_server(proc, log)
    return out


def _measure(browser, it: Interaction, repeat: int, server: psutil.Process) -> dict:
    page = _open(browser, it.url)
    try:
        if it.prepare:
            it.prepare(page)
        it.act(page, 0)  # warm: the first action may compute what later ones reuse
        _settle(page)
        it.act(page, 1)
        _settle(page)
        settled, target, cpu = [], [], []
        for i in range(repeat):
            before = server.cpu_times()
            it.act(page, i)
            s = _settle(page)
            after = server.cpu_times()
            settled.append(s["settled"])
            if it.target_chart is not None and it.target_chart in s["by_chart"]:
                target.append(s["by_chart"][it.target_chart])
            cpu.append(((after.user - before.user) + (after.system - before.system)) * 1000)
            if page.locator('[data-testid="stException"]').count():
                raise RuntimeError("the page shows an exception")
    finally:
        page.close()
    entry = {"median_ms": statistics.median(settled), "max_ms": max(settled), "runs": len(settled),
             "server_cpu_ms_median": statistics.median(cpu), "samples_ms": [round(x) for x in settled]}
    if target:
        entry.update({"target_median_ms": statistics.median(target), "target_max_ms": max(target),
                      "target_samples_ms": [round(x) for x in target]})
    line = f"{it.name:<28} settled {entry['median_ms']:7.0f} ms (max {entry['max_ms']:6.0f})"
    if target:
        line += f"  target chart {entry['target_median_ms']:6.0f} ms (max {entry['target_max_ms']:6.0f})"
    print(line + f"  server CPU {entry['server_cpu_ms_median']:5.0f} ms/action", flush=True)
    return entry


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("--key", default="interactions", help="the key of bench/results.json to write")
    args = ap.parse_args()
    print(f"Interactions, {time.strftime('%Y-%m-%d %H:%M')}, {platform.machine()}, {os.cpu_count()} cores, "
          f"Chromium 1280x720, quiet {QUIET_MS} ms, median/max of {args.repeat}\n", flush=True)
    figures = run(args.repeat, args.only)
    path = ROOT / "bench" / "results.json"
    results = json.loads(path.read_text()) if path.exists() else {}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    from model_backend.runtime.hardware import describe

    results[args.key] = {"meta": {"date": time.strftime("%Y-%m-%d"), "commit": commit.strip(),
                                  "quiet_ms": QUIET_MS, "viewport": "1280x720", **describe()}, "figures": figures}
    path.write_text(json.dumps(results, indent=1))
    print(f"\nwrote bench/results.json [{args.key!r}]")


if __name__ == "__main__":
    main()
