"""Streamlit's frontend files served from memory after their first request (ui/serve.py wraps the server's app).

A new browser fetches 70-160 files under /static/ (Streamlit's hashed JS, CSS, fonts and images) on its first
visit. Streamlit's Starlette server reads each from disk through worker threads, chunk by chunk: the 160 files of a
fresh visit to the pipeline page cost the server 0.19 CPU-s, more than a bare page's script run and messages (bench
visit_cost). A class of 30 phones opening the link pays that 30 times at once. The files do not change while the
server runs, so the first whole 200 response to each is kept, its status, headers and body exactly as Streamlit
sent them, and replayed to the next request for the same file.

Only plain GET and HEAD requests for paths under the static prefix are answered from memory. These go through
to Streamlit as before: a request with a Range or conditional header, any other path, and any response that is not
a whole 200 (or sets a cookie, is encoded, or varies on a header other than Origin and Accept-Encoding). The key is
the path with the request's Origin and Accept-Encoding, as CORS headers depend on the first. No Streamlit here.
"""
from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_FILE = 16 * 2**20  # bytes: a larger file is served by Streamlit each time (its largest bundle is ~5 MB)
MAX_TOTAL = 96 * 2**20  # bytes kept in all (Streamlit 1.67's static folder holds 26 MB)
PASS_HEADERS = frozenset({b"range", b"if-range", b"if-none-match", b"if-modified-since", b"if-match",
                          b"if-unmodified-since"})  # the server's own answer depends on these
KEY_HEADERS = (b"origin", b"accept-encoding")
VARY_OK = frozenset({"origin", "accept-encoding"})


def _header(headers, name: bytes) -> bytes | None:
    return next((v for k, v in headers if k.lower() == name), None)


class StaticCache:
    """An ASGI app around `app`: GET/HEAD under `prefix` (the server's base path + "/static/") from memory once
    `app` has answered them with a whole 200."""

    def __init__(self, app: ASGIApp, prefix: str = "/static/", max_file: int = MAX_FILE, max_total: int = MAX_TOTAL):
        self.app, self.prefix, self.max_file, self.max_total = app, prefix, max_file, max_total
        self.kept: dict[tuple, tuple[int, list, bytes]] = {}
        self.size = self.hits = 0
        self._lock = threading.Lock()

    def _key(self, scope: Scope) -> tuple | None:
        if (scope.get("type") != "http" or scope.get("method") not in ("GET", "HEAD")
                or not scope.get("path", "").startswith(self.prefix) or scope.get("query_string")):
            return None
        headers = scope.get("headers") or []
        if any(k.lower() in PASS_HEADERS for k, _ in headers):
            return None
        return (scope["path"], *(_header(headers, name) for name in KEY_HEADERS))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = self._key(scope)
        found = self.kept.get(key) if key is not None else None
        if found is not None:
            status, headers, body = found
            self.hits += 1
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})
            return
        if key is None or scope["method"] != "GET":
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        chunks: list[bytes] | None = []

        async def keep(message: Message) -> None:
            nonlocal start, chunks
            if message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body" and chunks is not None:
                chunks.append(bytes(message.get("body", b"")))
                if sum(map(len, chunks)) > self.max_file:
                    chunks = None
                elif not message.get("more_body", False):
                    self._store(key, start, b"".join(chunks))
            await send(message)

        await self.app(scope, receive, keep)

    def _store(self, key: tuple, start: Message | None, body: bytes) -> None:
        if start is None or start.get("status") != 200 or start.get("trailers"):
            return
        headers = [(bytes(k), bytes(v)) for k, v in start.get("headers", [])]
        vary = {v.strip().lower() for v in (_header(headers, b"vary") or b"").decode("latin-1").split(",") if v.strip()}
        length = _header(headers, b"content-length")
        if (_header(headers, b"set-cookie") is not None or _header(headers, b"content-encoding") is not None
                or not vary <= VARY_OK or (length is not None and int(length) != len(body))):
            return
        with self._lock:
            if key in self.kept or self.size + len(body) > self.max_total:
                return
            self.kept[key] = (200, headers, body)
            self.size += len(body)
