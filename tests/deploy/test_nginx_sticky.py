"""The shared nginx template, run by Debian's nginx in front of two small loopback servers that say who they
are: a visitor's page, requests and websocket stay on one replica; visitors spread over both; when a
replica dies, its visitors go on to the other. (The real app behind it: `make scaletest`.)"""
from __future__ import annotations

import asyncio
import http.cookiejar
import os
import subprocess
import threading
import time
import urllib.request
from http import HTTPStatus

import pytest
from websockets.asyncio.client import connect
from websockets.asyncio.server import serve

from support import lb
from support.ports import free_port
from tests.conftest import run_async

NGINX = lb.find_nginx()
pytestmark = pytest.mark.skipif(NGINX is None and not os.environ.get("CI"),
                                reason="nginx is not installed (.ci/run installs it: apt-get install nginx)")


class Backend:
    """A replica stand-in on 127.0.0.1: plain requests get its name; a websocket gets its name, then echoes."""

    def __init__(self, name: str):
        self.name, self.port = name, free_port()
        self.loop = asyncio.new_event_loop()
        self._stop: asyncio.Future | None = None
        started = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(started,), daemon=True)
        self.thread.start()
        assert started.wait(10)

    def _run(self, started: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)

        async def handler(ws):
            await ws.send(self.name)
            async for message in ws:
                await ws.send(message)

        def plain(connection, request):
            if request.headers.get("Upgrade", "").lower() != "websocket":
                return connection.respond(HTTPStatus.OK, self.name)
            return None

        async def main():
            self._stop = self.loop.create_future()
            async with serve(handler, "127.0.0.1", self.port, process_request=plain):
                started.set()
                await self._stop

        self.loop.run_until_complete(main())

    def kill(self) -> None:
        self.loop.call_soon_threadsafe(self._stop.set_result, None)
        self.thread.join(10)


@pytest.fixture()
def balancer(tmp_path):
    backends = {name: Backend(name) for name in ("A", "B")}
    port = free_port()
    conf = lb.write_nginx_conf(tmp_path, port, [b.port for b in backends.values()])
    proc = lb.start_nginx(NGINX or lb.ensure_nginx(), conf)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"{url}/_lb/health", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    yield url, backends, tmp_path / "access.log"
    proc.terminate()
    proc.wait(10)
    for b in backends.values():
        if b.thread.is_alive():
            b.kill()


class Browser:
    """A cookie jar and the requests a browser makes: the page, then the websocket with the same cookies."""

    def __init__(self, url: str):
        self.url, self.jar = url, http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str = "/") -> str:
        with self.opener.open(self.url + path, timeout=10) as r:
            return r.read().decode()

    def cookie(self) -> str | None:
        return next((c.value for c in self.jar if c.name == lb.COOKIE), None)

    def websocket(self) -> str:
        async def go():
            headers = {"Origin": self.url}
            if self.cookie():
                headers["Cookie"] = f"{lb.COOKIE}={self.cookie()}"
            async with connect(self.url.replace("http", "ws") + "/_stcore/stream", additional_headers=headers) as ws:
                name = await ws.recv()
                await ws.send("ping")
                assert await ws.recv() == "ping"
                return name

        return run_async(go())


def test_a_visitor_stays_on_one_replica(balancer):
    url, backends, log = balancer
    visitor = Browser(url)
    first = visitor.get("/")
    key = visitor.cookie()
    assert key and len(key) == 32  # nginx's $request_id: 128 random bits in hex
    seen = {visitor.get(p) for p in ("/", "/temperature?prompt=x", "/static/x.js", "/")} | {visitor.websocket()}
    assert seen == {first}  # the page, its files and its websocket: one replica
    assert visitor.cookie() == key  # the key is given once and kept
    # The access log (what `make scaletest` counts sessions per replica from) names the replica and the key.
    port = backends[first].port
    rows = [r for r in lb.access_log(log) if r["key"] == key]  # the first GET too: hashed on the key it got
    assert len(rows) == 6 and {r["upstream"] for r in rows} == {f"127.0.0.1:{port}"}
    assert [r["status"] for r in rows if r["uri"] == "/_stcore/stream"] == ["101"]


def test_new_visitors_spread_over_both_replicas(balancer):
    url, _, _ = balancer
    served = [Browser(url).get("/") for _ in range(40)]
    assert served.count("A") >= 8 and served.count("B") >= 8, served  # ~20 each; both take visitors


def test_websocket_upgrade_reaches_the_replica_and_echoes(balancer):
    url, _, _ = balancer
    visitor = Browser(url)
    home = visitor.get("/")
    assert visitor.websocket() == home


def test_a_dead_replicas_visitors_move_to_the_other_and_stay_there(balancer):
    url, backends, _ = balancer
    visitors = [Browser(url) for _ in range(12)]
    homes = [v.get("/") for v in visitors]
    dead = homes[0]
    backends[dead].kill()
    after = [v.get("/") for v in visitors]  # no error: nginx retries the refused connection on the other
    alive = "B" if dead == "A" else "A"
    assert after == [alive if h == dead else h for h in homes]
    assert all(v.websocket() == alive for v, h in zip(visitors, homes) if h == dead)


def test_nginx_accepts_the_rendered_template(tmp_path):
    conf = lb.write_nginx_conf(tmp_path, free_port(), [free_port(), free_port()])
    r = subprocess.run([NGINX or lb.ensure_nginx(), "-t", "-c", str(conf), "-p", str(tmp_path)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
