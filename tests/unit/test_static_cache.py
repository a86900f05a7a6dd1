"""ui.static_cache in front of Starlette's real StaticFiles (what Streamlit serves its frontend with): the second
request for a file gets the first response's status, headers and body without reaching the files app; what the
files app must decide (ranges, revalidation, other paths, errors, other origins) still reaches it."""
import asyncio

import pytest
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from ui.static_cache import StaticCache


@pytest.fixture
def served(tmp_path):
    (tmp_path / "static" / "js").mkdir(parents=True)
    (tmp_path / "static" / "js" / "index.abc123.js").write_bytes(b"console.log(1);" * 1000)
    (tmp_path / "other.txt").write_text("not under static")
    files = Starlette(routes=[Mount("/", app=StaticFiles(directory=str(tmp_path)))])  # mounted, as Streamlit does
    calls = []

    async def counted(scope, receive, send):
        calls.append(scope["path"])
        await files(scope, receive, send)

    return StaticCache(counted, prefix="/static/", max_total=1 << 20), calls


def request(app, path, method="GET", headers=()):
    scope = {"type": "http", "method": method, "path": path, "raw_path": path.encode(), "root_path": "",
             "query_string": b"", "headers": [(k.lower().encode(), v.encode()) for k, v in headers], "scheme": "http",
             "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 1234), "http_version": "1.1"}
    sent, asked = [], []

    async def receive():  # the request once, then nothing until the client leaves (it does not, here)
        asked.append(1)
        if len(asked) == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()

    async def send(message):
        sent.append(message)

    asyncio.run(asyncio.wait_for(app(scope, receive, send), 30))
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], {k.decode(): v.decode() for k, v in start["headers"]}, body


def test_the_second_request_is_the_first_response_from_memory(served):
    app, calls = served
    first = request(app, "/static/js/index.abc123.js")
    second = request(app, "/static/js/index.abc123.js")
    assert first[0] == 200 and first[2] == b"console.log(1);" * 1000
    assert second == first and calls == ["/static/js/index.abc123.js"] and app.hits == 1
    assert request(app, "/static/js/index.abc123.js", "HEAD") == (200, first[1], b"")  # headers, no body
    assert calls == ["/static/js/index.abc123.js"]


def test_ranges_revalidations_other_paths_errors_and_heads_first_reach_the_files_app(served):
    app, calls = served
    etag = request(app, "/static/js/index.abc123.js")[1]["etag"]
    assert request(app, "/static/js/index.abc123.js", headers=[("Range", "bytes=0-9")])[0] == 206
    assert request(app, "/static/js/index.abc123.js", headers=[("If-None-Match", etag)])[0] == 304
    assert request(app, "/other.txt")[0] == 200 and request(app, "/other.txt")[0] == 200
    assert request(app, "/static/js/missing.js")[0] == 404 and request(app, "/static/js/missing.js")[0] == 404
    assert len(calls) == 7 and app.hits == 0 and len(app.kept) == 1


def test_another_origin_is_another_entry(served):
    app, calls = served
    for origin in ("http://a.example", "http://b.example", "http://a.example"):
        request(app, "/static/js/index.abc123.js", headers=[("Origin", origin)])
    assert len(calls) == 2 and app.hits == 1 and len(app.kept) == 2


def test_a_head_first_and_files_past_the_limits_are_not_kept(served, tmp_path):
    app, calls = served
    request(app, "/static/js/index.abc123.js", "HEAD")
    assert app.kept == {}
    small = StaticCache(app.app, prefix="/static/", max_file=100)
    request(small, "/static/js/index.abc123.js")
    request(small, "/static/js/index.abc123.js")
    assert small.kept == {} and small.hits == 0
