"""How every page names a layer or a head on screen: counted from 1, everywhere.

The model's own index is 0-based (`model.model.layers[i]`); a class counts "layer 1 of 18". One rule for
the whole app: the layer at index i is shown as layer i + 1 (charts, pickers, captions, downloads,
links). The residual stream and the logit lens then line up by themselves: `hidden_states[h]` is the
vector after layer h, and `hidden_states[0]` is the embedding.
"""
from __future__ import annotations

FIRST = 1  # the number shown for index 0
AVERAGE = -1  # the index (and the link value) that stands for "the average of all"


def layer_no(index: int) -> int:
    """The number shown for the layer at `index` (0-based, as in model.layers[index])."""
    return index + FIRST if index >= 0 else index


def head_no(index: int) -> int:
    """The number shown for the head at `index` (0-based, as in the attention tensor's head axis)."""
    return index + FIRST if index >= 0 else index


def layer_index(number: int) -> int:
    """The inverse of layer_no (and head_no): a number on screen or in a link -> the 0-based index."""
    return number - FIRST if number >= FIRST else number


def numbers(indices) -> str:
    """'6, 12, 18' for the layers at indices 5, 11, 17."""
    return ", ".join(str(layer_no(i)) for i in indices)
