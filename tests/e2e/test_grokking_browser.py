"""The grokking page in a real browser: both languages and widths, and live training caught mid-way.
Screenshots land in artifacts/screenshots/ (grokking-*.png)."""
import re
import time

import pytest

from tests.browser import open_page, settle, shoot


@pytest.mark.parametrize("width, locale, words", [
    (1280, "pt-BR", ["Grokking: da memorização à generalização", "Por dentro: senos e cossenos", "Treine você mesmo"]),
    (390, "en-US", ["Grokking: from memorisation to generalisation", "Inside: sines and cosines", "Train it yourself"]),
])
def test_grokking_page_renders(browser, server_url, width, locale, words):
    page = open_page(browser, f"{server_url}/grokking", width=width, locale=locale, wait=300)
    try:
        settle(page)
        assert page.locator('[data-testid="stException"]').count() == 0
        body = page.inner_text("body")
        for word in words:
            assert word in body, word
        assert page.locator("canvas, svg.marks").count() >= 6  # accuracy, loss, spectrum, three waves
        shoot(page, f"grokking-{width}-{locale}")
    finally:
        page.close()


def test_live_training_grows_the_curves_and_stops(browser, server_url):
    page = open_page(browser, f"{server_url}/grokking", width=1280, locale="en-US", wait=300)
    try:
        page.get_by_role("button", name="Train").click()
        progress = page.locator('[data-testid="stProgress"]')
        progress.wait_for(timeout=120_000)
        seen = []
        end = time.time() + 240
        while time.time() < end:  # the progress text moves while it trains
            match = re.search(r"Step ([\d,]+) of", progress.inner_text()) if progress.count() else None
            if match:
                seen.append(int(match.group(1).replace(",", "")))
            if len(set(seen)) >= 3 and seen[-1] >= 50:
                break
            time.sleep(1)
        assert len(set(seen)) >= 3 and seen == sorted(seen), seen
        assert page.get_by_role("button", name="Train").is_disabled()  # one run per visitor at a time
        shoot(page, "grokking-mid-training")
        page.get_by_role("button", name="Stop").click()
        page.get_by_text(re.compile(r"Stopped at step [\d,]+")).wait_for(timeout=120_000)
        settle(page)
        assert page.locator('[data-testid="stException"]').count() == 0
        assert page.get_by_role("button", name="Train").is_enabled()
        assert "Fourier view of your run" in page.inner_text("body")
        shoot(page, "grokking-after-stop")
    finally:
        page.close()
