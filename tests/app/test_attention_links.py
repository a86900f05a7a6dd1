"""The attention page from a link: prompt, layer, head, picked token, grid group and the "banco" sentences
come back; hostile values fall back to the defaults with a notice; the downloads hold what the page draws."""
import json

import pandas as pd
import pytest
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest

from tests.app.download_capture import both
from tests.app.helpers import texts
from tests.app.link_helpers import open_link, query_value

PROMPT = "O gato sentou no"
# Layers, heads and the grid's first layer are numbered from 1, as on screen (base=1); the widgets hold indices.
LINK = {"prompt": PROMPT, "layer": "6", "head": "2", "token": "2", "cols": "12", "grid": "7", "base": "1", "lang": "en",
        "a": "Precisava de dinheiro, então fui ao banco", "b": "Cansado de andar pela praça, sentei no banco",
        "word": "banco"}
SETTINGS = ("layer", "head", "token", "cols", "grid")


def picked(at: AppTest) -> dict[str, object]:
    """The segmented controls' values by key (the heatmap's size exists only for long texts)."""
    return {g.key: g.value for g in at.get("button_group")}


def rejected(at: AppTest) -> set[str]:
    """The parameter names the page's notices say it replaced by defaults."""
    names = set()
    for info in at.info:
        if "replaced by defaults:" in info.value:
            names |= set(info.value.split("defaults:")[1].strip(" .").split(", "))
    return names


def chart_data(at: AppTest, index: int) -> pd.DataFrame:
    """The table a drawn chart was given (what its marks and tooltips show)."""
    proto = at.get("vega_lite_chart")[index].proto
    return convert_arrow_bytes_to_pandas_df(proto.datasets[0].data.data)


def test_a_link_restores_the_view_and_the_downloads_hold_what_is_drawn(captured):
    at = open_link("attention", LINK)
    assert not at.exception
    assert at.text_area(key="prompt_attention").value == PROMPT
    assert at.selectbox(key="attention_layer").value == 5
    assert at.radio(key="attention_head").value == 1
    assert at.selectbox(key="attention_query").value == 2
    assert picked(at) == {"attention_grid_group": 6}  # a short text has no size picker; the grid: layers 7-12
    for field in ("a", "b", "word"):
        assert at.text_input(key=f"attention_banco_{field}").value == LINK[field]
    shown = texts(at)
    assert "Attention: what does each token look at?" in shown and "Layer 6, head 2" in shown
    assert "Columns = layers 7 to 12" in shown
    assert "At the input (0, before layer 1) it is 1.000" in shown  # the banco curve of the link's sentences
    assert not rejected(at)
    for name in (*SETTINGS, "prompt", "a", "b", "word", "base"):  # the page publishes the same view back
        assert query_value(at, name) == LINK[name], name
    link = next(c.value for c in at.text if "/attention?" in c.value)  # the copyable link
    assert "prompt=O+gato+sentou+no" in link and "layer=6&head=2&token=2&cols=12&grid=7" in link and "lang=en" in link

    # Tokens: the same as the token picker offers.
    tokens = both(captured, "attention-tokens")
    options = at.selectbox(key="attention_query").options
    assert [f"{p}: {tok}" for p, tok in zip(tokens["position"], tokens["token"])] == options
    assert tokens["text"].str.cat() == "<bos>" + PROMPT
    # The matrix of layer 6, head 2: every cell the heatmap draws, with the weight its tooltip shows.
    cells = both(captured, "attention-L6-H2")
    n = len(tokens)
    assert len(cells) == n * n and set(cells["layer"]) == {6} and set(cells["head"]) == {2}
    drawn = chart_data(at, 0)
    drawn = drawn[drawn["kind"] != "sum"]
    assert len(drawn) == len(cells)
    for (_, cell), (_, mark) in zip(cells.iterrows(), drawn.iterrows()):
        assert mark["query"] == cell["query"] and mark["key"] == cell["key"]
        if cell["masked"]:
            assert pd.isna(cell["weight"]) and mark["kind"] == "masked"
        else:
            assert mark["shown"] == f"{cell['weight']:.4f}"  # the page is in English
    assert cells["masked"].tolist() == [k > q for q, k in zip(cells["query_pos"], cells["key_pos"])]  # causal
    sums = cells.groupby("query_pos")["weight"].sum()
    assert ((sums - 1).abs() < 2e-2).all()  # every row sums to 1 (bfloat16 weights)
    # The banco curve: the numbers the caption quotes.
    curve = both(captured, "attention-banco-similarity")
    assert list(curve["layer"]) == list(range(19))
    caption = next(c.value for c in at.caption if "Cosine similarity" in c.value)
    assert f"it is {curve['centred'][0]:.3f}" in caption
    assert f"ends at {curve['centred'].iloc[-1]:.3f}" in caption


