"""ui.backend.on_model: a function of the model becomes a cached function of its other arguments."""
from types import SimpleNamespace

import torch

from model_backend.runtime.engine import Engine
from ui import backend


def test_each_function_has_its_own_cache_and_underscore_arguments_are_not_hashed(monkeypatch):
    model = SimpleNamespace(engine=Engine(torch.nn.Linear(2, 2)))
    monkeypatch.setattr(backend, "bundle_for", lambda dtype=None: model)  # no real model in a unit test
    monkeypatch.setattr(backend, "_bundle", lambda spec, dtype: ("model", spec, dtype))
    calls = []

    @backend.on_model(max_entries=4)
    def first(m, x, _extra):
        calls.append(("first", x))
        return "first", m, x

    @backend.on_model(max_entries=4)
    def second(m, x, _extra):
        calls.append(("second", x))
        return "second", m, x

    unhashable = object()  # st.cache_data cannot hash this: it must be skipped ("_extra")
    assert first(1, unhashable)[0] == "first" and second(1, unhashable)[0] == "second"
    assert first(1, object())[0] == "first"  # a hit: same function, same hashed arguments
    assert calls == [("first", 1), ("second", 1)]
    _, (_, spec, dtype), _ = first(2, None, dtype="float32")
    assert dtype == "float32" and spec == backend.current_model()
    assert calls[-1] == ("first", 2)
    first.clear()
    first(1, None)
    assert calls[-1] == ("first", 1)  # cleared: computed again
