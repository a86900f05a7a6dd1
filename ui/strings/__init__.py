"""The translation table, one module per page (so pages can be added without touching others).

Every module defines STRINGS = {"key": ("pt-BR text", "en text")}. Keys are namespaced by page
("tok.title"); `collect()` merges all modules and refuses duplicate keys.
"""
from __future__ import annotations

import importlib
import pkgutil


def collect() -> dict[str, tuple[str, str]]:
    table: dict[str, tuple[str, str]] = {}
    for mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        strings = importlib.import_module(f"{__name__}.{mod.name}").STRINGS
        for key, pair in strings.items():
            if key in table:
                raise ValueError(f"translation key {key!r} is defined twice (again in {mod.name})")
            if not (isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(s, str) and s for s in pair)):
                raise ValueError(f"translation key {key!r} in {mod.name} needs (pt-BR, en) texts")
            table[key] = pair
    return table
