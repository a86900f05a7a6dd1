"""The project's one caching style: `@cached(size)`, a bounded memo that many visitors' threads share. Each key
is computed once, by the first caller, while the others wait for its value; nothing is lost or mixed.

    @cached(size=64)
    def tokenize(tokenizer_key: str, text: str, _tokenizer) -> Tokenization: ...

    tokenize("gemma", "Olá", tok)        # computed, then kept
    tokenize.peek("gemma", "Olá", tok)   # the value if it is kept now, else None: computes nothing, waits for nothing
    tokenize.clear()

The key is the function's arguments by name, as values (a list and a tuple of the same items differ; an array is
keyed by its dtype, shape and bytes). A parameter whose name starts with "_" is left out of the key: a callback,
or a large object that another argument already names. Values are shared, not copied: with `seal=True` (the
default), arrays found in a value are made read-only, so a caller that tried to change one fails loudly instead of
changing every other visitor's copy. ui.backend.on_model builds the model's computations on the same memo, keyed
by model and dtype too. No Streamlit here: model_backend and the pages' compute modules use it alike.
"""
from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import inspect
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np


class SharedMemo:
    """Values by key, least recently used dropped past `size` (and, with `ttl`, after ttl seconds). Safe to call
    from many threads at once.

    get(key, compute) returns the value for key, computing it at most once while it stays in the memo:
    callers asking for the same key wait for the first one's result; other keys go on meanwhile. The value
    returned is always the one computed for this key, even when another thread evicts it at once.
    """

    def __init__(self, size: int, ttl: float | None = None) -> None:
        self.size, self.ttl = size, ttl
        self._values: OrderedDict[Hashable, tuple[float, Any]] = OrderedDict()  # key -> (made at, value)
        self._lock = threading.Lock()  # guards _values and _computing, never held while computing
        self._computing: dict[Hashable, threading.Lock] = {}  # one lock per key being computed

    def _fresh(self, key: Hashable) -> bool:
        """Whether key holds a value that has not expired (an expired one is dropped). Called under _lock."""
        if key not in self._values:
            return False
        if self.ttl is not None and time.monotonic() - self._values[key][0] > self.ttl:
            del self._values[key]
            return False
        return True

    def get(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        while True:
            with self._lock:
                if self._fresh(key):
                    self._values.move_to_end(key)
                    return self._values[key][1]
                key_lock = self._computing.setdefault(key, threading.Lock())
            with key_lock:  # the first caller computes; the others wait here, then find the value
                with self._lock:
                    if self._fresh(key):
                        return self._values[key][1]
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
                    self._values[key] = (time.monotonic(), value)
                    self._values.move_to_end(key)
                    while len(self._values) > self.size:
                        self._values.popitem(last=False)
                return value

    def peek(self, key: Hashable) -> Any | None:
        """The value for key if it is in the memo now, else None (computes nothing, waits for nothing)."""
        with self._lock:
            return self._values[key][1] if self._fresh(key) else None

    def clear(self) -> None:
        with self._lock:
            self._values.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._values)


def freeze(value: Any) -> Hashable:
    """A hashable key for an argument's value: equal for equal values of the same type."""
    if value is None or isinstance(value, (str, bytes, bool, int, float, complex)):
        return type(value).__name__, value
    if isinstance(value, (tuple, list)):
        return type(value).__name__, tuple(freeze(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return "set", tuple(sorted((freeze(v) for v in value), key=repr))
    if isinstance(value, dict):
        return "dict", tuple(sorted(((freeze(k), freeze(v)) for k, v in value.items()), key=repr))
    if isinstance(value, np.ndarray):
        data = np.ascontiguousarray(value).tobytes()
        return "ndarray", value.dtype.str, value.shape, hashlib.blake2b(data, digest_size=16).digest()
    if isinstance(value, np.generic):
        return type(value).__name__, value.item()
    if isinstance(value, enum.Enum):
        return type(value).__qualname__, value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return type(value).__qualname__, tuple((f.name, freeze(getattr(value, f.name)))
                                               for f in dataclasses.fields(value))
    raise TypeError(f"cannot key an argument of type {type(value).__name__}: name its parameter with a leading _ "
                    "to leave it out of the key")


def seal(value: Any, _depth: int = 0) -> Any:
    """Make the arrays in a value read-only (through tuples, lists, dicts and dataclasses), and return the value."""
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
    elif _depth > 6 or isinstance(value, (str, bytes, int, float, type(None))):
        pass
    elif isinstance(value, (tuple, list)):
        if value and isinstance(value[0], (str, int, float)) and len(value) > 64:
            return value  # a long run of plain numbers or words holds no array
        for v in value:
            seal(v, _depth + 1)
    elif isinstance(value, dict):
        for v in value.values():
            seal(v, _depth + 1)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            seal(getattr(value, f.name), _depth + 1)
    return value


def key_maker(fn: Callable, skip: int = 0) -> Callable[[tuple, dict], Hashable]:
    """args, kwargs of a call to fn -> its key: the arguments by name, but the first `skip` parameters and those
    whose names start with "_"."""
    signature = inspect.signature(fn)
    names = list(signature.parameters)[skip:]
    tail = signature.replace(parameters=list(signature.parameters.values())[skip:])

    def key(args: tuple, kwargs: dict) -> Hashable:
        bound = tail.bind(*args, **kwargs)
        bound.apply_defaults()
        return tuple((n, freeze(bound.arguments[n])) for n in names if not n.startswith("_"))

    return key


def cached(size: int, ttl: float | None = None, seal_values: bool = True):
    """Decorator: fn's values kept in a SharedMemo of `size`, keyed by its arguments (see the module's text);
    the function gains .peek(*args, **kwargs) and .clear()."""
    def wrap(fn: Callable) -> Callable:
        memo, key = SharedMemo(size, ttl), key_maker(fn)

        @functools.wraps(fn)
        def call(*args, **kwargs):
            def compute():
                value = fn(*args, **kwargs)
                return seal(value) if seal_values else value
            return memo.get(key(args, kwargs), compute)

        call.peek = lambda *args, **kwargs: memo.peek(key(args, kwargs))
        call.clear = memo.clear
        call.memo = memo
        return call

    return wrap
