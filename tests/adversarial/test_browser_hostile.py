"""In a real browser, on every page: hostile text typed into the prompt box, and hostile values in every one of the
page's link values (HTML, and tests.adversarial.cases.MARKDOWN_BATCH: links, an image, an autolink, bare URLs,
bold, a heading, maths, directives), in normal and in projection mode, open no dialog, run no script, make no
<a> or <img> from the input, raise nothing, and leave the server serving. The same values are checked element by
element in AppTest (test_markdown_probes.py, test_pages_hostile_text.py); here the browser draws them."""
import time
import urllib.parse
import urllib.request

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.adversarial.cases import HOSTILE_NUMBERS, HOSTILE_TEXT, MARKDOWN_BATCH
from tests.browser import open_page, settle
from ui.nav import available

PAGES = [name for name, _ in available()]
# <script> is covered by the AppTest suite; an <img onerror> and a javascript: link in Markdown, in one value
TYPED = HOSTILE_TEXT["img_onerror"] + " " + HOSTILE_TEXT["md_js_link"]
IN_LINKS = HOSTILE_TEXT["img_onerror"] + " " + MARKDOWN_BATCH  # HTML and every Markdown probe, in every value
# HTML and a string in number fields, 10,000 characters long, in every key the app knows (NaN and the other number
# cases are covered page by page in tests/app/*_links.py and tests/unit/test_share.py)
LONG = HOSTILE_TEXT["img_onerror"] + HOSTILE_NUMBERS[4] + "x" * 10_000
ALL_KEYS = ["prompt", "temperature", "top_k", "top_p", "seed", "layer", "head", "lang", "projection", "steps", "p"]
FROM_INPUT = """() => [...document.querySelectorAll('a[href*="example.invalid"], img[src*="example.invalid"]')]
    .map(e => e.outerHTML.slice(0, 160))"""


def _assert_clean(page, dialogs, where):
    assert not dialogs, f"{where}: a dialog opened: {dialogs}"
    assert page.evaluate("window.__xss") is None, f"{where}: injected script ran"
    assert page.locator('img[src="x"]').count() == 0, f"{where}: an <img> from input was rendered"
    assert page.locator('a[href^="javascript:"]').count() == 0, f"{where}: a javascript: link was rendered"
    assert page.locator('[data-testid="stException"]').count() == 0, f"{where}: Streamlit exception"
    assert page.evaluate(FROM_INPUT) == [], f"{where}: a link or an image from the input"


def _url(server_url: str, name: str) -> str:
    return f"{server_url}/{'' if name == 'home' else name}"


@pytest.mark.parametrize("name", PAGES)
def test_hostile_text_in_the_prompt_box(browser, server_url, name):
    dialogs: list = []
    page = open_page(browser, _url(server_url, name), locale="en-US", dialogs=dialogs)
    try:
        box = page.locator("textarea").first
        if not box.count():
            pytest.skip(f"{name} has no text box")
        box.fill(TYPED)
        box.press("Control+Enter")
        settle(page)
        _assert_clean(page, dialogs, f"{name}/typed")
    finally:
        page.close()


def _published_keys(page, wait: float = 600) -> list[str]:
    """The page's own link keys, as it writes them into the address bar once its first run got there."""
    end = time.time() + wait
    while True:
        published = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)
        keys = [k for k in published if k not in ("lang", "projection")]
        if keys or time.time() > end:
            return keys
        time.sleep(0.5)


@pytest.mark.timeout(1800)  # waits of up to 600 s each, one after another (a loaded 2-core machine)
@pytest.mark.parametrize("name", PAGES)
def test_hostile_values_in_every_link_value(browser, server_url, name):
    base = _url(server_url, name)
    dialogs: list = []
    page = open_page(browser, f"{base}?lang=en", locale="en-US", wait=300, dialogs=dialogs)
    try:
        keys = _published_keys(page)
        assert keys, f"{name} publishes no link"
        tried = 0
        for projection in ("0", "1"):
            query = urllib.parse.urlencode({**{k: IN_LINKS for k in keys}, "lang": "en", "projection": projection})
            page.goto(f"{base}?{query}")
            page.wait_for_selector('[data-testid="stApp"]', timeout=300_000)
            settle(page, 600, start=2)
            if "prompt" in keys:  # the page has drawn past its prompt box before it is judged
                page.locator("textarea").first.wait_for(timeout=600_000)
                settle(page, 600)
            where = f"{name} projection={projection}"
            _assert_clean(page, dialogs, where)
            if "prompt" in keys:  # the values reached the page: the prompt box holds them as typed
                values = [box.input_value() for box in page.locator("textarea").all()]
                assert IN_LINKS in values, (where, [v[:40] for v in values])
            tried += 1
        assert tried == 2
    finally:
        page.close()
    # a long string in every field the app knows, language and projection mode included, in a new tab (a page
    # that came from another address sends it along: too long a request for the server)
    long_url = f"{base}?{urllib.parse.urlencode({k: LONG for k in ALL_KEYS})}"
    try:
        page = open_page(browser, long_url, locale="en-US", dialogs=dialogs)
    except PlaywrightError as error:
        # The server may refuse so long a request, and that is an answer too: uvicorn's HTTP parser (h11) takes a
        # request's first lines whole when they arrive in one read, and answers 400 when more than 16 KiB of them
        # arrive in pieces, which Chromium reports as ERR_HTTP_RESPONSE_CODE_FAILURE. Either way nothing ran.
        assert "ERR_HTTP_RESPONSE_CODE_FAILURE" in str(error), error
        assert not dialogs, f"{name} long values: a dialog opened: {dialogs}"
    else:
        try:
            _assert_clean(page, dialogs, f"{name} long values")
        finally:
            page.close()
    assert urllib.request.urlopen(f"{server_url}/_stcore/health", timeout=5).read() == b"ok"
