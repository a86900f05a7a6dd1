"""The accessibility tier: axe-core (WCAG 2.0, 2.1 and 2.2, levels A and AA) on every page, in both languages,
at 1280x720 and 390 px, and in projection mode; `<html lang>` follows the visitor's language, also after a switch.
Beyond axe's AA rules: projection mode is held to 7:1 (axe's AAA `color-contrast-enhanced`), the phone view's touch
targets are measured (2.5.8), every chart has a short accessible name, and no Streamlit label is left in English on
a Portuguese page. From the top of each page, Tab alone reaches every control, each with a visible focus ring.

Run alone with `pytest -m a11y`. One server for the module, the session's Chromium for every view. Each view's
violations go to artifacts/a11y/axe-<page>.json (docs/accessibility.md has the table of a run).
"""
from __future__ import annotations

import json
import time

import pytest

from tests.browser import BLOCKING, axe_audit, open_page
from tests.conftest import ARTIFACTS, start_server, stop_server
from ui.i18n import table
from ui.nav import available

pytestmark = pytest.mark.a11y

# (name, language, width, projection): the four ways a page is seen
VIEWS = [("pt-BR-1280", "pt-BR", 1280, False), ("en-1280", "en", 1280, False),
         ("pt-BR-390", "pt-BR", 390, False), ("pt-BR-projection", "pt-BR", 1280, True)]
PAGES = [name for name, _ in available()] + ["live"]  # the path, and the live class page (its join view)
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


# WCAG 2.5.8 measured in the page (axe's target-size rule skips much of Streamlit's widgets): each target that is
# smaller than 24 x 24 px and too close to another one.
_TARGETS = """() => {
  // WCAG 2.5.8 (AA): a target is at least 24 x 24 CSS px, or a 24 px circle centred on it meets no other target
  // (nor another small target's circle); links inside a sentence are exempt. Only what is on screen counts.
  const SEL = 'a[href], button, input:not([type=hidden]), select, textarea, [role=slider], [role=radio], ' +
              '[role=checkbox], [role=switch], [role=tab], summary';
  const vw = document.documentElement.clientWidth;
  const clipped = e => { for (let p = e.parentElement, i = 0; p && i < 3; p = p.parentElement, i++) {
    const r = p.getBoundingClientRect(); if (r.width <= 1 && r.height <= 1) return true; } return false; };
  // a slider's range input is visually hidden: a tap anywhere on its track moves it, so the track is the target
  const area = e => e.type === 'range' && e.closest('[data-testid="stSlider"]')
    ? (e.parentElement.parentElement.parentElement || e).getBoundingClientRect() : e.getBoundingClientRect();
  const all = [...document.querySelectorAll(SEL)].filter(e => {
    const r = area(e), s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && r.right > 0 && r.left < vw && s.visibility !== 'hidden'
      && (e.type === 'range' || !clipped(e))
      && !e.closest('[aria-hidden="true"], .tbt-sr-only, [data-testid="stSkipToContent"]');
  }).map(e => ({e, r: area(e)}));
  const inline = e => e.tagName === 'A' && e.closest('p, li') && e.closest('[data-testid="stMarkdownContainer"]');
  const small = t => t.r.width < 23.5 || t.r.height < 23.5;
  const centre = t => [t.r.left + t.r.width / 2, t.r.top + t.r.height / 2];
  const gap = (c, r) => Math.hypot(Math.max(r.left - c[0], 0, c[0] - r.right), Math.max(r.top - c[1], 0, c[1] - r.bottom));
  const bad = [];
  for (const t of all) {
    if (!small(t) || inline(t.e)) continue;
    const c = centre(t);
    const hit = all.find(o => o !== t && !o.e.contains(t.e) && !t.e.contains(o.e) &&
      (gap(c, o.r) < 12 || (small(o) && Math.hypot(c[0] - centre(o)[0], c[1] - centre(o)[1]) < 24)));
    if (hit) bad.push({w: Math.round(t.r.width), h: Math.round(t.r.height),
      what: t.e.tagName + ' ' + (t.e.getAttribute('aria-label') || t.e.innerText || '').trim().slice(0, 40),
      near: hit.e.tagName + ' ' + (hit.e.getAttribute('aria-label') || hit.e.innerText || '').trim().slice(0, 30),
      box: (t.e.closest('[data-testid]') || {dataset: {}}).dataset.testid});
  }
  return {targets: all.length, small: all.filter(small).length, bad};
}"""

# What a screen reader names: every chart (its Vega-Lite description), and Streamlit's own labels, which must be in
# the page's language (ui.a11y.streamlit_words).
_NAMES = """() => ({charts: [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')].map(e =>
  e.getAttribute('aria-label') || ''), labels: [...document.querySelectorAll('[aria-label], [placeholder]')].map(e =>
  e.getAttribute('aria-label') || e.getAttribute('placeholder'))})"""
ENGLISH = {en for key, (_, en) in table().items() if key.startswith("a11y.st.")}


def _names_problems(page, lang: str, wait: float = 5.0) -> list[str]:
    """What a screen reader would name wrongly. The setup script's watcher looks at most 200 ms after a change, and
    the browser may still be drawing what the run sent: a problem counts once it has stayed for `wait` seconds."""
    end = time.time() + wait
    while True:
        time.sleep(0.5)
        names = page.evaluate(_NAMES)
        problems = [f"chart without a short name: {n!r}" for n in names["charts"] if not 0 < len(n) <= 120]
        if lang != "en":
            problems += [f"Streamlit's English label: {n!r}" for n in names["labels"]
                         if n in ENGLISH or n.startswith("Help for ")]
        if not problems or time.time() > end:
            return problems


