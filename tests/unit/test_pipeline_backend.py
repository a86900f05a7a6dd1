"""model_backend.lessons.pipeline on the tiny model: masks, the MLP's real values, softmax totals, loop ends."""
import numpy as np
import pytest
import torch

from model_backend import SamplingParams, generate, trace
from model_backend.core.kv import kv_bytes_per_position
from model_backend.core.mlp import mlp_inputs, mlp_view
from model_backend.core.stepping import finish_reason
from model_backend.lessons.pipeline import float_row, pick, residual_norms, softmax_view, top_order, visible_keys

PROMPT = "O gato sentou no"


def test_causal_mask_hides_the_future_only():
    m = visible_keys(4)
    assert m.tolist() == [[True, False, False, False],
                          [True, True, False, False],
                          [True, True, True, False],
                          [True, True, True, True]]


def test_sliding_window_also_forgets_the_far_past():
    m = visible_keys(5, "sliding_attention", window=2)
    assert m[4].tolist() == [False, False, False, True, True]
    assert visible_keys(5, "full_attention", window=2)[4].all()


def test_mask_matches_where_the_model_put_zero_weight(tiny_bundle):
    tr = trace(tiny_bundle, PROMPT)
    allowed = visible_keys(len(tr.tokens))
    assert (tr.attentions[:, :, ~allowed] == 0).all()
    assert (tr.attentions[:, :, allowed] > 0).all()


def test_residual_norms_are_the_l2_length_per_layer(tiny_bundle):
    tr = trace(tiny_bundle, PROMPT)
    norms = residual_norms(tr.hidden_states)
    assert norms.shape == (tiny_bundle.info.n_layers + 1,)
    assert norms[1] == pytest.approx(float(np.sqrt((tr.hidden_states[1, -1].astype(np.float64) ** 2).sum())))


@pytest.mark.parametrize("n", [1, 3, 10, 50])
def test_top_order_is_the_stable_argsort_with_ties(n):
    rng = np.random.default_rng(0)
    values = rng.integers(0, 20, size=5000).astype(np.float64)  # many ties, also at the n-th place
    values[[7, 4000, 11]] = 25.0  # a tie at the top
    assert top_order(values, n).tolist() == np.argsort(-values, kind="stable")[:n].tolist()
    smooth = rng.standard_normal(262_144)
    assert top_order(smooth, n).tolist() == np.argsort(-smooth, kind="stable")[:n].tolist()
    assert top_order(values[:5], 10).tolist() == np.argsort(-values[:5], kind="stable").tolist()


def test_softmax_view_sums_to_one_and_matches_torch():
    logits = np.array([2.0, 1.0, 0.1, -3.0, 0.5], dtype=np.float32)
    sm = softmax_view(logits, n=3)
    ref = torch.softmax(torch.tensor(logits, dtype=torch.float64), -1).numpy()
    assert sm.ids == (0, 1, 4)
    assert sm.probs == pytest.approx(tuple(ref[[0, 1, 4]]), abs=1e-6)
    assert sm.total == pytest.approx(1.0, abs=1e-6)
    assert sm.top_sum + sm.rest_sum == pytest.approx(sm.total)
    assert sm.rest_sum == pytest.approx(ref[[2, 3]].sum(), abs=1e-6)
    assert sm.vocab_size == 5


def test_mlp_inputs_run_once_and_leave_no_hooks(tiny_bundle):
    before = tiny_bundle.forward_passes
    inputs = mlp_inputs(tiny_bundle, PROMPT)
    assert tiny_bundle.forward_passes == before + 1
    assert inputs.shape == (tiny_bundle.info.n_layers, tiny_bundle.info.d_model)
    for layer in tiny_bundle.weights.model.layers:
        assert not layer.mlp._forward_hooks


