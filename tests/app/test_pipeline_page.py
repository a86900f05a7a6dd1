"""The pipeline page runs in both languages, shows the real model's numbers, and moving a view control
never runs the model again."""
import pytest

from tests.app.helpers import run_page, texts
from ui import backend


def _passes() -> int:
    return backend.forward_passes()


@pytest.mark.parametrize("lang, title, vocab, prompt", [
    ("pt-BR", "Visão geral do pipeline", "262.144", "A capital da França é"),
    ("en", "Pipeline overview", "262,144", "The capital of France is"),  # each language its own default prompt
])
def test_pipeline_runs_in_both_languages_with_real_numbers(lang, title, vocab, prompt):
    at = run_page("pipeline", lang=lang)
    assert not at.exception
    shown = texts(at)
    assert title in shown
    assert vocab in shown  # the one-hot length / softmax size is the real vocabulary
    assert "640 → 2" in shown and "gelu_pytorch_tanh" in shown  # MLP expansion, activation from the config
    assert any(c.value.startswith(prompt) for c in at.code)  # the output stage
    assert len(at.get("vega_lite_chart")) >= 8  # one-hot, embedding, attention, residual, lens, ...


def test_view_controls_do_not_run_the_model_again():
    at = run_page("pipeline", lang="en")
    before = _passes()
    at.slider(key="pipeline_att_layer").set_value(6).run()
    at.slider(key="pipeline_mlp_layer").set_value(3).run()
    at.number_input(key="pipeline_seed").set_value(7).run()
    at.selectbox(key="pipeline_emb_pos").set_value(1).run()
    assert not at.exception
    assert _passes() == before
    assert "layer 6, head 1" in texts(at)


def test_a_new_prompt_changes_the_numbers():
    at = run_page("pipeline", lang="en")
    at.text_area(key="prompt_pipeline").set_value("O gato sentou no").run()
    assert not at.exception
    assert "16 characters" in texts(at)
    assert any(c.value.startswith("O gato sentou no") for c in at.code)


@pytest.mark.parametrize("prompt", ["   ", "<script>alert(1)</script><b>x</b>", "مرحبا 👋\u200b\x07", "palavra " * 2500])
def test_bad_input_gets_a_message_or_is_shown_as_text(prompt):
    at = run_page("pipeline", lang="en")
    at.text_area(key="prompt_pipeline").set_value(prompt).run()
    assert not at.exception
    if not prompt.strip():
        assert any("empty" in w.value for w in at.warning)
    if len(prompt) > 10_000:
        assert any("512" in i.value for i in at.info)  # cut to the token limit, with a message
    for md in at.markdown:
        assert "<script>" not in md.value and "<b>" not in md.value
