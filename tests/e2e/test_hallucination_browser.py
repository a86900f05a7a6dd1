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
        _wait_for_charts(page)
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
        _wait_for_charts(page)
        tip = page.locator("#vg-tooltip-element")
        seen = set()  # a second scan if the chart moved while the page finished its layout
        found = _scan_chips(page, tip, seen) or _scan_chips(page, tip, seen)
        assert found, f"no chip's tooltip named ·Paris; the tooltips named {sorted(seen)}"
        text = tip.inner_text()
        assert "alternative 1" in text and "alternative 10" in text and "%" in text
        page.screenshot(path=str(ARTIFACTS / "screenshots" / "hallucination-tooltip.png"))  # the viewport, tip open
    finally:
        page.close()


def _wait_for_charts(page, wait: float = 120) -> None:
    """A loaded machine may connect and draw after Streamlit's status is gone: wait for the page's 7 charts and the
    preset's text (chips, step, 2 lines, pair x2, summary)."""
    end = time.time() + wait
    while time.time() < end and (page.locator('[data-testid="stVegaLiteChart"]').count() < 7
                                 or "Albert Einstein nasceu em 1879" not in page.inner_text("body")):
        time.sleep(0.5)


def _scan_chips(page, tip, seen: set) -> bool:
    """Hover the chips chart row by row (below its colour legend) until a tooltip names ·Paris; every token a
    tooltip named goes into `seen`."""
    chips = page.locator('[data-testid="stVegaLiteChart"]').first
    chips.scroll_into_view_if_needed()
    time.sleep(0.3)
    box = chips.bounding_box()
    for dy in range(55, int(box["height"]), 10):
        for dx in range(15, int(box["width"]), 30):
            page.mouse.move(box["x"] + dx, box["y"] + dy)
            time.sleep(0.1)
            head = tip.inner_text().split("alternative")[0].strip() if tip.count() else ""
            if head:
                seen.add(head.splitlines()[0][:40])
            if "·Paris" in head:
                return True
    return False


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
