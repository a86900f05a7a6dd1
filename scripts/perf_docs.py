"""Write docs/performance.md's current figures from bench/results.json (`--check`: fail if they are stale).

The figures between the `<!-- results:begin -->` and `<!-- results:end -->` lines of docs/performance.md are
generated here, never typed: `make bench` runs this script after the benches, and
tests/unit/test_perf_docs.py regenerates the block and compares it with the file. Standard library only.

    python scripts/perf_docs.py            # rewrite the block
    python scripts/perf_docs.py --check    # exit 1 if the block is not what results.json gives
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results.json"
DOC = ROOT / "docs" / "performance.md"
BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"

# bench/bench.py's figures in the order a reader meets them: (key, what it is)
FIGURES = [
    ("first_prepare_s", "GGUF → safetensors, empty cache"),
    ("cached_load_s", "model + tokenizer from the cache, bf16 weights repacked"),
    ("first_page_s", "server start → home page drawn in Chromium, warm cache"),
    ("memory_bandwidth_gbs", "measured memory bandwidth (torch copy of 512 MB)"),
    ("ms_per_token_fp32", "float32: the instrumented step loop (attentions, top-10, processor chain)"),
    ("ms_per_token_plain_fp32", "float32: `model.generate()`, same prompt and count"),
    ("instrumentation_ratio_fp32", "float32: instrumented ÷ plain"),
    ("bandwidth_floor_ms_fp32", "float32: weight bytes per token ÷ measured bandwidth"),
    ("floor_ratio_fp32", "float32: a step ÷ its bandwidth floor"),
    ("ms_per_token_bf16", "bfloat16: the instrumented step loop"),
    ("ms_per_token_plain_bf16", "bfloat16: `model.generate()`"),
    ("instrumentation_ratio_bf16", "bfloat16: instrumented ÷ plain"),
    ("bandwidth_floor_ms_bf16", "bfloat16: weight bytes per token ÷ measured bandwidth"),
    ("floor_ratio_bf16", "bfloat16: a step ÷ its bandwidth floor"),
    ("slider_rerun_ms", "a temperature-slider move (the fragment it reruns, AppTest), forward passes counted"),
    ("slider_full_page_ms", "the whole temperature page rerun (AppTest), for comparison"),
    ("grok_s", "seconds to 95% test accuracy at the grokking page's defaults, curves redrawn"),
    ("grok_chart_slowdown", "live chart redraws ÷ training alone (whole run)"),
    ("rss_mb_model_loaded", "server resident memory after the first page (bf16)"),
]

INTERACTIONS = [
    ("temperature_T", "temperature slider T, one arrow-key step"),
    ("temperature_top_k", "top-k slider, one step"),
    ("temperature_top_p", "top-p slider, one step"),
    ("temperature_penalty", "repetition-penalty slider, one step"),
    ("loop_next_token", "loop page, \"Next token\" click"),
    ("temperature_pair_top_p", "temperature page, nucleus pair's top-p slider"),
    ("loop_inspect_step", "loop page, \"Look at step\" slider"),
    ("pipeline_mlp_layer", "pipeline page, MLP layer slider, one step"),
    ("tokenizer_neighbours", "tokenizer page, neighbours slider, one step"),
]


def _num(x: float, digits: int = 1) -> str:
    """A figure with thousands separators: 1870.4 -> '1,870.4'."""
    return f"{x:,.{digits}f}"


def _digits(unit: str, value: float) -> int:
    if unit in ("x",):
        return 2
    return 0 if abs(value) >= 1000 else 1


def _figures(res: dict) -> list[str]:
    meta, figs = res.get("meta", {}), res.get("figures", {})
    lines = [
        f"### `make bench` (`bench/bench.py`), {meta.get('date', '?')}",
        "",
        f"Machine: {meta.get('machine', '?')}; CPU {meta.get('cpu', '?')}, torch kernels {meta.get('cpu_capability', '?')}, "
        f"bfloat16 fast path {'on' if meta.get('bfloat16_fast_path') else 'off'}. Median (min–max) of the runs.",
        "",
        "| Figure | What | Median (min–max) | Runs | Goal |",
        "|---|---|---|---|---|",
    ]
    for key, what in FIGURES:
        f = figs.get(key)
        if not f:
            continue
        d = _digits(f.get("unit", ""), f["median"])
        unit = f.get("unit", "")
        lines.append(
            f"| `{key}` | {what} | {_num(f['median'], d)} {unit} ({_num(f['min'], d)}–{_num(f['max'], d)}) "
            f"| {f.get('runs', '')} | {f.get('goal') or ''} |"
        )
    return lines


def _interactions(res: dict) -> list[str]:
    inter = res.get("interactions")
    if not inter:
        return []
    meta = inter.get("meta", {})
    lines = [
        "",
        f"### Controls (`bench/interactions.py`), {meta.get('date', '?')} at {meta.get('commit', '?')}",
        "",
        f"Headless Chromium {meta.get('viewport', '?')}, CPU {meta.get('cpu', '?')} ({meta.get('cores', '?')} cores, "
        f"{meta.get('cpu_capability', '?')}); settled = the last change on the page, quiet for {meta.get('quiet_ms', '?')} ms. "
        "\"bars\" is the last change inside the temperature page's bars chart.",
        "",
        "| Interaction | settled, median (max) | bars, median (max) | server CPU, median | runs |",
        "|---|---|---|---|---|",
    ]
    figs = inter.get("figures", {})
    for key, what in INTERACTIONS:
        f = figs.get(key)
        if not f:
            continue
        bars = f"{_num(f['target_median_ms'], 0)} ms ({_num(f['target_max_ms'], 0)})" if "target_median_ms" in f else "—"
        lines.append(
            f"| {what} | {_num(f['median_ms'], 0)} ms ({_num(f['max_ms'], 0)}) | {bars} "
            f"| {_num(f['server_cpu_ms_median'], 0)} ms | {f['runs']} |"
        )
    return lines


def _visit_cost(res: dict) -> list[str]:
    vc = res.get("visit_cost")
    if not vc:
        return []
    m = vc.get("machine", {})
    goals = vc.get("goals", {})
    lines = [
        "",
        f"### What one visit costs the server (`bench/visit_cost.py`), {vc.get('date', '?')}",
        "",
        f"CPU {m.get('cpu', '?')}, {m.get('cores', '?')} cores, {m.get('cpu_capability', '?')}, bfloat16 fast path "
        f"{'on' if m.get('bfloat16_fast_path') else 'off'}. Goals: cold ≤ {goals.get('cpu_cold_s')} CPU-s, warm ≤ "
        f"{goals.get('cpu_warm_s')} CPU-s, ≤ {goals.get('kb')} KB sent. ² = with a link that asks for the panel (`run=1`).",
        "",
        "| page | server CPU, cold visit (s) | warm visit (s) | sent (KB) | one Chromium visitor: ready (s) / server CPU (s) |",
        "|---|---|---|---|---|",
    ]
    chromium = vc.get("chromium", {})
    chromium = chromium.get("pages", chromium)  # older results: pages at the top level
    for page in vc.get("pages", []):
        c = vc.get("pages_cost", {}).get(page)
        if not c:
            continue
        cold, warm, kb = f"{c['cpu_cold_s']:.2f}", f"{c['cpu_warm_s']:.2f}", f"{c['kb']:,.0f}"
        if "cpu_asked_cold_s" in c:
            cold += f" ({c['cpu_asked_cold_s']:.2f} ²)"
            warm += f" ({c['cpu_asked_warm_s']:.2f} ²)"
            kb += f" ({c['kb_asked']:,.0f} ²)"
        ch = chromium.get(page)
        ch_text = f"{ch['ready_s']:.1f} / {ch['cpu_s']:.2f}" if ch else "—"  # its own date: chromium_date
        lines.append(f"| {page} | {cold} | {warm} | {kb} | {ch_text} |")
    walk = vc.get("walk")
    if walk:
        lines.append(
            f"| **one walk through all pages** | **{walk['cpu_cold_s']:.1f}** | **{walk['cpu_warm_s']:.1f}** "
            f"| {walk['kb']:,.0f} | |"
        )
    live = vc.get("live_page")
    if live:
        lines.append(f"| live (a phone's join form; not in the walk) | {live['cpu_first_s']:.2f} (first) "
                     f"| {live['cpu_warm_s']:.2f} | {live['kb']:,.0f} | |")
    bare = vc.get("chromium", {}).get("bare")
    if bare:
        ratios = vc["chromium"].get("cpu_over_bare", {})
        worst = max(ratios, key=ratios.get) if ratios else None
        lines += ["", (f"The Chromium column was measured on {vc['chromium_date']}. "
                       if vc.get("chromium_date") not in (None, vc.get("date")) else "")
                  + f"A bare Streamlit page (`bench/bare_app.py`), visited the same way: ready {bare['ready_s']:.1f} s, "
                  f"server CPU {bare['cpu_s']:.2f} s (median of {bare['runs']}). The pages' Chromium visits cost "
                  f"{min(ratios.values()):.1f}–{max(ratios.values()):.1f}× that (the most: {worst}; goal ≤ "
                  f"{goals.get('chromium_cpu_over_bare', 2.0)}×)." if worst else ""]
    load = vc.get("load", {})
    if load:
        when = (f"The load cases below were measured on {vc['load_date']}." if vc.get("load_date") not in
                (None, vc.get("date")) else "")
        lines += ["", *([when, ""] if when else []), "| case | p50 ready | p95 ready | errors, leaks, own prompt missing | server CPU |", "|---|---|---|---|---|"]
        cases = (("shared_link", "visitors on one shared link, over all pages"),
                 ("own_prompts", "visitors with their own prompts"),
                 ("float32_avx2", "visitors on one shared link, float32 through the AVX2 kernels (goal p95 ≤ 5 s)"))
        for key, what in cases:
            c = load.get(key) if key != "float32_avx2" else vc.get("load_float32_avx2")
            if c:
                if key == "float32_avx2" and c.get("date") and c.get("date") != vc.get("date"):
                    what = what.replace(" (goal", f", {c['date']}" + (f", {c['cpu']}" if c.get("cpu") else "") + " (goal")
                lines.append(
                    f"| {c['visitors']} {what} | {c['ready_p50_s']:.1f} s | {c['ready_p95_s']:.1f} s "
                    f"| {c['errors']}, {c['leaks']}, {c['own_marker_missing']} "
                    f"| {c['server_cpu_s']:.1f} s in all ({c['server_cpu_s_per_visit']:.2f} a visit) |"
                )
        idle = load.get("idle_sessions")
        if idle:
            lines.append(
                f"| {idle['sessions']} idle sessions on the home page | a home visit {idle['visit_alone_s']:.2f} s alone, "
                f"{idle['visit_with_idle_sessions_s']:.2f} s with them | | {idle['loaded_ok']} loaded "
                f"| idle {idle['idle_cpu_s_per_s']:.3f} CPU-s/s, RSS {idle['rss_growth_mb']:+.0f} MB |"
            )
    return lines


def _first_visit(res: dict) -> list[str]:
    lines = []
    for key in ("first_visit", "first_visit_avx512"):
        fv = res.get(key)
        if not fv:
            continue
        home = fv.get("home_s", fv.get("home_after_s"))
        lines.append(
            f"- `{fv.get('script', '?')}`, {fv.get('date', '?')}, {fv.get('machine', '?')}: {fv.get('what', '')}: "
            f"home **{home} s**, a bare Streamlit page {fv.get('bare_streamlit_page_s')} s."
        )
    if lines:
        lines = ["", "### A new browser's first visit (`bench/first_visit.py`)", "", *lines]
    return lines


def _fresh_replica(res: dict) -> list[str]:
    fr = res.get("fresh_replica")
    modes = [(m, fr[m]) for m in ("warm", "cold") if fr and fr.get(m)]
    if not modes:
        return []
    pages = list(modes[0][1]["pages"])
    head = " | ".join(f"{m}: first visit CPU-s" for m, _ in modes)
    rows = [f"| {page} | " + " | ".join(f"{r['pages'][page]['cpu_s']:.2f}" if page in r["pages"] else "–"
                                        for _, r in modes) + " |" for page in pages]
    ready = "; ".join(f"{m}: health ok after {r['ready_after_s']:.1f} s, {r['cpu_until_ready_s']:.1f} CPU-s" for m, r in modes)
    return [
        "",
        f"### A fresh replica's first visits (`bench/fresh_replica.py`, {fr.get('date', '?')}, {fr.get('cpus', '?')} CPUs, "
        f"goal ≤ {fr.get('goal_first_visit_cpu_s', '?')} CPU-s a page)",
        "",
        f"Warm: `TBT_WARM=all`, the server visits its pages before its health check says ok (ui/warm.py); cold: "
        f"`TBT_WARM=off`. {ready}.",
        "",
        f"| Page | {head} |",
        "|---|" + "---|" * len(modes),
        *rows,
    ]


def _loadtest(res: dict) -> list[str]:
    rows = []
    for key, what in (
        ("loadtest_10_sessions", "10 visitors, each with its own prompt"),
        ("loadtest", "30 visitors, each with its own prompt"),
        ("loadtest_shared_prompt", "30 visitors on the teacher's link (one prompt)"),
    ):
        c = res.get(key)
        if not c:
            continue
        rows.append(
            f"| {what} | {c['ready_p50_s']:.0f} s | {c['ready_p95_s']:.0f} s | {len(c['errors'])} | {len(c['leaks'])} "
            f"| {c['server_cpu_s_per_visit']:.1f} s | {c['browser_cpu_s']:.0f} s in all | {c['rss_mb_per_session']:.0f} MB |"
        )
    if not rows:
        return []
    return [
        "",
        "### Many browsers (`bench/loadtest.py`, the copy kept in results.json)",
        "",
        "| Case | p50 ready | p95 ready | errors | leaks | server CPU per visit | browsers' CPU | RSS growth per visit |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
    ]


def _presses(res: dict) -> list[str]:
    pr = res.get("press")
    if not pr or not pr.get("cases"):
        return []
    goals = pr.get("goals", {})
    rows = []
    for name, c in pr["cases"].items():
        rows.append(f"| {name} ({c.get('button', '?')}) | {c.get('date', '?')} | {_num(c['alone_s'])} | "
                    f"{_num(c['p50_s'])} / {_num(c['p95_s'])} | {_num(c['p95_over_alone'])}× | "
                    f"{_num(c['cpu_per_press_s'], 2)} | {_num(c['alone_cpu_per_press_s'], 2)} |")
    return [
        "",
        f"### {next(iter(pr['cases'].values())).get('visitors', 30)} visitors press at once (`bench/press_bench.py`)",
        "",
        f"Goals: p95 ≤ {goals.get('p95_over_alone', '?')}× one visitor alone; server CPU per press ≤ "
        f"{goals.get('cpu_per_press_s', '?')} s. Each visitor has a prompt of its own.",
        "",
        "| Page (button) | measured | alone: s | 30 at once: p50 / p95 s | p95 ÷ alone | server CPU-s per press, "
        "30 at once | the same, alone |",
        "|---|---|---|---|---|---|---|",
        *rows,
    ]


def _switch_pages(runs: list) -> list[str]:
    """The pages bench class_bench sent the class to, in its order (none in a record made before it did)."""
    pages: list[str] = []
    for _, r in runs:
        pages += [p for p in (r.get("page_switches") or {}) if p not in pages]
    return pages


def _switch_cell(move: dict) -> str:
    """A class's move to a page: its p95 (– when no phone got there), its p50 and when the phones showed its title
    (a record made before the bench timed them has neither), the server's CPU-s, and the phones missed."""
    p95 = "–" if move.get("p95_s") is None else move["p95_s"]
    titled = "".join(f"{name} {move[key]}; " for key, name in (("p50_s", "p50"), ("titled_p95_s", "title"))
                     if move.get(key) is not None)
    missed = f", {move['missed']} of the phones missed it" if move.get("missed") else ""
    return f"{p95} ({titled}CPU {move['server_cpu_s']}{missed})"


