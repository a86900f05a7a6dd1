"""Streamlit's frontend files served from memory after their first request (ui/serve.py wraps the server's app).

A new browser fetches 70-160 files under /static/ (Streamlit's hashed JS, CSS, fonts and images) on its first
visit. Streamlit's Starlette server reads each from disk through worker threads, chunk by chunk: the 160 files of a
fresh visit to the pipeline page cost the server 0.19 CPU-s (a scratch fetch, 6 connections; docs/performance.md),
more than a bare page's script run and messages, and every new phone paid it. The files do not change while the
server runs, so the first whole 200 response to each is kept, its status, headers and body exactly as Streamlit
sent them, and replayed, in 64 KB pieces as Streamlit sends them, to the next request for the same file.

Only the files that exist in the frontend's folder (`files`: their paths, listed once when the server starts) are
kept, under their one plain spelling (no "." or ".." segment, no "//"), and only from plain GET requests. Everything else
goes through to Streamlit as before: a Range or conditional header, a query string, any other path (a missing file,
which Streamlit answers with its index page), a HEAD before the first GET, a response that is not a whole 200, or
one that sets a cookie, is encoded, varies, or carries CORS headers. While one request for a file is being answered,
others for it go through too, without being copied. No Streamlit here.
"""
from __future__ import annotations

import posixpath
from collections.abc import Awaitable, Callable, Collection, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_FILE = 16 * 2**20  # bytes: a larger file is served by Streamlit each time (its largest bundle is ~5 MB)
MAX_TOTAL = 64 * 2**20  # bytes kept in all (Streamlit 1.67's static folder holds 26 MB)
PIECE = 64 * 1024  # bytes a replayed body is sent in, as Starlette's FileResponse reads them (uvicorn's flow control)
PASS_HEADERS = frozenset({b"range", b"if-range", b"if-none-match", b"if-modified-since", b"if-match",
                          b"if-unmodified-since"})  # Streamlit's own answer depends on these


def _header(headers, name: bytes) -> bytes | None:
    return next((v for k, v in headers if k.lower() == name), None)


class StaticCache:
    """An ASGI app around `app`: GET/HEAD of `files` (paths below `prefix`, the server's base path + "/static/")
    from memory once `app` has answered a GET for one with a whole 200."""

    def __init__(self, app: ASGIApp, files: Collection[str], prefix: str = "/static/", max_file: int = MAX_FILE,
                 max_total: int = MAX_TOTAL):
        self.app, self.prefix, self.max_file, self.max_total = app, prefix, max_file, max_total
        self.files = frozenset(files)
        self.kept: dict[str, tuple[list, bytes]] = {}  # path -> (headers, body) of its 200
        self.fetching: set[str] = set()
        self.size = self.hits = 0

    def _path(self, scope: Scope) -> str | None:
        """The file a request names, when memory may answer it."""
        path = scope.get("path", "")
        if (scope.get("type") != "http" or scope.get("method") not in ("GET", "HEAD") or scope.get("query_string")
                or not path.startswith(self.prefix) or path[len(self.prefix):] not in self.files
                or posixpath.normpath(path) != path
                or any(k.lower() in PASS_HEADERS for k, _ in scope.get("headers") or [])):
            return None
        return path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = self._path(scope)
        found = self.kept.get(path) if path is not None else None
        if found is not None:
            headers, body = found
            self.hits += 1
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            if scope["method"] == "HEAD" or not body:
                await send({"type": "http.response.body", "body": b""})
                return
            for at in range(0, len(body), PIECE):
                await send({"type": "http.response.body", "body": body[at:at + PIECE],
                            "more_body": at + PIECE < len(body)})
            return
        if path is None or scope["method"] != "GET" or path in self.fetching:
            await self.app(scope, receive, send)
            return
        self.fetching.add(path)
        try:
            await self.app(scope, receive, self._keeping(path, send))
        finally:
            self.fetching.discard(path)

    def _keeping(self, path: str, send: Send) -> Send:
        """`send`, keeping a copy of a response fit to be replayed (the checks of the module's text)."""
        state: dict[str, Any] = {"headers": None, "chunks": [], "length": 0}

        async def keep(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(bytes(k), bytes(v)) for k, v in message.get("headers", [])]
                state["headers"] = headers if self._fit(message, headers) else None
            elif message["type"] == "http.response.body" and state["headers"] is not None:
                piece = bytes(message.get("body", b""))
                state["chunks"].append(piece)
                state["length"] += len(piece)
                if state["length"] > self.max_file:
                    state["headers"] = None
                elif not message.get("more_body", False):
                    self._store(path, state["headers"], b"".join(state["chunks"]))
                    state["headers"] = None
            await send(message)

        return keep

    def _fit(self, start: Message, headers: list) -> bool:
        length = _header(headers, b"content-length")
        return (start.get("status") == 200 and not start.get("trailers")
                and length is not None and length.isdigit() and int(length) <= self.max_file
                and self.size + int(length) <= self.max_total
                and not any(k.lower() in (b"set-cookie", b"content-encoding", b"vary")
                            or k.lower().startswith(b"access-control-") for k, _ in headers))

    def _store(self, path: str, headers: list, body: bytes) -> None:
        if (int(_header(headers, b"content-length")) == len(body) and path not in self.kept
                and self.size + len(body) <= self.max_total):
            self.kept[path] = (headers, body)
            self.size += len(body)


def frontend_files(static_dir: str) -> frozenset[str]:
    """The paths of the files under `static_dir`/static, relative to it (as they follow "/static/" in a URL)."""
    import os

    root = os.path.join(static_dir, "static")
    return frozenset(os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
                     for folder, _, names in os.walk(root) for name in names)
