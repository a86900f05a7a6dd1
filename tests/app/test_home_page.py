"""The home page's next-token bars say what they add up to (review A, H7), with the numbers the chart draws."""
import re

import pytest

from tests.app.helpers import run_page, texts
from tests.app.link_helpers import chart_frames


@pytest.mark.parametrize("lang, pattern", [
    ("pt-BR", r"As barras somam ([\d.,]+)%; os outros [\d.]+ tokens do vocabulário dividem os ([\d.,]+)% restantes"),
    ("en", r"The bars add up to ([\d.,]+)%; the other [\d,]+ tokens of the vocabulary share the remaining ([\d.,]+)%"),
])
def test_the_bars_caption_gives_their_sum_and_the_rest(lang, pattern):
    at = run_page("home", lang=lang)
    assert not at.exception
    found = re.search(pattern, texts(at))
    assert found, "the caption with the bars' sum"
    number = (lambda s: float(s.replace(".", "").replace(",", "."))) if lang == "pt-BR" else (
        lambda s: float(s.replace(",", "")))
    top, left = number(found[1]), number(found[2])
    bars = next(f for f in chart_frames(at) if "prob" in f.columns)
    assert top == pytest.approx(100 * bars["prob"].sum(), abs=0.051)  # the sum of what the chart draws
    assert top + left == pytest.approx(100, abs=0.11) and 0 < top <= 100  # one decimal each
