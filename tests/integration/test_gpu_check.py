"""`make gpu-check` (python -m bench gpu_check): its dry mode on the CPU runs the whole check on a small subset,
and without CUDA the default run says so and exits with code 2. Run as a command: tests never import bench."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parents[2]
NO_CUDA = 2  # bench/gpu_check.py's exit code when no CUDA device is present


def gpu_check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bench", "gpu_check", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


def test_dry_mode_on_cpu_checks_tokens_and_measures_streams(tmp_path):
    out = tmp_path / "gpu_check.json"
    run = gpu_check("--device", "cpu", "--prompts", "1", "--tokens", "3", "--streams", "2", "--out", str(out))
    report = json.loads(out.read_text())
    assert run.returncode == (0 if report["tokens_identical"] else 1), run.stderr
    row = report["prompts"][0]
    assert len(row["reference"]) == 3 and len(row["tokens"]) == 3
    assert row["identical"] is True and run.returncode == 0  # 3 greedy tokens of a clear prompt: bf16 agrees
    assert report["dtype"] == "bfloat16" and report["device"] == "cpu"
    speed = report["throughput"]
    assert speed["streams"] == 2 and speed["batch_tokens_ok"] is True
    assert speed["one_stream_tokens_per_s"] > 0 and speed["streams_tokens_per_s"] > 0


@pytest.mark.skipif(torch.cuda.is_available(), reason="a CUDA device is present: the real check would run")
def test_without_cuda_it_says_so_and_exits_2(tmp_path):
    run = gpu_check("--out", str(tmp_path / "x.json"))
    assert run.returncode == NO_CUDA and "no CUDA device" in run.stderr
    assert not (tmp_path / "x.json").exists()
