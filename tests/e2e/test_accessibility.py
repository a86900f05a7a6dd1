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


# What the keyboard walk reads in the page: the elements that Tab should reach, and the focused one with whether a
# focus ring is drawn on it (an outline or a box-shadow, on it or on one of the 4 wrappers above it: Streamlit's
# selects and sliders draw the ring around the widget).
_WALK = """() => {
  const SEL = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]),' +
              'textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
  let n = 0;
  const mark = e => e.dataset.tbtTab || (e.dataset.tbtTab = 't' + (++n));
  const shown = e => { const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    return (r.width > 0 || r.height > 0) && s.visibility !== 'hidden' && !e.closest('[aria-hidden="true"], [inert]'); };
  const ring = e => { const s = getComputedStyle(e);
    return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1) || (s.boxShadow && s.boxShadow !== 'none'); };
  window.__tbtTabbable = () => [...document.querySelectorAll(SEL)].filter(e => e.tabIndex >= 0 && shown(e)).map(e => {
    mark(e);
    const group = e.getAttribute('role') === 'radio' ? e.closest('[role="radiogroup"]') : null;
    if (group) mark(group);  // a radio group is one Tab stop (arrow keys move inside it)
    return {id: e.dataset.tbtTab, group: group ? group.dataset.tbtTab : null, html: e.outerHTML.slice(0, 120)}; });
  window.__tbtFocused = () => { const e = document.activeElement;
    if (!e || e === document.body) return null;
    mark(e);
    const group = e.closest('[role="radiogroup"]');
    if (group) mark(group);
    let seen = ring(e);
    for (let p = e.parentElement, i = 0; !seen && p && i < 4; p = p.parentElement, i++) seen = ring(p);
    return {id: e.dataset.tbtTab, group: group ? group.dataset.tbtTab : null, ring: seen,
            what: e.tagName + ' ' + (e.getAttribute('aria-label') || e.innerText || '').slice(0, 40)}; };
}"""
HOLD = 200  # Tab presses one element may keep the focus: a data grid moves from cell to cell first, then lets go


@pytest.mark.parametrize("name", PAGES)
def test_tab_reaches_every_control_with_a_visible_focus(browser, a11y_url, name):
    """WCAG 2.1.1, 2.1.2, 2.4.7: from the top of the page, Tab alone reaches every focusable element that is shown
    (a radio group counts once), each with a visible focus ring, and nothing keeps the focus (until it comes back
    to the first element)."""
    page = open_page(browser, _page_url(a11y_url, name, "pt-BR", False), width=1280, locale="pt-BR", wait=300)
    try:
        _wait_for_lang(page, "pt-BR")
        page.evaluate(_WALK)
        wanted = page.evaluate("() => window.__tbtTabbable()")
        assert len(wanted) >= 5, wanted  # every page has the sidebar's links and the language box, at least
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        reached, order, last, held, trapped = {}, [], None, 0, []
        for _ in range(3 * len(wanted) + 2 * HOLD):
            page.keyboard.press("Tab")
            now = page.evaluate("() => window.__tbtFocused()")
            if now is None:
                continue
            if now["id"] == last:
                held += 1
                if held > HOLD:
                    trapped.append(now["what"])
                    break
                continue
            if now["id"] in reached:  # round the page once: back at an element already reached
                break
            last, held = now["id"], 0
            reached[now["id"]] = now
            order.append(now["what"])
        groups = {r["group"] for r in reached.values() if r["group"]}
        missing = [w["html"] for w in wanted if w["id"] not in reached and w["group"] not in groups]
        no_ring = [r["what"] for r in reached.values() if not r["ring"]]
        assert not trapped, trapped
        assert not missing, (len(missing), missing[:5])
        assert not no_ring, no_ring
    finally:
        page.close()
