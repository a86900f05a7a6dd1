"""The shipped run in assets/grokking/ is what scripts/train_grokking.py produces for its seed."""
import json
import subprocess
import sys

import numpy as np
import pytest

from model_backend.grokking import jump_steps, spectrum
from model_backend.grokking.shipped import ASSET_DIR, CURVES, SHIPPED, load, shipped_checkpoints
from tests.conftest import ROOT

PREFIX = 50


def test_the_asset_is_small_and_complete():
    size = sum(f.stat().st_size for f in ASSET_DIR.iterdir())
    assert size < 2_000_000, f"assets/grokking/ is {size:,} bytes"
    run = load()
    assert run.config == SHIPPED  # the recipe in the code is the recipe of the shipped run
    steps = run.curves["step"]
    assert steps[0] == 1 and steps[-1] == SHIPPED.max_steps and (np.diff(steps) > 0).all()
    assert list(run.checkpoint_steps) == shipped_checkpoints(SHIPPED.max_steps)
    assert run.embeddings.shape == (len(run.checkpoint_steps), SHIPPED.p, SHIPPED.d_model)


def test_the_shipped_run_groks_and_its_spectrum_concentrates():
    run = load()
    memo, jump = jump_steps(run.curves["step"], run.curves["train_acc"], run.curves["test_acc"])
    assert memo is not None and memo < 1000  # memorised early ...
    assert jump is not None and jump > 5 * memo  # ... generalised much later
    assert run.curves["test_acc"][-1] > 0.99
    before, after = spectrum(run.embeddings[0]), spectrum(run.embeddings[-1])
    assert before.key == ()  # random embedding: a spread-out spectrum
    assert 1 <= len(after.key) <= 6 and after.key_share > 0.5  # a few key frequencies hold most of the power


@pytest.mark.slow
def test_the_script_regenerates_the_first_steps_exactly(tmp_path):
    """Run the script itself (a fresh process, its fixed thread count) for the first steps and compare."""
    out = tmp_path / "grok"
    subprocess.run([sys.executable, "scripts/train_grokking.py", "--steps", str(PREFIX), "--out", str(out)],
                   cwd=ROOT, check=True, capture_output=True, timeout=900)
    fresh, shipped = json.loads((out / "curves.json").read_text()), json.loads((ASSET_DIR / "curves.json").read_text())
    assert fresh["curves"]["step"] == shipped["curves"]["step"][:PREFIX] == list(range(1, PREFIX + 1))
    for key in CURVES:
        np.testing.assert_allclose(fresh["curves"][key], shipped["curves"][key][:PREFIX], rtol=1e-6, atol=1e-9)
    with np.load(out / "embeddings.npz") as a, np.load(ASSET_DIR / "embeddings.npz") as b:
        n = len(a["steps"])  # the checkpoints up to PREFIX
        np.testing.assert_array_equal(a["steps"], b["steps"][:n])
        np.testing.assert_allclose(a["embeddings"].astype(np.float32), b["embeddings"][:n].astype(np.float32), atol=2e-3)
