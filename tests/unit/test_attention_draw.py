"""The attention page's tables and chart data: what the downloads send, the grid's layer groups, the
settings a link may carry (tiny model, exact values)."""
import json
import math

import numpy as np
import pytest

import model_backend as mb
from model_backend.lessons import attention as att
from ui import attention_charts as fig
from ui.attention.draw import COLS, GRID, HEAD, LAYER, QUERY, file_part, link_params
from ui.share import parse

TEXT = "uma frase comprida o bastante para cortar"


@pytest.fixture(scope="module")
def tr(tiny_bundle):
    return mb.trace(tiny_bundle, TEXT)


def _cut(tr, layer, head, limit):
    n = len(tr.tokens)
    return att.crop(att.pattern(tr.attentions, layer, head), att.layer_allowed(tr.info, layer, n), att.window(n, limit))


def test_tokens_frame_holds_every_token_and_which_were_generated(tr):
    df = fig.tokens_frame(tr.tokens, generated_from=5)
    assert list(df.columns) == ["position", "id", "token", "text", "generated"]
    assert list(df["position"]) == list(range(len(tr.tokens)))
    assert list(df["id"]) == [tok.id for tok in tr.tokens]
    assert "".join(df["text"][~df["token"].eq("<bos>")]) == TEXT
    assert list(df["generated"]) == [i >= 5 for i in range(len(tr.tokens))]
    assert "generated" not in fig.tokens_frame(tr.tokens).columns


def test_cells_frame_is_the_drawn_crop_with_exact_weights_and_empty_masked_cells(tr):
    n = len(tr.tokens)
    cut = _cut(tr, 1, 2, 12)
    df = fig.cells_frame(cut, tr.tokens, 1, 2)
    assert len(df) == 10 * 12 and set(df["layer"]) == {2} and set(df["head"]) == {3}  # numbered from 1
    assert list(dict.fromkeys(df["query_pos"])) == list(range(n - 10, n))
    assert list(dict.fromkeys(df["key_pos"])) == [0, att.HIDDEN, *range(n - 10, n)]
    seen = df[~df["masked"]]
    np.testing.assert_allclose(seen["weight"], cut.weights[cut.allowed], rtol=0)  # row-major, like the crop
    assert df[df["masked"]]["weight"].isna().all()
    np.testing.assert_allclose(seen.groupby("query_pos")["weight"].sum(), 1.0, atol=1e-5)
    hidden = df[df["key_pos"] == att.HIDDEN]["key"]
    assert hidden.str.endswith(f"(1–{n - 11})").all()
    json.dumps(df.to_dict(orient="records"), default=float)  # what ui.export sends: serialisable


def test_similarity_frame_writes_undefined_cosines_as_empty():
    sim = att.Similarity(raw=(1.0, 0.5), centred=(1.0, float("nan")), baseline=(0.1, -0.2), embedding_raw=1.0,
                         embedding_centred=1.0, same_token=True)
    df = fig.similarity_frame(sim)
    assert list(df["layer"]) == [0, 1] and list(df["raw"]) == [1.0, 0.5]
    assert df["centred"][0] == 1.0 and (df["centred"][1] is None or math.isnan(df["centred"][1]))
    assert json.loads(df.to_json(orient="records"))[1]["centred"] is None


def test_heatmap_cells_that_round_to_zero_carry_no_number(tr):
    cut = _cut(tr, 0, 0, 64)
    labels = fig.token_labels(tr.tokens)
    df = fig.heatmap_frame(cut, tr.tokens, labels)
    cells = df[df["kind"] == "cell"]
    assert (cells["txt"] == "").tolist() == [round(w, 2) == 0 for w in cells["w"]]
    assert set(df[df["kind"] == "masked"]["txt"]) == {"–"}
    assert len(df[df["kind"] == "sum"]) == len(tr.tokens)


