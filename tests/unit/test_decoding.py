"""The decoding page's measures (exact values on hand-made token lists), the selection mapping, the processors,
and the beam-tree extraction on the tiny model against generate()'s own scores."""
from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
import torch
from transformers import TopKLogitsWarper

from model_backend.lessons import decoding as dec
from ui.decoding import compute
from ui.decoding import draw as view


def test_ngrams_and_repeated_share():
    assert dec.ngrams([1, 2, 3], 2) == [(1, 2), (2, 3)]
    assert dec.ngrams([1, 2], 4) == []
    # 2-grams ab bc ca ab bc: the last two repeat earlier ones
    assert dec.repeated_share([1, 2, 3, 1, 2, 3], 2) == pytest.approx(2 / 5)
    assert dec.repeated_share([1, 2, 3, 4, 5], 4) == 0.0
    assert dec.repeated_share([7] * 10, 4) == pytest.approx(6 / 7)  # 7 four-grams, all the same
    assert dec.repeated_share([], 4) == 0.0


def test_distinct_n():
    ids = [1, 2, 1, 2, 3]
    assert dec.distinct_n(ids, 1) == pytest.approx(3 / 5)
    assert dec.distinct_n(ids, 2) == pytest.approx(3 / 4)  # 12 21 12 23
    assert dec.distinct_n([5], 2) == 0.0
    assert dec.distinct_n(list(range(9)), 2) == 1.0


def test_repeated_mask_marks_repeats_not_first_occurrence():
    ids = [1, 2, 3, 4, 9, 1, 2, 3, 4]
    assert dec.repeated_mask(ids, 4) == [False] * 5 + [True] * 4
    assert dec.repeated_mask([1, 2, 3], 4) == [False] * 3
    # a loop "a b a b a b": 2-grams ab ba ab ba ab -> from index 2 on every token is in a repeat
    assert dec.repeated_mask([1, 2, 1, 2, 1, 2], 2) == [False, False, True, True, True, True]


def test_overlap_and_self_similarity():
    assert dec.overlap([1, 2, 3, 4], [1, 2, 3, 4], 3) == 1.0
    assert dec.overlap([1, 2, 3, 4], [5, 6, 7, 8], 3) == 0.0
    # {123, 234} vs {123, 239}: 1 shared of 3
    assert dec.overlap([1, 2, 3, 4], [1, 2, 3, 9], 3) == pytest.approx(1 / 3)
    assert dec.overlap([1], [2], 3) == 1.0  # no trigrams on either side: nothing differs
    assert dec.self_similarity([[1, 2, 3, 4]]) is None
    assert dec.self_similarity([[1, 2, 3, 4], [1, 2, 3, 4], [5, 6, 7, 8]], 3) == pytest.approx((1 + 0 + 0) / 3)


def test_ends_in_loop():
    assert dec.ends_in_loop([9, 8, 1, 2, 1, 2, 1, 2])
    assert not dec.ends_in_loop([9, 8, 1, 2, 1, 2])  # only two cycles
    assert not dec.ends_in_loop(list(range(20)))


def test_picked_node_maps_a_selection_to_a_node():
    ids = [0, 1, 2, 5]
    assert view.picked_node({"node": [{"id": 5}]}, ids) == 5
    assert view.picked_node({"node": [{"id": 5.0}]}, ids) == 5
    assert view.picked_node({"node": []}, ids) is None
    assert view.picked_node({}, ids) is None
    assert view.picked_node(None, ids) is None
    assert view.picked_node({"node": [{"id": 7}]}, ids) is None  # a node of an older tree
    assert view.picked_node({"node": [{"x": 1}]}, ids) is None
    assert view.picked_node({"node": [{"id": "bad"}]}, ids) is None


def _table(**rep_lp):
    return [{"strategy": s, "repeated": r, "mean_logprob": lp} for s, (r, lp) in rep_lp.items()]


def test_ordering_holds_and_fails():
    ok = _table(greedy=(0.5, -0.5), beam=(0.6, -0.4), sampling=(0.01, -4.0), top_k=(0.02, -2.5), top_p=(0.03, -2.0))
    assert view.ordering(ok) == []
    bad = _table(greedy=(0.01, -0.5), beam=(0.6, -0.4), sampling=(0.05, -1.0), top_k=(0.02, -2.5), top_p=(0.9, -0.1))
    assert view.ordering(bad) == ["repetition", "coherence", "between"]


