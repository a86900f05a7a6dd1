"""A real browser: the pipeline page renders its charts with no error, at projector and phone widths."""
import pytest

from tests.browser import open_page, shoot


@pytest.fixture(scope="module")
def app_url(browser, server_url):
    """Open the home page once: a fresh server serves sub-pages only after app.py built the navigation."""
    open_page(browser, server_url).close()
    return server_url


@pytest.mark.parametrize("width, locale, title", [(1280, "pt-BR", "Visão geral do pipeline"),
                                                  (390, "en-US", "Pipeline overview")])
def test_pipeline_page_renders(browser, app_url, width, locale, title):
    page = open_page(browser, f"{app_url}/pipeline", width=width, locale=locale)
    try:
        assert page.locator('[data-testid="stException"]').count() == 0
        body = page.inner_text("body")
        assert title in body
        assert "gelu_pytorch_tanh" in body  # the MLP panel and the model card drew
        # one-hot, embedding, attention, MLP, ...: Vega draws after the run ends (slower on a loaded machine)
        page.wait_for_function("document.querySelectorAll('canvas, svg.marks').length >= 8", timeout=90_000)
        shoot(page, f"pipeline-{width}-{locale}")
    finally:
        page.close()
