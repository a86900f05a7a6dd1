"""Text from a visitor, a link or the model, escaped or put in a code span, renders as the same characters."""
import pandas as pd
import pytest

from tests.adversarial.cases import HOSTILE_TEXT, MARKDOWN_BATCH, MARKDOWN_PROBES
from tests.markdown_check import problems, rendered
from ui.untrusted import WORD_JOINER, code_span, escape_frame, escape_markdown, message_values

PROBES = {**MARKDOWN_PROBES, "batch": MARKDOWN_BATCH, "html": HOSTILE_TEXT["img_onerror"],
          "md_js_link": HOSTILE_TEXT["md_js_link"], "backticks": "a ``` b ` c `` d", "edge_ticks": "`x`",
          "list": "- item", "ordered": "1. one", "quote": "> quote", "table": "| a | b |", "rule": "***",
          "entity": "&amp; &lt;b&gt;", "reference": "[x]: https://example.invalid/ref", "footnote": "[^1]",
          "strike": "~~del~~", "underscore": "_it_ __b__", "backslash": "\\*raw\\*", "emoji": ":smile:"}


@pytest.mark.parametrize("name", list(PROBES))
def test_escaped_text_renders_as_typed(name):
    probe = PROBES[name]
    assert problems(escape_markdown(probe), probe) == []
    assert problems(f"Before {escape_markdown(probe)} after", probe) == []  # inside a sentence too


@pytest.mark.parametrize("name", list(PROBES))
def test_a_code_span_shows_the_text_verbatim(name):
    probe = PROBES[name]
    source = f"The value {code_span(probe)} is not a number."
    assert problems(source, probe) == []
    tags, _, _ = rendered(source)
    assert "code" in tags


def test_the_probes_do_make_markdown_when_not_escaped():
    """The check itself can fail: unescaped, every probe but the backtick makes an element or a link."""
    for name, probe in MARKDOWN_PROBES.items():
        if name != "backtick":
            assert problems(probe, probe), name
    assert problems("`" + MARKDOWN_PROBES["backtick"] + "`", MARKDOWN_PROBES["backtick"])  # a naive code span


def test_a_new_line_cannot_start_a_block_in_a_code_span():
    assert problems(code_span("1\n# heading\n- item"), "1\n# heading\n- item") == []
    assert "\n" not in code_span("a\r\nb\rc\nd")


def test_only_invisible_characters_are_added():
    text = "https://example.invalid www.Example.org me@example.invalid [a](b) :material/home:"
    escaped = escape_markdown(text)
    assert escaped.replace(WORD_JOINER, "").replace("\\", "") == text
    assert escaped.count(WORD_JOINER) == 3
    assert WORD_JOINER in code_span(":material/home:")


def test_message_values_keep_numbers_and_wrap_text():
    values = message_values({"n": 12_345, "limit": 2.5, "value": "x`[a](https://example.invalid)", "flag": True})
    assert values["n"] == 12_345 and values["limit"] == 2.5  # "{n:,}" still formats
    assert values["value"] == code_span("x`[a](https://example.invalid)")
    assert values["flag"] == code_span(True)


def test_escape_frame_escapes_text_cells_headers_and_index_but_keeps_numbers():
    df = pd.DataFrame({"**token**": ["[a](https://example.invalid)", "·Paris"], "id": [7, 8], "p": [0.5, 0.25]},
                      index=["# one", "two"])
    out = escape_frame(df)
    assert list(out.columns) == [escape_markdown("**token**"), "id", "p"]
    assert out.iloc[0, 0] == escape_markdown("[a](https://example.invalid)") and out.iloc[1, 0] == "·Paris"
    assert out["id"].tolist() == [7, 8] and out["p"].tolist() == [0.5, 0.25]
    assert list(out.index) == [escape_markdown("# one"), "two"]
    assert df.iloc[0, 0] == "[a](https://example.invalid)"  # the caller's frame is not changed
