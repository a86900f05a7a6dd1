"""Quick figure: instrumented step loop vs plain generate(), per decoded token (interleaved runs)."""
import statistics
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from model_backend import SamplingParams, generate, load_bundle  # noqa: E402

PROMPT, N = "Albert Einstein nasceu em", 24


def per_token(fn) -> float:
    t0 = time.perf_counter(); fn(1); t1 = time.perf_counter(); fn(N); t2 = time.perf_counter()  # noqa: E702
    return ((t2 - t1) - (t1 - t0)) / (N - 1) * 1000


for dtype in sys.argv[1:] or ["bfloat16"]:
    b = load_bundle(dtype=dtype)
    enc = b.tokenizer(PROMPT, return_tensors="pt")

    def ours(n):
        generate(b, PROMPT, SamplingParams(temperature=0, max_new_tokens=n))

    def plain(n):
        with torch.inference_mode():
            b.model.generate(**enc, max_new_tokens=n, min_new_tokens=n, do_sample=False, pad_token_id=0)
    ours(2); plain(2)
    a, p = [], []
    for _ in range(5):
        a.append(per_token(ours)); p.append(per_token(plain))
    print(f"{dtype}: instrumented {statistics.median(a):.1f} ms/token  plain {statistics.median(p):.1f}  "
          f"ratio {statistics.median(a) / statistics.median(p):.3f}  (runs {[round(x, 1) for x in a]} vs {[round(x, 1) for x in p]})")
