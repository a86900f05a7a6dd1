"""A phone that follows the teacher draws no files to save (ui.live_class.place.following): the charts' PNG/SVG and
the tables' CSV/JSON buttons are left out of its page, and come back when the student explores alone; the teacher
and every other visitor keep them."""
import pytest
from streamlit.testing.v1 import AppTest


def page(role, following):
    """A page with one chart (its PNG and SVG buttons) and one table (its CSV and JSON buttons)."""
    import altair as alt
    import pandas as pd
    import streamlit as st

    from ui import charts, export

    if role is not None:
        st.session_state["live_class"] = {"code": "KDXP-7M3R", "role": role, "sid": "s1", "following": following}
    df = pd.DataFrame({"x": [1, 2, 3], "y": [3, 1, 2]})
    charts.show(alt.Chart(df).mark_bar().encode(x="x:O", y="y:Q"))
    export.downloads(df, "table", key="dl")


@pytest.mark.parametrize(("role", "following", "buttons"), [
    ("student", True, 0),  # following the teacher: none
    ("student", False, 4),  # exploring alone: all
    ("teacher", True, 4),
    (None, True, 4),  # a visitor in no class
])
def test_only_a_following_phone_draws_no_files(role, following, buttons):
    at = AppTest.from_function(page, args=(role, following), default_timeout=60)
    at.session_state["lang"] = "en"
    at.run()
    assert not at.exception
    assert len(at.get("vega_lite_chart")) == 1  # the chart itself is drawn for everyone
    assert len(at.get("download_button")) == buttons
