"""The command line refuses bad arguments with status 2 and one clear line, before loading a model."""
import subprocess
import sys
from pathlib import Path

import pytest

from model_backend import cli

ROOT = Path(__file__).resolve().parents[2]
BAD = [
    ["generate", "--prompt", ""], ["generate", "--prompt", "   "], ["generate", "--prompt", "x", "--top-p", "1.5"],
    ["generate", "--prompt", "x", "--top-p", "0"], ["generate", "--prompt", "x", "--temperature", "-1"],
    ["generate", "--prompt", "x", "--top-k", "0.5"], ["generate", "--prompt", "x", "--max-new-tokens", "100000"],
    ["generate", "--prompt", "x", "--max-new-tokens", "0"], ["analyze", "--prompt", ""], ["generate"],
    ["bogus"],
]


def _one_error_line(stderr: str) -> None:
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize("args", BAD)
def test_bad_arguments_exit_2_with_one_line(args, capsys, monkeypatch):
    """In this process (a new one costs ~2.5 s of imports each): main() returns or exits with 2, says one line,
    and never reaches the model."""
    def no_model(*_a, **_k):
        raise AssertionError("a bad argument reached the model")

    monkeypatch.setattr(cli, "load_bundle", no_model)
    try:
        code = cli.main(args)
    except SystemExit as stop:  # argparse's own refusals exit
        code = stop.code
    out = capsys.readouterr()
    assert code == 2, out.err
    _one_error_line(out.err)
    assert out.out == ""


@pytest.mark.parametrize("args", [BAD[2], BAD[-1]])  # one refused by our checks, one by argparse
def test_the_real_command_exits_2_with_one_line(args):
    """The same, as a person runs it: a new process prints nothing else (no warning of a library on import)."""
    r = subprocess.run([sys.executable, "-m", "model_backend", *args], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 2, r.stderr
    _one_error_line(r.stderr)
    assert r.stdout == ""
