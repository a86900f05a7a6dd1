"""The model engine with the real model, no server: is a visitor's greedy output the same when its prefill and decode
steps are batched with other visitors', and how much do 30 concurrent streams gain over one?

    python -m bench engine_bench [--prompts 50] [--tokens 12] [--streams 30] [--no-write]

- parity: every prompt's greedy tokens and step logits alone, then again while it shares the engine with 1 to 31
  others (groups of 2, 4, 8, 16 and 32 visitors, each a thread, started at once, as a class presses). For each
  group size: prompts whose tokens are identical, steps whose logits are bitwise equal, the largest logit
  difference, and how many steps really ran batched.
- throughput: one stream of 21 greedy tokens alone, then --streams streams at once, alternately for three rounds:
  tokens per second of all streams together over one stream's (medians), for the engine's steps alone and for the
  loop page's generation (stepping.generate: its sampling chain, candidates and statistics at each step too).
Writes the "engine" key of bench/results.json. A script that prints figures, not a test.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import threading
import time
from pathlib import Path

import torch

import model_backend as mb
from model_backend.runtime import hardware

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results.json"
GROUPS = (2, 4, 8, 16, 32)


def prompts(n: int) -> list[str]:
    """Distinct prompts from the shipped assets (the decoding study's, the hallucination pairs', the presets), then
    their first halves, of different lengths."""
    decoding = json.loads((ROOT / "assets" / "decoding" / "prompts.json").read_text(encoding="utf-8"))["prompts"]
    pairs = json.loads((ROOT / "assets" / "hallucination_pairs.json").read_text(encoding="utf-8"))["pairs"]
    presets = json.loads((ROOT / "assets" / "presets.json").read_text(encoding="utf-8"))["prompts"]
    texts = [p["text"] if isinstance(p, dict) else p for p in decoding]
    texts += [p[k] for p in pairs for k in ("real", "invented")] + list(presets)
    texts += [" ".join(t.split()[: max(2, len(t.split()) // 2)]) for t in texts]  # and their first halves
    out = list(dict.fromkeys(t for t in texts if t.strip()))
    assert len(out) >= n, f"only {len(out)} distinct prompts in the assets"
    return out[:n]


def greedy(bundle: mb.ModelBundle, text: str, steps: int) -> tuple[list[int], list[torch.Tensor]]:
    """The prefill, then `steps` decode steps through the engine, each batched with whoever waits at that moment
    (prefills with prefills, steps with steps), as one generation (`engine.run()`, as the pages' loops run: its
    decode steps wait a moment for the other runs'). The logits of every pass are kept, the prefill's first."""
    ids = bundle.tokenizer(text, return_tensors="pt").input_ids.to(bundle.device)
    with bundle.engine.run() as run:
        out = bundle.prefill(ids, run=run)
        past, token = out.past_key_values, int(out.logits[0, -1].argmax())
        tokens, logits = [token], [out.logits[0, -1].float().cpu()]
        for _ in range(steps):
            out = bundle.decode(torch.tensor([[token]], device=bundle.device), past, run=run)
            row = out.logits[0, -1].float().cpu()
            logits.append(row)
            token = int(row.argmax())
            tokens.append(token)
    return tokens, logits


def at_once(bundle: mb.ModelBundle, texts: list[str], steps: int) -> tuple[list, float]:
    """Every text in its own thread, all started together; their results and the wall time."""
    return _at_once_fn(lambda text: greedy(bundle, text, steps), texts)


def parity(bundle: mb.ModelBundle, texts: list[str], steps: int) -> dict:
    alone = [greedy(bundle, t, steps) for t in texts]
    out = {}
    for size in GROUPS:
        same_tokens = bitwise_steps = total_steps = 0
        worst = 0.0
        batched_before = bundle.engine.batched_steps
        for start in range(0, len(texts), size):
            group = texts[start:start + size]
            if len(group) < 2:  # the last one alone would test nothing
                group = texts[-size:]
                start = len(texts) - len(group)
            together, _ = at_once(bundle, group, steps)
            for i, (tokens, logits) in enumerate(together):
                ref_tokens, ref_logits = alone[start + i]
                same_tokens += tokens == ref_tokens
                for a, b in zip(ref_logits, logits):
                    total_steps += 1
                    bitwise_steps += bool(torch.equal(a, b))
                    worst = max(worst, float((a - b).abs().max()))
        out[str(size)] = {"prompts": len(texts), "same_tokens": same_tokens, "steps": total_steps,
                          "bitwise_equal_steps": bitwise_steps, "max_abs_logit_diff": worst,
                          "batched_steps": bundle.engine.batched_steps - batched_before}
        print(f"  with {size - 1:>2} others: same tokens {same_tokens}/{len(texts)}, bitwise logits "
              f"{bitwise_steps}/{total_steps} steps, max |diff| {worst:.2e}", flush=True)
    return out


def _loop_generation(bundle: mb.ModelBundle, text: str, steps: int) -> int:
    """The loop page's own greedy generation of steps + 1 tokens (stepping.generate: each step's sampling chain,
    candidates and statistics too); the number of tokens it made."""
    from model_backend.core import stepping
    from model_backend.types import SamplingParams

    made = len(stepping.generate(bundle, text, SamplingParams(temperature=0.0, max_new_tokens=steps + 1)).steps)
    assert made == steps + 1, f"stopped after {made} tokens (<eos>): the throughput counts {steps + 1}"
    return made


def throughput(bundle: mb.ModelBundle, texts: list[str], steps: int, streams: int, rounds: int = 3) -> dict:
    """Tokens per second of `streams` streams at once over one stream alone, for the engine's steps alone (`greedy`)
    and for the loop page's generation (its step work too). Alone and together alternate for `rounds` rounds (this
    machine's speed drifts); the medians are compared."""
    out = {"streams": streams, "tokens_each": steps + 1, "rounds": rounds}
    for name, fn in (("engine_steps", lambda text: greedy(bundle, text, steps)),
                     ("loop_generation", lambda text: _loop_generation(bundle, text, steps))):
        fn(texts[0])  # warm
        alone, together, passes, widest = [], [], [], 0
        for _ in range(rounds):
            started = time.perf_counter()
            fn(texts[1])
            alone.append(time.perf_counter() - started)
            before, bundle.engine.widest = bundle.engine.passes, 1  # the widest pass of this round
            results, seconds = _at_once_fn(fn, [texts[i % len(texts)] for i in range(streams)])
            together.append(seconds)
            passes.append(bundle.engine.passes - before)
            widest = max(widest, bundle.engine.widest)
        one = (steps + 1) / statistics.median(alone)
        many = streams * (steps + 1) / statistics.median(together)
        out[name] = {"alone_s": alone, "together_s": together, "passes_together": passes,
                     "tokens_per_s_alone": one, "tokens_per_s_together": many, "ratio": many / one,
                     "widest_batch": widest}
        print(f"  {name}: 1 stream {one:.1f} tokens/s; {streams} streams {many:.1f} tokens/s together "
              f"({many / one:.1f}x; passes {passes})", flush=True)
    return out


