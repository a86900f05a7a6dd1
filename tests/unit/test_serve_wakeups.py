"""ui/serve.py wakes Streamlit's event loop once per batch of messages (woken_once): Streamlit 1.67 wrote a byte into
the loop's self-pipe for every message a page run drew, from the loop's own thread too."""
from __future__ import annotations

import asyncio
import inspect
import threading
from types import SimpleNamespace

from streamlit.runtime import runtime as st_runtime

from ui import serve


class _Loop:
    """Counts the wake-ups asked for; runs what it is given."""

    def __init__(self, real):
        self.real, self.woken = real, 0

    def call_soon_threadsafe(self, fn, *args):
        self.woken += 1
        return self.real.call_soon_threadsafe(fn, *args)


def _runtime(loop, event):
    objs = SimpleNamespace(eventloop=loop, need_send_data=event)
    return SimpleNamespace(_get_async_objs=lambda: objs)


def test_on_the_loop_the_event_is_set_without_a_wake_up():
    async def play():
        event = asyncio.Event()
        serve.woken_once(None)(_runtime(asyncio.get_running_loop(), event))
        return event.is_set()  # set at once: through call_soon_threadsafe it would be set on a later turn

    assert asyncio.run(play())


def test_from_a_run_s_thread_the_loop_is_woken_once_until_it_clears_the_event():
    async def play():
        event = asyncio.Event()
        loop = _Loop(asyncio.get_running_loop())
        rt = _runtime(loop, event)
        wrapped = serve.woken_once(None)

        def from_thread(n):
            for _ in range(n):
                wrapped(rt)

        th = threading.Thread(target=from_thread, args=(1,))
        th.start()
        th.join()
        await asyncio.wait_for(event.wait(), 5)  # the loop was woken and set it
        th = threading.Thread(target=from_thread, args=(20,))
        th.start()
        th.join()
        assert loop.woken == 1  # set already: 20 more messages need no wake-up
        event.clear()  # the loop flushes every queue
        th = threading.Thread(target=from_thread, args=(1,))
        th.start()
        th.join()
        await asyncio.wait_for(event.wait(), 5)
        return loop.woken

    assert asyncio.run(play()) == 2


def test_streamlit_still_wakes_the_loop_per_message():
    # what the wrapper is for; when a newer Streamlit stops doing it, this test says the wrapper can go
    source = inspect.getsource(st_runtime.Runtime._enqueued_some_message)
    assert "call_soon_threadsafe(async_objs.need_send_data.set)" in source
    assert "need_send_data.clear()" in inspect.getsource(st_runtime.Runtime._loop_coroutine)
