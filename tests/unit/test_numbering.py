"""One name for each layer and head on every page: the layer at model.layers[i] is "layer i + 1"
everywhere (pickers, titles, captions, tables, downloads, links). Tiny model, exact values."""
import re

import pytest

import model_backend as mb
from model_backend.lessons import attention as att
from ui import attention_charts as fig
from ui import heads_view as hview
from ui.attention import draw as aview
from ui.numbering import head_no, layer_index, layer_no, numbers
from ui.pipeline import draw as pview
from ui.share import parse, to_link

TEXT = "o gato sentou no tapete"


@pytest.fixture(scope="module")
def tr(tiny_bundle):
    return mb.trace(tiny_bundle, TEXT)


def _number(text: str) -> int:
    """The first whole number in a label ('Layer 2 · full attention' -> 2)."""
    return int(re.search(r"\d+", text).group())


def test_numbering_is_from_one_and_keeps_the_average():
    assert [layer_no(i) for i in range(3)] == [1, 2, 3] and [head_no(i) for i in range(3)] == [1, 2, 3]
    assert layer_no(-1) == -1 and layer_index(-1) == -1
    assert all(layer_index(layer_no(i)) == i for i in range(20))
    assert numbers([5, 11, 17]) == "6, 12, 18"  # Gemma 3 270M's full-attention layers


def layer_names(tr, index: int, head: int) -> dict[str, int]:
    """What each page calls model.layers[index] (and head `head`), read from the page's own code."""
    info = tr.info
    n = len(tr.tokens)
    cut = att.crop(att.pattern(tr.attentions, index, head), att.layer_allowed(info, index, n), att.window(n, 12))
    grid = fig.grid(tr, (index, head))  # the grid's layer numbers: the header labels drawn over each column
    top = grid.layer[1].layer[0].data  # headers: layer labels on top (one per column), head names on the left
    column = fig.grid_columns(info.n_layers, fig.AVG).index(index)
    pipeline_cells = pview.attention_frame(tr, index, head)
    pipeline_link = {p.name: p for p in pview.link_params(info)}
    attention_link = {p.name: p for p in aview.link_params(info, 512)}
    return {
        "attention picker": _number(aview.layer_options(info)[index]),
        "attention title": _number(fig.view_title(info, index, head)),
        "attention download": int(fig.cells_frame(cut, tr.tokens, index, head)["layer"].iloc[0]),
        "attention file name": _number(aview.file_part(index, head)),
        "attention grid": int(top["label"].iloc[column]),
        "attention link": to_link(index, attention_link["layer"]),
        "pipeline download": int(pipeline_cells["layer"].iloc[0]),
        # the pipeline's slider holds the number shown; its link carries that same number
        "pipeline link": parse(str(layer_no(index)), pipeline_link["layer"])[0],
        # hidden_states[index + 1] is the vector after model.layers[index]; the lens has one more row (the output)
        "pipeline logit lens": _number(pview.lens_name(index + 1, info.n_layers + 1)),
        **habit_names(tr, index, head, "layer"),
    }


def habit_names(tr, index: int, head: int, which: str) -> dict[str, int]:
    """What the heads' habits (attention page and why page) call model.layers[index], head `head`."""
    h = att.habits(tr.attentions, [tok.id for tok in tr.tokens])
    cells = hview.head_frame(h.bos)
    cell = cells.iloc[index * tr.info.n_heads + head]
    row = hview.habits_frame(h).iloc[index * tr.info.n_heads + head]
    name = [int(n) for n in re.findall(r"\d+", hview.head_name(index, head))]
    where = 0 if which == "layer" else 1
    return {f"habits grid {which}": int(cell["layer" if which == "layer" else "head_no"]),
            f"habits name {which}": name[where],
            f"habits download {which}": int(row[which])}


def head_names(tr, index: int, head: int) -> dict[str, int]:
    info = tr.info
    n = len(tr.tokens)
    cut = att.crop(att.pattern(tr.attentions, index, head), att.layer_allowed(info, index, n), att.window(n, 12))
    attention_link = {p.name: p for p in aview.link_params(info, 512)}
    title = fig.view_title(info, index, head)
    return {
        "attention picker": _number(aview.head_options(info)[head]),
        "attention title": int(re.findall(r"\d+", title)[1]),
        "attention download": int(fig.cells_frame(cut, tr.tokens, index, head)["head"].iloc[0]),
        "attention link": to_link(head, attention_link["head"]),
        "pipeline download": int(pview.attention_frame(tr, index, head)["head"].iloc[0]),
        **habit_names(tr, index, head, "head"),
    }


@pytest.mark.parametrize("index", [0, 1])
@pytest.mark.parametrize("head", [0, 3])
def test_every_page_names_the_same_layer_and_head_the_same_way(tr, index, head):
    layers, heads = layer_names(tr, index, head), head_names(tr, index, head)
    assert set(layers.values()) == {index + 1}, layers
    assert set(heads.values()) == {head + 1}, heads
