"""ui.charts.vega_spec: the spec the browser gets stays the same when only the data changes, so the browser
updates the drawn view instead of building a new one."""
import json

import altair as alt
import pandas as pd
import pyarrow as pa
import pytest

from ui import a11y, charts


def _bars(values):
    df = pd.DataFrame({"token": ["a", "b", "c"], "p": values})
    return alt.Chart(df).mark_bar().encode(x="p:Q", y="token:N", tooltip=["token", "p"])


def _layered(values, marks):
    bars = _bars(values)
    rule = alt.Chart(pd.DataFrame({"x": marks})).mark_rule().encode(x="x:Q")
    return alt.layer(bars, rule)


def _table(data: bytes) -> pd.DataFrame:
    return pa.ipc.open_stream(data).read_pandas()


def test_new_data_keeps_the_spec_and_changes_only_the_datasets():
    a, b = charts.vega_spec(_bars([0.5, 0.3, 0.2])), charts.vega_spec(_bars([0.1, 0.2, 0.7]))
    da, db = a.pop("datasets"), b.pop("datasets")
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert list(da) == list(db) == ["tbt_0"]
    assert _table(da["tbt_0"])["p"].tolist() == [0.5, 0.3, 0.2]
    assert _table(db["tbt_0"])["p"].tolist() == [0.1, 0.2, 0.7]
    assert "tbt_0" in json.dumps(a)  # the marks read the renamed dataset


def test_layers_keep_one_name_each_and_every_reference_is_renamed():
    from streamlit.elements.vega_charts import _convert_altair_to_vega_lite_spec

    hashed = list(_convert_altair_to_vega_lite_spec(_layered([0.5, 0.3, 0.2], [0.25]))["datasets"])
    spec = charts.vega_spec(_layered([0.5, 0.3, 0.2], [0.25]))
    names = list(spec.pop("datasets"))
    assert names == ["tbt_0", "tbt_1"] and len(hashed) == 2
    text = json.dumps(spec)
    assert all(name in text for name in names)
    assert not any(name in text for name in hashed)  # no content-hash name is left behind


def test_a_chart_drawn_again_is_converted_once_and_given_a_fresh_dict():
    chart = _bars([0.5, 0.3, 0.2])
    first = charts.vega_spec(chart)
    first["mark"] = "line"  # Streamlit edits what it is given: the kept copy must not change
    del first["datasets"]
    second = charts.vega_spec(chart)
    assert second["mark"] != "line" and "datasets" in second


def _compiled_data_names(spec: dict) -> list[str]:
    """The names of the data sources Vega-Lite compiles the spec into (the datasets inlined as records)."""
    import vl_convert as vlc

    spec = dict(spec)
    spec["datasets"] = {name: _table(data).to_dict("records") for name, data in spec["datasets"].items()}
    return [d["name"] for d in vlc.vegalite_to_vega(spec)["data"]]


def test_the_stable_names_do_not_collide_with_vega_lites_own_data_sources():
    """Vega-Lite names the data sources it derives "data_0", "data_1", ...: a dataset of ours with such a name
    made two sources of one name, and a chart with transforms and bound sliders drew no sliders at all."""
    slider = alt.selection_point(name="T", fields=["T"], value=0.7, clear=False, on="none",
                                 bind=alt.binding_range(min=0.1, max=2, step=0.05, name="T"))
    chart = _bars([0.5, 0.3, 0.2]).transform_calculate(q="datum.p / toNumber(T_T)").add_params(slider)
    names = _compiled_data_names(charts.vega_spec(chart))
    assert len(names) == len(set(names)), names
    renamed = charts.vega_spec(chart)
    renamed["datasets"] = {"data_0": renamed["datasets"]["tbt_0"]}
    renamed["data"] = {"name": "data_0"}
    clash = _compiled_data_names(renamed)
    assert len(clash) > len(set(clash)), clash  # the test sees the clash it guards against


def _loop_frames():
    from ui.loop import draw as loop_draw

    cands = pd.DataFrame({"order": range(3), "token": ["Paris", " a", "∅"], "prob": [0.6, 0.3, 0.1],
                          "shown": ["60%", "30%", "10%"], "chosen": ["chosen", "not chosen", "not chosen"]})
    timing = pd.DataFrame({"step": [1, 2, 3], "ms": [120.5, 40.25, 38.0], "phase": ["prefill", "decode", "decode"],
                           "shown": ["120.5 ms", "40.2 ms", "38.0 ms"]})
    kv = pd.DataFrame({"positions": [1, 6, 7, 8], "bytes": [200, 1000, 1200, 1400],
                       "series": ["formula", "measured", "measured", "measured"],
                       "shown": ["200 B", "1 kB", "1.2 kB", "1.4 kB"]})
    return [(loop_draw.candidates_chart, cands), (loop_draw.timing_bars, timing), (loop_draw.kv_line, kv)]