def test_row_warpers_apply_the_library_warper_to_their_rows_only():
    scores = torch.tensor([[1.0, 3.0, 2.0, 0.0], [1.0, 3.0, 2.0, 0.0]])
    before = scores.clone()
    out = dec.RowWarpers([(0, 1, None), (1, 2, TopKLogitsWarper(2))])(torch.zeros(2, 1, dtype=torch.long), scores)
    assert torch.equal(scores, before)  # not changed in place
    assert torch.equal(out[0], before[0])
    assert out[1].tolist() == [-math.inf, 3.0, 2.0, -math.inf]


def test_observer_records_and_changes_nothing():
    seen = []
    obs = dec.Observer(prompt_len=2, record=1, top=2, on_step=seen.append)
    ids = torch.tensor([[5, 6, 7]])
    scores = torch.tensor([[0.1, 0.7, 0.2]])
    assert obs(ids, scores) is scores
    obs(ids, scores)
    assert seen == [1, 2] and len(obs.steps) == 1
    tokens, top_ids, top_vals = obs.steps[0]
    assert tokens.tolist() == [[7]] and top_ids.tolist() == [[1, 2]]
    assert top_vals[0].tolist() == pytest.approx([0.7, 0.2])


def test_score_equals_the_log_softmax_of_one_full_pass(tiny_bundle):
    prompt = tiny_bundle.tokenizer.encode("ab")
    cont = tiny_bundle.tokenizer.encode("cde", add_special_tokens=False)
    got = dec.score(tiny_bundle, prompt, cont)
    with torch.inference_mode():
        logits = tiny_bundle.engine.forward(input_ids=torch.tensor([prompt + cont])).logits[0].float()
    lp = torch.log_softmax(logits, -1)
    want = [float(lp[len(prompt) - 1 + i, tok]) for i, tok in enumerate(cont)]
    assert got == pytest.approx(want, abs=1e-5)  # same model and kernels; only the chunking differs


def test_beam_tree_matches_generate(tiny_bundle):
    """The tree comes from what generate() handed the Observer; check it against generate()'s own scores."""
    width, new = 4, 8
    run = dec.run_beam(tiny_bundle, "hello", width, max(new, dec.MIN_NEW), tree_steps=4)
    ids = tiny_bundle.tokenizer.encode("hello")
    enc = torch.tensor([ids])
    with torch.inference_mode():
        out = tiny_bundle.engine.generate(input_ids=enc, attention_mask=torch.ones_like(enc), num_beams=width,
                                         do_sample=False, max_new_tokens=max(new, dec.MIN_NEW), pad_token_id=0,
                                         eos_token_id=[1], return_dict_in_generate=True, output_scores=True)
        first = torch.log_softmax(tiny_bundle.engine.forward(input_ids=enc).logits[0, -1].float(), -1)
    assert list(out.sequences[0, len(ids):].tolist())[: len(run.continuation.token_ids)] == \
        list(run.continuation.token_ids)
    # the page's score is recomputed from the winner's log-probs in one uncached pass (output_scores stays off):
    # it must equal generate()'s own sequences_scores up to float32 summation order (tiny model: 1e-4)
    assert run.sequence_score == pytest.approx(float(out.sequences_scores[0]), abs=1e-4)
    for step in range(1, 5):
        nodes = dec.step_candidates(run.nodes, step)
        kept = [n for n in nodes if n.status == "kept"]
        assert len(kept) == width
        cums = [n.cum for n in nodes]
        assert cums == sorted(cums, reverse=True)
        assert sum(n.winner for n in nodes) == 1 and next(n for n in nodes if n.winner).status == "kept"
    step1 = [n.token_id for n in dec.step_candidates(run.nodes, 1) if n.status == "kept"]
    assert step1 == torch.topk(first, width).indices.tolist()
    # the winner's cumulative log-prob along the tree = the sum of generate()'s own transition scores
    trans = tiny_bundle.weights.compute_transition_scores(out.sequences, out.scores, out.beam_indices,
                                                        normalize_logits=False)[0]
    for step in range(1, 5):
        win = next(n for n in run.nodes if n.step == step and n.winner)
        assert win.cum == pytest.approx(float(trans[:step].sum()), abs=1e-4)


