"""What issue 20 fixed, on the real pages: no placeholder left unfilled, one name for each layer across
pages, the published model figures, the finish-reason mapping, the cropped attention rows."""
import re

import pytest

from tests.app.helpers import run_page, texts

PLACEHOLDER = re.compile(r"\{[a-z_0-9]+\}")
LONG = "O gato sentou no tapete e dormiu a tarde inteira enquanto a chuva caía lá fora sem parar."


@pytest.mark.parametrize("page", ["pipeline", "attention", "temperature", "loop", "grokking", "nondeterminism"])
@pytest.mark.parametrize("lang", ["pt-BR", "en"])
def test_no_placeholder_is_left_unfilled(page, lang):
    at = run_page(page, lang=lang)
    assert not at.exception
    left = PLACEHOLDER.findall(texts(at))
    assert not left, left


@pytest.mark.parametrize("lang, layer", [("pt-BR", "camada 6, cabeça 2"), ("en", "layer 6, head 2")])
def test_pipeline_and_attention_name_model_layer_5_the_same(lang, layer):
    pipe = run_page("pipeline", lang=lang)
    pipe.slider(key="pipeline_att_layer").set_value(6).run()  # the pipeline's slider holds the number shown
    pipe.selectbox(key="pipeline_att_head").set_value(2).run()
    att = run_page("attention", lang=lang)
    att.selectbox(key="attention_layer").set_value(5).run()  # the attention picker holds the index
    att.radio(key="attention_head").set_value(1).run()
    assert not pipe.exception and not att.exception
    assert layer in texts(pipe).lower() and layer in texts(att).lower()


def test_model_table_and_cropped_rows_on_the_pipeline_page():
    at = run_page("pipeline", lang="en")
    at.text_area(key="prompt_pipeline").set_value(LONG).run()
    assert not at.exception
    tables = [t.value.to_string() for t in at.table]
    assert any("32 / 80 / 126" in t and "tens to hundreds of GFLOPs" in t for t in tables)
    shown = texts(at)
    assert re.search(r"the map shows only the last 16: the first \d+ \(`<bos>` among them\) are left out", shown)
    lo, hi = re.search(r"rows drawn sum to ([\d.]+)% to ([\d.]+)%", shown).groups()
    assert float(lo) <= float(hi) < 100


def test_the_loop_maps_its_finish_reason_to_two_apis():
    at = run_page("loop", lang="en", loop_max_new=3)
    next(b for b in at.button if b.label == "Generate to the end").click().run()
    assert not at.exception
    assert "Finish reason: token limit." in texts(at)
    with_openai = [tb.value for tb in at.table if any("OpenAI" in str(c) for c in tb.value.columns)]  # not the steps
    assert len(with_openai) == 1, [list(tb.value.columns) for tb in at.table]
    table = with_openai[0]
    assert list(table.iloc[:, 1]) == ['"stop"', '"length"', '"stop"'] and table.iloc[1, 0].startswith("▶")


@pytest.mark.timeout(1800)  # waits of up to 600-900 s each, one after another (a loaded 2-core machine)
def test_the_penalties_panel_runs_both_kinds_live():
    at = run_page("temperature", lang="en", timeout=900)
    next(b for b in at.button if b.label == "Generate with both, side by side").click().run(timeout=900)
    assert not at.exception
    shown = texts(at)
    assert "Divides (transformers), 1.3" in shown and "Subtracts (API): frequency 0.5, presence 0.5" in shown
    assert shown.count("Numbers counted right after 5:") >= 3
    print("\n" + "\n".join(c.value for c in at.caption if "Loop:" in c.value or "cycle" in c.value or "counted" in c.value))


@pytest.mark.parametrize("lang, title, term", [("pt-BR", "Glossário PT ↔ EN", "amostragem por núcleo (top-p)"),
                                               ("en", "Glossary PT ↔ EN", "nucleus sampling (top-p)")])
def test_every_page_opens_the_glossary_and_pitfalls(lang, title, term):
    at = run_page("home", lang=lang)
    assert not at.exception
    assert title not in texts(at) and not any(term in tbl.value.to_string() for tbl in at.table)  # drawn when open
    at.session_state["glossary_open"] = True  # the visitor opens the popover: the page reruns with its content
    at.run()
    assert not at.exception
    shown = texts(at)
    assert title in shown and ("Armadilhas" in shown or "Pitfalls" in shown)
    assert any(term in tbl.value.to_string() for tbl in at.table)


@pytest.mark.timeout(1800)  # waits of up to 600-900 s each, one after another (a loaded 2-core machine)
def test_the_presets_run_live_on_the_page_prompt():
    at = run_page("temperature", lang="en", timeout=900)
    next(b for b in at.button if b.label == "Generate both").click().run(timeout=900)
    assert not at.exception
    table = next(df.value for df in at.dataframe if "generated text" in df.value.columns)
    assert list(table["setting"]) == ["factual (T = 0)"] + ["creative (T = 0.8, top-p 0.9)"] * 3
    caption = next(c.value for c in at.caption if "Creative gave" in c.value)
    distinct = table["generated text"][1:].nunique()
    assert f"Creative gave {distinct} different" in caption


@pytest.mark.timeout(1800)  # waits of up to 600-900 s each, one after another (a loaded 2-core machine)
def test_the_loop_page_shows_a_chat_as_a_completion_and_thinking_as_text():
    at = run_page("loop", lang="en", timeout=900)  # two 48-token generations: minutes on a loaded 2-core machine
    assert any(c.value.startswith("<bos><start_of_turn>user\nA book costs 12 dollars") for c in at.code)
    next(b for b in at.button if b.label == "Ask both ways").click().run(timeout=900)
    assert not at.exception
    captions = [c.value for c in at.caption if "passes, each reading only the text before it" in c.value]
    assert len(captions) == 2 and all("right answer (33)" in c for c in captions)
    print("\n" + "\n".join(captions))
