"""Where a beam search's time goes: the decoding page's run_beam, step by step, on the real model.

Usage: python -m bench beam_bench [--widths 4 8 16] [--tokens 80] [--dtype float32] [--reference] [--prompt TEXT]

For each width it runs decoding.run_beam (transformers' generate(num_beams=w), the prompt's cache computed once
for all beams) and prints: wall and process CPU seconds of the whole run (generate() and the scoring pass), the
first forward pass (the prompt's last token for every beam), the median decode step split into the model's
forward pass, its output layer (lm_head, [w, 640] x [640, 262,144]) and what generate() does between two passes
(log_softmax, the top-k over w x 262,144 candidates, reordering the cache). With --reference it also runs
generate()'s own prefill of w copies of the prompt (share_prompt=False) and says whether the two chose the same
beam and how far their scores are apart. CPU seconds are the process's (all its threads). A script that prints
figures, not a test: wall seconds on a shared machine depend on what else runs, so the load average is printed.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

import torch  # noqa: E402

import model_backend as mb  # noqa: E402
from model_backend import decoding as dec  # noqa: E402

PROMPT = "Era uma vez uma menina que morava perto do mar. Todos os dias ela"  # the README's figures use it


class Clock:
    """Forward hooks on the model and its output layer: process CPU time of each pass and of what lies between."""

    def __init__(self, model: torch.nn.Module):
        self.passes: list[list[float]] = []  # [cpu at start, cpu at end, rows, tokens]
        self.heads: list[float] = []
        self._head0 = 0.0
        head = model.get_output_embeddings()
        self.handles = [
            model.register_forward_pre_hook(self._pre, with_kwargs=True),
            model.register_forward_hook(self._post, with_kwargs=True),
            head.register_forward_pre_hook(lambda m, a: setattr(self, "_head0", time.process_time())),
            head.register_forward_hook(lambda m, a, o: self.heads.append(time.process_time() - self._head0)),
        ]

    def _pre(self, module, args, kwargs):
        ids = kwargs.get("input_ids")
        self.passes.append([time.process_time(), 0.0, *(tuple(ids.shape) if ids is not None else (0, 0))])

    def _post(self, module, args, kwargs, output):
        self.passes[-1][1] = time.process_time()

    def close(self) -> None:
        for h in self.handles:
            h.remove()


def one(bundle, prompt: str, width: int, tokens: int, share: bool) -> dict:
    clock = Clock(bundle.weights)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    try:
        run = dec.run_beam(bundle, prompt, width, tokens, share_prompt=share)
    finally:
        clock.close()
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    # passes: [prompt prefix (shared only)], first step, decode steps..., the scoring pass (1 row, no cache)
    gen = clock.passes[:-1]
    beams = [p for p in gen if p[2] == width]  # generate()'s passes: the first step, then one per token
    first, steps = beams[0], beams[1:]
    between = [b[0] - a[1] for a, b in zip(beams, beams[1:])]
    heads = clock.heads[:-1][-len(steps):] if steps else []  # the output layer runs once per pass
    return {
        "run": run, "wall": wall, "cpu": cpu, "generate_wall": run.continuation.seconds,
        "prefix": sum(p[1] - p[0] for p in gen if p[2] == 1), "first": first[1] - first[0], "first_shape": first[2:],
        "steps": len(beams), "step_fwd": statistics.median(p[1] - p[0] for p in steps),
        "step_head": statistics.median(heads) if heads else float("nan"),
        "between": statistics.median(between) if between else float("nan"),
        "score": clock.passes[-1][1] - clock.passes[-1][0],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--widths", type=int, nargs="+", default=[4, 8, 16])
    ap.add_argument("--tokens", type=int, default=80)
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--prompt", default=PROMPT)
    ap.add_argument("--reference", action="store_true", help="also run generate()'s own prefill and compare")
    args = ap.parse_args()
    bundle = mb.load_bundle(dtype=args.dtype)
    ids, _ = dec.encode(bundle, args.prompt, 128)
    print(f"{bundle.info.name} {bundle.info.dtype} on {bundle.info.device}; torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads, CPU capability {torch.backends.cpu.get_cpu_capability()}; "
          f"prompt {len(ids)} tokens; load average {os.getloadavg()[0]:.1f}", flush=True)
    print("all times in ms of process CPU unless marked wall", flush=True)
    for width in args.widths:
        variants = [("shared prompt", True)] + ([("generate()'s own prefill", False)] if args.reference else [])
        got = {}
        for name, share in variants:
            r = got[share] = one(bundle, args.prompt, width, args.tokens, share)
            print(f"beam {width:2d}, {args.tokens} tokens, {name}: wall {r['wall']:.1f} s, CPU {r['cpu']:.1f} s "
                  f"(generate() {r['generate_wall']:.1f} s wall); prompt prefix {1000 * r['prefix']:.0f}, first step "
                  f"{r['first_shape']} {1000 * r['first']:.0f}; {r['steps']} steps, median step: forward "
                  f"{1000 * r['step_fwd']:.0f} (output layer {1000 * r['step_head']:.0f}) + between "
                  f"{1000 * r['between']:.0f}; scoring pass {1000 * r['score']:.0f}; load average "
                  f"{os.getloadavg()[0]:.1f}", flush=True)
        if args.reference:
            a, b = got[True]["run"], got[False]["run"]
            same = a.continuation.token_ids == b.continuation.token_ids
            print(f"  same beam as generate()'s own prefill: {same}; sequence scores {a.sequence_score:.6f} vs "
                  f"{b.sequence_score:.6f} (|diff| {abs(a.sequence_score - b.sequence_score):.2e})", flush=True)


if __name__ == "__main__":
    main()
