"""Seed 000's opening panel: the chat format, where the first number appears, the right answer."""
from ui.loop.compute import ANSWER, chat_text, right_answer_in


def test_a_chat_is_one_formatted_text_that_ends_where_the_model_speaks():
    text = chat_text("Oi?")
    assert text == "<bos><start_of_turn>user\nOi?<end_of_turn>\n<start_of_turn>model\n"


def test_the_answer_is_computed_and_matched_as_a_whole_number():
    assert ANSWER == 33
    assert right_answer_in("2 × 12 = 24; 24 + 9 = 33 reais", 33)
    assert not right_answer_in("333 reais", 33) and not right_answer_in("3 3", 33)