def _live_class(res: dict) -> list[str]:
    lc = res.get("live_class")
    if not lc:
        return []
    runs = [(name, lc[key]) for key, name in (("one_replica", "1 replica"), ("two_replicas", "2 replicas, nginx"))
            if lc.get(key)]
    goals = lc.get("goals", {})

    def row(what: str, get, goal: str) -> str:
        cells = []
        for _, r in runs:
            try:
                value = get(r)
            except (KeyError, TypeError):
                value = None
            cells.append("–" if value is None else str(value))
        return f"| {what} | " + " | ".join(cells) + f" | {goal} |"

    return [
        "",
        f"### A live class (`bench/class_bench.py`, {lc.get('when', '?')}, {lc.get('cpus', '?')} CPUs, "
        f"load {lc.get('load_before', '?')} before)",
        "",
        "| Measure | " + " | ".join(name for name, _ in runs) + " | goal |",
        "|---|" + "---|" * len(runs) + "---|",
        row("idle, 30 phones on the class page: CPU-s per phone per s", lambda r: r["idle"]["cpu_per_phone_per_s"],
            f"≤ {goals.get('idle_cpu_per_phone_s', '?')}"),
        row("idle, on the temperature page", lambda r: r["idle_lesson_page"]["cpu_per_phone_per_s"],
            f"≤ {goals.get('idle_cpu_per_phone_s', '?')}"),
        row("the teacher changes T → phones show it: p50 s", lambda r: r["follow"]["p50_s"], "–"),
        row("the same, p95 s", lambda r: r["follow"]["p95_s"], f"≤ {goals.get('follow_p95_s', '?')}"),
        row("the same, from the end of her run: p95 s", lambda r: r["follow"]["after_her_run_p95_s"], "–"),
        row("her own run of the page with the new T (a new session of hers): s",
            lambda r: r["follow"]["teacher_run_s"], "–"),
        row("page runs the 30 phones made per change of T (a fragment's run takes it)",
            lambda r: r["follow"]["phone_page_runs_per_change"], "–"),
        row("phone-changes that never arrived", lambda r: r["follow"]["missed"], "0"),
        row("the teacher's next step on the loop page → phones show it: p50 s", lambda r: r["follow_step"]["p50_s"],
            "–"),
        row("the same, p95 s", lambda r: r["follow_step"]["p95_s"], f"≤ {goals.get('follow_p95_s', '?')}"),
        row("page runs the 30 phones made per step", lambda r: r["follow_step"]["phone_page_runs_per_change"], "–"),
        row("the class opens the loop page at step 2: p95 s", lambda r: r["follow_step"]["page_switch_p95_s"], "–"),
        row("the class opens the temperature page: p95 s", lambda r: r["page_switch_p95_s"], "–"),
        *[row(f"the class opens {page}: p95 s until its run ended on the phones (p50 s; its title on them: p95 s; "
              "CPU: server CPU-s from her request to the last phone)",
              lambda r, page=page: _switch_cell(r["page_switches"][page]),
              "–") for page in _switch_pages(runs)],
        row("30 guesses in → the projector says 30: s", lambda r: r["histogram_s"],
            f"≤ {goals.get('histogram_s', '?')}"),
        row("a phone presses \"Send guess\" alone → its panel says what it counts as: s",
            lambda r: r["press"]["alone_s"], "–"),
        row("30 phones press at once: p95 s", lambda r: r["press"]["together"]["p95_s"], "–"),
        row("the same: server CPU-s per press (the class's timers included)", lambda r: r["press"]["cpu_s_per_press"],
            "–"),
        row("the last press → the projector says 30: s", lambda r: r["press"]["together"]["projector_s"],
            f"≤ {goals.get('histogram_s', '?')}"),
    ]


