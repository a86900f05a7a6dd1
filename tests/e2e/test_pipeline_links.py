"""A real browser opens a link to the pipeline page: the same prompt, tokens and settings are on the page,
in projection mode, and the screenshot at 1280x720 is saved to be looked at."""
import re
import time
import urllib.parse

from tests.browser import open_page, shoot

PROMPT = "O gato sentou no"
LINK = {"prompt": PROMPT, "layer": "6", "head": "3", "pos": "2", "mlp": "4", "seed": "7", "lang": "en",
        "projection": "1"}


def test_a_link_opens_the_same_view_in_projection_mode(browser, server_url):
    page = open_page(browser, f"{server_url}/pipeline?{urllib.parse.urlencode(LINK)}", locale="en-US")
    try:
        assert page.locator('[data-testid="stException"]').count() == 0
        box = page.locator("textarea").first
        end = time.time() + 60  # a loaded machine may still be filling the page in when its run has ended
        while time.time() < end and box.input_value() != PROMPT:
            time.sleep(0.5)
        assert box.input_value() == PROMPT
        body = page.inner_text("body")
        assert "Pipeline overview" in body  # the link's language, not the browser's
        assert "2: ·gato" in body and "6 tokens → 6 IDs" in body  # the same tokens, and the picked one
        assert "layer 6, head 3" in body and "seed 7" in body and "layer 4's MLP" in body
        assert page.get_by_label(re.compile("^Projection mode")).is_checked()
        size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('h1')).fontSize)")
        assert size >= 44  # projection mode's large text
        cut = page.evaluate("""() => [...document.querySelectorAll('[data-testid="stSidebarNavLink"] p')].filter(p =>
          p.scrollWidth > p.clientWidth + 1 || p.getBoundingClientRect().right > p.closest('section').getBoundingClientRect().right)
          .map(p => p.innerText)""")
        assert page.locator('[data-testid="stSidebarNavLink"] p').count() >= 11 and not cut  # whole page names
        for name, value in LINK.items():
            assert f"{name}={urllib.parse.quote_plus(value)}" in page.url  # the address bar holds the view
        shoot(page, "pipeline-link-projection-1280")
        page.get_by_text("Attention weights of layer 6, head 3").scroll_into_view_if_needed()
        page.wait_for_timeout(1500)
        page.screenshot(path=str(_path("pipeline-link-projection-1280-attention")))
    finally:
        page.close()


def _path(name: str):
    from tests.conftest import ARTIFACTS

    return ARTIFACTS / "screenshots" / f"{name}.png"


def test_a_panel_control_reruns_its_panel_and_the_link_follows(browser, server_url):
    """The MLP layer slider lives in a fragment (the panels with controls and the link rerun, not the page):
    the address bar and the share box's link still follow it, and the other settings stay."""
    link = {"prompt": PROMPT, "mlp": "4", "layer": "6", "lang": "en"}
    page = open_page(browser, f"{server_url}/pipeline?{urllib.parse.urlencode(link)}", locale="en-US")
    try:
        slider = page.get_by_role("slider", name="Layer").last  # the MLP's (the attention panel's comes first)
        assert slider.input_value() == "4"
        slider.focus()
        slider.press("ArrowRight")
        page.wait_for_function("() => location.search.includes('mlp=5')", timeout=60_000)
        page.get_by_text("layer 5's MLP").first.wait_for(timeout=60_000)
        assert "layer=6" in page.url and "prompt=" in page.url  # the rest of the view is still in the link
        page.get_by_text("Link to this view").first.click()
        code = page.locator('[data-testid="stText"]').last
        code.wait_for(timeout=30_000)
        page.wait_for_function("""() => [...document.querySelectorAll('[data-testid="stText"]')]
            .some(e => e.innerText.includes('mlp=5'))""", timeout=60_000)  # the fragment's rerun wrote the link
        texts = [c.inner_text() for c in page.locator('[data-testid="stText"]').all()]
        assert "mlp=5" in code.inner_text() and "layer=6" in code.inner_text(), texts
        assert sum("/pipeline?" in text for text in texts) == 1, texts  # one link: the rerun replaced it
        assert len(page.get_by_role("slider", name="Layer").all()) == 2  # each panel drawn once
        assert page.locator('[data-testid="stException"]').count() == 0
    finally:
        page.close()
