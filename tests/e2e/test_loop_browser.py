"""A real browser: the loop page steps once on a click, with no error, at projector and phone widths."""

import pytest

from tests.browser import open_page, settle, shoot


@pytest.fixture(scope="module")
def app_url(browser, server_url):
    """Open the home page once: a fresh server serves sub-pages only after app.py built the navigation."""
    open_page(browser, server_url).close()
    return server_url


@pytest.mark.parametrize("width, locale, button, step", [(1280, "pt-BR", "Próximo token", "Passo 1"),
                                                         (390, "en-US", "Next token", "Step 1")])
def test_loop_page_steps_in_the_browser(browser, app_url, width, locale, button, step):
    page = open_page(browser, f"{app_url}/loop", width=width, locale=locale)
    try:
        assert page.locator('[data-testid="stException"]').count() == 0
        page.get_by_role("button", name=button).first.click()
        settle(page, start=1.5)
        assert page.locator('[data-testid="stException"]').count() == 0
        assert step in page.inner_text("body")  # the first step's candidates are drawn
        assert page.locator("canvas, svg.marks").count() >= 2  # candidates, timing/KV charts
        shoot(page, f"loop-{width}-{locale}")
    finally:
        page.close()
