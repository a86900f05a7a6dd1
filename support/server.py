"""The real app server for tests and benches: start it the way `make run` does (`python -m ui.serve`), wait for
Streamlit's health endpoint, stop it. The one place that starts a server process."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path

from support.ports import free_port

ROOT = Path(__file__).resolve().parent.parent
HEALTH = "/_stcore/health"


def healthy(url: str, path: str = HEALTH, timeout: float = 2) -> bool:
    """True when `url + path` answers "ok" now."""
    try:
        return urllib.request.urlopen(f"{url}{path}", timeout=timeout).read().strip() == b"ok"
    except OSError:
        return False


def wait_healthy(url: str, deadline_s: float = 120, proc: subprocess.Popen | None = None, path: str = HEALTH,
                 poll_s: float = 0.3) -> float:
    """Wait until the server answers its health check; return the seconds it took.

    Raises RuntimeError after `deadline_s`, or at once when `proc` has exited (its log says why)."""
    started = time.perf_counter()
    while time.perf_counter() - started < deadline_s:
        if healthy(url, path):
            return time.perf_counter() - started
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with status {proc.returncode} before {url}{path} answered")
        time.sleep(poll_s)
    raise RuntimeError(f"{url}{path} did not answer in {deadline_s:.0f} s")


def launch(port: int | None = None, *, env: dict | None = None, log_path: Path | None = None,
           prefix: Sequence[str] = (), app_args: Sequence[str] = (), module: str = "ui.serve",
           new_session: bool = False):
    """Start `python -m ui.serve` on 127.0.0.1:port without waiting; return (Popen, base_url, log file or None).

    `prefix` goes before the interpreter (e.g. `taskset -c 0`); `app_args` after Streamlit's own flags.
    Output goes to `log_path`, or nowhere when it is None."""
    port = port or free_port()
    log = None
    if log_path is not None:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        log = open(log_path, "w")
    cmd = [*prefix, sys.executable, "-m", module, "--server.port", str(port), "--server.address", "127.0.0.1",
           "--server.headless", "true", *app_args]
    out = log if log is not None else subprocess.DEVNULL
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=new_session,
                            env={**os.environ, "PYTHONUNBUFFERED": "1", "HF_HUB_OFFLINE": "1", "TBT_WARM": "off",
                                 **(env or {})})  # cold pages are what tests and benches measure (ui/warm.py)
    return proc, f"http://127.0.0.1:{port}", log


def start_server(port: int | None = None, env: dict | None = None, log_path: Path | None = None,
                 deadline_s: float = 120, prepare: bool = False):
    """Start the app and wait until it is healthy; return (Popen, base_url, log file).

    `prepare`: build the model cache first (in this process), so the server does not spend its start on it."""
    if prepare:
        from model_backend import prepare as build

        build()
    log_path = log_path or ROOT / "artifacts" / "server.log"
    proc, url, log = launch(port, env=env, log_path=log_path)
    try:
        wait_healthy(url, deadline_s, proc)
    except RuntimeError as e:
        stop_server(proc, log)
        raise RuntimeError(f"{e}; see {log_path}") from None
    return proc, url, log


def stop_server(proc: subprocess.Popen, log=None, sig: int = signal.SIGTERM, timeout: float = 30) -> None:
    """Stop a server (SIGTERM, then SIGKILL after `timeout`) and close its log."""
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    if log is not None:
        log.close()
