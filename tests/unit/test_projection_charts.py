"""Projection mode's charts and tables are sized for their larger text, and a pt-BR page's charts write numbers as
the page does (ui.charts.finish, ui.charts.localise, ui.widgets.projection_height)."""
import altair as alt
import pandas as pd
import pytest
import streamlit as st

from ui import charts, widgets

DF = pd.DataFrame({"x": [1, 2, 3], "y": [1000.5, 20000.0, 3.0]})


@pytest.fixture(autouse=True)
def _session():
    st.session_state["lang"], st.session_state["projection"] = "en", False
    yield
    st.session_state["projection"] = False


def _line(height, title):
    chart = alt.Chart(DF).mark_line().encode(x="x:Q", y=alt.Y("y:Q", title=title))
    return chart if height is None else chart.properties(height=height)


def test_projection_mode_makes_a_chart_tall_enough_for_its_larger_text_and_its_y_title():
    short, long = "loss", "P(token), média da repetição"
    assert charts.finish(_line(240, long)).height == 240  # not in projection mode: as built
    st.session_state["projection"] = True
    assert charts.finish(_line(240, short)).height == 240 + charts.PROJECTION_EXTRA_PX
    tall = charts.finish(_line(240, long)).height
    # the plot (the height less the axes and legend) holds the vertical title at 22 px, ~11 px a character
    assert tall - charts.PROJECTION_FRAME_PX >= 11 * len(long)
    layered = charts.finish(alt.layer(_line(None, "a"), _line(None, long)).properties(height=200))
    assert layered.height == tall  # the longest title of the layers counts
    banded = charts.finish(alt.Chart(DF).mark_bar().encode(y="x:N", x="y:Q").properties(height=alt.Step(30)))
    assert banded.height == alt.Step(30)  # a height per band is left alone


def test_a_pt_br_chart_writes_its_numbers_as_the_page_does():
    assert charts.localise({}, "en") == {}
    spec = charts.localise({"config": {"axis": {}}}, "pt-BR")
    assert spec["config"]["locale"]["number"]["decimal"] == "," and spec["config"]["axis"] == {}
    chart = alt.Chart(DF).mark_bar().encode(x="x:O", y="y:Q")
    pt = charts.to_image(chart, "svg", language="pt-BR").decode()
    en = charts.to_image(chart, "svg", language="en").decode()
    assert "20.000" in pt and "20,000" not in pt  # the y axis's ticks
    assert "20,000" in en and "20.000" not in en


def test_show_sends_the_visitors_number_format(monkeypatch):
    sent = []
    monkeypatch.setattr(st, "vega_lite_chart", lambda spec, **kwargs: sent.append(spec))
    for language in ("pt-BR", "en"):
        st.session_state["lang"] = language
        charts.show(_line(200, "y"), save=False)
    assert sent[0]["config"]["locale"] == charts.number_locale("pt-BR")
    assert "locale" not in sent[1].get("config", {})


@pytest.mark.parametrize("height,rows,want", [
    (None, 5, "content"), ("stretch", 5, "content"),
    (35 * 11 + 3, 10, "content"),  # a height that held every row: the whole table
    (420, 30, round(420 * widgets.PROJECTION_ROWS)),  # a scrolling table: as many rows as before, taller ones
])
def test_projection_tables_keep_their_rows_visible(height, rows, want):
    assert widgets.projection_height(height, rows) == want


def test_projection_legends_write_their_labels_whole():
    st.session_state["projection"] = True
    legend = charts.finish(_line(200, "y")).to_dict()["config"]["legend"]
    assert legend["labelLimit"] == 0 and legend["labelFontSize"] == 20  # Vega's default cut them at 160 px


