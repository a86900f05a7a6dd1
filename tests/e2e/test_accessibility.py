"""The accessibility tier: axe-core (WCAG 2.0, 2.1 and 2.2, levels A and AA) on every page, in both languages,
at 1280x720 and 390 px, and in projection mode; `<html lang>` follows the visitor's language, also after a switch.

Run alone with `pytest -m a11y`. One server for the module, the session's Chromium for every view. Each view's
violations go to artifacts/a11y/axe-<page>.json (docs/accessibility.md has the table of a run).
"""
from __future__ import annotations

import json
import time

import pytest

from tests.browser import open_page
from tests.conftest import ARTIFACTS, start_server, stop_server
from ui.nav import available

pytestmark = pytest.mark.a11y

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
BLOCKING = ("critical", "serious")
# (name, language, width, projection): the four ways a page is seen
VIEWS = [("pt-BR-1280", "pt-BR", 1280, False), ("en-1280", "en", 1280, False),
         ("pt-BR-390", "pt-BR", 390, False), ("pt-BR-projection", "pt-BR", 1280, True)]
PAGES = [name for name, _ in available()]
SNAPSHOTS = ("home", "attention")  # the pages whose accessibility tree the docs write down


@pytest.fixture(scope="module")
def a11y_url():
    proc, url, log = start_server("server-a11y.log")
    yield url
    stop_server(proc, log)


def _page_url(base: str, name: str, lang: str, projection: bool) -> str:
    path = "" if name == "home" else name
    return f"{base}/{path}?lang={lang}" + ("&projection=1" if projection else "")


def _wait_for_lang(page, lang: str, wait: float = 300) -> None:
    """Wait until app.py's setup element has run (it sets <html lang>): the page's script has got that far."""
    page.wait_for_function("want => window.__tbtLang === want && document.documentElement.lang === want", arg=lang,
                           timeout=wait * 1000)


def _audit(page) -> list[dict]:
    from axe_playwright_python.sync_playwright import Axe

    time.sleep(0.5)  # the scroll-region watcher looks at most 200 ms after a change
    try:  # a formula drawn in the last moment: give the watcher its turn (axe reports it if it never comes)
        page.wait_for_function("() => [...document.querySelectorAll('.katex-display')].every(e => e.hasAttribute('tabindex'))",
                               timeout=10_000)
    except Exception:  # noqa: BLE001 - Playwright's TimeoutError: axe below names what is missing
        pass
    result = Axe().run(page, options={"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
    return [{"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]], "help": v["help"]}
            for v in result.response["violations"]]


@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_no_serious_violation(browser, a11y_url, name):
    assert len(PAGES) >= 11, PAGES  # every page of the path is audited
    report, blocking = {}, []
    for view, lang, width, projection in VIEWS:
        page = open_page(browser, _page_url(a11y_url, name, lang, projection), width=width,
                         locale="en-US" if lang == "en" else lang, wait=300)
        try:
            _wait_for_lang(page, lang)
            assert page.locator('[data-testid="stException"]').count() == 0
            found = _audit(page)
            if view == "en-1280" and name in SNAPSHOTS:  # what a screen reader reads (docs/accessibility.md)
                (ARTIFACTS / "a11y").mkdir(parents=True, exist_ok=True)
                (ARTIFACTS / "a11y" / f"aria-{name}.yaml").write_text(page.locator("body").aria_snapshot())
        finally:
            page.close()
        report[view] = found
        blocking += [(view, v["id"], v["impact"], v["nodes"]) for v in found if v["impact"] in BLOCKING]
    (ARTIFACTS / "a11y").mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "a11y" / f"axe-{name}.json").write_text(json.dumps(report, indent=1, ensure_ascii=False))
    assert len(report) == len(VIEWS)
    assert not blocking, blocking


@pytest.mark.parametrize("start, other, pick", [("pt-BR", "en", "English"), ("en", "pt-BR", "Português (Brasil)")])
def test_html_lang_follows_the_language_and_a_switch(browser, a11y_url, start, other, pick):
    page = open_page(browser, _page_url(a11y_url, "home", start, False), locale="en-US" if start == "en" else start,
                     wait=300)
    try:
        _wait_for_lang(page, start)
        assert page.evaluate("document.documentElement.lang") == start
        label = "Idioma" if start == "pt-BR" else "Language"
        page.get_by_role("combobox", name=label).click()
        page.get_by_role("option", name=pick).click()
        _wait_for_lang(page, other, wait=120)  # raises if <html lang> never follows the switch
        page.get_by_text("Language" if other == "en" else "Idioma", exact=True).first.wait_for(timeout=60_000)
        assert page.evaluate("document.documentElement.lang") == other
        # something resetting it (as Streamlit's own index.html does on load) is undone
        page.evaluate("document.documentElement.lang = 'xx'")
        _wait_for_lang(page, other, wait=10)
    finally:
        page.close()
