"""ui/turns.py: following phones' page runs take turns after the page's title; nothing else ever waits."""
from __future__ import annotations

import threading
import time

import pytest

from ui import turns


def _run(armed: bool, log: list, name: str, hold: threading.Event, fail: bool = False) -> None:
    try:
        with turns.page_turn(armed):
            log.append(("title", name))  # drawn before the turn
            turns.wait_turn()
            log.append(("drawing", name))
            hold.wait(10)
            if fail:
                raise RuntimeError("a rerun or a switch ends the run")
    except RuntimeError:
        pass
    log.append(("ended", name))


def _started(log: list, kind: str) -> set:
    return {name for k, name in log if k == kind}


def test_only_turns_runs_draw_at_once_and_the_rest_waits_after_the_title():
    log, hold = [], threading.Event()
    n = turns.TURNS + 2
    threads = [threading.Thread(target=_run, args=(True, log, f"phone{i}", hold, i == 0)) for i in range(n)]
    for th in threads:
        th.start()
    deadline = time.monotonic() + 5
    while len(_started(log, "title")) < n and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.2)
    assert len(_started(log, "title")) == n  # every phone shows the page's title at once
    assert len(_started(log, "drawing")) == turns.TURNS  # and TURNS of them draw the rest
    hold.set()  # they end (one by an exception): the places pass on
    for th in threads:
        th.join(10)
    assert len(_started(log, "ended")) == n and len(_started(log, "drawing")) == n
    assert turns._places.acquire(blocking=False) and turns._places.acquire(blocking=False)  # every place came back
    turns._places.release()
    turns._places.release()


def test_runs_that_are_not_armed_never_wait():
    log, hold = [], threading.Event()
    hold.set()
    for _ in range(turns.TURNS):
        turns._places.acquire()  # every place taken
    try:
        started = time.monotonic()
        _run(False, log, "teacher", hold)
        turns.wait_turn()  # outside any page_turn: nothing to wait for
        assert time.monotonic() - started < 1 and ("drawing", "teacher") in log
    finally:
        for _ in range(turns.TURNS):
            turns._places.release()


def test_a_run_waits_at_most_wait_s_then_draws(monkeypatch):
    monkeypatch.setattr(turns, "WAIT_S", 0.2)
    log, hold = [], threading.Event()
    hold.set()
    for _ in range(turns.TURNS):
        turns._places.acquire()
    try:
        started = time.monotonic()
        _run(True, log, "late", hold)
        assert 0.15 < time.monotonic() - started < 2 and ("drawing", "late") in log
    finally:
        for _ in range(turns.TURNS):
            turns._places.release()
    with pytest.raises(ValueError):
        turns._places.release()  # the late run gave back no place it did not hold


@pytest.mark.parametrize("me, page, waits", [
    ({"role": "student", "following": True}, "pipeline", True),
    ({"role": "student", "following": True}, "live", False),  # the class page: its own panels, no turns
    ({"role": "student", "following": False}, "pipeline", False),  # exploring alone
    ({"role": "teacher"}, "pipeline", False),
    (None, "pipeline", False),  # a visitor alone
])
def test_only_a_following_phone_s_lesson_page_takes_turns(monkeypatch, me, page, waits):
    from ui.live_class import place

    monkeypatch.setattr(place, "current", lambda: me)
    assert place.takes_turns(page) is waits
