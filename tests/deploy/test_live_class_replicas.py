"""One live class over two real replicas behind Debian's nginx, with the room in a real redis-server: the teacher
and one phone on replica A, two phones on replica B. A guessing round starts; all three guess; replica B is
killed. No guess is lost; B's phones reconnect through nginx to A by themselves, come back into the class from
their own address (a new session), show their guess again, change it, and get the model's answer at the reveal."""
from __future__ import annotations

import re
import secrets
import signal
import time
import urllib.request

import pytest

import classroom
from classroom.redis_store import RedisStore
from support import lb, redis_server, server
from support.ports import free_port
from tests.conftest import ARTIFACTS
from tests.e2e.test_live_class_browser import _wait_text

NGINX = lb.find_nginx()
REDIS = redis_server.find_redis_server()
PROMPT = "A capital da França é a cidade de"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """redis-server, replicas A and B of the real app on it (TBT_REDIS_URL), and nginx in front."""
    if NGINX is None or REDIS is None:
        pytest.fail("nginx and redis-server are needed (.ci/run installs them: apt-get install nginx redis-server)")
    from model_backend import prepare

    prepare()  # the model's cache, once, before two servers start on it
    workdir = tmp_path_factory.mktemp("live-lb")
    redis_proc, redis_url = redis_server.start_redis()
    replicas = {}
    for name in ("A", "B"):
        replicas[name] = server.launch(free_port(), env={"TBT_REDIS_URL": redis_url},
                                       log_path=ARTIFACTS / f"live-replica-{name}.log")
    port = free_port()
    conf = lb.write_nginx_conf(workdir, port, [int(url.rsplit(":", 1)[1]) for _, url, _ in replicas.values()])
    nginx = lb.start_nginx(NGINX, conf)
    try:
        for proc, url, _ in replicas.values():
            server.wait_healthy(url, 180, proc)
        base = f"http://127.0.0.1:{port}"
        server.wait_healthy(base, 10, path="/_lb/health")
        yield base, replicas, workdir / "access.log", redis_url
    finally:
        nginx.terminate()
        nginx.wait(10)
        for proc, _, log in replicas.values():
            server.stop_server(proc, log)
        redis_server.stop_redis(redis_proc)


def _replica_of(base: str, log, key: str, replicas: dict) -> str:
    """Which replica nginx sends the affinity key `key` to (one request with that cookie, then its log line)."""
    req = urllib.request.Request(f"{base}{server.HEALTH}", headers={"Cookie": f"{lb.COOKIE}={key}"})
    urllib.request.urlopen(req, timeout=10).read()
    ports = {url.rsplit(":", 1)[1]: name for name, (_, url, _) in replicas.items()}
    for _ in range(50):
        rows = [r for r in lb.access_log(log) if r["key"] == key]
        if rows:
            return ports[rows[-1]["upstream"].rsplit(":", 1)[1]]
        time.sleep(0.1)
    raise AssertionError(f"no access-log line for key {key}")


def _keys_for(base, log, replicas, wanted: list[str]) -> list[str]:
    """Affinity keys (nginx's cookie) that land on the wanted replicas, in order: the test places each browser."""
    found: dict[str, list[str]] = {"A": [], "B": []}
    for _ in range(200):
        if all(len(found[n]) >= wanted.count(n) for n in found):
            break
        key = secrets.token_hex(16)
        found[_replica_of(base, log, key, replicas)].append(key)
    return [found[n].pop() for n in wanted]


def _wait_for(check, timeout: float, what: str):
    end = time.time() + timeout
    while time.time() < end:
        if found := check():
            return found
        time.sleep(0.3)
    raise AssertionError(f"no {what} after {timeout} s")


def _context(browser, base, key, width):
    ctx = browser.new_context(viewport={"width": width, "height": 844 if width < 500 else 720}, locale="en")
    ctx.add_cookies([{"name": lb.COOKIE, "value": key, "url": base}])
    return ctx


@pytest.mark.timeout(900)
def test_a_replica_dies_mid_round_and_no_guess_is_lost(cluster, browser):
    base, replicas, log, redis_url = cluster
    store = RedisStore.from_url(redis_url)  # the room as every replica sees it
    keys = _keys_for(base, log, replicas, ["A", "A", "B", "B"])  # the teacher, then three phones
    contexts = [_context(browser, base, keys[0], 1280)] + [_context(browser, base, k, 390) for k in keys[1:]]
    try:
        teacher = contexts[0].new_page()
        teacher.goto(f"{base}/live?lang=en")
        teacher.get_by_role("button", name="Start a class").last.click(timeout=120_000)
        teacher.locator(".tbt-room-code").wait_for(timeout=120_000)
        code = teacher.locator(".tbt-room-code").inner_text().strip()
        phones = []
        for ctx in contexts[1:]:
            page = ctx.new_page()
            page.goto(f"{base}/live?join={code.replace('-', '')}&lang=en")
            page.get_by_role("button", name="Join").click(timeout=120_000)
            _wait_text(page, "room " + code, timeout=60)
            phones.append(page)
        _wait_text(teacher, r"Phones connected \(last minute\)\s*3", timeout=60)
        teacher.get_by_label(re.compile("^The round's prompt")).fill(PROMPT)
        teacher.get_by_role("button", name="Start the round").click()
        guesses = ["Paris", "Lyon", "Roma"]
        for page, guess in zip(phones, guesses):
            _wait_text(page, "Your guess", timeout=60)
            box = page.get_by_label("Your guess")
            box.fill(guess)
            page.get_by_role("button", name="Send guess").click()
            _wait_text(page, "counts as this token")
        _wait_text(teacher, r"Guesses so far: 3\.", timeout=15)

        b_proc = replicas["B"][0]
        b_proc.send_signal(signal.SIGKILL)  # a replica dies: no goodbye to its websockets
        b_proc.wait(10)
        assert _wait_text(teacher, r"Guesses so far: 3\.", timeout=15)  # no guess was lost
        a_port = replicas["A"][1].rsplit(":", 1)[1]
        for key in keys[2:]:  # B's phones reconnect through nginx, by themselves, and reach A. (A websocket's log
            # line is written when it closes; the browser asks for host-config just before it reopens one.)
            _wait_for(lambda k=key: [r for r in lb.access_log(log) if r["key"] == k and r["uri"] == "/_stcore/host-config"
                                     and r["upstream"].endswith(":" + a_port)], 90, f"{key}'s reconnect to A")
        for page, new_guess in zip(phones[1:], ["Madrid", "Paris"]):  # back in the room: each changes its guess
            box = page.get_by_label("Your guess")
            box.wait_for(timeout=90_000)
            _wait_text(page, "counts as this token", timeout=60)  # its guess, read back from the room
            box.fill(new_guess)
            page.get_by_role("button", name="Send guess").click()
        _wait_for(lambda: classroom.tally_guesses(store, code).counts == {"Paris": 2, "Madrid": 1}, 60,
                  "the two moved phones' new guesses in the room")
        _wait_text(teacher, r"Guesses so far: 3\.", timeout=15)
        teacher.get_by_role("button", name="Reveal the model's answer").click()
        _wait_text(teacher, r"of 3 guesses counted as the model's most likely token", timeout=90)
        for page in phones:
            _wait_text(page, "probability of", timeout=30)
        counted = classroom.tally_guesses(store, code)
        assert counted.counts == {"Paris": 2, "Madrid": 1} and counted.total == 3  # in the room's store itself
    finally:
        for ctx in contexts:
            ctx.close()
