"""The nondeterminism page in a real browser: no error, the runs and the tree draw, the comparison runs; screenshots."""
import time

import pytest

from tests.e2e.test_browser_shell import open_page, shoot


def wait_idle(page, wait: float = 600) -> None:
    """Wait until Streamlit has finished the run a click started."""
    time.sleep(2)
    end = time.time() + wait
    while time.time() < end and page.locator('[data-testid="stStatusWidget"]').count():
        time.sleep(0.5)
    time.sleep(2)  # let Vega draw


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
        wait_idle(page)
        assert page.locator('[data-testid="stException"]').count() == 0
        assert metric in page.inner_text("body")
        shoot(page, f"nondeterminism-{width}-{locale}")
    finally:
        page.close()
