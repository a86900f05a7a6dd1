"""One live class over two real replicas behind Debian's nginx, with the room in a real redis-server: the teacher
and one phone on replica A, two phones on replica B. A guessing round starts; all three guess; replica B is
killed. No guess is lost; B's phones reconnect through nginx to A by themselves, come back into the class from
their own address (a new session), show their guess again, change it, and get the model's answer at the reveal."""
from __future__ import annotations

import asyncio
import re
import secrets
import signal
import time
import urllib.request

import pytest

import classroom
from classroom.redis_store import RedisStore
from support import lb, redis_server, server
from support.phone import Client
from support.ports import free_port
from tests.conftest import ARTIFACTS, run_async
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


def _wait_for(check, timeout: float, what: str, seen=None):
    end = time.time() + timeout
    while time.time() < end:
        if found := check():
            return found
        time.sleep(0.3)
    raise AssertionError(f"no {what} after {timeout} s" + (f": {seen()}" if seen else ""))


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
    console = []  # the browsers' own log (Streamlit's frontend says there when it reconnects, or drops a message)
    for i, ctx in enumerate(contexts):
        ctx.on("console", lambda msg, i=i: console.append(f"{time.strftime('%H:%M:%S')} {i} {msg.type}: {msg.text}"))
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
            _wait_text(page, "counts as this token", timeout=120)  # the first waits for a cold tokenizer
        _wait_text(teacher, r"Guesses so far: 3\.", timeout=15)

        b_proc = replicas["B"][0]
        b_proc.send_signal(signal.SIGKILL)  # a replica dies: no goodbye to its websockets
        b_proc.wait(10)
        assert _wait_text(teacher, r"Guesses so far: 3\.", timeout=15)  # no guess was lost
        a_port = replicas["A"][1].rsplit(":", 1)[1]
        for key in keys[2:]:  # B's phones reconnect through nginx, by themselves, and reach A. (A websocket's log
            # line is written when it closes; the browser asks for host-config just before it reopens one.)
            _wait_for(lambda k=key: [r for r in lb.access_log(log) if r["key"] == k
                                     and r["uri"] == "/_stcore/host-config" and r["upstream"].endswith(":" + a_port)],
                      90, f"{key}'s reconnect to A")
        for page, new_guess in zip(phones[1:], ["Madrid", "Paris"]):  # back in the room: each changes its guess
            box = page.get_by_label("Your guess")
            box.wait_for(timeout=90_000)
            _wait_text(page, "counts as this token", timeout=60)  # its guess, read back from the room
            box.fill(new_guess)
            page.get_by_role("button", name="Send guess").click()
        def counts() -> dict:
            return classroom.tally_guesses(store, code).counts

        _wait_for(lambda: counts() == {"Paris": 2, "Madrid": 1}, 60, "the two moved phones' new guesses in the room",
                  lambda: f"the room holds {counts()}")
        _wait_text(teacher, r"Guesses so far: 3\.", timeout=15)
        teacher.get_by_role("button", name="Reveal the model's probabilities").click()
        _wait_text(teacher, r"of 3 guesses counted as the model's most likely token", timeout=90)
        for page in phones:
            _wait_text(page, "probability of", timeout=30)
        counted = classroom.tally_guesses(store, code)
        assert counted.counts == {"Paris": 2, "Madrid": 1} and counted.total == 3  # in the room's store itself
    except Exception:
        (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
        for i, ctx in enumerate(contexts):  # what each browser showed when the test failed
            for page in ctx.pages:
                try:
                    page.screenshot(path=str(ARTIFACTS / "screenshots" / f"live-replicas-{i}.png"), full_page=True,
                                    timeout=5000)
                except Exception:  # noqa: BLE001 - a page that cannot draw: the failure above is the one to see
                    pass
        raise
    finally:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "live-replicas-console.log").write_text("\n".join(console) + "\n")
        for ctx in contexts:
            ctx.close()


def _a_round(redis_url: str) -> tuple[RedisStore, str, str, str]:
    """A room in the module's redis-server with one student and a guessing round open: (store, code, token, sid)."""
    store = RedisStore.from_url(redis_url)
    code, token = classroom.create_room(store)
    sid = secrets.token_urlsafe(12)
    classroom.join(store, code, sid)
    classroom.start_round(store, code, token, "guess", PROMPT)
    return store, code, token, sid


