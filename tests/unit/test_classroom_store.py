"""The class store's contract, run on both backends: the in-process one (a fake clock) and a real redis-server
(support/redis_server.py, one per module). Two app replicas are two store objects on one state."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from classroom import store as store_module
from classroom.redis_store import RedisStore
from classroom.store import REDIS_URL_ENV, Doc, MemoryStore, Store, open_store
from support import redis_server

BACKENDS = ["memory", "redis"]
THREADS = 50


class FakeClock:
    """Seconds that move only when a test says so."""

    def __init__(self, t: float = 1_800_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@dataclass
class Backend:
    """One backend under test: its store, the clock its timestamps use, a way to open another replica's store,
    and how time passes for its expiry (the fake clock in memory; a real, short wait on Redis)."""

    name: str
    store: Store
    clock: FakeClock
    replica: Callable[[], Store]
    short_ttl_s: float

    def let_expire(self, ttl_s: float | None = None, margin_s: float = 0.15) -> None:
        """Let ttl_s pass (a real wait on Redis), with `margin_s` more on Redis for its expiry to run; a wait meant
        to stay inside a TTL passes margin_s=0."""
        ttl_s = self.short_ttl_s if ttl_s is None else ttl_s
        if self.name == "memory":
            self.clock.advance(ttl_s + 0.001)
        else:
            time.sleep(ttl_s + margin_s)


def start_redis_or_fail():
    """A real redis-server, or a failed test (not a skip) that says how to install it: CI installs it."""
    try:
        return redis_server.start_redis()
    except redis_server.RedisMissing as e:
        missing = str(e)
    pytest.fail(missing, pytrace=False)  # outside `except`: the message alone, no chained traceback


def make_backend(request, name: str):
    """Yield a fresh Backend (an empty store) of that name; `request` gives the module's redis_url."""
    clock = FakeClock()
    if name == "memory":
        memory = MemoryStore(now=clock)
        yield Backend(name, memory, clock, lambda: memory, short_ttl_s=60.0)  # one process: one store
        return
    url = request.getfixturevalue("redis_url")
    opened = [RedisStore.from_url(url, now=clock)]
    opened[0].client.flushdb()

    def replica() -> Store:
        opened.append(RedisStore.from_url(url, now=clock))
        return opened[-1]

    yield Backend(name, opened[0], clock, replica, short_ttl_s=0.5)
    for s in opened:
        s.client.close()


@pytest.fixture(scope="module")
def redis_url():
    proc, url = start_redis_or_fail()
    yield url
    redis_server.stop_redis(proc)


@pytest.fixture(params=BACKENDS)
def backend(request):
    yield from make_backend(request, request.param)


def run_together(n: int, work: Callable[[int], object]) -> list:
    """Run work(0..n-1) on n threads released at the same moment; return results (or exceptions) in order."""
    start, results = threading.Barrier(n), [None] * n

    def run(i: int) -> None:
        start.wait()
        try:
            results[i] = work(i)
        except Exception as e:  # noqa: BLE001 - returned for the test to look at
            results[i] = e

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


# documents

def test_a_document_has_a_version_that_every_write_bumps(backend):
    s = backend.store
    assert s.get_doc("d") == Doc(0, None) and s.version("d") == 0
    assert s.set_doc("d", {"page": "loop", "params": {"t": 0.7, "text": "olá <b>"}}, ttl_s=60) == 1
    assert s.set_doc("d", {"page": "why"}, ttl_s=60) == 2
    assert s.get_doc("d") == Doc(2, {"page": "why"}) and s.version("d") == 2


def test_values_come_back_as_json_gives_them(backend):
    s = backend.store
    s.set_doc("d", {"pair": (1, 2), "n": None, "ok": True}, ttl_s=60)
    assert s.get_doc("d").value == {"pair": [1, 2], "n": None, "ok": True}
    for bad, error in ((object(), TypeError), (float("nan"), ValueError)):
        with pytest.raises(error):
            s.set_doc("d", bad, ttl_s=60)
        with pytest.raises(error):
            s.hset("h", "f", bad, ttl_s=60)
    assert s.get_doc("d").version == 1, "a value that is not JSON changes nothing"
    assert s.hgetall("h") == {}


def test_compare_and_set_writes_only_at_the_expected_version(backend):
    s = backend.store
    assert s.cas_doc("d", 0, "first", ttl_s=60) == 1
    assert s.cas_doc("d", 0, "again", ttl_s=60) is None, "0 means: only if absent"
    assert s.cas_doc("d", 1, "second", ttl_s=60) == 2
    assert s.cas_doc("d", 1, "stale", ttl_s=60) is None
    assert s.get_doc("d") == Doc(2, "second")


