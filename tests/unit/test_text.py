"""Token display: whitespace, control and invisible characters are made visible; bytes are exact."""
from model_backend.core.tokens import _byte_decoder, token_bytes, visible


def test_visible_whitespace_and_controls():
    assert visible(" a\nb\t") == "·a↵b⇥"
    assert visible("\x00\x07\x7f") == "␀␇␡"
    assert visible("a\u200bb\u202e") == "a[U+200B]b[U+202E]"
    assert visible("<script>") == "<script>"  # kept as text; the UI never renders it as HTML


def test_byte_fallback_piece_gives_its_byte():
    assert token_bytes(None, "<0xC3>", "\ufffd") == (0xC3,)


def test_gpt2_byte_table_is_a_bijection():
    table = _byte_decoder()
    assert len(table) == 256 and sorted(table.values()) == list(range(256))
    assert table["Ġ"] == 32