def test_an_old_link_counted_from_0_opens_the_same_layer_and_is_rewritten_from_1():
    old = {k: v for k, v in LINK.items() if k != "base"} | {"layer": "5", "head": "1", "grid": "6"}
    at = open_link("attention", old)
    assert not at.exception and not rejected(at)
    assert at.selectbox(key="attention_layer").value == 5 and at.radio(key="attention_head").value == 1
    assert picked(at) == {"attention_grid_group": 6}
    assert "Layer 6, head 2" in texts(at)
    for name in ("layer", "head", "grid", "base"):  # the link it publishes counts from 1
        assert query_value(at, name) == LINK[name], name


def test_averages_and_the_last_token_travel_as_minus_one():
    at = open_link("attention", {"prompt": PROMPT, "layer": "-1", "head": "-1", "token": "-1", "lang": "en"})
    assert not at.exception
    assert "Average of all 72 heads in every layer" in texts(at)
    query = at.selectbox(key="attention_query")
    assert query.value == query.options.index(query.options[-1])  # the last token
    assert query_value(at, "layer") == "-1" and query_value(at, "head") == "-1"


@pytest.mark.parametrize("value", ["<img src=x onerror=alert(1)>", "nan", "abc", "x" * 10_000, "99999999999999999999",
                                   "3.5", "-7"])
def test_hostile_link_values_fall_back_with_a_notice(value):
    query = {k: value for k in ("prompt", *SETTINGS, "a", "b", "word")}
    at = open_link("attention", {**query, "lang": "en"})
    assert not at.exception
    as_text = len(value) <= 40  # short enough for every text box: kept, as plain text
    assert rejected(at) == set(SETTINGS) | (set() if as_text else {"prompt", "a", "b", "word"})
    assert at.selectbox(key="attention_layer").value == 2 and at.radio(key="attention_head").value == 3
    assert picked(at)["attention_grid_group"] == -1  # every layer
    assert picked(at).get("attention_cols", 32) == 32  # the last 30 tokens
    query_box = at.selectbox(key="attention_query")
    assert query_box.value == len(query_box.options) - 1
    assert at.text_area(key="prompt_attention").value == (value if as_text else "The capital of France is")
    assert at.text_input(key="attention_banco_a").value == (value if as_text else "Fui ao banco sacar dinheiro")
    for md in at.markdown:
        assert "<img" not in md.value


def test_too_long_banco_sentence_and_a_token_the_text_lacks_fall_back():
    at = open_link("attention", {"prompt": PROMPT, "token": "40", "a": "banco " * 100, "lang": "en"})
    assert not at.exception
    assert rejected(at) == {"a", "token"}
    assert at.text_input(key="attention_banco_a").value == "Fui ao banco sacar dinheiro"
    query = at.selectbox(key="attention_query")
    assert query.value == len(query.options) - 1


def test_pt_br_link_and_projection_mode():
    at = open_link("attention", {"prompt": PROMPT, "layer": "0", "head": "2", "lang": "pt-BR", "projection": "1"})
    assert not at.exception
    assert "Camada 1, cabeça 3" in texts(at)  # an old link (no base=1): indices 0 and 2
    assert query_value(at, "projection") == "1"
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    assert spec["config"]["axis"]["labelFontSize"] == 22  # projection mode: larger labels


def test_a_long_text_link_draws_the_last_ten_tokens_and_sends_those_cells(captured):
    prompt = "O gato sentou no tapete e dormiu. " * 6  # about 60 tokens
    at = open_link("attention", {"prompt": prompt, "cols": "12", "layer": "3", "head": "0", "lang": "en"})
    assert not at.exception
    assert picked(at) == {"attention_cols": 12, "attention_grid_group": -1}
    n = len(at.selectbox(key="attention_query").options)
    assert f"the figure shows the last 10 rows, the first token and one column summing the {n - 11} middle" in texts(at)
    cells = both(captured, "attention-L4-H1")  # an old link's layer 3, head 0 = layer 4, head 1
    assert len(cells) == 10 * 12 and sorted(set(cells["query_pos"])) == list(range(n - 10, n))
    assert sorted(set(cells["key_pos"])) == [-1, 0, *range(n - 10, n)]
    hidden = cells[cells["key_pos"] == -1]
    assert hidden["key"].str.endswith(f"(1–{n - 11})").all()  # names the positions it sums
    assert ((cells.groupby("query_pos")["weight"].sum() - 1).abs() < 2e-2).all()  # still sums to 1
    drawn = chart_data(at, 0)
    assert len(drawn[drawn["kind"] != "sum"]) == len(cells)
