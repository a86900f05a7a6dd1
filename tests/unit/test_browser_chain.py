"""The temperature page's bars are computed by the browser (Vega-Lite transforms over the top logits and
the tail's bins). This renders that very spec with vl-convert (Vega's own engine, no browser) at several
slider settings and checks it against the reference: transformers' processors in generate()'s order
(model_backend.core.sampling via lessons.temperature.chain_view) on the whole logit vector.

Tolerance: 1e-5 absolute on every displayed probability, and the same kept/cut verdict for every token.
The browser computes in float64 from float32 logits, the reference in float32 (relative error ~1e-7 per
value, a few 1e-7 after summing 262,144 terms); where top-p ends inside the tail, the browser keeps the
part of one bin that fills the nucleus up to p, which differs from the chain by less than one tail token's
probability (< 1e-5 here; the largest gap measured is printed)."""
from __future__ import annotations

import numpy as np
import pytest

from model_backend import SamplingParams
from model_backend.lessons import temperature as sv

TOL = 1e-5
SETTINGS = [  # (T, top-k, top-p, penalty): the defaults, greedy, each cut alone, the nucleus deep in the tail
    (0.7, 50, 0.9, 1.1), (0.0, 50, 0.9, 1.3), (1.0, 5, 1.0, 1.0), (0.5, 0, 0.3, 2.0),
    (1.3, 0, 0.9, 1.5), (2.0, 0, 0.95, 1.0), (1.0, 0, 1.0, 1.0), (1.55, 100, 0.62, 1.25),
]


def _texts(node, out: list) -> list:
    """Every text mark item's text in a Vega scenegraph (axis labels excluded)."""
    if isinstance(node, dict):
        if node.get("marktype") == "text" and node.get("role") == "mark":
            out += [i.get("text") for i in node.get("items", [])]
        for value in node.values():
            _texts(value, out)
    elif isinstance(node, list):
        for value in node:
            _texts(value, out)
    return out


def browser_view(logits, context_ids, params: SamplingParams, top_n: int = 15) -> dict[int, tuple]:
    """{display rank: (final probability, probability before the cut, why cut)} as Vega computes them."""
    import streamlit as st
    import vl_convert as vlc

    from ui.temperature import draw as view

    st.session_state["lang"] = "en"
    data = sv.browser_logits(logits, context_ids)
    names = [f"token {i}" for i in data.ids[:top_n]]  # unique labels, display order = raw rank
    spec = view.live_bars(data, names, params, precise=True).to_dict()
    out = {}
    for text in _texts(vlc.vegalite_to_scenegraph(spec), []):
        if text.count(" ") < 1 or not text[0].isdigit():
            continue
        fin, before, *why = text.split(" ")
        out[len(out)] = (float(fin), float(before), why[0] if why else "")
    return out


def reference(logits, context_ids, params: SamplingParams, top_n: int = 15) -> dict[int, tuple]:
    """The same three things from transformers' chain (what the server's bars showed)."""
    chain = sv.chain_view(logits, params, context_ids, top_n=top_n)
    by = {s.name: s for s in chain.stages}
    out = {}
    for i, token in enumerate(chain.ids):
        final = float(chain.final[token])
        if "greedy" in by:
            why = "" if final > 0 else "greedy"
        elif "top_k" in by and by["top_k"].probs[i] == 0:
            why = "top_k"
        elif "top_p" in by and by["top_p"].probs[i] == 0:
            why = "top_p"
        else:
            why = ""
        out[i] = (final, float(chain.before_cut[i]), why)
    return out


def compare(logits, context_ids, settings) -> float:
    """Assert the browser's bars equal the chain's at each setting; return the largest gap."""
    worst = 0.0
    for temperature, k, p, r in settings:
        params = SamplingParams(temperature=temperature, top_k=k, top_p=p, repetition_penalty=r)
        got, want = browser_view(logits, context_ids, params), reference(logits, context_ids, params)
        assert len(got) == len(want) == 15, (params, got)
        for i in want:
            assert got[i][2] == want[i][2], (params, i, got[i], want[i])  # same verdict: kept or cut by what
            gap = max(abs(got[i][0] - want[i][0]), abs(got[i][1] - want[i][1]))
            assert gap <= TOL, (params, i, got[i], want[i])
            worst = max(worst, gap)
    return worst


def _made_up() -> tuple[np.ndarray, list[int]]:
    rng = np.random.default_rng(1)
    logits = (rng.standard_normal(30_000) * 2.5).astype(np.float32)  # a made-up vocabulary, flat tail
    logits[:6] += np.array([9.0, 8.5, 8.0, 6.0, 5.0, -12.0], dtype=np.float32)
    return logits, [1, 3, 5, 17, 400, 2000, 2000]  # context: display tokens, a negative one, tail tokens


def test_browser_chain_equals_the_processors_on_made_up_logits():
    logits, ctx = _made_up()
    worst = compare(logits, ctx, SETTINGS)
    print(f"\nlargest gap browser vs chain: {worst:.2e}")


def test_browser_logits_bins_cover_the_tail_exactly():
    logits, ctx = _made_up()
    data = sv.browser_logits(logits, ctx)
    assert len(set(data.ids.tolist())) == len(data.ids) and set(ctx) <= set(data.ids.tolist())
    assert len(data.ids) + data.bin_size.sum() == len(logits)  # every token once, sent or in a bin
    assert np.all(np.diff(data.bin_top) <= 0) and data.bin_size[0] < 50  # descending, small at the top
    for t in (0.05, 1.0, 2.0):  # each temperature's bins hold the tail's softmax mass
        col = sv.T_STEPS.index(t)
        tail = np.setdiff1d(np.arange(len(logits)), data.ids)
        x = logits[tail].astype(np.float64) / t
        want = x.max() + np.log(np.exp(x - x.max()).sum())
        got = np.logaddexp.reduce(data.bin_logmass[:, col])
        assert got == pytest.approx(want, abs=1e-9)
    top = int(data.ids[0])
    assert top == int(np.argmax(logits))
    assert data.raw_probs[0] == pytest.approx(float(np.exp(logits[top] - np.logaddexp.reduce(logits.astype(np.float64)))))