def test_bump_moves_the_version_and_keeps_the_value(backend):
    s = backend.store
    assert s.bump("new", ttl_s=60) == 1 and s.get_doc("new") == Doc(1, None)
    s.set_doc("d", [1], ttl_s=60)
    assert s.bump("d", ttl_s=60) == 2 and s.get_doc("d") == Doc(2, [1])


def test_update_doc_applies_the_change_and_may_give_up(backend):
    s = backend.store
    assert s.update_doc("d", lambda v: {"n": (v or {"n": 0})["n"] + 1}, ttl_s=60) == Doc(1, {"n": 1})

    def refuse(value):
        raise LookupError("no")

    with pytest.raises(LookupError):
        s.update_doc("d", refuse, ttl_s=60)
    assert s.get_doc("d") == Doc(1, {"n": 1})


def test_concurrent_updates_and_bumps_lose_nothing(backend):
    """Read-modify-write through update_doc from 50 threads on alternating replicas: every increment lands."""
    stores = [backend.store, backend.replica()]
    results = run_together(THREADS, lambda i: stores[i % 2].update_doc(
        "d", lambda v: {"n": (v or {"n": 0})["n"] + 1}, ttl_s=60))
    assert not [r for r in results if isinstance(r, Exception)]
    assert backend.store.get_doc("d") == Doc(THREADS, {"n": THREADS})
    assert sorted(r.version for r in results) == list(range(1, THREADS + 1)), "each write won exactly once"
    run_together(THREADS, lambda i: stores[i % 2].bump("b", ttl_s=60))
    assert backend.store.version("b") == THREADS


# hashes

def test_hash_fields_are_set_read_and_deleted_one_by_one(backend):
    s = backend.store
    assert s.hgetall("h") == {} and s.hget("h", "a") is None
    s.hset("h", "a", "mat", ttl_s=60)
    s.hset("h", "b", {"nickname": "Ana"}, ttl_s=60)
    s.hset("h", "a", "rug", ttl_s=60)  # a student changes their guess: still one field
    assert s.hgetall("h") == {"a": "rug", "b": {"nickname": "Ana"}} and s.hget("h", "b") == {"nickname": "Ana"}
    assert s.hdel("h", "a", "missing") == 1 and s.hgetall("h") == {"b": {"nickname": "Ana"}}
    assert s.hdel("h", "b") == 1 and s.keys("h") == [], "a hash without fields is gone"


def test_hset_if_writes_only_while_the_guard_is_at_its_version(backend):
    s = backend.store
    assert s.hset_if("h", "a", "x", ttl_s=60, guard="round", guard_version=0), "an absent guard is version 0"
    s.set_doc("round", {"n": 1}, ttl_s=60)
    assert not s.hset_if("h", "b", "late", ttl_s=60, guard="round", guard_version=0)
    assert s.hset_if("h", "b", "y", ttl_s=60, guard="round", guard_version=1)
    assert s.hgetall("h") == {"a": "x", "b": "y"}


def test_fifty_students_writing_at_once_on_two_replicas_lose_nothing(backend):
    stores = [backend.store, backend.replica()]
    run_together(THREADS, lambda i: stores[i % 2].hset("guesses", f"student-{i}", f"guess {i}", ttl_s=60))
    got = backend.store.hgetall("guesses")
    assert len(got) == THREADS and all(got[f"student-{i}"] == f"guess {i}" for i in range(THREADS))


def test_two_replicas_see_each_others_writes(backend):
    a, b = backend.store, backend.replica()
    a.set_doc("d", {"page": "loop"}, ttl_s=60)
    b.hset("h", "s1", "mat", ttl_s=60)
    assert b.get_doc("d") == Doc(1, {"page": "loop"}) and a.hgetall("h") == {"s1": "mat"}
    assert b.cas_doc("d", 1, {"page": "why"}, ttl_s=60) == 2 and a.version("d") == 2
    assert a.hit("limit", 1, 60) and not b.hit("limit", 1, 60), "one count across replicas"


# expiry