def test_sampled_runs_are_fixed_by_the_seed(tiny_bundle):
    a = dec.run_sampled(tiny_bundle, "hello", dec.MIN_NEW, seed=3, samples=2)
    b = dec.run_sampled(tiny_bundle, "hello", dec.MIN_NEW, seed=3, samples=2)
    assert set(a) == set(dec.SAMPLED) and all(len(v) == 2 for v in a.values())
    assert [c.token_ids for v in a.values() for c in v] == [c.token_ids for v in b.values() for c in v]
    assert a["top_p"][0].batch == 6


def test_arguments_are_checked(tiny_bundle):
    with pytest.raises(ValueError, match="max_new_tokens"):
        dec.run_greedy(tiny_bundle, "hi", 5000)
    with pytest.raises(ValueError, match="beam width"):
        dec.run_beam(tiny_bundle, "hi", 64, dec.MIN_NEW)


def test_feedback_curve_shapes(tiny_bundle):
    curve = dec.feedback_curve(tiny_bundle, "ab cd.", 4, 1.3)
    assert max(curve.repetition) == 4 and len(curve.probs) == len(curve.penalized) == len(curve.repetition)
    assert len(curve.means()) == 4 and all(0 < p <= 1 for p in curve.probs)
    raw = dec.feedback_curve(tiny_bundle, "ab cd.", 4, 1.0)
    assert raw.penalized == pytest.approx(raw.probs)  # penalty 1 changes nothing


def test_sequence_score_is_the_length_normalised_sum():
    assert dec.sequence_score([-1.0, -2.0, -3.0]) == pytest.approx(-2.0)
    assert dec.sequence_score([-1.0, -2.0, -3.0], length_penalty=2.0) == pytest.approx(-6.0 / 9)
    assert math.isnan(dec.sequence_score([]))


def test_run_dtype_leaves_bfloat16_only_where_it_has_no_fast_path():
    from model_backend.runtime import fastpath

    assert dec.run_dtype("float32", "cpu") == "float32"
    assert dec.run_dtype("bfloat16", "cuda") == "bfloat16"
    want = "bfloat16" if fastpath.supports(torch.bfloat16) else "float32"
    assert dec.run_dtype("bfloat16", "cpu") == want


def test_greedy_loop_is_found_only_in_a_greedy_run_that_ends_in_a_cycle():
    from types import SimpleNamespace

    from model_backend.types import SamplingParams
    from ui.loop.compute import GREEDY_LOOP_REPEATS, greedy_loop

    def run(ids, temperature):
        steps = tuple(SimpleNamespace(token=SimpleNamespace(id=i)) for i in ids)
        return SimpleNamespace(params=SamplingParams(temperature=temperature), steps=steps)

    looped = [5, 6] + [7, 8, 9] * GREEDY_LOOP_REPEATS
    loop = greedy_loop(run(looped, 0.0))
    assert loop is not None and loop.period == 3 and loop.repeats == GREEDY_LOOP_REPEATS
    assert greedy_loop(run(looped, 0.7)) is None  # sampling: not the greedy panel
    assert greedy_loop(run([5, 6] + [7, 8, 9] * (GREEDY_LOOP_REPEATS - 1), 0.0)) is None


def test_the_shipped_table_is_the_mean_of_its_prompts():
    """assets/decoding/results.json: each strategy's row is the mean of the per-prompt rows it ships (its own
    floats, so up to summation rounding), and each stored continuation's token ids give its measures."""
    data = json.loads(compute.RESULTS.read_text(encoding="utf-8"))
    prompts = data["prompts"]
    assert prompts and len(prompts) <= data["prompts_listed"] == len(compute.BENCH_PROMPTS)
    assert data["complete"] == (len(prompts) == data["prompts_listed"])
    listed = compute.BENCH_PROMPTS
    for p in prompts:
        assert p["prompt"] == listed[p["index"]]["text"] and p["seed"] == p["index"]
        for s in dec.STRATEGIES:
            ids = p["ids"][s]
            assert len(ids) == len(p["texts"][s]) == (1 if s in ("greedy", "beam") else data["settings"]["samples"])
            assert all(0 < len(i) <= data["settings"]["tokens"] for i in ids)
            row = p["rows"][s]
            assert row["repeated"] == pytest.approx(sum(dec.repeated_share(i) for i in ids) / len(ids), abs=1e-12)
            assert row["distinct2"] == pytest.approx(sum(dec.distinct_n(i, 2) for i in ids) / len(ids), abs=1e-12)
    for row in data["table"]:
        s = row["strategy"]
        for key in ("repeated", "distinct1", "distinct2", "mean_logprob", "self_similarity"):
            assert row[key] == pytest.approx(sum(p["rows"][s][key] for p in prompts) / len(prompts), abs=1e-9)
        loops = [dec.ends_in_loop(i) for p in prompts for i in p["ids"][s]]
        assert row["ends_in_loop"] == pytest.approx(sum(loops) / len(loops), abs=1e-12)


