"""Run one benchmark: `python -m bench NAME [ARGS...]`; `python -m bench` lists them.

Each NAME is a module of this package (or, for `protoload`, of `support`) run as `__main__` with ARGS, from the
repository root, so no script needs to find the repository on its own."""
from __future__ import annotations

import runpy
import sys

BENCHES = {
    "bench": ("bench.bench", "the figures of bench/results.json (make bench)"),
    "visit_cost": ("bench.visit_cost", "what one visit of each page costs the server; load cases (make bench)"),
    "interactions": ("bench.interactions", "how fast controls answer in Chromium (make bench)"),
    "fresh_replica": ("bench.fresh_replica", "the first visit of each page on a fresh replica, warmed up and not"),
    "first_visit": ("bench.first_visit", "a new browser's first visit, several servers compared"),
    "bare_app": ("bench.bare_app", "a bare Streamlit page served like the app (first_visit's floor)"),
    "loadtest": ("bench.loadtest", "concurrent headless-Chromium visitors (make loadtest)"),
    "scaletest": ("bench.scaletest", "2 replicas behind nginx, one killed (make scaletest)"),
    "protoload": ("support.protoload", "Streamlit's protocol load client, as a command"),
    "grok_bench": ("bench.grok_bench", "seconds to grok at the page's defaults"),
    "beam_bench": ("bench.beam_bench", "how long beam search takes, step by step"),
    "press_bench": ("bench.press_bench", "30 visitors press each page's main button at once (make bench-press)"),
    "engine_bench": ("bench.engine_bench", "the engine: batched vs alone on 50 prompts, 1 vs 30 streams (make bench)"),
    "gpu_check": ("bench.gpu_check", "CUDA bf16 tokens against the CPU's, 1 vs 30 streams (make gpu-check)"),
    "class_bench": ("bench.class_bench", "a live class: 1 teacher and 30 phones, 1 and 2 replicas with Redis (make bench)"),
    "decoding_bench": ("bench.decoding_bench", "every decoding strategy on the shipped prompts (make bench-decoding)"),
}


def usage() -> str:
    width = max(map(len, BENCHES))
    rows = "\n".join(f"  {name:<{width}}  {what}" for name, (_, what) in BENCHES.items())
    return f"usage: python -m bench NAME [ARGS...]\n\n{rows}\n\n`python -m bench NAME --help` for a bench's options."


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(usage())
        return 0
    name, args = argv[0], argv[1:]
    if name not in BENCHES:
        print(f"unknown bench {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module = BENCHES[name][0]
    sys.argv = [f"python -m bench {name}", *args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