def test_the_y_titles_counted_are_every_way_a_chart_writes_one():
    long = "P(token), média da repetição"
    ways = [alt.Y("y:Q", title=long), alt.Y("y:Q", axis=alt.Axis(title=long)), alt.Y("y:Q", title=["a", long]),
            {"field": "y", "type": "quantitative", "title": long}]
    for y in ways:
        chart = alt.Chart(DF).mark_line().encode(x="x:Q", y=y)
        assert charts._y_titles(chart) == [long] or long in charts._y_titles(chart), y
        nested = alt.layer(alt.layer(chart, _line(None, "a")), _line(None, "b"))
        assert long in charts._y_titles(nested)
    assert charts._y_titles(alt.Chart(DF).mark_line().encode(x="x:Q", y="y:Q")) == []  # Vega-Lite's own title


def test_a_height_given_to_streamlit_grows_in_projection_mode_too(monkeypatch):
    sent = []
    monkeypatch.setattr(st, "vega_lite_chart", lambda spec, **kwargs: sent.append(kwargs))
    charts.show(_line(None, "y"), save=False, height=180)
    st.session_state["projection"] = True
    charts.show(_line(None, "y"), save=False, height=180)
    assert [k["height"] for k in sent] == [180, 180 + charts.PROJECTION_EXTRA_PX]


def test_projection_buttons_keep_their_labels_readable():
    css = charts.PROJECTION_CSS
    assert '[data-testid^="stBaseButton-primary"]:not(:disabled) p { color: #fff' in css  # white on blue
    assert '[data-testid^="stBaseButton-primary"]:disabled p { color: #595959' in css  # not white on the page's white


def test_long_legend_labels_are_drawn_on_lines_a_phone_holds():
    import json

    labels = ["embedding (antes de qualquer camada)", "depois da camada", "depois da última camada e da norma final"]
    expr = charts.wrapped_labels(labels, 24)
    assert json.dumps(["embedding (antes de", "qualquer camada)"]) in expr
    assert json.dumps(["depois da última camada", "e da norma final"]) in expr
    assert json.dumps("depois da camada") not in expr  # short enough: drawn as it is (datum.label)
    assert expr.endswith("datum.label")


def test_the_t_by_p_grid_is_larger_on_a_projector():
    from ui.temperature.draw import grid_chart, grid_frame

    sizes = ((1, 2), (3, 40))
    plain = grid_chart(grid_frame(sizes))
    st.session_state["projection"] = True
    big = grid_chart(grid_frame(sizes))
    assert big.height.step > plain.height.step and big.layer[1].mark.fontSize > plain.layer[1].mark.fontSize


@pytest.mark.parametrize("language", ["pt-BR", "en"])
@pytest.mark.parametrize("projection", [False, True])
def test_the_chains_stage_names_are_all_drawn_level_where_they_fit_and_slanted_where_not(language, projection):
    """On a 390 px phone the chain's five columns are ~47 px wide: Vega left out the names that did not fit
    ("penalidade", "top-k"). Now every name is drawn, slanted on a narrow plot, level on a wide one."""
    import re

    import numpy as np
    import vl_convert as vlc

    from model_backend.lessons.temperature import chain_view
    from model_backend.types import SamplingParams
    from ui.i18n import t
    from ui.temperature.draw import chain_heatmap

    st.session_state["lang"], st.session_state["projection"] = language, projection
    logits = np.linspace(4.0, -4.0, 40, dtype=np.float32)
    view = chain_view(logits, SamplingParams(temperature=0.7, top_k=10, top_p=0.9, repetition_penalty=1.2),
                      context_ids=(0, 1), top_n=6)
    chart = charts.finish(chain_heatmap(view, [f"t{i}" for i in range(6)]))
    names = [t(f"temperature.stage.{n}") for n in ("raw", "repetition_penalty", "temperature", "top_k", "top_p")]
    for width, slanted in ((250, True), (450, True), (1400, False)):  # 450: 90 px columns, "temperatura" ~100 px
        spec = chart.to_dict()
        spec["width"] = width
        svg = vlc.vegalite_to_svg(spec)
        for name in names:
            assert f">{name}<" in svg, (name, width)  # drawn, whole
        assert bool(re.search(r"rotate\(-40", svg)) is slanted, width
