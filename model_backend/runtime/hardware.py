"""What this machine is, as far as the model's numbers go: the CPU, torch's kernel level, bfloat16's fast path.

The benchmarks record it with their figures, and the decoding page with a live run. Machines of the same size
(2 cores, 24 GiB) differ in what moves the figures most: an AVX2-only EPYC runs
`auto` in float32, an AVX-512-BF16 one in bfloat16 with the packed fast path, and their memory bandwidth differs.
"""
from __future__ import annotations

import os
import platform


def describe() -> dict:
    """{"cpu", "cores", "threads", "cpu_capability", "bfloat16_fast_path"} of this machine (torch is imported);
    "threads" is torch's intra-op thread count as the calling thread sees it."""
    import torch

    from model_backend.runtime import fastpath

    cpu = platform.processor() or platform.machine()
    if os.path.exists("/proc/cpuinfo"):
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    return {"cpu": cpu, "cores": os.cpu_count(), "threads": torch.get_num_threads(), "cpu_capability": torch.backends.cpu.get_cpu_capability(),
            "bfloat16_fast_path": fastpath.supports(torch.bfloat16)}
