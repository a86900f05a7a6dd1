"""bench/gpu_check.py (make gpu-check): its dry mode on the CPU runs the whole check on a small subset, and
without CUDA the default run says so and exits with code 2."""
from __future__ import annotations

import json

import pytest
import torch

from bench import gpu_check


def test_dry_mode_on_cpu_checks_tokens_and_measures_streams(tmp_path):
    out = tmp_path / "gpu_check.json"
    rc = gpu_check.main(["--device", "cpu", "--prompts", "1", "--tokens", "3", "--streams", "2", "--out", str(out)])
    report = json.loads(out.read_text())
    assert rc == (0 if report["tokens_identical"] else 1)
    row = report["prompts"][0]
    assert row["prompt"] == gpu_check.PROMPTS[0] and len(row["reference"]) == 3 and len(row["tokens"]) == 3
    assert row["identical"] is True and rc == 0  # 3 greedy tokens of a clear prompt: bf16 agrees with float32
    assert report["dtype"] == "bfloat16" and report["device"] == "cpu"
    speed = report["throughput"]
    assert speed["streams"] == 2 and speed["batch_tokens_ok"] is True
    assert speed["one_stream_tokens_per_s"] > 0 and speed["streams_tokens_per_s"] > 0


@pytest.mark.skipif(torch.cuda.is_available(), reason="a CUDA device is present: the real check would run")
def test_without_cuda_it_says_so_and_exits_2(capsys, tmp_path):
    assert gpu_check.main(["--out", str(tmp_path / "x.json")]) == gpu_check.NO_CUDA
    assert "no CUDA device" in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()
