"""The engine's runs (Engine.run): a decode step waits for the next steps of the other runs whose steps came back, so
that a class's steps make one pass, not a lone row and then the rest; a run alone, an ended run, a late run and a
reader never hold anyone up. And the passes run on one thread of their own, with the machine's intra-op threads."""
import threading
import time

import pytest
import torch

from model_backend import SamplingParams, iter_generation
from model_backend.runtime import engine as engine_module
from model_backend.runtime.engine import GATHER_S
from model_backend.runtime.queueing import Visitor, serve


def _ids(bundle, text):
    return bundle.tokenizer(text, return_tensors="pt").input_ids


def _two_runs(bundle, b_pause, a_steps=1, b_ends_first=False):
    """Visitors A and B each start a run and prefill together; then A decodes at once, B after `b_pause` seconds
    (its sampling and drawing). Returns how long each of A's decode steps took, and the engine's counters' deltas."""
    engine = bundle.engine
    both_back = threading.Barrier(2, timeout=30)
    a_times, errors = [], []
    before = engine.batched_steps, engine.passes

    def visitor(owner, text, pause, steps, times, ends_first=False):
        try:
            serve(Visitor(owner=owner))
            with engine.run() as run:
                out = engine.prefill(_ids(bundle, text), run=run)
                both_back.wait()
                if ends_first:
                    return
                time.sleep(pause)  # its sampling and drawing
                for _ in range(steps):
                    token = out.logits[:, -1].argmax(-1, keepdim=True)
                    started = time.monotonic()
                    out = engine.decode(token, out.past_key_values, run=run)
                    times.append(time.monotonic() - started)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
            both_back.abort()

    a = threading.Thread(target=visitor, args=("A", "o gato", 0, a_steps, a_times))
    b = threading.Thread(target=visitor, args=("B", "a casa de papel", b_pause, 1, [], b_ends_first))
    for t in (a, b):
        t.start()
    for t in (a, b):
        t.join(60)
    assert not errors, errors
    return a_times, engine.batched_steps - before[0], engine.passes - before[1]


def test_a_decode_step_waits_for_the_other_runs_next_step_and_they_make_one_pass(tiny_bundle):
    # without the wait, A's step finds the model free and runs alone, and B's runs alone after it
    a_times, batched, _ = _two_runs(tiny_bundle, b_pause=0.08)
    assert batched >= 2  # A's and B's decode steps ran in one pass
    assert 0.05 < a_times[0] < GATHER_S + 1.0


def test_a_run_that_does_not_come_in_time_is_waited_for_once(tiny_bundle):
    # B is slower than GATHER_S: A waits GATHER_S once, then runs alone; its next step does not wait for B again
    a_times, _, _ = _two_runs(tiny_bundle, b_pause=GATHER_S + 0.6, a_steps=3)
    assert a_times[0] >= GATHER_S * 0.9
    assert max(a_times[1:]) < GATHER_S * 0.8


def test_an_ended_run_is_not_waited_for(tiny_bundle):
    a_times, _, _ = _two_runs(tiny_bundle, b_pause=0, b_ends_first=True, a_steps=2)  # B leaves after its prefill
    assert max(a_times) < GATHER_S * 0.8


def test_a_run_alone_never_waits_and_an_ended_generation_leaves_no_run(tiny_bundle):
    engine = tiny_bundle.engine
    waited = engine.gathered_s
    events = list(iter_generation(tiny_bundle, "Era uma vez", SamplingParams(temperature=0, max_new_tokens=6)))
    assert engine.gathered_s == waited
    assert engine.runs == 0
    gen = iter_generation(tiny_bundle, "Era uma vez", SamplingParams(temperature=0, max_new_tokens=3))
    steps = [next(gen) for _ in range(3)]
    assert steps[-1].finish_reason == "length"
    assert engine.runs == 0  # the last step comes after its run ended: no pass waits for its consumer
    assert [s.token.id for s in steps] == [s.token.id for s in events[:3]]


