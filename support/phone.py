"""A class's tab on Streamlit's websocket (no browser), its fragments' timers kept as the frontend keeps them."""
from __future__ import annotations

import asyncio
import time

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import connect

from support.protoload import FINISHED, rerun_msg


class Client:
    """One browser tab as the server sees it: its page, its query string, and its fragments' timers."""

    def __init__(self, base: str, page: str, query: str, cookie: str | None = None):
        self.url = base.replace("http://", "ws://") + "/_stcore/stream"
        self.page, self.query, self.cookie = page, query, cookie
        self.hash, self.pages = "", {}
        self.timers: dict[str, asyncio.Task] = {}
        self.finished: list[tuple[float, str, str]] = []  # (time, page, query) of each full run that finished
        self.page_runs: list[float] = []  # when each full run started (its navigation message)
        self.titled: list[tuple[float, str]] = []  # (time, page) of each full run's first heading: the phone shows it
        self._untitled = False  # a full run started and drew no heading yet
        self.needles: dict[bytes, float | None] = {}  # text -> when a delta first carried it
        self.widgets: dict[str, tuple[str, str, str, bool]] = {}  # id -> (kind, form, fragment, form submitter)
        self.errors: list[str] = []
        self.ready = asyncio.Event()
        self.ws = None

    async def run(self) -> None:
        headers = {"Cookie": self.cookie} if self.cookie else None
        try:
            async with connect(self.url, subprotocols=["streamlit"], max_size=None, ping_interval=None,
                               additional_headers=headers, open_timeout=300) as ws:
                first = rerun_msg(self.page, self.query, "en")
                # a tab that already shows a page (`hash` set: back from a replica that died) asks for that page by
                # its hash, as Streamlit's frontend does when it reconnects; a fresh tab does not know the hashes
                first.rerun_script.page_script_hash = self.hash
                await ws.send(first.SerializeToString())
                self.ws = ws  # after the session's first rerun: a press sent as soon as `ws` is set comes behind it
                # (sent before it, the first rerun reached the server second, cut the press's run short and carried
                # no trigger: the press was lost, as a browser, which sends the first rerun first, never loses it)
                async for data in ws:
                    if isinstance(data, bytes):
                        self._on(ForwardMsg.FromString(data), data)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - a lost client is a figure
            self.errors.append(f"{type(exc).__name__}: {exc}"[:200])
        finally:
            self._drop_timers()

    def _drop_timers(self) -> None:
        for task in self.timers.values():
            task.cancel()
        self.timers.clear()

    def _on(self, msg: ForwardMsg, data: bytes) -> None:
        kind = msg.WhichOneof("type")
        if kind == "new_session" and not msg.metadata.run.fragment_ids:
            # A full run starts. Streamlit's frontend (1.67, App.handleNewSession) drops every timer here
            # (cleanupAutoReruns) and takes the run's page, before the page draws anything. Waiting for the
            # navigation message instead kept the old page's timers ticking when a run was cut short before it:
            # their ticks named a page and a fragment the session no longer had, and the phone never ran again.
            self._drop_timers()
            self.hash = msg.new_session.page_script_hash or self.hash
            self.page = self.pages.get(self.hash, self.page)
            self._untitled = True
        elif kind == "navigation" and msg.navigation.page_script_hash:  # a full run's pages; its timers come after
            self.hash = msg.navigation.page_script_hash
            self.page_runs.append(time.perf_counter())
            self.pages = {p.page_script_hash: p.url_pathname for p in msg.navigation.app_pages} or self.pages
            self.page = self.pages.get(self.hash, self.page)
        elif kind == "page_info_changed":
            self.query = msg.page_info_changed.query_string
        elif kind == "auto_rerun":
            fid = msg.auto_rerun.fragment_id
            if fid in self.timers:
                self.timers[fid].cancel()
            self.timers[fid] = asyncio.get_running_loop().create_task(self._tick(fid, msg.auto_rerun.interval))
        elif kind == "stop_auto_rerun":
            for fid in msg.stop_auto_rerun.fragment_ids:
                if task := self.timers.pop(fid, None):
                    task.cancel()
        elif kind == "delta":
            element = msg.delta.new_element if msg.delta.WhichOneof("type") == "new_element" else None
            if element is not None and self._untitled and element.WhichOneof("type") == "heading":
                self._untitled = False  # the page's title (ui.widgets.intro draws it first): the page is on screen
                self.titled.append((time.perf_counter(), self.page))
            if element is not None and element.WhichOneof("type") == "exception":
                self.errors.append(element.exception.message[:200])
            if element is not None and element.WhichOneof("type") in ("text_input", "button"):
                w = getattr(element, element.WhichOneof("type"))
                self.widgets[w.id] = (element.WhichOneof("type"), w.form_id, msg.delta.fragment_id,
                                      getattr(w, "is_form_submitter", False))
            for needle, seen in self.needles.items():
                if seen is None and needle in data:
                    self.needles[needle] = time.perf_counter()
        elif kind == "script_finished" and msg.script_finished == FINISHED.FINISHED_SUCCESSFULLY:
            self.finished.append((time.perf_counter(), self.page, self.query))
            self.ready.set()
        elif kind == "script_finished" and msg.script_finished == FINISHED.FINISHED_FRAGMENT_RUN_SUCCESSFULLY:
            # a timer's run that put the address right (live_class.keep_address) after the page had already
            # run with the teacher's values: the phone shows her view from here on
            self.finished.append((time.perf_counter(), self.page, self.query))

    def guess_form(self, round_number: int) -> tuple[str, str, str] | None:
        """(text box id, its form's submit button id, their fragment) of this round's guess form, once drawn."""
        box = next(((i, w) for i, w in self.widgets.items()
                    if w[0] == "text_input" and i.endswith(f"-live_guess_text_{round_number}")), None)
        if box is None:
            return None
        send = next((i for i, w in self.widgets.items() if w[0] == "button" and w[3] and w[1] == box[1][1]), None)
        return (box[0], send, box[1][2]) if send else None

    async def send_guess(self, round_number: int, text: str) -> float:
        """What a browser sends when the phone types `text` and presses "Send guess": its fragment's run with the
        form's values (the text and the submit trigger). Returns when it was sent (perf_counter)."""
        box, send, fragment = self.guess_form(round_number)
        msg = rerun_msg(self.page, self.query, "en")
        state = msg.rerun_script
        state.page_script_hash, state.fragment_id = self.hash, fragment
        typed = state.widget_states.widgets.add()
        typed.id, typed.string_value = box, text
        pressed = state.widget_states.widgets.add()
        pressed.id, pressed.trigger_value = send, True
        t = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        return t

    def button(self, key: str) -> tuple[str, str] | None:
        """(id, its fragment or "") of the button drawn with the widget key `key`, once drawn."""
        return next(((i, w[2]) for i, w in self.widgets.items() if w[0] == "button" and i.endswith(f"-{key}")), None)

    async def press(self, key: str) -> float:
        """What a browser sends when this tab presses the button with the widget key `key`: a run (its fragment's,
        when the button is in one) with the button's trigger. Returns when it was sent (perf_counter)."""
        button, fragment = self.button(key)
        msg = rerun_msg(self.page, self.query, "en")
        state = msg.rerun_script
        state.page_script_hash, state.fragment_id = self.hash, fragment
        pressed = state.widget_states.widgets.add()
        pressed.id, pressed.trigger_value = button, True
        t = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        return t

    async def _tick(self, fragment_id: str, interval: float) -> None:
        """What a browser does for `run_every`: ask for the fragment's run every `interval` seconds."""
        while True:
            await asyncio.sleep(interval)
            msg = rerun_msg(self.page, self.query, "en")
            state = msg.rerun_script
            state.page_script_hash, state.fragment_id, state.is_auto_rerun = self.hash, fragment_id, True
            try:
                await self.ws.send(msg.SerializeToString())
            except Exception:  # noqa: BLE001 - the connection closed: its reader says so
                return
