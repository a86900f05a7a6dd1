"""transformers' generate() through the engine, on the tiny model: the passes of concurrent visitors' generate()
calls (greedy, beam search, seeded sampling) share batched steps, and each visitor's tokens are those it gets alone
and those of the library's generate() called on the model directly."""
import threading

import pytest
import torch
from transformers import LogitsProcessor, LogitsProcessorList

from model_backend.runtime.engine import ModelOutsideEngine
from tests.tiny import start_queued

PROMPTS = ["o gato", "a casa de papel", "Era uma vez", "1, 2, 3,"]


def _ids(bundle, text):
    return bundle.tokenizer(text, return_tensors="pt").input_ids


def _kwargs(bundle, text, **kw):
    ids = _ids(bundle, text)
    return dict(input_ids=ids, attention_mask=torch.ones_like(ids), max_new_tokens=8, min_new_tokens=8,
                pad_token_id=0, **kw)


def _at_once(bundle, jobs):
    """Run every job (a function of no argument) in its own thread, all queued behind the held lock first, so
    that their first passes meet; returns their results in order."""
    out = [None] * len(jobs)
    errors = []

    def run(i):
        try:
            out[i] = jobs[i]()
        except Exception as exc:  # noqa: BLE001  reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    start_queued(bundle.engine, threads)
    for t in threads:
        t.join(60)
    assert not errors, errors
    return out


def test_greedy_and_beam_generate_of_visitors_at_once_share_passes_and_equal_each_alone(tiny_bundle):
    engine = tiny_bundle.engine
    settings = [dict(do_sample=False), dict(do_sample=False, num_beams=3, early_stopping=False)]
    cases = [(p, kw) for p in PROMPTS for kw in settings]
    alone = [engine.generate(**_kwargs(tiny_bundle, p, **kw)) for p, kw in cases]
    with engine.exclusive() as model, torch.inference_mode():  # the library's own generate(), no engine steps
        plain = [model.generate(**_kwargs(tiny_bundle, p, **kw)) for p, kw in cases]
    batched_before, passes_before = engine.batched_steps, engine.passes
    together = _at_once(tiny_bundle, [lambda p=p, kw=kw: engine.generate(**_kwargs(tiny_bundle, p, **kw))
                                      for p, kw in cases])
    assert len(together) == len(cases) == 8
    for a, b, c in zip(alone, plain, together):
        assert torch.equal(a, b) and torch.equal(a, c)
    assert engine.batched_steps - batched_before >= len(cases)  # the passes were shared ...
    assert engine.passes - passes_before < len(cases) * 8  # ... so there were fewer than one per visitor and step
    assert engine.widest >= 2 * 3  # two beam searches' rows in one pass at least


def test_sampled_generate_with_its_own_generator_draws_what_the_global_generator_draws(tiny_bundle):
    engine = tiny_bundle.engine
    sampled = dict(do_sample=True, temperature=1.0, top_k=0, top_p=1.0)
    globally = []
    for seed in (1, 2, 3):
        torch.manual_seed(seed)  # no generator: it holds the model alone and draws from the global one
        globally.append(engine.generate(**_kwargs(tiny_bundle, "o gato", **sampled)))
    own = _at_once(tiny_bundle, [
        lambda s=s: engine.generate(generator=torch.Generator().manual_seed(s), **_kwargs(tiny_bundle, "o gato",
                                                                                          **sampled))
        for s in (1, 2, 3)])
    for a, b in zip(globally, own):
        assert torch.equal(a, b)
    assert not torch.equal(own[0], own[1]) or not torch.equal(own[1], own[2])  # the seeds drew differently


def test_a_generator_with_a_warper_of_generate_itself_is_refused(tiny_bundle):
    with pytest.raises(ValueError, match="temperature=1.0"):
        tiny_bundle.engine.generate(generator=torch.Generator().manual_seed(0),
                                    **_kwargs(tiny_bundle, "o gato", do_sample=True, temperature=0.7, top_k=0,
                                              top_p=1.0))


def test_a_routed_generate_may_not_call_the_models_parts_itself(tiny_bundle):
    """Inside generate() only the model's forward is routed to the engine: a processor that calls a part of the
    model (here the embedding) from the visitor's thread is refused, as anywhere outside the engine."""
    embed = tiny_bundle.weights.get_input_embeddings()

    class Peek(LogitsProcessor):
        def __call__(self, input_ids, scores):
            embed(input_ids[:, -1:])
            return scores

    with pytest.raises(ModelOutsideEngine):
        tiny_bundle.engine.generate(logits_processor=LogitsProcessorList([Peek()]),
                                    **_kwargs(tiny_bundle, "o gato", do_sample=False))
