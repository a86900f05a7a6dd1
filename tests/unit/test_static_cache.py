"""ui.static_cache in front of Streamlit's own static handler (the one its server mounts for the frontend, over a
folder made here): the second request for a file gets the first response's status, headers and body without
reaching the handler; what the handler must decide (ranges, revalidations, missing files, other spellings, query
strings) still reaches it, and nothing but the folder's files is kept."""
import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from starlette.applications import Starlette
from starlette.routing import Mount
from streamlit.web.server.starlette.starlette_static_routes import create_streamlit_static_handler

from ui.static_cache import PIECE, StaticCache, frontend_files

JS = b"console.log(1);" * 10_000  # 150 KB: more than two pieces


def run(coroutine):
    """asyncio.run in a thread of its own: the browser tests' Playwright keeps a loop running in this one."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "static" / "js").mkdir(parents=True)
    (tmp_path / "static" / "js" / "index.abc123.js").write_bytes(JS)
    (tmp_path / "static" / "css").mkdir()
    (tmp_path / "static" / "css" / "a.css").write_bytes(b"body{}")
    (tmp_path / "index.html").write_text("<html>the app</html>")
    return tmp_path


@pytest.fixture
def served(folder):
    handler = Starlette(routes=[Mount("/", app=create_streamlit_static_handler(directory=str(folder), base_url=None))])
    calls = []

    async def counted(scope, receive, send):
        calls.append(scope["path"])
        await handler(scope, receive, send)

    return StaticCache(counted, frontend_files(str(folder)), prefix="/static/"), calls


def request(app, path, method="GET", headers=(), query=b""):
    scope = {"type": "http", "method": method, "path": path, "raw_path": path.encode(), "root_path": "",
             "query_string": query, "headers": [(k.lower().encode(), v.encode()) for k, v in headers],
             "scheme": "http", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 1234), "http_version": "1.1"}
    sent, asked = [], []

    async def receive():  # the request once, then nothing until the client leaves (it does not, here)
        asked.append(1)
        if len(asked) == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()

    async def send(message):
        sent.append(message)

    run(asyncio.wait_for(app(scope, receive, send), 30))
    start = next(m for m in sent if m["type"] == "http.response.start")
    pieces = [m.get("body", b"") for m in sent if m["type"] == "http.response.body"]
    return start["status"], {k.decode(): v.decode() for k, v in start["headers"]}, b"".join(pieces), pieces


def test_the_folders_files_are_listed_as_they_follow_static_in_an_address(folder):
    assert frontend_files(str(folder)) == {"js/index.abc123.js", "css/a.css"}


def test_the_second_request_is_the_first_response_from_memory_in_pieces(served):
    app, calls = served
    first = request(app, "/static/js/index.abc123.js")
    second = request(app, "/static/js/index.abc123.js")
    assert first[0] == 200 and first[2] == JS and first[1]["content-length"] == str(len(JS))
    assert second[:3] == first[:3] and calls == ["/static/js/index.abc123.js"] and app.hits == 1
    assert [len(p) for p in second[3]] == [PIECE, PIECE, len(JS) - 2 * PIECE]  # uvicorn's flow control between
    assert request(app, "/static/js/index.abc123.js", "HEAD")[:3] == (200, first[1], b"")  # headers, no body
    assert calls == ["/static/js/index.abc123.js"] and app.size == len(JS)


def test_what_the_handler_decides_still_reaches_it(served):
    app, calls = served
    etag = request(app, "/static/js/index.abc123.js")[1]["etag"]
    assert request(app, "/static/js/index.abc123.js", headers=[("Range", "bytes=0-9")])[:3:2] == (206, JS[:10])
    assert request(app, "/static/js/index.abc123.js", headers=[("If-None-Match", etag)])[0] == 304
    assert request(app, "/static/js/index.abc123.js", query=b"v=1")[2] == JS
    for _ in range(2):  # a missing file: Streamlit answers 200 with its index page, never kept
        missing = request(app, "/static/js/missing.js")
        assert missing[0] == 200 and b"the app" in missing[2]
    for spelling in ("/static/./js/index.abc123.js", "/static//js/index.abc123.js"):  # another spelling
        assert request(app, spelling)[2] == JS
    assert len(calls) == 8 and app.hits == 0 and list(app.kept) == ["/static/js/index.abc123.js"]


def test_a_head_first_a_file_past_the_limits_and_a_request_under_way_are_not_kept(served, folder):
    app, calls = served
    request(app, "/static/js/index.abc123.js", "HEAD")
    assert app.kept == {}
    for limits in ({"max_file": 100}, {"max_total": len(JS) - 1}):
        small = StaticCache(app.app, app.files, prefix="/static/", **limits)
        request(small, "/static/js/index.abc123.js")
        request(small, "/static/js/index.abc123.js")
        assert small.kept == {} and small.hits == 0 and small.size == 0
    app.fetching.add("/static/css/a.css")  # another request for it is being answered and copied
    request(app, "/static/css/a.css")
    assert "/static/css/a.css" not in app.kept


def test_a_response_that_sets_a_cookie_varies_or_is_not_a_200_is_not_kept(folder):
    async def answer(scope, receive, send, status=200, extra=()):
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-length", b"6"), *extra]})
        await send({"type": "http.response.body", "body": b"body{}"})

    cases = [dict(extra=[(b"set-cookie", b"a=1")]), dict(extra=[(b"vary", b"Origin")]),
             dict(extra=[(b"access-control-allow-origin", b"http://a.example")]),
             dict(extra=[(b"content-encoding", b"gzip")]), dict(status=203)]
    for case in cases:
        app = StaticCache(lambda s, r, w, case=case: answer(s, r, w, **case), frontend_files(str(folder)))
        request(app, "/static/css/a.css")
        assert app.kept == {}, case
    plain = StaticCache(answer, frontend_files(str(folder)))
    request(plain, "/static/css/a.css")
    assert list(plain.kept) == ["/static/css/a.css"]  # the same answer without them is kept


def test_other_scopes_pass_through(folder):
    seen = []

    async def app(scope, receive, send):
        seen.append(scope["type"])

    cache = StaticCache(app, frontend_files(str(folder)))
    for kind in ("lifespan", "websocket"):
        run(cache({"type": kind, "path": "/static/css/a.css"}, None, None))
    assert seen == ["lifespan", "websocket"]
