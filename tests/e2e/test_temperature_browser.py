"""The temperature page in a real browser: it renders in both languages and widths, a slider moves the
numbers without an error, and the model's HTML stays text. Screenshots land in artifacts/screenshots/."""

import re

import pytest

from tests.browser import open_page, settle, shoot


@pytest.mark.parametrize("width, locale, words", [
    (1280, "pt-BR", ["Temperatura e amostragem", "19,4%", "Penalidade 1,3", "Um loop de verdade"]),
    (390, "en-US", ["Temperature and sampling", "19.4%", "Penalty 1.3", "A real loop"]),
])
def test_temperature_page_renders(browser, server_url, width, locale, words):
    page = open_page(browser, f"{server_url}/temperature", width=width, locale=locale, wait=600)
    try:
        tall = page.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
        page.set_viewport_size({"width": width, "height": min(int(tall) + 40, 12000)})  # the whole page
        settle(page)
        shoot(page, f"temperature-{width}-{locale}")
        assert page.locator('[data-testid="stException"]').count() == 0
        body = page.inner_text("body")
        for word in words:
            assert word in body, word
        codes = " ".join(page.locator('[data-testid="stCode"]').all_inner_texts())
        assert "<strong>" in codes, codes  # the model's HTML, shown as text
        assert page.locator("canvas, svg.marks").count() >= 7
    finally:
        page.close()


def test_a_slider_moves_the_numbers(browser, server_url):
    page = open_page(browser, f"{server_url}/temperature", width=1280, locale="en-US", wait=600)
    try:
        metrics = page.locator('[data-testid="stMetricValue"]')
        before = metrics.first.inner_text()
        slider = page.get_by_role("slider", name="Temperature T (0 = greedy)")  # bound to the bars, in the browser
        slider.focus()
        for _ in range(8):
            slider.press("ArrowRight")  # 0.70 -> 1.10
        settle(page)
        assert page.locator('[data-testid="stException"]').count() == 0
        assert metrics.first.inner_text() != before  # more tokens can come out at a higher T
        assert "t=1.1" in page.url  # the link follows the slider (shared links carry it)
        box = page.locator('[data-testid="stExpander"]').filter(has_text="Download the charts and the probabilities")
        box.locator("summary").click()  # the live panel's files: drawn once the box is open
        settle(page)
        svg_button = box.locator('[data-testid="stDownloadButton"]').filter(has_text="SVG").first  # the bars' first
        with page.expect_download(timeout=120_000) as got:
            svg_button.click()
        svg = open(got.value.path(), "rb").read().decode("utf-8")
        titles = re.findall(r"T = [0-9.,]+", svg)
        assert titles and set(titles) == {"T = 1.10"}, titles  # the saved image: the bars at the slider's value now
    finally:
        page.close()
