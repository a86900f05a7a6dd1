"""Markdown from a visitor, a link or the model (tests.adversarial.cases.MARKDOWN_PROBES) never becomes a link,
an image, formatting or maths: in messages, captions, tables (projection mode's st.table too), metrics,
labels, help texts and the options Streamlit renders as Markdown. Read as a renderer would read them."""
import pytest
from streamlit.testing.v1.element_tree import (
    AlertBase,
    ButtonGroup,
    HeadingBase,
    Markdown,
    Metric,
    Radio,
    SelectSlider,
    Table,
)

from model_backend.lessons import temperature as sv
from model_backend.validation import InvalidInput
from tests.adversarial.cases import MARKDOWN_BATCH, MARKDOWN_PROBES
from tests.app.helpers import run_page
from tests.app.link_helpers import open_link
from tests.markdown_check import probe_hits, problems
from ui.nav import available

PAGES = [name for name, _ in available()]


def _walk(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _walk(child)


def markdown_sources(at) -> list[tuple[str, str]]:
    """Every string on the page that Streamlit renders as Markdown, with where it is."""
    out = []
    for node in _walk(at._tree):
        kind = type(node).__name__
        for attr in ("label", "help"):
            value = getattr(node, attr, None)
            if isinstance(value, str):
                out.append((f"{kind}.{attr}", value))
        if isinstance(node, Markdown | AlertBase | HeadingBase):
            out.append((kind, str(node.value)))
        elif isinstance(node, Metric):
            out.append((kind, str(node.value)))
        elif isinstance(node, Table):
            df = node.value
            out += [("table header", str(c)) for c in df.columns]
            out += [("table cell", v) for c in df.columns for v in df[c] if isinstance(v, str)]
        elif isinstance(node, Radio | SelectSlider | ButtonGroup):
            out += [(f"{kind} option", str(o)) for o in node.options]
    return out


def assert_no_probe_rendered(at, where: str) -> None:
    assert not at.exception, f"{where}: {at.exception}"
    hits = [(kind, hit) for kind, source in markdown_sources(at) for hit in probe_hits(source)]
    assert not hits, f"{where}: {hits}"


def _logits_error(value: str) -> str:
    try:
        sv.parse_logits(value)
    except InvalidInput as exc:
        return exc.values["value"]
    raise AssertionError(f"{value!r} parsed")


def test_the_logits_error_shows_the_typed_value_as_typed():
    """The temperature page's own-logits box: the refused value sits in the warning as a code span."""
    at = run_page("temperature", lang="en", timeout=900)
    for name, probe in MARKDOWN_PROBES.items():
        value = "1 " + probe  # a number, then the probe: the probe is the part that is refused
        at.text_input(key="temperature_logits").set_value(value).run()
        assert not at.exception, f"{name}: {at.exception}"
        warnings = [w.value for w in at.warning if "is not a number" in w.value]
        assert len(warnings) == 1, f"{name}: {[w.value for w in at.warning]}"
        assert problems(warnings[0], _logits_error(value)) == [], name
        assert_no_probe_rendered(at, f"temperature logits {name}")


def _link_keys(page: str) -> list[str]:
    """Every key the page's link carries, as the page itself publishes them."""
    at = run_page(None if page == "home" else page, lang="en", timeout=900)
    return [k for k in at.query_params if k not in ("lang", "projection")]


@pytest.mark.parametrize("page", PAGES)
def test_markdown_in_every_link_value_stays_text_in_both_modes(page):
    """Every value of the page's link carries all the probes at once; normal and projection mode."""
    keys = _link_keys(page)
    assert keys, f"{page} publishes no link"
    for projection in ("0", "1"):
        at = open_link(page, {**{k: MARKDOWN_BATCH for k in keys}, "lang": "en", "projection": projection})
        assert_no_probe_rendered(at, f"{page} projection={projection}")
        if projection == "1":
            assert at.session_state["projection"] is True
