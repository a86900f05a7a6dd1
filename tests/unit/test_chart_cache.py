"""Chart builders keep their charts per argument content, language and projection mode (ui.charts.cached_chart)."""
import dataclasses
import json

import altair as alt
import numpy as np
import pandas as pd
import pytest
import streamlit as st

from model_backend.types import Candidate
from ui.charts import _fingerprint, _NoFingerprint, cached_chart

calls = []


@cached_chart
def bars(df: pd.DataFrame, title: str = "") -> alt.Chart:
    calls.append(len(df))
    return alt.Chart(df).mark_bar().encode(x="x:Q", y="y:N").properties(title=title)


@pytest.fixture(autouse=True)
def _lang():
    st.session_state["lang"] = "en"
    st.session_state["projection"] = False
    yield


def _digest(x) -> bytes:
    import hashlib

    h = hashlib.blake2b(digest_size=16)
    _fingerprint(x, h)
    return h.digest()


def test_same_content_gives_the_same_chart_and_other_content_another():
    calls.clear()
    a = bars(pd.DataFrame({"x": [1.0, 2.0], "y": ["a", "b"]}), title="t")
    b = bars(pd.DataFrame({"x": [1.0, 2.0], "y": ["a", "b"]}), title="t")  # a new frame, the same content
    assert a is b and calls == [2]
    c = bars(pd.DataFrame({"x": [1.0, 2.5], "y": ["a", "b"]}), title="t")
    d = bars(pd.DataFrame({"x": [1.0, 2.0], "y": ["a", "b"]}), title="u")
    assert c is not a and d is not a and calls == [2, 2, 2]


def test_language_and_projection_mode_are_part_of_the_key():
    calls.clear()
    df = pd.DataFrame({"x": [3.0], "y": ["z"]})
    en = bars(df)
    st.session_state["lang"] = "pt-BR"
    pt = bars(df)
    st.session_state["projection"] = True
    projected = bars(df)
    assert len({id(en), id(pt), id(projected)}) == 3 and len(calls) == 3


def test_fingerprints_tell_values_apart_and_refuse_what_they_cannot_read():
    assert _digest((1, "a")) != _digest((1, "b")) and _digest(1) != _digest(1.0) and _digest(1) != _digest("1")
    assert _digest(np.arange(3, dtype=np.float32)) != _digest(np.arange(3, dtype=np.float64))
    assert _digest(np.zeros((2, 3))) != _digest(np.zeros((3, 2)))
    one = Candidate(id=5, text="a", logit=1.0, prob=0.5)
    assert _digest(one) == _digest(dataclasses.replace(one)) and _digest(one) != _digest(dataclasses.replace(one, prob=0.6))
    with pytest.raises(_NoFingerprint):
        _digest(object())
    with pytest.raises(_NoFingerprint):
        _digest(np.array([object()]))


def test_a_builder_with_an_argument_it_cannot_fingerprint_is_simply_called():
    calls.clear()

    @cached_chart
    def with_object(obj, df):
        calls.append(1)
        return alt.Chart(df).mark_point()

    df = pd.DataFrame({"x": [1]})
    assert with_object(object(), df) is not with_object(object(), df) and calls == [1, 1]


@dataclasses.dataclass(frozen=True)
class Arrays:
    name: str
    values: np.ndarray


def test_a_frozen_dataclass_with_arrays_is_fingerprinted_by_content_once_per_object():
    a, same, other = Arrays("x", np.arange(4.0)), Arrays("x", np.arange(4.0)), Arrays("x", np.arange(4.0) + 1)
    assert _digest(a) == _digest(same) and _digest(a) != _digest(other)
    assert _digest(a) == _digest(a)  # the second time from the per-object memo
    calls.clear()

    @cached_chart
    def from_arrays(arrays: Arrays) -> alt.Chart:
        calls.append(1)
        return alt.Chart(pd.DataFrame({"v": arrays.values})).mark_bar()

    assert from_arrays(a) is from_arrays(same) and from_arrays(other) is not from_arrays(a) and calls == [1, 1]


