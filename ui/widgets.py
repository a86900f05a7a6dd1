"""Small widgets every page uses: the prompt box, errors, model text shown as text."""
from __future__ import annotations

import json
from pathlib import Path

import streamlit as st

from model_backend.runtime.memo import cached
from model_backend.validation import MAX_PROMPT_CHARS, InvalidInput, check_prompt
from ui import glossary
from ui.i18n import fmt_int, t
from ui.untrusted import escape_frame, message_values


def intro(page: str, **values) -> None:
    """Title and the two or three sentences that say what to look at ({placeholders} filled from values,
    which the caller escapes for Markdown)."""
    st.title(t(f"{page}.title"))
    st.markdown(t(f"{page}.intro", **values))  # our own text from the table, never a visitor's
    glossary.button(page)  # the PT <-> EN glossary and the course text's pitfalls, on every page


def prompt_box(page: str, label_key: str = "common.prompt", height: int = 90) -> str | None:
    """A text area bound to the prompt shared across pages. Returns a valid prompt or None
    (after showing a message). The visitor's text is never changed or lost."""
    shared = st.session_state.setdefault("prompt", t("common.default_prompt"))
    key = f"prompt_{page}"
    if key not in st.session_state:
        st.session_state[key] = shared
    text = st.text_area(t(label_key), key=key, height=height, max_chars=MAX_PROMPT_CHARS)
    st.session_state["prompt"] = text
    try:
        return check_prompt(text)
    except InvalidInput as exc:
        show_error(exc)
        return None


def show_error(exc: InvalidInput, prefix: str = "err") -> None:
    """The message for a refused input; the input's own text in it is a code span, never Markdown."""
    st.warning(t(f"{prefix}.{exc.key}", **message_values(exc.values)), icon=":material/error:")


def truncation_notice(truncated_from: int | None, kept: int) -> None:
    if truncated_from:
        st.info(t("common.truncated", n=fmt_int(truncated_from), kept=fmt_int(kept)), icon=":material/content_cut:")


def model_text(text: str, wrap: bool = True) -> None:
    """Text from the visitor or the model, shown verbatim as text (never Markdown or HTML). wrap=False: a line
    longer than the box scrolls sideways instead of wrapping (a list whose lines must stay one line each)."""
    st.code(text if text else " ", language=None, wrap_lines=wrap)


@cached(1)
def prompt_presets() -> tuple[str, ...]:
    """The sidebar's prompt examples (assets/presets.json), read once (app.py runs again at every page run)."""
    path = Path(__file__).resolve().parent.parent / "assets" / "presets.json"
    return tuple(json.loads(path.read_text(encoding="utf-8"))["prompts"])


def reset_prompt_widgets() -> None:
    """After the sidebar sets a preset, every page's prompt box starts from it."""
    for key in [k for k in st.session_state if str(k).startswith("prompt_")]:
        del st.session_state[key]


def timed(name: str):
    """Decorator: keep the last run time of a page part (a fragment) in session_state["_timings"][name], in ms.

    bench/bench.py reads it: a slider inside a fragment reruns only that fragment in the browser.
    """
    import functools
    import time

    def wrap(fn):
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                st.session_state.setdefault("_timings", {})[name] = (time.perf_counter() - started) * 1000

        return inner

    return wrap


def data_table(df, **kwargs):
    """A table: st.dataframe, or in projection mode st.table, whose text the projection CSS enlarges
    (st.dataframe draws its cells on a canvas that page CSS cannot reach). kwargs go to st.dataframe;
    st.table keeps hide_index and an int height (it scrolls past that). st.table reads its cells as
    Markdown, so it gets them escaped: token and visitor text reads as typed."""
    if st.session_state.get("projection"):
        return st.table(escape_frame(df), hide_index=kwargs.get("hide_index"),
                        height=projection_height(kwargs.get("height"), len(df)))
    return st.dataframe(df, **kwargs)


DATAFRAME_ROW = 35  # px: a row of st.dataframe (Streamlit's default), header included
PROJECTION_ROWS = 1.7  # st.table's rows in projection mode (text 1.1 × 22 px, wrapped cells) against st.dataframe's


def projection_height(height, rows: int) -> int | str:
    """st.table's height in projection mode for a table that st.dataframe would draw `height` px tall: its whole
    content when that height held every row (the pipeline's softmax table hid its TOTAL row, and the loop's its last
    row, behind a scroll bar on the projector), otherwise the same number of rows at projection's row height."""
    if not isinstance(height, int) or isinstance(height, bool) or height >= DATAFRAME_ROW * (rows + 1):
        return "content"
    return round(height * PROJECTION_ROWS)


def fragment_run() -> bool:
    """True while only fragments rerun (a timer's run): no sidebar widget is drawn or can be used then, so a
    change the browser reports for one is a stale or default value it resent (Streamlit 1.67 with run_every)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return bool(ctx is not None and ctx.fragment_ids_this_run)
