"""A real browser opens a link to the tokenizer page: the same text, tokens and neighbour settings are on
the page, in projection mode, and the screenshot at 1280x720 is saved to be looked at."""
import re
import urllib.parse

from tests.app.test_tokenizer_page import gemma
from tests.browser import open_page, shoot

LINK = {"prompt": "The cat sat", "special": "0", "word": "Paris", "space": "1", "k": "7", "lang": "en",
        "projection": "1"}


def test_a_link_opens_the_same_view_in_projection_mode(browser, server_url):
    page = open_page(browser, f"{server_url}/tokenizer?{urllib.parse.urlencode(LINK)}", locale="en-US")
    try:
        page.wait_for_selector("text=A map of words", timeout=240_000)
        page.wait_for_timeout(2000)
        assert page.locator('[data-testid="stException"]').count() == 0
        assert page.get_by_label("Text (the tokens change as you type)").input_value() == "The cat sat"
        metrics = page.locator('[data-testid="stMetricValue"]')
        assert metrics.nth(0).inner_text().strip() == "11" and metrics.nth(1).inner_text().strip() == "3"
        body = page.inner_text("body")
        first = gemma()("The cat sat", add_special_tokens=False)["input_ids"][0]
        assert f"at position {first:,}, the token's ID" in body  # the first text token is picked (no <bos>)
        assert page.get_by_label("Word", exact=True).input_value() == "Paris"
        assert "·Paris (ID" in body  # the neighbour search ran for " Paris"
        assert page.get_by_label(re.compile("^Projection mode")).is_checked()
        for name, value in LINK.items():
            assert f"{name}={urllib.parse.quote_plus(value)}" in page.url
        shoot(page, "tokenizer-link-projection-1280")
    finally:
        page.close()
