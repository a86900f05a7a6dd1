"""The process-wide thread policy (model_backend/runtime/threads.py): torch's OpenMP threads sleep while they wait,
numpy's BLAS runs on one thread."""
import os
import subprocess
import sys

from tests.conftest import ROOT

PROBE = ("import os, model_backend, numpy, torch; "
         "print(os.environ.get('OMP_WAIT_POLICY'), os.environ.get('OPENBLAS_NUM_THREADS'), torch.get_num_threads() >= 1)")


def _probe(env: dict) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "OPENBLAS_NUM_THREADS")}
    return subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env={**clean, **env}, capture_output=True,
                          text=True, timeout=120, check=True).stdout.strip()


def test_importing_the_backend_sets_the_passive_wait_policy_before_torch_loads():
    assert _probe({}) == "PASSIVE 1 True"


def test_an_operator_s_own_policy_is_kept():
    assert _probe({"OMP_WAIT_POLICY": "ACTIVE", "OPENBLAS_NUM_THREADS": "2"}) == "ACTIVE 2 True"


def test_the_server_entry_point_imports_the_backend_before_streamlit():
    source = (ROOT / "ui" / "serve.py").read_text()
    assert source.index("import model_backend") < source.index("from streamlit")
