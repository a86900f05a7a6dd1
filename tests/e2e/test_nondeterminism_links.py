"""A real browser opens a link to the nondeterminism page: the same prompt and settings are there, the runs
table's CSV download holds the same tokens for two visitors, and a projection-mode screenshot at 1280x720."""
import csv
import io
import time
import urllib.parse

import pytest

from tests.browser import open_page, settle, shoot

pytestmark = pytest.mark.timeout(1800)  # each test opens up to three links, each waiting up to 600 s

PROMPT = "Meu animal favorito é o"
LINK = {"prompt": PROMPT, "temperature": "0.9", "runs": "3", "max_new": "4", "seeds": "11,22,33", "vec": "1000",
        "lang": "en", "projection": "1"}


@pytest.fixture(scope="module", autouse=True)
def _home_first(browser, server_url):
    """Open the home page once first: on a fresh server, a deep link as the very first request can run the
    page without app.py's navigation (Streamlit registers the pages on the main script's first run)."""
    open_page(browser, server_url, width=1280, locale="en-US", wait=300).close()


def _until(check, timeout: float = 120.0):
    """Poll `check` until it returns something true (a loaded machine may draw late); return its last value."""
    end, value = time.time() + timeout, None
    while time.time() < end:
        value = check()
        if value:
            return value
        time.sleep(0.5)
    return value


def _visit(browser, url: str, shot: str | None = None, ask: bool = False) -> list[dict]:
    """ask: the link's prompt has not run yet, so the runs wait for "Run 3 times"; click it."""
    page = open_page(browser, url, locale="en-US", wait=600)
    try:
        assert page.locator('[data-testid="stException"]').count() == 0
        assert _until(lambda: page.locator("textarea").first.input_value() == PROMPT)  # a busy machine draws late
        run = page.get_by_role("button", name="Run 3 times")
        if ask:
            assert "Generated text" not in page.inner_text('[data-testid="stMain"]')  # no runs yet
            run.click()
            settle(page, 600, start=2)  # the runs, the tree and the link box are drawn by the end of this run
            assert _until(lambda: "Generated text" in page.inner_text('[data-testid="stMain"]'))  # projection: st.table
            page.get_by_text("Link to this view").click()  # a link made now runs at once for the next visitor
            assert _until(lambda: "run=1" in page.locator('[data-testid="stText"]').last.inner_text())
        else:
            assert run.count() == 0  # the runs were made: shown without a click
        expected = ["0.90", "3", "4", "1,000"]  # temperature, runs, tokens per run, vector size

        def sliders() -> list[str]:
            return [s.inner_text() for s in page.locator('[data-testid="stSliderThumbValue"]').all()]

        _until(lambda: sliders()[:4] == expected)
        assert sliders()[:4] == expected, sliders()
        assert _until(lambda: "seeds=11%2C22%2C33" in page.url) and "temperature=0.9" in page.url  # the address bar
        assert _until(lambda: page.locator("canvas, svg.marks").count() >= 2)  # the tree of runs and the ordered sums
        if shot:
            shoot(page, shot, whole=False)  # what a room sees first at 1280x720
            shoot(page, shot + "-whole")
        with page.expect_download(timeout=120_000) as info:  # the file is written when clicked
            page.get_by_role("button", name="Download CSV").first.click()
        data = open(info.value.path(), encoding="utf-8").read()
        return list(csv.DictReader(io.StringIO(data)))
    finally:
        page.close()


def test_a_link_brings_the_settings_and_the_same_runs(browser, server_url):
    url = f"{server_url}/nondeterminism?{urllib.parse.urlencode(LINK)}"
    first = _visit(browser, url, shot="nondeterminism-link-projection-1280", ask=True)
    assert [r["seed"] for r in first] == ["11", "22", "33"] and all(r["temperature"] == "0.9" for r in first)
    assert all(1 <= len(r["token_ids"].split()) <= 4 for r in first)
    second = _visit(browser, url)  # another visitor (a new session) with the same link: no click
    assert [r["token_ids"] for r in second] == [r["token_ids"] for r in first]
    assert [r["text"] for r in second] == [r["text"] for r in first]
