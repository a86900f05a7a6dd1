"""Attribution maths with known values: a linear toy model (exact), the tiny Gemma (completeness, DLA = logit,
agreement with the logit lens), and the head measures on hand-made patterns."""
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from model_backend import trace
from model_backend.core.tracing import encode
from model_backend.lessons import why as at
from model_backend.runtime.loading import ModelBundle
from tests.tiny import make_tokenizer

PROMPT = "O gato sentou"


class _Body(torch.nn.Module):
    """last_hidden_state = the mean of the embeddings over positions: linear in every embedding."""

    def __init__(self, emb):
        super().__init__()
        self.embed_tokens = emb

    def forward(self, input_ids=None, inputs_embeds=None, use_cache=False):
        x = self.embed_tokens(input_ids) if inputs_embeds is None else inputs_embeds  # [B, T, D]
        return SimpleNamespace(last_hidden_state=x.mean(dim=1, keepdim=True).expand_as(x))


class LinearToy(torch.nn.Module):
    def __init__(self, vocab=12, d=5):
        super().__init__()
        gen = torch.Generator().manual_seed(3)
        self.model = _Body(torch.nn.Embedding(vocab, d))
        self.model.embed_tokens.weight.data = torch.randn(vocab, d, generator=gen)
        self.head = torch.nn.Linear(d, vocab, bias=False)
        self.head.weight.data = torch.randn(vocab, d, generator=gen)
        self.config = SimpleNamespace(final_logit_softcapping=None)

    def get_input_embeddings(self):
        return self.model.embed_tokens

    def get_output_embeddings(self):
        return self.head


@pytest.fixture(scope="module")
def toy():
    tok = make_tokenizer()  # only its pad id (0) is used: the baseline is <bos> then <pad>
    return ModelBundle(model=LinearToy(), tokenizer=tok, info=None, device=torch.device("cpu"))


def _exact_linear(toy, ids, target):
    """By hand: F = u . mean_t(e_t), so token t's share of F(x) - F(x') is u . (e_t - e'_t) / T."""
    e = toy.weights.get_input_embeddings().weight.detach().double()
    u = toy.weights.head.weight.detach().double()[target.token]
    if target.contrast is not None:
        u = u - toy.weights.head.weight.detach().double()[target.contrast]
    base = at.baseline_ids(toy, ids)
    return np.array([float(u @ (e[a] - e[b])) / len(ids) for a, b in zip(ids, base)])


@pytest.mark.parametrize("contrast", [None, 7])
def test_on_a_linear_model_both_methods_give_the_exact_shares(toy, contrast):
    ids = [2, 5, 9, 3, 3]
    target = at.Target(4, contrast)
    want = _exact_linear(toy, ids, target)
    for method in at.METHODS:
        got = at.attribute(toy, ids, target, method, schedule=(4,))
        np.testing.assert_allclose(got.scores, want, rtol=1e-5, atol=1e-6)  # float32 model, float64 sums
        assert abs(got.residual) < 1e-5  # linear: completeness is exact for both
        assert got.scores[0] == 0.0  # <bos> is the same in input and baseline


def test_gradient_x_input_matches_captums_layer_gradient(tiny_bundle):
    """Our gradient (inputs_embeds, fast path on) against Captum's, taken by a hook on the embedding layer."""
    from captum.attr import LayerGradientXActivation

    ids = encode(tiny_bundle, PROMPT, 64)[0]
    target = at.Target(ids[-1])
    gxi = at.gradient_x_input(tiny_bundle, ids, target)
    model, emb = tiny_bundle.weights, tiny_bundle.weights.get_input_embeddings()

    def forward(input_ids):
        return at._explained(model, target, model.model(input_ids=input_ids).last_hidden_state[:, -1])

    inputs = torch.tensor([ids])
    with tiny_bundle.engine.exclusive(grad=True):
        grad = LayerGradientXActivation(forward, emb, multiply_by_inputs=False).attribute(inputs)[0]
        with torch.no_grad():
            delta = emb(inputs)[0] - emb(torch.tensor([at.baseline_ids(tiny_bundle, ids)]))[0]
    np.testing.assert_allclose(gxi.scores, (grad * delta).double().sum(-1).numpy(), rtol=1e-5, atol=1e-6)