def test_the_shared_prompt_cache_gives_the_plain_generate_beams(tiny_bundle):
    """run_beam computes the prompt once and hands generate() its cache repeated for every beam; the plain path
    lets generate() run the prompt once per beam. Only the row count of the prompt's products differs, so the
    beams and their scores agree: token for token, and log-probs within 1e-4 (float32 on a 2-layer model whose
    log-probs are a few units: rounding is ~1e-6 on any CPU; a wrong cache, such as one missing a token or a
    row, moves them by far more)."""
    calls = tiny_bundle.forward_passes
    fast = dec.run_beam(tiny_bundle, "hello there", 4, dec.MIN_NEW)
    assert tiny_bundle.forward_passes - calls == dec.MIN_NEW + 1  # the steps and the prompt: no scoring pass
    plain = dec.run_beam(tiny_bundle, "hello there", 4, dec.MIN_NEW, share_prompt=False)
    assert fast.continuation.token_ids == plain.continuation.token_ids
    assert fast.continuation.logprobs == pytest.approx(plain.continuation.logprobs, abs=1e-4)
    assert [(n.step, n.token_id, n.status) for n in fast.nodes] == [(n.step, n.token_id, n.status) for n in plain.nodes]
    assert [n.cum for n in fast.nodes] == pytest.approx([n.cum for n in plain.nodes], abs=1e-4)
    a = dec.run_sampled(tiny_bundle, "hello there", dec.MIN_NEW, seed=5, samples=2)
    b = dec.run_sampled(tiny_bundle, "hello there", dec.MIN_NEW, seed=5, samples=2, share_prompt=False)
    assert [c.token_ids for v in a.values() for c in v] == [c.token_ids for v in b.values() for c in v]


def test_prompt_cache_holds_the_prompt_but_its_last_token_once_per_row(tiny_bundle):
    ids = tiny_bundle.tokenizer.encode("hello")
    with torch.inference_mode():  # the prefix runs as an engine prefill (batched with others)
        assert dec.prompt_cache(tiny_bundle, ids, 1) is None  # one row: nothing to share
        assert dec.prompt_cache(tiny_bundle, ids[:1], 4) is None  # nothing before the last token
        cache = dec.prompt_cache(tiny_bundle, ids, 3)
        assert cache.get_seq_length() == len(ids) - 1
        keys = cache.layers[0].keys  # [rows, kv heads, S - 1, head dim]
        assert keys.shape[0] == 3 and torch.equal(keys[0], keys[2])
    one = tiny_bundle.engine.forward(input_ids=torch.tensor([ids[:-1]]), use_cache=True).past_key_values
    assert torch.allclose(keys[0], one.layers[0].keys[0], atol=1e-6)  # the same computation, one row


def test_the_shipped_table_has_a_row_per_measure_and_a_column_per_strategy():
    data = json.loads(compute.RESULTS.read_text(encoding="utf-8"))
    frame = view.shipped_frame(data["table"], data["settings"]["width"])
    assert frame.shape == (7, 1 + len(dec.STRATEGIES))  # every measure of the former 8 columns, none lost
    assert list(frame.columns[1:]) == [view.strategy_label(r["strategy"], data["settings"]["width"])
                                       for r in data["table"]]
    greedy = next(r for r in data["table"] if r["strategy"] == "greedy")
    assert frame.iloc[:, 1].tolist() == [
        view.fmt_pct(greedy["repeated"]), view.fmt_float(greedy["distinct1"], 2),
        view.fmt_float(greedy["distinct2"], 2), view.fmt_float(greedy["mean_logprob"], 2),
        view.fmt_float(greedy["self_similarity"], 2), view.fmt_pct(greedy["ends_in_loop"], 0),
        view.fmt_float(greedy["tokens"], 1)]