def render(res: dict) -> str:
    """The generated block, markers included."""
    body = _figures(res) + _interactions(res) + _visit_cost(res) + _first_visit(res) + _fresh_replica(res)
    body += _loadtest(res) + _presses(res) + _live_class(res)
    note = "<!-- generated by scripts/perf_docs.py from bench/results.json: do not edit by hand -->"
    return "\n".join([BEGIN, note, "", *body, "", END])


def updated(doc: str, res: dict) -> str:
    """`doc` with its block replaced by what `res` gives."""
    if BEGIN not in doc or END not in doc:
        raise SystemExit(f"{DOC.relative_to(ROOT)} has no {BEGIN} ... {END} block")
    head, rest = doc.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    return head + render(res) + tail


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if docs/performance.md is stale")
    ap.add_argument("--results", type=Path, default=RESULTS)
    ap.add_argument("--doc", type=Path, default=DOC)
    args = ap.parse_args(argv)
    res = json.loads(args.results.read_text())
    doc = args.doc.read_text()
    new = updated(doc, res)
    if args.check:
        if new != doc:
            print(f"{args.doc} is stale: run `python scripts/perf_docs.py`", file=sys.stderr)
            return 1
        print(f"{args.doc} is up to date with {args.results}")
        return 0
    if new != doc:
        args.doc.write_text(new)
        print(f"wrote {args.doc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
