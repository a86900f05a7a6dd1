"""The nondeterminism page in a real browser: no error, the runs and the tree draw, the comparison runs; screenshots."""

import pytest

from tests.browser import open_page, settle, shoot


@pytest.mark.parametrize("width, locale, title, compare, metric", [
    (1280, "pt-BR", "Por que o mesmo prompt", "Comparar", "Maior diferença entre logits"),
    (390, "en-US", "Why the same prompt", "Compare", "Largest logit difference"),
])
def test_nondeterminism_page(browser, server_url, width, locale, title, compare, metric):
    page = open_page(browser, f"{server_url}/nondeterminism", width=width, locale=locale, wait=600)
    try:
        assert page.locator('[data-testid="stException"]').count() == 0
        body = page.inner_text("body")
        assert title in body and "finish_reason" in body
        assert page.locator("canvas, svg.marks").count() >= 2  # the tree of runs and the ordered sums
        page.get_by_role("button", name=compare).click()
        settle(page, 600, start=2)
        assert page.locator('[data-testid="stException"]').count() == 0
        assert metric in page.inner_text("body")
        shoot(page, f"nondeterminism-{width}-{locale}")
    finally:
        page.close()
