"""Names beside the points of a scatter plot (ui.chip_layout.scatter_labels, the tokenizer page's word map): no
name covers another name or another point, on the narrowest screen and on wider ones, and a name with no free
place is left out of the plot while its point keeps the word (tooltip, table)."""
import numpy as np
import pandas as pd
import pytest

from ui.chip_layout import LABEL_WIDTH_PX, UNIT_PX, _crosses, label_units, padded_domain, scatter_labels

HEIGHT, FONT = 420, 15


def boxes(xs, ys, labels, places, width):
    """Each placed name's box and each point's box, in pixels, on a plot `width` wide."""
    (x_lo, x_hi), (y_lo, y_hi) = padded_domain(xs), padded_domain(ys)
    px = [(x - x_lo) / (x_hi - x_lo) * width for x in xs]
    py = [(1 - (y - y_lo) / (y_hi - y_lo)) * HEIGHT for y in ys]
    line = FONT * 1.3
    names, points, leaders = [], [(x - 5.5, y - 5.5, x + 5.5, y + 5.5) for x, y in zip(px, py)], []
    for i, place in enumerate(places):
        if place is None:
            continue
        dx, dy, align = place
        w = label_units(labels[i]) * UNIT_PX * FONT / 16
        left = {"left": px[i] + dx, "right": px[i] + dx - w, "center": px[i] - w / 2}[align]
        names.append((i, (left, py[i] + dy - line / 2, left + w, py[i] + dy + line / 2)))
        if dx and dy:  # the line map_chart draws from the point to its name, from the point's edge
            leaders.append((i, (px[i], py[i] + (5.5 if dy > 0 else -5.5), px[i] + dx, py[i] + dy)))
    return names, points, leaders


def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


WORDS = ("rei rainha homem mulher menino menina gato cachorro cavalo Paris Londres Roma França Inglaterra Itália um "
         "dois três segunda terça").split()


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("width", [LABEL_WIDTH_PX, 450, 620, 800, 1000, 1400, 1800])
def test_no_name_covers_another_name_or_point(seed, width):
    rng = np.random.default_rng(seed)
    xs, ys = rng.normal(size=len(WORDS)), rng.normal(size=len(WORDS))
    places = scatter_labels(xs, ys, WORDS, HEIGHT, FONT)
    names, points, leaders = boxes(xs, ys, WORDS, places, width)
    assert len(names) >= len(WORDS) // 2  # most names find a place
    for k, (i, a) in enumerate(names):
        assert all(not overlap(a, b) for _, b in names[k + 1:]), (WORDS[i], seed, width)
        assert all(not overlap(a, p) for j, p in enumerate(points) if j != i), (WORDS[i], seed, width)
        if width == LABEL_WIDTH_PX:
            assert a[0] >= 0 and a[2] <= width and a[1] >= 0 and a[3] <= HEIGHT, WORDS[i]
    for i, segment in leaders:  # a line to a name crosses no other name and no other point
        assert not any(_crosses(segment, b) for j, b in names if j != i), (WORDS[i], seed, width)
        assert not any(_crosses(segment, p) for j, p in enumerate(points) if j != i), (WORDS[i], seed, width)


def test_a_segment_crosses_a_box_only_through_its_inside():
    box = (10.0, 10.0, 20.0, 20.0)
    assert _crosses((0, 15, 30, 15), box) and _crosses((12, 12, 13, 13), box) and _crosses((0, 0, 30, 30), box)
    assert not _crosses((0, 0, 9, 30), box) and not _crosses((0, 25, 30, 25), box)
    assert not _crosses((0, 10, 30, 10), box)  # along an edge: outside


def test_a_crowd_on_one_spot_names_as_many_as_fit_and_leaves_out_the_rest():
    xs, ys = [0.0] * 12 + [1.0], [0.0] * 12 + [1.0]
    labels = [f"w{i}" for i in range(13)]
    places = scatter_labels(xs, ys, labels, HEIGHT, FONT)
    placed = [p for p in places[:12] if p is not None]
    assert 2 <= len(placed) < 12 and places[12] is not None
    assert len({(p[1], p[2]) for p in placed}) == len(placed)  # each in a place of its own


def test_the_word_map_keeps_every_word_and_leaves_out_only_the_names_that_do_not_fit():
    from ui.tokenizer.draw import map_labels

    df = pd.DataFrame({"word": [f"w{i}" for i in range(12)] + ["far"], "x": [0.0] * 12 + [1.0],
                       "y": [0.0] * 12 + [1.0], "tokens": 1})
    out = map_labels(df)
    assert list(out["word"]) == list(df["word"])
    hidden = out[out["label0"] == ""]  # the phone's layout
    assert 0 < len(hidden) < 12 and "far" not in set(hidden["word"])
    assert set(out.loc[out["label0"] != "", "label0"]) <= set(df["word"])


def test_the_word_map_names_more_words_on_a_wider_plot_and_the_chart_picks_the_layout_by_its_width():
    """One layout of the names for every width left many unnamed on a projector that had room for them: the chart
    now carries a layout per width tier (MAP_TIERS) and draws the one its width reaches (rendered here)."""
    import re

    import streamlit as st
    import vl_convert as vlc

    from ui import charts
    from ui.tokenizer.draw import MAP_TIERS, MAP_WIDTH, map_chart, map_labels

    st.session_state["projection"] = False
    words = [f"w{i}" for i in range(10)] + ["far"]
    df = pd.DataFrame({"word": words, "x": [i * 0.03 for i in range(10)] + [1.0],
                       "y": [0.5 + (i % 3) * 0.02 for i in range(10)] + [0.0], "tokens": 1})
    placed = map_labels(df)
    named = [set(placed.loc[placed[f"label{i}"] != "", "word"]) for i in range(len(MAP_TIERS))]
    assert len(named[0]) < len(named[1]) < len(named[2]), [len(n) for n in named]
    chart = charts.finish(map_chart(placed)).to_dict()
    for i, tier in enumerate(MAP_TIERS):
        spec = dict(chart, width=int(MAP_WIDTH[0] * tier))
        drawn = set(re.findall(r">(w\d|far)</text>", vlc.vegalite_to_svg(spec)))
        assert drawn == named[i], (tier, drawn, named[i])