def _at_once_fn(fn, texts: list[str]) -> tuple[list, float]:
    """fn(text) for every text in its own thread, all started together; their results and the wall time."""
    results, barrier = [None] * len(texts), threading.Barrier(len(texts))

    def visitor(i: int) -> None:
        barrier.wait()
        results[i] = fn(texts[i])

    threads = [threading.Thread(target=visitor, args=(i,)) for i in range(len(texts))]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results, time.perf_counter() - started


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--prompts", type=int, default=50)
    ap.add_argument("--tokens", type=int, default=12)
    ap.add_argument("--streams", type=int, default=30)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    bundle = mb.load_bundle()
    gc.freeze()  # as the server does once the model is loaded (ui/backend.py): no full collection walks it mid-round
    texts = prompts(args.prompts)
    print(f"{bundle.info.name} in {bundle.info.dtype} on {bundle.device}; {len(texts)} prompts, {args.tokens} tokens")
    result = {"date": time.strftime("%Y-%m-%d %H:%M"), "uptime": f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}",
              "dtype": bundle.info.dtype, "cpu": hardware.describe(),
              "parity": parity(bundle, texts, args.tokens),
              "throughput": throughput(bundle, texts, 20, args.streams)}
    if not args.no_write:
        data = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {}
        data["engine"] = result
        RESULTS.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        print(f"wrote the engine key of {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
