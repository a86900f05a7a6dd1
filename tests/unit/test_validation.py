"""Arguments are checked at the edge with messages a person can act on."""
import math

import pytest

from model_backend import InvalidInput, SamplingParams, check_params, check_prompt


@pytest.mark.parametrize("text, key", [("", "prompt_empty"), ("   \n\t", "prompt_empty"), (None, "prompt_type"),
                                       ("x" * 100_001, "prompt_too_long")])
def test_bad_prompts(text, key):
    with pytest.raises(InvalidInput) as err:
        check_prompt(text)
    assert err.value.key == key


@pytest.mark.parametrize("text", ["Olá 👍🏽 👨‍👩‍👧", "עברית مرحبا", "a\u200bb\u202ec", "nul\x00and\x07bell", "<b>x</b>"])
def test_unusual_but_valid_prompts_pass(text):
    assert check_prompt(text) == text


@pytest.mark.parametrize("kwargs, key", [
    ({"temperature": -0.1}, "temperature"), ({"temperature": math.nan}, "not_finite"),
    ({"temperature": "hot"}, "not_a_number"), ({"top_k": -1}, "top_k"), ({"top_k": 2.5}, "not_integer"),
    ({"top_p": 0.0}, "top_p"), ({"top_p": 1.5}, "top_p"), ({"repetition_penalty": 0}, "repetition_penalty"),
    ({"max_new_tokens": 0}, "max_new_tokens"), ({"max_new_tokens": 257}, "max_new_tokens"),
    ({"seed": -3}, "seed"), ({"stop": ("",)}, "stop"), ({"stop": tuple("abcdefghi")}, "stop_count"),
])
def test_bad_params(kwargs, key):
    with pytest.raises(InvalidInput) as err:
        check_params(SamplingParams(**kwargs), max_new_cap=256)
    assert err.value.key == key
    assert str(err.value)  # a readable message


def test_good_params_pass():
    p = SamplingParams(temperature=0, top_k=40, top_p=0.9, repetition_penalty=1.2, max_new_tokens=256, seed=0)
    assert check_params(p, 256) is p
