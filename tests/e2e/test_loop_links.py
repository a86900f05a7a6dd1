"""A real browser opens a link to the loop page: the same prompt and settings are there; two visitors who
open it and press Generate get the same tokens; projection-mode screenshot at 1280x720."""
import json
import urllib.parse

from tests.browser import open_page, settle, shoot

PROMPT = "O gato sentou no"
LINK = {"prompt": PROMPT, "temperature": "0.9", "top_k": "40", "top_p": "0.8", "max_new": "3", "seed": "7",
        "stop": json.dumps(["!"]), "lang": "en", "projection": "1"}


def _generate(browser, url: str, shot: str | None = None) -> str:
    page = open_page(browser, url, locale="en-US")
    try:
        assert page.locator('[data-testid="stException"]').count() == 0
        assert page.locator("textarea").first.input_value() == PROMPT
        body = page.inner_text("body")
        assert "T = 0.90 · top-k 40 · top-p 0.80" in body and "max_new_tokens 3" in body and "seed 7" in body
        assert "This link brought the prompt and the settings" in body
        assert "stop=%5B%22%21%22%5D" in page.url and "seed=7" in page.url  # the address bar holds the view
        page.get_by_role("button", name="Generate to the end").first.click()
        settle(page, 300, start=1.5)
        assert page.locator('[data-testid="stException"]').count() == 0
        text = page.locator('[data-testid="stCode"]').first.inner_text()
        assert text.startswith(PROMPT)
        if shot:
            shoot(page, shot)
        return text
    finally:
        page.close()


def test_a_link_brings_the_settings_and_the_same_tokens(browser, server_url):
    url = f"{server_url}/loop?{urllib.parse.urlencode(LINK)}"
    first = _generate(browser, url, shot="loop-link-projection-1280")
    second = _generate(browser, url)  # another visitor (a new session) with the same link
    assert first == second and len(first) > len(PROMPT)