@pytest.mark.filterwarnings("error:The given NumPy array is not writable")  # torch says it once a process
def test_mlp_view_reproduces_the_layer_output(tiny_bundle):
    """The recorded input fed through the real MLP gives the hidden and output values the page shows; the input is
    read-only (a shared memo's), and torch gets a copy of it, not a view it could write through."""
    inputs = mlp_inputs(tiny_bundle, PROMPT)
    inputs.flags.writeable = False  # as the page gets it, from a shared memo
    view = mlp_view(tiny_bundle, inputs, layer=1)
    mlp = tiny_bundle.weights.model.layers[1].mlp
    with tiny_bundle.engine.exclusive(), torch.inference_mode():
        expected = mlp(torch.from_numpy(inputs[1].copy())).numpy()
    assert view.gated and view.hidden.shape == (64,) and view.out.shape == (32,)
    np.testing.assert_allclose(view.out, expected, rtol=1e-5, atol=1e-6)
    assert view.expansion == 2.0 and view.n_params == 3 * 32 * 64


def test_mlp_input_is_the_pre_feedforward_norm_of_the_stream(tiny_bundle):
    """Each layer ends with stream_out = mid + post_ff_norm(mlp(x)), where x = pre_ff_norm(mid) is what the MLP
    reads. From the residual stream the model reports (output_hidden_states) and the recorded x, recover mid
    and check that pre_ff_norm(mid) gives x back (float32, rtol 1e-4). The un-normed stream, another layer's
    input or the norm's input would not."""
    inputs = mlp_inputs(tiny_bundle, PROMPT)  # [L, D]
    ids = tiny_bundle.tokenizer(PROMPT, add_special_tokens=True)["input_ids"]
    with tiny_bundle.engine.exclusive() as model, torch.inference_mode():  # the norms below are the model's too
        hidden = model(input_ids=torch.tensor([ids]), output_hidden_states=True).hidden_states  # L+1 x [1, T, D]
        layers = model.model.layers
        assert len(inputs) == len(layers)
        for i in range(len(layers) - 1):  # the last hidden state is after the final norm
            x = torch.from_numpy(inputs[i])
            mid = hidden[i + 1][0, -1] - layers[i].post_feedforward_layernorm(layers[i].mlp(x))
            np.testing.assert_allclose(layers[i].pre_feedforward_layernorm(mid).numpy(), inputs[i], rtol=1e-4, atol=1e-5)
            assert not np.allclose(inputs[i], hidden[i + 1][0, -1].numpy(), rtol=1e-2)  # not the stream itself


def test_pick_greedy_is_argmax_and_draws_are_seeded():
    logits = np.array([0.0, 3.0, 2.9, -1.0], dtype=np.float32)
    assert pick(logits, SamplingParams(temperature=0)) == 1
    draws = [pick(logits, SamplingParams(temperature=1.0, seed=s)) for s in range(40)]
    assert draws == [pick(logits, SamplingParams(temperature=1.0, seed=s)) for s in range(40)]
    assert {1, 2} <= set(draws)  # both likely tokens come up across seeds


def _reasons(g):
    return [s.finish_reason for s in g.steps]


def test_the_last_step_says_the_loop_ended_on_length(tiny_bundle):
    g = generate(tiny_bundle, PROMPT, SamplingParams(temperature=0, max_new_tokens=3))
    if g.finish_reason == "stop":
        pytest.skip("the random tiny model wrote EOS first")
    assert g.finish_reason == "length" and len(g.steps) == 3
    assert _reasons(g) == [None, None, "length"]


def test_the_last_step_says_the_loop_ended_on_a_stop_sequence(tiny_bundle):
    free = generate(tiny_bundle, PROMPT, SamplingParams(temperature=0, max_new_tokens=6))
    if free.finish_reason == "stop" or len(free.completion) < 3:
        pytest.skip("the random tiny model stopped too early to place a stop sequence")
    stop = free.completion[2]  # a character the greedy text contains from its third character on
    params = SamplingParams(temperature=0, max_new_tokens=6, stop=(stop,))
    g = generate(tiny_bundle, PROMPT, params)
    assert g.finish_reason == "stop_sequence" and g.stop_sequence == stop
    assert _reasons(g) == [None] * (len(g.steps) - 1) + ["stop_sequence"]
    assert all(stop not in s.text for s in g.steps[:-1])  # it ended at the first step whose text holds it


