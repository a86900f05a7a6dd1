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
    # The prefills (one pass) count len(cases) batched steps; the 7 decode steps of each visitor must be shared
    # too: alone they would be 1 + 8 x 7 = 57 passes.
    assert engine.batched_steps - batched_before >= 2 * len(cases)
    assert engine.passes - passes_before <= 1 + 7 * len(cases) // 2


def test_sampled_generate_with_its_own_generator_draws_what_the_global_generator_draws(tiny_bundle):
    engine = tiny_bundle.engine
    sampled = dict(do_sample=True, temperature=1.0, top_k=0, top_p=1.0)
    globally = []
    for seed in (1, 2, 3):
        torch.manual_seed(seed)  # no generator: it holds the model alone and draws from the global one
        globally.append(engine.generate(**_kwargs(tiny_bundle, "o gato", **sampled)))
    batched_before = engine.batched_steps
    own = _at_once(tiny_bundle, [
        lambda s=s: engine.generate(generator=torch.Generator().manual_seed(s), **_kwargs(tiny_bundle, "o gato",
                                                                                          **sampled))
        for s in (1, 2, 3)])
    for a, b in zip(globally, own):
        assert torch.equal(a, b)
    assert engine.batched_steps - batched_before >= 2 * 3  # their prefills and some decode steps shared passes
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


@pytest.mark.parametrize("extra", [dict(typical_p=0.2), dict(min_p=0.5), dict(epsilon_cutoff=0.05),
                                   dict(num_beams=3), dict(output_scores=True, return_dict_in_generate=True)])
def test_a_generator_with_what_only_generates_own_sampling_does_is_refused(tiny_bundle, extra):
    """Draw replaces generate()'s sampling, which then selects greedily: settings that act only when generate()
    samples would be dropped (or beam sampling become beam search) without a word."""
    with pytest.raises(ValueError, match="with a generator"):
        tiny_bundle.engine.generate(generator=torch.Generator().manual_seed(0),
                                    **_kwargs(tiny_bundle, "o gato", do_sample=True, temperature=1.0, top_k=0,
                                              top_p=1.0, **extra))


def test_sampling_asked_by_a_generation_config_holds_the_model_or_uses_the_generator(tiny_bundle):
    from transformers import GenerationConfig

    engine = tiny_bundle.engine
    config = GenerationConfig(do_sample=True, temperature=1.0, top_k=0, top_p=1.0, max_new_tokens=6,
                              min_new_tokens=6, pad_token_id=0)
    ids = _ids(tiny_bundle, "o gato")
    torch.manual_seed(3)
    alone = engine.generate(input_ids=ids, attention_mask=torch.ones_like(ids), generation_config=config)
    torch.manual_seed(3)
    again = engine.generate(input_ids=ids, attention_mask=torch.ones_like(ids), generation_config=config)
    assert torch.equal(alone, again)  # the global generator, the model held alone: the seed decides
    with pytest.raises(ValueError, match="generation_config"):  # Draw would not see what the config asks
        engine.generate(generator=torch.Generator().manual_seed(3), input_ids=ids,
                        attention_mask=torch.ones_like(ids), generation_config=config)


def test_a_sampled_generate_without_generator_inside_a_routed_one_does_not_wait_for_itself(tiny_bundle):
    engine, inner = tiny_bundle.engine, []

    class Nested(LogitsProcessor):
        def __call__(self, input_ids, scores):
            if not inner:
                inner.append(engine.generate(**_kwargs(tiny_bundle, "x", do_sample=True, temperature=1.0, top_k=0,
                                                       top_p=1.0)))
            return scores

    done = []
    t = threading.Thread(target=lambda: done.append(engine.generate(
        logits_processor=LogitsProcessorList([Nested()]), **_kwargs(tiny_bundle, "o gato", do_sample=False))))
    t.start()
    t.join(30)
    assert done and inner  # it finished: the inner one held the model and called it unrouted


def test_a_cache_handed_to_generate_is_filled_as_the_library_fills_it(tiny_bundle):
    from transformers import DynamicCache

    config = tiny_bundle.weights.config
    mine, theirs = DynamicCache(config=config), DynamicCache(config=config)
    tiny_bundle.engine.generate(past_key_values=mine, **_kwargs(tiny_bundle, "o gato", do_sample=False))
    with tiny_bundle.engine.exclusive() as model, torch.inference_mode():
        model.generate(past_key_values=theirs, **_kwargs(tiny_bundle, "o gato", do_sample=False))
    assert mine.get_seq_length() == theirs.get_seq_length() > 0
