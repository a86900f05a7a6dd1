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