def test_integrated_gradients_are_complete_and_depend_on_the_baseline(tiny_bundle):
    """Sum of attributions = F(x) - F(baseline) up to the integration error: below 1% with 32 steps. The tiny
    model's <pad> row is zero (padding_idx), where RMSNorm's slope is 1/sqrt(eps): no smooth path starts there,
    so the baselines here are two ordinary characters. They give different attributions, each complete."""
    ids = encode(tiny_bundle, PROMPT, 64)[0]
    space, dot = tiny_bundle.tokenizer.convert_tokens_to_ids([" ", "."])
    found = []
    for baseline in (space, dot):
        for target in (at.Target(ids[-1]), at.Target(ids[-1], ids[1])):
            ig = at.integrated_gradients(tiny_bundle, ids, target, steps=32, baseline=baseline)
            diff = ig.value - ig.baseline_value
            assert abs(diff) > 1e-3
            assert abs(ig.residual) < 0.01 * abs(diff)
            assert ig.scores[0] == 0.0
        found.append(ig.scores)
    assert np.abs(found[0] - found[1]).max() > 1e-3


def test_integrated_gradients_double_the_points_until_complete(tiny_bundle):
    """One Gauss-Legendre point misses the sum on the tiny model; the rounds go on until a round is complete
    (5% of the difference, or 0.01 logit), and the result is exactly that round's integrated gradients."""
    ids = encode(tiny_bundle, PROMPT, 64)[0]
    space = tiny_bundle.tokenizer.convert_tokens_to_ids(".")  # measured: residual 0.23, 0.06, 0.013, 0.0 at 1, 2, 4, 16
    target = at.Target(ids[-1], ids[1])
    one = at.integrated_gradients(tiny_bundle, ids, target, steps=1, baseline=space)
    assert not one.complete  # so at least a second round runs
    seen = []
    got = at.integrated_gradients_until_complete(tiny_bundle, ids, target, schedule=(1, 2, 4, 16), baseline=space,
                                                 progress=seen.append)
    assert got.complete and got.steps > 1 and got.tried == (1, 2, 4, 16)[: got.tried.index(got.steps) + 1]
    assert abs(got.residual) <= max(at.IG_BOUND * abs(got.value - got.baseline_value), at.IG_FLOOR)
    again = at.integrated_gradients(tiny_bundle, ids, target, steps=got.steps, baseline=space)
    np.testing.assert_array_equal(got.scores, again.scores)  # same machine, same batch: bit for bit
    assert seen == sorted(seen) and 0 < seen[-1] <= 1.0  # progress only moves forward
    capped = at.integrated_gradients_until_complete(tiny_bundle, ids, target, schedule=(1,), baseline=space)
    assert capped.tried == (1,) and not capped.complete  # the cap: reported as it is, not hidden


def test_contrastive_attribution_is_the_difference_of_the_two(tiny_bundle):
    ids = encode(tiny_bundle, PROMPT, 64)[0]
    a, b = ids[-1], ids[2]
    both, one, two = (at.integrated_gradients(tiny_bundle, ids, target, steps=8, baseline=5)
                      for target in (at.Target(a, b), at.Target(a), at.Target(b)))
    np.testing.assert_allclose(both.scores, one.scores - two.scores, rtol=1e-4, atol=1e-5)


def test_attribution_leaves_the_shared_model_as_it_was(tiny_bundle):
    ids = encode(tiny_bundle, PROMPT, 64)[0]
    emb = tiny_bundle.weights.get_input_embeddings()
    before = (dict(emb._forward_hooks), tiny_bundle.forward_passes)
    at.integrated_gradients(tiny_bundle, ids, at.Target(ids[-1]), steps=4)
    assert dict(emb._forward_hooks) == before[0] and not tiny_bundle.engine.lock.locked()
    assert tiny_bundle.forward_passes > before[1]
    assert all(p.grad is None for p in tiny_bundle.weights.parameters())


