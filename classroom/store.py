"""Where a live class's state lives: one small store interface, in-process (default) or Redis (TBT_REDIS_URL)."""
from __future__ import annotations

import abc
import json
import math
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

REDIS_URL_ENV = "TBT_REDIS_URL"
JSON = Any  # what json.loads returns: dict, list, str, int, float, bool or None


@dataclass(frozen=True)
class Doc:
    """A JSON document and its version: 0 while the key does not exist, then +1 on every write."""

    version: int
    value: JSON  # None when the key does not exist (or only its version was bumped)


class ContentionError(RuntimeError):
    """update_doc lost its compare-and-set too many times in a row."""


def dumps(value: JSON) -> str:
    """The one JSON encoding both backends store: compact, UTF-8 as is, no NaN (not JSON)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


class Store(abc.ABC):
    """The store's contract, the same on both backends (tests/unit/test_classroom_store.py runs it on each).

    Three kinds of key, each written atomically, so that app replicas sharing one Redis never lose an update:
    - a document (`get_doc`, `version`, `set_doc`, `cas_doc`, `update_doc`, `bump`): one JSON value with a version;
    - a hash (`hset`, `hset_if`, `hget`, `hgetall`, `hdel`): JSON values by field, one field per student, so
      that students writing at once never overwrite each other;
    - a rate-limit counter (`hit`).
    Every write takes `ttl_s` and (re)sets the key's time to live: no key lives forever. Values go through
    JSON on both backends, so what is read back is what json gives (a tuple comes back as a list).
    `now()` is the clock the caller's timestamps use (wall-clock seconds; injectable for tests).
    """

    now: Callable[[], float]

    # documents

    @abc.abstractmethod
    def get_doc(self, key: str) -> Doc:
        """The document at key, Doc(0, None) when there is none."""

    def version(self, key: str) -> int:
        """The document's version alone (0 when absent): what a phone polls."""
        return self.get_doc(key).version

    @abc.abstractmethod
    def set_doc(self, key: str, value: JSON, *, ttl_s: float) -> int:
        """Write the document and bump its version in one step; return the new version."""

    @abc.abstractmethod
    def cas_doc(self, key: str, expected_version: int, value: JSON, *, ttl_s: float) -> int | None:
        """Write only if the version is still `expected_version` (0: only if absent); the new version, or None."""

    @abc.abstractmethod
    def bump(self, key: str, *, ttl_s: float) -> int:
        """Add 1 to the version without changing the value (Redis HINCRBY); return the new version."""

    def update_doc(self, key: str, change: Callable[[JSON], JSON], *, ttl_s: float, tries: int = 100) -> Doc:
        """Read, change, compare-and-set, again from the read if another writer came first; return what won.

        `change(value)` gets the current value (None when absent) and returns the new one; it may run more
        than once, so it must not have side effects, and it may raise to give up. ContentionError after
        `tries` lost races (each loss means another writer succeeded, so someone always makes progress)."""
        for _ in range(tries):
            doc = self.get_doc(key)
            new = change(doc.value)
            version = self.cas_doc(key, doc.version, new, ttl_s=ttl_s)
            if version is not None:
                return Doc(version, json.loads(dumps(new)))
        raise ContentionError(f"{key}: {tries} writers in a row came first; try again")

    # hashes

    @abc.abstractmethod
    def hset(self, key: str, field: str, value: JSON, *, ttl_s: float) -> None:
        """Set one field (others untouched)."""

    @abc.abstractmethod
    def hset_if(self, key: str, field: str, value: JSON, *, ttl_s: float, guard: str, guard_version: int) -> bool:
        """Set one field only while the document at `guard` is at `guard_version`, in one step; True if set.

        This is how a late write is refused: a guess lands only in the round it was made for, even when the
        teacher's reveal (which bumps the round's version) happens on another replica at the same moment."""

    @abc.abstractmethod
    def hget(self, key: str, field: str) -> JSON:
        """One field's value, None when absent."""

    @abc.abstractmethod
    def hgetall(self, key: str) -> dict[str, JSON]:
        """Every field, {} when the key does not exist."""

    @abc.abstractmethod
    def hdel(self, key: str, *fields: str) -> int:
        """Remove fields; return how many existed. The key keeps its time to live."""

    # every kind

    @abc.abstractmethod
    def touch(self, keys: Iterable[str], *, ttl_s: float) -> None:
        """Reset the time to live of the keys that exist (the others stay absent)."""

    @abc.abstractmethod
    def delete(self, *keys: str) -> None:
        """Remove keys now."""

    @abc.abstractmethod
    def hit(self, key: str, limit: int, window_s: float, cost: int = 1) -> bool:
        """Count `cost` against a fixed window, in one step; True while the window's total is at most `limit`.

        The window starts at the first hit and lasts `window_s`; then the count starts again from 0. A hit that
        is refused still counts (it does not extend the window). `cost=0` asks without spending."""

    @abc.abstractmethod
    def keys(self, prefix: str) -> list[str]:
        """The live keys that start with prefix, sorted (for tests and operators; SCAN on Redis)."""

    @abc.abstractmethod
    def ttl(self, key: str) -> float | None:
        """Seconds the key has left; math.inf if it has no expiry; None if it does not exist."""


