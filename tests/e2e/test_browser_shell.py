"""A real browser: the server starts, the shell renders with no Streamlit error, screenshots are saved."""
import pytest

from tests.browser import open_page, shoot


@pytest.mark.parametrize("width, locale, greeting", [(1280, "pt-BR", "Bem-vindos"), (390, "en-US", "Welcome")])
def test_shell_renders(browser, server_url, width, locale, greeting):
    page = open_page(browser, server_url, width=width, locale=locale)
    try:
        assert page.locator('[data-testid="stException"]').count() == 0
        assert greeting in page.inner_text("body")
        page.locator("canvas, svg.marks").first.wait_for(timeout=60_000)  # the live next-token chart drew
        assert page.locator("canvas, svg.marks").count() >= 1
        shoot(page, f"home-{width}-{locale}")
    finally:
        page.close()


def test_the_paths_links_keep_their_whole_names_on_a_phone_in_projection_mode(browser, server_url):
    """Projection mode's large text at 390 px: a link of the home page's path wraps onto two lines instead of
    being cut at the screen's edge ("7. Estratégias de decodificação")."""
    page = open_page(browser, f"{server_url}/?lang=pt-BR&projection=1", width=390)
    try:
        links = page.locator('[data-testid="stPageLink"] p')
        assert links.count() >= 10
        cut = page.evaluate("""() => [...document.querySelectorAll('[data-testid="stPageLink"] p')].filter(p =>
          p.scrollWidth > p.clientWidth + 1 || p.getBoundingClientRect().right > window.innerWidth).map(p => p.innerText)""")
        assert not cut, cut
    finally:
        page.close()


def test_home_loads_no_syntax_highlighter(browser, server_url):
    """st.code pulls Streamlit's syntax highlighter, a 1.5 MB script whose start costs a fresh browser ~0.6 s
    of CPU; the home page shows its link to this view as plain text, so it never asks for that script."""
    page = browser.new_page(viewport={"width": 1280, "height": 720}, locale="en-US")
    scripts = []
    page.on("request", lambda r: scripts.append(r.url) if r.resource_type == "script" else None)
    try:
        page.goto(f"{server_url}/?lang=en")
        page.locator("canvas, svg.marks").first.wait_for(timeout=120_000)
        page.get_by_text("Link to this view").first.click()
        link = page.locator('[data-testid="stText"]').filter(has_text="lang=en").last
        link.wait_for(timeout=30_000)
        assert "prompt=" in link.inner_text()
        assert any("/static/js/index." in u for u in scripts)  # the recorder saw Streamlit's own scripts
        assert not [u for u in scripts if "SyntaxHighlighter" in u], scripts
    finally:
        page.close()


def test_deep_link_on_a_fresh_server_gets_the_whole_app(browser):
    """The very first request of a new server is a deep link: the page still runs inside app.py
    (sidebar with language and model), not alone as in Streamlit's older pages/ folder mode."""
    from tests.conftest import start_server, stop_server
    from ui.nav import available

    names = [n for n, _ in available() if n != "home"]
    if not names:
        pytest.skip("no page besides home yet")
    proc, url, log = start_server("server-deeplink.log")
    try:
        page = open_page(browser, f"{url}/{names[0]}?lang=en", locale="en-US")
        body = page.inner_text("body")
        assert "Language" in body and "Projection mode" in body  # app.py's sidebar is there
        assert page.locator('[data-testid="stException"]').count() == 0
        page.close()
    finally:
        stop_server(proc, log)


def test_the_frontend_files_come_from_memory_as_streamlit_sent_them(server_url):
    """ui.static_cache on the real server: a file of Streamlit's frontend, fetched twice, gives what Streamlit itself
    answers (a query string takes it past the memory: Streamlit's handler ignores it); a range and a revalidation
    still get Streamlit's own 206 and 304."""
    import re
    import urllib.request

    index = urllib.request.urlopen(server_url, timeout=30).read().decode()
    path = re.search(r'src="\.?/?(static/js/[^"]+\.js)"', index).group(1)

    def get(query="", headers=None):
        request = urllib.request.Request(f"{server_url}/{path}{query}", headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=30) as r:
                return r.status, {k.lower(): v for k, v in r.headers.items() if k.lower() != "date"}, r.read()
        except urllib.error.HTTPError as e:
            return e.code, {}, b""

    streamlit = get("?past=memory")
    assert streamlit[0] == 200 and len(streamlit[2]) > 1000
    assert get() == streamlit and get() == streamlit
    assert get(headers={"Range": "bytes=0-9"})[::2] == (206, streamlit[2][:10])
    assert get(headers={"If-None-Match": streamlit[1]["etag"]})[0] == 304
