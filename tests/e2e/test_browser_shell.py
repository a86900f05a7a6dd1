"""A real browser: the server starts, the shell renders with no Streamlit error, screenshots are saved."""
import time

import pytest

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
    time.sleep(1.5)
    end = time.time() + wait
    while time.time() < end and page.locator('[data-testid="stStatusWidget"]').count():
        time.sleep(0.3)
    time.sleep(1.5)  # let Vega draw the charts
    return page


def settle(page, wait: float = 120) -> None:
    """Wait until Streamlit has finished running the page (its "running" indicator is gone), then let
    Vega draw."""
    end = time.time() + wait
    time.sleep(1)
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


@pytest.mark.parametrize("width, locale, greeting", [(1280, "pt-BR", "Bem-vindos"), (390, "en-US", "Welcome")])
def test_shell_renders(browser, server_url, width, locale, greeting):
    page = open_page(browser, server_url, width=width, locale=locale)
    try:
        assert page.locator('[data-testid="stException"]').count() == 0
        assert greeting in page.inner_text("body")
        assert page.locator("canvas, svg.marks").count() >= 1  # the live next-token chart drew
        shoot(page, f"home-{width}-{locale}")
    finally:
        page.close()


def test_deep_link_on_a_fresh_server_gets_the_whole_app(browser):
    """The very first request of a new server is a deep link: the page still runs inside app.py
    (sidebar with language and model), not alone as in Streamlit's older pages/ folder mode."""
    from tests.conftest import start_server, stop_server
    from ui.nav import available

    names = [n for n, _ in available() if n != "home"]
    if not names:
        pytest.skip("no page besides home yet")
    proc, url, log = start_server("server-deeplink.log")
    try:
        page = open_page(browser, f"{url}/{names[0]}?lang=en", locale="en-US")
        body = page.inner_text("body")
        assert "Language" in body and "Projection mode" in body  # app.py's sidebar is there
        assert page.locator('[data-testid="stException"]').count() == 0
        page.close()
    finally:
        stop_server(proc, log)