def test_passes_run_on_one_thread_of_their_own_with_the_machines_threads_a_decode_with_one_fewer(tiny_bundle):
    engine = tiny_bundle.engine
    before = torch.get_num_threads()
    torch.set_num_threads(max(2, engine_module.MACHINE_THREADS))  # as another library might: new threads read it
    seen = []

    def note(_module, _args, kwargs):
        past = kwargs.get("past_key_values")
        decode = past is not None and past.get_seq_length() > 0
        seen.append((threading.get_ident(), torch.get_num_threads(), decode))

    handle = engine.weights.register_forward_pre_hook(note, with_kwargs=True)
    callers = []

    def visitor(i):
        serve(Visitor(owner=f"v{i}"))
        out = tiny_bundle.prefill(_ids(tiny_bundle, "o gato" * (i + 1)))
        tiny_bundle.decode(out.logits[:, -1].argmax(-1, keepdim=True), out.past_key_values)
        callers.append((threading.get_ident(), torch.get_num_threads()))  # whatever the process's count was

    try:
        threads = [threading.Thread(target=visitor, args=(i,)) for i in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    finally:
        handle.remove()
        torch.set_num_threads(before)
    assert len(callers) == 3  # every visitor's prefill and decode came back
    prefills = {(ident, n) for ident, n, decode in seen if not decode}
    decodes = {(ident, n) for ident, n, decode in seen if decode}
    assert len(prefills) == 1 and len(decodes) == 1  # one thread each, on one count each
    assert not {ident for ident, _, _ in seen} & {ident for ident, _ in callers}
    assert {n for _, n in prefills} == {engine_module.MACHINE_THREADS}
    # on two cores decode passes leave one to the visitors' step work, on a thread of their own (engine._decode_thread)
    assert {n for _, n in decodes} == {1 if engine_module.MACHINE_THREADS == 2 else engine_module.MACHINE_THREADS}
    assert (prefills.pop()[0] != decodes.pop()[0]) == (engine_module.MACHINE_THREADS == 2)
    assert {n for _, n in callers} == {1}  # the visitors' own threads: one intra-op thread each


def test_a_thread_started_after_the_passes_works_on_one_intra_op_thread(tiny_bundle):
    """The passes' own counts stay theirs: a thread that starts its torch work after a prefill and a decode pass
    (a Streamlit script thread drawing from cached logits) gets one intra-op thread, the process's default."""
    torch.set_num_threads(1)
    out = tiny_bundle.prefill(_ids(tiny_bundle, "o gato subiu"))
    tiny_bundle.decode(out.logits[:, -1].argmax(-1, keepdim=True), out.past_key_values)
    counts = []
    fresh = threading.Thread(target=lambda: counts.append(torch.get_num_threads()))
    fresh.start()
    fresh.join(30)
    assert counts == [1]


@pytest.mark.parametrize("where", ["forward", "decode"])
def test_an_error_in_a_pass_on_the_pass_thread_reaches_the_caller(tiny_bundle, where):
    ids = _ids(tiny_bundle, "o gato")
    with pytest.raises(Exception):  # noqa: B017 - a shape error from the model, whatever its type
        if where == "forward":
            tiny_bundle.forward(input_ids=ids[:, :, None])
        else:
            tiny_bundle.decode(ids[:, :1], object())


def test_exclusive_work_runs_in_the_callers_thread_on_one_intra_op_thread(tiny_bundle):
    seen = {}

    def visitor():
        with tiny_bundle.engine.exclusive():
            seen["inside"] = (threading.get_ident(), torch.get_num_threads())
        seen["caller"] = threading.get_ident()

    before = torch.get_num_threads()
    torch.set_num_threads(2)  # the process's count, as another library might set it: the caller's thread reads it
    t = threading.Thread(target=visitor)
    t.start()
    t.join(30)
    torch.set_num_threads(before)
    assert seen["inside"] == (seen["caller"], 1)


def test_a_full_pass_waiting_does_not_wait_for_more(tiny_bundle):
    engine = tiny_bundle.engine
    before = engine.max_batch
    engine.max_batch = 1  # A's one row fills a pass: it does not wait for B
    try:
        a_times, _, _ = _two_runs(tiny_bundle, b_pause=GATHER_S + 0.3)
    finally:
        engine.max_batch = before
    assert a_times[0] < GATHER_S * 0.8
