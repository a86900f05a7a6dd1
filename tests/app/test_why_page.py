"""The "Why this token?" page in AppTest: a first visit that runs nothing heavy, both languages on the Einstein
example, the attribution's completeness check, attention beside it, induction heads, the heads' habits, and
hostile prompts."""
import pytest

from tests.adversarial.cases import HOSTILE_TEXT
from tests.app.helpers import run_page, texts


def explained(lang: str, prompt: str = "Albert Einstein nasceu em"):
    """The page with the Einstein example, after the visitor's click on "Complete and explain"."""
    at = run_page("why", lang=lang)  # the shared prompt comes along from the home page ...
    at.text_area(key="prompt_why").set_value(prompt).run()  # ... so set the example
    at.button(key="why_go").click().run()
    return at


def test_a_first_visit_waits_for_a_click():
    at = run_page("why", lang="en")
    assert not at.exception
    assert at.button(key="why_go")
    assert not at.get("vega_lite_chart") and not at.metric  # nothing computed yet
    assert all(sb.key != "why_pos" for sb in at.selectbox)


@pytest.mark.parametrize("lang, words", [
    ("pt-BR", ["Por que este token?", "Soma das partes", "Camada", "Quais tokens da entrada"]),
    ("en", ["Why this token?", "Sum of the parts", "Layer", "Which input tokens"]),
])
def test_page_in_both_languages_explains_paris_not_ulm_first(lang, words):
    at = explained(lang)
    assert not at.exception
    shown = texts(at)
    for word in words:
        assert word in shown, word
    assert any("Ulm" in code.value and "Paris" in code.value for code in at.code)  # the completion, as text
    assert "Paris" in at.selectbox(key="why_pos").format_func(at.selectbox(key="why_pos").value)
    assert "Ulm" in at.selectbox(key="why_contrast").format_func(at.selectbox(key="why_contrast").value)
    assert len(at.get("vega_lite_chart")) >= 3  # layers, heads, lens
    assert "Paris" in at.session_state["_a11y_text"]  # the live region was told the explanation is ready
    assert at.button(key="why_attr_run")  # attribution waits for its own click


def test_attribution_shows_the_completeness_check_and_the_attention_beside_it():
    at = explained("en")
    at.radio(key="why_method").set_value("gxi").run()
    at.button(key="why_attr_run").click().run()
    assert not at.exception
    labels = [m.label for m in at.metric]
    assert {"Sum of the attributions", "F(input) − F(baseline)", "Residual"} <= set(labels)
    total, diff, residual = (float(m.value.replace(",", "")) for m in at.metric[:3])
    assert residual == pytest.approx(total - diff, abs=2e-3)  # the shown numbers are consistent (rounding)
    assert "Where the two disagree most:" in texts(at)
    assert "Here <bos> gets" in texts(at) and "in many heads" not in texts(at)  # W4: the share in the view drawn
    at.selectbox(key="why_vs_layer").set_value(5).run()  # model.layers[5] ...
    assert not at.exception and "layer 6" in texts(at)  # ... is layer 6 on every page


def test_induction_and_head_habits_run_on_demand():
    at = explained("en")
    at.button(key="why_ind_run").click().run()
    assert not at.exception
    assert "The highest:" in texts(at) and "on the 2nd time" in texts(at)
    assert "Induction score" in texts(at)  # W2: the opened head's map comes with its own score
    at.button(key="why_roles_run").click().run()
    assert not at.exception
    assert "of their attention on" in texts(at) and "heads put more than" in texts(at)


@pytest.mark.parametrize("name", ["md_js_link", "script", "img_onerror", "rtl", "emoji_zwj", "huge_20k"])
def test_hostile_prompts_are_text_and_never_markdown(name):
    at = explained("pt-BR", HOSTILE_TEXT[name])
    assert not at.exception
    for md in at.markdown:
        for marker in ("<script", "<img", "javascript:"):
            assert marker not in md.value
