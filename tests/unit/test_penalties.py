"""The API kind of penalty (subtractive frequency and presence) against transformers' multiplicative
repetition penalty, on hand-made score tensors: exact values, input untouched."""
import pytest
import torch
from transformers import RepetitionPenaltyLogitsProcessor

from model_backend.core.sampling import FrequencyPresencePenaltyLogitsProcessor as Sub


def _ids(*ids):
    return torch.tensor([list(ids)], dtype=torch.long)


def test_frequency_and_presence_subtract_by_count_and_once():
    scores = torch.tensor([[2.0, 1.0, -1.0, 0.5]])
    before = scores.clone()
    out = Sub(frequency_penalty=0.5, presence_penalty=0.25)(_ids(0, 1, 0), scores)
    # token 0 twice: 2 - 2*0.5 - 0.25; token 1 once: 1 - 0.5 - 0.25; tokens 2, 3 never: unchanged
    assert out.tolist() == [[0.75, 0.25, -1.0, 0.5]]
    assert torch.equal(scores, before)  # not changed in place


def test_the_prompt_is_not_counted():
    scores = torch.tensor([[1.0, 1.0, 1.0]])
    out = Sub(frequency_penalty=1.0, presence_penalty=0.0, prompt_length=2)(_ids(0, 1, 1, 2), scores)
    assert out.tolist() == [[1.0, 0.0, 0.0]]  # prompt = tokens 0, 1; generated = 1, 2


def test_zero_penalties_change_nothing_and_batches_count_per_row():
    scores = torch.tensor([[0.5, -0.5], [3.0, 2.0]])
    assert torch.equal(Sub()(torch.tensor([[0, 1], [1, 1]]), scores), scores)
    out = Sub(frequency_penalty=1.0)(torch.tensor([[0, 0], [1, 1]]), scores)
    assert out.tolist() == [[-1.5, -0.5], [3.0, 0.0]]


def test_negative_penalties_encourage_repetition():
    out = Sub(frequency_penalty=-0.5, presence_penalty=-1.0)(_ids(1), torch.tensor([[0.0, 0.0]]))
    assert out.tolist() == [[0.0, 1.5]]


def test_against_the_multiplicative_kind():
    scores = torch.tensor([[2.0, 1.0, -1.0, 0.5]])
    ids = _ids(0, 1, 0, 2)
    mult = RepetitionPenaltyLogitsProcessor(2.0)(ids, scores.clone())
    # transformers: positive logits divided, negative multiplied, once per token present, however often
    assert mult.tolist() == [[1.0, 0.5, -2.0, 0.5]]
    sub = Sub(frequency_penalty=1.0)(ids, scores)
    assert sub.tolist() == [[0.0, 0.0, -2.0, 0.5]]  # grows with the count: token 0 (twice) loses 2


@pytest.mark.parametrize("kwargs", [{"frequency_penalty": float("nan")}, {"presence_penalty": float("inf")},
                                    {"prompt_length": -1}])
def test_bad_arguments_say_what_is_wrong(kwargs):
    with pytest.raises(ValueError, match="has to be"):
        Sub(**kwargs)


def test_greedy_runs_use_generate_with_each_kind(tiny_bundle):
    from model_backend.lessons.temperature import greedy_run, processors
    assert len(processors("none", 3)) == 0
    assert isinstance(processors("subtractive", 3, frequency=1.0)[0], Sub)
    assert isinstance(processors("multiplicative", 3, repetition=1.3)[0], RepetitionPenaltyLogitsProcessor)
    plain = greedy_run(tiny_bundle, "o gato", "none", 6)
    same = greedy_run(tiny_bundle, "o gato", "subtractive", 6, frequency=0.0, presence=0.0)
    assert plain.token_ids == same.token_ids and 1 <= len(plain.token_ids) <= 6  # zero penalty = no penalty
    heavy = greedy_run(tiny_bundle, "o gato", "subtractive", 6, frequency=100.0, presence=100.0)
    generated = [i for i in heavy.token_ids if i != tiny_bundle.tokenizer.eos_token_id]
    assert len(generated) == len(set(generated))  # a huge penalty: no generated token comes back


def test_the_example_table_shows_both_kinds_computed():
    from ui.temperature.penalties import example_frame
    df = example_frame(2.0, 1.0, 0.5)
    mult, sub = df.iloc[:, 3].tolist(), df.iloc[:, 4].tolist()
    assert df.iloc[:, 1].tolist() == [2, 1, 1, 0]  # A twice, B once, C once, D never
    norm = [v.replace(",", ".") for v in mult]
    assert norm == ["1.00", "0.50", "-2.00", "0.50"]  # divided (or multiplied) once, whatever the count
    assert [v.replace(",", ".") for v in sub] == ["-0.50", "-0.50", "-2.50", "0.50"]  # A: 2 - 2·1 - 0.5
