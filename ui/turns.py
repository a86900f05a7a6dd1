"""A class's phones draw the teacher's page a few at a time, each after its title.

When the teacher opens another page, her 30 following phones each run it at once, and the 30 runs share one
interpreter. Run side by side they all finished together, at about the class's whole CPU time (2.6-3.6 s for the
pipeline, attention and tokenizer pages on the 2-core machine), and until then no phone showed even the new page's
title: the server's event loop, which sends every phone's messages, got the interpreter about once in 31 turns,
so the titles reached the phones in the same burst as the rest (docs/performance.md, "A class's phones take turns").

Now a following phone's full run of a lesson page draws the page's title, its introduction and the glossary button
(ui.widgets.intro), and then waits for one of TURNS places before drawing the rest; the place is given back when
the run ends, however it ends (`page_turn`, around the page's run in app.py; ui.live_class.takes_turns says
which runs). Every phone shows the teacher's new page
at once, and the pages fill in one or two at a time. A run waits at most WAIT_S, then draws anyway. Only full runs of
following phones wait: the teacher, a visitor alone, a student exploring alone and every fragment's run never do."""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

TURNS = 2  # runs of following phones drawing a page at once, per server process
WAIT_S = 20.0  # the longest a run waits for its turn before it draws anyway (a stuck run cannot stall a class)

_places = threading.BoundedSemaphore(TURNS)
_run = threading.local()  # this script thread's run: armed (may wait), held (has a place)


@contextmanager
def page_turn(armed: bool) -> Iterator[None]:
    """Around a page's run: `armed` when this run is a following phone's full run; its place, if it took one, is
    given back when the run ends, also when it ends by a rerun or a switch to another page (an exception)."""
    _run.armed, _run.held = armed, False
    try:
        yield
    finally:
        if _run.held:
            _places.release()
        _run.armed = _run.held = False


def wait_turn() -> None:
    """Once the page's title is drawn: an armed run waits here for a place (at most WAIT_S) and holds it until its
    page_turn ends. Anywhere else, and a second time in the same run, it returns at once."""
    if getattr(_run, "armed", False) and not _run.held:
        _run.armed = False
        _run.held = _places.acquire(timeout=WAIT_S)
