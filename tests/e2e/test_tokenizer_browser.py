"""The tokenizer page in a real browser: it renders, tokenizes while typing, and is saved as screenshots."""
import re
import time

import pytest

from tests.browser import open_page, shoot


def open_tokenizer(browser, server_url, width, locale):
    # A fresh server runs in Streamlit's old pages/ mode until app.py has run once (st.navigation then
    # switches it off), so the root is opened first, as a visitor following a link from home would.
    open_page(browser, server_url, width=width, locale=locale).close()
    page = open_page(browser, f"{server_url}/tokenizer", width=width, locale=locale)
    page.wait_for_selector("text=/A map of words|Um mapa das palavras/", timeout=240_000)
    time.sleep(2)
    return page


@pytest.mark.parametrize("width, locale, heading", [(1280, "pt-BR", "Os tokens de"), (390, "en-US", "The tokens of")])
def test_tokenizer_page_renders(browser, server_url, width, locale, heading):
    page = open_tokenizer(browser, server_url, width, locale)
    try:
        assert page.locator('[data-testid="stException"]').count() == 0
        body = page.inner_text("body")
        assert heading in body and "SmolLM2 135M" in body
        assert page.locator("canvas, svg.marks").count() >= 6  # chips, comparison, cost, one-hot, strip, ...
        page.set_viewport_size({"width": width, "height": 7000})  # the app scrolls inside; show all of it
        time.sleep(2)
        shoot(page, f"tokenizer-{width}-{locale}")
    finally:
        page.close()


def test_tokens_update_while_typing(browser, server_url):
    page = open_tokenizer(browser, server_url, 1280, "en-US")
    try:
        box = page.get_by_label("Text (the tokens change as you type)")
        box.fill("")
        box.press_sequentially("The cat sat", delay=40)  # no Enter, no leaving the box
        metric = page.locator('[data-testid="stMetricValue"]').first
        deadline = time.time() + 30
        while time.time() < deadline and metric.inner_text().strip() != "11":
            time.sleep(0.3)
        assert metric.inner_text().strip() == "11"  # the character count followed the typing
        assert re.search(r"The tokens of", page.inner_text("body"))
        assert page.locator('[data-testid="stException"]').count() == 0
    finally:
        page.close()
