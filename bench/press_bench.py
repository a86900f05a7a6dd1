"""What a button press costs when a class presses at once: protocol visitors (support/protoload.py) press buttons.

    make bench-press      # or: .venv/bin/python bench/press_bench.py [--visitors 30] [--cases loop,why] [--repeat 2]

Starts the app on 127.0.0.1 (`auto` dtype, as `make run`), then for each case (a page and its main button):
- warm-up: one visitor opens the page and presses (models load, shared one-time work is done);
- alone: one visitor with a new prompt opens the page and presses, --repeat times (the median is kept);
- together: --visitors visitors, each with a prompt nobody has used, open the page; once every page has
  loaded, all press at the same moment.
A press is timed from sending the click to the server's script_finished for the run it started (reruns
followed). The server's CPU (user + system, children included) is read before the clicks and again once
it is back at idle, and divided by the number of presses. For the loop page, tokens per second of the
concurrent streams against one stream: n x tokens / slowest press, over tokens / press alone.
For the loop page, where a press's CPU goes: the same presses' model passes and step work (sampling, the
stages' probabilities and entropies, the candidates), without Streamlit, run in this process through the same
engine (30 threads at once, and one alone); the server's CPU per press minus that is the page's drawing and
Streamlit's messages ("split").
Then "hang up": 10 sessions press the loop page's Generate and close their websockets 0.3 s later: the
time until the server's CPU is back at idle, and (in a second round) a new visitor's home page ready time
meanwhile. Writes the "press" key of bench/results.json (other keys, and cases not run, stay).
A script that prints figures, not a test: it asserts nothing.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import re
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ["TBT_VALIDATE_CHARTS"] = "0"  # measure what visitors get (see ui/charts.py)

import psutil  # noqa: E402

from bench.visit_cost import server_cpu  # noqa: E402
from support.protoload import marker, press_together, query_for, visit  # noqa: E402
from support.server import start_server, stop_server  # noqa: E402

RESULTS = ROOT / "bench" / "results.json"
# case: (URL path, the button: its widget key, or its English label where it has no key)
CASES = {
    "loop": ("loop", "Generate to the end"),  # 20 tokens, the page's default
    "hallucination": ("hallucination", "hallucination_go"),  # "Generate and measure"
    "why": ("why", "why_go"),  # "Complete and explain"
    "nondeterminism": ("nondeterminism", "nd_go"),  # "Run 5 times"
    "decoding": ("decoding", "decoding_go"),  # "Run the five strategies"
}
GOALS = {"p95_over_alone": 3.0, "cpu_per_press_s": 1.0, "tokens_per_s_ratio": 8.0, "idle_after_hang_up_s": 2.0,
         "home_during_hang_up_s": 2.0}
PROGRESS = re.compile(rb"token (\d+) of at most (\d+)")  # the loop page's progress text (en)


def prompts(case: str, first: int, n: int) -> list[str]:
    """Prompts nobody has used on this server: each case and each visitor its own."""
    base = 100 * list(CASES).index(case) + first
    return [marker(base + i) for i in range(n)]


def tokens_made(result) -> int | None:
    """How many tokens the loop page's press generated: the largest n of its progress texts."""
    if not result.received:
        return None
    found = [int(m.group(1)) for msg in result.received for m in PROGRESS.finditer(msg.SerializeToString())]
    return max(found, default=None)


async def back_at_idle(proc: psutil.Process, since: float, idle_rate: float, limit: float = 30.0,
                       window: float = 0.25) -> float | None:
    """Seconds from `since` (perf_counter) until the server's CPU rate stays under idle_rate (CPU-s per s) for
    two windows in a row; the start of the first quiet window counts. None if not within `limit`."""
    quiet_since, quiet = None, 0
    while time.perf_counter() - since < limit:
        t, c = time.perf_counter(), server_cpu(proc)
        await asyncio.sleep(window)
        rate = (server_cpu(proc) - c) / (time.perf_counter() - t)
        if rate < idle_rate:
            quiet_since = t if quiet == 0 else quiet_since
            quiet += 1
            if quiet >= 2:
                return max(0.0, quiet_since - since)
        else:
            quiet = 0
    return None


