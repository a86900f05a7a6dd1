"""Room codes: 8 symbols from an alphabet without look-alikes, shown as "KDXP-7M3R", typed any way."""
from __future__ import annotations

import secrets

from classroom.errors import RoomNotFound

# No 0/O, 1/I/L, 2/Z, 5/S, 8/B: a code read off a projector is typed right. 20 letters + 5 digits.
ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
LENGTH = 8  # 25**8 = 152,587,890,625 codes (the guessing arithmetic is in classroom/room.py)
_SEPARATORS = "-_.\u2010\u2011\u2012\u2013\u2014"  # dashes a phone keyboard may put in, and dots
FORMAT_HINT = "a class code has 8 letters and digits, like KDXP-7M3R"


def new_code() -> str:
    """A fresh code in its canonical form (8 symbols, no dash), drawn with `secrets`."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def format_code(code: str) -> str:
    """The form people read: two groups of 4, "KDXP-7M3R"."""
    return f"{code[:4]}-{code[4:]}"


def normalize_code(typed: str) -> str:
    """What a student typed, as the canonical code: any case, spaces and dashes dropped.

    Raises RoomNotFound when it cannot be a code at all (wrong length, a symbol not in the alphabet)."""
    if not isinstance(typed, str):
        raise RoomNotFound(f"No class with that code: {FORMAT_HINT}.")
    code = "".join(c for c in typed.upper() if not c.isspace() and c not in _SEPARATORS)
    if len(code) != LENGTH or any(c not in ALPHABET for c in code):
        raise RoomNotFound(f"No class with that code: {FORMAT_HINT}.")
    return code
