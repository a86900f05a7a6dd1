"""Fair under load: visitors take the model in turn (round-robin), one visitor has at most a few requests in flight,
and the work of a visitor who left or whose page moved on is dropped at the next step (tiny model, real engine)."""
import threading
import time

import pytest
import torch

from model_backend import SamplingParams, generate
from model_backend.runtime import queueing
from model_backend.runtime.queueing import Cancelled, FairLock, Visitor

pytestmark = pytest.mark.unit


def _wait_for(predicate, seconds=10.0):
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def _wait_count(count, n, seconds=10.0):
    """Wait until count() == n."""
    deadline = time.monotonic() + seconds
    while count() != n:
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def _as(who, fn, *args):
    """fn(*args) in a new thread working for `who`."""
    def run():
        queueing.serve(who)
        fn(*args)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_the_lock_serves_visitors_in_turn_not_in_arrival_order():
    order, lock = _order(["A", "A", "A", "B", "C"])  # A queued three requests before B and C arrived
    assert order == ["A", "B", "C", "A", "A"]  # B and C do not wait for all of A's
    assert lock.queued == 0 and not lock.locked()


def _order(names, served_before=()):
    """The order in which requests of `names` (queued one after another while the lock is held) get the lock, on a
    lock that served `served_before` once each first."""
    lock, order = FairLock(), []
    for name in served_before:
        lock.acquire(name)
        lock.release()
    lock.acquire("holder")
    threads = []
    for name in names:
        threads.append(threading.Thread(target=lambda n=name: (lock.acquire(n), order.append(n), lock.release())))
        threads[-1].start()
        _wait_count(lambda: lock.queued, len(threads) + 1)
    lock.release()
    for t in threads:
        t.join(10)
    return order, lock


def test_a_visitor_served_before_waits_behind_one_who_was_not():
    assert _order(["A", "B"], served_before=["A"])[0] == ["B", "A"]


def test_requests_without_a_visitor_keep_their_arrival_order():
    lock, order = FairLock(), []
    lock.acquire()
    threads = []
    for i in range(5):
        threads.append(threading.Thread(target=lambda i=i: (lock.acquire(), order.append(i), lock.release())))
        threads[-1].start()
        _wait_count(lambda: lock.queued, len(threads) + 1)
    lock.release()
    for t in threads:
        t.join(10)
    assert order == list(range(5))


def test_one_visitor_has_at_most_max_in_flight_requests_queued(tiny_bundle):
    engine = tiny_bundle.engine
    ids = tiny_bundle.tokenizer("o gato", return_tensors="pt").input_ids
    who = Visitor(owner="greedy visitor")
    engine.lock.acquire("holder")
    try:
        threads = [_as(who, lambda: engine.forward(input_ids=ids)) for _ in range(5)]
        _wait_for(lambda: engine.lock.queued >= 1 + engine.max_in_flight)
        time.sleep(0.3)  # the others had time to queue, and must not have
        assert engine.lock.queued == 1 + engine.max_in_flight
        other = _as(Visitor(owner="someone else"), lambda: engine.forward(input_ids=ids))
        _wait_for(lambda: engine.lock.queued == 2 + engine.max_in_flight)  # another visitor still gets in line
    finally:
        engine.lock.release()
    for t in [*threads, other]:
        t.join(30)
        assert not t.is_alive()
    assert not engine._flight  # every slot given back


def test_a_waiting_step_of_a_visitor_who_left_is_dropped_and_never_run(tiny_bundle):
    engine = tiny_bundle.engine
    ids = tiny_bundle.tokenizer("a casa de papel", return_tensors="pt").input_ids
    left = threading.Event()
    results = {}

    def prefill(name):
        try:
            results[name] = engine.prefill(ids).logits
        except BaseException as exc:  # noqa: BLE001
            results[name] = exc

    engine.lock.acquire("holder")
    try:
        stay = _as(Visitor(owner="stays"), prefill, "stays")
        go = _as(Visitor(owner="leaves", cancelled=left.is_set), prefill, "leaves")
        _wait_for(lambda: len(engine._pending) == 2)
        left.set()
        passes, dropped = engine.passes, engine.cancelled
    finally:
        engine.lock.release()
    stay.join(30)
    go.join(30)
    assert isinstance(results["leaves"], Cancelled)
    assert isinstance(results["stays"], torch.Tensor)
    assert engine.passes == passes + 1 and engine.cancelled == dropped + 1  # one row ran, alone


def test_the_visitor_s_own_kind_of_error_is_raised_in_its_thread(tiny_bundle):
    class MovedOn(Cancelled):
        pass

    queueing.serve(Visitor(owner="x", cancelled=lambda: True, error=MovedOn))
    try:
        with pytest.raises(MovedOn):
            tiny_bundle.engine.forward(input_ids=torch.tensor([[1, 2]]))
    finally:
        queueing.serve(Visitor())


