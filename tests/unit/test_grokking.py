"""Grokking backend: the split, the models, the training loop's determinism, the Fourier view (exact values)."""
import math

import numpy as np
import pytest
import torch

from model_backend.lessons.grokking import (
    GrokConfig,
    OneLayerTransformer,
    all_pairs,
    build_model,
    checkpoint_schedule,
    embedding_matrix,
    jump_steps,
    log_schedule,
    spectrum,
    split_pairs,
    train,
    wave_basis,
    wave_projection,
)
from model_backend.lessons.grokking.shipped import shipped_checkpoints
from ui.grokking.draw import step_from_selection


def test_all_pairs_are_the_addition_table_mod_p():
    a, b, y = all_pairs(7)
    assert len(a) == 49
    assert (a[10].item(), b[10].item(), y[10].item()) == (1, 3, 4)
    assert (a[48].item(), b[48].item(), y[48].item()) == (6, 6, 5)  # 12 mod 7
    assert torch.equal(y, (a + b) % 7)


@pytest.mark.parametrize("p, frac", [(97, 0.3), (23, 0.5), (5, 0.01), (5, 0.99)])
def test_split_has_no_overlap_and_covers_every_pair(p, frac):
    s = split_pairs(p, frac, seed=3)
    train_set, test_set = set(s.train_idx.tolist()), set(s.test_idx.tolist())
    assert not train_set & test_set
    assert train_set | test_set == set(range(p * p))
    assert len(train_set) == min(max(round(frac * p * p), 1), p * p - 1)  # both sides keep at least one pair


def test_split_depends_only_on_the_seed():
    assert torch.equal(split_pairs(97, 0.3, 0).train_idx, split_pairs(97, 0.3, 0).train_idx)
    assert not torch.equal(split_pairs(97, 0.3, 0).train_idx, split_pairs(97, 0.3, 1).train_idx)


@pytest.mark.parametrize("p, frac", [(1, 0.3), (97, 0.0), (97, 1.0)])
def test_split_rejects_bad_arguments(p, frac):
    with pytest.raises(ValueError):
        split_pairs(p, frac, 0)


@pytest.mark.parametrize("bad", [{"model": "rnn"}, {"train_frac": 30}, {"lr": 0}, {"weight_decay": -1},
                                 {"max_steps": 0}, {"p": 1}])
def test_config_rejects_bad_settings(bad):
    with pytest.raises(ValueError):
        GrokConfig(**bad)


def test_models_give_logits_over_the_p_answers_and_the_embedding_of_the_p_numbers():
    a, b, _ = all_pairs(11)
    for kind, rows in (("mlp", 11), ("transformer", 11)):
        model = build_model(kind, 11, seed=0)
        assert model(a, b).shape == (121, 11)
        assert embedding_matrix(model).shape == (rows, 128)  # the "=" token of the transformer is left out


def test_transformer_read_at_equals_matches_a_full_causal_pass():
    """Computing only the "=" position (as the model does) equals running every position with a causal mask."""
    torch.manual_seed(0)
    m: OneLayerTransformer = build_model("transformer", 13, seed=5)
    with torch.no_grad():  # train-like weights, not only the init
        for p in m.parameters():
            p.add_(0.05 * torch.randn_like(p))
    a, b, _ = all_pairs(13)
    n, h, dh = len(a), m.n_heads, m.d_head
    x = m.embed[torch.stack([a, b, torch.full_like(a, 13)], 1)] + m.pos  # [N, 3, d]
    q, k, v = ((x @ w).view(n, 3, h, dh).transpose(1, 2) for w in (m.w_q, m.w_k, m.w_v))  # [N, H, 3, dh]
    scores = (q @ k.transpose(-1, -2)) / math.sqrt(dh)
    scores = scores.masked_fill(~torch.ones(3, 3, dtype=torch.bool).tril(), float("-inf"))
    z = (scores.softmax(-1) @ v).transpose(1, 2).reshape(n, 3, h * dh)
    x = x + z @ m.w_o
    x = x + torch.relu(x @ m.w_in + m.b_in) @ m.w_out + m.b_out
    torch.testing.assert_close(m(a, b), x[:, -1] @ m.unembed, rtol=1e-5, atol=1e-5)


