"""Links carry state: the home page restores its prompt and language from the URL; hostile values fall back."""
from streamlit.testing.v1 import AppTest

from tests.app.helpers import APP, texts


def _open(query: dict) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=300)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    return at


def test_link_restores_prompt_and_language():
    at = _open({"prompt": "O gato sentou no", "lang": "en"})
    assert not at.exception
    assert at.text_area(key="prompt_home").value == "O gato sentou no"
    assert "Welcome" in texts(at)
    assert at.query_params["prompt"] == ["O gato sentou no"] or at.query_params["prompt"] == "O gato sentou no"


def test_hostile_link_values_fall_back_with_a_notice():
    at = _open({"prompt": "<script>alert(1)</script>" * 400, "lang": "<img src=x onerror=alert(1)>"})
    assert not at.exception
    assert at.text_area(key="prompt_home").value == "A capital da França é"  # the default
    assert any("prompt" in i.value for i in at.info)
    assert "Bem-vindos" in texts(at)  # an unknown language falls back to the browser's (pt-BR here)
