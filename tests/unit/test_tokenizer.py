"""Tokenizer page math on hand-made inputs and the tiny model: exact values."""
import re

import numpy as np
import pandas as pd
import pytest
import torch

from model_backend.lessons import tokenizer as tk
from model_backend.types import TokenInfo
from ui import chip_layout
from ui.tokenizer import draw


def info(data: tuple[int, ...], display: str = "x", special: bool = False) -> TokenInfo:
    return TokenInfo(id=7, text="", piece="", display=display, bytes=data, special=special)


# --- tokenizing ---------------------------------------------------------------------------------

def test_ids_are_the_tokenizers_own(tiny_bundle):
    tok = tiny_bundle.tokenizer
    text = "Olá, mundo!"
    result = tk.tokenize(tok, text)
    assert result.ids == tuple(tok(text)["input_ids"])
    assert result.pieces[0].info.special and result.pieces[0].label == "<bos>"
    assert [p.label for p in result.pieces[1:4]] == ["O", "l", "á"]
    assert result.n_chars == 11 and result.n_tokens == 11  # one character per token; <bos> not counted
    assert result.chars_per_token == 1.0
    assert [p.position for p in result.pieces] == list(range(12))


def test_control_characters_and_html_stay_text(tiny_bundle):
    result = tk.tokenize(tiny_bundle.tokenizer, "<b>\n")
    assert [p.label for p in result.pieces if not p.info.special] == ["<", "b", ">", "↵"]


def test_partial_bytes_are_detected():
    assert tk.is_partial((0xC3,)) and tk.is_partial((0xF0, 0x9F))
    assert not tk.is_partial((0xC3, 0xA1)) and not tk.is_partial((0x41,)) and not tk.is_partial(())


def test_chip_label_shows_only_incomplete_bytes_as_hex():
    assert tk.chip_label(info((0xEA,)), True) == "<0xEA>"
    assert tk.chip_label(info((0x20, 0xF0, 0x9F)), True) == "·<0xF0><0x9F>"
    assert tk.chip_label(info((0xA1, 0x41, 0xC3, 0xA1)), True) == "<0xA1>Aá"
    assert tk.chip_label(info((0x41,), display="·mundo"), False) == "·mundo"


def test_language_cost_counts_without_special_tokens(tiny_bundle):
    cost = tk.language_cost(tiny_bundle.tokenizer, [("abc", "ab"), ("de", "d")])
    assert (cost.pt_tokens, cost.en_tokens, cost.pt_chars, cost.en_chars) == (5, 3, 5, 3)
    assert cost.extra == pytest.approx(2 / 3)


def test_tokenizer_kind_of_a_character_vocabulary(tiny_bundle):
    assert tk.tokenizer_kind(tiny_bundle.tokenizer) == "other"


# --- one-hot and the embedding lookup -----------------------------------------------------------

def test_one_hot_has_a_single_one():
    x = tk.one_hot(3, 8)
    assert x.tolist() == [0, 0, 0, 1, 0, 0, 0, 0]
    with pytest.raises(ValueError, match="between 0 and 7"):
        tk.one_hot(8, 8)


def test_one_hot_times_matrix_is_the_row_exactly(tiny_bundle):
    model = tiny_bundle.weights
    E = model.get_input_embeddings().weight.detach()
    for token_id in (0, 5, E.shape[0] - 1):
        look = tk.embedding_lookup(model, token_id)
        assert look.exact
        assert np.array_equal(look.product, E[token_id].numpy())
        assert look.vocab_size == E.shape[0] and look.row.shape == (E.shape[1],)
    assert look.embed_scale == pytest.approx(32 ** 0.5)


# --- neighbours and PCA -------------------------------------------------------------------------