def test_the_live_table_puts_stored_and_now_in_one_cell():
    stored = {s: {"repeated": 0.5, "mean_logprob": -1.0, "distinct2": 0.25} for s in dec.STRATEGIES}
    now = {s: {"repeated": 0.25, "mean_logprob": -2.0, "distinct2": 0.5} for s in dec.STRATEGIES}
    frame = view.live_frame(stored, now, 4)
    assert frame.shape == (len(dec.STRATEGIES), 4)
    assert frame.iloc[0, 1:].tolist() == [f"{view.fmt_pct(0.5)} → {view.fmt_pct(0.25)}",
                                         f"{view.fmt_float(-1.0, 2)} → {view.fmt_float(-2.0, 2)}",
                                         f"{view.fmt_float(0.25, 2)} → {view.fmt_float(0.5, 2)}"]


def test_climb_names_how_the_feedback_curve_moves():
    assert view.climb([0.1, 0.4, 0.8, 0.9]) == "climbs"
    assert view.climb([0.1, 0.5, 0.4, 0.9]) == "rises"  # up overall, down once
    assert view.climb([0.5, 0.6, 0.4]) == "flat"  # the last copy no more likely than the first
    assert view.climb([0.5, 0.5]) == "flat" and view.climb([0.5]) == "flat"


def _run(width, ids):
    cont = dec.Continuation(strategy="beam", label=f"beam {width}", token_ids=tuple(ids), tokens=(), text="",
                            logprobs=(), seconds=0.0, batch=width)
    return dec.BeamRun(width=width, continuation=cont, nodes=(), sequence_score=0.0)


def test_the_tree_key_is_the_run_s_own():
    """A node picked on one run's tree is kept under that run's key: another prompt (other tokens) or another
    width draws its tree under another key, so the old click does not point into the new tree."""
    a, same, other, wider = _run(4, [5, 6, 7]), _run(4, [5, 6, 7]), _run(4, [5, 6, 8]), _run(8, [5, 6, 7])
    assert view.tree_key(a) == view.tree_key(same)
    assert len({view.tree_key(a), view.tree_key(other), view.tree_key(wider)}) == 3
    assert view.tree_key(a).startswith("decoding_tree_4_")


def test_the_feedback_legend_stands_one_entry_a_row(monkeypatch):
    """The two curves' names in one row are wider than a phone's chart (the second was cut at 390 px, in both
    modes): they stand one a row, and the chart is tall enough for its vertical title beside them. In projection
    mode the x title ends with the plot (centred at 22 px it ran past a phone's chart)."""
    means = pd.DataFrame({"rep": [1, 2, 1, 2], "curve": ["a", "a", "b", "b"], "p": [0.2, 0.5, 0.2, 0.3]})
    points = means.assign(token="x")

    def spec(on: bool) -> dict:
        monkeypatch.setattr(view, "projection_on", lambda: on)
        return view.feedback_chart(means, points).to_dict()

    for on, row in ((False, 0), (True, 30)):
        s = spec(on)
        legend = s["layer"][0]["encoding"]["color"]["legend"]
        assert legend["columns"] == 1 and legend["labelLimit"] == 0
        assert s["height"] == 420 + row  # projection mode's room for the larger text: ui.charts.finish
        assert s["layer"][0]["encoding"]["x"]["axis"].get("titleAnchor") == ("end" if on else None)
        assert s["layer"][0]["encoding"]["x"]["scale"]["zero"] is False  # the axis starts at copy 1, not at 0


def test_the_continuations_log_probs_are_the_generations_own_and_equal_one_scoring_pass(tiny_bundle):
    """Greedy, beam and the three sampled rows take their tokens' log-probs from the generation's own steps (no
    pass after it: the passes are the steps and the prompt), and they are what one full pass over prompt and
    continuation gives (score()), within float32 rounding on a 2-layer model (~1e-6 on any CPU; a token read from
    the wrong step or row is off by whole units)."""
    prompt = "hello there"
    ids = tiny_bundle.tokenizer.encode(prompt)
    calls = tiny_bundle.forward_passes
    greedy = dec.run_greedy(tiny_bundle, prompt, dec.MIN_NEW)
    steps = len(greedy.token_ids)
    assert tiny_bundle.forward_passes - calls == steps  # the prompt's pass and steps - 1 decode steps
    beam = dec.run_beam(tiny_bundle, prompt, 4, dec.MIN_NEW)
    sampled = dec.run_sampled(tiny_bundle, prompt, dec.MIN_NEW, seed=3, samples=2)
    conts = [greedy, beam.continuation] + [c for v in sampled.values() for c in v]
    assert len(conts) == 8
    for c in conts:
        assert len(c.logprobs) == len(c.token_ids) > 0
        assert c.logprobs == pytest.approx(dec.score(tiny_bundle, ids, c.token_ids), abs=1e-4), c.label
    assert any(max(c.logprobs) < -0.5 for c in conts[2:])  # sampled rows do draw unlikely tokens: not all ~0


