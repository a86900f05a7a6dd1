"""A training run in its own process: `python -m model_backend.lessons.grokking.worker` (the page's BackgroundRun starts it).

Reads one JSON line with {"config": {...GrokConfig fields}, "threads": n} on stdin, then trains and writes
one JSON line per logged step on stdout ({"step", "train_loss", ..., "t", "embedding"}), and a last line
{"end": "done" | "stopped"}. A line "stop" on stdin, or stdin closing (the parent went away), ends the run
after a last checkpoint. Its own process means its own torch thread count and no share of the server's GIL.
"""
from __future__ import annotations

import base64
import json
import sys
import threading
import time

import numpy as np


def encode_array(a: np.ndarray) -> dict:
    a = np.ascontiguousarray(a, dtype=np.float32)
    return {"shape": list(a.shape), "data": base64.b64encode(a.tobytes()).decode("ascii")}


def decode_array(obj: dict) -> np.ndarray:
    return np.frombuffer(base64.b64decode(obj["data"]), dtype=np.float32).reshape(obj["shape"]).copy()


def main() -> int:
    request = json.loads(sys.stdin.readline())
    import torch

    from .training import GrokConfig, train

    torch.set_num_threads(int(request.get("threads", 1)))  # this process only
    cfg = GrokConfig(**request["config"])
    stop = threading.Event()

    def listen() -> None:  # "stop" or EOF on stdin: finish with a last checkpoint
        for line in sys.stdin:
            if line.strip() == "stop":
                break
        stop.set()

    threading.Thread(target=listen, daemon=True).start()
    start, cpu0 = time.perf_counter(), time.process_time()
    last = 0
    for snap in train(cfg, should_stop=stop.is_set):
        row = {"step": snap.step, "train_loss": snap.train_loss, "train_acc": snap.train_acc,
               "test_loss": snap.test_loss, "test_acc": snap.test_acc, "t": time.perf_counter() - start,
               "cpu": time.process_time() - cpu0,
               "embedding": encode_array(snap.embedding) if snap.embedding is not None else None}
        print(json.dumps(row), flush=True)
        last = snap.step
    print(json.dumps({"end": "done" if last >= cfg.max_steps else "stopped"}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
