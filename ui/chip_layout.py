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


# --- labels beside the points of a scatter plot -----------------------------------------------------------------

LABEL_WIDTH_PX = 300  # the plot's width on a 390 px phone (the narrowest screen): labels placed apart there stay
# apart on a wider one, where points move apart and labels keep their size
LABEL_GAP_PX = 7  # from a point's centre to its label


def padded_domain(values, pad: float = 0.06) -> tuple[float, float]:
    """A scale's domain around `values`, `pad` of their range wider on each side (±1 around a single value)."""
    lo, hi = float(min(values)), float(max(values))
    if hi - lo < 1e-12:
        return lo - 1.0, hi + 1.0
    return lo - pad * (hi - lo), hi + pad * (hi - lo)


LABEL_SCALES = (1.0, 1.3, 1.7, 2.2, 2.8, 3.4, 4.5, 6.0)  # the plot's width as a multiple of LABEL_WIDTH_PX (a
# projector's is about 2.7, a 1920 px screen's about 4.7): a name's place is checked at each, as points move apart
# and names keep their size


def scatter_labels(xs, ys, labels, height_px: float, font_px: float = 15, width_px: float = LABEL_WIDTH_PX,
                   x_domain: tuple[float, float] | None = None, y_domain: tuple[float, float] | None = None,
                   point_px: float = 5.5, scales: tuple[float, ...] = LABEL_SCALES
                   ) -> list[tuple[float, float, str] | None]:
    """Where each point's name goes so that no two names, and no name and another point, overlap on a plot
    `width_px` (times each of `scales`) x `height_px` with these domains (padded_domain by default): (dx, dy,
    align) in pixels from the point, or None where no place is free (the name is left out; the point keeps its
    tooltip). Greedy, in the points' order: beside the point to the right, else to the left, else just above or
    below it, then one or two lines up or down beside it, where the line from the point to the name (map_chart
    draws it) must be clear of other names and points too."""
    x_lo, x_hi = x_domain or padded_domain(xs)
    y_lo, y_hi = y_domain or padded_domain(ys)
    px = [(float(x) - x_lo) / (x_hi - x_lo) * width_px for x in xs]
    py = [(1.0 - (float(y) - y_lo) / (y_hi - y_lo)) * height_px for y in ys]
    line = font_px * 1.3  # a name's height with a margin: Vega's glyphs reach past 1.15 of the font size
    names: list[tuple[int, float, float, float]] = []  # each name placed: (point, left edge from it, top, width)
    leaders: list[tuple[int, float, float, float]] = []  # each line to a name: (point, start y, end dx, end dy)

    def clear(i: int, left: float, top: float, w: float, dy: float, dx_end: float) -> bool:
        """Whether point i's name (and the line to it, when dy) would cover no other name, line or point, at every
        scale."""
        start = py[i] + (point_px if dy > 0 else -point_px)  # the line starts at the point's edge
        for k in scales:
            box = (px[i] * k + left, top, px[i] * k + left + w, top + line)
            if box[0] < 0 or box[2] > width_px * k:
                return False
            others = [(px[j] * k + jl, jt, px[j] * k + jl + jw, jt + line) for j, jl, jt, jw in names]
            others += [(px[j] * k - point_px, py[j] - point_px, px[j] * k + point_px, py[j] + point_px)
                       for j in range(len(px)) if j != i]
            if any(_overlap(box, o) for o in others):
                return False
            if any(_crosses((px[j] * k, y0, px[j] * k + ex, py[j] + ey), box) for j, y0, ex, ey in leaders):
                return False
            if dy and any(_crosses((px[i] * k, start, px[i] * k + dx_end, py[i] + dy), o) for o in others):
                return False
        return True

    out: list[tuple[float, float, str] | None] = []
    for i, label in enumerate(labels):
        w = label_units(str(label)) * UNIT_PX * font_px / 16
        touch = point_px + line / 2 + 1  # from the point's centre to a name's middle, just above or below it
        # (dx, dy, align) in order: beside, right then left; just above, just below (centred, no line); then one and
        # two lines up or down, right then left, with a line to the point
        places = [(LABEL_GAP_PX, 0.0, "left"), (-LABEL_GAP_PX, 0.0, "right"), (0.0, -touch, "center"),
                  (0.0, touch, "center")]
        places += [(LABEL_GAP_PX * side, dy, "left" if side == 1 else "right")
                   for dy in (-line, line, -2 * line, 2 * line) for side in (1, -1)]
        found = None
        for dx, dy, align in places:
            top = py[i] + dy - line / 2
            left = {"left": dx, "right": dx - w, "center": -w / 2}[align]
            if top < 0 or top + line > height_px:
                continue
            if clear(i, left, top, w, dy if dx else 0.0, dx):
                found = (left, top, w, (dx, dy, align))
                break
        if found is None:
            out.append(None)
            continue
        names.append((i, *found[:3]))
        dx, dy, _ = found[3]
        if dx and dy:
            leaders.append((i, py[i] + (point_px if dy > 0 else -point_px), dx, dy))
        out.append(found[3])
    return out


def _crosses(segment: tuple[float, float, float, float], box: tuple[float, float, float, float]) -> bool:
    """Whether the segment (x0, y0, x1, y1) passes through the inside of the box (left, top, right, bottom)
    (Liang-Barsky clipping)."""
    x0, y0, x1, y1 = segment
    t0, t1 = 0.0, 1.0
    for p, q in ((x0 - x1, x0 - box[0]), (x1 - x0, box[2] - x0), (y0 - y1, y0 - box[1]), (y1 - y0, box[3] - y0)):
        if p == 0:
            if q <= 0:
                return False
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 >= t1:
            return False
    return True


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
