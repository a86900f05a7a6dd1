"""The live class's guessing round: what a student's guess means as a token, and what the model gave it.

A guess counts as its first token (issue 31). Words in the middle of a text usually start with a space in this
tokenizer (" gato", not "gato"), so a guess typed without one after a prompt that does not end in whitespace is
read with the space the text would have: "gato" after "O" is the token " gato". A guess that starts with
punctuation (",", ".") or follows whitespace is read as typed.
"""
from __future__ import annotations

import unicodedata

import numpy as np

from model_backend.core.tokens import token_info
from model_backend.types import TokenInfo


def _needs_space(prompt: str, guess: str) -> bool:
    if not prompt or prompt[-1].isspace() or not guess or guess[0].isspace():
        return False
    return not unicodedata.category(guess[0]).startswith("P")


def guess_token(tokenizer, prompt: str, guess: str) -> TokenInfo | None:
    """The first token of `guess` as the next token after `prompt` (see the module's docstring), or None for
    a guess with no token (empty)."""
    if not guess:
        return None
    text = (" " + guess) if _needs_space(prompt, guess) else guess
    ids = tokenizer(text, add_special_tokens=False)["input_ids"]
    return token_info(tokenizer, int(ids[0])) if ids else None


def next_token_probs(last_logits: np.ndarray, ids: list[int]) -> list[float]:
    """The model's probability of each token id as the next token: softmax of the last position's logits
    (float64, so that a tiny probability stays above 0)."""
    z = np.asarray(last_logits, dtype=np.float64)
    z = z - z.max()
    p = np.exp(z)
    p /= p.sum()
    return [float(p[i]) for i in ids]
