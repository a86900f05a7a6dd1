"""Text from students made safe to store: trimmed, capped, control characters out. It stays plain data."""
from __future__ import annotations

import unicodedata

NICKNAME_MAX = 24  # characters (code points)
ANSWER_MAX = 40
_ZWJ = "\u200d"  # kept: it joins emoji such as 👩‍🏫


def _visible(text: str) -> str:
    """NFC, whitespace of any kind as one space, every other control, format or unassigned character dropped
    (newlines, bidi overrides such as U+202E, zero-width spaces, private use)."""
    out = []
    for c in unicodedata.normalize("NFC", text):
        if c.isspace():
            out.append(" ")
        elif unicodedata.category(c)[0] != "C" or c == _ZWJ:
            out.append(c)
    return "".join(out)


def clean_nickname(name: str | None) -> str | None:
    """A nickname to store: visible characters, inner runs of spaces as one, trimmed, at most NICKNAME_MAX;
    None when nothing is left (the student stays anonymous)."""
    if name is None:
        return None
    cleaned = " ".join(_visible(str(name)).split())[:NICKNAME_MAX].strip()
    return cleaned or None


def clean_answer(text: str) -> str:
    """A guess or a vote as it is counted: visible characters, outer whitespace stripped, at most ANSWER_MAX.

    Case is kept and inner spaces too: tokens are case-sensitive ("The" and "the" are two tokens), so the
    class's "The" is not the model's "the". The leading space that most tokens carry (" the") cannot be typed
    reliably on a phone, so it is stripped here, and the model's token must be compared stripped too
    (`classroom.room.score`). Returns "" when nothing is left."""
    return _visible(str(text)).strip()[:ANSWER_MAX].strip()