def test_a_capped_heatmap_has_upright_labels_and_no_numbers_in_cells(tr, tiny_bundle):
    small = mb.trace(tiny_bundle, "banco")  # 6 tokens: numbers in the cells
    short = fig.heatmap(_cut(small, 1, 0, 32), small.tokens, fig.token_labels(small.tokens)).to_dict()
    capped = fig.heatmap(_cut(tr, 1, 0, 12), tr.tokens, fig.token_labels(tr.tokens)).to_dict()
    assert short["layer"][0]["encoding"]["x"]["axis"]["labelAngle"] == -55
    assert capped["layer"][0]["encoding"]["x"]["axis"]["labelAngle"] == -90
    assert {"filter": "datum.kind == 'sum'"} in capped["layer"][1].get("transform", [])  # only the Σ column
    assert "transform" not in short["layer"][1]


def test_grid_groups_and_columns():
    assert fig.grid_groups(18) == [fig.AVG, 0, 6, 12]
    assert fig.grid_columns(18, fig.AVG) == [*range(18), fig.AVG]
    assert fig.grid_columns(18, 6) == [6, 7, 8, 9, 10, 11]
    assert fig.grid_columns(16, 12) == [12, 13, 14, 15]
    assert fig.grid_groups(2) == [fig.AVG, 0] and fig.grid_columns(2, 0) == [0, 1]


def test_grid_frame_of_one_group_draws_only_those_layers(tr):
    df, win = fig.grid_frame(tr, [1])
    assert set(df["layer"]) == {1} and set(df["head"]) == {*range(tr.info.n_heads), fig.AVG}
    assert df["x"].max() < len(win.keys)  # one column of blocks
    chart = fig.grid(tr, (0, 1), group=0).to_dict()  # the tiny model has 2 layers: group 0 = both
    assert len(chart["layer"]) == 3  # cells, headers, and the frame of the open head
    assert len(fig.grid(tr, (fig.AVG, 1), group=0).to_dict()["layer"]) == 2  # the average is not in the group


def test_link_params_accept_the_pages_values_and_refuse_the_rest(tiny_bundle):
    params = {p.name: p for p in link_params(tiny_bundle.info, 512)}
    assert {p.key for p in params.values()} >= {LAYER, HEAD, QUERY, COLS, GRID}
    assert list(params) == ["prompt", "layer", "head", "token", "cols", "grid", "a", "b", "word", "base"]
    # Links number layers and heads from 1, as the page shows them; the widgets hold 0-based indices.
    assert parse("-1", params["layer"]) == (-1, True) and parse("2", params["layer"]) == (1, True)
    assert parse("1", params["layer"]) == (0, True)
    assert parse("0", params["layer"])[1] is False and parse("3", params["layer"])[1] is False  # 2 layers: 1, 2
    assert parse("4", params["head"]) == (3, True) and parse("5", params["head"])[1] is False
    assert parse("12", params["cols"]) == (12, True) and parse("20", params["cols"])[1] is False
    assert parse("1", params["grid"]) == (0, True) and parse("0", params["grid"])[1] is False
    assert parse("-1", params["grid"]) == (-1, True)
    assert parse("-2", params["token"])[1] is False and parse("0", params["token"]) == (0, True)
    assert parse("511", params["token"]) == (511, True) and parse("512", params["token"])[1] is False  # the limit
    assert parse("banco", params["word"]) == ("banco", True)


def test_old_links_counted_layers_from_0_and_still_open_the_same_layer(tiny_bundle):
    old = {p.name: p for p in link_params(tiny_bundle.info, 512, old_link=True)}
    assert parse("1", old["layer"]) == (1, True) and parse("0", old["layer"]) == (0, True)
    assert parse("2", old["layer"])[1] is False
    assert parse("0", old["grid"]) == (0, True) and parse("3", old["head"]) == (3, True)


