"""The shell runs without exception in both languages and shows the real model's guess."""
import pytest

from tests.app.helpers import run_page, texts


@pytest.mark.parametrize("lang, greeting", [("pt-BR", "Bem-vindos"), ("en", "Welcome")])
def test_home_in_both_languages(lang, greeting):
    at = run_page(lang=lang)
    assert not at.exception
    assert greeting in texts(at)
    assert "Gemma3ForCausalLM" not in texts(at)  # the name shown is the catalogue key, not a class
    assert at.sidebar.selectbox[0].value == lang


def test_empty_prompt_gets_a_message_and_keeps_the_page():
    at = run_page(lang="en")
    at.text_area(key="prompt_home").set_value("   ").run()
    assert not at.exception
    assert any("empty" in w.value for w in at.warning)


def test_html_prompt_is_not_rendered():
    at = run_page(lang="en")
    at.text_area(key="prompt_home").set_value("<script>alert(1)</script><b>bold</b>").run()
    assert not at.exception
    for md in at.markdown:
        assert "<script>" not in md.value and "<b>" not in md.value
