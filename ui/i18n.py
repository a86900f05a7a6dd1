"""Every visible string goes through t(): one table, pt-BR and en."""
from __future__ import annotations

import streamlit as st

from model_backend.runtime.memo import cached
from ui.strings import collect

LANGS = ("pt-BR", "en")
LANG_NAMES = {"pt-BR": "Português (Brasil)", "en": "English"}


@cached(1)
def table() -> dict[str, tuple[str, str]]:
    return collect()


def browser_lang() -> str:
    """pt-BR unless the browser asks for another language (the app's first audience is Brazilian)."""
    try:
        locale = (st.context.locale or "").lower()
    except Exception:  # noqa: BLE001 - no browser context (AppTest, scripts)
        locale = ""
    if locale and not locale.startswith("pt"):
        return "en"
    return "pt-BR"


def lang() -> str:
    value = st.session_state.get("lang")
    if value not in LANGS:
        value = browser_lang()
        st.session_state["lang"] = value
    return value


def t(key: str, **values) -> str:
    """The text for `key` in the visitor's language, with {placeholders} filled."""
    pair = table().get(key)
    if pair is None:
        raise KeyError(f"missing translation key {key!r}")
    text = pair[0] if lang() == "pt-BR" else pair[1]
    return text.format(**values) if values else text


def fmt_int(n: int) -> str:
    """262144 -> '262.144' in pt-BR, '262,144' in en."""
    s = f"{int(n):,}"
    return s.replace(",", ".") if lang() == "pt-BR" else s


def fmt_float(x: float, digits: int = 2) -> str:
    s = f"{x:,.{digits}f}"
    if lang() == "pt-BR":
        s = s.replace(",", "\0").replace(".", ",").replace("\0", ".")
    return s


def fmt_pct(p: float, digits: int = 1) -> str:
    return fmt_float(100 * p, digits) + "%"


_PT_MARKS = str.maketrans({",": ".", ".": ","})


def fmt_ints(values) -> list[str]:
    """[fmt_int(n) for n in values], reading the visitor's language once (a chart's thousands of tooltip labels:
    reading it per value was most of the grokking page's run)."""
    out = [f"{int(n):,}" for n in values]
    return [s.replace(",", ".") for s in out] if lang() == "pt-BR" else out


def fmt_floats(values, digits: int = 2) -> list[str]:
    """[fmt_float(x, digits) for x in values], reading the visitor's language once."""
    out = [f"{x:,.{digits}f}" for x in values]
    return [s.translate(_PT_MARKS) for s in out] if lang() == "pt-BR" else out


def fmt_pcts(values, digits: int = 1) -> list[str]:
    """[fmt_pct(p, digits) for p in values], reading the visitor's language once."""
    return [s + "%" for s in fmt_floats([100 * p for p in values], digits)]


def fmt_bytes(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if abs(n) < 1000 or unit == "GB":
            return (fmt_int(n) if unit == "B" else fmt_float(n, 2)) + f" {unit}"
        n /= 1000
    return ""
