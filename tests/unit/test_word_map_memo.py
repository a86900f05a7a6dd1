"""The tokenizer page's word map is made once per words, projection, counts, language and projection mode
(ui.tokenizer.draw.word_map): a class's phones share it, and each language gets its own caption and tooltips."""
from streamlit.testing.v1 import AppTest


def page():
    import numpy as np

    from model_backend.lessons import tokenizer as tk
    from ui.tokenizer import draw

    words = ("rei", "rainha", "homem", "mulher")
    coords = np.array([[0.1, 0.2], [0.3, -0.1], [-0.2, 0.4], [0.0, -0.3]], dtype=np.float32)
    draw.map_result(words, tk.Projection(coords=coords, explained=(0.41, 0.22)), (1, 2, 1, 2))


def _run(lang):
    at = AppTest.from_function(page, default_timeout=60)
    at.session_state["lang"] = lang
    at.run()
    assert not at.exception
    return at


def test_the_word_map_is_made_once_per_language(monkeypatch):
    from ui.tokenizer import draw

    built = []
    real = draw.map_labels
    monkeypatch.setattr(draw, "map_labels", lambda df: built.append(len(df)) or real(df))
    first, again, english = _run("pt-BR"), _run("pt-BR"), _run("en")
    specs = [c.proto.spec for at in (first, again, english) for c in at.get("vega_lite_chart")]
    assert len(specs) == 3 and specs[0] == specs[1] != specs[2]
    assert len(built) <= 2  # once per language at most (an earlier test may have made the pt-BR one)
    captions = [c.value for at in (first, again, english) for c in at.caption]
    assert len(captions) == 3 and captions[0] == captions[1] != captions[2]
    assert "41" in captions[0] and "41" in captions[2]  # the projection's own share of the variance
