"""What different heads do: the three habits measured on hand-made patterns and on the tiny model."""
import numpy as np
import pytest
import torch

from model_backend.lessons import attention as heads


def hand_made():
    ids = [2, 7, 8, 7, 9]  # <bos>, a, b, a, c: position 3 repeats position 1
    t = len(ids)
    pats = np.zeros((1, 3, t, t))
    pats[0, 0, :, 0] = 1.0  # head 0: all on <bos>
    for q in range(t):
        pats[0, 1, q, max(q - 1, 0)] = 1.0  # head 1: the previous token
    pats[0, 2, :, 0] = 1.0
    pats[0, 2, 3] = 0.0
    pats[0, 2, 3, 1] = 1.0  # head 2: at the repeat, the earlier copy
    return pats, ids


def test_habits_on_hand_made_patterns():
    pats, ids = hand_made()
    h = heads.habits(pats, ids)
    assert h.bos[0].tolist() == [1.0, 0.25, 0.75]  # head 1 rests on <bos> only at query 1 (of 4)
    assert h.previous[0].tolist() == [0.0, 1.0, 0.0]
    assert h.same[0].tolist() == [0.0, 0.0, 1.0] and h.n_same == 1


def test_top_ranks_best_first_and_median():
    pats, ids = hand_made()
    h = heads.habits(pats, ids)
    assert h.top("bos", 2) == [(0, 0, 1.0), (0, 2, 0.75)]
    assert h.top("previous", 1) == [(0, 1, 1.0)]
    assert h.median("bos") == 0.75
    with pytest.raises(ValueError, match="has to be one of"):
        h.of("nope")


def test_no_repeat_leaves_same_undefined_and_unranked():
    pats, _ = hand_made()
    h = heads.habits(pats, [2, 7, 8, 9, 10])
    assert h.n_same == 0 and np.isnan(h.same).all()
    assert h.top("same") == [] and np.isnan(h.median("same"))


def test_same_token_mask_looks_back_only_and_skips_bos():
    mask = heads.same_token_mask([2, 5, 5, 2, 5])
    assert np.argwhere(mask).tolist() == [[2, 1], [4, 1], [4, 2]]  # <bos> (id 2 again at 3) is left out


def test_habits_on_the_tiny_model_match_a_plain_loop(tiny_bundle):
    """The tiny model's own attention weights (transformers' output_attentions), measured two ways: the
    vectorised habits and a loop written straight from the definitions. Float64 sums of the same float32
    weights in a different order: equal to 1e-12."""
    ids = tiny_bundle.tokenizer("abcab").input_ids  # [<bos>, a, b, c, a, b]
    with torch.inference_mode():
        out = tiny_bundle.engine.forward(input_ids=torch.tensor([ids]), output_attentions=True)
    pats = torch.stack([a[0] for a in out.attentions]).double().numpy()  # [L, H, T, T]
    h = heads.habits(pats, ids)
    n_layers, n_heads, t, _ = pats.shape
    assert h.bos.shape == (n_layers, n_heads) == (2, 4)
    for layer in range(n_layers):
        for head in range(n_heads):
            p = pats[layer, head]
            assert h.bos[layer, head] == pytest.approx(sum(p[q, 0] for q in range(1, t)) / (t - 1), abs=1e-12)
            assert h.previous[layer, head] == pytest.approx(sum(p[q, q - 1] for q in range(2, t)) / (t - 2), abs=1e-12)
            # queries 4 ("a") and 5 ("b") have one earlier copy each, at 1 and 2
            assert h.same[layer, head] == pytest.approx((p[4, 1] + p[5, 2]) / 2, abs=1e-12)
    assert h.n_same == 2
    # query 1 sees only <bos> and itself, so every head's <bos> share there plus its self share is 1
    assert np.allclose(pats[:, :, 1, 0] + pats[:, :, 1, 1], 1.0, atol=1e-6)
    assert ((h.bos >= 0) & (h.bos <= 1)).all() and ((h.previous >= 0) & (h.previous <= 1)).all()