def test_every_write_sets_the_time_to_live(backend):
    s, writes = backend.store, 0
    for key, write in (("d1", lambda: s.set_doc("d1", 1, ttl_s=60)),
                       ("d2", lambda: s.cas_doc("d2", 0, 1, ttl_s=60)),
                       ("d3", lambda: s.bump("d3", ttl_s=60)),
                       ("d4", lambda: s.update_doc("d4", lambda v: 1, ttl_s=60)),
                       ("h1", lambda: s.hset("h1", "f", 1, ttl_s=60)),
                       ("h2", lambda: s.hset_if("h2", "f", 1, ttl_s=60, guard="g", guard_version=0)),
                       ("c", lambda: s.hit("c", 5, 60))):
        write()
        assert 0 < s.ttl(key) <= 60, key
        writes += 1
    assert writes == 7
    assert s.ttl("absent") is None and s.keys("") == ["c", "d1", "d2", "d3", "d4", "h1", "h2"]


def test_keys_expire_after_their_time_to_live(backend):
    s, ttl = backend.store, backend.short_ttl_s
    s.set_doc("room:d", {"x": 1}, ttl_s=ttl)
    s.hset("room:h", "student", "Ana", ttl_s=ttl)
    s.hit("room:c", 5, ttl)
    assert len(s.keys("room:")) == 3
    backend.let_expire()
    assert s.get_doc("room:d") == Doc(0, None) and s.hgetall("room:h") == {} and s.hget("room:h", "student") is None
    assert s.keys("room:") == [] and s.ttl("room:d") is None


def test_touch_extends_only_keys_that_exist(backend):
    s, ttl = backend.store, backend.short_ttl_s
    s.set_doc("d", 1, ttl_s=ttl)
    s.touch(["d", "absent"], ttl_s=3600)
    assert s.ttl("d") > ttl and s.keys("absent") == [], "touch creates nothing"
    backend.let_expire()
    assert s.get_doc("d") == Doc(1, 1)
    s.delete("d", "absent")
    assert s.get_doc("d") == Doc(0, None)


def test_memory_store_sweeps_expired_keys_out_of_the_process():
    """A class that ended and is never read again must not stay in a long-running process's memory."""
    clock = FakeClock()
    s = MemoryStore(now=clock)
    for i in range(10):
        s.hset(f"room-{i}", "student", "Ana", ttl_s=60)
    clock.advance(MemoryStore.SWEEP_S + 61)
    s.set_doc("another class", 1, ttl_s=60)  # any write sweeps, at most every SWEEP_S
    assert list(s._data) == ["another class"] and list(s._expires) == ["another class"]


# the rate limiter

def test_rate_limiter_allows_up_to_the_limit_per_window(backend):
    s, window = backend.store, backend.short_ttl_s
    assert [s.hit("join:s1", 3, window) for _ in range(5)] == [True, True, True, False, False]
    assert s.hit("join:s2", 3, window), "each key has its own count"
    assert not s.hit("join:s1", 3, window, cost=0), "a peek sees the spent window"
    backend.let_expire(window)
    assert s.hit("join:s1", 3, window, cost=0) and s.hit("join:s1", 3, window), "a new window starts from 0"


def test_rate_limiter_is_atomic_under_fifty_threads(backend):
    stores = [backend.store, backend.replica()]
    allowed = run_together(THREADS, lambda i: stores[i % 2].hit("global", 20, 60))
    assert allowed.count(True) == 20 and allowed.count(False) == THREADS - 20


# opening the store

def test_open_store_is_memory_by_default_and_redis_with_the_url(monkeypatch, redis_url):
    monkeypatch.setattr(store_module, "_opened", {})
    monkeypatch.delenv(REDIS_URL_ENV, raising=False)
    first = open_store()
    assert isinstance(first, MemoryStore) and open_store() is first, "one MemoryStore per process"
    monkeypatch.setenv(REDIS_URL_ENV, redis_url)
    shared = open_store()
    assert isinstance(shared, RedisStore) and open_store() is shared
    shared.client.flushdb()
    shared.set_doc("seen by all", 1, ttl_s=60)
    assert RedisStore.from_url(redis_url).get_doc("seen by all") == Doc(1, 1)
    shared.client.close()


def test_missing_redis_server_fails_with_the_install_command(monkeypatch):
    monkeypatch.setattr(redis_server, "find_redis_server", lambda: None)
    with pytest.raises(pytest.fail.Exception, match="apt-get install redis-server"):
        start_redis_or_fail()


def test_redis_server_helper_starts_answers_and_stops():
    proc, url = start_redis_or_fail()
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    assert redis_server.ping(port)
    redis_server.stop_redis(proc)
    assert proc.returncode is not None and not redis_server.ping(port)
