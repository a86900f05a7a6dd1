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


def attention_boxes(following):
    """The attention page's "download this data" box: its captions describe the files, so a following phone gets
    no box at all (not an empty one)."""
    import streamlit as st

    from ui.attention import draw

    st.session_state["live_class"] = {"code": "KDXP-7M3R", "role": "student", "sid": "s1", "following": following}
    draw.data_downloads(None, (), None, 0, 0, "x") if following else st.write("not following")


def test_a_following_phone_gets_no_empty_download_box():
    at = AppTest.from_function(attention_boxes, args=(True,), default_timeout=60)
    at.session_state["lang"] = "en"
    at.run()
    assert not at.exception
    assert not at.expander and not at.caption


def test_the_heads_caption_points_to_files_only_where_they_are():
    from ui.i18n import table

    for pair in (table()["heads.rank.caption"], table()["tokenizer.chips.capped.table"]):
        assert not any(word in text.lower() for text in pair for word in ("csv", "arquivo", "file"))
    assert all("file" in text or "arquivo" in text for text in table()["heads.rank.files"])
