"""A training run in a child process, so a page can redraw while it trains and walk away from it.

The child (worker.py) has its own torch thread count (TRAIN_THREADS) and its own GIL, so training never
slows other visitors' pages through the server's Python, never touches the process-global
torch.set_num_threads, and needs no model lock (its model is private). At most MAX_RUNS runs train at
once per server; each stops on request, at its step cap, after `max_seconds`, or when nobody has looked
at it for `idle_timeout` s (the visitor left).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict
from pathlib import Path

from .training import GrokConfig, Snapshot
from .worker import decode_array

ROOT = Path(__file__).resolve().parents[3]
MAX_RUNS = 2  # trainings at once per server process
TRAIN_THREADS = max(1, min(2, os.cpu_count() or 1))  # torch threads inside each training process
STOP_GRACE_S = 30  # a child asked to stop gets this long to send its last checkpoint, then it is killed
_slots = threading.BoundedSemaphore(MAX_RUNS)
_active = 0
_active_lock = threading.Lock()


def busy() -> bool:
    """True when every training slot of the server is taken."""
    with _active_lock:
        return _active >= MAX_RUNS


class BackgroundRun:
    """One visitor's training. Read `snapshots` (append-only) and `state`; call `touch()` while watching."""

    def __init__(self, cfg: GrokConfig, idle_timeout: float = 10.0, max_seconds: float | None = None,
                 threads: int = TRAIN_THREADS):
        self.cfg = cfg
        self.idle_timeout = idle_timeout  # stop when nobody called touch() for this long (the visitor left)
        self.max_seconds = max_seconds  # stop after this long, whatever happens
        self.threads = threads
        self.snapshots: list[Snapshot] = []
        self.times: list[float] = []  # seconds since start, one per snapshot
        self.cpu: list[float] = []  # CPU seconds the training process had used, one per snapshot
        self.state = "new"  # new -> running -> done | stopped | abandoned | time_limit | error
        self.error: str | None = None
        self.started: float | None = None
        self.ended: float | None = None
        self._why: str | None = None
        self._stop = threading.Event()
        self._seen = time.monotonic()
        self._proc: subprocess.Popen | None = None
        self._log = None
        self._thread: threading.Thread | None = None

    def start(self) -> bool:
        """Start the training process; False (and nothing started) when all slots are busy."""
        global _active
        if not _slots.acquire(blocking=False):
            return False
        with _active_lock:
            _active += 1
        self.state, self.started, self._seen = "running", time.monotonic(), time.monotonic()
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               "OMP_NUM_THREADS": str(self.threads), "MKL_NUM_THREADS": str(self.threads),
               # Idle OpenMP threads sleep instead of spinning. On a busy 2-core machine, spinning made 200
               # steps take 258 s instead of 15 s (same CPU work): the spinners starve the thread with work.
               "OMP_WAIT_POLICY": "PASSIVE"}
        self._log = tempfile.TemporaryFile(mode="w+")  # the child's stderr (a pipe could fill up and block it)
        try:
            self._proc = subprocess.Popen([sys.executable, "-m", "model_backend.lessons.grokking.worker"], cwd=ROOT, env=env,
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
                                          text=True, bufsize=1)
            self._proc.stdin.write(json.dumps({"config": asdict(self.cfg), "threads": self.threads}) + "\n")
            self._proc.stdin.flush()
        except OSError as exc:
            self._finish("error", f"{type(exc).__name__}: {exc}")
            return True
        self._thread = threading.Thread(target=self._read, name="grokking-read", daemon=True)
        self._thread.start()
        threading.Thread(target=self._watch, name="grokking-watch", daemon=True).start()
        return True

    def touch(self) -> None:
        """The visitor is still watching (call at every redraw)."""
        self._seen = time.monotonic()

    def stop(self) -> None:
        self._stop.set()

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self.state == "running"

    @property
    def elapsed(self) -> float:
        if self.started is None:
            return 0.0
        return (self.ended or time.monotonic()) - self.started

    def _why_stop(self) -> str | None:
        if self._stop.is_set():
            return "stopped"
        if time.monotonic() - self._seen > self.idle_timeout:
            return "abandoned"
        if self.max_seconds is not None and time.monotonic() - self.started > self.max_seconds:
            return "time_limit"
        return None

    def _watch(self) -> None:
        """Ask the child to stop (it sends a last checkpoint) when a stop condition holds; kill it if it hangs."""
        while self.running and self._proc.poll() is None:
            why = self._why_stop()
            if why:
                self._why = why
                try:
                    self._proc.stdin.write("stop\n")
                    self._proc.stdin.flush()
                except (OSError, ValueError):
                    pass
                try:
                    self._proc.wait(timeout=STOP_GRACE_S)
                except subprocess.TimeoutExpired:
                    self._proc.kill()
                return
            time.sleep(0.1)

    def _read(self) -> None:
        end = None
        try:
            for line in self._proc.stdout:
                row = json.loads(line)
                if "end" in row:
                    end = row["end"]
                    continue
                emb = decode_array(row["embedding"]) if row.get("embedding") else None
                snap = Snapshot(row["step"], row["train_loss"], row["train_acc"], row["test_loss"], row["test_acc"], emb)
                self.times.append(time.monotonic() - self.started)
                self.cpu.append(row.get("cpu", 0.0))
                self.snapshots.append(snap)  # list.append is atomic: readers always see whole snapshots
            self._proc.wait()
            if end is None and self._why:  # stopped on purpose, and killed because it did not answer in time
                self._finish(self._why)
            elif end is None:
                self._log.seek(0)
                err = self._log.read().strip().splitlines()
                self._finish("error", err[-1] if err else f"training process exited with {self._proc.returncode}")
            else:
                self._finish((self._why or "stopped") if end == "stopped" else "done")
        except (OSError, ValueError) as exc:
            self._finish("error", f"{type(exc).__name__}: {exc}")

    def _finish(self, state: str, error: str | None = None) -> None:
        global _active
        if self.ended is not None:
            return
        self.ended = time.monotonic()
        self.error, self.state = error, state
        if self._proc is not None:
            for pipe in (self._proc.stdin, self._proc.stdout, self._log):
                try:
                    pipe.close()
                except (OSError, ValueError):
                    pass
        with _active_lock:
            _active -= 1
        _slots.release()
