"""The loop page's run fragment reads the prompt's token count from the tokenizer alone (ui.loop.compute.
prompt_facts), not from the trace: both must count, and cut, the same tokens."""
from ui import backend
from ui.loop import compute


def test_prompt_facts_count_the_tokens_the_trace_has():
    limit = backend.settings().max_prompt_tokens
    cases = ["A capital da França é a cidade de", "x", "Olá, mundo! " * (limit // 2)]  # the last is cut
    for prompt in cases:
        facts, tr = compute.prompt_facts(prompt), backend.trace(prompt)
        assert facts.n_tokens == len(tr.tokens) and facts.truncated_from == tr.truncated_from
        assert facts.info == tr.info
    assert compute.prompt_facts(cases[-1]).truncated_from is not None  # the cut was tried
