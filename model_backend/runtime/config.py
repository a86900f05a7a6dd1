"""Settings read from the environment: which model, where its cache lives, device, dtype and limits."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

ASSETS = Path(__file__).resolve().parents[2] / "assets"
MODELS_FILE = ASSETS / "models.json"


@dataclass(frozen=True)
class Settings:
    """Everything a deployment can change without touching code."""

    model: str  # a key of assets/models.json, a local directory, or a hub id
    dtype: str  # "auto", "float32" or "bfloat16"
    device: str  # "auto", "cpu", "cuda" or "mps"
    cache_dir: Path  # where prepared (safetensors) copies of models are kept
    max_prompt_tokens: int  # longer prompts are cut to this many tokens, with a message
    max_new_tokens: int  # hard cap on generated tokens per request


def _int_env(name: str, default: int, low: int, high: int) -> int:
    raw = os.environ.get(name, "")
    try:
        value = int(raw) if raw.strip() else default
    except ValueError:
        raise ValueError(f"{name} must be a whole number, but is {raw!r}") from None
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, but is {value}")
    return value


def default_cache_dir() -> Path:
    """`TBT_CACHE_DIR`, else `$XDG_CACHE_HOME/token-by-token`, else `~/.cache/token-by-token`."""
    if os.environ.get("TBT_CACHE_DIR"):
        return Path(os.environ["TBT_CACHE_DIR"]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "token-by-token"


def load_settings() -> Settings:
    """Read the `TBT_*` environment variables (documented in the README)."""
    dtype = os.environ.get("TBT_DTYPE", "auto").strip() or "auto"
    if dtype not in ("auto", "float32", "bfloat16"):
        raise ValueError(f"TBT_DTYPE must be auto, float32 or bfloat16, but is {dtype!r}")
    device = os.environ.get("TBT_DEVICE", "auto").strip() or "auto"
    if device not in ("auto", "cpu", "cuda", "mps"):
        raise ValueError(f"TBT_DEVICE must be auto, cpu, cuda or mps, but is {device!r}")
    return Settings(
        model=os.environ.get("TBT_MODEL", "").strip() or default_model_key(),
        dtype=dtype,
        device=device,
        cache_dir=default_cache_dir(),
        max_prompt_tokens=_int_env("TBT_MAX_PROMPT_TOKENS", 512, 8, 8192),
        max_new_tokens=_int_env("TBT_MAX_NEW_TOKENS", 256, 1, 4096),
    )


def model_catalog() -> list[dict]:
    """The list of known models (data, not code): assets/models.json."""
    return json.loads(MODELS_FILE.read_text(encoding="utf-8"))["models"]


def default_model_key() -> str:
    return model_catalog()[0]["key"]
