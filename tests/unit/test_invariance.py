"""Batch invariance: a visitor's numbers do not depend on who else shares the engine's pass.

- the row-by-row attention (runtime/invariance.py) gives each row of a padded batch exactly what it gets alone;
- outside the engine's batched passes attention is untouched (a padded batch elsewhere computes the ordinary way);
- a one-row bfloat16 product whose kernel differs from the many-row one is computed as two rows (fastpath);
- the tiny model in bfloat16 through the engine: batched prefills and decode steps give bitwise-equal logits.
"""
from __future__ import annotations

import copy
import threading
import time

import pytest
import torch

from model_backend.runtime import fastpath, invariance
from tests.tiny import make_tiny_model, make_tokenizer


def _mask(starts: list[int], q_len: int, kv_len: int) -> torch.Tensor:
    """eager's additive mask [B, 1, q, kv] for left-padded rows: causal, and the padding hidden."""
    low = torch.finfo(torch.float32).min
    mask = torch.full((len(starts), 1, q_len, kv_len), low)
    for b, start in enumerate(starts):
        for i in range(q_len):
            last = kv_len - q_len + i  # the key this query sits on
            if last >= start:
                mask[b, 0, i, start:last + 1] = 0
    return mask


@pytest.fixture(scope="module")
def attention():
    model, _ = make_tiny_model()
    assert invariance.install(model)
    module = model.model.layers[1].self_attn
    return module, model.config._attn_implementation


@pytest.mark.parametrize("q_len", [1, 7])  # a decode step and a prefill
def test_each_row_of_a_padded_batch_gets_its_attention_alone(attention, q_len):
    module, name = attention
    from transformers import AttentionInterface

    wrapped, own = AttentionInterface._global_mapping[name], invariance._own_eager(module)
    gen = torch.Generator().manual_seed(1)
    kv_len, starts = 7, [0, 3, 5]
    q = torch.randn(3, 4, q_len, 8, generator=gen)
    k, v = torch.randn(3, 1, kv_len, 8, generator=gen), torch.randn(3, 1, kv_len, 8, generator=gen)
    mask = _mask(starts, q_len, kv_len)
    with invariance.rows():
        out, weights = wrapped(module, q, k, v, mask, scaling=0.5)
    plain, _ = wrapped(module, q, k, v, mask, scaling=0.5)  # outside the engine's pass: the ordinary batch
    assert torch.equal(plain, own(module, q, k, v, mask, scaling=0.5)[0])
    for b, start in enumerate(starts):
        q_from = start if q_len == kv_len else 0
        alone, alone_w = own(module, q[b:b + 1, :, q_from:], k[b:b + 1, :, start:], v[b:b + 1, :, start:],
                             _mask([0], q_len - q_from, kv_len - start), scaling=0.5)
        assert torch.equal(out[b:b + 1, q_from:], alone), b
        assert torch.equal(weights[b:b + 1, :, q_from:, start:], alone_w), b
        assert not weights[b, :, :, :start].any()  # nothing on the padding


def test_a_one_row_product_is_computed_as_the_batched_row():
    """bfloat16 (float32 keeps its faster one-row kernel: fastpath._two_rows says why)."""
    dtype = torch.bfloat16
    if not fastpath.supports(dtype):
        pytest.skip(f"this CPU has no oneDNN {dtype} path (its linears keep F.linear)")
    gen = torch.Generator().manual_seed(2)
    for k, n in ((2048, 640), (640, 2048), (64, 32)):
        layer = torch.nn.Linear(k, n, bias=False).to(dtype).eval()
        fastpath.route_linears(layer)
        x = torch.randn(64, k, generator=gen).to(dtype)  # bfloat16: about 1 row in 6 differed for (2048, 640)
        with torch.inference_mode():
            together = layer(x)
            for i in range(len(x)):
                assert torch.equal(layer(x[i:i + 1]), together[i:i + 1]), (k, n, i)