@pytest.mark.parametrize("lang,projection", [("en", False), ("pt-BR", True)])
def test_show_frame_sends_what_show_would_and_builds_each_chart_once(monkeypatch, lang, projection):
    """show_frame(builder, df) sends the spec and data of show(builder(df)) (the same JSON, the same Arrow table),
    with a chart built once per builder, language and projection mode; its image has the rows too."""
    import streamlit as st

    st.session_state["lang"], st.session_state["projection"] = lang, projection
    sent = []
    monkeypatch.setattr(st, "vega_lite_chart", lambda spec, **kwargs: sent.append(spec))
    for builder, df in _loop_frames():
        built = []
        monkeypatch.setattr(charts, "_TEMPLATES", charts.SharedMemo(8))
        counted = lambda frame, builder=builder, built=built: built.append(len(frame)) or builder(frame)  # noqa: E731
        counted.__module__, counted.__qualname__ = builder.__module__, builder.__qualname__
        for rows in (df, df.iloc[:2], df):
            charts.show_frame(counted, rows, save=False)
            want = charts.localise(charts.vega_spec(charts.finish(builder(rows))), lang)
            got = sent.pop()
            assert got["description"] == a11y.short_name(want)  # the chart's accessible name, from the spec only
            assert json.dumps({**got, "datasets": None, "description": None}, sort_keys=True) == json.dumps(
                {**want, "datasets": None, "description": None}, sort_keys=True)
            assert _table(got["datasets"]["tbt_0"]).equals(_table(want["datasets"]["tbt_0"]))
        assert built == [0]  # built once, from no rows
        template = charts._TEMPLATES.get(next(iter(charts._TEMPLATES._values)), None)
        assert charts.image_spec(template.properties(data=df)) == charts.image_spec(charts.finish(builder(df)))


def test_show_frame_converts_and_summarises_the_same_rows_once(monkeypatch):
    """A class's phones at the same step draw the same rows: their Arrow bytes and text alternative are made once per
    chart and rows, and rows that differ in any cell are made again (what is sent stays show()'s, above)."""
    import streamlit as st

    st.session_state["lang"], st.session_state["projection"] = "en", False
    sent, summarised = [], []
    monkeypatch.setattr(st, "vega_lite_chart", lambda spec, **kwargs: sent.append(spec))
    monkeypatch.setattr(charts, "_ROWS", charts.SharedMemo(8))
    real = a11y.summarise
    monkeypatch.setattr(a11y, "summarise", lambda spec, frames: summarised.append(1) or real(spec, frames))
    builder, df = _loop_frames()[0]
    charts.show_frame(builder, df, save=False)
    charts.show_frame(builder, df.copy(), save=False)  # equal rows, another object
    assert len(summarised) == 1 and sent[0]["datasets"] == sent[1]["datasets"]
    changed = df.copy()
    changed.iloc[0, list(df.dtypes).index(next(d for d in df.dtypes if d.kind in "if"))] += 1
    charts.show_frame(builder, changed, save=False)
    assert len(summarised) == 2 and sent[2]["datasets"] != sent[0]["datasets"]


def test_show_frame_refuses_a_chart_of_two_tables(monkeypatch):
    import streamlit as st

    st.session_state["lang"], st.session_state["projection"] = "en", False
    monkeypatch.setattr(st, "vega_lite_chart", lambda spec, **kwargs: None)
    def two(df):
        rule = alt.Chart(pd.DataFrame({"x": [0.25]})).mark_rule().encode(x="x:Q")
        return alt.layer(alt.Chart(df).mark_bar().encode(x="p:Q"), rule)

    with pytest.raises(ValueError, match="one table"):
        charts.show_frame(two, pd.DataFrame({"p": [0.5, 0.3, 0.2]}), save=False)


def test_a_chart_met_by_many_visitors_at_once_is_converted_once(monkeypatch):
    """A class's phones that draw a new chart at the same moment: one thread converts it, the others wait and
    get the same spec (they all converted it, 30 times over, when the class opened the loop page)."""
    import threading
    import time

    import streamlit.elements.vega_charts as vega_charts

    original, calls = vega_charts._convert_altair_to_vega_lite_spec, []

    def slow(chart):
        calls.append(chart)
        time.sleep(0.05)  # the conversion takes a while: the other threads arrive meanwhile
        return original(chart)

    monkeypatch.setattr(vega_charts, "_convert_altair_to_vega_lite_spec", slow)
    chart = alt.Chart(pd.DataFrame({"x": [1, 2], "y": [3, 4]})).mark_bar().encode(x="x:Q", y="y:Q")
    specs, start = [], threading.Barrier(8)

    def draw():
        start.wait()
        specs.append(charts.vega_spec(chart))

    threads = [threading.Thread(target=draw) for _ in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(calls) == 1 and len(specs) == 8 and all(s == specs[0] for s in specs)
    other = alt.Chart(pd.DataFrame({"x": [5]})).mark_point().encode(x="x:Q")
    charts.vega_spec(other)
    assert len(calls) == 2  # another chart is converted on its own


def test_show_frame_builds_named_rows_once(monkeypatch):
    """Rows named by a rows_key (the loop: a run's first n steps, in a language) are built and converted once for
    every visitor who draws them; another key builds its own."""
    import streamlit as st

    st.session_state["lang"], st.session_state["projection"] = "en", False
    sent, built = [], []
    monkeypatch.setattr(st, "vega_lite_chart", lambda spec, **kwargs: sent.append(spec))
    monkeypatch.setattr(charts, "_ARROWS", charts.SharedMemo(8))
    builder, df = _loop_frames()[0]

    def rows(frame=df):
        built.append(1)
        return frame

    charts.show_frame(builder, rows, save=False, rows_key=(1, 3, "en"))
    charts.show_frame(builder, rows, save=False, rows_key=(1, 3, "en"))
    assert len(built) == 1 and sent[0] == sent[1]
    charts.show_frame(builder, lambda: rows(df.iloc[:2]), save=False, rows_key=(1, 2, "en"))
    assert len(built) == 2 and sent[2]["datasets"] != sent[0]["datasets"]
    charts.show_frame(builder, df, save=False)  # no key: the rows as given
    assert sent[3]["datasets"] == sent[0]["datasets"]
