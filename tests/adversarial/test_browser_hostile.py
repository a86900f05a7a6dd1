"""In a real browser: hostile text typed into every page's prompt and hostile link values open no
dialog, inject no element, and leave the server serving."""
import urllib.parse
import urllib.request

import pytest

from tests.adversarial.cases import HOSTILE_NUMBERS, HOSTILE_TEXT
from tests.browser import open_page, settle
from ui.nav import available

PAGES = [name for name, _ in available()]
PAYLOADS = ["img_onerror", "md_js_link"]  # <script> is covered by the AppTest suite


def _assert_clean(page, dialogs, where):
    assert not dialogs, f"{where}: a dialog opened: {dialogs}"
    assert page.evaluate("window.__xss") is None, f"{where}: injected script ran"
    assert page.locator('img[src="x"]').count() == 0, f"{where}: an <img> from input was rendered"
    assert page.locator('a[href^="javascript:"]').count() == 0, f"{where}: a javascript: link was rendered"
    assert page.locator('[data-testid="stException"]').count() == 0, f"{where}: Streamlit exception"


@pytest.mark.parametrize("name", PAGES)
def test_hostile_text_in_the_prompt_box(browser, server_url, name):
    dialogs: list = []
    page = open_page(browser, f"{server_url}/{'' if name == 'home' else name}", locale="en-US", dialogs=dialogs)
    try:
        box = page.locator("textarea").first
        if not box.count():
            pytest.skip(f"{name} has no text box")
        for payload in PAYLOADS:
            box.fill(HOSTILE_TEXT[payload])
            box.press("Control+Enter")
            settle(page)
            _assert_clean(page, dialogs, f"{name}/{payload}")
    finally:
        page.close()


@pytest.mark.parametrize("name", PAGES)
def test_hostile_link_values(browser, server_url, name):
    keys = ["prompt", "temperature", "top_k", "top_p", "seed", "layer", "head", "lang", "projection", "steps", "p"]
    # HTML everywhere, then strings in number fields with a 10,000-character value (NaN and the other
    # number cases are covered page by page in tests/app/*_links.py and tests/unit/test_share.py)
    values = [HOSTILE_TEXT["img_onerror"], HOSTILE_NUMBERS[4] + "x" * 10_000]
    for value in values:
        query = urllib.parse.urlencode({k: value for k in keys})
        dialogs: list = []
        page = open_page(browser, f"{server_url}/{'' if name == 'home' else name}?{query}", locale="en-US",
                         dialogs=dialogs)
        try:
            _assert_clean(page, dialogs, f"{name}?{value[:20]}")
        finally:
            page.close()
    assert urllib.request.urlopen(f"{server_url}/_stcore/health", timeout=5).read() == b"ok"
