"""The guessing round's token rules (model_backend/lessons/live.py), on the tiny model's character tokenizer:
a guess counts as its first token, with the space a word in the middle of a text would have."""
import numpy as np
import pytest

from model_backend.lessons.live import guess_token, next_token_probs
from tests.tiny import make_tokenizer

TOK = make_tokenizer()


@pytest.mark.parametrize("prompt, guess, first", [
    ("O gato", "pulou", " "),   # a word after a word: read with its space (the character tokenizer's first token)
    ("O gato ", "pulou", "p"),  # the prompt ends in a space: as typed
    ("O gato", " pulou", " "),  # the guess brings its own space
    ("O gato", ", e", ","),     # punctuation joins the word before it: as typed
    ("", "Era", "E"),           # nothing before: as typed
])
def test_a_guess_counts_as_its_first_token(prompt, guess, first):
    info = guess_token(TOK, prompt, guess)
    assert info is not None and info.text == first


def test_an_empty_guess_has_no_token():
    assert guess_token(TOK, "O gato", "") is None


def test_next_token_probs_are_the_softmax_and_keep_tiny_values_above_zero():
    logits = np.array([10.0, 0.0, -120.0, 10.0], dtype=np.float32)
    p = next_token_probs(logits, [0, 1, 2, 3])
    assert p[0] == pytest.approx(p[3]) and p[0] == pytest.approx(0.5, abs=1e-4)
    assert sum(p) == pytest.approx(1.0)
    assert p[2] > 0  # exp(-130) is 0 in float32; float64 keeps it
    assert p[1] == pytest.approx(np.exp(-10) / (2 + np.exp(-10)), rel=1e-9)


def test_a_small_probability_keeps_two_significant_digits():
    from ui.live_class import pct
    assert pct(0.182).replace(",", ".") == "18.2%"
    assert pct(0.000042).replace(",", ".") == "0.0042%"
    assert pct(0.0).replace(",", ".") == "0.0%"
    assert pct(0.0000042).replace(",", ".") == "0.00042%"


def test_a_tiny_probability_reads_as_one_in_n_not_as_a_row_of_zeros():
    from ui.live_class import pct
    shown = pct(4e-11)  # in the language another test of this process may have left
    assert shown in ("menos de 0,0001% (cerca de 1 em 25.000.000.000)", "under 0.0001% (about 1 in 25,000,000,000)")
