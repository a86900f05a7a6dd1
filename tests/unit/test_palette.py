"""Chart marks meet WCAG 1.4.11 (3:1 against the white the charts are drawn on) and stay apart in greyscale."""
import pytest

from ui import charts
from ui.decoding import draw as decoding_draw
from ui.grokking import draw as grokking_draw
from ui.nondeterminism import draw as nondeterminism_draw


def luminance(hex_colour: str) -> float:
    """WCAG 2.2's relative luminance of an sRGB colour."""
    h = hex_colour.lstrip("#")
    channels = [int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str = "#ffffff") -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_formula_gives_wcag_s_known_ratios():
    assert contrast("#000000") == pytest.approx(21.0)
    assert contrast("#767676") == pytest.approx(4.54, abs=0.01)  # the classic lightest grey for text on white


MARKS = {f"okabe_ito[{i}]": c for i, c in enumerate(charts.OKABE_ITO)}
MARKS |= {f"decoding.{k}": c for k, c in decoding_draw.COLOURS.items()}
MARKS |= {"grokking.train": grokking_draw.TRAIN_COLOR, "grokking.test": grokking_draw.TEST_COLOR,
          "grokking.jump": grokking_draw.JUMP_COLOR}
MARKS |= {f"nondeterminism.branch[{i}]": c for i, c in enumerate(nondeterminism_draw.BRANCH_COLOURS)}


@pytest.mark.parametrize("name", sorted(MARKS))
def test_every_mark_colour_is_at_least_3_to_1_on_white(name):
    assert contrast(MARKS[name]) >= 3.0, (name, MARKS[name], round(contrast(MARKS[name]), 2))


def test_the_palette_has_no_repeat():
    assert len(set(charts.OKABE_ITO)) == len(charts.OKABE_ITO) == 8


@pytest.mark.parametrize("pair", [("grokking.train", "grokking.test"), ("decoding.kept", "decoding.winner"),
                                  ("decoding.kept", "decoding.pruned")])
def test_paired_series_differ_in_greyscale(pair):
    """Two series drawn together differ in lightness too, not only in hue (WCAG 1.4.1): at least 1.4:1 apart."""
    a, b = (MARKS[n] for n in pair)
    assert contrast(a, b) >= 1.4, (pair, round(contrast(a, b), 2))

