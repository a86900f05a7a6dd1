"""In a real browser, a chart's PNG and SVG buttons download the image of that chart."""
import html
import re

import pandas as pd

from tests.browser import open_page, shoot


def test_home_chart_downloads_as_png_and_svg(browser, server_url):
    page = open_page(browser, f"{server_url}/?lang=en", width=1280, locale="en-US")
    try:
        buttons = page.locator('[data-testid="stDownloadButton"]').filter(has_text="PNG")
        assert buttons.count() >= 1
        with page.expect_download(timeout=120_000) as got:
            buttons.first.click()
        png = got.value
        assert png.suggested_filename.endswith(".png")
        data = open(png.path(), "rb").read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5_000
        svg_button = page.locator('[data-testid="stDownloadButton"]').filter(has_text="SVG").first
        with page.expect_download(timeout=120_000) as got:
            svg_button.click()
        svg = open(got.value.path(), "rb").read().decode("utf-8")
        assert svg.lstrip().startswith("<svg")
        csv_button = page.locator('[data-testid="stDownloadButton"]').filter(has_text="CSV").first
        with page.expect_download(timeout=120_000) as got:
            csv_button.click()
        table = pd.read_csv(got.value.path(), keep_default_na=False)
        labels = re.findall(r">([^<>]*)</text>", svg)
        for token in table["token"][:5]:  # the image holds the same bars as the page's table
            assert html.escape(token, quote=False) in labels, (token, labels)
        assert page.locator('[data-testid="stException"]').count() == 0
        shoot(page, "home-chart-export-1280-en", whole=False)
    finally:
        page.close()
