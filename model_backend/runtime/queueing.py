"""Locks that serve their waiters in order and say how many are waiting, and who the work is for.

threading.Lock gives no order: under load a late request can overtake an early one. FifoLock serves first come
first served; FairLock, the engine's, serves visitors in turn (round-robin), so that one visitor's many requests
cannot fill the queue. Pages can show "n requests ahead of yours".

`Visitor` (a context variable the UI sets for each script run) says whose work a thread does and whether it is
still wanted: the engine skips and ends the work of a visitor who left or whose page reran to something else
(`Cancelled`).
"""
from __future__ import annotations

import itertools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from contextvars import ContextVar
from dataclasses import dataclass


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


class FairLock:
    """Mutual exclusion that serves visitors in turn: round-robin over owners, first come first served within one.

    acquire(owner) queues a request of `owner` (any hashable; None: a request of its own, as FifoLock's). When the
    lock is free, the waiting request whose owner was served least recently goes next (an owner never served comes
    first), the earliest of that owner's. So a visitor with several requests waiting takes one turn while every
    other waiting visitor takes one, instead of holding the lock for all of them in a row.
    """

    REMEMBERED = 4096  # owners whose last turn is kept (the least recently served are forgotten first)

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._tickets = itertools.count()
        self._turns = itertools.count()
        self._waiting: list[tuple[int, object]] = []  # (ticket, owner) in arrival order
        self._holder: int | None = None  # the ticket holding the lock
        self._last: OrderedDict = OrderedDict()  # owner -> the turn it was last served in

    def acquire(self, owner: object = None) -> None:
        with self._cond:
            ticket = next(self._tickets)
            self._waiting.append((ticket, ("ticket", ticket) if owner is None else owner))
            self._grant()
            while self._holder != ticket:
                self._cond.wait()

    def _grant(self) -> None:
        if self._holder is not None or not self._waiting:
            return
        ticket, owner = min(self._waiting, key=lambda w: (self._last.get(w[1], -1), w[0]))
        self._waiting.remove((ticket, owner))
        self._holder = ticket
        self._last[owner] = next(self._turns)
        self._last.move_to_end(owner)
        while len(self._last) > self.REMEMBERED:
            self._last.popitem(last=False)
        self._cond.notify_all()

    def release(self) -> None:
        with self._cond:
            self._holder = None
            self._grant()

    def __enter__(self) -> FairLock:
        self.acquire(visitor().owner)
        return self

    def __exit__(self, *exc) -> None:
        self.release()

    def locked(self) -> bool:
        """True while someone holds the lock."""
        with self._cond:
            return self._holder is not None

    @property
    def queued(self) -> int:
        """How many requests hold or wait for the lock right now (0 when it is free)."""
        with self._cond:
            return len(self._waiting) + (self._holder is not None)


# ---------------------------------------------------------------- who asks, and whether they still want it


class Cancelled(Exception):
    """The visitor who asked for this work left, or their page moved on: it was not done (or not finished)."""


@dataclass(frozen=True)
class Visitor:
    """Who the work in this context is for: `owner` (a session's id; None: nobody in particular) and
    `cancelled()`, true once the work is no longer wanted (checked before each turn and each step)."""

    owner: Hashable | None = None
    cancelled: Callable[[], bool] = lambda: False
    error: Callable[[], BaseException] = Cancelled  # what the visitor's thread raises then (the UI's own kind)


_visitor: ContextVar[Visitor] = ContextVar("tbt_visitor", default=Visitor())  # noqa: B039  frozen


def visitor() -> Visitor:
    """The visitor the calling code works for (a context variable: the UI sets it for each script run)."""
    return _visitor.get()


def serve(who: Visitor) -> None:
    """Work done from here on in this context is for `who` (copy_context() carries it into another thread)."""
    _visitor.set(who)


def check() -> None:
    """Raise the visitor's Cancelled if the visitor of this context no longer wants the work."""
    who = visitor()
    if who.cancelled():
        raise who.error()