def test_schedules():
    steps = log_schedule(3000)
    assert steps[:3] == [1, 2, 3] and steps[-1] == 3000 and steps == sorted(set(steps))
    assert 55 in steps and 56 not in steps  # every 5 between 50 and 200
    assert log_schedule(7) == [1, 2, 3, 4, 5, 6, 7]
    ckpts = checkpoint_schedule(3000, n=24)
    assert ckpts[0] == 1 and ckpts[-1] == 3000 and len(ckpts) <= 24
    ship = shipped_checkpoints(20000)
    assert ship[0] == 1 and ship[-1] == 20000 and {100, 1000, 5000, 12000} <= set(ship)
    assert set(ship) <= set(log_schedule(20000))  # every checkpoint is also a logged step


def test_jump_steps_are_the_first_crossings():
    steps, train_acc, test_acc = [1, 10, 100, 1000], [0.1, 0.995, 1.0, 1.0], [0.0, 0.01, 0.5, 0.96]
    assert jump_steps(steps, train_acc, test_acc) == (10, 1000)
    assert jump_steps(steps, train_acc, [0.0] * 4) == (10, None)


def _short_run(seed: int, model: str = "mlp"):
    cfg = GrokConfig(p=23, model=model, seed=seed, max_steps=12)
    return list(train(cfg, log_at=range(1, 13), checkpoint_at=[1, 12]))


@pytest.mark.parametrize("model", ["mlp", "transformer"])
def test_a_short_training_run_is_deterministic_for_a_seed(model):
    first, again, other = _short_run(0, model), _short_run(0, model), _short_run(1, model)
    assert [s.step for s in first] == list(range(1, 13))
    for x, y in zip(first, again):
        assert (x.train_loss, x.train_acc, x.test_loss, x.test_acc) == (y.train_loss, y.train_acc, y.test_loss, y.test_acc)
    np.testing.assert_array_equal(first[-1].embedding, again[-1].embedding)
    assert first[-1].train_loss != other[-1].train_loss
    assert first[0].embedding is not None and first[5].embedding is None  # embeddings only at checkpoints
    assert first[-1].train_loss < first[0].train_loss  # it learns


def test_training_stops_on_request_with_a_last_checkpoint():
    calls = []
    snaps = list(train(GrokConfig(p=23, max_steps=500), should_stop=lambda: len(calls) > 6 or calls.append(1)))
    assert snaps[-1].step == 8 and snaps[-1].embedding is not None


@pytest.mark.parametrize("k", [1, 5, 17, 48])
def test_fourier_power_of_a_pure_cosine_peaks_at_its_frequency(k):
    p, d = 97, 128
    rng = np.random.default_rng(k)
    wave = np.cos(2 * np.pi * k * np.arange(p) / p + 0.7)  # any phase
    emb = np.outer(wave, rng.normal(size=d)) + 3.0  # [p, d]: one wave spread over the dimensions, plus a constant
    spec = spectrum(emb)
    assert spec.freqs[0] == 1 and spec.freqs[-1] == p // 2
    assert int(spec.freqs[np.argmax(spec.power)]) == k
    assert spec.key == (k,)
    assert spec.power[k - 1] == pytest.approx(1.0, abs=1e-9) and spec.key_share == pytest.approx(1.0)
    assert spec.power.sum() == pytest.approx(1.0)


def test_fourier_power_of_a_random_embedding_is_spread_out():
    spec = spectrum(np.random.default_rng(0).normal(size=(113, 128)))
    assert spec.key == () and spec.power.max() < 3 / len(spec.power)