async def _press_behind_a_new_sessions_first_run(url: str, query: str, drawn, press, done, cookie: str | None = None):
    """A tab back from a replica that died still shows its old page when its new session starts, and takes presses
    at once. Played on Streamlit's own websocket: a first session at this address draws the class page (`drawn(tab)`
    says the widget is there: its id); a new session opens with that page's hash, as a reconnecting tab asks for
    the page it shows, and `press(tab)` is sent as soon as its socket is open, right behind its first rerun, with the
    first session's ids; then up to 60 s for `done()`."""
    before = Client(url, "live", query, cookie=cookie)  # the page the tab showed: its widgets' ids
    task = asyncio.create_task(before.run())
    for _ in range(600):
        if drawn(before) and before.ready.is_set():
            break
        await asyncio.sleep(0.1)
    task.cancel()
    assert drawn(before), f"the widget to press is not on the class page: {before.errors}"
    after = Client(url, "live", query, cookie=cookie)  # the new session
    after.hash, after.widgets = before.hash, dict(before.widgets)
    task = asyncio.create_task(after.run())
    end = time.time() + 60
    while after.ws is None and not task.done() and time.time() < end:  # run() sends the session's first rerun
        await asyncio.sleep(0.001)  # as soon as the socket is open
    assert after.ws is not None and not task.done(), f"the new session's socket never opened: {after.errors}"
    await press(after)
    try:
        end = time.time() + 60
        while time.time() < end and not done():
            await asyncio.sleep(0.2)
    finally:
        task.cancel()
    assert not after.errors, after.errors


def test_a_press_before_a_new_sessions_first_run_has_drawn_the_board_counts(cluster):
    """A student may press "Send guess" before the new session's first run has drawn the board. The press counts:
    the board is not in a fragment (Streamlit drops a fragment's rerun that a new session has not registered yet)."""
    _, replicas, _, redis_url = cluster
    store, code, token, sid = _a_round(redis_url)
    query = f"class={classroom.normalize_code(code)}&me={sid}&lang=en"
    run_async(asyncio.wait_for(_press_behind_a_new_sessions_first_run(  # A: the other test of this module kills B
        replicas["A"][1], query, lambda tab: tab.guess_form(1), lambda tab: tab.send_guess(1, "Madrid"),
        lambda: classroom.my_answer(store, code, sid, 1) == "Madrid"), 240))  # a thread of its own: see run_async
    assert classroom.my_answer(store, code, sid, 1) == "Madrid"


def test_the_teachers_reveal_pressed_before_a_new_sessions_first_run_counts(cluster):
    """The teacher's tab may press "Reveal" before its new session's first run has drawn the round: the press counts
    ("Reveal" is drawn by the page's run, not by the round's fragment, and read from the button's value)."""
    _, replicas, _, redis_url = cluster
    store, code, token, sid = _a_round(redis_url)
    classroom.guess(store, code, sid, "Paris", round_number=1)
    cookie = f"tbt_teacher={classroom.normalize_code(code)}.{token}"
    run_async(asyncio.wait_for(_press_behind_a_new_sessions_first_run(
        replicas["A"][1], "lang=en", lambda tab: tab.button("live_reveal_1"), lambda tab: tab.press("live_reveal_1"),
        lambda: bool(classroom.current_round(store, code).revealed), cookie=cookie), 240))
    r = classroom.current_round(store, code)
    assert not r.open and r.revealed["top"], r


def test_a_phones_board_follows_the_room_and_runs_no_page_while_nothing_changes(cluster):
    """A student's board is drawn by the page's run, and its timer runs the page again when a round opens; the
    timer draws the student's answer from the room, one written behind the board's back too (a second tab), with
    no page run. While nothing changes, the timer runs and the page does not."""
    _, replicas, _, redis_url = cluster
    store = RedisStore.from_url(redis_url)
    code, token = classroom.create_room(store)
    sid = secrets.token_urlsafe(12)
    classroom.join(store, code, sid)
    query = f"class={classroom.normalize_code(code)}&me={sid}&lang=en"
    counts_as = b"Your guess counts as this token"

    async def until(check, timeout: float, what: str):
        end = time.time() + timeout
        while time.time() < end:
            if check():
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"no {what} after {timeout} s")

    async def play():
        phone = Client(replicas["A"][1], "live", query)
        task = asyncio.create_task(phone.run())
        try:
            await until(phone.ready.is_set, 120, "first run of the class page")
            classroom.start_round(store, code, token, "guess", PROMPT)
            await until(lambda: phone.guess_form(1), 60, "guess form after the round opened")
            await asyncio.sleep(1)
            runs = len(phone.page_runs)
            phone.needles[counts_as] = None
            classroom.guess(store, code, sid, "Lisboa", round_number=1)
            await until(lambda: phone.needles[counts_as] is not None, 60, "guess written behind the board's back")
            ticks = len(phone.finished)
            await asyncio.sleep(3)
            assert len(phone.page_runs) == runs, "the page ran again while the round stayed the same"
            assert len(phone.finished) - ticks >= 3, "the phone's timer stopped"
            assert not phone.errors, phone.errors
        finally:
            task.cancel()

    run_async(asyncio.wait_for(play(), 240))
