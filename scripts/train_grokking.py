"""Train the shipped grokking run (one-layer transformer, a + b mod 113) and write assets/grokking/.

    PYTHONPATH=. .venv/bin/python scripts/train_grokking.py            # the full run (about 20,000 steps)
    PYTHONPATH=. .venv/bin/python scripts/train_grokking.py --steps 200 --out /tmp/grok   # a quick look

Same seed, same thread count (fixed here): the same curves, number for number.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from model_backend.lessons.grokking import shipped  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=shipped.SHIPPED.max_steps, help="stop after this many steps")
    parser.add_argument("--seed", type=int, default=shipped.SHIPPED.seed)
    parser.add_argument("--out", type=Path, default=shipped.ASSET_DIR, help="where curves.json/embeddings.npz go")
    args = parser.parse_args(argv)
    torch.set_num_threads(shipped.THREADS)
    torch.use_deterministic_algorithms(True)
    cfg = replace(shipped.SHIPPED, seed=args.seed)
    result = shipped.run(cfg, max_steps=args.steps, progress=lambda line: print(line, flush=True),
                         partial=lambda part: shipped.save(part, args.out))  # a long run is saved as it goes
    shipped.save(result, args.out)
    print(f"wrote {args.out} ({len(result.curves['step'])} logged steps, "
          f"{len(result.checkpoint_steps)} checkpoints, {result.seconds:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