def test_observer_keeps_each_rows_log_prob_of_the_token_each_step_chose():
    """rows=True: at step k the row's log_softmax is kept; the token it chose shows up as the next call's last
    column (or, for the last step, the output's last column)."""
    obs = dec.Observer(prompt_len=1, rows=True)
    first = torch.tensor([[0.0, 1.0, 2.0], [3.0, 0.0, 0.0]])
    second = torch.tensor([[1.0, 1.0, 1.0], [0.0, 5.0, 0.0]])
    assert obs(torch.tensor([[9], [9]]), first) is first
    obs(torch.tensor([[9, 2], [9, 1]]), second)  # step 0 chose token 2 in row 0, token 1 in row 1
    got = obs.logprobs(torch.tensor([[9, 2, 0], [9, 1, 1]]))  # step 1 chose 0 and 1
    want = np.array([[torch.log_softmax(first[0], -1)[2], torch.log_softmax(second[0], -1)[0]],
                     [torch.log_softmax(first[1], -1)[1], torch.log_softmax(second[1], -1)[1]]])
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert dec.Observer(prompt_len=1).logprobs(torch.tensor([[9, 2]])).shape == (1, 0)  # not asked: none


def test_beam_logprobs_follow_the_winners_beam_through_the_steps():
    """The winner's token at step k is read from the beam that held its first k tokens; a missing step or a token
    outside that beam's recorded best gives None (the caller then scores with one pass)."""
    steps = [
        (np.zeros((2, 0), dtype=np.int64), np.array([[5, 6], [5, 6]]), np.array([[-0.1, -2.0], [-0.1, -2.0]])),
        (np.array([[6], [5]]), np.array([[7, 8], [8, 7]]), np.array([[-0.5, -0.9], [-0.2, -0.3]])),
    ]
    assert dec.beam_logprobs(steps, [5, 7]) == pytest.approx((-0.1, -0.3))  # row 1 held [5]
    assert dec.beam_logprobs(steps, [6, 8]) == pytest.approx((-2.0, -0.9))  # row 0 held [6]
    assert dec.beam_logprobs(steps, [5, 9]) is None
    assert dec.beam_logprobs(steps, [5, 7, 1]) is None


def test_the_table_recompute_scores_as_the_shipped_table_was_made(tiny_bundle):
    """compare_prompt (the bench's table and the page's live recompute of one of its prompts) scores each
    continuation with one pass over prompt and continuation (score()), the method of the shipped table."""
    result = dec.compare_prompt(tiny_bundle, "hello there", new=dec.MIN_NEW, width=2, seed=1, samples=1)
    ids = tiny_bundle.tokenizer.encode("hello there")
    for conts in result.runs.values():
        for c in conts:
            assert c.logprobs == dec.score(tiny_bundle, ids, c.token_ids)


def test_observer_log_probs_count_the_output_columns_and_beam_candidates():
    """A step generate() ran and then dropped (its stop check deferred) is not read; beam search keeps
    max(2, 1 + <eos> ids) x width candidates a step."""
    obs = dec.Observer(prompt_len=1, rows=True)
    rows = torch.tensor([[0.0, 1.0, 2.0]])
    obs(torch.tensor([[9]]), rows)
    obs(torch.tensor([[9, 2]]), rows)
    obs(torch.tensor([[9, 2, 1]]), rows)  # the third step's token was dropped: the output has two columns
    got = obs.logprobs(torch.tensor([[9, 2, 1]]))
    np.testing.assert_allclose(got, [torch.log_softmax(rows[0], -1)[[2, 1]].numpy()], rtol=1e-6)
    assert dec.beam_candidates(4, (1,)) == 8 and dec.beam_candidates(4, (1, 106)) == 12