# The buttons whose label does not fit and is cut (Streamlit cuts a button's label with "…"; ui.a11y's CSS wraps it).
_CUT_LABELS = """() => [...document.querySelectorAll('button [data-testid="stMarkdownContainer"]')]
  .filter(e => e.offsetParent && e.innerText.trim() && e.scrollWidth > e.clientWidth + 1).map(e => e.innerText)"""


@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_no_serious_violation_and_tab_reaches_every_control(browser, a11y_url, name):
    """axe in the four views, and no button's label cut; in the first one, also the keyboard walk (_tab_walk)."""
    assert len(PAGES) >= 11, PAGES  # every page of the path is audited
    report, blocking, keyboard = {}, [], None
    for view, lang, width, projection in VIEWS:
        page = open_page(browser, _page_url(a11y_url, name, lang, projection), width=width,
                         locale="en-US" if lang == "en" else lang, wait=300)
        try:
            _wait_for_lang(page, lang)
            assert page.locator('[data-testid="stException"]').count() == 0
            found = axe_audit(page)
            found += [{"id": "tbt-names", "impact": "serious", "nodes": _names_problems(page, lang), "help": "names"}]
            cut = page.evaluate(_CUT_LABELS)  # a button's whole name is on screen: none is cut with "…"
            found.append({"id": "tbt-cut-label", "impact": "serious", "nodes": cut, "help": "a button's label is cut"})
            if projection:  # a projector washes colours out: projection mode aims at 7:1 (AAA, 1.4.6)
                found += axe_audit(page, rules=["color-contrast-enhanced"], impact="serious")
            if width < 400:  # a phone: targets of 24 x 24 px at least, or spaced (2.5.8)
                small = page.evaluate(_TARGETS)["bad"]
                found.append({"id": "tbt-target-size", "impact": "serious", "nodes": small, "help": "2.5.8"})
            found = [v for v in found if v["nodes"]]
            if view == "pt-BR-1280":  # the keyboard, in the same tab, after the audits
                keyboard = {kind: what for kind, what in _tab_walk(page).items() if what}
            if view == "pt-BR-1280" and name in SNAPSHOTS:  # what a screen reader reads (docs/accessibility.md)
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
    assert keyboard == {}, keyboard  # the walk ran, and found nothing wrong


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
# selects and sliders draw the ring around the widget; a data grid's selected cell is ringed on the grid's canvas).
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
    // a data grid (glide, under st.dataframe) focuses the cell of its hidden accessible table and draws the ring
    // around the selected cell on its canvas: the cell counts when the grid marks it selected
    if (!seen && e.getAttribute('role') === 'gridcell' && e.closest('[data-testid="stDataFrame"]'))
      seen = e.getAttribute('aria-selected') === 'true';
    return {id: e.dataset.tbtTab, group: group ? group.dataset.tbtTab : null, ring: seen,
            what: e.tagName + ' ' + (e.getAttribute('aria-label') || e.innerText || '').slice(0, 40)}; };
}"""
HOLD = 200  # Tab presses one element may keep the focus: a data grid moves from cell to cell first, then lets go


def _tab_walk(page) -> dict:
    """WCAG 2.1.1, 2.1.2, 2.4.7: from the top of the page, Tab alone reaches every focusable element that is shown
    (a radio group counts once), each with a visible focus ring, and nothing keeps the focus (until it comes back
    to the first element). What went wrong, by kind (empty lists when nothing did)."""
    page.evaluate(_WALK)
    wanted = page.evaluate("() => window.__tbtTabbable()")
    assert len(wanted) >= 5, wanted  # every page has the sidebar's links and the language box, at least
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    reached, last, held, trapped = {}, None, 0, []
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
        if not now["ring"]:  # a ring may be drawn a moment after the focus moves (the grid selects its cell then)
            time.sleep(0.3)
            again = page.evaluate("() => window.__tbtFocused()")
            if again and again["id"] == now["id"]:
                now = again
        last, held = now["id"], 0
        reached[now["id"]] = now
    groups = {r["group"] for r in reached.values() if r["group"]}
    missing = [w["html"] for w in wanted if w["id"] not in reached and w["group"] not in groups]
    return {"trapped": trapped, "missing": missing[:5], "no ring": [r["what"] for r in reached.values() if not r["ring"]]}


_LONGEST_MOTION = """() => Math.max(0, ...[...document.querySelectorAll('*')].flatMap(e => {
  const s = getComputedStyle(e);
  return [s.transitionDuration, s.animationDuration].flatMap(v => v.split(',')).map(v => parseFloat(v) *
    (v.trim().endsWith('ms') ? 0.001 : 1));
}))"""


def test_reduced_motion_cuts_transitions_and_animations(browser, a11y_url):
    """WCAG 2.3.3: with the system's "reduce motion" on, no transition or animation of the page lasts (the same page
    has some without it, so the check can fail)."""
    page = open_page(browser, _page_url(a11y_url, "loop", "pt-BR", False), locale="pt-BR", wait=300)
    try:
        _wait_for_lang(page, "pt-BR")
        normal = page.evaluate(_LONGEST_MOTION)
        page.emulate_media(reduced_motion="reduce")
        time.sleep(0.5)
        reduced = page.evaluate(_LONGEST_MOTION)
        assert normal > 0.05 and reduced <= 0.0001, (normal, reduced)
    finally:
        page.close()
