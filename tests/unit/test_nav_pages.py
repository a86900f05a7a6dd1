"""ui.nav builds the app's pages once per language, inside a run only (outside one, st.Page builds empty pages)."""
from ui import nav


def test_pages_built_outside_a_run_are_not_kept():
    nav._pages_in.clear()
    built = nav._pages()
    assert set(built) == {name for name, _ in nav.available()} | {"live"}
    assert all(nav._pages_in.peek(language) is None for language in ("pt-BR", "en"))


def test_a_page_that_is_not_ours_switches_by_its_file():
    assert nav.page("no-such-page") == "pages/no-such-page.py"
