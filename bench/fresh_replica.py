"""What the first student on each page pays on a replica that has just started, with and without its warm-up.

    .venv/bin/python -m bench fresh_replica [--pages home,loop] [--modes warm,cold] [--no-write]

For each mode, starts a fresh server (`python -m ui.serve`, `auto` dtype, as `make run`):
- warm: `TBT_WARM=all` (the default of `make run` and of the image): the server visits its pages itself
  (ui/warm.py) before `/_stcore/health` says "ok"; the bench records how long that took and the server's CPU;
- cold: `TBT_WARM=off`, the health check says "ok" as soon as the server is up (what every replica did before).
Then a protocol visitor (support/protoload.py, no browser, so no static files: a fresh browser adds about 0.2
server CPU-s for them, bench/results.json "first_visit") opens each page once with its default link, in pt-BR,
one after another, and the server's CPU (user + system, children included) is read before and after each visit.
Goal (issue 30, point 7): no first visit costs more than 3 CPU-s. Writes the "fresh_replica" key of
bench/results.json. A script that prints figures, not a test.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import psutil  # noqa: E402

from bench.visit_cost import server_cpu  # noqa: E402
from support.protoload import PAGES, query_for, visit  # noqa: E402
from support.server import start_server, stop_server  # noqa: E402

RESULTS = ROOT / "bench" / "results.json"
GOAL_FIRST_VISIT_CPU_S = 3.0


def _settle(proc: psutil.Process, quiet_rate: float = 0.05, limit: float = 30.0) -> None:
    """Wait until the server's CPU rate stays under quiet_rate CPU-s per s for half a second (bounded)."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        c = server_cpu(proc)
        time.sleep(0.5)
        if server_cpu(proc) - c < quiet_rate * 0.5:
            return


def one_mode(mode: str, pages: list[str]) -> dict:
    env = {"TBT_WARM": "all" if mode == "warm" else "off", "TBT_VALIDATE_CHARTS": "0"}
    if mode == "warm" and pages != PAGES:
        env["TBT_WARM"] = ",".join(pages)
    started = time.perf_counter()
    srv, url, log = start_server(env=env, log_path=ROOT / "artifacts" / f"fresh-{mode}.log", deadline_s=900)
    proc = psutil.Process(srv.pid)
    out: dict = {"ready_after_s": time.perf_counter() - started, "cpu_until_ready_s": server_cpu(proc), "pages": {}}
    try:
        _settle(proc)
        for page in pages:
            c = server_cpu(proc)
            r = asyncio.run(visit(url, page, query_for(page, None, "pt-BR"), timeout=600))
            _settle(proc)
            out["pages"][page] = {"cpu_s": server_cpu(proc) - c, "ready_s": r.ready_s, "status": r.status,
                                  "exceptions": r.exceptions}
            print(f"{mode:5s} {page:15s} {out['pages'][page]['cpu_s']:6.2f} CPU-s  ready {r.ready_s or 0:6.2f} s  "
                  f"{r.status}", flush=True)
    finally:
        stop_server(srv, log)
    costs = [p["cpu_s"] for p in out["pages"].values()]
    out["max_first_visit_cpu_s"] = max(costs) if costs else None
    out["first_visits_cpu_s"] = sum(costs)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", default=",".join(PAGES), help="comma-separated pages (default: the whole path)")
    ap.add_argument("--modes", default="warm,cold", help="warm, cold or both")
    ap.add_argument("--no-write", dest="write", action="store_false", help="print only")
    args = ap.parse_args()
    pages = [p for p in args.pages.split(",") if p]
    result = {"date": time.strftime("%Y-%m-%d %H:%M"), "uptime": os.getloadavg(), "cpus": os.cpu_count(),
              "goal_first_visit_cpu_s": GOAL_FIRST_VISIT_CPU_S, "what": __doc__.split("\n\n")[2].strip()}
    for mode in [m for m in args.modes.split(",") if m]:
        result[mode] = one_mode(mode, pages)
        r = result[mode]
        print(f"{mode}: ready after {r['ready_after_s']:.1f} s ({r['cpu_until_ready_s']:.1f} CPU-s); first visits "
              f"{r['first_visits_cpu_s']:.1f} CPU-s in all, the costliest {r['max_first_visit_cpu_s']:.2f}", flush=True)
    if args.write:
        data = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
        data["fresh_replica"] = result
        RESULTS.write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main()
