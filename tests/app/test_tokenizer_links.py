"""The tokenizer page from a link: the text, the token picked and the neighbour and map inputs come back,
hostile values fall back to the defaults with a notice, and the downloads hold what the page shows."""
import pytest

from tests.app.download_capture import both
from tests.app.link_helpers import chart_frames, open_link, query_value
from tests.app.test_tokenizer_page import token_table
from ui.tokenizer.compute import PRESETS

TEXT = "O gato sentou no tapete."
WORDS = "rei, rainha, gato, Paris"
LINK = {"prompt": TEXT, "special": "0", "pos": "3", "word": "Paris", "space": "0", "k": "7", "words": WORDS,
        "lang": "en", "projection": "1"}


@pytest.fixture(scope="module")
def gemma():
    from tests.app.test_tokenizer_page import gemma

    return gemma()


def _picker(at):
    return next(s for s in at.selectbox if s.key and s.key.startswith("tok_pick_"))


def test_a_link_restores_the_text_and_every_setting(captured, gemma):
    at = open_link("tokenizer", LINK)
    assert not at.exception
    assert at.session_state["projection"] is True  # projection mode from the link: every chart drawn in it
    assert at.text_input(key="prompt_tokenizer").value == TEXT
    assert at.toggle(key="tok_special").value is False
    ids = gemma(TEXT, add_special_tokens=False)["input_ids"]
    table = token_table(at)
    assert list(table["ID"]) == ids  # the same tokens, without <bos> as the link said
    assert _picker(at).value == 3 and f"at position **{gemma(TEXT)['input_ids'][3]:,}**" in " ".join(
        m.value for m in at.markdown)
    assert at.text_input(key="tok_word").value == "Paris" and at.checkbox(key="tok_space").value is False
    assert at.slider(key="tok_k").value == 7 and at.text_area(key="tok_words").value == WORDS
    assert not [i for i in at.info if "invalid" in i.value]
    for name, value in LINK.items():
        if name != "lang":
            assert query_value(at, name) == value, name  # the page publishes the same view back
    assert any("word=Paris" in c.value and "k=7" in c.value for c in at.text)  # the copyable link

    frames = chart_frames(at)
    bars = next(f for f in frames if "cosine" in f.columns)
    dots = next(f for f in frames if {"word", "x", "y"} <= set(f.columns))
    cost = next(f for f in frames if {"tokenizer", "lang", "tokens"} <= set(f.columns))
    # The downloads hold the values shown: the table, every tokenizer's tokens, the row, neighbours, map, cost.
    tokens = both(captured, "tokens")
    assert list(tokens["ID"]) == ids and list(tokens["token"]) == list(table["token"])
    by = both(captured, "tokens-by-tokenizer")
    assert list(by[by["tokenizer"] == by["tokenizer"].iloc[0]]["id"]) == gemma(TEXT)["input_ids"]  # the model's own first
    assert len(set(by["tokenizer"])) >= 2
    row = both(captured, f"embedding-row-{gemma(TEXT)['input_ids'][3]}")
    assert len(row) == 640 and list(row["dim"]) == list(range(640))
    nb = both(captured, "neighbours")
    assert len(nb) == 7 and list(nb["id"]) == list(bars["id"]) and set(nb["query"]) == {"Paris"}  # no space
    assert [round(c, 6) for c in nb["cosine"]] == [round(c, 6) for c in bars["cosine"]]
    words = both(captured, "word-map")
    assert list(words["word"]) == ["rei", "rainha", "gato", "Paris"] == list(dots["word"])
    assert [round(v, 6) for v in words["pc1"]] == [round(v, 6) for v in dots["x"]]
    costs = both(captured, "tokens-pt-en")
    for _, c in costs.iterrows():
        shown = cost[cost["tokenizer"] == c["tokenizer"]]["tokens"]
        assert sorted(shown) == sorted([c["pt_tokens"], c["en_tokens"]])


@pytest.mark.parametrize("value", ["<img src=x onerror=alert(1)>", "nan", "x" * 10_000, "99999999999999999999"])
def test_hostile_link_values_fall_back_with_a_notice(value):
    names = ["prompt", "special", "pos", "word", "space", "k", "words"]
    at = open_link("tokenizer", {**{k: value for k in names}, "lang": "en"})
    assert not at.exception
    notice = " ".join(i.value for i in at.info)
    too_long = len(value) > 2_000
    rejected = ["special", "pos", "space", "k"] + (["prompt", "word", "words"] if too_long else [])
    for name in rejected:
        assert name in notice, (name, notice)
    assert at.toggle(key="tok_special").value is True and at.checkbox(key="tok_space").value is True
    assert at.slider(key="tok_k").value == 10
    assert at.text_input(key="prompt_tokenizer").value == (PRESETS["hello"] if too_long else value)
    assert at.text_input(key="tok_word").value == ("gato" if too_long else value)
    for md in at.markdown:
        assert "<img" not in md.value
