"""The attention page in a real browser: it draws, a click on the grid opens that head, screenshots."""
import time

import pytest

from tests.browser import open_page, settle, shoot


def open_attention(browser, url: str, width: int, locale: str, query: str = ""):
    """Visit the home page first: a fresh server that is asked for /attention before it ever ran app.py
    runs the page file alone, without the app's navigation (Streamlit's legacy pages/ mode).
    query: a link's query string (without '?')."""
    open_page(browser, url, width=width, locale=locale).close()
    return open_page(browser, f"{url}/attention" + (f"?{query}" if query else ""), width=width, locale=locale)


def shoot_whole(page, name: str) -> None:
    """Streamlit scrolls inside its main block, so a full-page shot would stop at the viewport: grow it."""
    height = page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
    page.set_viewport_size({"width": page.viewport_size["width"], "height": min(int(height) + 40, 12000)})
    time.sleep(2)
    shoot(page, name)


@pytest.mark.parametrize("width, locale, heading", [(1280, "pt-BR", "Camada 3, cabeça 4"), (390, "en-US", "Layer 3, head 4")])
def test_attention_page_draws(browser, server_url, width, locale, heading):
    page = open_attention(browser, server_url, width, locale)
    try:
        assert page.locator('[data-testid="stException"]').count() == 0
        main = page.locator('[data-testid="stMain"]')
        assert heading in main.inner_text()
        assert page.locator('[data-testid="stVegaLiteChart"]').count() >= 4
        assert "Token" in page.locator('[data-testid="stSidebar"]').text_content()  # the app's own navigation
        shoot_whole(page, f"attention-{width}-{locale}")
    finally:
        page.close()


def test_clicking_the_grid_opens_that_head_large(browser, server_url):
    page = open_attention(browser, server_url, 1280, "en-US")
    try:
        grid = page.locator('[data-testid="stVegaLiteChart"]').nth(2)
        grid.scroll_into_view_if_needed()
        time.sleep(1)
        box = grid.bounding_box()
        # 19 columns of blocks (18 layers + the average); the first row of blocks is head 1 (index 0)
        page.mouse.click(box["x"] + box["width"] * 11.5 / 19, box["y"] + 50)  # below the layer numbers
        settle(page)
        assert page.locator('[data-testid="stException"]').count() == 0
        assert "Layer 12, head 1" in page.locator('[data-testid="stMain"]').inner_text()
    finally:
        page.close()
