"""The attention page's maths: masks, crops, averages, strongest heads, word search, 'banco' similarity."""
import numpy as np
import pytest

import model_backend as mb
from model_backend.lessons import attention as att
from model_backend.types import TokenInfo
from ui.attention.draw import AVG, axis_value, grid_to_view, picked

# ---------------------------------------------------------------- masks and the tiny model's tensor


def test_allowed_is_the_causal_triangle_and_the_sliding_band():
    assert att.allowed(3).tolist() == [[True, False, False], [True, True, False], [True, True, True]]
    band = att.allowed(4, sliding_window=2)
    assert band.tolist() == [[True, False, False, False], [True, True, False, False],
                             [False, True, True, False], [False, False, True, True]]


def test_masked_cells_are_exactly_zero_in_the_backends_tensor(tiny_bundle):
    # 100 characters > the tiny model's sliding window of 64: both kinds of mask are exercised
    tr = mb.trace(tiny_bundle, "o gato sentou no tapete " * 4 + "fim")
    n = len(tr.tokens)
    assert n > 64
    for layer in range(tr.info.n_layers):
        ok = att.layer_allowed(tr.info, layer, n)
        a = tr.attentions[layer]  # [H, T, T]
        assert np.all(a[:, ~ok] == 0.0), f"layer {layer} puts weight on a masked cell"
        assert np.all(a[:, ok] > 0.0)  # softmax never gives exactly 0 to a visible key
        np.testing.assert_allclose(a.sum(-1), 1.0, atol=1e-5)
    assert not att.layer_allowed(tr.info, 0, n)[n - 1, 0]  # layer 0 slides: the start is out of reach
    assert att.layer_allowed(tr.info, 1, n)[n - 1, 0]  # layer 1 is full attention


def test_average_patterns_still_sum_to_one_and_are_plain_means(tiny_bundle):
    tr = mb.trace(tiny_bundle, "banco da praça")
    a = tr.attentions
    np.testing.assert_allclose(att.pattern(a, 1, None), a[1].mean(0), rtol=1e-6)
    np.testing.assert_allclose(att.pattern(a, None, 2), a[:, 2].mean(0), rtol=1e-6)
    np.testing.assert_allclose(att.pattern(a, None, None), a.mean((0, 1)), rtol=1e-6)
    np.testing.assert_array_equal(att.pattern(a, 0, 3), a[0, 3])
    for layer in (0, 1, None):
        for head in (0, 3, None):
            np.testing.assert_allclose(att.pattern(a, layer, head).sum(-1), 1.0, atol=1e-5)


# ---------------------------------------------------------------- long inputs


def test_window_keeps_first_token_a_hidden_column_and_the_tail():
    assert att.window(5, 8).keys == (0, 1, 2, 3, 4) and not att.window(5, 8).capped
    w = att.window(20, 8)
    assert w.queries == (14, 15, 16, 17, 18, 19)
    assert w.keys == (0, att.HIDDEN, 14, 15, 16, 17, 18, 19)
    assert w.hidden == (1, 14) and w.n_hidden == 13
    with pytest.raises(ValueError, match="at least 3"):
        att.window(20, 2)


def test_crop_moves_the_hidden_weight_into_one_column_so_rows_still_sum_to_one(tiny_bundle):
    tr = mb.trace(tiny_bundle, "uma frase comprida o bastante para cortar")
    n = len(tr.tokens)
    for layer, head in [(0, 0), (1, 3), (None, None)]:
        pat = att.pattern(tr.attentions, layer, head)
        cut = att.crop(pat, att.layer_allowed(tr.info, layer, n), att.window(n, 12))
        assert cut.weights.shape == (10, 12)
        np.testing.assert_allclose(cut.weights.sum(1), 1.0, atol=1e-5)
        rows = np.asarray(cut.window.queries)
        np.testing.assert_allclose(cut.weights[:, 1], pat[rows, 1:rows[0]].sum(1), rtol=1e-6)
        assert np.all(cut.weights[~cut.allowed] == 0.0)  # what is drawn as masked is really zero


# ---------------------------------------------------------------- where one token looks


