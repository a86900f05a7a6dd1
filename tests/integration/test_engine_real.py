"""The model engine with the real model: visitors who generate at the same moment get what each gets alone, and their
decode steps really ran batched. Greedy, through core.stepping.generate, as the pages call it (seeds: tests/unit/test_engine.py)."""
import threading

import pytest
import torch

from model_backend import SamplingParams, generate

PROMPTS = ["A capital da França é a cidade de", "O gato sentou no", "Era uma vez uma menina que",
           "The quick brown fox", "Albert Einstein nasceu em"]


def _at_once(bundle, params_for):
    out, barrier = {}, threading.Barrier(len(PROMPTS))

    def visitor(i, prompt):
        barrier.wait()
        out[i] = generate(bundle, prompt, params_for(i))

    threads = [threading.Thread(target=visitor, args=(i, p)) for i, p in enumerate(PROMPTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    return [out[i] for i in range(len(PROMPTS))]


def test_five_visitors_at_once_get_each_their_own_greedy_completion(real_bundle):
    params = SamplingParams(temperature=0, max_new_tokens=10)
    alone = [generate(real_bundle, p, params) for p in PROMPTS]
    batched_before = real_bundle.engine.batched_steps
    together = _at_once(real_bundle, lambda i: params)
    assert [g.completion for g in together] == [g.completion for g in alone]
    assert real_bundle.engine.batched_steps > batched_before  # the steps did share passes
    for a, b in zip(alone, together):
        for sa, sb in zip(a.steps, b.steps):
            assert abs(sa.prob - sb.prob) < 1e-3 and abs(sa.logprob - sb.logprob) < 1e-3  # floats: another sum order


@pytest.fixture(scope="module")
def bf16_bundle():
    """The model in bfloat16 (what `auto` serves where oneDNN has its bfloat16 path), where rounding turns last-bit
    differences into other tokens; skipped on a CPU without that path."""
    from model_backend import load_bundle
    from model_backend.runtime import fastpath

    if not fastpath.supports(torch.bfloat16):
        pytest.skip("no oneDNN bfloat16 path on this CPU: `auto` serves float32 here")
    return load_bundle(dtype="bfloat16", device="cpu")


def test_batched_passes_give_each_visitor_its_logits_bit_for_bit_in_bfloat16(bf16_bundle):
    """bfloat16 on this CPU: eight visitors' prefills and greedy steps batched by the engine give every one the very
    logits it gets alone, and so the same tokens (runtime/invariance.py, fastpath._two_rows). Before, tokens changed
    for 10 of 50 prompts in 12 steps."""
    bundle = bf16_bundle
    texts = [*PROMPTS, "Quando a chuva finalmente parou", "My grandfather had an old radio", "O segredo"]

    def greedy(text):
        ids = bundle.tokenizer(text, return_tensors="pt").input_ids
        out = bundle.prefill(ids)
        past, rows = out.past_key_values, [out.logits[0, -1].clone()]
        for _ in range(6):
            out = bundle.decode(torch.tensor([[int(rows[-1].argmax())]]), past)
            rows.append(out.logits[0, -1].clone())
        return rows

    alone = [greedy(t) for t in texts]
    out, barrier = {}, threading.Barrier(len(texts))

    def visitor(i):
        barrier.wait()
        out[i] = greedy(texts[i])

    batched_before = bundle.engine.batched_steps
    threads = [threading.Thread(target=visitor, args=(i,)) for i in range(len(texts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert bundle.engine.batched_steps > batched_before
    for i, text in enumerate(texts):
        assert all(torch.equal(a, b) for a, b in zip(alone[i], out[i])), text


def test_beams_and_sampled_rows_do_not_depend_on_who_else_generates(bf16_bundle):
    """bfloat16: the decoding page's beam search (4 rows) and its sampled strategies (3 rows, one seed) give the same
    tokens and the same beam tree alone as while two other visitors generate greedily at the same moment (prompts of
    other lengths, so their steps pad the batch). Before, a request of several rows ran alone as one batched attention
    product and beside others row by row, and the beams' log-probabilities differed."""
    from model_backend.lessons import decoding as dec
    from model_backend.runtime import queueing
    from tests.tiny import start_queued

    bundle = bf16_bundle
    prompt = "Era uma vez um menino que morava numa casa perto do rio e todos os dias"

    def beam():
        return dec.run_beam(bundle, prompt, 4, 20, tree_steps=3)

    def sampled():
        return dec.run_sampled(bundle, prompt, 20, seed=5)

    alone_beam, alone_sampled = beam(), sampled()
    out = {}

    def visitor(name, work):
        queueing.serve(queueing.Visitor(owner=name))
        out[name] = work()

    works = {"beam": beam, "sampled": sampled,
             "a": lambda: dec.run_greedy(bundle, PROMPTS[0], 20), "b": lambda: dec.run_greedy(bundle, PROMPTS[3], 20)}
    before = bundle.engine.batched_steps
    threads = [threading.Thread(target=visitor, args=item) for item in works.items()]
    start_queued(bundle.engine, threads)
    for t in threads:
        t.join(300)
    assert bundle.engine.batched_steps > before  # the steps did share passes
    assert out["beam"].continuation.token_ids == alone_beam.continuation.token_ids
    assert out["beam"].nodes == alone_beam.nodes  # every kept beam's log-probability, bit for bit
    for name in dec.SAMPLED:
        assert out["sampled"][name][0].token_ids == alone_sampled[name][0].token_ids, name
