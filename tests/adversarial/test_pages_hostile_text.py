"""Every text box of every page gets the same hostile list: no exception, a clear message for
invalid text, and nothing from the input is rendered as Markdown or HTML."""
import json

import pytest

from tests.adversarial.cases import HOSTILE_TEXT
from tests.app.helpers import run_page
from tests.conftest import ARTIFACTS
from ui.nav import available

PAGES = [name for name, _ in available()]
NO_TEXT_BOX = {"grokking"}  # its inputs are sliders and numbers; its links get hostile values in tests/app
COUNTS: dict[str, int] = {}


@pytest.fixture(scope="module", autouse=True)
def _write_counts():
    yield
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "adversarial_text_counts.json").write_text(json.dumps(COUNTS, indent=1))


@pytest.mark.parametrize("page", PAGES)
def test_every_text_box_survives_hostile_text(page):
    at = run_page(None if page == "home" else page, lang="en")
    assert not at.exception, at.exception
    boxes = [(w.key, "text_area") for w in at.text_area] + [(w.key, "text_input") for w in at.text_input]
    tried = 0
    for key, kind in boxes:
        if key is None or key.startswith("_w_"):
            continue
        for name, value in HOSTILE_TEXT.items():
            widget = at.text_area(key=key) if kind == "text_area" else at.text_input(key=key)
            widget.set_value(value).run()
            tried += 1
            assert not at.exception, f"{page}/{key}/{name}: {at.exception}"
            for md in at.markdown:
                for marker in ("<script", "<img", "javascript:"):
                    assert marker not in md.value, f"{page}/{key}/{name} rendered input as Markdown"
            if name in ("empty", "whitespace") and key.startswith("prompt"):
                assert at.warning or at.info or at.error, f"{page}/{key}: no message for {name} input"
    COUNTS[page] = tried
    # the loop above must have tried something: a page whose text boxes all lost their keys (or that the page
    # stopped drawing) would otherwise pass having tried nothing
    assert HOSTILE_TEXT, "no hostile texts"
    if page in NO_TEXT_BOX:
        assert not boxes, f"{page} now has text boxes {boxes}: take it out of NO_TEXT_BOX"
    else:
        assert tried >= len(HOSTILE_TEXT), f"{page}: tried {tried} hostile texts in boxes {boxes}"
