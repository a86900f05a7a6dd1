"""The attention page's claims, checked on the real Gemma 3 270M (float32)."""
import numpy as np
import pytest

import model_backend as mb
from model_backend.lessons import attention as att

LONG = "O gato sentou no tapete. " * 12 + "Depois ele dormiu."


@pytest.fixture(scope="module")
def cat(real_bundle):
    return mb.trace(real_bundle, "O gato sentou no tapete")


def test_masked_cells_are_exactly_zero_and_rows_sum_to_one(cat):
    n = len(cat.tokens)
    for layer in range(cat.info.n_layers):
        ok = att.layer_allowed(cat.info, layer, n)
        assert np.all(cat.attentions[layer][:, ~ok] == 0.0)
    np.testing.assert_allclose(cat.attentions.sum(-1), 1.0, atol=1e-5)


@pytest.mark.parametrize("limit", [32, 12])
def test_every_drawn_pattern_sums_to_one(real_bundle, limit):
    tr = mb.trace(real_bundle, LONG)
    n = len(tr.tokens)
    assert n > limit  # the crop with its hidden column is exercised
    win = att.window(n, limit)
    for layer in [*range(tr.info.n_layers), None]:
        ok = att.layer_allowed(tr.info, layer, n)
        for head in [*range(tr.info.n_heads), None]:
            cut = att.crop(att.pattern(tr.attentions, layer, head), ok, win)
            np.testing.assert_allclose(cut.weights.sum(1), 1.0, atol=1e-5, err_msg=f"layer {layer} head {head}")
            assert np.all(cut.weights[~cut.allowed] == 0.0)


def test_model_facts_on_the_page_are_the_real_ones(real_bundle):
    info = real_bundle.info
    assert (info.n_heads, info.n_kv_heads, info.head_dim, info.sliding_window) == (4, 1, 256, 512)
    assert [i for i, k in enumerate(info.layer_types) if k == "full_attention"] == [5, 11, 17]
    m = att.mechanics(info, real_bundle.weights.config, tokens=6)
    assert m.scale == pytest.approx(1 / 16) and m.scale_from == "query_pre_attn_scalar"
    attn = real_bundle.weights.model.layers[0].self_attn
    assert attn.scaling == pytest.approx(m.scale)  # what transformers really multiplies by
    assert m.shapes()["W_Q"] == tuple(attn.q_proj.weight.shape[::-1]) == (640, 1024)
    assert m.shapes()["W_K"] == tuple(attn.k_proj.weight.shape[::-1]) == (640, 256)
    assert m.kv_values_per_token() == 512


def test_banco_is_one_token_equal_at_the_embedding_and_parts_with_context(real_bundle):
    a = mb.trace(real_bundle, "Fui ao banco sacar dinheiro")
    b = mb.trace(real_bundle, "Sentei no banco da praça")
    sa, sb = att.find_word(a.tokens, "banco"), att.find_word(b.tokens, "banco")
    assert sa.pieces == sb.pieces == ("·banco",)
    sim = att.word_similarity(a, sa, b, sb)
    assert sim.same_token
    assert sim.raw[0] == pytest.approx(sim.embedding_raw, abs=1e-6) == pytest.approx(1.0, abs=1e-6)
    assert sim.centred[0] == pytest.approx(sim.embedding_centred, abs=1e-6) == pytest.approx(1.0, abs=1e-6)
    assert min(sim.centred[1:]) < 0.5  # context makes the two vectors part
    assert max(sim.baseline) < 0.5 < min(sim.raw)  # different tokens are far apart once centred


def test_a_word_split_in_pieces_and_a_missing_word(real_bundle):
    tr = mb.trace(real_bundle, "Sentei no banco da praça")
    span = att.find_word(tr.tokens, "praça")
    assert span.pieces == ("·pra", "ça") and span.last == span.first + 1
    assert att.find_word(tr.tokens, "dinheiro") is None


def test_one_pass_over_prompt_and_completion_gives_the_rows_generation_saw(real_bundle):
    prompt = "A capital da França é"
    gen = mb.generate(real_bundle, prompt, mb.SamplingParams(temperature=0, max_new_tokens=4),
                      record_attentions=True)
    tr = mb.trace(real_bundle, prompt + gen.completion)
    first = att.first_generated(tr.tokens, prompt)
    assert first == len(gen.prompt_tokens)
    assert [t.id for t in tr.tokens[first:]] == [s.token.id for s in gen.steps]
    # step i (i >= 1) fed generated token i-1: its query row is position first + i - 1 of the trace
    for i, step in enumerate(gen.steps[1:], start=1):
        q = first + i - 1
        np.testing.assert_allclose(step.attentions, tr.attentions[:, :, q, : q + 1], atol=1e-4)