def _attn(rows):
    """[L=2, H=2, T=3, T=3] from per-head rows for the last query (others: all on position 0)."""
    a = np.zeros((2, 2, 3, 3), dtype=np.float32)
    a[:, :, :, 0] = 1.0
    for (layer, head), row in rows.items():
        a[layer, head, 2] = row
    return a


def test_strongest_heads_skip_bos_and_rank_by_focus():
    a = _attn({(0, 0): [0.1, 0.8, 0.1], (0, 1): [0.9, 0.05, 0.05], (1, 0): [0.2, 0.2, 0.6],
               (1, 1): [0.5, 0.3, 0.2]})
    picks = att.strongest_heads(a, query=2, n=3)
    assert [(p.layer, p.head, p.key) for p in picks] == [(0, 0, 1), (1, 0, 2), (1, 1, 1)]
    assert picks[0].weight == pytest.approx(0.8)
    with_bos = att.strongest_heads(a, query=2, n=1, skip=())
    assert (with_bos[0].layer, with_bos[0].head, with_bos[0].key) == (0, 1, 0)
    only_bos = att.strongest_heads(a, query=0, n=1)  # nothing but <bos> to look at: use it after all
    assert only_bos[0].key == 0 and only_bos[0].weight == pytest.approx(1.0)


def test_top_keys_keeps_the_strongest_in_position_order_and_sums_the_rest():
    row = np.array([0.5, 0.05, 0.2, 0.05, 0.2])
    assert att.top_keys(row, 10) == ((0, 1, 2, 3, 4), 0.0)
    keep, rest = att.top_keys(row, 3)
    assert keep == (0, 2, 4) and rest == pytest.approx(0.1)


# ---------------------------------------------------------------- tokens and words


def tok(i, text, special=False):
    return TokenInfo(id=i, text=text, piece=text, display=text.replace(" ", "·"), bytes=tuple(text.encode()),
                     special=special)


SENTENCE = (tok(2, "<bos>", True), tok(10, "Fui"), tok(11, " ao"), tok(12, " ban"), tok(13, "co"),
            tok(14, " sacar"), tok(15, " é"))


def test_find_word_covers_every_piece_and_compares_the_last():
    span = att.find_word(SENTENCE, "banco")
    assert (span.first, span.last, span.pieces) == (3, 4, ("·ban", "co"))
    assert att.find_word(SENTENCE, "  BANCO ").last == 4  # case and surrounding spaces do not matter
    assert att.find_word(SENTENCE, "é").first == 6  # non-ASCII: byte offsets map back to the token
    assert att.find_word(SENTENCE, "banc") is None  # whole words only
    assert att.find_word(SENTENCE, "praça") is None
    assert att.find_word(SENTENCE, "") is None


def test_first_generated_is_found_by_bytes():
    assert att.first_generated(SENTENCE, "Fui ao") == 3
    assert att.first_generated(SENTENCE, "Fui ao banco sacar é") == len(SENTENCE)
    assert att.byte_spans(SENTENCE)[:3] == [(0, 0), (0, 3), (3, 6)]


def test_word_similarity_at_layer_0_equals_the_embedding_similarity(tiny_bundle):
    a = mb.trace(tiny_bundle, "fui ao banco sacar dinheiro")
    b = mb.trace(tiny_bundle, "sentei no banco da praça")
    sa, sb = att.find_word(a.tokens, "banco"), att.find_word(b.tokens, "banco")
    assert sa.pieces == tuple("banco") and sb.last - sb.first == 4  # characters: five pieces
    sim = att.word_similarity(a, sa, b, sb)
    assert sim.same_token
    assert sim.raw[0] == pytest.approx(sim.embedding_raw, abs=1e-6) == pytest.approx(1.0, abs=1e-6)
    assert sim.centred[0] == pytest.approx(sim.embedding_centred, abs=1e-6) == pytest.approx(1.0, abs=1e-6)
    assert len(sim.raw) == a.hidden_states.shape[0]
    assert sim.centred[-1] < 0.999  # different contexts before the word: the vectors part


