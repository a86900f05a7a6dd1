"""The "Why this token?" page in a real browser: it draws, integrated gradients run from the button with the
completeness check, screenshots at 1280 and 390 px in both languages and in projection mode."""
import re

import pytest

from tests.browser import open_page, settle, shoot

GO = re.compile("Completar e explicar|Complete and explain")


def open_why(browser, url: str, width: int, locale: str, query: str = ""):
    """Home first: a fresh server asked for /why before it ever ran app.py would run the page file alone."""
    open_page(browser, url, width=width, locale=locale).close()
    page = open_page(browser, f"{url}/why" + (f"?{query}" if query else ""), width=width, locale=locale)
    settle(page, wait=300)
    page.locator('[data-testid="stMain"] button').filter(has_text=GO).first.click()  # nothing heavy before it
    settle(page, wait=300)
    return page


@pytest.mark.parametrize("width, locale, query, heading", [
    (1280, "pt-BR", "", "Quais camadas e cabeças escreveram este logit?"),
    (390, "en-US", "", "Which layers and heads wrote this logit?"),
    (1280, "en-US", "projection=1&lang=en", "Which layers and heads wrote this logit?"),
])
def test_why_page_draws(browser, server_url, width, locale, query, heading):
    page = open_why(browser, server_url, width, locale, query)
    try:
        assert page.locator('[data-testid="stException"]').count() == 0
        main = page.locator('[data-testid="stMain"]')
        assert heading in main.inner_text()
        assert page.locator('[data-testid="stVegaLiteChart"]').count() >= 3
        assert page.evaluate("() => window.__xss === undefined")
        shoot(page, f"why_{width}_{locale}{'_projection' if 'projection' in query else ''}")
    finally:
        page.close()


@pytest.mark.timeout(1800)  # waits of up to 600-900 s each, one after another (a loaded 2-core machine)
def test_integrated_gradients_from_the_button(browser, server_url):
    """On the logit of " Paris" alone (contrast=-1: none). Measured here: 16 and 32 points miss the sum, 64 meet it
    (0.07%), 2.5 min wall on the shared 2 cores; the contrast with " Ulm" needs 128 and is the integration tier's."""
    page = open_why(browser, server_url, 1280, "en-US", "contrast=-1")
    try:
        page.get_by_role("button", name="Compute the attribution").click()
        settle(page, wait=600)
        text = page.locator('[data-testid="stMain"]').inner_text()
        assert "Completeness check" in text and "Residual" in text
        assert "Where the two disagree most:" in text
        assert page.locator('[data-testid="stException"]').count() == 0
        shoot(page, "why_1280_en_attribution")
    finally:
        page.close()
