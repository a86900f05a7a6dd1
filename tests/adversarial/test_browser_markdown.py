"""In Chromium: Markdown that a link carries in every one of its values (tests.adversarial.cases.MARKDOWN_BATCH:
links, an image, an autolink, bare URLs, bold, a heading, maths, directives) makes no <a> and no <img> that
points where the link says, on any page, in normal and in projection mode."""
import time
import urllib.parse

import pytest

from tests.adversarial.cases import MARKDOWN_BATCH
from tests.browser import open_page, settle
from ui.nav import available

PAGES = [name for name, _ in available()]
FROM_INPUT = """() => [...document.querySelectorAll('a[href*="example.invalid"], img[src*="example.invalid"]')]
    .map(e => e.outerHTML.slice(0, 160))"""


def _published_keys(page, wait: float = 600) -> list[str]:
    """The page's own link keys, as it writes them into the address bar once its first run got there."""
    end = time.time() + wait
    while True:
        published = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)
        keys = [k for k in published if k not in ("lang", "projection")]
        if keys or time.time() > end:
            return keys
        time.sleep(1)


@pytest.mark.timeout(1800)  # waits of up to 600-900 s each, one after another (a loaded 2-core machine)
@pytest.mark.parametrize("name", PAGES)
def test_markdown_in_every_link_value_makes_no_link_or_image(browser, server_url, name):
    base = f"{server_url}/{'' if name == 'home' else name}"
    page = open_page(browser, f"{base}?lang=en", locale="en-US", wait=300)
    try:
        keys = _published_keys(page)
        assert keys, f"{name} publishes no link"
        for projection in ("0", "1"):
            query = urllib.parse.urlencode({**{k: MARKDOWN_BATCH for k in keys}, "lang": "en",
                                            "projection": projection})
            page.goto(f"{base}?{query}")
            page.wait_for_selector('[data-testid="stApp"]', timeout=300_000)
            settle(page, 600, start=2)
            if "prompt" in keys:  # the page has drawn past its prompt box before it is judged
                page.locator("textarea").first.wait_for(timeout=600_000)
                settle(page, 600)
            where = f"{name} projection={projection}"
            assert page.locator('[data-testid="stException"]').count() == 0, where
            assert page.evaluate(FROM_INPUT) == [], where
            if "prompt" in keys:  # the probes reached the page: the prompt box holds them as typed
                values = [box.input_value() for box in page.locator("textarea").all()]
                assert MARKDOWN_BATCH in values, (where, [v[:40] for v in values])
    finally:
        page.close()