def test_a_generation_ends_at_the_next_step_once_its_visitor_moves_on(tiny_bundle):
    params = SamplingParams(temperature=0, max_new_tokens=40)
    steps = []

    def count(module, args):
        steps.append(1)

    handle = tiny_bundle.weights.register_forward_pre_hook(count)
    try:
        queueing.serve(Visitor(owner="x", cancelled=lambda: len(steps) >= 3))
        with pytest.raises(Cancelled):
            generate(tiny_bundle, "Era uma vez", params)
        stopped_after = len(steps)
        queueing.serve(Visitor())
        steps.clear()
        done = generate(tiny_bundle, "Era uma vez", params)
    finally:
        handle.remove()
        queueing.serve(Visitor())
    assert stopped_after == 3  # the fourth step never ran
    assert len(done.steps) >= 4 and len(steps) == len(done.steps)


def test_transformers_generate_stops_for_a_visitor_who_moved_on(tiny_bundle):
    engine = tiny_bundle.engine
    ids = tiny_bundle.tokenizer("o gato", return_tensors="pt").input_ids
    calls = []

    def cancelled():
        calls.append(1)
        return len(calls) > 4  # wanted for the admission, the turn, and two steps

    queueing.serve(Visitor(owner="x", cancelled=cancelled))
    before = engine.passes
    try:
        with pytest.raises(Cancelled):
            engine.generate(input_ids=ids, attention_mask=torch.ones_like(ids), max_new_tokens=30, do_sample=False,
                            pad_token_id=0, min_new_tokens=30)
    finally:
        queueing.serve(Visitor())
    assert engine.passes - before < 10  # not the 30 it was asked for
    out = engine.generate(input_ids=ids, attention_mask=torch.ones_like(ids), max_new_tokens=30, do_sample=False,
                          pad_token_id=0, min_new_tokens=30)
    assert out.shape[-1] == ids.shape[-1] + 30  # nobody left: the whole generation


def test_a_full_batch_takes_every_visitor_s_first_step_before_anyone_s_second(tiny_bundle):
    engine = tiny_bundle.engine
    ids = tiny_bundle.tokenizer("o gato", return_tensors="pt").input_ids
    widest, engine.max_batch = engine.max_batch, 2
    taken = []
    real_run = engine._run
    engine._run = lambda batch: (taken.append([s.visitor.owner for s in batch]), real_run(batch))
    a, b = object(), object()  # owners no other test served: the lock remembers whom it served last
    try:
        engine.lock.acquire("holder")
        threads = []
        for owner in [a, a, b]:
            threads.append(_as(Visitor(owner=owner), lambda: engine.prefill(ids)))
            _wait_count(lambda: engine.lock.queued, 1 + len(threads))  # queued for the lock, in this order
        engine.lock.release()
        for t in threads:
            t.join(30)
    finally:
        engine.max_batch, engine._run = widest, real_run
    assert taken[0] == [a, b] and taken[1] == [a]


def test_a_run_is_superseded_by_a_stop_or_a_preempting_rerun_not_by_a_fragment_timer():
    from streamlit.runtime.scriptrunner_utils.script_requests import RerunData, ScriptRequests

    from ui.backend import MovedOn, superseded

    requests = ScriptRequests()
    assert not superseded(requests)
    requests.request_rerun(RerunData(fragment_id="follow"))  # a following phone's timer: the page run goes on
    assert not superseded(requests)
    requests.request_rerun(RerunData(query_string="t=1"))  # a click: Streamlit ends this run at its next element
    assert superseded(requests)
    stopped = ScriptRequests()
    stopped.request_stop()  # the browser went away
    assert superseded(stopped)
    scoped = ScriptRequests()
    scoped.request_rerun(RerunData(fragment_id_queue=["f"], is_fragment_scoped_rerun=True))
    assert superseded(scoped)
    # the engine's drop is Streamlit's quiet stop: no error box, and the pending rerun runs next
    from streamlit.runtime.scriptrunner_utils.exceptions import StopException
    assert issubclass(MovedOn, StopException) and issubclass(MovedOn, Cancelled)


def test_a_request_without_a_visitor_does_not_jump_ahead_of_visitors_waiting_before_it():
    order, lock = _order(["A", None, None], served_before=["A"])
    assert order == ["A", None, None]
    assert None not in lock._last  # nobody's turns are not remembered


def test_a_step_run_by_another_pass_returns_without_waiting_for_its_own_turn(tiny_bundle):
    """X's prefill is taken into another visitor's batch; X then does not wait behind a third visitor's long
    exclusive turn to get its result."""
    engine = tiny_bundle.engine
    ids = tiny_bundle.tokenizer("o gato", return_tensors="pt").input_ids
    done = {}
    engine.lock.acquire("X")
    engine.lock.release()  # X was served before: a new visitor's turn comes before X's next one
    engine.lock.acquire("holder")
    leader = _as(Visitor(owner="leader"), lambda: engine.prefill(ids))
    _wait_count(lambda: len(engine._pending), 1)
    x = _as(Visitor(owner="X"), lambda: done.setdefault("x", (engine.prefill(ids), time.monotonic())))
    _wait_count(lambda: len(engine._pending), 2)

    def long_turn():
        with engine.exclusive():
            time.sleep(1.5)

    slow = _as(Visitor(owner="slow"), long_turn)  # queued after X, and served before X's turn: never served
    _wait_count(lambda: engine.lock.queued, 4)
    started = time.monotonic()
    engine.lock.release()
    x.join(30)
    assert done["x"][1] - started < 1.0  # X's step ran in the leader's pass, and X left the queue at once
    for t in (leader, slow):
        t.join(30)


