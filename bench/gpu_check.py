"""The GPU path, checked for real: the model on CUDA in bfloat16 against the CPU's greedy tokens, and its throughput.

    make gpu-check        # or: .venv/bin/python bench/gpu_check.py [--tokens 20] [--streams 30] [--out FILE]
    .venv/bin/python bench/gpu_check.py --device cpu --prompts 1 --tokens 4 --streams 2   # the dry mode

1. The CPU reference: the model in float32 on the CPU, greedy (`generate(do_sample=False)`), on 5 prompts.
2. The target: the model loaded as the app loads it (model_backend.load_bundle) on --device in --dtype
   (cuda, bfloat16). Its greedy tokens on the same prompts, one prompt at a time, must equal the
   reference exactly: no token is tolerated.
   bfloat16 keeps 8 bits of mantissa, so where the reference's top two logits are nearly tied a token can
   flip, and every token after it differs too (a late flip is the usual shape). The check does not hide
   that: it fails, and prints the first differing step with the reference's margin there (top-1 minus
   top-2 logit, float32). A margin under about 0.1 logit says "a near-tie bfloat16 can flip"; a large
   margin says the GPU path computes something else (a real bug).
3. Throughput: the same greedy run for 1 stream, then for --streams prompts at once in one batched
   `generate()` with left padding (each of the 5 prompts with 6 endings), --tokens new tokens each (no early
   stop), timed with the device synchronised. tokens/s = streams x tokens / seconds. It also says whether
   each of the 5 prompts got the same tokens in the batch as alone (a figure, not a pass/fail: padding
   and batch shapes change the kernels' order of arithmetic, see the nondeterminism page).
Prints the figures and writes them as JSON (--out, default bench/gpu_check.json).
Exit codes: 0 tokens identical; 1 a token differs; 2 no CUDA device (nothing was run: the message says so).
`--device cpu` is the dry mode that the tests run: the same code on the CPU, in bfloat16 by default.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402

PROMPTS = ["A capital da França é", "Albert Einstein nasceu em", "The quick brown fox", "Era uma vez um menino que",
           "def fibonacci(n):"]
ENDINGS = ["", " hoje", ", disse ela,", " e", " (1)", " segundo o livro"]  # 5 x 6 = 30 different streams
NO_CUDA = 2


def greedy(bundle, prompts: list[str], tokens: int, scores: bool = False):
    """Greedy continuations of prompts in one left-padded batch: (new token ids per prompt, seconds, step scores).

    Args:
        prompts: B strings. tokens: new tokens per stream (exactly: min_new_tokens = max_new_tokens).
    Returns:
        ([B lists of token ids], seconds with the device synchronised, scores: tokens x (B, vocab) or None)."""
    tok = bundle.tokenizer
    tok.padding_side = "left"  # a decoder-only batch pads on the left, so every row ends at its last token
    enc = tok(prompts, return_tensors="pt", padding=True).to(bundle.device)
    sync = torch.cuda.synchronize if bundle.device.type == "cuda" else (lambda: None)
    sync()
    t = time.perf_counter()
    with torch.inference_mode():
        out = bundle.engine.generate(**enc, max_new_tokens=tokens, min_new_tokens=tokens, do_sample=False,
                                     pad_token_id=tok.pad_token_id, output_scores=scores,
                                     return_dict_in_generate=True, top_p=None, top_k=None, temperature=None)
    sync()
    seconds = time.perf_counter() - t
    new = out.sequences[:, enc["input_ids"].shape[1]:]  # (B, tokens)
    return [row.tolist() for row in new], seconds, out.scores if scores else None


def reference(prompts: list[str], tokens: int) -> list[dict]:
    """The CPU in float32, one prompt at a time: tokens, and the top-1 minus top-2 logit at each step."""
    from model_backend import load_bundle

    bundle = load_bundle(dtype="float32", device="cpu")
    refs = []
    for prompt in prompts:
        ids, _, scores = greedy(bundle, [prompt], tokens, scores=True)
        top2 = [s[0].float().topk(2).values for s in scores]  # per step: (2,)
        refs.append({"prompt": prompt, "tokens": ids[0], "margins": [float(v[0] - v[1]) for v in top2]})
    del bundle
    return refs


def compare(refs: list[dict], bundle, tokens: int) -> list[dict]:
    """The target's greedy tokens, one prompt at a time, against the reference's."""
    rows = []
    for ref in refs:
        ids, _, _ = greedy(bundle, [ref["prompt"]], tokens)
        first = next((i for i, (a, b) in enumerate(zip(ids[0], ref["tokens"], strict=True)) if a != b), None)
        rows.append({"prompt": ref["prompt"], "identical": first is None, "tokens": ids[0],
                     "reference": ref["tokens"], "first_difference": first,
                     "reference_margin_there": None if first is None else ref["margins"][first],
                     "text": bundle.tokenizer.decode(ids[0])})
    return rows


def throughput(bundle, prompts: list[str], tokens: int, streams: int) -> dict:
    """tokens/s of 1 stream and of `streams` streams in one batch (a warm-up run first, not timed)."""
    batch = [p + e for e in ENDINGS for p in prompts][:streams]
    while len(batch) < streams:  # more streams than endings: number the extra ones
        batch.append(f"{prompts[len(batch) % len(prompts)]} {len(batch)}")
    greedy(bundle, batch[:1], 2)
    greedy(bundle, batch, 2)
    one_ids, one_s, _ = greedy(bundle, batch[:1], tokens)
    many_ids, many_s, _ = greedy(bundle, batch, tokens)
    alone = {p: greedy(bundle, [p], tokens)[0][0] for p in prompts}  # ENDINGS[0] is "": the first rows are the prompts
    same = [many_ids[i] == alone[p] for i, p in enumerate(batch) if p in alone]
    return {"tokens_per_stream": tokens, "one_stream_s": one_s, "one_stream_tokens_per_s": tokens / one_s,
            "streams": streams, "streams_s": many_s, "streams_tokens_per_s": streams * tokens / many_s,
            "streams_over_one": (streams * tokens / many_s) / (tokens / one_s),
            "batched_same_as_alone": f"{sum(same)} of {len(same)}", "batch_tokens_ok": all(len(r) == tokens
                                                                                         for r in many_ids + one_ids)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", default="cuda", choices=["cuda", "cpu"], help="cpu: the dry mode (tests)")
    ap.add_argument("--dtype", default="bfloat16", choices=["bfloat16", "float32"])
    ap.add_argument("--prompts", type=int, default=5, help="how many of the 5 prompts to check")
    ap.add_argument("--tokens", type=int, default=20, help="new tokens per prompt")
    ap.add_argument("--streams", type=int, default=30)
    ap.add_argument("--out", default=str(ROOT / "bench" / "gpu_check.json"))
    args = ap.parse_args(argv)
    if args.device == "cuda" and not torch.cuda.is_available():
        print("gpu-check: no CUDA device here (torch.cuda.is_available() is False, torch "
              f"{torch.__version__}, built for CUDA {torch.version.cuda}). Nothing was run. Run it on a machine with "
              "an NVIDIA GPU, or `python -m bench gpu_check --device cpu` for the dry mode.", file=sys.stderr)
        return NO_CUDA
    from model_backend import load_bundle
    from model_backend.runtime.hardware import describe

    t0 = time.perf_counter()
    prompts = PROMPTS[:max(1, min(args.prompts, len(PROMPTS)))]
    refs = reference(prompts, args.tokens)
    bundle = load_bundle(dtype=args.dtype, device=args.device)
    where = torch.cuda.get_device_name(0) if args.device == "cuda" else describe()["cpu"]
    print(f"gpu-check on {args.device} ({where}), {bundle.info.dtype}, {args.tokens} greedy tokens per prompt", flush=True)
    rows = compare(refs, bundle, args.tokens)
    for r in rows:
        verdict = "identical" if r["identical"] else (
            f"DIFFERS from step {r['first_difference'] + 1}, where the CPU's top-2 margin is "
            f"{r['reference_margin_there']:.3f} logit ({'a near-tie bf16 can flip' if r['reference_margin_there'] < 0.1 else 'not a near-tie: a bug'})")
        print(f"  {r['prompt']!r}: {verdict}", flush=True)
    speed = throughput(bundle, prompts, args.tokens, args.streams)
    print(f"  1 stream: {speed['one_stream_tokens_per_s']:.1f} tokens/s; {speed['streams']} streams (one batched "
          f"generate, left padding): {speed['streams_tokens_per_s']:.1f} tokens/s = {speed['streams_over_one']:.1f}x; "
          f"batched tokens equal to alone: {speed['batched_same_as_alone']}", flush=True)
    ok = all(r["identical"] for r in rows)
    report = {"date": time.strftime("%Y-%m-%d %H:%M"), "device": args.device, "device_name": where,
              "dtype": bundle.info.dtype, "reference": "cpu float32, greedy", "tokens_identical": ok,
              "prompts": rows, "throughput": speed, "seconds": time.perf_counter() - t0}
    Path(args.out).write_text(json.dumps(report, indent=1, ensure_ascii=False))
    print(f"{'PASS' if ok else 'FAIL'}: tokens {'identical' if ok else 'differ'} on {len(rows)} prompts; "
          f"{report['seconds']:.0f} s; wrote {args.out}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