def test_two_waves_give_two_key_frequencies_strongest_first():
    p = 113
    a = np.arange(p)
    emb = np.stack([2 * np.cos(2 * np.pi * 14 * a / p), np.sin(2 * np.pi * 35 * a / p)], axis=1)
    spec = spectrum(emb)
    assert spec.key == (14, 35)
    assert spec.power[13] == pytest.approx(0.8) and spec.power[34] == pytest.approx(0.2)


def test_wave_projection_recovers_cos_and_sin():
    p, k = 59, 7
    rng = np.random.default_rng(1)
    angle = 2 * np.pi * k * np.arange(p) / p
    u, v = np.linalg.qr(rng.normal(size=(64, 2)))[0].T  # two orthonormal directions in a 64-d space
    emb = 0.3 * np.outer(np.cos(angle), u) + 0.3 * np.outer(np.sin(angle), v) + rng.normal(size=64)  # [p, 64]
    basis = wave_basis(emb, k)
    np.testing.assert_allclose(basis.cos_dir, u, atol=1e-9)
    np.testing.assert_allclose(basis.sin_dir, v, atol=1e-9)
    assert basis.cos_scale == pytest.approx(0.3) and basis.sin_scale == pytest.approx(0.3)
    wave = wave_projection(emb, basis)
    assert wave.fit == pytest.approx(1.0, abs=1e-9)
    np.testing.assert_allclose(wave.cos_curve, np.cos(angle), atol=1e-9)  # amplitude 1 in the basis's units
    np.testing.assert_allclose(wave.sin_curve, np.sin(angle), atol=1e-9)
    half = wave_projection(0.5 * emb, basis)  # an earlier, weaker wave reads as amplitude 0.5
    np.testing.assert_allclose(half.cos_curve, 0.5 * np.cos(angle), atol=1e-9)
    noise = rng.normal(size=(p, 64))
    assert wave_projection(noise, basis).fit < 0.2  # the same directions in a random matrix: no wave


def test_a_random_embedding_has_no_wave_among_its_strong_directions():
    """With d >= p, some direction of any matrix matches any wave; among the strongest few, none does."""
    rng = np.random.default_rng(2)
    noise = rng.normal(size=(97, 128))  # [p, d] with d > p, like an untrained embedding
    fits = [wave_projection(noise, wave_basis(noise, k)).fit for k in (1, 7, 30)]
    assert max(fits) < 0.3, fits
    everywhere = [wave_projection(noise, wave_basis(noise, k, rank=128)).fit for k in (1, 7, 30)]
    assert min(everywhere) > 0.5, everywhere  # what the search would "find" without the restriction


@pytest.mark.parametrize("selection, expected", [
    ({"selection": {"pick": [{"step": 900}]}}, 1000),
    ({"selection": {"pick": [{"step": 3}]}}, 2),  # nearest on a log scale: 3 is closer to 2 than to 10 / 1
    ({"selection": {"pick": [{"step": 10 ** 6}]}}, 3000),
    ({"selection": {"pick": []}}, None),
    ({"selection": {}}, None),
    (None, None),
])
def test_a_click_on_the_curve_picks_the_nearest_checkpoint(selection, expected):
    assert step_from_selection(selection, [1, 2, 10, 100, 1000, 3000]) == expected


def test_the_shipped_runs_fourier_view_is_computed_once_per_checkpoint():
    """compute.shipped_fourier(step) is fourier() of the shipped run at that checkpoint, kept for every visitor."""
    from ui.grokking import compute

    run = compute.shipped()
    if run is None:
        pytest.skip("no shipped run in assets/")
    steps = [int(s) for s in run.checkpoint_steps]
    for step in (steps[0], steps[len(steps) // 2], steps[-1]):
        got = compute.shipped_fourier(step)
        want = compute.fourier(steps, run.embeddings, step)
        assert got.step == want.step == step and got.top == want.top and got.fit == want.fit
        np.testing.assert_array_equal(got.spectrum.power, want.spectrum.power)
        assert [w.k for w in got.waves] == [w.k for w in want.waves]
        assert compute.shipped_fourier(step) is got
