"""Chips that wrap like text: a label's width in character units, and the row and place of each chip for a row
width. Shared by the pages that draw tokens as chips (tokenizer, decoding, hallucination); nothing here draws."""
from __future__ import annotations

import unicodedata

UNIT_PX = 9.5  # one character unit on screen, in pixels, at the chips' 16 px font
BUDGETS = (14, 20, 28, 40, 56, 80, 112)  # row widths in character units; the chart picks by its width


def label_units(label: str) -> float:
    """Width of a chip label in character units (wide East Asian characters and emoji count 2)."""
    return float(sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in label))


def wrap(widths: list[float], budget: float, gap: float = 0.5) -> list[tuple[float, int]]:
    """Greedy line wrapping: (x, row) of each chip so no row is wider than `budget` units.

    A chip wider than the budget gets a row of its own.
    """
    out, x, row = [], 0.0, 0
    for w in widths:
        if x > 0 and x + w > budget:
            x, row = 0.0, row + 1
        out.append((x, row))
        x += w + gap
    return out
