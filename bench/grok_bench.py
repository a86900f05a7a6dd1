"""Seconds to grok at the grokking page's defaults, and what redrawing the curves costs the training.

    .venv/bin/python -m bench grok_bench [--repeat 1] [--steps N] [--threads 2] [--wd0] [--json]

Each round trains the page's default run (ui/grokking/compute.DEFAULTS: 2-layer MLP, p = 97, 30% train, AdamW)
twice, exactly as the page does (a BackgroundRun: its own process, TRAIN_THREADS torch threads): once
while this process only says "still watching" (training alone), once while it also rebuilds the live
accuracy chart and serialises it to a Vega-Lite spec every REDRAW_S seconds, as the page does while it
trains. Prints seconds (and the training process's CPU seconds) to 95% test accuracy, and the slowdown.
A benchmark, not a test: it prints figures. The machine's load average is printed too; read it first.
"""
from __future__ import annotations

import argparse
import logging
import os
import time
from dataclasses import replace

from model_backend.lessons.grokking import BackgroundRun, GrokConfig  # noqa: E402
from model_backend.lessons.grokking.live import TRAIN_THREADS  # noqa: E402
from model_backend.lessons.grokking.training import GROKKED_AT  # noqa: E402


def _defaults() -> dict:
    from ui.grokking.compute import DEFAULTS

    return DEFAULTS


def page_defaults(steps: int) -> GrokConfig:
    d = _defaults()
    return GrokConfig(p=d["p"], train_frac=d["frac"] / 100, model=d["model"], lr=d["lr"], weight_decay=d["wd"],
                      seed=d["seed"], max_steps=steps)


def one_run(cfg: GrokConfig, draw: bool, threads: int = TRAIN_THREADS) -> dict:
    """Train in a BackgroundRun; the main thread watches (and redraws the chart when `draw`)."""
    from ui.grokking import compute
    from ui.grokking import draw as view

    run = BackgroundRun(cfg, idle_timeout=60, threads=threads)
    assert run.start(), "no free training slot"
    draws, draw_s = 0, 0.0
    while run.running:
        run.touch()
        if draw and run.snapshots:
            t0 = time.perf_counter()
            curves = [("bench", compute.run_curves(run))]  # what the page computes and draws at each tick
            view.live_chart(curves, compute.phases(curves[-1][1]), run.cfg.max_steps).to_dict()  # as st.altair_chart
            view._progress_text(run)
            draw_s += time.perf_counter() - t0
            draws += 1
        time.sleep(compute.REDRAW_S)
    run.join()
    if run.state != "done":
        raise SystemExit(f"the run ended as {run.state}: {run.error}")
    hit = next((i for i, s in enumerate(run.snapshots) if s.test_acc >= GROKKED_AT), None)
    return {"total": run.elapsed, "grok_s": run.times[hit] if hit is not None else None,
            "grok_step": run.snapshots[hit].step if hit is not None else None,
            "grok_cpu": run.cpu[hit] if hit is not None else None, "startup": run.times[0] if run.times else None,
            "draws": draws, "draw_s": draw_s, "test_acc": run.snapshots[-1].test_acc, "cpu": run.cpu[-1]}


def main() -> None:
    ap = argparse.ArgumentParser(description="seconds to grok at the page defaults, with and without redraws")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--steps", type=int, default=None, help="step cap (default: the page's)")
    ap.add_argument("--threads", type=int, default=TRAIN_THREADS, help="torch threads of the training process")
    ap.add_argument("--wd0", action="store_true", help="also run the weight-decay-0 comparison once")
    ap.add_argument("--json", action="store_true", help="end with one JSON line of the figures (bench/bench.py reads it)")
    args = ap.parse_args()
    logging.getLogger("streamlit").setLevel(logging.ERROR)
    os.environ.setdefault("STREAMLIT_GLOBAL_SHOW_WARNING_ON_DIRECT_EXECUTION", "false")
    cfg = page_defaults(args.steps or _defaults()["steps"])
    print(f"config: {cfg}\ntraining threads: {args.threads}, CPUs: {os.cpu_count()}, "
          f"load average: {os.getloadavg()[0]:.1f}", flush=True)
    rows = []
    for i in range(args.repeat):
        order = (False, True) if i % 2 == 0 else (True, False)  # alternate, so drift in load cancels out
        for draw in order:
            r = one_run(cfg, draw, args.threads)
            rows.append((draw, r))
            label = "with chart redraws" if draw else "training alone     "
            grok = (f"{r['grok_s']:.1f} s (step {r['grok_step']}, {r['grok_cpu']:.1f} CPU s in training)"
                    if r["grok_s"] else "not reached")
            print(f"{label}: 95% test accuracy after {grok}; {cfg.max_steps} steps in {r['total']:.1f} s "
                  f"(process start {r['startup']:.1f} s, {r['cpu']:.1f} CPU s); {r['draws']} redraws took "
                  f"{r['draw_s']:.2f} s", flush=True)
    alone = [r["total"] for d, r in rows if not d]
    drawn = [r["total"] for d, r in rows if d]
    slowdown = sum(drawn) / sum(alone)
    print(f"slowdown from chart updates: {slowdown:.2f}x (limit 1.5x)")
    if args.json:
        import json
        import statistics

        seen = [r["grok_s"] for d, r in rows if d and r["grok_s"] is not None]  # as a visitor sees it: redrawn
        print(json.dumps({"seconds_to_95": statistics.median(seen) if seen else None, "slowdown": slowdown,
                          "steps_to_95": [r["grok_step"] for d, r in rows if d]}))
    if args.wd0:
        r = one_run(replace(cfg, weight_decay=0.0), False, args.threads)
        print(f"weight decay 0: test accuracy {r['test_acc']:.1%} after {cfg.max_steps} steps ({r['total']:.1f} s)")


if __name__ == "__main__":
    main()
