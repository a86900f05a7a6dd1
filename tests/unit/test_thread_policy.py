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


ENGINE_PROBE = """
import threading, torch
from tests.tiny import make_tiny_bundle
bundle = make_tiny_bundle()
seen = []
bundle.engine.weights.register_forward_pre_hook(
    lambda m, a, k: seen.append((k.get("past_key_values") is not None and k["past_key_values"].get_seq_length() > 0,
                                 threading.get_ident(), torch.get_num_threads())), with_kwargs=True)
out = bundle.prefill(bundle.tokenizer("o gato subiu", return_tensors="pt").input_ids)
bundle.decode(out.logits[:, -1].argmax(-1, keepdim=True), out.past_key_values)
fresh = []
t = threading.Thread(target=lambda: fresh.append(torch.get_num_threads()))
t.start(); t.join(30)
prefill = {(i, n) for d, i, n in seen if not d}
decode = {(i, n) for d, i, n in seen if d}
print(sorted(n for _, n in prefill), sorted(n for _, n in decode), len({i for _, i, _ in seen}), fresh)
"""


def test_on_two_cores_decode_passes_run_on_a_thread_of_their_own_with_one_and_new_threads_start_on_one():
    """A fresh process on two intra-op threads (OMP_NUM_THREADS=2, as the compose file and the manifests set): the
    prefill runs on the pass thread with two, the decode on the decode thread with one, and a thread started
    afterwards, which never asked the engine for anything, works on one (engine._decode_thread)."""
    clean = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS")}  # torch reads both
    out = subprocess.run([sys.executable, "-c", ENGINE_PROBE], cwd=ROOT, env={**clean, "OMP_NUM_THREADS": "2"},
                         capture_output=True, text=True, timeout=180, check=True).stdout.strip().splitlines()[-1]
    assert out == "[2] [1] 2 [1]"
