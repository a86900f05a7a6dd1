"""Numbers the pages quote instead of typing: the seed's P(top) points that do not match, what the shipped
grokking curve reads before its jump, how much of a cropped attention row is drawn, and the finish-reason
names of two APIs."""
import math

import numpy as np
import pandas as pd
import pytest

from model_backend.lessons import temperature as sv
from model_backend.lessons.grokking import shipped
from ui.grokking.compute import readings_before_jump as readings
from ui.loop.draw import API_NAMES, mapping_frame
from ui.pipeline.draw import drawn_row_sums


def _p_top(logits, temp):
    e = [math.exp(x / temp) for x in logits]
    return max(e) / sum(e)


def test_the_seed_curve_mismatches_are_the_four_hand_rounded_points():
    diffs = sv.seed_curve_mismatches()
    assert [d[0] for d in diffs] == [0.1, 0.3, 0.7, 1.5]  # T = 1.5: exact 55.7%, the seed says 55
    for temp, exact, printed in diffs:
        assert exact == pytest.approx(_p_top(sv.SEED_LOGITS, temp), abs=1e-6)  # float32 softmax vs math.exp
        assert round(100 * exact) != printed
    assert dict((d[0], d[2]) for d in diffs)[1.5] == 55
    assert dict((d[0], d[1]) for d in diffs)[1.5] == pytest.approx(0.5570, abs=5e-5)


def test_readings_sit_between_memorising_and_the_jump():
    steps = [1, 10, 100, 200, 500, 1000, 2000, 5000, 6000, 8000]
    acc = [0.0, 0.01, 0.02, 0.05, 0.07, 0.1, 0.12, 0.5, 0.96, 1.0]
    out = readings(steps, acc, memo=200, jump=6000, n=4)
    assert out[0] == (200, 0.05)
    assert all(200 <= s < 6000 for s, _ in out) and [s for s, _ in out] == sorted({s for s, _ in out})
    assert readings(steps, acc, memo=None, jump=None) == []
    assert readings(steps, acc, memo=6000, jump=6000) == []


def test_the_shipped_run_reads_what_the_issue_quotes():
    run = shipped.load()
    c = run.curves
    memo = next(s for s, v in zip(c["step"], c["train_acc"]) if v >= 0.99)
    jump = next(s for s, v in zip(c["step"], c["test_acc"]) if v >= 0.95)
    out = readings(c["step"], c["test_acc"], memo, jump)
    assert out and all(a > 1 / run.config.p for _, a in out)  # above chance (0.9%) the whole way
    assert all(a < 0.95 for _, a in out)  # and still short of generalising


def test_drawn_row_sums_counts_masked_cells_as_nothing():
    cells = pd.DataFrame({"query_pos": [0, 0, 1, 1], "weight": [0.6, None, 0.3, 0.5]})
    assert drawn_row_sums(cells) == (pytest.approx(0.6), pytest.approx(0.8))


def test_finish_reason_names_follow_the_providers():
    assert API_NAMES["stop"] == ("stop", "end_turn") and API_NAMES["stop_sequence"] == ("stop", "stop_sequence")
    assert API_NAMES["length"] == ("length", "max_tokens")
    df = mapping_frame("length")
    assert len(df) == 3 and df.iloc[1, 0].startswith("▶ ") and not df.iloc[0, 0].startswith("▶")
    assert list(df.iloc[:, 1]) == ['"stop"', '"length"', '"stop"']
    assert np.all(df.notna())


def test_the_model_table_cites_published_layers_and_no_dense_gpt4_flops(tiny_bundle):
    from ui.pipeline.draw import models_frame
    df = models_frame(tiny_bundle.info, "Tiny test model")
    rows = {name.strip("*"): list(row) for name, row in zip(df.iloc[:, 0], df.iloc[:, 1:].values)}
    assert rows["Llama 3.1"][0] == "32 / 80 / 126" and rows["Llama 3.1"][1] == "8 B / 70 B / 405 B"
    assert rows["Llama 3.1"][2] == "16 GFLOPs / 140 GFLOPs / 810 GFLOPs"
    assert rows["GPT-3"][0] == "96" and rows["GPT-3"][2] == "350 GFLOPs"
    assert "GFLOPs" in rows["GPT-4"][2] and "TFLOPs" not in rows["GPT-4"][2]  # a mixture of experts, not 2 x 1.7 T
    assert rows["GPT-4"][1].startswith("~")  # estimated
    assert rows["Tiny test model"][0] == str(tiny_bundle.info.n_layers)  # the loaded model, by its name
    assert not any("Gemma" in name for name in rows)  # never a name typed in for the model that runs
    assert rows["GPT-2"][0] == "12 / 24 / 36 / 48"  # OpenAI's corrected counts, not the paper's 117M
    assert rows["GPT-2"][1] == "124 M / 355 M / 774 M / 1.5 B" or rows["GPT-2"][1] == "124 M / 355 M / 774 M / 1,5 B"