@pytest.mark.parametrize("token, hit, index, expected", [
    (7, None, 0, None), (2, None, 0, "stop"), (7, (3, "."), 0, "stop_sequence"), (7, None, 4, "length"),
    (2, (3, "."), 4, "stop"), (7, (3, "."), 4, "stop_sequence"),  # EOS first, then a stop sequence, then length
])
def test_the_one_stop_rule(token, hit, index, expected):
    assert finish_reason(token, {1, 2}, hit, index, max_new_tokens=5) == expected


def test_kv_bytes_per_position_matches_the_measured_cache(tiny_bundle):
    g = generate(tiny_bundle, PROMPT, SamplingParams(temperature=0, max_new_tokens=3))
    info = tiny_bundle.info
    per = kv_bytes_per_position(info)
    assert per == 2 * info.n_layers * info.n_kv_heads * info.head_dim * 4  # float32
    sizes = [s.kv_cache_bytes for s in g.steps]
    assert sizes[0] == per * len(g.prompt_tokens)
    assert all(b - a == per for a, b in zip(sizes, sizes[1:]))


def test_output_layer_recomputes_the_logits_and_sees_the_tied_matrix(tiny_bundle):
    from model_backend.lessons.pipeline import output_layer
    tr = trace(tiny_bundle, "o gato")
    out = output_layer(tiny_bundle, tr.hidden_states[-1][-1], tr.last_logits)
    model = tiny_bundle.weights
    tied = model.get_output_embeddings().weight is model.get_input_embeddings().weight
    assert out.same_tensor == tied and out.equal_values == tied and out.tied_config == bool(model.config.tie_word_embeddings)
    assert out.vocab == tr.info.vocab_size and out.d_model == tr.info.d_model
    assert out.same_top
    # the tiny model runs in float32: W·h by hand equals its logits to float32 rounding (1e-4 on logits of size ~1)
    assert out.max_diff < 1e-4
    other = output_layer(tiny_bundle, np.zeros(tr.info.d_model, dtype=np.float32), tr.last_logits)
    assert other.max_diff == float(np.abs(tr.last_logits).max())  # h = 0 gives logits 0: the check can fail


def test_answer_flops_add_prefill_and_decode_with_attention(tiny_bundle):
    from model_backend.lessons.pipeline import answer_flops, attention_flops
    info = tiny_bundle.info
    per_att = 4 * info.head_dim * info.n_heads * info.n_layers  # one key and one value, per context position
    assert attention_flops(info, 10) == 10 * per_att
    f = answer_flops(info, n_prompt=3, n_new=4)
    assert f.per_token == 2 * info.n_params
    out = 2 * info.vocab_size * info.d_model  # the output matrix, skipped at the 2 prompt positions before the last
    assert f.prefill == 3 * f.per_token - 2 * out + (1 + 2 + 3) * per_att
    assert f.decode == 3 * f.per_token + (4 + 5 + 6) * per_att  # new tokens 2..4 see 4, 5, 6 positions
    assert f.total == f.prefill + f.decode
    assert answer_flops(info, 3, 1).decode == 0  # one new token: the prefill made it


def test_a_read_only_row_reaches_torch_as_a_copy():
    """output_layer's rows: a shared memo's read-only row is copied (torch warned of a non-writable array in CI),
    a writable float32 one is not."""
    shared = np.arange(6, dtype=np.float32)
    shared.flags.writeable = False
    got = float_row(shared)
    assert torch.equal(got, torch.arange(6, dtype=torch.float32)) and not np.shares_memory(got.numpy(), shared)
    own = np.arange(6, dtype=np.float32)
    assert np.shares_memory(float_row(own).numpy(), own)


@pytest.mark.filterwarnings("error:The given NumPy array is not writable")  # torch says it once a process
def test_pick_reads_a_shared_read_only_row_without_touching_it():
    """pick() gets the page's cached logits (a shared memo's read-only row): greedy picks the largest, a seeded
    draw is the same twice, and the row is unchanged."""
    from model_backend.types import SamplingParams

    logits = np.array([0.5, 3.0, -1.0, 2.5, 0.0], dtype=np.float32)
    kept = logits.copy()
    logits.flags.writeable = False
    assert pick(logits, SamplingParams(temperature=0.0)) == 1
    seeded = SamplingParams(temperature=1.0, seed=7)
    assert pick(logits, seeded) == pick(logits, seeded)
    assert np.array_equal(logits, kept)
