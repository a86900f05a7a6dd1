"""The engine's lock, which serves its waiters in turn and says how many are waiting, and who the work is for.

threading.Lock gives no order: under load a late request can overtake an early one. FairLock, the engine's,
serves visitors in turn (round-robin), so that one visitor's many requests cannot fill the queue, and requests
of nobody in particular in arrival order. Pages can show "n requests ahead of yours".

`Visitor` (set for a context with serve(), else found by the resolver the UI registers: the session of the
calling thread's script run) says whose work a thread does and whether it is still wanted: the engine skips and ends the work of a visitor who left or whose page reran to something else
(`Cancelled`).
"""
from __future__ import annotations

import itertools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from contextvars import ContextVar
from dataclasses import dataclass


class FairLock:
    """Mutual exclusion that serves visitors in turn: round-robin over owners, first come first served within one.

    acquire(owner) queues a request of `owner` (any hashable). When the lock is free, the waiting request whose
    owner was served least recently goes next (an owner never served comes first), the earliest of that owner's.
    So a visitor with several requests waiting takes one turn while every other waiting visitor takes one, instead
    of holding the lock for all of them in a row. A request without an owner (None: the warm-up, a bench, a test)
    ranks as if its owner had been served when it arrived: it waits behind the visitors not served since, and
    requests without an owner keep their arrival order among themselves; they are not remembered.

    acquire(owner, abandon) gives up (returns False, out of the queue) once abandon() is true: it is checked every
    `poll` seconds and whenever wake() is called (the engine calls it when it ran or dropped a waiting step).
    """

    REMEMBERED = 4096  # owners whose last turn is kept (the least recently served are forgotten first)

    def __init__(self, poll: float = 0.2) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._tickets = itertools.count()
        self._turn = 0  # turns granted so far
        self._waiting: list[tuple[int, object, int]] = []  # (ticket, owner or None, the turn at arrival)
        self._holder: int | None = None  # the ticket holding the lock
        self._last: OrderedDict = OrderedDict()  # owner -> the turn it was last served in
        self.poll = poll

    def acquire(self, owner: object = None, abandon: Callable[[], bool] | None = None) -> bool:
        with self._cond:
            ticket = next(self._tickets)
            self._waiting.append((ticket, owner, self._turn))
            self._grant()
            while self._holder != ticket:
                if abandon is not None and abandon():
                    self._waiting = [w for w in self._waiting if w[0] != ticket]
                    return False
                self._cond.wait(self.poll if abandon is not None else None)
            return True

    def _rank(self, waiter: tuple[int, object, int]) -> tuple[int, int]:
        ticket, owner, arrived = waiter
        return (arrived if owner is None else self._last.get(owner, -1)), ticket

    def _grant(self) -> None:
        if self._holder is not None or not self._waiting:
            return
        chosen = min(self._waiting, key=self._rank)
        self._waiting.remove(chosen)
        ticket, owner, _ = chosen
        self._holder = ticket
        self._turn += 1
        if owner is not None:
            self._last[owner] = self._turn
            self._last.move_to_end(owner)
            while len(self._last) > self.REMEMBERED:
                self._last.popitem(last=False)
        self._cond.notify_all()

    def wake(self) -> None:
        """Let waiting requests check whether they may give up now."""
        with self._cond:
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


_visitor: ContextVar[Visitor | None] = ContextVar("tbt_visitor", default=None)
_resolver: list[Callable[[], Visitor | None]] = []  # the UI's: the visitor of the calling thread's script run
NOBODY = Visitor()


def resolve_with(fn: Callable[[], Visitor | None]) -> None:
    """Where visitor() looks when this context was not told (serve): the UI gives the visitor of the script run
    the calling thread belongs to, so that a fragment's own run (a "Next token" click) is that visitor's too."""
    _resolver[:] = [fn]


def visitor() -> Visitor:
    """The visitor the calling code works for: the one serve() set in this context, else the resolver's, else
    nobody in particular."""
    who = _visitor.get()
    if who is None and _resolver:
        try:
            who = _resolver[0]()
        except Exception:  # noqa: BLE001  a resolver that fails makes the work nobody's, never an error
            who = None
    return who or NOBODY


def unwanted(who: Visitor) -> bool:
    """who.cancelled(), and False if the check itself fails: one visitor's check never breaks another's pass."""
    try:
        return bool(who.cancelled())
    except Exception:  # noqa: BLE001
        return False


def serve(who: Visitor) -> None:
    """Work done from here on in this context is for `who` (copy_context() carries it into another thread)."""
    _visitor.set(who)
