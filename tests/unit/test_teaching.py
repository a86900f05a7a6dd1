"""Issue 32: sentences follow from their numbers, each with a case where the numbers say the opposite."""
import dataclasses

import numpy as np
import pytest
import torch

from model_backend import SamplingParams, generate
from model_backend import heads as hb
from model_backend import nondeterminism as nd
from model_backend.pipeline import kv_bytes_per_position, kv_cache_bytes_at


@pytest.fixture
def pt():
    import streamlit as st

    before = st.session_state.get("lang")
    st.session_state["lang"] = "pt-BR"
    yield
    st.session_state["lang"] = before or "pt-BR"


def test_the_mlp_verdict_follows_the_count():
    from ui.pipeline_view import FEW_LIT, active_neurons, mlp_verdict

    sparse = np.zeros(100)
    sparse[:3] = [5.0, -4.0, 1.0]
    dense = np.linspace(1.0, 2.0, 100)
    assert active_neurons(sparse) == 3 and active_neurons(dense) == 100 and active_neurons(np.zeros(4)) == 0
    assert mlp_verdict(active_neurons(sparse), 100) == "pipeline.mlp.few"
    assert mlp_verdict(active_neurons(dense), 100) == "pipeline.mlp.many"  # the opposite case: not "few"
    assert mlp_verdict(int(FEW_LIT * 100), 100) == "pipeline.mlp.many"


def _habits(previous: float, bos: float) -> hb.HeadHabits:
    shape = (2, 4)
    return hb.HeadHabits(bos=np.full(shape, bos), previous=np.full(shape, previous), same=np.full(shape, np.nan),
                         n_same=0)


def test_the_heads_verdicts_follow_the_measurements(pt):
    from ui.heads_view import sentences, specialised

    few = _habits(previous=0.05, bos=0.9)
    few.previous[0, 0] = 0.9
    many = _habits(previous=0.9, bos=0.1)
    assert specialised(few) == 1 and specialised(many) == 8
    text_few, text_many = " ".join(sentences(few)), " ".join(sentences(many))
    assert "poucas se especializam" in text_few and "a maioria se especializa" not in text_few
    assert "a maioria se especializa" in text_many and "poucas se especializam" not in text_many
    assert "8 de 8 cabeças põem mais de 50%" in text_few  # the threshold, interpolated
    assert "Nenhuma das 8 cabeças põe mais de 50%" in text_many  # no sink: the sink sentence is not said


def test_each_comparison_names_its_own_cause():
    from ui.nondeterminism_view import cause_key, mantissa_bits

    def result(diff: float, at):
        return nd.TwoWays(a=None, b=None, max_abs_diff=diff, diverge_at=at)

    assert cause_key("dtype", result(0.0, None)) == "nondeterminism.cause.dtype"  # rounding, whatever the size
    assert cause_key("dtype", result(3.0, 2)) == "nondeterminism.cause.dtype"
    assert cause_key("batch", result(0.0, None)) == "nondeterminism.zero"
    assert cause_key("batch", result(1e-6, None)) == "nondeterminism.tiny"
    assert cause_key("batch", result(1e-6, 4)) == "nondeterminism.cause.order"
    assert mantissa_bits(torch.bfloat16) == 8 and mantissa_bits(torch.float32) == 24


def test_float_addition_commutes_and_does_not_associate():
    n, commute, grouped = nd.commutativity(2_000)
    assert commute == n  # IEEE 754: a + b == b + a, always (the seed says otherwise)
    assert grouped < n  # the property that fails is associativity


def test_the_residual_points_are_labelled_as_they_are(pt):
    from ui.pipeline_view import residual_points

    points = residual_points(19)  # Gemma 3 270M: the embedding, 17 layers, the 18th with the final norm
    assert points[0] == ("emb.", "embedding")
    assert points[1] == ("1", "stream") and points[17] == ("17", "stream")
    assert points[18] == ("18 + norma", "final") and len(points) == 19


def test_both_sides_of_the_compute_panel_count_the_same_tokens():
    from ui.compute_view import FRONTIER_PER_TOKEN, frontier_range, passed_tokens

    assert passed_tokens(7, 1) == 7 and passed_tokens(7, 20) == 26  # the last token is never fed back
    lo, hi = frontier_range(7, 20)
    assert lo == FRONTIER_PER_TOKEN[0] * 26 and hi == FRONTIER_PER_TOKEN[1] * 26


def test_the_kv_formula_bends_at_the_window_and_matches_the_cache(tiny_bundle):
    info = dataclasses.replace(tiny_bundle.info, eos_token_ids=())  # no early stop: run past the window
    bundle = dataclasses.replace(tiny_bundle, info=info)
    window = info.sliding_window
    assert window and "sliding_attention" in info.layer_types and "full_attention" in info.layer_types
    g = generate(bundle, "abc", SamplingParams(temperature=0, max_new_tokens=window + 10))
    n_prompt = len(g.prompt_tokens)
    tried = 0
    for step in g.steps:
        assert step.kv_cache_bytes == kv_cache_bytes_at(info, n_prompt + step.index), step.index
        tried += 1
    assert tried == window + 10 and n_prompt + g.steps[-1].index > window
    per = kv_bytes_per_position(info)
    assert kv_cache_bytes_at(info, 10) - kv_cache_bytes_at(info, 9) == per
    full = sum(1 for k in info.layer_types if k == "full_attention")
    after = kv_cache_bytes_at(info, window + 5) - kv_cache_bytes_at(info, window + 4)
    assert after == per * full // info.n_layers < per  # past the window only the full-attention layers grow
