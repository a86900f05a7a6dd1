"""Live training runs in its own process: it finishes, stops on request, stops when nobody watches."""
import time

import numpy as np
import torch

from model_backend.lessons.grokking import BackgroundRun, GrokConfig, train
from model_backend.lessons.grokking.live import MAX_RUNS, busy


def _wait(*runs: BackgroundRun, touch: bool = True, timeout: float = 300) -> None:
    """Wait for the runs to end, saying "still watching" to each of them (unless touch=False)."""
    end = time.monotonic() + timeout
    while any(r.running for r in runs) and time.monotonic() < end:
        for r in runs:
            if touch:
                r.touch()
        time.sleep(0.2)
    assert not any(r.running for r in runs), "the run did not end in time"


def test_a_run_in_its_own_process_gives_the_same_numbers_as_training_here():
    """Same machine, same seed, same thread count: the child process repeats this process bit for bit
    (another thread count or another CPU would sum in another order; see README "Floats across machines")."""
    cfg = GrokConfig(p=23, max_steps=60, seed=4)
    run = BackgroundRun(cfg, threads=1)
    assert run.start()
    _wait(run)
    assert run.state == "done", run.error
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as the child trains
    try:
        here = list(train(cfg))
    finally:
        torch.set_num_threads(threads)
    assert [s.step for s in run.snapshots] == [s.step for s in here]
    for a, b in zip(run.snapshots, here):
        assert (a.train_loss, a.train_acc, a.test_loss, a.test_acc) == (b.train_loss, b.train_acc, b.test_loss, b.test_acc)
    np.testing.assert_array_equal(run.snapshots[-1].embedding, here[-1].embedding)
    assert len(run.times) == len(run.snapshots) and run.times == sorted(run.times)


def test_a_short_run_in_a_process_is_deterministic_for_a_seed():
    runs = [BackgroundRun(GrokConfig(p=31, model="transformer", max_steps=15, seed=7)) for _ in range(2)]
    for run in runs:  # two at once: both slots
        assert run.start()
    assert busy() == (MAX_RUNS == 2)
    assert not BackgroundRun(GrokConfig(p=23, max_steps=5)).start()  # a third is refused while both train
    _wait(*runs)
    assert [r.state for r in runs] == ["done", "done"]
    a, b = (r.snapshots for r in runs)
    assert [(s.step, s.train_loss, s.test_acc) for s in a] == [(s.step, s.train_loss, s.test_acc) for s in b]
    assert not busy()


def test_stop_ends_the_run_with_a_last_checkpoint():
    run = BackgroundRun(GrokConfig(p=97, max_steps=10000))
    assert run.start()
    while run.running and len(run.snapshots) < 3:
        run.touch()
        time.sleep(0.1)
    run.stop()
    _wait(run)
    assert run.state == "stopped"
    assert run.snapshots[-1].step < 10000 and run.snapshots[-1].embedding is not None


def test_a_run_nobody_watches_stops_by_itself():
    run = BackgroundRun(GrokConfig(p=97, max_steps=10000), idle_timeout=1.0)
    assert run.start()
    _wait(run, touch=False)
    assert run.state == "abandoned"


def test_a_run_stops_at_its_time_limit():
    run = BackgroundRun(GrokConfig(p=97, max_steps=10000), max_seconds=3.0)
    assert run.start()
    _wait(run)
    assert run.state == "time_limit"
