"""The guided path: the pages in pipeline order. app.py builds the navigation from this list."""
from __future__ import annotations

import copy
from pathlib import Path

import streamlit as st

from model_backend.runtime.memo import cached
from ui.i18n import lang, t

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


@cached(1)
def available() -> tuple[tuple[str, str], ...]:
    """The pages of the path whose file exists (pages are added one issue at a time), looked up once."""
    return tuple((name, icon) for name, icon in PATH if (ROOT / "pages" / f"{name}.py").is_file())


LIVE = ("live", ":material/groups:")  # the class page: in the navigation, not a lesson of the path


def _build() -> dict[str, st.Page]:
    return {name: st.Page(f"pages/{name}.py", title=t(f"nav.{name}"), icon=icon, url_path=name,
                          default=(name == "home")) for name, icon in (*available(), LIVE)}


@cached(8)
def _pages_in(language: str) -> dict[str, st.Page]:
    """The app's pages with titles in `language` (the session's, which t() reads), built once per language and
    shared. st.Page and st.page_link given a file resolve its real path (file-system calls), and each run of every
    page built all the pages and drew several links: with a class's 30 phones opening a page at once, ~15% of the
    server's busy samples (py-spy) were those calls and the interpreter lock handed around them."""
    return _build()


def _pages() -> dict[str, st.Page]:
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    if get_script_run_ctx() is None:  # outside a run (bare mode, a test) st.Page builds empty pages: never keep them
        return _build()
    return _pages_in(lang())


def pages() -> dict[str, st.Page]:
    """The pages for st.navigation in this run: copies of the shared ones (st.navigation marks the page it returns
    as callable once, per object)."""
    return {name: copy.copy(page) for name, page in _pages().items()}


def page(name: str) -> st.Page | str:
    """Our page `name` for st.switch_page: the shared page object, or its file when `name` is not one of ours."""
    return _pages().get(name, f"pages/{name}.py")


def link(name: str, **kwargs) -> None:
    """st.page_link to our page `name` (a file stem of pages/), without resolving its path again."""
    st.page_link(_pages()[name], **kwargs)


def next_page_link(current: str) -> None:
    """End a page with a link to the next one on the path."""
    names = [n for n, _ in available()]
    if current in names and names.index(current) + 1 < len(names):
        nxt = names[names.index(current) + 1]
        st.divider()
        link(nxt, label=t("nav.next", page=t(f"nav.{nxt}")), icon=":material/arrow_forward:")


LINK_FROM = "via"  # a query key that marks a link from another page: its values win over the visitor's earlier ones


def decoding_link(prompt: str | None, source: str) -> None:
    """A link to the decoding page that carries a prompt (so its five strategies start from the text that just
    looped). `source` names the page the link is on; the decoding page reads both on arrival (pages/decoding.py)."""
    query = {LINK_FROM: source}
    if prompt:
        query["prompt"] = prompt
    link("decoding", label=t("decoding.link.from_loop"), icon=":material/alt_route:", query_params=query)
