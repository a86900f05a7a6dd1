"""The loop page's pure helpers: stop sequences as typed become the real strings."""
from ui.loop_view import parse_stops


def test_escapes_become_real_characters():
    assert parse_stops(["\\n", "\\n\\n", "\\t"]) == ("\n", "\n\n", "\t")


def test_text_is_kept_as_typed_including_spaces_and_accents():
    assert parse_stops([" que", "França", "<b>"]) == (" que", "França", "<b>")


def test_repeats_are_dropped_in_order():
    assert parse_stops([".", "\\n", ".", "\n"]) == (".", "\n")
