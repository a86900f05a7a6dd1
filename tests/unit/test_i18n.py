"""Every visible string goes through the translation table: both languages, no missing keys."""
import re
from pathlib import Path

from ui.strings import collect

ROOT = Path(__file__).resolve().parents[2]
CALL = re.compile(r"""\bt\(\s*f?["']([A-Za-z0-9_.{}\-]+)["']""")


def test_every_key_has_portuguese_and_english():
    table = collect()
    assert table, "the table is empty"
    for key, (pt, en) in table.items():
        assert pt.strip() and en.strip(), key


def test_placeholders_match_between_languages():
    field = re.compile(r"{(\w+)")
    for key, (pt, en) in collect().items():
        assert set(field.findall(pt)) == set(field.findall(en)), key


def test_every_literal_key_used_in_code_exists():
    table = collect()
    files = [ROOT / "app.py", *ROOT.joinpath("pages").glob("*.py"), *ROOT.joinpath("ui").rglob("*.py")]
    missing = []
    for path in files:
        for key in CALL.findall(path.read_text(encoding="utf-8")):
            if "{" in key:  # an f-string key: check its fixed prefix names some key
                prefix = key.split("{")[0]
                if not any(k.startswith(prefix) for k in table):
                    missing.append(f"{path.name}: {key}")
            elif key not in table:
                missing.append(f"{path.name}: {key}")
    assert not missing, missing


def test_every_backend_error_key_is_translated():
    src = (ROOT / "model_backend" / "validation.py").read_text(encoding="utf-8")
    keys = set(re.findall(r'InvalidInput\("(\w+)"', src))
    table = collect()
    assert keys and all(f"err.{k}" in table for k in keys), keys - {k[4:] for k in table}


def test_the_list_formatters_give_what_the_one_value_formatters_give():
    """fmt_ints/fmt_floats/fmt_pcts read the language once for a whole column: the same strings as one call per
    value, in both languages (thousands and decimal marks swapped in pt-BR), for Python and numpy numbers."""
    import numpy as np
    import streamlit as st

    from ui.i18n import fmt_float, fmt_floats, fmt_int, fmt_ints, fmt_pct, fmt_pcts

    ints = [0, 7, 1234, 262144, -5000, np.int64(1234567)]
    floats = [0.0, 0.5, 1234.5678, -0.00049, 1e-7, np.float32(2.25), np.float64(98765.4321), float("nan")]
    probs = [0.0, 0.123456, 0.999, 1.0, np.float32(0.5)]
    before = st.session_state.get("lang")
    try:
        for language in ("pt-BR", "en"):
            st.session_state["lang"] = language
            assert fmt_ints(ints) == [fmt_int(n) for n in ints]
            for digits in (0, 1, 2, 4):
                assert fmt_floats(floats, digits) == [fmt_float(x, digits) for x in floats]
                assert fmt_pcts(probs, digits) == [fmt_pct(p, digits) for p in probs]
        st.session_state["lang"] = "pt-BR"
        assert fmt_floats([1234.5], 1) == ["1.234,5"] and fmt_pcts([0.5]) == ["50,0%"]
        assert fmt_ints([262144]) == ["262.144"]
    finally:
        if before is None:
            st.session_state.pop("lang", None)
        else:
            st.session_state["lang"] = before