def _bf16_bundle():
    from model_backend import bundle_from

    model, _ = make_tiny_model(seed=3)
    for p in model.parameters():  # give the norms weights, so that every layer does something
        torch.nn.init.normal_(p, std=0.3)
    return bundle_from(model.to(torch.bfloat16), make_tokenizer(), "tiny-bf16")


def _queued(bundle, calls):
    """Each call in its own thread, all queued while the model is held: one batched pass takes them."""
    results = [None] * len(calls)
    threads = [threading.Thread(target=lambda i=i: results.__setitem__(i, calls[i]())) for i in range(len(calls))]
    with bundle.engine.lock:
        for t in threads:
            t.start()
        deadline = time.monotonic() + 10
        while bundle.engine.lock.queued < len(calls) + 1 and time.monotonic() < deadline:
            time.sleep(0.01)
    for t in threads:
        t.join(30)
    return results


def test_batched_prefills_and_steps_give_each_visitor_its_logits_bit_for_bit():
    """bfloat16, where rounding turns last-bit differences into other tokens: the engine's batched passes give
    every visitor the very logits it gets alone (prompts of different lengths, so the batch is padded)."""
    if not fastpath.supports(torch.bfloat16):
        pytest.skip("this CPU has no oneDNN bfloat16 path: bfloat16 is not what `auto` serves here")
    bundle = _bf16_bundle()
    assert bundle.engine.invariant
    texts = ["o gato", "a casa de papel amarela", "x", "Era uma vez"]
    ids = [bundle.tokenizer(t, return_tensors="pt").input_ids for t in texts]
    alone = [bundle.prefill(i) for i in ids]
    before = bundle.forward_passes
    together = _queued(bundle, [lambda i=i: bundle.prefill(i) for i in ids])
    assert bundle.forward_passes - before == 1
    for a, b in zip(alone, together):
        assert torch.equal(a.logits, b.logits)
    token = [torch.tensor([[int(a.logits[0, -1].argmax())]]) for a in alone]
    for _ in range(4):  # decode steps: alone on copies of the caches, then all together on the caches
        solo = [bundle.decode(t, copy.deepcopy(a.past_key_values)).logits for t, a in zip(token, alone)]
        before = bundle.forward_passes
        outs = _queued(bundle, [lambda t=t, a=a: bundle.decode(t, a.past_key_values) for t, a in zip(token, alone)])
        assert bundle.forward_passes - before == 1
        for s, o in zip(solo, outs):
            assert torch.equal(s, o.logits)
        token = [torch.tensor([[int(o.logits[0, -1].argmax())]]) for o in outs]


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
def test_a_request_of_several_rows_gets_the_same_logits_alone_and_beside_others(dtype):
    """A request of several rows (beams, the nondeterminism page's runs of one prompt, sampled rows) runs the batched
    way even alone: before, alone its rows' attention ran as one batched product and beside another visitor's step
    row by row, and its logits moved (0.25 in bfloat16 with the real model), so its tokens depended on who else
    pressed. Prefill and decode steps, 2 to 4 rows, beside a one-row request of another length."""
    if not fastpath.supports(dtype):
        pytest.skip(f"this CPU has no oneDNN {dtype} path: the invariance is claimed for oneDNN's kernels")
    model, _ = make_tiny_model(seed=3, head_dim=64)  # wide enough heads for a batched product to sum another way
    for p in model.parameters():
        torch.nn.init.normal_(p, std=0.3)
    from model_backend import bundle_from

    bundle = bundle_from(model.to(dtype), make_tokenizer(), f"tiny-{dtype}")
    assert bundle.engine.invariant
    tok = bundle.tokenizer
    mine = tok("a casa de papel amarela e o gato", return_tensors="pt").input_ids
    assert mine.shape[-1] >= 17  # keys enough for the sums to be split
    other = tok("o gato", return_tensors="pt").input_ids
    for rows in (2, 3, 4):
        ids = mine.repeat(rows, 1)
        alone = bundle.prefill(ids)
        before = bundle.forward_passes
        together = _queued(bundle, [lambda ids=ids: bundle.prefill(ids), lambda: bundle.prefill(other)])
        assert bundle.forward_passes - before == 1  # one pass took both
        assert torch.equal(alone.logits, together[0].logits), rows
        token = torch.tensor([[(int(alone.logits[r, -1].argmax()) + r) % len(tok)] for r in range(rows)])  # rows differ
        past_other = bundle.prefill(other).past_key_values
        for _ in range(3):
            solo = bundle.decode(token, copy.deepcopy(alone.past_key_values)).logits
            before = bundle.forward_passes
            outs = _queued(bundle, [lambda t=token, p=alone.past_key_values: bundle.decode(t, p),
                                    lambda p=past_other: bundle.decode(other[:, -1:], p)])
            assert bundle.forward_passes - before == 1
            assert torch.equal(solo, outs[0].logits), rows
            token = outs[0].logits[:, -1].argmax(-1, keepdim=True)