def idle_rate_of(proc: psutil.Process, seconds: float = 2.0) -> float:
    c, t = server_cpu(proc), time.perf_counter()
    time.sleep(seconds)
    return (server_cpu(proc) - c) / (time.perf_counter() - t)


async def pressed(proc: psutil.Process, url: str, case: str, n: int, first: int, idle_rate: float) -> dict:
    """n visitors press the case's button at once; their times, and the server's CPU per press."""
    page, button = CASES[case]
    marks = {}
    report = await press_together(url, n, page, button, prompts=prompts(case, first, n), keep=(case == "loop"),
                                  on_go=lambda: marks.update(cpu=server_cpu(proc), t=time.perf_counter()))
    done = time.perf_counter()
    await back_at_idle(proc, done, max(idle_rate * 3, 0.05))
    report["cpu_per_press_s"] = (server_cpu(proc) - marks["cpu"]) / n
    report["wall_s"] = done - marks["t"]
    if case == "loop":
        made = [tokens_made(r) for r in report["results"]]
        report["tokens"] = made
    for r in report["results"]:
        r.received = None  # the messages were for counting tokens; the report keeps the figures
    return report


async def run_case(proc: psutil.Process, url: str, case: str, n: int, repeat: int, idle_rate: float) -> dict:
    page, button = CASES[case]
    warm = await pressed(proc, url, case, 1, 99, idle_rate)  # the model and one-time work, not measured
    alone = [await pressed(proc, url, case, 1, 90 + k, idle_rate) for k in range(repeat)]
    together = await pressed(proc, url, case, n, 0, idle_rate)
    alone_s = [a["press_p50_s"] for a in alone if a["press_p50_s"] is not None]
    out = {
        "page": page, "button": button, "visitors": n,
        "warm_up_press_s": warm["press_p50_s"],
        "alone_s": statistics.median(alone_s) if alone_s else None, "alone_runs_s": alone_s,
        "alone_cpu_per_press_s": statistics.median(a["cpu_per_press_s"] for a in alone),
        "pages_loaded_s": together["loaded_s"],
        "p50_s": together["press_p50_s"], "p95_s": together["press_p95_s"], "max_s": together["press_max_s"],
        "cpu_per_press_s": together["cpu_per_press_s"],
        "errors": [{k: e[k] for k in ("status", "error", "exceptions")} for r in [warm, *alone, together]
                   for e in r["errors"]],
    }
    out["p95_over_alone"] = out["p95_s"] / out["alone_s"] if out["p95_s"] and out["alone_s"] else None
    if case == "loop":
        one = [t for a in alone for t in a["tokens"] if t]
        many = [t for t in together["tokens"] if t]
        out["tokens_alone"], out["tokens_together"] = (one[0] if one else None), sum(many)
        if one and many and out["alone_s"] and out["max_s"]:
            out["tokens_per_s_alone"] = one[0] / out["alone_s"]
            out["tokens_per_s_together"] = sum(many) / out["max_s"]
            out["tokens_per_s_ratio"] = out["tokens_per_s_together"] / out["tokens_per_s_alone"]
    return out


LOOP_PARAMS = dict(temperature=0.7, top_k=0, top_p=0.9, repetition_penalty=1.0, max_new_tokens=20, stop=(),
                   seed=42)  # the loop page's defaults (ui/loop/draw.link_params)


