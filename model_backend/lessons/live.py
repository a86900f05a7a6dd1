"""The live class's rounds: what a student's guess means as a token and what the model gave it; and for the vote
rounds, what the model measured on a text it wrote, and the round's hidden answer.

A guess counts as its first token (issue 31). Words in the middle of a text usually start with a space in this
tokenizer (" gato", not "gato"), so a guess typed without one after a prompt that does not end in whitespace is
read with the space the text would have: "gato" after "O" is the token " gato". A guess that starts with
punctuation (",", ".") or follows whitespace is read as typed.
"""
from __future__ import annotations

import hashlib
import hmac
import unicodedata
from dataclasses import dataclass

import numpy as np

from model_backend.core.tokens import token_info
from model_backend.types import TokenInfo


def _needs_space(prompt: str, guess: str) -> bool:
    if not prompt or prompt[-1].isspace() or not guess or guess[0].isspace():
        return False
    return not unicodedata.category(guess[0]).startswith("P")


def guess_tokens(tokenizer, prompt: str, guess: str) -> list[TokenInfo]:
    """Every token of `guess` as text after `prompt` (see the module's docstring); empty for an empty guess. The
    first is what the guess counts as: " 1879" after a word is "▁", "1", "8", "7", "9" in Gemma's vocabulary,
    which has no token for a number with its space, so a year counts as the lone space."""
    if not guess:
        return []
    text = (" " + guess) if _needs_space(prompt, guess) else guess
    return [token_info(tokenizer, int(i)) for i in tokenizer(text, add_special_tokens=False)["input_ids"]]


def guess_token(tokenizer, prompt: str, guess: str) -> TokenInfo | None:
    """The first token of `guess` as the next token after `prompt` (see the module's docstring), or None for
    a guess with no token (empty)."""
    tokens = guess_tokens(tokenizer, prompt, guess)
    return tokens[0] if tokens else None


def only_space(info: TokenInfo | None) -> bool:
    """Whether a token stands for whitespace alone (a space, a line break): what a guess like " 1879" counts as."""
    return info is not None and not info.special and bool(info.text) and not info.text.strip()


def next_token_probs(last_logits: np.ndarray, ids: list[int]) -> list[float]:
    """The model's probability of each token id as the next token: softmax of the last position's logits
    (float64, so that a tiny probability stays above 0)."""
    z = np.asarray(last_logits, dtype=np.float64)
    z = z - z.max()
    p = np.exp(z)
    p /= p.sum()
    return [float(p[i]) for i in ids]


# ---- vote rounds --------------------------------------------------------------------------------------------

VOTE_TEMPERATURES = (0.2, 0.8, 1.5)  # "which temperature wrote this text?": the options
VOTE_TOKENS = 20  # tokens the model writes for a vote


@dataclass(frozen=True)
class TextMeasure:
    """What the model measured on a text it wrote: how many of its tokens were the model's own first choice
    (rank 1 in the raw distribution), and the mean raw probability of the tokens it chose."""

    tokens: int
    first_choice: int
    mean_prob: float


def measure(steps) -> TextMeasure:
    """A TextMeasure from a generation's steps (each with its raw `rank` and `prob`)."""
    probs = [float(s.prob) for s in steps]
    return TextMeasure(len(probs), sum(int(s.rank) == 1 for s in steps), float(np.mean(probs)) if probs else 0.0)


def secret_pick(token: str, code: str, number: int, choices: int) -> tuple[int, int]:
    """The hidden answer of vote round `number` (an index below `choices`) and the seed its text is sampled
    with, from the teacher's token: the same after a reload or on another replica, and unknown to anyone who
    does not hold the token (HMAC-SHA256)."""
    digest = hmac.new(token.encode(), f"{code}:{int(number)}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:4], "big") % choices, int.from_bytes(digest[4:8], "big") % (2**31 - 1)


def _row(steps) -> dict:
    m = measure(steps)
    return {"tokens": m.tokens, "first_choice": m.first_choice, "mean_prob": m.mean_prob}


def temperature_vote(prompt: str, completions: list[tuple[float, object]], answer: int) -> dict:
    """The sealed answer of "which temperature wrote this text?": `completions` are (T, Generation) for every
    option, the same prompt and seed; the class sees the one at index `answer`. JSON for the room."""
    rows = [{"t": f"{temp:g}", "text": gen.completion, "shown": i == answer, **_row(gen.steps)}
            for i, (temp, gen) in enumerate(completions)]
    return {"vote": "temperature", "prompt": prompt, "answer": rows[answer]["t"], "rows": rows}


def fact_vote(pair: dict, real, invented, shown_real: bool) -> dict:
    """The sealed answer of "fact or invention?": both greedy completions of a pair (its real prompt and its
    invented twin); the class sees one. The text is a fact when it is the real prompt's and it states the known
    answer (`hallucination.mentions`); otherwise an invention (an invented subject, or a real one it got wrong).
    JSON for the room."""
    from model_backend.lessons.hallucination import mentions

    rows = []
    twin = pair.get("twin", "invented")  # "invented" (a made-up subject) or "premise" (a false one about a real one)
    for which, prompt, gen in (("real", pair["real"], real), (twin, pair["invented"], invented)):
        states = which == "real" and mentions(gen.completion, pair["answers"])
        rows.append({"which": which, "prompt": prompt, "text": gen.completion, "fact": bool(states),
                     "shown": (which == "real") == shown_real, **_row(gen.steps)})
    shown = rows[0] if shown_real else rows[1]
    return {"vote": "fact", "answer": "fact" if shown["fact"] else "invention", "answers": list(pair["answers"]),
            "rows": rows}


# ---- candidates to tap in a guessing round ------------------------------------------------------------------

CANDIDATES = 4  # tokens a phone can tap: the model's most likely one and others from its top CANDIDATE_POOL
CANDIDATE_POOL = 10


def candidate_answers(tokenizer, prompt: str, top_ids: list[int], seed: int, clean=str.strip) -> list[str]:
    """Answers a phone can tap instead of typing: the model's most likely next token and CANDIDATES - 1 others
    drawn from its top CANDIDATE_POOL (`top_ids`, most likely first), in a seeded shuffled order. Each is the
    token's text as `clean` leaves an answer, kept only when typing that text counts as the same token
    (`guess_token`), so a tap and a typed guess mean the same. Fewer than two: none (type instead)."""
    import random

    pool = []
    for i in top_ids[:CANDIDATE_POOL]:
        text = clean(tokenizer.decode([int(i)]))
        info = guess_token(tokenizer, prompt, text)
        if text and info is not None and info.id == int(i) and text not in pool:
            pool.append(text)
    if len(pool) < 2:
        return []
    rng = random.Random(seed)  # pool[0] is the most likely token that round-trips: always offered
    chosen = [pool[0], *rng.sample(pool[1:], min(CANDIDATES - 1, len(pool) - 1))]
    rng.shuffle(chosen)
    return chosen
