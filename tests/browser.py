"""Helpers for the tests that drive a real browser (tests/e2e, tests/adversarial): open a page of the app,
wait until Streamlit has finished running it, save a screenshot."""
import time

from tests.conftest import ARTIFACTS

# Streamlit's frontend says on its root element whether a script run is going on:
# <div data-testid="stApp" data-test-script-state="running" | "notRunning" | ...> (the attribute Streamlit's own
# end-to-end tests wait on). This observer counts the runs that start and end on the page (fragment runs too)
# and keeps the time of the last change in the main area, so settle() waits for the app's own "run ended"
# signal instead of sleeping a fixed time.
WATCH = """(() => {
  if (window.__tbt) return;
  const w = window.__tbt = {starts: 0, ends: 0, state: null, lastMutation: performance.now()};
  const BUSY = ['running', 'rerunRequested', 'stopRequested'];
  const look = (app) => {
    const s = app.getAttribute('data-test-script-state');
    const was = BUSY.includes(w.state), is = BUSY.includes(s);
    if (is && !was) w.starts += 1;
    if (was && !is) w.ends += 1;
    w.state = s;
  };
  const hook = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app) return false;
    look(app);
    new MutationObserver(() => look(app)).observe(app, {attributes: true,
      attributeFilter: ['data-test-script-state']});
    new MutationObserver(() => { w.lastMutation = performance.now(); }).observe(app,
      {subtree: true, childList: true, attributes: true, characterData: true});
    return true;
  };
  if (!hook()) {
    const wait = new MutationObserver(() => { if (hook()) wait.disconnect(); });
    wait.observe(document, {subtree: true, childList: true});
  }
})()"""

# What settle() reads: busy or not, the runs started and ended, and how long the main area has been still (ms).
_READ = """() => { const w = window.__tbt;
  return [['running', 'rerunRequested', 'stopRequested'].includes(w.state), w.starts, w.ends,
          performance.now() - w.lastMutation]; }"""


def _count_requests(page) -> None:
    """Keep the page's HTTP requests in flight (a lazily loaded part, a chart's file): settle() waits for them."""
    if hasattr(page, "_tbt_pending"):
        return
    page._tbt_pending = set()
    page.on("request", lambda r: page._tbt_pending.add(r))
    for done in ("requestfinished", "requestfailed"):
        page.on(done, lambda r: page._tbt_pending.discard(r))


def open_page(browser, url: str, width: int = 1280, locale: str = "pt-BR", wait: float = 180,
              dialogs: list | None = None):
    """Open a page, wait until Streamlit finished running it, return the Playwright page.
    If `dialogs` is given, every JavaScript dialog (alert, confirm) is recorded there and dismissed."""
    page = browser.new_page(viewport={"width": width, "height": 720}, locale=locale)
    page.add_init_script(WATCH)
    _count_requests(page)
    if dialogs is not None:
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(url)
    page.wait_for_selector('[data-testid="stApp"]', timeout=wait * 1000)
    settle(page, wait, start=1.5)
    return page


def settle(page, wait: float = 120, start: float = 1.0, quiet: float = 0.75) -> None:
    """Wait until Streamlit has finished the runs that the last action started, then until the main area has
    been still for `quiet` seconds (Vega draws its charts after the run).

    A run has ended when the app's root says `data-test-script-state="notRunning"` and every run seen starting
    has ended. `start`: at most this many seconds for a click or a key to start a run; as soon as one starts,
    the wait goes on without the rest of it. An action that starts no run waits `start` seconds, then `quiet`.
    An HTTP request in flight (a lazily loaded part of the frontend, a file) keeps the wait going."""
    page.evaluate(WATCH)  # a page not opened by open_page() gets the observer now
    _count_requests(page)
    seen = getattr(page, "_tbt_seen_starts", 0)
    end = time.monotonic() + wait
    started_by = time.monotonic() + start
    idle_since = None
    while time.monotonic() < end:
        running, starts, ends, still_ms = page.evaluate(_READ)
        now = time.monotonic()
        if running or ends < starts:
            started_by, idle_since = 0.0, None  # a run is going on: no more waiting for one to start
        elif starts > seen or now >= started_by:
            # every run that started has ended; a rerun or a fragment that follows shows as running again.
            # The app still for `quiet` s with no request in flight (or idle 15 s more, if something keeps moving) ends it.
            idle_since = idle_since or now
            if page._tbt_pending:  # a part of the page is still loading (e.g. st.code's highlighter)
                still_ms = 0
            if still_ms >= quiet * 1000 or now - idle_since >= quiet + 15:
                page._tbt_seen_starts = starts
                return
        time.sleep(0.05)
    page._tbt_seen_starts = page.evaluate(_READ)[1]


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
