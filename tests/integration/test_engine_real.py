"""The model engine with the real model: visitors who generate at the same moment get what each gets alone, and their
decode steps really ran batched. Greedy, through core.stepping.generate, as the pages call it (seeds: tests/unit/test_engine.py)."""
import threading

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