def test_file_part_names_averages():
    # indices 2, 3 are shown (and named in files) as layer 3, head 4
    assert file_part(2, 3) == "L3-H4" and file_part(fig.AVG, 3) == "Lavg-H4" and file_part(5, fig.AVG) == "L6-Havg"


@pytest.mark.parametrize("limit", [8, 64])
def test_the_heatmap_text_names_where_the_last_query_looks_most(tr, limit):
    """Not the first row's 1 (the first token can only look at itself): the last drawn query's strongest visible key
    (or the folded middle, summed), with its weight as drawn, and the grid's size; a sliding layer's far keys said."""
    import streamlit as st

    from ui.attention_charts import token_labels

    st.session_state["lang"] = "en"
    try:
        for layer in range(tr.info.n_layers):
            cut = _cut(tr, layer, 0, limit)
            labels = token_labels(tr.tokens, len(tr.tokens))
            text = fig.heatmap_summary(cut, labels)
            row = np.where(cut.allowed[-1], cut.weights[-1], -np.inf)
            best = cut.window.keys[int(np.argmax(row))]
            assert f"{len(cut.window.queries)} queries × {len(cut.window.keys)} key columns" in text
            query = labels[cut.window.queries[-1]]
            looked = f"“{query}” looks most at “{labels[best]}”" if best != att.HIDDEN else \
                f"“{query}” puts most weight on the {cut.window.n_hidden} middle tokens"
            assert looked in text and f"({float(np.max(row)):.2f})" in text, text
            keys, queries = np.array(cut.window.keys)[None, :], np.array(cut.window.queries)[:, None]
            far = ((keys != att.HIDDEN) & (keys <= queries) & ~cut.allowed).any()
            assert ("sliding-window" in text) == bool(far), text
    finally:
        st.session_state.pop("lang", None)


@pytest.mark.parametrize("width", [300, 760])
def test_the_grids_layer_numbers_do_not_run_into_each_other_on_a_phone(tr, width):
    """Every head at once, all 18 layers and their average: 19 columns of ~16 px on a 390 px phone, where "10" to
    "18" and "média" ran together. Each number is drawn no wider than its column, and "média" a line higher."""
    import dataclasses
    import re

    import altair as alt
    import pandas as pd
    import streamlit as st
    import vl_convert as vlc

    st.session_state["lang"], st.session_state["projection"] = "pt-BR", False
    info = dataclasses.replace(tr.info, n_layers=18, n_heads=4, layer_types=tuple(
        "full_attention" if (i + 1) % 6 == 0 else "sliding_attention" for i in range(18)))
    columns = fig.grid_columns(18, fig.AVG)
    nr = nc = 6
    span = pd.DataFrame({"x": [-0.5, len(columns) * (nc + 1)]})
    frame = alt.Chart(span).mark_point(opacity=0).encode(x=alt.X("x:Q", scale=alt.Scale(nice=False, zero=False)))
    spec = alt.layer(frame, fig._grid_headers(info, columns, nr, nc)).properties(
        width=width, height=60).configure_axis(disable=True).to_dict()
    svg = vlc.vegalite_to_svg(spec)
    texts = re.findall(r'<text([^>]*?)transform="translate\(([-\d.]+),([-\d.]+)\)"[^>]*?font-size="([\d.]+)px"'
                       r'[^>]*>([^<]+)<', svg)
    top = [(float(x), float(y), float(size), label) for attrs, x, y, size, label in texts
           if 'text-anchor="end"' not in attrs]  # the heads' names on the left are right-aligned
    assert {label for *_, label in top} >= {str(n) for n in range(1, 19)} | {"média"}
    for i, a in enumerate(top):
        for b in top[i + 1:]:
            if abs(a[1] - b[1]) < min(a[2], b[2]):  # on one line: apart by half their widths and 2 px at least
                half = (len(a[3]) * a[2] + len(b[3]) * b[2]) * 0.6 / 2
                assert abs(a[0] - b[0]) >= half + 2, (a, b)