def test_batched_passes_compute_no_padding_and_keep_each_request_its_own_cache():
    """The engine's batched passes (invariance.Own): a packed prefill computes the prompts' tokens and no others, a
    decode pass one row per row, and each request's cache holds its own tokens only, the same keys as alone."""
    if not fastpath.supports(torch.bfloat16):
        pytest.skip("this CPU has no oneDNN bfloat16 path: the invariance is claimed for oneDNN's kernels")
    bundle = _bf16_bundle()
    assert bundle.engine.owned
    texts = ["o gato", "a casa de papel amarela", "x"]
    ids = [bundle.tokenizer(t, return_tensors="pt").input_ids for t in texts]
    ids[1] = ids[1].repeat(2, 1)  # a request of two rows
    seen = []
    model = bundle.engine.weights
    hook = model.model.embed_tokens.register_forward_pre_hook(lambda m, a: seen.append(tuple(a[0].shape)))
    try:
        alone = [bundle.prefill(i) for i in ids]
        seen.clear()
        together = _queued(bundle, [lambda i=i: bundle.prefill(i) for i in ids])
        assert seen == [(1, sum(i.numel() for i in ids))]  # one pass, packed: every prompt token once, no padding
        for i, a, b in zip(ids, alone, together):
            for la, lb in zip(a.past_key_values.layers, b.past_key_values.layers):
                assert lb.keys.shape[0] == i.shape[0] and lb.keys.shape[-2] == i.shape[-1]  # its rows, its tokens
                assert torch.equal(la.keys, lb.keys) and torch.equal(la.values, lb.values)
        steps = [torch.full((i.shape[0], 1), 5) for i in ids]
        solo = [bundle.decode(t, copy.deepcopy(a.past_key_values)) for t, a in zip(steps, alone)]
        seen.clear()
        engine, owned = bundle.engine, []
        run_own = engine._run_own
        engine._run_own = lambda batch: (owned.append(len(batch)), run_own(batch))
        try:
            outs = _queued(bundle, [lambda t=t, b=b: bundle.decode(t, b.past_key_values)
                                    for t, b in zip(steps, together)])
        finally:
            del engine._run_own
        assert seen == [(4, 1)] and owned == [3]  # one decode pass of the four rows, each request's own cache
        for i, s, o in zip(ids, solo, outs):
            assert torch.equal(s.logits, o.logits)
            for ls, lo in zip(s.past_key_values.layers, o.past_key_values.layers):
                assert lo.keys.shape[-2] == i.shape[-1] + 1 and torch.equal(ls.keys, lo.keys)
    finally:
        hook.remove()


