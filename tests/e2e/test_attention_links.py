"""The attention page from a link in a real browser: the same tokens and settings come back, the link
follows the "banco" boxes, and projection mode is shot at 1280x720 to be looked at."""
import time
from urllib.parse import parse_qs, urlencode, urlparse

from tests.browser import settle, shoot
from tests.e2e.test_attention_browser import open_attention

LINK = {"prompt": "O gato sentou no", "layer": "5", "head": "1", "token": "2", "grid": "6"}


def query_of(page) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlparse(page.url).query).items()}


def test_a_link_brings_back_the_same_tokens_and_settings(browser, server_url):
    page = open_attention(browser, server_url, 1280, "en-US", query=urlencode({**LINK, "lang": "en"}))
    try:
        assert page.locator('[data-testid="stException"]').count() == 0
        main = page.locator('[data-testid="stMain"]')
        text = main.inner_text()
        assert "Layer 6, head 2" in text and "Columns = layers 7 to 12" in text  # an old link, counted from 0
        assert page.get_by_label("Prompt (the text the model will continue)").input_value() == LINK["prompt"]
        assert page.get_by_role("combobox", name="Layer").input_value() == "Layer 6 · full attention"
        assert page.get_by_role("combobox", name="Token (query)").input_value() == "2: ·gato"  # as on the axes
        assert page.get_by_role("radio", name="Head 2").is_checked()  # head index 1, counted from 1
        assert page.locator('[data-testid="stVegaLiteChart"]').count() >= 4
        # the page publishes the same view back, counted from 1 (base=1)
        assert {k: query_of(page).get(k) for k in (*LINK, "base")} == {**LINK, "layer": "6", "head": "2", "grid": "7",
                                                                       "base": "1"}

        # The "banco" boxes rerun only their fragment; the link still follows them.
        box = page.get_by_label("Sentence 1")
        box.fill("Ontem fui ao banco")
        box.press("Enter")
        settle(page)
        assert query_of(page)["a"] == "Ontem fui ao banco"
        page.get_by_text("Link to this view").click()
        time.sleep(1)
        code = page.locator('[data-testid="stText"]').last.inner_text()
        assert "a=Ontem+fui+ao+banco" in code and "layer=6" in code and "base=1" in code
        assert page.locator('[data-testid="stException"]').count() == 0
    finally:
        page.close()


def test_projection_mode_from_a_link(browser, server_url):
    page = open_attention(browser, server_url, 1280, "pt-BR",
                          query=urlencode({"prompt": "A capital da França é", "layer": "2", "head": "3",
                                           "lang": "pt-BR", "projection": "1"}))
    try:
        assert page.locator('[data-testid="stException"]').count() == 0
        assert "Camada 3, cabeça 4" in page.locator('[data-testid="stMain"]').inner_text()
        big = "() => parseFloat(getComputedStyle(document.querySelector('h1')).fontSize) >= 60"
        page.wait_for_function(big, timeout=60_000)  # projection mode's large headings (3rem of 22px); a loaded
        # machine applies the page's style late
        shoot(page, "attention-projection-1280-pt-BR", whole=False)  # what the back of the room sees first
        page.locator('[data-testid="stVegaLiteChart"]').first.scroll_into_view_if_needed()
        time.sleep(1)
        shoot(page, "attention-projection-1280-heatmap", whole=False)
    finally:
        page.close()
