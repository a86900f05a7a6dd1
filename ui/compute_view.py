"""Compute for the answer just generated: FLOPs per token x tokens, beside the course text's frontier figures."""
from __future__ import annotations

import streamlit as st

import model_backend as mb
from model_backend.lessons.pipeline import answer_flops, output_flops
from ui.i18n import fmt_float, fmt_int, t

# Seed 003: a frontier model does "dezenas ou centenas de bilhões de FLOPs" per token, and an answer of a few
# hundred tokens reaches "dezenas ou centenas de trilhões": tens to hundreds of GFLOPs per token.
FRONTIER_PER_TOKEN = (10e9, 900e9)


def fmt_flops(x: float) -> str:
    """0.54e9 -> '0.54 GFLOPs', 3.1e12 -> '3.1 TFLOPs' (in the visitor's number style)."""
    for unit, scale in (("PFLOPs", 1e15), ("TFLOPs", 1e12), ("GFLOPs", 1e9), ("MFLOPs", 1e6)):
        if x >= scale:
            return fmt_float(x / scale, 2 if x < 10 * scale else (1 if x < 100 * scale else 0)) + " " + unit
    return fmt_int(round(x)) + " FLOPs"


def fmt_flops_range(lo: float, hi: float) -> str:
    """'0.12 – 10.8 TFLOPs': both ends in the unit of the larger one, so the range stays short."""
    unit, scale = next((u, v) for u, v in (("PFLOPs", 1e15), ("TFLOPs", 1e12), ("GFLOPs", 1e9), ("MFLOPs", 1e6),
                                           ("FLOPs", 1.0)) if hi >= v or v == 1.0)

    def short(x: float) -> str:
        v = x / scale
        return fmt_float(v, 2 if v < 10 else (1 if v < 100 else 0))
    return f"{short(lo)} – {short(hi)} {unit}"


def passed_tokens(n_prompt: int, n_new: int) -> int:
    """Token positions that went through the network for this answer: the prompt's (prefill) and every generated
    token but the last, which is never fed back. Both sides of the comparison count these same tokens."""
    return n_prompt + max(n_new - 1, 0)


def frontier_range(n_prompt: int, n_new: int) -> tuple[float, float]:
    """The course text's frontier FLOPs per token, times the same tokens this answer passed."""
    n = passed_tokens(n_prompt, n_new)
    return FRONTIER_PER_TOKEN[0] * n, FRONTIER_PER_TOKEN[1] * n


def answer_panel(info: mb.ModelInfo, n_prompt: int, steps: list[mb.Step]) -> None:
    """Three figures and a caption: this answer's FLOPs, its speed on this machine, a frontier model's range."""
    n_new = len(steps)
    f = answer_flops(info, n_prompt, n_new)
    seconds = sum(s.ms for s in steps) / 1000
    lo, hi = frontier_range(n_prompt, n_new)
    passed = fmt_int(passed_tokens(n_prompt, n_new))
    c = st.columns(3)
    c[0].metric(t("compute.total", n=passed), fmt_flops(f.total))
    c[1].metric(t("compute.rate"), fmt_flops(f.total / seconds) + "/s" if seconds > 0 else "—")
    c[2].metric(t("compute.frontier", n=passed), fmt_flops_range(lo, hi))
    st.caption(t("compute.caption", per=fmt_flops(f.per_token), params=fmt_int(info.n_params), p=fmt_int(n_prompt),
                 prefill=fmt_flops(f.prefill), out=fmt_flops(output_flops(info)), n=fmt_int(n_new), fed=fmt_int(max(n_new - 1, 0)), passed=passed,
                 decode=fmt_flops(f.decode), secs=fmt_float(seconds, 2), lo=fmt_flops(FRONTIER_PER_TOKEN[0]),
                 hi=fmt_flops(FRONTIER_PER_TOKEN[1])))
