"""The tokenizer page in AppTest: both languages, the IDs shown, presets, bad input, the embedding panels."""
import time

import pytest

from tests.app.helpers import run_page, texts
from tests.app.link_helpers import tables
from ui.tokenizer.compute import PRESETS
from ui.tokenizer.draw import MAX_CHIPS


def token_table(at):
    """The token table: the only dataframe with an ID column next to a vocabulary piece column."""
    return next(df for df in tables(at) if "ID" in df.columns and len(df.columns) == 7)


def gemma():
    from transformers import AutoTokenizer

    from model_backend.runtime.config import load_settings
    from model_backend.runtime.loading import cache_path

    return AutoTokenizer.from_pretrained(str(cache_path("gemma3-270m", load_settings())))


@pytest.fixture(scope="module")
def tokenizer():
    return gemma()


@pytest.mark.parametrize("lang, title, compare", [("pt-BR", "Tokenizador", "tokenizadores diferentes"),
                                                   ("en", "Tokenizer", "different tokenizers")])
def test_page_in_both_languages(lang, title, compare):
    at = run_page("tokenizer", lang=lang)
    assert not at.exception
    shown = texts(at)
    assert title in shown and compare in shown
    assert "SmolLM2 135M" in shown and "262" in shown and "49" in shown  # both vocabularies named
    box = at.text_input(key="prompt_tokenizer").value
    assert list(token_table(at)["ID"]) == gemma()(box)["input_ids"]


def test_ids_shown_equal_the_tokenizers_own(tokenizer):
    at = run_page("tokenizer", lang="en")
    at.button(key="tok_preset_hello").click().run()
    table = token_table(at)
    assert list(table["ID"]) == tokenizer(PRESETS["hello"])["input_ids"]
    assert list(table["token"]) == ["<bos>", "Olá", ",", "·mundo", "!"]
    at.toggle(key="tok_special").set_value(False).run()
    assert list(token_table(at)["ID"]) == tokenizer(PRESETS["hello"], add_special_tokens=False)["input_ids"]


def test_presets_fill_the_box_and_the_shared_prompt(tokenizer):
    at = run_page("tokenizer", lang="en")
    at.button(key="tok_preset_emoji").click().run()
    assert not at.exception
    assert at.text_input(key="prompt_tokenizer").value == PRESETS["emoji"]
    assert at.session_state["prompt"] == PRESETS["emoji"]
    table = token_table(at)
    assert list(table["ID"]) == tokenizer(PRESETS["emoji"])["input_ids"]
    assert {"<0xEA>", "<0x99>", "<0xAE>"} <= set(table["token"])  # ꙮ falls back to bytes
    assert "pieces of one character" in texts(at)


def test_typing_updates_counts_and_the_one_hot_panel(tokenizer):
    at = run_page("tokenizer", lang="en")
    at.text_input(key="prompt_tokenizer").set_value("O gato sentou no tapete.").run()
    assert not at.exception
    ids = tokenizer("O gato sentou no tapete.")["input_ids"]
    assert list(token_table(at)["ID"]) == ids
    chars, tokens, ratio = (m.value for m in at.metric[:3])  # the comparison columns add more below
    assert chars == "24" and tokens == str(len(ids) - 1) and ratio == f"{24 / (len(ids) - 1):.2f}"
    picker = next(s for s in at.selectbox if s.key and s.key.startswith("tok_pick_"))
    picker.set_value(2).run()  # position 2 = the second text token
    assert f"at position **{ids[2]:,}**" in texts(at)
    assert "exactly equal" in texts(at)


def test_empty_box_gets_a_message_and_the_rest_of_the_page_stays():
    at = run_page("tokenizer", lang="en")
    at.text_input(key="prompt_tokenizer").set_value("   ").run()
    assert not at.exception
    assert any("empty" in w.value for w in at.warning)
    assert "nearest neighbours" in texts(at)


def test_twenty_thousand_characters_are_capped_and_said(tokenizer):
    text = ("Olá, mundo! O gato sentou no tapete. 1879 " * 500)[:20_000]
    at = run_page("tokenizer", lang="en")
    started = time.perf_counter()
    at.text_input(key="prompt_tokenizer").set_value(text).run()
    seconds = time.perf_counter() - started
    assert not at.exception
    n = len(tokenizer(text)["input_ids"])
    assert f"Showing the first {MAX_CHIPS} of {n:,} tokens" in texts(at)
    assert len(token_table(at)) == n  # the table (and its CSV) keep every token
    assert at.metric[0].value == "20,000"
    print(f"20,000 characters: page rerun in {seconds:.1f} s")
    assert seconds < 60


def test_control_characters_and_html_are_shown_as_text():
    at = run_page("tokenizer", lang="en")
    at.text_input(key="prompt_tokenizer").set_value("<script>alert(1)</script>\x07\tfim").run()
    assert not at.exception
    for md in at.markdown:
        assert "<script>" not in md.value
    labels = list(token_table(at)["token"])
    assert "<0x07>" in labels and "⇥" in "".join(labels)  # BEL has no token: its byte, shown visibly
    assert "<script>" in "".join(labels)  # the HTML is there, as text in a table cell
    at.text_input(key="prompt_tokenizer").set_value("a\u200bb \u202eabc مرحبا").run()  # zero-width, RTL override
    assert not at.exception
    assert list(token_table(at)["token"]) == ["<bos>", "a", "[U+200B]", "b", "·", "[U+202E]", "abc", "·مرحبا"]


def test_neighbours_and_word_map():
    at = run_page("tokenizer", lang="pt-BR")
    assert any("·gato (ID" in c.value for c in at.code)
    assert "262.144 linhas" in texts(at)  # every row of the matrix was searched
    at.text_input(key="tok_word").set_value("Paris").run()
    assert not at.exception
    assert any("·Paris" in c.value for c in at.code)
    at.text_input(key="tok_word").set_value("  ").run()
    assert any("Digite uma palavra" in w.value for w in at.warning)
    at.text_area(key="tok_words").set_value("rei, rainha").run()
    assert any("pelo menos 3" in w.value for w in at.warning)
    at.text_area(key="tok_words").set_value("rei, rainha, gato, Paris").run()
    assert not at.exception
    assert "PC1 guarda" in texts(at)
