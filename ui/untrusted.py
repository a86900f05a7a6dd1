"""Text from a visitor, a link or the model, made safe for the places where Streamlit reads Markdown.

st.markdown, st.warning/info/error/success, st.caption, st.table cells and headers, widget labels and
help texts, st.radio/st.select_slider/st.pills options and progress texts all render GitHub-flavoured
Markdown (links, images, emphasis, headings, math, Streamlit's :colour[...] and :icon: directives).
Our own text from ui/strings may use it; anything else goes through one of these first, or is shown
with st.code/st.text, a dataframe or a chart mark, which never read Markdown.
"""
from __future__ import annotations

import re

import pandas as pd

# Every ASCII punctuation character: CommonMark lets a backslash escape each of them, and every Markdown
# construct starts with one (`*_[]!<>#$|~:` ...), including GFM's autolinks (`https:`, `www.`, `a@b`).
_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
_LINE_ENDING = re.compile(r"\r\n|\r|\n")
# GFM's autolinks (`https://…`, `www.…`, `a@b.c`) are found in the text *after* escapes are read, so an
# escape cannot stop them: an invisible WORD JOINER (U+2060) goes between ':' and '//', 'www' and '.',
# and after '@'. The text looks the same; copied from the page, it carries the invisible character.
_AUTOLINK = re.compile(r"(?<=:)(?=//)|(?i:(?<=www)(?=\.))|(?<=@)")
WORD_JOINER = "\u2060"
_MATERIAL = re.compile(r"(?<=:)(?=material/)")


def escape_markdown(text) -> str:
    """The text with every ASCII punctuation character backslash-escaped: rendered, it reads exactly as
    typed, and no link, image, emphasis, heading, list, table, math or directive can start in it, and
    no URL or e-mail address turns into a link."""
    return _PUNCTUATION.sub(r"\\\1", _AUTOLINK.sub(WORD_JOINER, str(text)))


def code_span(text) -> str:
    """The text as one inline code span, shown verbatim in a Markdown message.

    The fence is one backtick longer than the longest run of backticks inside, so none can close it,
    and padded with a space on each side (CommonMark strips exactly one). Line endings become ↵: a
    new line inside could start a heading or a list before the span is read. Streamlit rewrites
    ":material/" everywhere in the source, code spans included, so a word joiner keeps it as typed.
    """
    body = _MATERIAL.sub(WORD_JOINER, _LINE_ENDING.sub("↵", str(text)))
    runs = [len(r) for r in re.findall(r"`+", body)]
    fence = "`" * (max(runs, default=0) + 1)
    return f"{fence} {body} {fence}"


def message_values(values: dict) -> dict:
    """Values for a t() message that Streamlit renders as Markdown: numbers stay numbers (their format
    specs still apply), anything else becomes a code span."""
    return {k: v if isinstance(v, (int, float)) and not isinstance(v, bool) else code_span(v)
            for k, v in values.items()}


def escape_frame(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of df for st.table: every text cell, column name and index label escaped; numbers kept."""
    def esc(v):
        return escape_markdown(v) if isinstance(v, str) else v

    out = df.copy()
    for col in out.columns:
        if out[col].dtype == object or pd.api.types.is_string_dtype(out[col].dtype):
            out[col] = pd.Series([esc(v) for v in out[col].tolist()], index=out.index, dtype=object)
    out.columns = [esc(c) for c in out.columns]
    if out.index.dtype == object or pd.api.types.is_string_dtype(out.index.dtype):
        out.index = [esc(i) for i in out.index]
    return out
