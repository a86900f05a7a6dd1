"""Links that carry state: page settings live in the URL query string, validated on the way in."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from ui.i18n import t

MAX_TEXT = 2_000  # longest text a link may carry (a prompt); longer values fall back to the default


@dataclass(frozen=True)
class Param:
    """One setting that a link can carry.

    name: the query key (short, stable); key: the session_state / widget key the page uses.
    default is in the page's (state) units; low, high and choices are in the link's units.
    """

    name: str
    key: str
    kind: type  # str, int, float or bool
    default: Any
    low: float | None = None
    high: float | None = None
    choices: tuple | None = None
    offset: int = 0  # link value = state value + offset (layers and heads: index 0 travels as 1); negatives as they are


def to_link(value: Any, p: Param) -> Any:
    """A setting's value as a link carries it (see Param.offset)."""
    return value + p.offset if p.offset and isinstance(value, int) and value >= 0 else value


def parse(raw: str, p: Param) -> tuple[Any, bool]:
    """Turn a query value into a setting. Returns (value, ok); a bad value gives (default, False)."""
    try:
        if p.kind is str:
            value = raw
            ok = 0 < len(value) <= MAX_TEXT and "\x00" not in value
        elif p.kind is bool:
            value = {"1": True, "true": True, "0": False, "false": False}[raw.strip().lower()]
            ok = True
        else:
            number = float(raw)
            ok = math.isfinite(number) and (p.kind is float or number == int(number))
            value = p.kind(number) if ok else p.default
            ok = ok and (p.low is None or value >= p.low) and (p.high is None or value <= p.high)
        if ok and p.choices is not None:
            ok = value in p.choices
        if ok and p.offset:  # link units -> state units; 0 .. offset-1 name nothing
            ok = value < 0 or value >= p.offset
            value = value - p.offset if value >= p.offset else value
    except (ValueError, KeyError, OverflowError):
        ok = False
    return (value, True) if ok else (p.default, False)


def restore(page: str, params: list[Param]) -> None:
    """On a visitor's first run of a page, copy valid query values into the widgets' state.

    Call before the widgets are created. Bad values (wrong type, out of range, too long) fall back
    to the default and a notice names them; nothing raises.
    """
    flag = f"_restored_{page}"
    if st.session_state.get(flag):
        return
    st.session_state[flag] = True
    rejected = []
    for p in params:
        if p.name not in st.query_params:
            continue
        value, ok = parse(st.query_params.get(p.name, ""), p)
        if ok:
            st.session_state[p.key] = value
            if p.name == "prompt":
                st.session_state["prompt"] = value
        else:
            rejected.append(p.name)
    if rejected:
        st.session_state[f"_rejected_{page}"] = rejected


def publish(page: str, params: list[Param]) -> None:
    """Write the current settings into the URL, so copying it reproduces this view."""
    rejected = st.session_state.pop(f"_rejected_{page}", None)
    if rejected:
        st.info(t("share.rejected", names=", ".join(rejected)), icon=":material/link_off:")
    values = {}
    for p in params:
        value = st.session_state.get(p.key, p.default)
        if p.kind is str and (not isinstance(value, str) or len(value) > MAX_TEXT):
            continue  # too long for a link: leave it out rather than break the URL
        values[p.name] = str(int(value)) if p.kind is bool else str(to_link(value, p))
    from ui.live_class import url_marks  # a student's place in the class stays in the address

    values.update(url_marks())
    values["lang"] = st.session_state.get("lang", "pt-BR")
    if st.session_state.get("projection"):
        values["projection"] = "1"
    current = {k: st.query_params.get(k) for k in st.query_params}
    if current != values:
        st.query_params.from_dict(values)
    from ui.live_class import lead, own_change

    lead(page)  # a teacher's settings reach the class's phones, also from a fragment (a slider) where app.py's lead does not run
    own_change(page)  # a following phone's own change (text, slider, step): kept until the teacher's view changes


def link_to_view(page: str, params: list[Param]) -> str:
    """The URL of this exact view (base URL from the browser when known)."""
    try:
        base = (st.context.url or "").split("?")[0]
    except Exception:  # noqa: BLE001 - no browser context in AppTest
        base = ""
    query = {k: st.query_params.get(k) for k in st.query_params}
    return f"{base or '/' + page}?{urlencode(query)}"


def share_box(page: str, params: list[Param]) -> None:
    """Publish the settings to the URL and show a copyable link to this view."""
    publish(page, params)
    with st.expander(t("share.title"), icon=":material/link:"):
        st.caption(t("share.caption"))
        st.text(link_to_view(page, params))  # as text; not st.code, whose highlighter costs a browser ~0.6 s
