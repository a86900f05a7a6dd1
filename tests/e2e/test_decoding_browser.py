"""The decoding page in a real browser: it renders in both languages and widths with no exception and the
shipped comparison drawn; pressing Measure draws the feedback-loop curve. Screenshots in artifacts/screenshots/."""

import pytest

from tests.browser import open_page, settle, shoot


@pytest.mark.parametrize("width, locale, words", [
    (1280, "pt-BR", ["Estratégias de decodificação", "Rodar as cinco estratégias", "amostragem pura (T = 1)"]),
    (390, "en-US", ["Decoding strategies", "Run the five strategies", "pure sampling (T = 1)"]),
])
def test_decoding_page_renders(browser, server_url, width, locale, words):
    page = open_page(browser, f"{server_url}/decoding", width=width, locale=locale, wait=600)
    try:
        tall = page.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
        page.set_viewport_size({"width": width, "height": min(int(tall) + 40, 12000)})  # the whole page
        settle(page)
        shoot(page, f"decoding-{width}-{locale}")
        assert page.locator('[data-testid="stException"]').count() == 0
        body = page.inner_text("body")
        for word in words:
            assert word in body, word
        assert page.locator("canvas, svg.marks").count() >= 1  # the shipped comparison's chart
    finally:
        page.close()


def test_measure_draws_the_feedback_curve(browser, server_url):
    page = open_page(browser, f"{server_url}/decoding?fbn=4&lang=en", width=1280, locale="en-US", wait=600)
    try:
        charts = page.locator("canvas, svg.marks").count()
        page.get_by_role("button", name="Measure").click()
        settle(page, wait=600)
        assert page.locator('[data-testid="stException"]').count() == 0
        assert page.locator("canvas, svg.marks").count() > charts
        shoot(page, "decoding-feedback-1280-en", whole=False)
    finally:
        page.close()


def test_a_greedy_loop_links_the_decoding_page_with_its_prompt(browser, server_url):
    """The loop page's greedy-loop panel: its link opens the decoding page with the prompt that looped."""
    page = open_page(browser, f"{server_url}/loop?prompt=ha+ha+ha&temperature=0&max_new=8&lang=en", width=1280,
                     locale="en-US", wait=600)
    try:
        page.get_by_role("button", name="Generate to the end").click()
        settle(page, wait=600)
        assert "Greedy fell into a loop" in page.inner_text("body")
        page.get_by_role("link", name="Why greedy and beam search degenerate").click()
        page.wait_for_url("**/decoding?**", timeout=60_000)
        settle(page, wait=600)
        assert page.locator('[data-testid="stException"]').count() == 0
        assert page.locator("textarea").first.input_value() == "ha ha ha"
        assert "via=" not in page.url and "prompt=ha" in page.url  # the page published its view, mark dropped
    finally:
        page.close()


FITS = """() => [...document.querySelectorAll('[data-testid="stDataFrame"], [data-testid="stTable"]')].map(e => {
    const s = e.querySelector('.dvn-scroller') || e;
    return [s.scrollWidth, s.clientWidth];
})"""
TITLES = """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')].flatMap(c => {
    const box = c.getBoundingClientRect();
    return [...c.querySelectorAll('g.role-axis-title text')].map(t => {
        const b = t.getBoundingClientRect();
        return [t.textContent, b.top - box.top, box.bottom - b.bottom, b.left - box.left];
    });
})"""


@pytest.mark.parametrize("projection", [False, True])
def test_the_comparison_fits_at_1280_and_axis_titles_are_whole(browser, server_url, projection):
    """Section 4's table does not scroll sideways at 1280 px (Portuguese, the longer labels), and no chart's axis
    title is cut at the chart's edge, also in projection mode's 22 px titles."""
    url = f"{server_url}/decoding?lang=pt-BR" + ("&projection=1" if projection else "")
    page = open_page(browser, url, width=1280, locale="pt-BR", wait=600)
    try:
        settle(page)
        tables = page.evaluate(FITS)
        assert tables and all(scroll <= client + 1 for scroll, client in tables), tables
        titles = page.evaluate(TITLES)
        assert len(titles) >= 2, titles  # the comparison chart's two axes
        # a text's box holds the font's whole ascent and descent, a few px more than its glyphs: 4 px of slack
        # (before the fix the projection-mode title "log-prob média / token" began 13 px above the chart, its
        # last letter cut)
        assert all(min(top, bottom, left) >= -4 for _, top, bottom, left in titles), titles
    finally:
        page.close()
