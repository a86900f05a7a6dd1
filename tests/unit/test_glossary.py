"""The glossary lists every term of the term table, and every pitfall and term points at a page of the path."""
from ui import glossary
from ui.nav import PATH
from ui.strings import collect
from ui.strings.terms import TERMS


def test_every_term_has_a_row_and_a_place():
    import streamlit as st

    before = st.session_state.get("lang")
    st.session_state["lang"] = "pt-BR"  # pt-BR first; another test of the process may have set "en"
    try:
        df = glossary.glossary_frame()
    finally:
        st.session_state["lang"] = before or "pt-BR"
    assert len(df) == len(TERMS) and set(glossary.WHERE) == set(TERMS)
    assert list(df.iloc[:, 0]) == [term.pt for term in TERMS.values()]  # pt-BR first outside a browser
    assert "semente" in set(df.iloc[:, 0]) and "seed" in set(df.iloc[:, 1])


def test_pitfalls_are_the_seeds_five_and_link_real_pages():
    pages = {name for name, _ in PATH}
    assert len(glossary.PITFALLS) == 5
    table = collect()
    for key, page in glossary.PITFALLS:
        assert page in pages and f"gloss.pit.{key}" in table
    assert all(where is None or where in pages for where in glossary.WHERE.values())
