"""The server's connections send small replies at once: TCP_NODELAY on every accepted connection.

Streamlit 1.67 binds its listening socket with protocol number 0, and asyncio sets TCP_NODELAY only
where the protocol is IPPROTO_TCP, so each reply after the first on a kept-alive connection waited for
the client's delayed ACK (~40 ms). ui.serve wraps Streamlit's own bind function; these tests accept a
real connection through asyncio, as uvicorn does, and read the option on the server's side."""
from __future__ import annotations

import asyncio
import functools
import gc
import socket
from concurrent.futures import ThreadPoolExecutor

from streamlit.web.server.starlette import starlette_server

from ui import serve


def _nodelay_of_accepted(bind) -> tuple[int, socket.socket]:
    listener = bind("127.0.0.1", 0, 8)

    async def run() -> int:
        got: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport: asyncio.Transport) -> None:
                sock = transport.get_extra_info("socket")
                got.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                transport.close()

        server = await asyncio.get_running_loop().create_server(Probe, sock=listener)
        port = listener.getsockname()[1]
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            return await asyncio.wait_for(got, 10)
        finally:
            writer.close()
            server.close()
            await server.wait_closed()

    with ThreadPoolExecutor(1) as pool:  # its own thread: the browser tests' Playwright keeps a loop running here
        return pool.submit(asyncio.run, run()).result(timeout=30), listener


def test_streamlit_bind_alone_leaves_nagle_on():
    """Why the wrapper exists: Streamlit's own listener gives connections without TCP_NODELAY."""
    nodelay, listener = _nodelay_of_accepted(starlette_server._bind_socket)
    assert listener.proto == 0
    assert nodelay == 0


def test_wrapped_bind_turns_nagle_off_on_each_connection():
    nodelay, listener = _nodelay_of_accepted(serve.tcp_listener(starlette_server._bind_socket))
    assert listener.proto == socket.IPPROTO_TCP
    assert nodelay == 1


def test_wrapped_listener_keeps_streamlits_settings():
    listener = serve.tcp_listener(starlette_server._bind_socket)("127.0.0.1", 0, 8)
    try:
        assert listener.type == socket.SOCK_STREAM
        assert listener.getblocking() is False
        assert listener.get_inheritable() is True
        assert listener.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR) != 0
        assert listener.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) == 1
    finally:
        listener.close()


def test_main_installs_the_wrapper(monkeypatch, request):
    """main() replaces Streamlit's bind function before the server starts (cli.main is not run here)."""
    request.addfinalizer(functools.partial(gc.set_threshold, *gc.get_threshold()))
    gc.set_threshold(700, 10, 10)  # Python's defaults
    original, create = starlette_server._bind_socket, starlette_server.create_starlette_app
    monkeypatch.setattr(serve.cli, "main", lambda: None)
    monkeypatch.setattr(starlette_server, "_bind_socket", original)
    monkeypatch.setattr(starlette_server, "create_starlette_app", create)
    monkeypatch.setattr(serve.bootstrap, "_install_config_watchers", serve.bootstrap._install_config_watchers)
    monkeypatch.setattr(serve.PagesManager, "uses_pages_directory", serve.PagesManager.uses_pages_directory)
    monkeypatch.setattr(serve.sys, "argv", list(serve.sys.argv))
    monkeypatch.setattr(serve.ScriptCache, "clear", getattr(serve.ScriptCache.clear, "tbt_wrapped",
                                                            serve.ScriptCache.clear))
    warmed = []
    monkeypatch.setattr(serve.warm, "start", warmed.append)  # no warm-up thread here (tests/unit/test_warm.py)
    serve.main(["--server.port", "9001"])
    assert warmed == [["--server.port", "9001"]]  # the server's own options reach the warm-up
    assert starlette_server._bind_socket is not original
    nodelay, _ = _nodelay_of_accepted(starlette_server._bind_socket)
    assert nodelay == 1
    assert starlette_server.create_starlette_app.tbt_wrapped is create  # the frontend's files from memory
    assert hasattr(serve.ScriptCache.clear, "tbt_wrapped")  # the compiled scripts kept (test_serve_script_cache)
    assert gc.get_threshold() == serve.GC_THRESHOLD == (10_000, 10, 10)  # fewer collections in the server
