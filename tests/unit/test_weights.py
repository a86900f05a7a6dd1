"""The pages say what the weights are: the catalogue's record of the GGUF's mix of types, and its arithmetic."""
import json
from pathlib import Path

import gguf
import pytest

from model_backend.runtime.quantization import K_BLOCK, QuantMix, from_json
from ui.published import LLAMACPP_Q4_K_M

CATALOGUE = Path(__file__).resolve().parents[2] / "assets" / "models.json"


def _mix() -> QuantMix:
    entry = next(m for m in json.loads(CATALOGUE.read_text())["models"] if m["key"] == "gemma3-270m")
    return from_json(entry["quantization"])


def test_the_catalogue_records_the_recipe_and_the_real_mix():
    m = _mix()
    assert m.file_type == "Q4_K_M"
    assert m.embedding == "Q8_0"
    assert 2.6e8 < m.total < 2.8e8  # Gemma 3 270M's weights (the tied embedding counted once)
    assert m.share("Q4_K") < 0.15  # only a few weights are really at 4 bits
    assert 7.0 < m.bits_per_weight < 7.7  # not the 4.5 of Q4_K alone


def test_bits_per_type_are_gguf_s_own_block_sizes():
    m = _mix()
    for kind, bits in m.bits:
        block, size = gguf.GGML_QUANT_SIZES[gguf.GGMLQuantizationType[kind]]
        assert bits == pytest.approx(8 * size / block), kind
    assert K_BLOCK == gguf.GGML_QUANT_SIZES[gguf.GGMLQuantizationType.Q4_K][0]


def test_mean_bits_weigh_each_type_by_its_count():
    m = QuantMix(file_type="X", weights=(("Q8_0", 3), ("Q4_K", 1)), bits=(("Q4_K", 4.5), ("Q8_0", 8.5)),
                 embedding="Q8_0")
    assert m.bits_per_weight == pytest.approx((3 * 8.5 + 4.5) / 4)
    assert m.share("Q4_K") == 0.25 and m.share("F16") == 0
    assert from_json(m.as_json()) == m


def test_the_published_cost_is_the_cited_table_s():
    # llama.cpp tools/perplexity/README.md, rev. f364eb6f: L3 8b q4_K_M and L2 7b q4_K_M columns
    assert LLAMACPP_Q4_K_M["kld"] == 0.031273 and LLAMACPP_Q4_K_M["same_top"] == 0.91901
    assert LLAMACPP_Q4_K_M["kld2"] == 0.012686 and LLAMACPP_Q4_K_M["same_top2"] == 0.94665
