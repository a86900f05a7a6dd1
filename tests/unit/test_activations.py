"""The named activation cache on the tiny model: names, shapes, sums the residual stream keeps, hooks removed."""
import threading

import numpy as np
import pytest
import torch

from model_backend import trace
from model_backend.core.activations import hook_names, hooked, run_with_cache
from model_backend.core.tracing import encode
from model_backend.lessons.why import head_outputs

PROMPT = "O gato sentou no"


@pytest.fixture(scope="module")
def ids(tiny_bundle):
    return encode(tiny_bundle, PROMPT, 64)[0]


@pytest.fixture(scope="module")
def cache(tiny_bundle, ids):
    return run_with_cache(tiny_bundle, ids)


def _hooks(model) -> dict:
    """Every forward (pre-)hook on the model (transformers keeps some of its own: compare before and after)."""
    return {(name, kind): tuple(getattr(m, kind)) for name, m in model.named_modules()
            for kind in ("_forward_hooks", "_forward_pre_hooks") if getattr(m, kind)}


def test_every_name_is_filled_with_transformerlens_shapes(tiny_bundle, ids, cache):
    info = tiny_bundle.info
    t = len(ids)
    assert set(cache.names()) == set(hook_names(tiny_bundle.weights))
    assert cache["hook_embed"].shape == (t, info.d_model)
    assert cache["blocks.1.attn.hook_pattern"].shape == (info.n_heads, t, t)
    assert cache["blocks.1.attn.hook_z"].shape == (t, info.n_heads, info.head_dim)
    for name in ("hook_resid_pre", "hook_attn_out", "hook_resid_mid", "mlp.hook_in", "mlp.hook_out", "hook_mlp_out",
                 "hook_resid_post"):
        assert cache[f"blocks.0.{name}"].shape == (t, info.d_model), name
    assert cache.logits.shape == (t, info.vocab_size)


def test_the_residual_stream_is_the_sum_of_what_each_part_adds(tiny_bundle, cache):
    """resid_mid = resid_pre + attn_out and resid_post = resid_mid + mlp_out: the model's own float32 adds,
    so equal to rounding (1e-6)."""
    for layer in range(tiny_bundle.info.n_layers):
        b = f"blocks.{layer}"
        torch.testing.assert_close(cache[f"{b}.hook_resid_mid"], cache[f"{b}.hook_resid_pre"] + cache[f"{b}.hook_attn_out"])
        torch.testing.assert_close(cache[f"{b}.hook_resid_post"], cache[f"{b}.hook_resid_mid"] + cache[f"{b}.hook_mlp_out"],
                                   rtol=1e-6, atol=1e-6)
        if layer + 1 < tiny_bundle.info.n_layers:
            assert torch.equal(cache[f"blocks.{layer + 1}.hook_resid_pre"], cache[f"{b}.hook_resid_post"])
    torch.testing.assert_close(cache["blocks.0.hook_resid_pre"], cache["hook_embed"])


def test_heads_through_o_proj_add_up_to_what_attention_adds(tiny_bundle, cache):
    """Each head's slice of o_proj, then Gemma's post-attention norm with the sum's scale: summed over heads
    it is the block's attention output (float64 sums of float32 values: 1e-5)."""
    for layer in range(tiny_bundle.info.n_layers):
        per_head = head_outputs(tiny_bundle, cache, layer, pos=-1)
        np.testing.assert_allclose(per_head.sum(0).numpy(), cache[f"blocks.{layer}.hook_attn_out"][-1].numpy(),
                                   rtol=1e-5, atol=1e-5)


def test_trace_built_from_the_cache_equals_transformers_own_outputs(tiny_bundle):
    tr = trace(tiny_bundle, PROMPT)
    ids = torch.tensor([[t.id for t in tr.tokens]])
    with torch.inference_mode():
        out = tiny_bundle.engine.forward(input_ids=ids, output_attentions=True, output_hidden_states=True, use_cache=False)
    np.testing.assert_array_equal(tr.attentions, torch.stack([a[0] for a in out.attentions]).numpy())
    np.testing.assert_array_equal(tr.hidden_states, torch.stack([h[0] for h in out.hidden_states]).numpy())
    np.testing.assert_array_equal(tr.last_logits, out.logits[0, -1].numpy())


def test_one_pass_names_filter_and_positions(tiny_bundle, ids):
    before, hooks = tiny_bundle.forward_passes, _hooks(tiny_bundle.weights)
    small = run_with_cache(tiny_bundle, ids, names={"blocks.1.hook_resid_mid"}, keep_logits=False, keep=slice(-1, None))
    assert tiny_bundle.forward_passes == before + 1
    assert small.names() == ["blocks.1.hook_resid_mid"] and small.logits is None
    assert small["blocks.1.hook_resid_mid"].shape == (1, tiny_bundle.info.d_model)
    assert _hooks(tiny_bundle.weights) == hooks


def test_hooks_exist_only_while_the_lock_is_held_and_go_even_on_error(tiny_bundle, ids):
    hooks = _hooks(tiny_bundle.weights)
    with pytest.raises(RuntimeError, match="boom"):
        with hooked(tiny_bundle, {"blocks.0.hook_resid_post"}):
            assert tiny_bundle.engine.lock.locked()
            assert _hooks(tiny_bundle.weights) != hooks
            raise RuntimeError("boom")
    assert not tiny_bundle.engine.lock.locked()
    assert _hooks(tiny_bundle.weights) == hooks


def test_another_visitors_pass_waits_for_the_hooks_to_go(tiny_bundle, ids):
    seen, hooks = [], _hooks(tiny_bundle.weights)
    with hooked(tiny_bundle, {"blocks.0.hook_resid_post"}):
        other = threading.Thread(target=lambda: seen.append(tiny_bundle.forward(input_ids=torch.tensor([ids]))))
        other.start()
        other.join(0.5)
        assert other.is_alive() and not seen  # queued behind the lock while hooks are attached
    other.join(30)
    assert seen and _hooks(tiny_bundle.weights) == hooks


def test_a_module_called_from_another_thread_while_hooks_are_attached_is_refused_and_not_recorded(tiny_bundle, ids):
    """With 30 visitors, one visitor's hooks (pipeline's MLP inputs, the why page) once fired on another's call of
    the final norm (the logit lens ran outside the model's lock) and failed on its shape. The logit lens now runs
    inside the engine; a call of a model's part from outside it raises before any hook records it."""
    from model_backend.core.tracing import _final_norm
    from model_backend.runtime.engine import ModelOutsideEngine

    norm = _final_norm(tiny_bundle.weights)
    vector = torch.randn(tiny_bundle.weights.config.hidden_size)
    errors, out = [], []

    def lens_like():
        try:
            with torch.inference_mode():
                out.append(norm(vector))  # [D]: no batch, no positions
        except Exception as exc:  # noqa: BLE001 - the failure this test is about
            errors.append(exc)

    with hooked(tiny_bundle, None) as store:
        other = threading.Thread(target=lens_like)
        other.start()
        other.join(30)
        assert "ln_final.hook_normalized" not in store  # the other thread's call left no record here
        with torch.inference_mode():
            tiny_bundle.weights(input_ids=torch.tensor([ids]))  # this thread is inside the engine: it may call
    assert not out and len(errors) == 1 and isinstance(errors[0], ModelOutsideEngine)
    assert store["ln_final.hook_normalized"].shape[:2] == (1, len(ids))