def test_word_similarity_of_different_tokens_matches_their_embeddings(tiny_bundle):
    a, b = mb.trace(tiny_bundle, "o banco"), mb.trace(tiny_bundle, "a praça")
    sa, sb = att.find_word(a.tokens, "banco"), att.find_word(b.tokens, "praça")
    sim = att.word_similarity(a, sa, b, sb)
    assert not sim.same_token
    assert sim.raw[0] == pytest.approx(att.cosine(a.embeddings[sa.last], b.embeddings[sb.last]), abs=1e-5)
    assert sim.centred[0] == pytest.approx(sim.embedding_centred, abs=1e-5)


def test_centred_similarity_is_undefined_when_the_word_is_the_whole_text(tiny_bundle):
    a = mb.trace(tiny_bundle, "b")  # one token each: the word's vector *is* the mean of the text
    sim = att.word_similarity(a, att.find_word(a.tokens, "b"), a, att.find_word(a.tokens, "b"))
    assert all(np.isnan(sim.centred)) and sim.raw[0] == pytest.approx(1.0)


def test_cosine_of_a_zero_vector_is_undefined():
    assert np.isnan(att.cosine(np.zeros(3), np.ones(3)))
    assert att.cosine(np.array([1.0, 0]), np.array([0, 2.0])) == 0.0


# ---------------------------------------------------------------- Q, K, V sizes


def test_mechanics_reads_gemmas_scale_and_grouped_heads(tiny_bundle):
    config = tiny_bundle.weights.config
    m = att.mechanics(tiny_bundle.info, config, tokens=7)
    assert m.scale_from == "query_pre_attn_scalar"
    assert m.scale == pytest.approx(config.query_pre_attn_scalar ** -0.5)
    assert m.scale == pytest.approx(tiny_bundle.weights.model.layers[0].self_attn.scaling)
    assert m.group == 4 and m.kv_values_per_token() == 2 * 1 * 8
    shapes = m.shapes()
    assert shapes["Q"] == (4, 7, 8) and shapes["K"] == (1, 7, 8) and shapes["QKᵀ"] == (4, 7, 7)
    layer = tiny_bundle.weights.model.layers[0].self_attn
    assert shapes["W_Q"] == tuple(layer.q_proj.weight.shape[::-1])  # torch keeps (out, in)
    assert shapes["W_K"] == tuple(layer.k_proj.weight.shape[::-1])
    assert shapes["W_O"] == tuple(layer.o_proj.weight.shape[::-1])


def test_mechanics_falls_back_to_head_dim_without_gemmas_scalar(tiny_bundle):
    class Plain:
        model_type = "gpt2"

    m = att.mechanics(tiny_bundle.info, Plain(), tokens=3)
    assert (m.scale_from, m.scale_basis, m.qk_norm) == ("head_dim", 8, False)


# ---------------------------------------------------------------- chart selections -> state


def test_picked_reads_streamlits_selection_event():
    event = {"selection": {"grid_pick": [{"layer": 4, "head": 2}]}}
    assert picked(event, "grid_pick", ("layer", "head")) == (4, 2)
    assert picked({"selection": {"grid_pick": []}}, "grid_pick", ("layer",)) is None
    assert picked(None, "grid_pick", ("layer",)) is None
    assert picked({"selection": {}}, "grid_pick", ("layer",)) is None
    assert picked({"selection": {"row_pick": [{"q": 3.0}]}}, "row_pick", ("q",)) == (3,)
    assert picked({"selection": {"row_pick": [{"other": 1}]}}, "row_pick", ("q",)) is None


def test_grid_click_maps_to_layer_and_head_with_averages():
    def event(layer, head):
        return {"selection": {"grid_pick": [{"layer": layer, "head": head}]}}

    assert grid_to_view(event(17, 3), 18, 4) == (17, 3)
    assert grid_to_view(event(AVG, 1), 18, 4) == (AVG, 1)
    assert grid_to_view(event(5, AVG), 18, 4) == (5, AVG)
    assert grid_to_view(event(18, 0), 18, 4) is None  # off the grid
    assert grid_to_view(event(0, 4), 18, 4) is None
    assert grid_to_view({"selection": {"grid_pick": []}}, 18, 4) is None
    assert axis_value(AVG) is None and axis_value(0) == 0