def test_a_waiting_turn_of_a_visitor_who_leaves_leaves_the_queue_at_once(tiny_bundle):
    engine = tiny_bundle.engine
    left, raised = threading.Event(), {}

    def turn():
        try:
            engine.forward(input_ids=torch.tensor([[1, 2]]))
        except Cancelled as exc:
            raised["at"] = (exc, time.monotonic())

    engine.lock.acquire("holder")
    try:
        t = _as(Visitor(owner="goes", cancelled=left.is_set), turn)
        _wait_count(lambda: engine.lock.queued, 2)
        left.set()
        gone = time.monotonic()
        t.join(5)
        assert "at" in raised and raised["at"][1] - gone < 1.0  # while the holder still holds the model
        assert engine.lock.queued == 1
    finally:
        engine.lock.release()


def test_work_in_a_thread_nobody_told_asks_the_resolver():
    seen = Visitor(owner="from the run")
    queueing.resolve_with(lambda: seen)
    try:
        out = {}
        t = threading.Thread(target=lambda: out.setdefault("who", queueing.visitor()))
        t.start()
        t.join(5)
        assert out["who"] is seen
        queueing.resolve_with(lambda: 1 / 0)  # a resolver that fails: nobody's work, no error
        t = threading.Thread(target=lambda: out.__setitem__("who", queueing.visitor()))
        t.start()
        t.join(5)
        assert out["who"] is queueing.NOBODY
    finally:
        queueing.resolve_with(lambda: None)


def test_a_generation_cut_short_raises_even_if_its_visitor_is_back_by_then(tiny_bundle):
    from model_backend.runtime.engine import WhileWanted

    state = {"away": True}
    who = Visitor(owner="flaky", cancelled=lambda: state["away"])
    stop = WhileWanted(who)
    ids = torch.tensor([[1, 2, 3]])
    assert bool(stop(ids, None).all()) and stop.fired
    state["away"] = False  # the phone came back
    with pytest.raises(Cancelled):
        stop.check()


def test_a_loop_run_whose_step_was_dropped_goes_on_with_the_same_tokens(tiny_bundle, monkeypatch):
    """The engine drops a waiting step of a visitor whose browser went away by raising inside the loop's generator,
    which ends it; the shared run must then take its next step (for the visitor who asks next) with the same
    tokens, and a visitor whose own step keeps being dropped is told so."""
    import model_backend as mb
    from ui import backend
    from ui.loop.compute import LoopRun, SharedRun

    monkeypatch.setattr(backend, "iter_generation", lambda prompt, params: mb.iter_generation(tiny_bundle, prompt,
                                                                                               params))
    gone = [0]  # how many of the next steps are computed for a browser that went away

    def for_visitor(fn):
        who = Visitor(owner="x", cancelled=lambda: True) if gone[0] else Visitor()
        gone[0] = max(0, gone[0] - 1)

        def run(*args, **kwargs):
            queueing.serve(who)
            try:
                return fn(*args, **kwargs)
            finally:
                queueing.serve(Visitor())
        return run

    monkeypatch.setattr(backend, "for_visitor", for_visitor)
    params = SamplingParams(temperature=0.8, top_p=0.9, max_new_tokens=6, seed=5)
    plain = LoopRun(prompt="Era uma vez", params=params)
    for _ in range(4):
        plain.advance()
    run = LoopRun(prompt="Era uma vez", params=params)
    run.advance()
    run.advance()
    gone[0] = 1  # the next step is dropped once: asked again, it is made
    run.advance()
    assert len(run.steps) == 3
    run.advance()
    assert [s.token.id for s in run.steps] == [s.token.id for s in plain.steps]
    gone[0] = 3  # dropped every time
    with pytest.raises(Cancelled):
        run.advance()
    assert run.gen is None and len(run.steps) == 4

    # two visitors on one shared run: the steps are made once, and one goes back without a pass
    shared = SharedRun("Era uma vez", params)
    a, b = LoopRun("Era uma vez", params, shared), LoopRun("Era uma vez", params, shared)
    for _ in range(3):
        a.advance()
    passes = tiny_bundle.forward_passes
    for _ in range(3):
        b.advance()
    assert tiny_bundle.forward_passes == passes and b.steps == a.steps  # shown, not computed again
    assert [s.token.id for s in b.steps] == [s.token.id for s in plain.steps[:3]]
    b.back_to(1)
    assert len(b.steps) == 1 and len(a.steps) == 3 and tiny_bundle.forward_passes == passes
    b.advance()
    assert b.steps == a.steps[:2] and tiny_bundle.forward_passes == passes
