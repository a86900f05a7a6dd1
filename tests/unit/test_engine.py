"""The model engine on the tiny model: decode steps of concurrent visitors run as one batched pass, and a visitor's
tokens and logits are those it gets alone; steps join and leave between passes; an error reaches every waiter."""
import threading
import time

import pytest
import torch

from model_backend import SamplingParams, generate
from model_backend.runtime.engine import Engine
from tests.tiny import start_queued

PROMPTS = ["o gato", "a casa de papel", "Era uma vez", "1, 2, 3,", "x", "Olá, mundo! Tudo bem?"]


def _prefill(bundle, text):
    ids = bundle.tokenizer(text, return_tensors="pt").input_ids
    out = bundle.forward(input_ids=ids, use_cache=True, logits_to_keep=1)
    return int(out.logits[0, -1].argmax()), out.past_key_values


def _alone(bundle, text, steps):
    """Greedy tokens and every step's logits, one visitor, no one else on the engine."""
    token, past = _prefill(bundle, text)
    tokens, logits = [token], []
    for _ in range(steps):
        out = bundle.decode(torch.tensor([[token]]), past)
        logits.append(out.logits[0, -1].clone())
        token = int(out.logits[0, -1].argmax())
        tokens.append(token)
    return tokens, logits


def _step_into(bundle, run, results):
    results[id(run)] = bundle.decode(torch.tensor([[run[0]]]), run[1])


def _together(bundle, texts, steps_each):
    """Every visitor's steps queued at once, so that each pass takes them all (the lock is held while they queue)."""
    runs = [[*_prefill(bundle, text), [], []] for text in texts]  # token, past, tokens, logits
    for run in runs:
        run[2].append(run[0])
    for step in range(max(steps_each)):
        live = [r for r, n in zip(runs, steps_each) if step < n]
        results = {}
        threads = [threading.Thread(target=_step_into, args=(bundle, r, results)) for r in live]
        start_queued(bundle.engine, threads, waits=200)  # the steps all wait, then one of them takes the rest
        for t in threads:
            t.join(30)
        for r in live:
            out = results[id(r)]
            r[3].append(out.logits[0, -1].clone())
            r[0] = int(out.logits[0, -1].argmax())
            r[2].append(r[0])
    return [(r[2], r[3]) for r in runs]


def test_concurrent_decode_steps_run_as_one_pass_with_the_tokens_and_logits_of_each_alone(tiny_bundle):
    alone = [_alone(tiny_bundle, p, 8) for p in PROMPTS]
    before_passes, before_batched = tiny_bundle.forward_passes, tiny_bundle.engine.batched_steps
    together = _together(tiny_bundle, PROMPTS, [8] * len(PROMPTS))
    prefills = len(PROMPTS)
    assert tiny_bundle.forward_passes - before_passes == prefills + 8  # one pass a step for all six
    assert tiny_bundle.engine.batched_steps - before_batched == 8 * len(PROMPTS)
    assert tiny_bundle.engine.widest >= len(PROMPTS)
    for (tokens_a, logits_a), (tokens_b, logits_b), prompt in zip(alone, together, PROMPTS):
        assert tokens_a == tokens_b, prompt
        for a, b in zip(logits_a, logits_b):
            torch.testing.assert_close(b, a, rtol=1e-4, atol=1e-4)


def test_runs_join_and_leave_between_steps(tiny_bundle):
    """Runs of 2, 5 and 8 steps: the short ones leave, the others go on batched; all keep their own tokens."""
    texts, lengths = PROMPTS[:3], [2, 5, 8]
    alone = [_alone(tiny_bundle, p, n) for p, n in zip(texts, lengths)]
    together = _together(tiny_bundle, texts, lengths)
    for (tokens_a, _), (tokens_b, _) in zip(alone, together):
        assert tokens_a == tokens_b


