"""Query values are parsed strictly: anything hostile falls back to the default."""
import pytest

from ui.share import MAX_TEXT, Param, parse

TEMP = Param("temperature", "w_t", float, 1.0, low=0.0, high=2.0)
TOPK = Param("top_k", "w_k", int, 0, low=0, high=500)
PROMPT = Param("prompt", "w_p", str, "A capital da França é")
FLAG = Param("greedy", "w_g", bool, False)
LAYER = Param("layer", "w_l", int, 0, choices=tuple(range(18)))


@pytest.mark.parametrize("p, raw, expected", [
    (TEMP, "0.7", 0.7), (TEMP, "2", 2.0), (TOPK, "40", 40), (TOPK, "40.0", 40), (PROMPT, "O gato", "O gato"),
    (PROMPT, "<script>alert(1)</script>", "<script>alert(1)</script>"), (FLAG, "true", True), (FLAG, "0", False),
    (LAYER, "17", 17),
])
def test_good_values(p, raw, expected):
    assert parse(raw, p) == (expected, True)


@pytest.mark.parametrize("p, raw", [
    (TEMP, "hot"), (TEMP, "nan"), (TEMP, "inf"), (TEMP, "-1"), (TEMP, "2.5"), (TEMP, ""), (TOPK, "4.5"),
    (TOPK, "-3"), (TOPK, "1e400"), (PROMPT, "x" * (MAX_TEXT + 1)), (PROMPT, ""), (PROMPT, "a\x00b"),
    (FLAG, "maybe"), (LAYER, "18"), (LAYER, "-1"),
])
def test_bad_values_fall_back_to_the_default(p, raw):
    assert parse(raw, p) == (p.default, False)
