"""A real browser: the server starts, the shell renders with no Streamlit error, screenshots are saved."""
import time

import pytest

from tests.conftest import ARTIFACTS


def open_page(browser, url: str, width: int = 1280, locale: str = "pt-BR", wait: float = 180):
    """Open a page, wait until Streamlit finished running it, return the Playwright page."""
    page = browser.new_page(viewport={"width": width, "height": 720}, locale=locale)
    page.goto(url)
    page.wait_for_selector('[data-testid="stApp"]', timeout=wait * 1000)
    time.sleep(1.5)
    end = time.time() + wait
    while time.time() < end and page.locator('[data-testid="stStatusWidget"]').count():
        time.sleep(0.3)
    time.sleep(1.5)  # let Vega draw the charts
    return page


def shoot(page, name: str) -> None:
    ARTIFACTS.joinpath("screenshots").mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "screenshots" / f"{name}.png"), full_page=True)


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
