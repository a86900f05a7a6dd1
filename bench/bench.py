"""Benchmarks for Token by Token: prints a table and writes bench/results.json.

    make bench            # or: .venv/bin/python -m bench bench [--repeat 3] [--skip PREFIX ...]

Every figure is the median of several runs with its min and max, measured side by side in one run
so that ratios hold on a noisy machine. A script, not a test: it asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ["TBT_VALIDATE_CHARTS"] = "0"  # measure what visitors get (see ui/charts.py)

import psutil  # noqa: E402
import torch  # noqa: E402

from model_backend import SamplingParams, generate, load_bundle, load_settings, prepare  # noqa: E402

PROMPT = "Albert Einstein nasceu em"
N_TOKENS = 24
RESULTS: dict[str, dict] = {}


def record(name: str, values: list[float], unit: str, goal: str = "", note: str = "") -> dict:
    entry = {"median": statistics.median(values), "min": min(values), "max": max(values), "runs": len(values),
             "unit": unit, "goal": goal, "note": note}
    RESULTS[name] = entry
    print(f"{name:<34} {entry['median']:>10.2f} {unit:<6} (min {entry['min']:.2f}, max {entry['max']:.2f}, "
          f"n={len(values)}) {goal}", flush=True)
    return entry


def first_prepare(repeat: int) -> None:
    times = []
    for _ in range(repeat):
        tmp = Path(tempfile.mkdtemp(prefix="tbt-bench-cache-"))
        try:
            settings = replace(load_settings(), cache_dir=tmp)
            t = time.perf_counter()
            prepare(settings=settings)
            times.append(time.perf_counter() - t)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    record("first_prepare_s", times, "s", note="GGUF -> safetensors, empty cache")


def cached_load(repeat: int) -> None:
    prepare()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        load_bundle(dtype="bfloat16")
        times.append(time.perf_counter() - t)
    record("cached_load_s", times, "s", note="model + tokenizer from the cache")


def _per_token(run) -> float:
    """Decode time per token: (time for N tokens - time for 1 token) / (N - 1), in ms."""
    t0 = time.perf_counter()
    run(1)
    t1 = time.perf_counter()
    run(N_TOKENS)
    t2 = time.perf_counter()
    return ((t2 - t1) - (t1 - t0)) / (N_TOKENS - 1) * 1000


def bandwidth_gbs(repeat: int) -> float:
    """Memory bandwidth from copying a 512 MB tensor (bytes read + written per second)."""
    a = torch.ones(128 * 1024 * 1024, dtype=torch.float32)
    b = torch.empty_like(a)
    b.copy_(a)
    speeds = []
    for _ in range(max(3, repeat)):
        t = time.perf_counter()
        b.copy_(a)
        speeds.append(2 * a.numel() * 4 / (time.perf_counter() - t) / 1e9)
    del a, b
    record("memory_bandwidth_gbs", speeds, "GB/s", note="torch copy of 512 MB")
    return statistics.median(speeds)


def decode(repeat: int, bw: float) -> None:
    for dtype in ("float32", "bfloat16"):
        bundle = load_bundle(dtype=dtype)
        enc = bundle.tokenizer(PROMPT, return_tensors="pt")

        def ours(n, bundle=bundle):  # the instrumented loop: attentions, top-10, the processor chain
            generate(bundle, PROMPT, SamplingParams(temperature=0, max_new_tokens=n), record_attentions=True)

        def plain(n, bundle=bundle, enc=enc):
            with torch.inference_mode():
                bundle.engine.generate(**enc, max_new_tokens=n, min_new_tokens=n, do_sample=False, pad_token_id=0)

        ours(2)
        plain(2)
        inst, ref = [], []
        for _ in range(repeat):  # interleaved, so both see the same machine
            inst.append(_per_token(ours))
            ref.append(_per_token(plain))
        tag = "fp32" if dtype == "float32" else "bf16"
        a = record(f"ms_per_token_{tag}", inst, "ms", note="instrumented step loop")
        record(f"ms_per_token_plain_{tag}", ref, "ms", note="model.generate()")
        record(f"instrumentation_ratio_{tag}", [x / y for x, y in zip(inst, ref)], "x", goal="goal <= 1.05")
        params = {p.data_ptr(): p.numel() * p.element_size() for p in bundle.weights.parameters()}
        floor = sum(params.values()) / (bw * 1e9) * 1000
        record(f"bandwidth_floor_ms_{tag}", [floor], "ms", note=f"{sum(params.values()) / 1e6:.0f} MB of weights")
        record(f"floor_ratio_{tag}", [a["median"] / floor], "x", goal="goal <= 2.0")
        del bundle


def slider_rerun(repeat: int) -> None:
    """One temperature-slider move on the temperature page, timed in AppTest, with forward passes counted."""
    from streamlit.testing.v1 import AppTest

    from ui import backend

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.session_state["lang"] = "en"
    at.run()
    at.switch_page("pages/temperature.py")
    at.run()
    bundle = backend.bundle_for(backend.settings().dtype)
    times, fragment, passes = [], [], []
    for i in range(max(repeat, 5)):
        before = bundle.forward_passes
        # the T slider is bound to the bars in the browser; its value reaches the page through session_state
        at.session_state["temperature_T"] = [0.3, 1.2, 1.7, 0.8, 1.5][i % 5]
        t = time.perf_counter()
        at.run()
        times.append((time.perf_counter() - t) * 1000)
        fragment.append(at.session_state["_timings"]["temperature.live_panel"])
        passes.append(bundle.forward_passes - before)
    record("slider_rerun_ms", fragment, "ms", goal="goal < 100 ms, 0 passes",
           note=f"the sliders' fragment, which is what a slider move reruns in the browser; forward passes: {passes}")
    record("slider_full_page_ms", times, "ms", note="the whole temperature page rerun (AppTest), for comparison")


def grok(repeat: int) -> None:
    script = ROOT / "bench" / "grok_bench.py"
    if not script.exists():
        print("grok_s: bench/grok_bench.py missing, skipped")
        return
    times, slowdowns = [], []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-m", "bench", "grok_bench", "--json"], cwd=ROOT, capture_output=True, text=True)
        try:
            figures = json.loads(out.stdout.strip().splitlines()[-1])
            times.append(float(figures["seconds_to_95"]))
            slowdowns.append(float(figures["slowdown"]))
        except (ValueError, KeyError, IndexError, TypeError):
            print("grok_s: could not read bench/grok_bench.py output:", out.stdout[-300:], out.stderr[-300:])
            return
    record("grok_s", times, "s", goal="goal <= 30 s",
           note="seconds to 95% test accuracy at the page defaults, curves redrawn as on the page")
    record("grok_chart_slowdown", slowdowns, "x", goal="goal <= 1.5",
           note="training with the live chart redrawn / training alone (same run, whole run time)")


def first_page(repeat: int) -> None:
    """From starting the server to the first page rendered in headless Chromium (warm cache)."""
    from playwright.sync_api import sync_playwright

    from support import chromium
    from support.ports import free_port
    from support.server import launch, stop_server

    times, rss = [], []
    with sync_playwright() as p:
        browser = chromium.launch(p)
        for _ in range(repeat):
            port = free_port()
            t = time.perf_counter()
            proc, _, _ = launch(port)
            try:
                page = browser.new_page()
                while True:
                    try:
                        page.goto(f"http://127.0.0.1:{port}/")
                        break
                    except Exception:  # noqa: BLE001 - server not listening yet
                        time.sleep(0.2)
                page.wait_for_selector("canvas, svg.marks", timeout=600_000)  # the live chart drew
                times.append(time.perf_counter() - t)
                rss.append(psutil.Process(proc.pid).memory_info().rss / 1e6)
                page.close()
            finally:
                stop_server(proc)
        browser.close()
    record("first_page_s", times, "s", note="server start -> home page with its live chart, warm cache")
    record("rss_mb_model_loaded", rss, "MB", note="server resident memory after the first page (bf16)")


def machine_meta() -> dict:
    """The date and the machine (model_backend/runtime/hardware.py: the CPU, torch's kernel level, bfloat16's fast path)."""
    from model_backend.runtime.hardware import describe

    machine = (f"{platform.machine()}, {os.cpu_count()} CPU cores, {psutil.virtual_memory().total / 2**30:.0f} GiB, "
               + ("cuda" if torch.cuda.is_available() else "no GPU"))
    return {"date": time.strftime("%Y-%m-%d"), "machine": machine, **describe()}


STEPS = {"first_prepare": first_prepare, "cached_load": cached_load, "decode": None, "slider": slider_rerun,
         "grok": grok, "first_page": first_page}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip", nargs="*", default=[], choices=list(STEPS))
    args = ap.parse_args()
    torch.set_num_threads(os.cpu_count() or 2)
    print(f"Token by Token benchmarks, {time.strftime('%Y-%m-%d %H:%M')}, {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, torch {torch.__version__}, {torch.get_num_threads()} threads\n", flush=True)
    for name, fn in STEPS.items():
        if name in args.skip:
            continue
        if name == "decode":
            decode(args.repeat, bandwidth_gbs(args.repeat))
        elif name == "first_prepare":
            fn(max(1, args.repeat - 1))
        else:
            fn(args.repeat)
    path = ROOT / "bench" / "results.json"
    out = json.loads(path.read_text()) if path.exists() else {}  # other scripts' keys (visit_cost, ...) stay
    out["meta"] = machine_meta()
    out["figures"] = RESULTS
    for name, key in (("loadtest.json", "loadtest"), ("loadtest-shared.json", "loadtest_shared_prompt"),
                      ("loadtest-10.json", "loadtest_10_sessions")):
        if (ROOT / "bench" / name).exists():
            out[key] = json.loads((ROOT / "bench" / name).read_text())
    path.write_text(json.dumps(out, indent=1))
    print("\nwrote bench/results.json")


if __name__ == "__main__":
    main()