def _cpu_s() -> float:
    import resource
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def model_and_steps(n: int) -> dict:
    """The loop page's press without the page: mb.generate (prefill, 20 decode steps through the engine, the
    step work) for n new prompts on n threads at once, and for one alone. CPU-s per press of this process."""
    from concurrent.futures import ThreadPoolExecutor

    import model_backend as mb
    bundle, params = mb.load_bundle(), mb.SamplingParams(**LOOP_PARAMS)
    gc.freeze()  # as the server does once the model is loaded (ui/backend.py)
    mb.generate(bundle, prompts("loop", 700, 1)[0], params)  # warm-up
    alone = []
    for k in range(3):  # the median of 3: one press alone is a few CPU-seconds, and the machine's noise is as large
        c, t = _cpu_s(), time.perf_counter()
        mb.generate(bundle, prompts("loop", 701 + k, 1)[0], params)
        alone.append((_cpu_s() - c, time.perf_counter() - t))
    alone_cpu, alone_s = sorted(alone)[1]
    c, t = _cpu_s(), time.perf_counter()
    with ThreadPoolExecutor(n) as pool:
        list(pool.map(lambda text: mb.generate(bundle, text, params), prompts("loop", 710, n)))
    return {"visitors": n, "alone_s": alone_s, "alone_cpu_per_press_s": alone_cpu, "together_s": time.perf_counter() - t,
            "cpu_per_press_s": (_cpu_s() - c) / n, "widest_batch": bundle.engine.widest}


def split(fig: dict, inner: dict) -> dict:
    """Server CPU per press = model and step work (measured without Streamlit) + drawing and messages (the rest)."""
    out = {"model_and_steps": inner}
    for key in ("alone_cpu_per_press_s", "cpu_per_press_s"):
        if fig.get(key) is not None:
            out[key.replace("cpu_per_press_s", "drawing_and_messages_cpu_s")] = fig[key] - inner[key]
    return out


async def hang_up(proc: psutil.Process, url: str, n: int, idle_rate: float, case: str = "loop",
                  after: float = 0.3) -> dict:
    """n sessions press a page's main button and leave `after` s later: CPU back at idle (None: not within 30 s), then
    the same again with a home visit meanwhile. The server's CPU spent from the presses until idle is counted too."""
    threshold = max(idle_rate * 3, 0.05)
    page, button = CASES[case]
    base = 500 + 10 * list(CASES).index(case)
    cpu = server_cpu(proc)
    await press_together(url, n, page, button, prompts=prompts(case, base, n), hang_up_after=after)
    idle_s = await back_at_idle(proc, time.perf_counter(), threshold)
    spent = server_cpu(proc) - cpu
    await back_at_idle(proc, time.perf_counter(), threshold, limit=600)  # let the first round end before the second
    await press_together(url, n, page, button, prompts=prompts(case, base + 100, n), hang_up_after=after)
    home = await visit(url, "home", query_for("home", None, "en"), timeout=120)  # while the server cancels
    await back_at_idle(proc, time.perf_counter(), threshold, limit=600)
    return {"page": page, "sessions": n, "left_after_s": after, "idle_after_hang_up_s": idle_s, "idle_threshold_cpu_s_per_s": threshold,
            "server_cpu_until_idle_s": spent, "home_during_hang_up_s": home.ready_s, "home_status": home.status}


def _commit() -> str:
    """The code measured: the short commit, with "+" when the working tree differs from it."""
    import subprocess

    def git(*a: str) -> str:
        return subprocess.run(["git", *a], cwd=Path(__file__).resolve().parents[1], capture_output=True,
                              text=True).stdout.strip()

    return git("rev-parse", "--short", "HEAD") + ("+" if git("status", "--porcelain", "--untracked-files=no") else "")