def test_a_wide_decode_pass_computes_its_output_layer_on_the_pass_thread():
    """Where decode passes run on one thread (a 2-core CPU: engine._decode_thread), a pass of several rows hands its
    output layer to the pass thread, which has the machine's threads; the logits are those of one thread."""
    from model_backend.runtime import engine as eng

    if eng.DECODE_THREADS == eng.MACHINE_THREADS:
        pytest.skip("decode passes have the machine's threads here: nothing to hand over")
    if not fastpath.supports(torch.bfloat16):
        pytest.skip("this CPU has no oneDNN bfloat16 path: the invariance is claimed for oneDNN's kernels")
    bundle = _bf16_bundle()
    head = bundle.engine.weights.get_output_embeddings()
    texts = ["o gato", "a casa de papel amarela"]
    firsts = [bundle.prefill(bundle.tokenizer(t, return_tensors="pt").input_ids) for t in texts]
    token = torch.tensor([[5]])
    before = head._tbt_handed
    solo = [bundle.decode(token, copy.deepcopy(f.past_key_values)).logits for f in firsts]
    assert head._tbt_handed == before  # a one-row pass keeps its output layer where it is
    outs = _queued(bundle, [lambda f=f: bundle.decode(token, f.past_key_values) for f in firsts])
    assert head._tbt_handed == before + 1
    for s, o in zip(solo, outs):
        assert torch.equal(s, o.logits)


def test_the_output_layer_has_the_same_bits_on_one_thread_and_on_the_pass_threads_team():
    """The hand-over of `engine._head_on_pass_thread` moves a product from one intra-op thread to the machine's: a
    product as wide as Gemma's output layer (rows of 640 into 8,192 outputs here) gives the same bits on both."""
    from model_backend.runtime import engine as eng

    if eng.DECODE_THREADS == eng.MACHINE_THREADS or not fastpath.supports(torch.bfloat16):
        pytest.skip("no hand-over here (decode passes have the machine's threads), or no oneDNN bfloat16 path")
    layer = torch.nn.Linear(640, 8192, bias=False).to(torch.bfloat16).eval()
    fastpath.route_linears(layer)
    x = torch.randn(30, 640, generator=torch.Generator().manual_seed(4)).to(torch.bfloat16)

    def product():
        with torch.inference_mode():
            return torch.get_num_threads(), layer(x)

    (one, on_one), (two, on_two) = eng._decode_thread().submit(product).result(), eng._pass_thread().submit(
        product).result()
    assert (one, two) == (1, eng.MACHINE_THREADS)
    assert torch.equal(on_one, on_two)


def test_two_models_passes_at_once_never_wait_for_each_other_in_a_circle():
    """Two engines share the pass and decode threads. One model's wide decode pass (its output layer handed to the
    pass thread) and the other's packed prefill (its attention on the rows thread) at the same moments: both always
    finish. (With the prefill's attention on the decode thread, each could wait for the other for ever.)"""
    from model_backend.runtime import engine as eng

    if eng.DECODE_THREADS == eng.MACHINE_THREADS:
        pytest.skip("decode passes have the machine's threads here: no hand-over between threads")
    a, b = _bf16_bundle(), _bf16_bundle()
    ids = a.tokenizer("a casa de papel amarela", return_tensors="pt").input_ids.repeat(2, 1)
    past = a.prefill(ids).past_key_values
    others = [b.tokenizer(t, return_tensors="pt").input_ids for t in ("o gato", "Era uma vez")]
    where: list[str] = []
    attend = invariance.Own._attend

    def spy(self, *args, **kwargs):
        where.append(threading.current_thread().name)
        return attend(self, *args, **kwargs)

    def decodes():
        for _ in range(15):
            a.decode(torch.tensor([[5], [6]]), past)

    def prefills():
        for _ in range(15):
            _queued(b, [lambda i=i: b.prefill(i) for i in others])

    invariance.Own._attend = spy
    try:
        threads = [threading.Thread(target=f, daemon=True) for f in (decodes, prefills)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert not any(t.is_alive() for t in threads), "the two models' passes waited for each other"
    finally:
        invariance.Own._attend = attend
    assert any(name.startswith("tbt-engine-rows") for name in where)  # the prefills' attention, on its own thread
