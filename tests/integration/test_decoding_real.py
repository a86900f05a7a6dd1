"""The decoding page on the real Gemma 3 270M (float32): beam search is generate()'s own, the sampled batch is
fixed by its seed, and the feedback loop climbs (the paper's Figure 4) while the repetition penalty pulls it down."""
import json

import pytest
import torch

from model_backend.core.tracing import encode
from model_backend.lessons import decoding as dec
from ui.decoding.compute import PROMPT_TOKENS, RESULTS
from ui.decoding.draw import SENTENCES

PROMPT = "The first thing she noticed when she opened the letter was"


def test_beam_search_equals_generate(real_bundle):
    """The page's beam continuation, with the observing processor attached, is exactly generate()'s plain one."""
    run = dec.run_beam(real_bundle, PROMPT, 4, dec.MIN_NEW)
    enc = real_bundle.tokenizer(PROMPT, return_tensors="pt")
    with torch.inference_mode():
        out = real_bundle.engine.generate(**enc, num_beams=4, do_sample=False, max_new_tokens=dec.MIN_NEW,
                                         pad_token_id=0, return_dict_in_generate=True, output_scores=True)
    plain = out.sequences[0, enc["input_ids"].shape[1]:].tolist()
    assert list(run.continuation.token_ids) == plain[: len(run.continuation.token_ids)]
    # the page's score is the mean log-prob of the tokens generate() returned (length_penalty 1), read from the
    # log-probs the search handed the Observer; generate() summed the same log-probs step by step: another
    # summation order (and the engine's prompt cache), so 1e-3
    assert run.sequence_score == pytest.approx(float(out.sequences_scores[0]), abs=1e-3)
    assert run.sequence_score == pytest.approx(run.continuation.mean_logprob, abs=1e-12)
    steps = {n.step for n in run.nodes}
    assert steps == set(range(1, dec.TREE_STEPS + 1))
    assert all(sum(n.status == "kept" for n in run.nodes if n.step == s) == 4 for s in steps)


def test_beam_16_with_the_shared_prompt_cache_gives_the_plain_generate_beams(real_bundle):
    """The fast path (the prompt run once, its cache repeated for 16 beams, an Observer attached) against the
    plain reference (generate()'s own prefill of 16 copies, nothing attached), on a short run.

    The two differ only in how many rows the prompt's matrix products have, so on one CPU they agree to rounding
    (bit for bit on the AVX2 EPYC, 2026-12-01). Tolerances that hold on other CPUs: the first step's 16 kept
    log-probs within 1e-3 (values of a few units, float32: rounding is ~1e-5; the same bound the sequence score
    already has), and the continuation token for token (a flip would need two candidates tied within that)."""
    width = 16
    run = dec.run_beam(real_bundle, PROMPT, width, dec.MIN_NEW)
    ids, _ = encode(real_bundle, PROMPT, PROMPT_TOKENS)
    enc = torch.tensor([ids])
    with torch.inference_mode():
        out = real_bundle.engine.generate(input_ids=enc, attention_mask=torch.ones_like(enc), num_beams=width,
                                         do_sample=False, max_new_tokens=dec.MIN_NEW, pad_token_id=0,
                                         eos_token_id=list(real_bundle.info.eos_token_ids),
                                         return_dict_in_generate=True, output_scores=True)
    plain = out.sequences[0, len(ids):].tolist()
    assert list(run.continuation.token_ids) == plain[: len(run.continuation.token_ids)]
    assert run.sequence_score == pytest.approx(float(out.sequences_scores[0]), abs=1e-3)
    first = torch.topk(out.scores[0][0], width)  # step 1: every beam is the prompt; generate() uses row 0
    best = sorted((n for n in run.nodes if n.step == 1 and n.rank <= width), key=lambda n: n.rank)
    assert [n.token_id for n in best] == first.indices.tolist()
    assert [n.logprob for n in best] == pytest.approx(first.values.tolist(), abs=1e-3)


def test_greedy_is_more_repetitive_than_nucleus_here(real_bundle):
    greedy = dec.run_greedy(real_bundle, PROMPT, 60)
    sampled = dec.run_sampled(real_bundle, PROMPT, 60, seed=0)
    assert greedy.mean_logprob > sampled["sampling"][0].mean_logprob  # greedy picks likely tokens
    assert len(greedy.logprobs) == len(greedy.token_ids)


@pytest.mark.parametrize("lang", ["pt-BR", "en"])
def test_the_feedback_loop_climbs_and_the_penalty_pulls_it_down(real_bundle, lang):
    curve = dec.feedback_curve(real_bundle, SENTENCES[lang], 8, 1.3)
    raw, pen = curve.means(), curve.means(True)
    assert len(raw) == 8
    # every copy after the second is more likely than the first two, and the curve ends near its top
    assert raw[1] > raw[0] and min(raw[2:]) > raw[1] and raw[-1] > 0.8
    assert pen[-1] < raw[-1]


def test_the_shipped_table_rescored_now_agrees_within_a_cross_cpu_tolerance(real_bundle):
    """Re-score the shipped continuations of one prompt (their stored token ids) with the model now.

    What is stable across CPUs is the log-probability of *given* tokens, not the text a run would generate (one
    different rounding can turn a greedy run onto another path). The table was made in bfloat16 on the bench's
    machine; this test runs float32 on whatever CPU it has. bfloat16 keeps 8 bits of mantissa, which moves this
    model's logits by up to about 0.2 (README, fp32 vs bf16), but the mean over a continuation's tokens moves far
    less: float32 here against the shipped bfloat16 differed by at most 0.010 per token over the greedy and beam
    continuations of 9 prompts (2026-11-30). 0.05 (5x that) leaves room for other CPUs' sums, while a wrong
    prompt or wrong ids miss by a whole unit or more.
    """
    data = json.loads(RESULTS.read_text(encoding="utf-8"))
    shipped = data["prompts"][0]
    prompt_ids, _ = encode(real_bundle, shipped["prompt"], PROMPT_TOKENS)
    for strategy in ("greedy", "beam"):
        ids = shipped["ids"][strategy][0]
        now = dec.score(real_bundle, prompt_ids, ids)
        assert len(now) == len(ids)
        assert sum(now) / len(now) == pytest.approx(shipped["rows"][strategy]["mean_logprob"], abs=0.05)
