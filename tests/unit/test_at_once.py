"""backend.at_once: jobs in threads of the script run, together, with a tick in the caller's thread meanwhile."""
import threading
import time

import pytest

from ui import backend


def test_the_jobs_run_at_the_same_time_and_each_result_keeps_its_name():
    barrier = threading.Barrier(3, timeout=10)  # only passes if all three wait at once

    def job(value):
        def run():
            barrier.wait()
            time.sleep(0.3)
            return value
        return run

    ticks = []
    out = backend.at_once({"a": job(1), "b": job(2), "c": job(3)}, lambda: ticks.append(1), every=0.05)
    assert out == {"a": 1, "b": 2, "c": 3} and list(out) == ["a", "b", "c"]
    assert len(ticks) >= 3  # the bar was drawn while they ran


def test_an_error_is_raised_in_the_callers_thread_after_every_job_has_ended():
    ended = []

    def slow():
        time.sleep(0.3)
        ended.append("slow")
        return 1

    def fails():
        raise ValueError("the second job")

    def fails_too():
        raise KeyError("the third job")

    with pytest.raises(ValueError, match="the second job"):  # the first error in the jobs' order
        backend.at_once({"slow": slow, "fails": fails, "too": fails_too}, lambda: None, every=0.05)
    assert ended == ["slow"]


def test_when_the_callers_run_ends_early_the_jobs_are_cancelled_and_waited_for():
    """tick() raising (Streamlit ending the run for a rerun) marks the jobs' work unwanted (their visitor's
    cancelled() turns true, as the engine checks before each step), and at_once raises only once they ended."""
    from model_backend.runtime import queueing

    seen, ended = [], []

    def job():
        while not queueing.unwanted(queueing.visitor()):
            time.sleep(0.01)
        seen.append("cancelled")
        time.sleep(0.2)
        ended.append(1)
        return "late"

    calls = []

    def tick():
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt("the run stops")

    with pytest.raises(KeyboardInterrupt):
        backend.at_once({"a": job, "b": job}, tick, every=0.05)
    assert seen == ["cancelled", "cancelled"] and ended == [1, 1]
    assert backend.at_once({"a": lambda: queueing.unwanted(queueing.visitor())}, lambda: None) == {"a": False}


def test_a_job_draws_no_queue_notice_of_its_own(monkeypatch):
    """A job's siblings hold turns of the model that are the same visitor's: a job says nothing about a queue
    (the caller's notice counts the others' turns); outside a job the notice is drawn."""
    from types import SimpleNamespace

    drawn = []
    monkeypatch.setattr(backend.st, "empty", lambda: drawn.append(1) or SimpleNamespace(info=lambda *a, **k: None,
                                                                                       empty=lambda: None))
    busy = SimpleNamespace(engine=SimpleNamespace(ahead=lambda: (2, 1.5)))

    def job():
        with backend.queue_notice(busy):
            return "quiet"

    assert backend.at_once({"a": job, "b": job}, lambda: None) == {"a": "quiet", "b": "quiet"} and not drawn
    assert job() == "quiet" and drawn == [1]
