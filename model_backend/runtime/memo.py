"""A bounded memo that many visitors' threads share: each key is computed once, nothing is lost or mixed."""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any


class SharedMemo:
    """Values by key, least recently used dropped past `size`. Safe to call from many threads at once.

    get(key, compute) returns the value for key, computing it at most once while it stays in the memo:
    callers asking for the same key wait for the first one's result; other keys go on meanwhile. The value
    returned is always the one computed for this key, even when another thread evicts it at once.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()  # guards _values and _computing, never held while computing
        self._computing: dict[Hashable, threading.Lock] = {}  # one lock per key being computed

    def get(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        while True:
            with self._lock:
                if key in self._values:
                    self._values.move_to_end(key)
                    return self._values[key]
                key_lock = self._computing.setdefault(key, threading.Lock())
            with key_lock:  # the first caller computes; the others wait here, then find the value
                with self._lock:
                    if key in self._values:
                        return self._values[key]
                    if self._computing.get(key) is not key_lock:
                        continue  # a stale lock (its owner failed and left): ask again
                try:
                    value = compute()
                except BaseException:  # a rerun or st.stop() interrupts too: the next caller computes
                    with self._lock:
                        self._computing.pop(key, None)
                    raise
                with self._lock:
                    self._computing.pop(key, None)
                    self._values[key] = value
                    self._values.move_to_end(key)
                    while len(self._values) > self.size:
                        self._values.popitem(last=False)
                return value

    def peek(self, key: Hashable) -> Any | None:
        """The value for key if it is in the memo now, else None (computes nothing, waits for nothing)."""
        with self._lock:
            return self._values.get(key)

    def __len__(self) -> int:
        with self._lock:
            return len(self._values)