def test_direct_logit_attribution_sums_to_the_logit_and_agrees_with_the_lens(tiny_bundle):
    """The parts add to the model's own logit (the final norm's real scale, frozen: 1e-4 for float32 sums);
    re-normed after each layer they are the pipeline page's logit lens for that layer's top token."""
    tr = trace(tiny_bundle, PROMPT)
    ids = [tok.id for tok in tr.tokens]
    for lens_layer in tr.lens:
        top = lens_layer.top[0]
        dla = at.direct_logit_attribution(tiny_bundle, ids, at.Target(top.id))
        assert dla.total == pytest.approx(dla.logit, abs=1e-4)
        assert dla.logit == pytest.approx(float(tr.last_logits[top.id]), abs=1e-4)
        assert dla.lens[lens_layer.layer] == pytest.approx(top.logit, abs=1e-4)
        np.testing.assert_allclose(dla.heads.sum(axis=1), dla.attn, rtol=1e-5, atol=1e-5)
        assert dla.cumulative[-1] == pytest.approx(dla.lens[-1], abs=1e-4)  # they meet at the last layer


def test_contrastive_dla_is_the_difference(tiny_bundle):
    ids = encode(tiny_bundle, PROMPT, 64)[0]
    a, b = 10, 20
    pair = at.direct_logit_attribution(tiny_bundle, ids, at.Target(a, b))
    one = at.direct_logit_attribution(tiny_bundle, ids, at.Target(a))
    two = at.direct_logit_attribution(tiny_bundle, ids, at.Target(b))
    np.testing.assert_allclose(pair.heads, one.heads - two.heads, atol=1e-6)
    assert pair.logit == pytest.approx(one.logit - two.logit, abs=1e-5)


def test_induction_score_reads_the_shifted_diagonal():
    n = 3
    t = 2 * n + 1
    pats = np.zeros((2, 2, t, t))
    pats[:, :, :, 0] = 1.0  # everyone rests on <bos> ...
    for q in range(1 + n, t):  # ... except head (1, 0), which looks at what followed the earlier copy
        pats[1, 0, q] = 0.0
        pats[1, 0, q, q - n + 1] = 1.0
    scores = at.induction_scores(pats, n)
    assert scores.tolist() == [[0.0, 0.0], [1.0, 0.0]]


def test_disagreements_skip_bos_and_rank_by_the_gap():
    attention = np.array([0.7, 0.1, 0.1, 0.1])
    scores = np.array([0.0, 3.0, -1.0, 0.0])
    found = at.disagreements(attention, scores, n=2)
    assert [d.position for d in found] == [1, 2]  # gaps 0.65 and 0.15 (<bos>: 0.7, skipped)
    assert found[0].attribution == pytest.approx(0.75) and found[0].signed == pytest.approx(0.75)
    assert at.disagreements(attention, scores, n=4, skip_first=False)[0].position == 0


def test_integrated_gradients_stop_at_the_next_chunk_once_the_visitor_moved_on(tiny_bundle):
    """A visitor who leaves or reruns the page meanwhile: the attribution raises the visitor's error at its next
    chunk of points (not after all of them), and the model is free again for the next visitor."""
    import threading

    from model_backend.runtime import queueing

    class Gone(Exception):
        pass

    ids = encode(tiny_bundle, PROMPT, 64)[0]
    target = at.Target(ids[-1])
    calls: list[int] = []
    out: dict = {}

    def work() -> None:
        queueing.serve(queueing.Visitor(owner="leaving", cancelled=lambda: len(calls) >= 2, error=Gone))
        try:
            out["result"] = at.integrated_gradients(tiny_bundle, ids, target, steps=32, chunk=4,
                                                    progress=lambda f: calls.append(f))
        except Gone as exc:
            out["error"] = exc

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(60)
    assert isinstance(out.get("error"), Gone) and "result" not in out
    assert len(calls) == 2  # 2 chunks of the 8 ran
    again = at.integrated_gradients(tiny_bundle, ids, target, steps=4)  # the model is not held
    assert again.steps == 4
