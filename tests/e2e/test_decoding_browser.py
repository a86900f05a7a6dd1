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


@pytest.mark.timeout(1800)  # waits of up to 600-900 s each, one after another (a loaded 2-core machine)
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


@pytest.mark.timeout(1800)  # waits of up to 600-900 s each, one after another (a loaded 2-core machine)
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


@pytest.mark.timeout(1800)  # waits of up to 600-900 s each, one after another (a loaded 2-core machine)
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


# The beam tree's dots (the layer with the click selection) with their centres, by the chart whose vertical axis
# title names the rank in a step; the legend's symbols are not role-mark.
TREE_DOTS = """(rank) => {
    const chart = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')].find(c =>
        [...c.querySelectorAll('g.role-axis-title text')].some(t => t.textContent === rank));
    if (!chart) return [];
    chart.scrollIntoView({block: "center"});  // the mouse clicks inside the viewport
    const layers = [...chart.querySelectorAll('g.mark-symbol.role-mark')];
    const dots = layers.reduce((a, b) => b.querySelectorAll('path').length > a.querySelectorAll('path').length ? b : a);
    return [...dots.querySelectorAll('path')].map(p => {
        const b = p.getBoundingClientRect();
        return [b.x + b.width / 2, b.y + b.height / 2, b.width];
    });
}"""


@pytest.mark.timeout(1800)  # waits of up to 600-900 s each, one after another (a loaded 2-core machine)
def test_a_click_on_a_beam_tree_node_shows_that_step_s_candidates(browser, server_url):
    """Section 2 in a real browser: a click on a node of the tree's last drawn step enlarges it and puts that
    step's candidates under the tree ("Proposals of step 4"), where step 1's were."""
    page = open_page(browser, f"{server_url}/decoding?lang=en&w=4&n=20", width=1280, locale="en-US", wait=600)
    try:
        page.get_by_role("button", name="Run the five strategies").click()
        settle(page, wait=600)
        body = page.inner_text("body")
        assert "Proposals of step 1" in body and "Picked node" not in body
        dots = page.evaluate(TREE_DOTS, "rank in its step")
        assert len(dots) >= 4 * 4, dots  # at least the kept beams of each of the 4 steps
        x, y, size = max(dots)  # rightmost: a node of the last step drawn
        page.mouse.click(x, y)
        settle(page, wait=120)
        assert page.locator('[data-testid="stException"]').count() == 0
        body = page.inner_text("body")
        assert "Proposals of step 4" in body and "Proposals of step 1" not in body
        assert "of step 4." in body.split("Picked node: rank ")[1].split("\n")[0]
        bigger = [d for d in page.evaluate(TREE_DOTS, "rank in its step") if d[2] > size + 1]
        assert len(bigger) == 1  # the picked node is drawn larger
        shoot(page, "decoding-tree-picked-1280-en", whole=False)
    finally:
        page.close()
