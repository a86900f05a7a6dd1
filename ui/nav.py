"""The guided path: the pages in pipeline order. app.py builds the navigation from this list."""
from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui.i18n import t

ROOT = Path(__file__).resolve().parent.parent
# (file stem in pages/, icon). Order = the order a class walks through the pipeline.
PATH = [
    ("home", ":material/home:"),
    ("pipeline", ":material/account_tree:"),
    ("loop", ":material/loop:"),
    ("tokenizer", ":material/text_fields:"),
    ("attention", ":material/visibility:"),
    ("why", ":material/manage_search:"),
    ("temperature", ":material/thermostat:"),
    ("decoding", ":material/alt_route:"),
    ("nondeterminism", ":material/casino:"),
    ("hallucination", ":material/psychology_alt:"),
    ("grokking", ":material/school:"),
]


def available() -> list[tuple[str, str]]:
    """The pages of the path whose file exists (pages are added one issue at a time)."""
    return [(name, icon) for name, icon in PATH if (ROOT / "pages" / f"{name}.py").is_file()]


def next_page_link(current: str) -> None:
    """End a page with a link to the next one on the path."""
    names = [n for n, _ in available()]
    if current in names and names.index(current) + 1 < len(names):
        nxt = names[names.index(current) + 1]
        st.divider()
        st.page_link(f"pages/{nxt}.py", label=t("nav.next", page=t(f"nav.{nxt}")), icon=":material/arrow_forward:")


LINK_FROM = "via"  # a query key that marks a link from another page: its values win over the visitor's earlier ones


def decoding_link(prompt: str | None, source: str) -> None:
    """A link to the decoding page that carries a prompt (so its five strategies start from the text that just
    looped). `source` names the page the link is on; the decoding page reads both on arrival (pages/decoding.py)."""
    query = {LINK_FROM: source}
    if prompt:
        query["prompt"] = prompt
    st.page_link("pages/decoding.py", label=t("decoding.link.from_loop"), icon=":material/alt_route:",
                 query_params=query)
