"""The model's lock serves requests of nobody in particular in arrival order and counts who is waiting (the order
between visitors: test_fairness.py)."""
import threading
import time

from model_backend.runtime.queueing import FairLock


def test_waiters_are_served_in_arrival_order_and_counted():
    lock = FairLock()
    order, started = [], []
    lock.acquire()  # someone is running a forward pass
    assert lock.locked() and lock.queued == 1

    def visitor(i):
        started.append(i)
        with lock:
            order.append(i)

    threads = []
    for i in range(6):
        th = threading.Thread(target=visitor, args=(i,))
        th.start()
        threads.append(th)
        deadline = time.monotonic() + 10  # a visitor that never takes its ticket fails here, not by hanging
        while lock.queued < i + 2:  # wait until this visitor has taken its ticket before the next arrives
            assert time.monotonic() < deadline, f"visitor {i} took no ticket in 10 s (queued={lock.queued})"
            time.sleep(0.001)
    assert lock.queued == 7  # one holder + six waiting
    lock.release()
    for th in threads:
        th.join(5)
    assert not any(th.is_alive() for th in threads), "a visitor still waits for the lock"
    assert order == list(range(6))
    assert not lock.locked() and lock.queued == 0


def test_a_released_lock_can_be_taken_again_and_works_as_a_context_manager():
    lock = FairLock()
    for _ in range(3):
        with lock:
            assert lock.locked()
    assert not lock.locked()
