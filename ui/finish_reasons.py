"""Why a generation stopped, in this app's words and in the names two providers' APIs use.

The course text calls it "stop_reason/finish_reason". OpenAI's Chat Completions API reports
`finish_reason`: "stop" for both the end-of-sequence token and a stop sequence, "length" for the token
limit. Anthropic's Messages API reports `stop_reason`: "end_turn", "stop_sequence", "max_tokens".
"""
from __future__ import annotations

import pandas as pd

from ui.i18n import t

# this app's reason -> (OpenAI finish_reason, Anthropic stop_reason), from the providers' API references
API_NAMES = {
    "stop": ("stop", "end_turn"),
    "length": ("length", "max_tokens"),
    "stop_sequence": ("stop", "stop_sequence"),
}


def mapping_frame(current: str | None = None) -> pd.DataFrame:
    """One row per reason: what happened, and the value each API returns (▶ marks this generation's)."""
    return pd.DataFrame({
        t("finish.col.what"): [("▶ " if reason == current else "") + t(f"finish.what.{reason}") for reason in API_NAMES],
        t("finish.col.openai"): [f'"{openai}"' for openai, _ in API_NAMES.values()],
        t("finish.col.anthropic"): [f'"{anthropic}"' for _, anthropic in API_NAMES.values()],
    })