def test_a_chart_is_converted_once_and_streamlit_gets_the_same_spec_and_data_again(monkeypatch):
    """ui.charts.vega_spec converts each chart object once (spec and Arrow datasets kept); every later call
    gives a spec equal to Streamlit's own conversion, its datasets renamed by order, and a fresh dict."""
    from streamlit.elements.vega_charts import _convert_altair_to_vega_lite_spec

    from ui import charts

    chart = alt.Chart(pd.DataFrame({"x": [1.0, 2.0, 3.0], "y": ["a", "b", "c"]})).mark_bar().encode(
        x="x:Q", y="y:N", tooltip=["x:Q"])
    conversions = []
    real = alt.Chart.to_dict
    monkeypatch.setattr(alt.Chart, "to_dict", lambda self, *a, **k: conversions.append(1) or real(self, *a, **k))
    plain = _convert_altair_to_vega_lite_spec(chart)
    first = charts.vega_spec(chart)
    first["mutated by the caller"] = True  # Streamlit adds to what it gets: the kept spec must not change
    second = charts.vega_spec(chart)
    assert len(conversions) == 2  # the plain one and the first kept one; the second came from the store
    assert "mutated by the caller" not in second
    (hashed, data), = plain.pop("datasets").items()
    assert second.pop("datasets") == {"tbt_0": data}  # the same Arrow bytes, named by order
    assert json.dumps(second).replace("tbt_0", hashed) == json.dumps(plain)
    other = chart.properties(title="another object")  # a copy: converted on its own
    assert charts.vega_spec(other)["title"] == "another object"


def test_a_drawn_chart_reads_its_summary_once_per_language(monkeypatch):
    """chart_summary keeps a chart object's text alternative per language; another object with the same content
    is read again (its summary is never taken from a chart that only looks alike)."""
    from ui import a11y
    from ui.charts import chart_summary, vega_spec

    read = []
    real = a11y.summarise
    monkeypatch.setattr(a11y, "summarise", lambda spec, frames: read.append(1) or real(spec, frames))
    df = pd.DataFrame({"x": [0.25, 0.75], "y": ["·a", "·b"]})
    chart = alt.Chart(df).mark_bar().encode(x=alt.X("x:Q", title="probability"), y=alt.Y("y:N", title="token"))
    spec = vega_spec(chart)
    en = chart_summary(chart, spec)
    assert chart_summary(chart, spec) == en and len(read) == 1 and "·b" in en
    st.session_state["lang"] = "pt-BR"
    pt = chart_summary(chart, spec)
    assert pt != en and len(read) == 2 and "·b" in pt
    st.session_state["lang"] = "en"
    assert chart_summary(chart, spec) == en and len(read) == 2
    twin = alt.Chart(df.copy()).mark_bar().encode(x=alt.X("x:Q", title="probability"), y=alt.Y("y:N", title="token"))
    assert chart_summary(twin, vega_spec(twin)) == en and len(read) == 3


def test_the_home_pages_bars_are_built_once_per_table_and_language():
    """A class opening the home page at once: the guess's bars, with each probability written in the visitor's
    language, are one chart per table and language (they were two fifths of the page's run)."""
    from ui.home.draw import guess_chart

    table = pd.DataFrame({"rank": [1, 2], "id": [7, 9], "token": ["·Paris", "·a"], "prob": [0.5, 0.1234]})
    first = guess_chart(table)
    assert guess_chart(table.copy()) is first
    st.session_state["lang"] = "pt-BR"
    other = guess_chart(table)
    assert other is not first
    assert list(first.data["label"]) == ["50.0%", "12.3%"] and list(other.data["label"]) == ["50,0%", "12,3%"]
    st.session_state["lang"] = "en"


def test_the_shipped_grokking_curves_are_one_chart_per_run_and_language(monkeypatch):
    """The grokking page's curves of the shipped run (arrays: the same for every visitor) are kept per the arrays'
    content, so a visit builds no table and hashes no DataFrame; other arrays give another chart."""
    from ui.grokking import draw

    built = []
    real = draw.curves_frame
    monkeypatch.setattr(draw, "curves_frame", lambda runs: built.append(1) or real(runs))
    curves = {"step": np.array([1, 10, 100]), "train_acc": np.array([0.1, 0.9, 1.0]),
              "test_acc": np.array([0.01, 0.02, 0.9]), "train_loss": np.array([4.0, 0.5, 0.01]),
              "test_loss": np.array([4.6, 4.5, 0.3 + 1e-9 * len(calls)])}  # arrays no earlier test kept
    runs = (("p = 113", curves),)
    first = draw.runs_accuracy_chart(runs, 10, 100, 100)
    assert len(built) == 1
    again = draw.runs_accuracy_chart((("p = 113", {k: v.copy() for k, v in curves.items()}),), 10, 100, 100)
    assert again is first and len(built) == 1  # the same arrays: no table built
    assert draw.runs_accuracy_chart(runs, 10, 100, 10) is not first  # another checkpoint marked
    changed = {**curves, "test_acc": np.array([0.01, 0.03, 0.9])}
    assert draw.runs_loss_chart((("p = 113", changed),)) is not draw.runs_loss_chart(runs)
    st.session_state["lang"] = "pt-BR"
    assert draw.runs_accuracy_chart(runs, 10, 100, 100) is not first  # another language
    st.session_state["lang"] = "en"
