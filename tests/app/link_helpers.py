"""Open a page of the real app from a link (a query string), the way a visitor's browser does."""
import re

from streamlit.testing.v1 import AppTest

from tests.app.helpers import APP
from ui.untrusted import WORD_JOINER


def open_link(page: str, query: dict[str, str], timeout: float = 600, after_home=None) -> AppTest:
    """Run app.py with the link's query, then the page with the same query.

    AppTest always starts on the default page (home), which publishes its own settings to the URL;
    the query is set again before the page's first run, when its restore() reads it. lang and
    projection are read on the session's first run, as in a browser. `after_home()`, if given, is called
    between the two runs (a test counts what the page itself did: home computes the link's prompt too).
    """
    at = AppTest.from_file(APP, default_timeout=timeout)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    if after_home is not None:
        after_home()
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
    """Every table on the page as a reader sees it: st.dataframe's data, or in projection mode the st.table
    that ui.widgets.data_table draws, its escaped Markdown read back to the characters shown."""
    return [el.value for el in at.dataframe] + [shown_table(el.value) for el in at.table]


def shown(text: str) -> str:
    """What Markdown shows for escaped text: backslash escapes read, word joiners invisible."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text).replace(WORD_JOINER, "")


def shown_table(df):
    out = df.copy()
    out.columns = [shown(c) if isinstance(c, str) else c for c in out.columns]
    for col in out.columns:
        out[col] = [shown(v) if isinstance(v, str) else v for v in out[col]]
    return out
