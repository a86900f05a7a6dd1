"""A lock that serves its waiters in arrival order and says how many are waiting.

threading.Lock gives no order: under load a late request can overtake an early one. The model's forward
passes queue here instead, first come first served, and pages can show "n requests ahead of yours".
"""
from __future__ import annotations

import itertools
import threading


class FifoLock:
    """Mutual exclusion with tickets: acquire() waits until every earlier ticket has released."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._tickets = itertools.count()
        self._serving = 0  # the ticket that may hold the lock now
        self._issued = 0  # tickets handed out so far

    def acquire(self) -> None:
        with self._cond:
            ticket = next(self._tickets)
            self._issued = ticket + 1
            while ticket != self._serving:
                self._cond.wait()

    def release(self) -> None:
        with self._cond:
            self._serving += 1
            self._cond.notify_all()

    def __enter__(self) -> FifoLock:
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()

    def locked(self) -> bool:
        """True while someone holds the lock."""
        with self._cond:
            return self._issued > self._serving

    @property
    def queued(self) -> int:
        """How many requests hold or wait for the lock right now (0 when it is free)."""
        with self._cond:
            return self._issued - self._serving
