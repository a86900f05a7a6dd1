"""The home page's one model call: the prompt's forward pass (cached and shared with the other pages), and its
last position's ten most likely next tokens as a table. Nothing drawn."""
from __future__ import annotations

import pandas as pd

import model_backend as mb
from model_backend.core.tokens import visible
from ui import backend


def trace(prompt: str) -> mb.Trace:
    return backend.trace(prompt)


def top_table(tr: mb.Trace) -> pd.DataFrame:
    """The model's most likely next tokens after the prompt: rank, id, the token as shown, its probability."""
    top = tr.top[-1]
    return pd.DataFrame({"rank": range(1, len(top) + 1), "id": [c.id for c in top],
                         "token": [visible(c.text) for c in top], "prob": [c.prob for c in top]})
