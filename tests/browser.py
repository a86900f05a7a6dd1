"""Helpers for the tests that drive a real browser (tests/e2e, tests/adversarial): open a page of the app,
wait until Streamlit has finished running it, save a screenshot."""
import time

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.conftest import ARTIFACTS

# Streamlit marks a script run two ways: its status widget ("Running...") is in the page, and its root element says
# data-test-script-state="running" (or a rerun or stop requested). Either one means the page is not done.
_BUSY = """() => !!document.querySelector('[data-testid="stStatusWidget"]') || ['running', 'rerunRequested',
  'stopRequested'].includes(document.querySelector('[data-testid="stApp"]')?.getAttribute('data-test-script-state'))"""

# The first run of a page has drawn something: any element in the main area (every page writes its title first).
_DRAWN = """() => !!document.querySelector('[data-testid="stMain"] [data-testid="stElementContainer"]')"""


def open_page(browser, url: str, width: int = 1280, locale: str = "pt-BR", wait: float = 180,
              dialogs: list | None = None):
    """Open a page, wait until Streamlit finished running it, return the Playwright page.
    If `dialogs` is given, every JavaScript dialog (alert, confirm) is recorded there and dismissed."""
    page = browser.new_page(viewport={"width": width, "height": 720}, locale=locale)
    if dialogs is not None:
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(url)
    page.wait_for_selector('[data-testid="stApp"]', timeout=wait * 1000)
    # On a loaded machine the first run can start seconds after the app's shell is there: wait for its first element
    # before looking for the end of the run, so that a run which has not begun yet is not taken for one that ended.
    page.wait_for_function(_DRAWN, timeout=wait * 1000)
    settle(page, wait, start=1.5)
    return page


# The app's own sign that a run reached its end (ui.a11y.run_finished): a hidden span numbered per full run. The
# number a page last settled on is kept in the page's window, so a navigation or a new page starts afresh.
_RUN = """() => document.querySelector('[data-tbt-run]')?.getAttribute('data-tbt-run') ?? null"""
_SEEN = "() => window.__tbtSettled ?? null"
_MARK = "n => { window.__tbtSettled = n; }"

# Every Vega chart in the page has drawn its canvas or SVG (charts inside closed expanders are drawn too).
_CHARTS_DRAWN = """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')].every(c =>
  c.querySelector('canvas, svg'))"""


def settle(page, wait: float = 120, start: float = 1.0, idle: float = 0.5) -> None:
    """Wait until Streamlit has finished running the page and its charts are drawn.

    Done when the app's end-of-run number (_RUN) has moved past the one this page last settled on and neither sign of
    a run (_BUSY) has been seen for `idle` seconds. Without a new number: done if no run began within `start` + 1
    seconds (the action ran nothing on the server), or 2 s after a run that ended without reaching its end (a fragment's
    rerun, st.stop, an error)."""
    seen = page.evaluate(_SEEN)
    t0 = time.time()
    end = t0 + wait
    busy_seen = False
    idle_since = None
    while time.time() < end:
        busy = page.evaluate(_BUSY)
        run = page.evaluate(_RUN)
        now = time.time()
        if busy:
            busy_seen, idle_since = True, None
        else:
            idle_since = idle_since or now
        quiet = 0.0 if idle_since is None else now - idle_since
        if run is not None and run != seen and quiet >= idle:
            break
        if not busy_seen and quiet > 0 and now - t0 >= start + 1.0:
            break
        if busy_seen and quiet >= 2.0:
            break
        time.sleep(0.1)
    page.evaluate(_MARK, page.evaluate(_RUN))
    try:
        page.wait_for_function(_CHARTS_DRAWN, timeout=10_000, polling=100)
    except PlaywrightTimeout:
        pass  # a chart that never draws is the test's to find, not the wait's
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
