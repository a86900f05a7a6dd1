"""The process-wide thread policy: torch's OpenMP threads sleep while they wait (model_backend/__init__.py)."""
import os
import subprocess
import sys

from tests.conftest import ROOT

PROBE = "import os, model_backend, torch; print(os.environ.get('OMP_WAIT_POLICY'), torch.get_num_threads() >= 1)"


def _probe(env: dict) -> str:
    clean = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    return subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env={**clean, **env}, capture_output=True,
                          text=True, timeout=120, check=True).stdout.strip()


def test_importing_the_backend_sets_the_passive_wait_policy_before_torch_loads():
    assert _probe({}) == "PASSIVE True"


def test_an_operator_s_own_policy_is_kept():
    assert _probe({"OMP_WAIT_POLICY": "ACTIVE"}) == "ACTIVE True"
