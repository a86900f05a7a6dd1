"""Downloads: every trace a page shows can be saved as CSV or JSON."""
from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from ui.i18n import t


def downloads(df: pd.DataFrame, name: str, key: str) -> None:
    """Two buttons: the table as CSV (UTF-8) and as JSON (records)."""
    left, right = st.columns(2)
    left.download_button(t("export.csv"), df.to_csv(index=False).encode("utf-8"), file_name=f"{name}.csv",
                         mime="text/csv", key=f"{key}_csv", icon=":material/download:")
    right.download_button(t("export.json"), json.dumps(df.to_dict(orient="records"), ensure_ascii=False, indent=1,
                                                       default=float).encode("utf-8"),
                          file_name=f"{name}.json", mime="application/json", key=f"{key}_json",
                          icon=":material/download:")