def test_nearest_by_cosine_on_a_hand_made_matrix():
    E = torch.tensor([[1.0, 0.0], [0.0, 2.0], [3.0, 3.0], [-1.0, 0.0]])
    index = tk.EmbeddingIndex(matrix=E, norms=torch.linalg.vector_norm(E, dim=1))
    found = tk.nearest(index, torch.tensor([2.0, 0.0]), k=3)
    assert [n.id for n in found] == [0, 2, 1]
    assert [n.cosine for n in found] == pytest.approx([1.0, 2 ** -0.5, 0.0])
    assert [n.id for n in tk.nearest(index, torch.tensor([2.0, 0.0]), k=2, exclude=(0,))] == [2, 1]


def test_embedding_index_keeps_the_models_tensor(tiny_bundle):
    index = tk.embedding_index(tiny_bundle.weights)
    E = tiny_bundle.weights.get_input_embeddings().weight
    assert index.matrix.data_ptr() == E.data_ptr()  # no copy of the matrix
    assert torch.allclose(index.norms, E.detach().norm(dim=1))


def test_word_vector_is_the_mean_of_rows():
    E = torch.tensor([[1.0, 0.0], [0.0, 2.0], [3.0, 4.0]])
    index = tk.EmbeddingIndex(matrix=E, norms=E.norm(dim=1))
    assert tk.word_vector(index, (2,)).tolist() == [3.0, 4.0]
    assert tk.word_vector(index, (0, 1)).tolist() == [0.5, 1.0]
    with pytest.raises(ValueError):
        tk.word_vector(index, ())


def test_parse_words():
    assert tk.parse_words(" rei,rainha\n\n gato  preto ;rei,, ") == ("rei", "rainha", "gato preto")
    assert tk.parse_words("a,b,c,d", limit=2) == ("a", "b")
    assert tk.parse_words("") == ()


def test_pca_of_points_on_a_line_keeps_all_variance():
    X = np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 0.0], [2.0, 4.0, 0.0], [3.0, 6.0, 0.0]])
    proj = tk.pca_2d(X)
    assert proj.explained[0] == pytest.approx(1.0) and proj.explained[1] == pytest.approx(0.0, abs=1e-12)
    step = 5 ** 0.5
    assert proj.coords[:, 0] == pytest.approx([-1.5 * step, -0.5 * step, 0.5 * step, 1.5 * step], rel=1e-6)
    assert np.array_equal(tk.pca_2d(X).coords, proj.coords)  # same input, same signs
    with pytest.raises(ValueError, match="at least 3"):
        tk.pca_2d(X[:2])


# --- the page's pure helpers --------------------------------------------------------------------

def test_wrap_never_exceeds_the_budget():
    widths = [3, 4, 5, 2, 9, 1]
    placed = chip_layout.wrap(widths, budget=10, gap=0.5)
    assert placed == [(0.0, 0), (3.5, 0), (0.0, 1), (5.5, 1), (0.0, 2), (0.0, 3)]
    for (x, _row), w in zip(placed, widths):
        assert x == 0.0 or x + w <= 10
    assert chip_layout.wrap([20], budget=10) == [(0.0, 0)]  # too wide: a row of its own


def test_label_units_count_wide_characters_twice():
    units = chip_layout.label_units
    assert units("abc") == 3 and units("猫") == 2 and units("👋") == 2


def test_chip_frame_has_a_layout_for_every_budget(tiny_bundle):
    pieces = tk.tokenize(tiny_bundle.tokenizer, "abc def ghi jkl").pieces
    df = draw.chip_frame(pieces)
    assert list(df["pos"]) == list(range(len(pieces)))
    for budget in chip_layout.BUDGETS:
        assert (df[f"x_{budget}"] + df["w"] <= budget + 1e-9).all()
    assert df["row_14"].max() > df["row_112"].max()  # a narrow chart wraps more
    assert df.loc[0, "kind"] == "special" and df.loc[0, "bytes"] == ""