def test_a_cache_past_the_sliding_window_runs_alone_and_right(tiny_bundle):
    """The tiny model's sliding window is 64: a prompt of 70 characters has cut it, so its steps are not batched,
    and its tokens are still those of generate() alone."""
    window = tiny_bundle.weights.config.sliding_window
    long_text = ("abcdefghij" * 8)[: window + 6]
    alone = _alone(tiny_bundle, long_text, 4)
    before = tiny_bundle.engine.batched_steps
    together = _together(tiny_bundle, [long_text, "o gato"], [4, 4])
    assert together[0][0] == alone[0]
    assert tiny_bundle.engine.batched_steps == before  # the long one ran alone, so the short one did too


def test_greedy_generation_of_many_visitors_at_once_equals_each_alone(tiny_bundle):
    """The loop (core.stepping) through the engine: six visitors generate at the same moment, in threads."""
    params = SamplingParams(temperature=0, max_new_tokens=12)
    alone = {p: generate(tiny_bundle, p, params).completion for p in PROMPTS}
    out, barrier = {}, threading.Barrier(len(PROMPTS))

    def visitor(p):
        barrier.wait()
        out[p] = generate(tiny_bundle, p, params).completion

    threads = [threading.Thread(target=visitor, args=(p,)) for p in PROMPTS]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert out == alone


