"""Check arguments at the edge, with messages a person can act on."""
from __future__ import annotations

import math

from .types import SamplingParams

MAX_PROMPT_CHARS = 100_000  # far above any useful prompt; longer text is refused before tokenizing


class InvalidInput(ValueError):
    """Bad input. `key` names the message in the app's translation table; `values` fill it."""

    def __init__(self, key: str, message: str, **values):
        super().__init__(message.format(**values))
        self.key = key
        self.values = values


def check_prompt(text) -> str:
    """Return the prompt if it can be sent to the model; raise InvalidInput otherwise."""
    if not isinstance(text, str):
        raise InvalidInput("prompt_type", "`prompt` has to be text, but is {kind}", kind=type(text).__name__)
    if not text.strip():
        raise InvalidInput("prompt_empty", "`prompt` is empty: type some text for the model to continue")
    if len(text) > MAX_PROMPT_CHARS:
        raise InvalidInput("prompt_too_long", "`prompt` has {n:,} characters; the limit is {limit:,}",
                           n=len(text), limit=MAX_PROMPT_CHARS)
    return text


def _number(name: str, value, kind=float):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInput("not_a_number", "`{name}` has to be a number, but is {value!r}", name=name, value=value)
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidInput("not_finite", "`{name}` has to be a finite number, but is {value}", name=name, value=value)
    if kind is int and int(value) != value:
        raise InvalidInput("not_integer", "`{name}` has to be a whole number, but is {value}", name=name, value=value)
    return kind(value)


def check_params(p: SamplingParams, max_new_cap: int = 256) -> SamplingParams:
    """Validate sampling settings; messages follow transformers' own wording."""
    t = _number("temperature", p.temperature)
    if t < 0:
        raise InvalidInput("temperature", "`temperature` has to be 0 (greedy) or a positive float, but is {value}", value=t)
    k = _number("top_k", p.top_k, int)
    if k < 0:
        raise InvalidInput("top_k", "`top_k` has to be a strictly positive integer (or 0 for off), but is {value}", value=k)
    top_p = _number("top_p", p.top_p)
    if not 0 < top_p <= 1:
        raise InvalidInput("top_p", "`top_p` has to be a float > 0 and <= 1, but is {value}", value=top_p)
    r = _number("repetition_penalty", p.repetition_penalty)
    if r <= 0:
        raise InvalidInput("repetition_penalty", "`repetition_penalty` has to be a strictly positive float, but is {value}", value=r)
    n = _number("max_new_tokens", p.max_new_tokens, int)
    if not 1 <= n <= max_new_cap:
        raise InvalidInput("max_new_tokens", "`max_new_tokens` has to be between 1 and {cap}, but is {value}", cap=max_new_cap, value=n)
    if p.seed is not None:
        s = _number("seed", p.seed, int)
        if not 0 <= s < 2**63:
            raise InvalidInput("seed", "`seed` has to be between 0 and 2**63 - 1, but is {value}", value=s)
    for s in p.stop:
        if not isinstance(s, str) or s == "":
            raise InvalidInput("stop", "each stop sequence has to be non-empty text, but one is {value!r}", value=s)
    if len(p.stop) > 8:
        raise InvalidInput("stop_count", "at most 8 stop sequences, but {n} were given", n=len(p.stop))
    return p
