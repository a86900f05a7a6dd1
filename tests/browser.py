"""Helpers for the tests that drive a real browser (tests/e2e, tests/adversarial): open a page of the app,
wait until Streamlit has finished running it, save a screenshot."""
import time

from tests.conftest import ARTIFACTS

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]  # axe-core's rules for WCAG A and AA
BLOCKING = ("critical", "serious")  # the impacts a test fails on

# Streamlit marks a script run two ways: its status widget ("Running...") is in the page, and its root element says
# data-test-script-state="running" (or a rerun or stop requested, or "initial": no run has begun yet). Either one
# means the page is not done; so does a websocket that is not connected (a reconnect reruns the page).
_BUSY = """() => { const app = document.querySelector('[data-testid="stApp"]');
  return !!document.querySelector('[data-testid="stStatusWidget"]') || !app
    || ['initial', 'running', 'rerunRequested', 'stopRequested'].includes(app.getAttribute('data-test-script-state'))
    || !['CONNECTED', 'STATIC_CONNECTED'].includes(app.getAttribute('data-test-connection-state') || 'CONNECTED'); }"""

# The first run of a page has drawn something: any element in the main area (every page writes its title first).
_DRAWN = """() => !!document.querySelector('[data-testid="stMain"] [data-testid="stElementContainer"]')"""


# Put in every page open_page makes (add_init_script): the time of the last click or key, and of the last change of
# Streamlit's run state, so that settle() sees a run begin instead of sleeping for it.
TRACKER = """(() => { const s = window.__tbtSettle = {input: 0, change: 0};
  for (const kind of ['pointerdown', 'click', 'keydown', 'input', 'change'])
    document.addEventListener(kind, () => { s.input = performance.now(); }, true);
  new MutationObserver(() => { s.change = performance.now(); }).observe(document,
    {subtree: true, attributes: true, attributeFilter: ['data-test-script-state']});
  s.dom = 0;  // the last change anywhere in the page: what the browser is still drawing
  new MutationObserver(() => { s.dom = performance.now(); }).observe(document,
    {subtree: true, childList: true, attributes: true, characterData: true});
})()"""
# The page has not changed for 400 ms (the browser has drawn what the run sent).
_DOM_QUIET = """() => performance.now() - window.__tbtSettle.dom > 400"""
# A run began (or ended) after the last click or key, or the page has had no click or key yet.
_STARTED = """() => { const s = window.__tbtSettle; return s.input === 0 || s.change > s.input; }"""
# Every element the run sent is drawn: none is still Streamlit's placeholder (stSkeleton: a fresh browser loads the
# code of charts, buttons and code blocks on demand, seconds after the run has ended on a slow machine), and every
# Vega-Lite chart has drawn its canvas or SVG.
_CHARTS_DRAWN = """() => !document.querySelector('[data-testid="stMain"] [data-testid="stSkeleton"]') &&
  [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')].every(e => e.querySelector('canvas, svg'))"""


def open_page(browser, url: str, width: int = 1280, locale: str = "pt-BR", wait: float = 180,
              dialogs: list | None = None):
    """Open a page, wait until Streamlit finished running it, return the Playwright page.
    If `dialogs` is given, every JavaScript dialog (alert, confirm) is recorded there and dismissed."""
    page = browser.new_page(viewport={"width": width, "height": 720}, locale=locale)
    page.add_init_script(TRACKER)
    if dialogs is not None:
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        page.goto(url)
        page.wait_for_selector('[data-testid="stApp"]', timeout=wait * 1000)
        # On a loaded machine the first run can start seconds after the app's shell is there: wait for its first
        # element before looking for the end of the run, so that a run which has not begun yet is not taken for one
        # that ended.
        page.wait_for_function(_DRAWN, timeout=wait * 1000)
        settle(page, wait, start=1.5)
    except Exception:
        page.close()  # a page that failed to open is not left in the browser for the next test
        raise
    return page


def settle(page, wait: float = 120, start: float = 1.0, idle: float = 1.0) -> None:
    """Wait until Streamlit has finished running the page, then until its charts are drawn.

    `start`: the most seconds a run that a click or a key started may take to show itself; the wait for it ends as
    soon as the page's run state changed after the last click or key (TRACKER; pages opened without it wait the
    whole `start`). The page counts as finished once neither sign of a run (see _BUSY) has been seen for `idle`
    seconds in a row, so a gap between a run and the rerun it asks for does not end the wait; then every element
    must be drawn (no placeholder left, every chart on its canvas: at most 30 s) and the page must stop changing
    for 400 ms (at most 2.5 s), so that what a test reads or audits is what the browser finished drawing."""
    tracked = page.evaluate("() => !!window.__tbtSettle")
    begin = time.time()
    while time.time() - begin < start:
        if tracked and page.evaluate(_STARTED):
            break
        time.sleep(0.05 if tracked else start)
    end = time.time() + wait
    idle_since = None
    while time.time() < end:
        if page.evaluate(_BUSY):
            idle_since = None
        else:
            idle_since = idle_since or time.time()
            if time.time() - idle_since >= idle:
                break
        time.sleep(0.2)
    drawn_by = time.time() + 30  # the elements' code loads and Vega draws after the run (see _CHARTS_DRAWN)
    while time.time() < drawn_by and not page.evaluate(_CHARTS_DRAWN):
        time.sleep(0.1)
    quiet_by = time.time() + 2.5  # and the page stops changing (a timer or an animation may never let it: a cap)
    while tracked and time.time() < quiet_by and not page.evaluate(_DOM_QUIET):
        time.sleep(0.1)
    time.sleep(0.2)


def shoot(page, name: str, whole: bool = True) -> None:
    """Save a screenshot. Streamlit scrolls inside its main block, so for the whole page the viewport
    is stretched to the content's height first (capped), then put back."""
    ARTIFACTS.joinpath("screenshots").mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    if whole:
        height = page.evaluate("""() => Math.max(...[...document.querySelectorAll(
            '[data-testid="stMain"], [data-testid="stAppViewContainer"], section.main')].map(e => e.scrollHeight), 0)""")
        if height and height > size["height"]:
            page.set_viewport_size({"width": size["width"], "height": min(int(height) + 40, 8000)})
            time.sleep(1.0)
    page.screenshot(path=str(ARTIFACTS / "screenshots" / f"{name}.png"), full_page=True)
    page.set_viewport_size(size)


def axe_audit(page, rules: list[str] | None = None, impact: str | None = None) -> list[dict]:
    """axe-core's WCAG 2.0/2.1/2.2 A and AA rules (or only `rules`) on the page as it is: its violations."""
    from axe_playwright_python.sync_playwright import Axe

    time.sleep(0.5)  # the scroll-region watcher looks at most 200 ms after a change
    try:  # a formula drawn in the last moment: give the watcher its turn (axe reports it if it never comes)
        page.wait_for_function("() => [...document.querySelectorAll('.katex-display')].every(e => e.hasAttribute('tabindex'))",
                               timeout=10_000)
    except Exception:  # noqa: BLE001 - Playwright's TimeoutError: axe below names what is missing
        pass
    only = {"type": "rule", "values": rules} if rules else {"type": "tag", "values": TAGS}
    result = Axe().run(page, options={"runOnly": only, "resultTypes": ["violations"]})
    return [{"id": v["id"], "impact": impact or v["impact"], "nodes": [n["target"] for n in v["nodes"]],
             "help": v["help"]} for v in result.response["violations"]]
