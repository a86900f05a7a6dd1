"""The decoding comparison (Holtzman et al. 2019, in kind): every strategy on every shipped prompt.

Usage: python -m bench decoding_bench [--tokens 60] [--width 4] [--samples 3] [--limit N] [--out PATH]

Runs greedy, beam search, pure sampling (T = 1), top-k 40 and top-p 0.95 on assets/decoding/prompts.json with
the real model (the app's default dtype), prints one line per prompt and the table per strategy, and writes
assets/decoding/results.json, which the decoding page shows. A script that prints figures, not a test.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

import torch  # noqa: E402

import model_backend as mb  # noqa: E402
from model_backend import decoding as dec  # noqa: E402
from model_backend.runtime.hardware import describe  # noqa: E402

PROMPTS = ROOT / "assets" / "decoding" / "prompts.json"
OUT = ROOT / "assets" / "decoding" / "results.json"
KEYS = ("repeated", "distinct1", "distinct2", "mean_logprob", "self_similarity", "ends_in_loop", "tokens", "seconds")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokens", type=int, default=60)
    ap.add_argument("--width", type=int, default=4)
    ap.add_argument("--samples", type=int, default=3, help="samples per sampled strategy (self-similarity)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N prompts (0 = all)")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    listed = json.loads(PROMPTS.read_text(encoding="utf-8"))["prompts"]
    # Alternate the languages (pt, en, pt, ...), so that a run stopped early still covers both; the seed of a
    # prompt is its index in prompts.json, so the page can recompute any one of them alone.
    order = sorted(range(len(listed)), key=lambda i: (sum(p["lang"] == listed[i]["lang"] for p in listed[:i]),
                                                      listed[i]["lang"] != "pt-BR"))
    if args.limit:
        order = order[: args.limit]
    prompts = [dict(listed[i], index=i) for i in order]
    started = time.perf_counter()
    cpu0 = time.process_time()
    bundle = mb.load_bundle()
    print(f"model {bundle.info.name} {bundle.info.dtype} on {bundle.info.device}, {torch.get_num_threads()} threads; "
          f"{len(prompts)} prompts, {args.tokens} tokens, beam {args.width}, {args.samples} samples", flush=True)
    results, per_prompt = [], []
    for i, p in enumerate(prompts):
        t0 = time.perf_counter()
        r = dec.compare_prompt(bundle, p["text"], new=args.tokens, width=args.width, seed=p["index"],
                               samples=args.samples)
        results.append((p["lang"], r))
        rows = {s: r.row(s) for s in dec.STRATEGIES}
        per_prompt.append({"index": p["index"], "lang": p["lang"], "prompt": p["text"], "seed": p["index"],
                           "rows": rows, "texts": {s: [c.text for c in r.runs[s]] for s in dec.STRATEGIES},
                           "ids": {s: [list(c.token_ids) for c in r.runs[s]] for s in dec.STRATEGIES}})
        print(f"[{i + 1:2d}/{len(prompts)}] {time.perf_counter() - t0:5.1f} s  " + "  ".join(
            f"{s} rep {rows[s]['repeated']:.2f} lp {rows[s]['mean_logprob']:.2f}" for s in dec.STRATEGIES), flush=True)
        write(args, bundle, results, per_prompt, started, cpu0, done=i + 1 == len(prompts))


def write(args, bundle, results, per_prompt, started, cpu0, done: bool) -> None:
    """Write the table of the prompts run so far (after each prompt: a long run stopped early keeps them)."""
    table = dec.summarize([r for _, r in results])
    by_lang = {lang: dec.summarize([r for lg, r in results if lg == lang]) for lang in ("pt-BR", "en")
               if any(lg == lang for lg, _ in results)}
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu0
    if done:
        print(f"\n{'strategy':10s} " + " ".join(f"{k:>15s}" for k in KEYS))
        for row in table:
            print(f"{row['label']:10s} " + " ".join(f"{row[k]:15.3f}" for k in KEYS))
        print(f"\nwall {wall:.0f} s, process CPU {cpu:.0f} s")
    out = {
        "date": date.today().isoformat(),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPU cores, torch {torch.__version__}",
        **{k: v for k, v in describe().items() if k in ("cpu", "cpu_capability")},
        "model": bundle.info.name, "dtype": bundle.info.dtype,
        "settings": {"tokens": args.tokens, "width": args.width, "samples": args.samples, "top_k": dec.TOP_K,
                     "top_p": dec.TOP_P, "ngram": dec.NGRAM, "similarity_ngram": dec.SIM_NGRAM,
                     "seeds": "prompt index"},
        "wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "threads": torch.get_num_threads(),
        "complete": done, "prompts_listed": len(json.loads(PROMPTS.read_text(encoding="utf-8"))["prompts"]),
        "table": table, "by_lang": by_lang, "prompts": per_prompt,
    }
    args.out.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    if done:
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
