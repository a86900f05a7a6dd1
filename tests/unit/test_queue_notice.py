"""While other visitors' work holds the model, ui.backend.queue_notice shows how many turns are ahead and about
how long, for the time the page waits, then clears it; when the model is free it shows nothing."""
from types import SimpleNamespace

import torch

from model_backend.runtime.engine import Engine
from ui import backend


class Box:
    def __init__(self, log):
        self.log = log

    def info(self, text, icon=None):
        self.log.append(("info", text))

    def empty(self):
        self.log.append(("cleared", None))


def test_notice_while_busy_then_cleared(monkeypatch):
    log = []
    monkeypatch.setattr(backend, "st", SimpleNamespace(empty=lambda: Box(log), session_state={"lang": "en"}))
    monkeypatch.setattr(backend, "t", lambda key, **kw: f"{key} {kw}")
    model = SimpleNamespace(engine=Engine(torch.nn.Linear(2, 2)))
    with backend.queue_notice(model):
        pass
    assert log == []  # a free model: no notice at all
    model.engine.held_s = 2.4  # recent turns took 2.4 s each
    model.engine.lock.acquire()  # another visitor's pass
    try:
        with backend.queue_notice(model):
            assert log == [("info", "backend.queued {'n': 1, 'seconds': 2}")]
    finally:
        model.engine.lock.release()
    assert log[-1] == ("cleared", None)


def test_the_notice_is_in_both_languages():
    from ui.i18n import table

    pt, en = table()["backend.queued"]
    assert all("{n}" in s and "{seconds}" in s for s in (pt, en)) and pt != en
