"""Downloads: every trace a page shows can be saved as CSV or JSON."""
from __future__ import annotations

import functools
import json
from collections.abc import Callable

import pandas as pd
import streamlit as st

from ui.i18n import t

Table = pd.DataFrame | Callable[[], pd.DataFrame]  # a table, or what builds it when a file is asked for


def _table(df: Table) -> pd.DataFrame:
    return df() if callable(df) else df


def as_csv(df: Table) -> bytes:
    return _table(df).to_csv(index=False).encode("utf-8")


def as_json(df: Table) -> bytes:
    return json.dumps(_table(df).to_dict(orient="records"), ensure_ascii=False, indent=1, default=float).encode("utf-8")


def files_shown() -> bool:
    """Whether this visitor's page draws files to save (the charts' PNG/SVG, the tables' CSV/JSON): not on a phone
    that follows the teacher in a live class (ui.live_class.place.following)."""
    from ui.live_class.place import following

    return not following()


def downloads(df: Table, name: str, key: str) -> None:
    """Two buttons: the table as CSV (UTF-8) and as JSON (records). The files are written when a button is
    clicked (Streamlit's deferred download), not on every run of the page: most visits download nothing. `df` may
    be a function that builds the table then: a table made only for the files then costs a visit nothing (it runs
    outside the page's run, so it must not read the visitor's language: files have fixed column names). A click
    does not rerun the page (on_click="ignore", as the charts' PNG/SVG buttons): the rerun it started raced with
    the file's own request: in tests/e2e/test_chart_export.py a CSV download sometimes never came. A phone that follows
    the teacher draws none (files_shown)."""
    if not files_shown():
        return
    left, right = st.columns(2)
    left.download_button(t("export.csv"), functools.partial(as_csv, df), file_name=f"{name}.csv",
                         mime="text/csv", key=f"{key}_csv", icon=":material/download:", on_click="ignore")
    right.download_button(t("export.json"), functools.partial(as_json, df), file_name=f"{name}.json",
                          mime="application/json", key=f"{key}_json", icon=":material/download:",
                          on_click="ignore")
