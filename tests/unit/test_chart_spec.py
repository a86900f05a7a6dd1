"""ui.charts.vega_spec: the spec the browser gets stays the same when only the data changes, so the browser
updates the drawn view instead of building a new one."""
import json

import altair as alt
import pandas as pd
import pyarrow as pa

from ui import charts


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
    assert list(da) == list(db) == ["data_0"]
    assert _table(da["data_0"])["p"].tolist() == [0.5, 0.3, 0.2]
    assert _table(db["data_0"])["p"].tolist() == [0.1, 0.2, 0.7]
    assert "data_0" in json.dumps(a)  # the marks read the renamed dataset


def test_layers_keep_one_name_each_and_every_reference_is_renamed():
    from streamlit.elements.vega_charts import _convert_altair_to_vega_lite_spec

    hashed = list(_convert_altair_to_vega_lite_spec(_layered([0.5, 0.3, 0.2], [0.25]))["datasets"])
    spec = charts.vega_spec(_layered([0.5, 0.3, 0.2], [0.25]))
    names = list(spec.pop("datasets"))
    assert names == ["data_0", "data_1"] and len(hashed) == 2
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