class MemoryStore(Store):
    """The in-process backend: one dict, one lock, Redis's data model (documents are hashes {"v", "json"}).

    Expired keys vanish when next read and in a sweep at most every SWEEP_S of the clock, during writes, so
    that a class that ended leaves nothing behind in a long-running process."""

    SWEEP_S = 30.0

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        self.now = now
        self._lock = threading.RLock()
        self._data: dict[str, dict[str, str] | int] = {}  # key -> hash (field -> JSON text) or counter
        self._expires: dict[str, float] = {}  # key -> the clock's time at which it is gone
        self._swept = now()

    # the Redis-like core, always called with the lock held

    def _live(self, key: str) -> dict[str, str] | int | None:
        if key in self._expires and self.now() >= self._expires[key]:
            self._drop(key)
        return self._data.get(key)

    def _drop(self, key: str) -> None:
        self._data.pop(key, None)
        self._expires.pop(key, None)

    def _hash(self, key: str) -> dict[str, str]:
        """The hash at key, created empty when absent (the caller writes it and sets its expiry)."""
        found = self._live(key)
        if isinstance(found, int):
            raise TypeError(f"{key} holds a counter, not a hash")
        return self._data.setdefault(key, {}) if found is None else found

    def _expire(self, key: str, ttl_s: float) -> None:
        self._expires[key] = self.now() + ttl_s
        if self.now() - self._swept >= self.SWEEP_S:
            self._sweep()

    def _sweep(self) -> None:
        self._swept = now = self.now()
        for key in [k for k, at in self._expires.items() if now >= at]:
            self._drop(key)

    # documents

    def get_doc(self, key: str) -> Doc:
        with self._lock:
            found = self._live(key)
            if not isinstance(found, dict) or "v" not in found:
                return Doc(0, None)
            return Doc(int(found["v"]), json.loads(found["json"]) if "json" in found else None)

    def _write_doc(self, key: str, value: JSON | None, ttl_s: float, *, keep: bool = False) -> int:
        text = None if keep else dumps(value)  # encode first: a value that is not JSON changes nothing
        h = self._hash(key)
        h["v"] = str(int(h.get("v", "0")) + 1)
        if text is not None:
            h["json"] = text
        self._expire(key, ttl_s)
        return int(h["v"])

    def set_doc(self, key: str, value: JSON, *, ttl_s: float) -> int:
        with self._lock:
            return self._write_doc(key, value, ttl_s)

    def cas_doc(self, key: str, expected_version: int, value: JSON, *, ttl_s: float) -> int | None:
        with self._lock:
            if self.get_doc(key).version != expected_version:
                return None
            return self._write_doc(key, value, ttl_s)

    def bump(self, key: str, *, ttl_s: float) -> int:
        with self._lock:
            return self._write_doc(key, None, ttl_s, keep=True)

    # hashes

    def hset(self, key: str, field: str, value: JSON, *, ttl_s: float) -> None:
        text = dumps(value)
        with self._lock:
            self._hash(key)[field] = text
            self._expire(key, ttl_s)

    def hset_if(self, key: str, field: str, value: JSON, *, ttl_s: float, guard: str, guard_version: int) -> bool:
        text = dumps(value)
        with self._lock:
            if self.get_doc(guard).version != guard_version:
                return False
            self._hash(key)[field] = text
            self._expire(key, ttl_s)
            return True

    def hget(self, key: str, field: str) -> JSON:
        with self._lock:
            found = self._live(key)
            text = found.get(field) if isinstance(found, dict) else None
        return None if text is None else json.loads(text)

    def hgetall(self, key: str) -> dict[str, JSON]:
        with self._lock:
            found = self._live(key)
            texts = dict(found) if isinstance(found, dict) else {}
        return {field: json.loads(text) for field, text in texts.items()}

    def hdel(self, key: str, *fields: str) -> int:
        with self._lock:
            found = self._live(key)
            if not isinstance(found, dict):
                return 0
            removed = sum(found.pop(f, None) is not None for f in fields)
            if not found:  # Redis removes a hash whose last field goes
                self._drop(key)
            return removed

    # every kind

    def touch(self, keys: Iterable[str], *, ttl_s: float) -> None:
        with self._lock:
            for key in keys:
                if self._live(key) is not None:
                    self._expire(key, ttl_s)

    def delete(self, *keys: str) -> None:
        with self._lock:
            for key in keys:
                self._drop(key)

    def hit(self, key: str, limit: int, window_s: float, cost: int = 1) -> bool:
        with self._lock:
            found = self._live(key)
            if isinstance(found, dict):
                raise TypeError(f"{key} holds a hash, not a counter")
            if found is None:
                self._expire(key, window_s)
            self._data[key] = count = (found or 0) + cost
            return count <= limit

    def keys(self, prefix: str) -> list[str]:
        with self._lock:
            return sorted(k for k in list(self._data) if k.startswith(prefix) and self._live(k) is not None)

    def ttl(self, key: str) -> float | None:
        with self._lock:
            if self._live(key) is None:
                return None
            return self._expires[key] - self.now() if key in self._expires else math.inf


_opened: dict[str, Store] = {}
_opened_lock = threading.Lock()


def open_store() -> Store:
    """The process's store: RedisStore(TBT_REDIS_URL) when that is set (shared by every replica), else one
    MemoryStore for the whole process (a class then lives in this replica only). The same object every call."""
    url = os.environ.get(REDIS_URL_ENV, "").strip()
    with _opened_lock:
        if url not in _opened:
            if url:
                from classroom.redis_store import RedisStore

                _opened[url] = RedisStore.from_url(url)
            else:
                _opened[url] = MemoryStore()
        return _opened[url]
