"""Open a page of the real app from a link (a query string), the way a visitor's browser does."""
from streamlit.testing.v1 import AppTest

from tests.app.helpers import APP


def open_link(page: str, query: dict[str, str], timeout: float = 600) -> AppTest:
    """Run app.py with the link's query, then the page with the same query.

    AppTest always starts on the default page (home), which publishes its own settings to the URL;
    the query is set again before the page's first run, when its restore() reads it. lang and
    projection are read on the session's first run, as in a browser.
    """
    at = AppTest.from_file(APP, default_timeout=timeout)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    at.switch_page(f"pages/{page}.py")
    at.query_params.clear()
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    return at


def query_value(at: AppTest, name: str):
    """A query value as the page published it (AppTest gives a str, or a list when repeated)."""
    value = at.query_params.get(name)
    return value[0] if isinstance(value, list) else value


def chart_frames(at: AppTest) -> list:
    """The data of every Altair chart on the page, as DataFrames (what the marks and tooltips show)."""
    import pyarrow as pa

    frames = []
    for chart in at.get("vega_lite_chart"):
        for ds in chart.proto.datasets:
            frames.append(pa.ipc.open_stream(ds.data.data).read_pandas())
    return frames


def tables(at: AppTest) -> list:
    """Every table on the page: st.dataframe, or st.table in projection mode (ui.widgets.data_table)."""
    return list(at.dataframe) + list(at.table)
