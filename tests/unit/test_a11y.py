"""Chart text alternatives read the numbers that matter from a chart's data; the setup script's values are escaped."""
import re

import altair as alt
import pandas as pd
import pytest
import streamlit as st

from ui import a11y, charts
from ui.loop.draw import candidates_chart


@pytest.fixture(params=["pt-BR", "en"])
def language(request):
    st.session_state["lang"] = request.param
    yield request.param
    st.session_state.pop("lang", None)


def _summary(chart) -> str:
    chart = charts._unchecked(charts.finish(chart))
    return a11y.summarise(charts.vega_spec(chart), charts._frames(chart))


def test_bars_name_the_top_token_and_its_probability(language):
    df = pd.DataFrame({"token": [" Paris", " a", " the"], "prob": [0.432, 0.101, 0.2], "order": [0, 1, 2],
                       "shown": ["43%", "10%", "20%"], "chosen": ["x", "y", "y"]})
    text = _summary(candidates_chart(df))
    top = "43,2%" if language == "pt-BR" else "43.2%"
    assert f"“ Paris” {top}" in text, text
    assert text.index("Paris") < text.index("the") < text.index(" a”"), text  # highest first
    assert text.startswith("Gráfico" if language == "pt-BR" else "Chart"), text


def test_a_curve_gives_its_peak_and_last_value(language):
    df = pd.DataFrame({"step": [10, 20, 30, 40], "acc": [0.1, 0.9, 0.5, 0.7]})
    chart = alt.Chart(df).mark_line().encode(x=alt.X("step:Q", title="step"),
                                             y=alt.Y("acc:Q", title="accuracy", axis=alt.Axis(format="%")))
    text = _summary(chart)
    peak = "90,0%" if language == "pt-BR" else "90.0%"
    assert peak in text and "step = 20" in text and ("70,0%" if language == "pt-BR" else "70.0%") in text, text
    assert "4" in text and "10" in text and "40" in text, text


def test_a_grid_gives_its_highest_cell(language):
    df = pd.DataFrame({"q": ["a", "a", "b", "b"], "k": ["a", "b", "a", "b"], "w": [0.1, 0.2, 0.3, 0.95]})
    text = _summary(alt.Chart(df).mark_rect().encode(x=alt.X("k:N", title="key"), y=alt.Y("q:N", title="query"),
                                                     color=alt.Color("w:Q", title="weight")))
    assert "2 × 2" in text and "weight" in text and "query = “b”" in text and "key = “b”" in text, text


def test_no_rows_says_so(language):
    text = _summary(candidates_chart(pd.DataFrame({"token": [], "prob": [], "order": [], "shown": [], "chosen": []})))
    assert ("sem dados" if language == "pt-BR" else "no data") in text, text


def test_values_for_the_script_cannot_close_it():
    assert "</" not in a11y._js("</script><b>")
    assert a11y._js('a"b') == '"a\\"b"'


def test_a_curve_from_concatenated_frames_gives_its_peak(language):
    """pd.concat repeats index labels (the grokking page's wave dots): the peak is still one row, not many."""
    df = pd.concat([pd.DataFrame({"x": [0, 1, 2], "value": [0.1, 0.8, 0.3]}),
                    pd.DataFrame({"x": [0, 1, 2], "value": [0.2, 0.4, 0.9]})])
    text = _summary(alt.Chart(df).mark_circle().encode(x=alt.X("x:Q", title="position"),
                                                       y=alt.Y("value:Q", title="value")))
    assert ("0,9" if language == "pt-BR" else "0.9") in text and "position = 2" in text, text
    assert "6" in text, text  # all six points are counted


def test_the_grokking_wave_chart_has_a_text_alternative(language):
    from types import SimpleNamespace

    import numpy as np

    from ui.grokking.draw import waves_chart

    p = 7
    wave = SimpleNamespace(k=2, cos_curve=np.cos(np.arange(p)), sin_curve=np.sin(np.arange(p)), fit=1.0)
    text = _summary(waves_chart(wave, p))
    assert text.startswith("Gráfico" if language == "pt-BR" else "Chart"), text


def _setup(language: str) -> str:
    st.session_state["lang"] = language
    try:
        return a11y.setup_html()
    finally:
        st.session_state.pop("lang", None)


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_the_setup_script_passes_streamlits_sanitiser(language):
    """st.html runs DOMPurify, which drops an element whose text holds "<" and a letter, "/" or "!" (its mXSS rule):
    the setup script (the page's language, the live region) would silently never run."""
    sent = _setup(language)
    body = sent[sent.index("<script>") + len("<script>"):sent.rindex("</script>")]
    assert body.strip().startswith("(() => {") and body.strip().endswith("})();")
    assert not re.search(r"<[/\w!]", body), re.search(r".{30}<[/\w!].{30}", body)
    assert "// " not in sent and "/*" not in sent  # sent without comments (it goes out on every run)
    assert f'window.__tbtLang = "{language}"' in sent


def test_streamlits_own_labels_are_said_in_portuguese():
    st.session_state["lang"] = "pt-BR"
    try:
        words = a11y.streamlit_words()
    finally:
        st.session_state.pop("lang", None)
    assert words["Show data"] == "Mostrar os dados" and words["Skip to main content"].startswith("Pular")
    assert words["Help for "].endswith(" ") and all(pt != en for en, pt in words.items())
    st.session_state["lang"] = "en"
    try:
        assert a11y.streamlit_words() == {}  # in English, Streamlit's labels stay as they are
    finally:
        st.session_state.pop("lang", None)


def test_a_chart_is_named_by_its_titled_axes_not_by_its_data(language):
    df = pd.DataFrame({"token": ["a", "b"], "prob": [0.6, 0.4], "row": [0, 1]})
    bars = alt.Chart(df).mark_bar().encode(x=alt.X("prob:Q", title="probabilidade"), y=alt.Y("token:N", title="token"))
    spec = charts.vega_spec(charts._unchecked(charts.finish(bars)))
    name = a11y.short_name(spec)
    assert name == ("Gráfico: probabilidade por token" if language == "pt-BR" else "Chart: probabilidade by token")
    empty = charts.vega_spec(charts._unchecked(charts.finish(bars.properties(data=df.iloc[:0]))))
    assert a11y.short_name(empty) == name  # the same name whatever the rows: the drawn view is not rebuilt
    untitled = alt.Chart(df).mark_bar().encode(x="row:Q", y="token:N")
    assert a11y.short_name(charts.vega_spec(charts._unchecked(untitled))) in ("Gráfico", "Chart")
    assert spec["config"]["aria"] is False  # Vega's own per-mark labels (internal names, raw floats) are off


def test_several_curves_are_described_one_by_one(language):
    """A line per series (colour by a name): each series' own peak and last value, not one mixed curve."""
    df = pd.DataFrame({"layer": [0, 1, 2, 0, 1, 2], "sim": [1.0, 0.2, 0.6, -0.1, -0.15, -0.07],
                       "series": ["word"] * 3 + ["baseline"] * 3})
    chart = alt.Chart(df).mark_line().encode(x=alt.X("layer:Q", title="layer"), y=alt.Y("sim:Q", title="cosine"),
                                             color=alt.Color("series:N"))
    text = _summary(chart)
    head, word, base = text.split(". “")  # the title, then each series by its name
    assert head in ("Chart", "Gráfico") and word.startswith("word”: 3 ") and base.startswith("baseline”: 3 "), text
    assert "0,600" in word or "0.600" in word, text  # the word's own last value
    assert "-0,070" in base or "-0.070" in base, text
