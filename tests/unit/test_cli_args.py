"""The command line refuses bad arguments with status 2 and one clear line, before loading a model."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("args", [
    ["generate", "--prompt", ""], ["generate", "--prompt", "   "], ["generate", "--prompt", "x", "--top-p", "1.5"],
    ["generate", "--prompt", "x", "--top-p", "0"], ["generate", "--prompt", "x", "--temperature", "-1"],
    ["generate", "--prompt", "x", "--top-k", "0.5"], ["generate", "--prompt", "x", "--max-new-tokens", "100000"],
    ["generate", "--prompt", "x", "--max-new-tokens", "0"], ["analyze", "--prompt", ""], ["generate"],
    ["bogus"],
])
def test_bad_arguments_exit_2_with_one_line(args):
    r = subprocess.run([sys.executable, "-m", "model_backend", *args], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 2, r.stderr
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
