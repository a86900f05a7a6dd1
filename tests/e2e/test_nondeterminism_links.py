"""A real browser opens a link to the nondeterminism page: the same prompt and settings are there, the runs
table's CSV download holds the same tokens for two visitors, and a projection-mode screenshot at 1280x720."""
import csv
import io
import urllib.parse

from tests.browser import open_page, shoot

PROMPT = "Meu animal favorito é o"
LINK = {"prompt": PROMPT, "temperature": "0.9", "runs": "3", "max_new": "4", "seeds": "11,22,33", "vec": "1000",
        "lang": "en", "projection": "1"}


def _visit(browser, url: str, shot: str | None = None) -> list[dict]:
    page = open_page(browser, url, locale="en-US", wait=600)
    try:
        assert page.locator('[data-testid="stException"]').count() == 0
        assert page.locator("textarea").first.input_value() == PROMPT
        sliders = [s.inner_text() for s in page.locator('[data-testid="stSliderThumbValue"]').all()]
        assert sliders[:4] == ["0.90", "3", "4", "1,000"], sliders  # temperature, runs, tokens per run, vector size
        assert "seeds=11%2C22%2C33" in page.url and "temperature=0.9" in page.url  # the address bar holds the view
        assert page.locator("canvas, svg.marks").count() >= 2  # the tree of runs and the ordered sums
        if shot:
            shoot(page, shot, whole=False)  # what a room sees first at 1280x720
            shoot(page, shot + "-whole")
        with page.expect_download() as info:
            page.get_by_role("button", name="Download CSV").first.click()
        data = open(info.value.path(), encoding="utf-8").read()
        return list(csv.DictReader(io.StringIO(data)))
    finally:
        page.close()


def test_a_link_brings_the_settings_and_the_same_runs(browser, server_url):
    url = f"{server_url}/nondeterminism?{urllib.parse.urlencode(LINK)}"
    first = _visit(browser, url, shot="nondeterminism-link-projection-1280")
    assert [r["seed"] for r in first] == ["11", "22", "33"] and all(r["temperature"] == "0.9" for r in first)
    assert all(1 <= len(r["token_ids"].split()) <= 4 for r in first)
    second = _visit(browser, url)  # another visitor (a new session) with the same link
    assert [r["token_ids"] for r in second] == [r["token_ids"] for r in first]
    assert [r["text"] for r in second] == [r["text"] for r in first]
