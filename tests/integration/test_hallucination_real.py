"""The real Gemma 3 270M in float32: the page's premises (Einstein's invented place of death, HTML in model
text) and its numbers, checked against one independent forward pass over prompt + completion."""
import math

import pytest
import torch

from model_backend import SamplingParams, generate
from model_backend.lessons import hallucination as cf
from ui.hallucination import draw as view
from ui.hallucination.compute import CONFIG


def _independent(bundle, prompt, gen):
    """Softmax at every generated position from one plain forward pass (no KV cache, no sampling code)."""
    ids = bundle.tokenizer(prompt, add_special_tokens=True)["input_ids"]
    new = [s.token.id for s in gen.steps]
    with torch.inference_mode():
        logits = bundle.engine.forward(input_ids=torch.tensor([ids + new])).logits[0].float()  # [T, V]
    start = len(ids) - 1
    return torch.softmax(logits[start:start + len(new)], dim=-1), new  # [n_new, V]


@pytest.fixture(scope="module")
def einstein(real_bundle):
    preset = CONFIG["presets"][0]
    return preset, generate(real_bundle, preset["prompt"], SamplingParams(temperature=0, max_new_tokens=preset["max_new_tokens"]))


def test_einstein_greedy_float32_invents_the_place_of_death(einstein):
    """The preset's premise: right birth year, then a place of death that is not Princeton."""
    preset, gen = einstein
    assert gen.completion.startswith(" 1879 em Ulm")
    assert "morreu em 1955 em" in gen.completion and "Princeton" not in gen.completion
    rows = cf.token_table(gen)
    focus = cf.focus_step(rows, preset["focus"])
    assert rows[focus].token.text == preset["focus"]  # the model wrote " Paris"
    assert rows[focus].rank == 1 and rows[focus].prob < 0.25  # its top guess, with a low probability


def test_displayed_probability_and_tooltip_match_an_independent_forward_pass(real_bundle, einstein):
    preset, gen = einstein
    probs, new = _independent(real_bundle, preset["prompt"], gen)
    chips = view.chip_frame(cf.token_table(gen))
    for k, step in enumerate(gen.steps):
        assert chips.loc[k, "prob"] == step.prob
        assert step.prob == pytest.approx(float(probs[k, new[k]]), rel=2e-3, abs=1e-6)
        top = torch.topk(probs[k], len(step.top))
        assert [c.id for c in step.top][:3] == top.indices.tolist()[:3]  # order can swap only at near-ties below
        assert [chips.loc[k, f"alt{i + 1}"] for i in range(len(step.top))] == [view.alt_line(c) for c in step.top]


def test_sequence_logprob_is_the_log_of_the_whole_completions_probability(real_bundle, einstein):
    preset, gen = einstein
    probs, new = _independent(real_bundle, preset["prompt"], gen)
    whole = sum(math.log(float(probs[k, t])) for k, t in enumerate(new))
    s = cf.summarize(gen)
    assert s.seq_logprob == pytest.approx(sum(r.logprob for r in cf.token_table(gen)))
    assert s.seq_logprob == pytest.approx(whole, abs=0.02)


def test_the_model_writes_html_that_the_page_must_show_as_text(real_bundle):
    gen = generate(real_bundle, "A capital da Zemúria é a cidade de", SamplingParams(temperature=0, max_new_tokens=10))
    assert "<strong>" in gen.completion
