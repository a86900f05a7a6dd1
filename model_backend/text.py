"""Turn token ids into things a person can read: decoded text, visible whitespace, bytes."""
from __future__ import annotations

import re
from functools import lru_cache

from .types import TokenInfo

_HEX_BYTE = re.compile(r"^<0x([0-9A-Fa-f]{2})>$")
# Characters that are invisible or reorder text: shown by name so nothing hides or spoofs.
_INVISIBLE = {0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2060, 0xFEFF, 0x00AD,
              0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069}


@lru_cache(maxsize=1)
def _byte_decoder() -> dict[str, int]:
    """GPT-2's byte-to-unicode table, inverted (byte-level BPE pieces -> raw bytes)."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(
        range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs)}


def visible(text: str) -> str:
    """Make whitespace, control and invisible characters visible: ' '->'·', '\\n'->'↵'."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch == " ":
            out.append("·")
        elif ch == "\n":
            out.append("↵")
        elif ch == "\t":
            out.append("⇥")
        elif code < 0x20:
            out.append(chr(0x2400 + code))  # ␀ ␁ ... control pictures
        elif code == 0x7F:
            out.append("␡")
        elif code in _INVISIBLE or 0xD800 <= code <= 0xDFFF:
            out.append(f"[U+{code:04X}]")
        else:
            out.append(ch)
    return "".join(out)


def safe_text(text: str) -> str:
    """Replace unpaired surrogates so the text can always be encoded and shown."""
    return text.encode("utf-8", "replace").decode("utf-8")


def _is_byte_level(tokenizer) -> bool:
    cached = getattr(tokenizer, "_tbt_byte_level", None)
    if cached is None:
        unk = tokenizer.unk_token_id
        gid = tokenizer.convert_tokens_to_ids("Ġ")
        sid = tokenizer.convert_tokens_to_ids("▁")
        # Gemma's SentencePiece vocabulary also holds a literal "Ġ"; a byte-level BPE never holds "▁"
        cached = gid is not None and gid != unk and (sid is None or sid == unk)
        try:
            tokenizer._tbt_byte_level = cached
        except AttributeError:
            pass
    return cached


def token_bytes(tokenizer, piece: str, text: str) -> tuple[int, ...]:
    """The raw bytes a vocabulary piece stands for (byte-fallback and byte-level BPE aware)."""
    m = _HEX_BYTE.match(piece)
    if m:
        return (int(m.group(1), 16),)
    if _is_byte_level(tokenizer):
        table = _byte_decoder()
        if piece and all(c in table for c in piece):
            return tuple(table[c] for c in piece)
    return tuple(safe_text(piece.replace("▁", " ") if "▁" in piece else text).encode("utf-8"))


def token_info(tokenizer, token_id: int, special_ids: frozenset[int] | None = None) -> TokenInfo:
    """Describe one token id."""
    special_ids = special_ids if special_ids is not None else frozenset(tokenizer.all_special_ids)
    piece = tokenizer.convert_ids_to_tokens(int(token_id)) or ""
    text = safe_text(tokenizer.decode([int(token_id)], skip_special_tokens=False))
    is_special = int(token_id) in special_ids
    data = token_bytes(tokenizer, piece, text)
    if _HEX_BYTE.match(piece):
        shown = piece  # a lone byte of a longer character: show the byte itself
    elif is_special:
        shown = piece
    else:
        shown = visible(text) if text else "∅"
    return TokenInfo(id=int(token_id), text=text, piece=piece, display=shown, bytes=data,
                     special=is_special)


def token_infos(tokenizer, ids) -> tuple[TokenInfo, ...]:
    special = frozenset(tokenizer.all_special_ids)
    return tuple(token_info(tokenizer, i, special) for i in ids)
