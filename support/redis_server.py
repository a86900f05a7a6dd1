"""A real redis-server on loopback for tests and benches: start it on a free port, wait for PING, stop it."""
from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from support.ports import free_port

REDIS_SERVER = "/usr/bin/redis-server"  # Debian's package
INSTALL = "apt-get install redis-server"


class RedisMissing(RuntimeError):
    """No redis-server binary on this machine."""


def find_redis_server() -> str | None:
    """The redis-server binary: on PATH, else Debian's path, else None."""
    return shutil.which("redis-server") or (REDIS_SERVER if Path(REDIS_SERVER).exists() else None)


def require_redis_server() -> str:
    """The redis-server binary, or RedisMissing with the command that installs it."""
    found = find_redis_server()
    if found is None:
        raise RedisMissing(f"redis-server is missing (looked on PATH and at {REDIS_SERVER}): "
                           f"`{INSTALL}` as root (after apt-get update) installs Debian's")
    return found


def ping(port: int, timeout: float = 0.5) -> bool:
    """True when a Redis server on 127.0.0.1:port answers PING with PONG now (plain RESP, no client library)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def server_command(binary: str, port: int) -> list[str]:
    """redis-server's argv: loopback only, nothing written to disk (no RDB snapshots, no append-only file)."""
    return [binary, "--save", "", "--appendonly", "no", "--port", str(port), "--bind", "127.0.0.1"]


def _wait_ping(proc: subprocess.Popen, port: int, deadline_s: float) -> bool:
    """Poll PING until it answers (True), the process exits or the deadline passes (False)."""
    started = time.perf_counter()
    while time.perf_counter() - started < deadline_s:
        if ping(port):
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.02)
    return False


def start_redis(port: int | None = None, deadline_s: float = 10, tries: int = 3) -> tuple[subprocess.Popen, str]:
    """Start redis-server and wait until it answers PING; return (Popen, "redis://127.0.0.1:PORT/0").

    A free port can be taken by someone else before the server binds it: then it is tried again on a new
    one, `tries` times in all. Raises RedisMissing without the binary, RuntimeError (with the server's last
    log lines) when it never answers."""
    binary = require_redis_server()
    log = ""
    for _ in range(tries):
        chosen = port or free_port()
        with tempfile.TemporaryFile("w+") as out:
            proc = subprocess.Popen(server_command(binary, chosen), stdout=out, stderr=subprocess.STDOUT)
            if _wait_ping(proc, chosen, deadline_s):
                return proc, f"redis://127.0.0.1:{chosen}/0"
            stop_redis(proc)
            out.seek(0)
            log = "".join(out.readlines()[-5:])
        if port is not None:
            break
    raise RuntimeError(f"redis-server did not answer PING in {deadline_s:.0f} s; its log ends:\n{log}")


def stop_redis(proc: subprocess.Popen, timeout: float = 10) -> None:
    """Stop a server this module started: SIGTERM, then SIGKILL after `timeout` (by its own PID only)."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def running_redis() -> Iterator[str]:
    """A redis-server for the length of a `with` block; yields its URL."""
    proc, url = start_redis()
    try:
        yield url
    finally:
        stop_redis(proc)