async def measure(args) -> dict:
    proc_, url, log = start_server()
    proc = psutil.Process(proc_.pid)
    out: dict = {"date": time.strftime("%Y-%m-%d %H:%M"), "uptime": _uptime(), "cases": {}}
    try:
        await visit(url, "home", "lang=en", timeout=600)  # the model loads
        idle_rate = idle_rate_of(proc)
        out["server_idle_cpu_s_per_s"] = idle_rate
        for case in args.cases:
            t = time.perf_counter()
            fig = out["cases"][case] = await run_case(proc, url, case, args.visitors, args.repeat, idle_rate)
            fig["date"], fig["commit"] = time.strftime("%Y-%m-%d %H:%M"), _commit()  # a case may be rerun alone
            print(_line(case, fig) + f"  ({time.perf_counter() - t:.0f} s)", flush=True)
            if case == "loop" and args.split:
                fig["split"] = split(fig, model_and_steps(args.visitors))
                sp = fig["split"]
                print(f"  where the CPU goes: model and step work {_f(sp['model_and_steps']['cpu_per_press_s'])} CPU-s per "
                      f"press at {args.visitors} at once (alone {_f(sp['model_and_steps']['alone_cpu_per_press_s'])}); "
                      f"drawing and messages {_f(sp.get('drawing_and_messages_cpu_s'))} (alone "
                      f"{_f(sp.get('alone_drawing_and_messages_cpu_s'))})", flush=True)
        for case in args.hang_up_cases if args.hang_up else []:
            h = await hang_up(proc, url, args.hang_up, idle_rate, case, args.hang_up_after)
            out.setdefault("hang_up_by_page", {})[case] = h
            if case == "loop":
                out["hang_up"] = h
            print(f"hang up, {case}: {h['sessions']} sessions pressed and left {h['left_after_s']} s later; server CPU back at idle after "
                  f"{_f(h['idle_after_hang_up_s'])} s (goal <= 2; '-': not within 30 s), {_f(h['server_cpu_until_idle_s'])}"
                  f" CPU-s spent; a new home visit meanwhile {_f(h['home_during_hang_up_s'])} s (goal <= 2)", flush=True)
    finally:
        stop_server(proc_, log)
    out["uptime_after"] = _uptime()
    return out


def _f(x, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _line(case: str, f: dict) -> str:
    line = (f"{case:<15} alone {_f(f['alone_s'])} s | {f['visitors']} at once p50 {_f(f['p50_s'])} / p95 {_f(f['p95_s'])}"
            f" s | p95/alone {_f(f['p95_over_alone'], 1)}x (goal <= 3) | CPU/press {_f(f['cpu_per_press_s'])} s "
            f"(alone {_f(f['alone_cpu_per_press_s'])}; goal <= 1.0) | errors {len(f['errors'])}")
    if "tokens_per_s_ratio" in f:
        line += (f" | tokens/s {_f(f['tokens_per_s_together'], 1)} vs {_f(f['tokens_per_s_alone'], 1)}: "
                 f"{_f(f['tokens_per_s_ratio'], 1)}x (goal >= 8)")
    return line


def _uptime() -> str:
    load = os.getloadavg()
    return f"load average {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f} on {os.cpu_count()} cores"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--visitors", type=int, default=30)
    ap.add_argument("--cases", default=",".join(CASES), help=f"comma-separated, of {', '.join(CASES)}")
    ap.add_argument("--repeat", type=int, default=2, help="presses alone per case (the median is kept)")
    ap.add_argument("--hang-up", type=int, default=10, help="sessions that press and leave (0: skip that case)")
    ap.add_argument("--hang-up-cases", default="loop,decoding,why", help="the pages whose press is left")
    ap.add_argument("--hang-up-after", type=float, default=3.0,
                    help="seconds from the click to leaving: the press's work has begun (decoding's takes ~28 s alone)")
    ap.add_argument("--no-split", dest="split", action="store_false",
                    help="skip the loop page's split (model and step work vs drawing)")
    ap.add_argument("--no-write", action="store_true", help="print only; leave bench/results.json as it is")
    args = ap.parse_args()
    args.cases = [c.strip() for c in args.cases.split(",") if c.strip()]
    args.hang_up_cases = [c.strip() for c in args.hang_up_cases.split(",") if c.strip()]
    unknown = (set(args.cases) | set(args.hang_up_cases)) - set(CASES)
    if unknown:
        ap.error(f"unknown cases {sorted(unknown)}; choose from {list(CASES)}")
    print(f"press bench, {time.strftime('%Y-%m-%d %H:%M')}, {_uptime()} (a shared machine: figures move with it)",
          flush=True)
    figures = asyncio.run(measure(args))
    print(f"done, {figures['uptime_after']}")
    if args.no_write:
        return
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    press = results.get("press", {})
    press.update({k: v for k, v in figures.items() if k != "cases"})
    press.setdefault("cases", {}).update(figures["cases"])
    press["goals"] = GOALS
    results["press"] = press
    RESULTS.write_text(json.dumps(results, indent=1, default=str))
    print("wrote bench/results.json (key: press)")


if __name__ == "__main__":
    main()