def test_a_texts_chips_are_built_once_and_are_the_chips_of_its_frame(tiny_bundle):
    from ui.charts import vega_spec

    pieces = tk.tokenize(tiny_bundle.tokenizer, "abc def ghi jkl").pieces
    again = tk.tokenize(tiny_bundle.tokenizer, "abc def ghi jkl").pieces  # equal tokens, other objects
    chart = draw.piece_chips(pieces, selectable=True, selected=2)
    assert draw.piece_chips(again, selectable=True, selected=2) is chart  # kept per the tokens' content
    assert draw.piece_chips(pieces, selectable=True, selected=3) is not chart
    built = draw.chips_chart(draw.chip_frame(pieces), selectable=True, selected=2)
    assert vega_spec(chart) == vega_spec(built)
    other = tk.tokenize(tiny_bundle.tokenizer, "abc def ghi jkx").pieces
    assert vega_spec(draw.piece_chips(other, selectable=True, selected=2)) != vega_spec(chart)


def test_selected_position_from_the_chart_state():
    state = {"selection": {"chip": [{"pos": 3}]}}
    assert draw.selected_position(state, {1, 2, 3}) == 3
    assert draw.selected_position(state, {1, 2}) is None  # stale click from another text
    assert draw.selected_position({"selection": {"chip": []}}, {1}) is None
    assert draw.selected_position(None, {1}) is None


def test_digest_changes_with_the_tokens():
    assert draw.digest([1, 2, 3]) == draw.digest((1, 2, 3)) != draw.digest([1, 2, 4])


def test_budget_expression_picks_the_widest_budget_that_fits():
    pairs = re.findall(r"width >= ([\d.]+) \? (\d+)", draw._budget_expr())  # outermost (widest) first

    def pick(width: float) -> int:  # evaluate the Vega ternary chain the way Vega does
        return next((int(b) for limit, b in pairs if width >= float(limit)), chip_layout.BUDGETS[0])

    assert [pick(w) for w in (100, 200, 390, 800, 1100)] == [14, 20, 40, 80, 112]


def test_token_table_has_every_shown_token(tiny_bundle):
    pieces = tk.tokenize(tiny_bundle.tokenizer, "ab").pieces
    df = draw.token_table(pieces)
    assert isinstance(df, pd.DataFrame) and len(df) == 3
    assert list(df.iloc[:, 1]) == [p.info.id for p in pieces]


def test_the_vocabulary_is_counted_once_per_tokenizer(tiny_bundle):
    from ui.tokenizer import compute

    counted = []

    class Counting:
        def __init__(self, inner):
            self.inner = inner

        def __len__(self):
            counted.append(1)
            return len(self.inner)

    import uuid

    entry = compute.Entry(f"test-vocab-{uuid.uuid4().hex}", "tiny", Counting(tiny_bundle.tokenizer))
    assert compute.vocab(entry) == compute.vocab(entry) == len(tiny_bundle.tokenizer)
    assert len(counted) == 1


def test_the_comparison_reads_the_counted_vocabulary(tiny_bundle, monkeypatch):
    from ui.tokenizer import compute

    asked = []
    monkeypatch.setattr(compute, "vocab", lambda entry: asked.append(entry.key) or 12345)
    entry = compute.Entry("test-sides-vocab", "tiny", tiny_bundle.tokenizer)
    (side,) = compute.sides("abc def", [entry])
    assert side.vocab == 12345 and asked == ["test-sides-vocab"]  # not len(tokenizer) on each run


def test_the_token_table_is_as_tall_as_its_rows(tiny_bundle, monkeypatch):
    """A short text's table had empty rows under its tokens (a fixed 280 px); a long one still scrolls at 280."""
    import streamlit as st

    heights = []
    monkeypatch.setattr(draw, "data_table", lambda df, **kw: heights.append((len(df), kw["height"])))
    monkeypatch.setattr(draw, "downloads", lambda *a, **kw: None)
    monkeypatch.setattr(st, "subheader", lambda *a, **kw: None)
    for text in ("ab", "abc def ghi jkl " * 10):
        draw.table(tk.tokenize(tiny_bundle.tokenizer, text).pieces)
    (short, fit), (long, cap) = heights
    assert fit == draw.DATAFRAME_ROW * (short + 1) + 3 and long > 7 and cap == 280
