"""Helpers for the tests that drive a real browser (tests/e2e, tests/adversarial): open a page of the app,
wait until Streamlit has finished running it, save a screenshot."""
import time

from tests.conftest import ARTIFACTS


def open_page(browser, url: str, width: int = 1280, locale: str = "pt-BR", wait: float = 180,
              dialogs: list | None = None):
    """Open a page, wait until Streamlit finished running it, return the Playwright page.
    If `dialogs` is given, every JavaScript dialog (alert, confirm) is recorded there and dismissed."""
    page = browser.new_page(viewport={"width": width, "height": 720}, locale=locale)
    if dialogs is not None:
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(url)
    page.wait_for_selector('[data-testid="stApp"]', timeout=wait * 1000)
    settle(page, wait, start=1.5)
    return page


def settle(page, wait: float = 120, start: float = 1.0) -> None:
    """Wait until Streamlit has finished running the page (its "running" indicator is gone), then let
    Vega draw. `start`: seconds for a run that a click or a key started to show its indicator."""
    time.sleep(start)
    end = time.time() + wait
    while time.time() < end and page.locator('[data-testid="stStatusWidget"]').count():
        time.sleep(0.3)
    time.sleep(1.5)


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