def test_seeded_sampling_keeps_each_visitors_own_generator(tiny_bundle):
    params = [SamplingParams(temperature=1.0, top_k=20, seed=s, max_new_tokens=10) for s in (1, 2, 3)]
    alone = [generate(tiny_bundle, "o gato", p).completion for p in params]
    out = [None] * 3

    def visitor(i):
        out[i] = generate(tiny_bundle, "o gato", params[i]).completion

    threads = [threading.Thread(target=visitor, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert out == alone


class _Broken(torch.nn.Module):
    config = type("C", (), {"sliding_window": None})()

    def forward(self, **_):
        raise RuntimeError("the model failed")


def test_an_error_in_a_pass_reaches_the_waiting_visitor():
    """A failing pass raises in the visitor's own thread, for a plain pass and for a decode step, and frees the lock."""
    engine = Engine(_Broken())
    with pytest.raises(RuntimeError, match="the model failed"):
        engine.forward(input_ids=torch.tensor([[1]]))
    with pytest.raises(RuntimeError, match="the model failed"):
        engine.decode(torch.tensor([[1]]), past=None)
    assert not engine.lock.locked() and engine.passes == 2


def test_waiting_decode_steps_count_as_one_turn_ahead_not_one_each(tiny_bundle):
    """The queue notice's figure: 7 visitors' decode steps waiting behind a pass are 2 turns (the pass, then
    one batch), and the seconds are turns times the recent turn length."""
    from model_backend.runtime.engine import _Step

    engine = tiny_bundle.engine
    assert engine.ahead() == (0, 0.0)
    engine.lock.acquire()  # a pass in progress
    tickets = []
    try:
        held, engine.held_s = engine.held_s, 0.5
        with engine._guard:
            engine._pending.extend(_Step(input_ids=None, past=None, attentions=False) for _ in range(7))
        for _ in range(7):  # each waiting step holds a ticket, as decode() does
            t = threading.Thread(target=lambda: (engine.lock.acquire(), engine.lock.release()))
            t.start()
            tickets.append(t)
        deadline = time.monotonic() + 10
        while engine.lock.queued < 8 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert engine.ahead() == (2, 1.0)
    finally:
        with engine._guard:
            engine._pending.clear()
        engine.held_s = held
        engine.lock.release()
        for t in tickets:
            t.join(10)


def _queued(bundle, calls):
    """Run `calls` (no-argument functions, each one engine request) in threads that all queue while the model is
    held, so that the first to get it takes the rest into its pass. Returns their results in order."""
    results = [None] * len(calls)

    def call(i):
        results[i] = calls[i]()

    bundle.engine.lock.acquire()
    threads = [threading.Thread(target=call, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 10
    while bundle.engine.lock.queued < len(calls) + 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    bundle.engine.lock.release()
    for t in threads:
        t.join(30)
    return results


def _ids(bundle, text):
    return bundle.tokenizer(text, return_tensors="pt").input_ids


def test_concurrent_prefills_run_as_one_pass_and_each_gets_its_own_cache(tiny_bundle):
    """Six new prompts of different lengths at once: one pass, left-padded; each visitor's logits are those it
    gets alone, and its cache holds its own tokens only (no padding), so its decode steps go on as alone."""
    alone = [_alone(tiny_bundle, p, 6) for p in PROMPTS]
    before = tiny_bundle.forward_passes
    outs = _queued(tiny_bundle, [lambda p=p: tiny_bundle.prefill(_ids(tiny_bundle, p)) for p in PROMPTS])
    assert tiny_bundle.forward_passes - before == 1
    for p, out, (tokens, _) in zip(PROMPTS, outs, alone):
        n = _ids(tiny_bundle, p).shape[-1]
        assert out.logits.shape[:2] == (1, 1)
        assert all(layer.keys.shape[-2] == n for layer in out.past_key_values.layers), p  # no padding kept
        ref = tiny_bundle.forward(input_ids=_ids(tiny_bundle, p), use_cache=True, logits_to_keep=1).logits
        torch.testing.assert_close(out.logits, ref, rtol=1e-4, atol=1e-4)
        token, past, made = int(out.logits[0, -1].argmax()), out.past_key_values, []
        made.append(token)
        for _ in range(6):  # the visitor's own decode steps, on the cache the batched prefill gave it
            token = int(tiny_bundle.decode(torch.tensor([[token]]), past).logits[0, -1].argmax())
            made.append(token)
        assert made == tokens, p


def test_a_request_of_several_rows_joins_other_visitors_steps(tiny_bundle):
    """The nondeterminism page's shape: one prompt's cache repeated for 3 runs decodes [3, 1] at once, in the same
    pass as two single visitors; every row gets the logits it gets alone."""
    many = tiny_bundle.prefill(_ids(tiny_bundle, "o gato"))
    many.past_key_values.batch_repeat_interleave(3)
    singles = [tiny_bundle.prefill(_ids(tiny_bundle, p)) for p in ("a casa de papel", "x")]
    three = torch.tensor([[5], [6], [7]])
    import copy
    ref_many = tiny_bundle.decode(three, copy.deepcopy(many.past_key_values)).logits
    ref_singles = [tiny_bundle.decode(torch.tensor([[9]]), copy.deepcopy(s.past_key_values)).logits for s in singles]
    before, widest = tiny_bundle.forward_passes, tiny_bundle.engine.widest
    tiny_bundle.engine.widest = 1
    outs = _queued(tiny_bundle, [lambda: tiny_bundle.decode(three, many.past_key_values)] +
                   [lambda s=s: tiny_bundle.decode(torch.tensor([[9]]), s.past_key_values) for s in singles])
    assert tiny_bundle.forward_passes - before == 1 and tiny_bundle.engine.widest == 5
    tiny_bundle.engine.widest = max(widest, 5)
    assert outs[0].logits.shape[0] == 3
    torch.testing.assert_close(outs[0].logits, ref_many, rtol=1e-4, atol=1e-4)
    for out, ref in zip(outs[1:], ref_singles):
        torch.testing.assert_close(out.logits, ref, rtol=1e-4, atol=1e-4)
    assert many.past_key_values.layers[0].keys.shape[0] == 3  # each row's new key went into its own cache


def test_a_prompt_longer_than_the_window_prefills_alone(tiny_bundle):
    window = tiny_bundle.weights.config.sliding_window
    long_ids = _ids(tiny_bundle, ("abcdefghij" * 8)[: window + 6])
    before, batched = tiny_bundle.forward_passes, tiny_bundle.engine.batched_steps
    outs = _queued(tiny_bundle, [lambda: tiny_bundle.prefill(long_ids), lambda: tiny_bundle.prefill(_ids(tiny_bundle, "x"))])
    assert tiny_bundle.forward_passes - before == 2 and tiny_bundle.engine.batched_steps == batched
    ref = tiny_bundle.forward(input_ids=long_ids, use_cache=True, logits_to_keep=1).logits
    assert torch.equal(outs[0].logits, ref)  # alone: the very same call as before the engine
