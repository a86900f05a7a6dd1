"""A real browser on the hallucination page: it renders in both languages and both widths, a token's tooltip
lists the alternatives, and the model's own HTML ('<strong>') is shown as characters, never as markup."""
import time

import pytest

from tests.browser import open_page, shoot
from tests.conftest import ARTIFACTS


@pytest.fixture(scope="module", autouse=True)
def _home_first(browser, server_url):
    """Open the home page once first: on a fresh server, a deep link as the very first request can run the
    page without app.py's navigation (Streamlit registers the pages on the main script's first run)."""
    page = open_page(browser, server_url, width=1280, locale="en-US", wait=300)
    page.close()


@pytest.mark.parametrize("width, locale, title", [(1280, "pt-BR", "Alucinação e confiança"),
                                                  (390, "en-US", "Hallucination and confidence"),
                                                  (1280, "en-US", "Hallucination and confidence"),
                                                  (390, "pt-BR", "Alucinação e confiança")])
def test_page_renders_with_chips_and_charts(browser, server_url, width, locale, title):
    page = open_page(browser, f"{server_url}/hallucination", width=width, locale=locale, wait=900)
    try:
        assert page.locator('[data-testid="stException"]').count() == 0
        end = time.time() + 120  # a loaded machine may connect and draw after Streamlit's status is gone
        while time.time() < end and (page.locator('[data-testid="stVegaLiteChart"]').count() < 7
                                     or "Albert Einstein nasceu em 1879" not in page.inner_text("body")):
            time.sleep(0.5)
        body = page.inner_text("body")
        assert title in body and "Albert Einstein nasceu em 1879" in body
        assert page.locator('[data-testid="stVegaLiteChart"]').count() >= 7  # chips, step, 2 lines, pair x2, summary
        shoot(page, f"hallucination-{width}-{locale}")  # the whole page
    finally:
        page.close()


def test_hovering_a_token_shows_its_alternatives(browser, server_url):
    """Scan the chips for the token the Einstein preset focuses on (the invented place of death)."""
    page = open_page(browser, f"{server_url}/hallucination", width=1280, locale="en-US", wait=900)
    try:
        chips = page.locator('[data-testid="stVegaLiteChart"]').first
        chips.scroll_into_view_if_needed()
        box = chips.bounding_box()
        tip = page.locator("#vg-tooltip-element")
        found = False
        for dy in range(55, int(box["height"]), 10):  # below the colour legend, row by row
            for dx in range(15, int(box["width"]), 30):
                page.mouse.move(box["x"] + dx, box["y"] + dy)
                time.sleep(0.1)
                head = tip.inner_text().split("alternative")[0] if tip.count() else ""
                if "·Paris" in head:
                    found = True
                    break
            if found:
                break
        assert found, "no chip's tooltip named ·Paris"
        text = tip.inner_text()
        assert "alternative 1" in text and "alternative 10" in text and "%" in text
        page.screenshot(path=str(ARTIFACTS / "screenshots" / "hallucination-tooltip.png"))  # the viewport, tip open
    finally:
        page.close()


def test_model_html_is_shown_as_characters(browser, server_url):
    """The pair Japan ↔ Zemuria: this model writes '<strong>Zemúria</strong>' for the invented capital."""
    page = open_page(browser, f"{server_url}/hallucination?pair=capital_jp&lang=en", width=1280, locale="en-US",
                     wait=900)
    try:
        assert page.locator('[data-testid="stException"]').count() == 0
        assert "<strong>" in page.inner_text('[data-testid="stMain"]')  # the tag itself, as text
        assert page.locator('[data-testid="stMain"] strong', has_text="Zemúria").count() == 0  # never markup
    finally:
        page.close()
