"""SharedMemo under many threads at once: every caller gets its own key's value, each key is computed once
while it stays in the memo, and a failed computation leaves nothing behind."""
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from model_backend.runtime.memo import SharedMemo

THREADS = 32


def _hammer(memo: SharedMemo, keys: list, rounds: int, pause: float = 0.0):
    """THREADS threads, released together, each asking for every key in its own order."""
    computed: dict = {}
    count_lock = threading.Lock()
    start = threading.Barrier(THREADS)

    def compute(key):
        with count_lock:
            computed[key] = computed.get(key, 0) + 1
        time.sleep(pause)  # widen the window in which another thread could step in
        return ("value of", key, object())

    def visitor(i):
        start.wait()
        wrong = []
        for _ in range(rounds):
            for key in keys[i % len(keys):] + keys[:i % len(keys)]:
                try:
                    got = memo.get(key, lambda key=key: compute(key))
                except Exception as exc:  # noqa: BLE001 - a lost value shows up as KeyError or RuntimeError
                    wrong.append((key, repr(exc)))
                    continue
                if got[:2] != ("value of", key):
                    wrong.append((key, got[:2]))
        return wrong

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible: a check-then-act race shows up
    try:
        with ThreadPoolExecutor(THREADS) as pool:
            wrong = [w for ws in pool.map(visitor, range(THREADS)) for w in ws]
    finally:
        sys.setswitchinterval(interval)
    return computed, wrong


def test_many_threads_same_keys_compute_each_key_once_and_get_their_own_value():
    memo = SharedMemo(size=16)
    keys = [("model", "bf16", f"prompt {i}") for i in range(16)]
    computed, wrong = _hammer(memo, keys, rounds=5, pause=0.01)
    assert wrong == []  # nothing mixed
    assert computed == {k: 1 for k in keys}  # nothing computed twice, nothing lost
    assert len(memo) == 16


def test_many_threads_more_keys_than_room_never_lose_or_mix_a_value():
    """Evictions all the time (40 keys, room for 8): every call still returns its key's value."""
    memo = SharedMemo(size=8)
    keys = [("model", "bf16", f"prompt {i}", 1.3, 30) for i in range(40)]
    _, wrong = _hammer(memo, keys, rounds=20)
    assert wrong == []
    assert len(memo) == 8


def test_the_same_object_is_shared_and_recently_used_keys_stay():
    memo = SharedMemo(size=2)
    a = memo.get("a", lambda: ["a"])
    assert memo.get("a", lambda: ["other"]) is a
    memo.get("b", lambda: ["b"])
    memo.get("a", lambda: ["other"])  # a is used again: b is the oldest now
    memo.get("c", lambda: ["c"])
    assert memo.get("a", lambda: ["new a"]) is a
    assert memo.get("b", lambda: ["new b"]) == ["new b"]


def test_a_failed_computation_leaves_nothing_and_a_waiting_caller_computes():
    memo = SharedMemo(size=4)
    first_inside, release = threading.Event(), threading.Event()

    def fail():
        first_inside.set()
        release.wait(5)
        raise RuntimeError("interrupted")  # e.g. the visitor's rerun stops the script

    results = {}

    def first():
        try:
            memo.get("k", fail)
        except RuntimeError as exc:
            results["first"] = str(exc)

    def second():
        results["second"] = memo.get("k", lambda: "computed by the second")

    t1 = threading.Thread(target=first)
    t1.start()
    assert first_inside.wait(5)
    t2 = threading.Thread(target=second)
    t2.start()
    time.sleep(0.1)  # the second caller now waits for the first
    release.set()
    t1.join(5)
    t2.join(5)
    assert results == {"first": "interrupted", "second": "computed by the second"}
    assert memo.get("k", lambda: pytest.fail("computed again")) == "computed by the second"


def test_peek_reads_without_computing_or_waiting():
    memo = SharedMemo(size=2)
    assert memo.peek("a") is None
    assert memo.get("a", lambda: 1) == 1 and memo.peek("a") == 1
    memo.get("b", lambda: 2)
    memo.get("c", lambda: 3)  # "a" is the least recently used: dropped
    assert memo.peek("a") is None and memo.peek("c") == 3 and len(memo) == 2


# ---------------------------------------------------------------- cached: the one caching style

def test_cached_keys_by_argument_values_and_leaves_underscore_arguments_out():
    from model_backend.runtime.memo import cached
    calls = []

    @cached(8)
    def f(a, b=2, _extra=None):
        calls.append((a, b))
        return [a, b]

    assert f(1) == [1, 2] and f(1, 2) == [1, 2] and f(a=1, b=2, _extra=object()) == [1, 2]
    assert calls == [(1, 2)]  # the same call by position, by default and by name; _extra is not keyed
    f((1, 2)), f([1, 2]), f(1.0), f(True)  # a tuple and a list, 1 and 1.0 and True: different values, own keys
    assert len(calls) == 5
    assert f.peek([1, 2]) == [[1, 2], 2] and f.peek("never") is None and len(calls) == 5  # peek computes nothing
    f.clear()
    assert f.peek(1) is None


def test_cached_keys_arrays_by_content_and_refuses_what_it_cannot_key():
    import numpy as np

    from model_backend.runtime.memo import cached
    calls = []

    @cached(4)
    def total(values):
        calls.append(1)
        return float(values.sum())

    a = np.arange(6, dtype=np.float32)
    assert total(a) == 15.0 and total(a.copy()) == 15.0 and len(calls) == 1  # equal content: one computation
    total(a.reshape(2, 3)), total(a.astype(np.float64))  # another shape, another dtype: their own keys
    assert len(calls) == 3
    with pytest.raises(TypeError, match="leading _"):
        total(object())


def test_cached_values_are_shared_and_their_arrays_read_only():
    import dataclasses

    import numpy as np

    from model_backend.runtime.memo import cached

    @dataclasses.dataclass(frozen=True)
    class Result:
        probs: np.ndarray
        rows: tuple

    @cached(2)
    def run(n):
        return Result(np.ones(n), (np.zeros(2), {"x": np.zeros(1)}))

    first = run(3)
    assert run(3) is first  # every caller gets the same object, not a copy
    for array in (first.probs, first.rows[0], first.rows[1]["x"]):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 5  # a caller cannot change what every other visitor reads

    @cached(2, seal_values=False)
    def tool(n):
        return np.zeros(n)

    tool(2)[0] = 1  # an object that is used, not read, stays writable


def test_cached_values_expire_after_ttl(monkeypatch):
    from model_backend.runtime import memo as memo_mod
    now = [100.0]
    monkeypatch.setattr(memo_mod.time, "monotonic", lambda: now[0])
    calls = []

    @memo_mod.cached(4, ttl=10)
    def f(x):
        calls.append(x)
        return x

    f(1)
    now[0] += 9
    f(1)
    assert calls == [1] and f.peek(1) == 1
    now[0] += 2  # 11 s after it was made
    assert f.peek(1) is None
    f(1)
    assert calls == [1, 1]
