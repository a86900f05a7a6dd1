"""The temperature page in AppTest with the real model: both languages, sliders that run no model,
the rerun time after a slider move, greedy marked, bad logits, seeded draws."""
import time

import pytest

from tests.app.download_capture import both
from tests.app.helpers import run_page, texts
from ui import backend


def _shown(at) -> str:
    """Texts plus every table, so a change anywhere on the page counts."""
    return texts(at) + "".join(df.value.to_string() for df in at.dataframe)


def _passes() -> int:
    """Forward passes of the shared model (the same cached object the page uses)."""
    s = backend.settings()
    return backend.forward_passes(s.dtype)


@pytest.fixture(scope="module")
def page():
    return run_page("temperature", lang="en")


@pytest.mark.parametrize("lang, words", [
    ("pt-BR", ["Temperatura e amostragem", "65,9%", "19,4%", "o texto imprime", "Penalidade de repetição"]),
    ("en", ["Temperature and sampling", "65.9%", "19.4%", "the text prints", "Repetition penalty"]),
])
def test_page_renders_in_both_languages(lang, words):
    at = run_page("temperature", lang=lang)
    assert not at.exception
    shown = texts(at)
    for word in words:
        assert word in shown or any(word in str(df.value.to_string()) for df in at.dataframe), word
    assert len(at.get("vega_lite_chart")) >= 6  # curve, bars, entropy, chain, grid, pair x2
    # the live-computed seed table: T, A, B, C, the text's row, the check
    table = at.dataframe[0].value
    assert list(table.iloc[:, 1]) == (["65,9%", "86,4%", "50,2%"] if lang == "pt-BR" else ["65.9%", "86.4%", "50.2%"])
    assert "20%" in table.iloc[2, 4] and "19" in table.iloc[2, 5]  # the one rounding the text made


def test_sliders_run_no_forward_pass_and_rerun_fast(page):
    at = page
    before = _passes()
    timings = {}
    for key, value in [("temperature_T", 1.3), ("temperature_r", 1.5), ("temperature_k", 10),
                       ("temperature_p", 0.5), ("temperature_T", 0.4), ("temperature_pair_p", 0.5),
                       ("temperature_pair_T", 1.5)]:
        old = _shown(at)
        started = time.perf_counter()
        if key.startswith("temperature_pair"):
            at.slider(key=key).set_value(value).run()
        else:  # the live panel's sliders live in the browser (bound to the bars); their values in session_state
            at.session_state[key] = value
            at.run()
        timings[f"{key}={value}"] = (time.perf_counter() - started) * 1000
        assert not at.exception
        assert _shown(at) != old  # the numbers on the page changed
    assert _passes() == before, "a sampling slider ran the model"
    print("\nrerun after a slider change (ms):", {k: round(v) for k, v in timings.items()})


def test_greedy_is_marked_and_certain(page):
    at = page
    at.session_state["temperature_T"] = 0.0
    at.run()
    assert not at.exception
    shown = texts(at)
    assert "greedy" in shown
    assert any(m.value == "100.0%" for m in at.metric)  # P(most likely token)
    at.session_state["temperature_T"] = 0.7
    at.run()


def test_draws_show_their_seed(page):
    at = page
    at.number_input(key="temperature_seed").set_value(123).run()
    at.button(key="temperature_draw").click().run()
    assert not at.exception
    assert "seeded with 123" in texts(at)
    first = [c for c in at.caption if "seeded with" in c.value][0].value
    at.run()
    assert [c for c in at.caption if "seeded with" in c.value][0].value == first  # same seed, same draws


@pytest.mark.parametrize("text, message", [("abc 1", "is not a number"), ("7", "Write 2 to 10 logits"),
                                           ("<script>alert(1)</script>", "is not a number")])
def test_bad_logits_give_a_message(page, text, message):
    at = page
    at.text_input(key="temperature_logits").set_value(text).run()
    assert not at.exception
    assert any(message in w.value for w in at.warning)
    at.text_input(key="temperature_logits").set_value("3 2 1 0").run()
    assert not at.warning and "token D" in at.dataframe[0].value.columns


def test_empty_prompt_is_refused_without_losing_the_rest(page):
    at = page
    at.text_area(key="prompt_temperature").set_value("   ").run()
    assert not at.exception
    assert any("empty" in w.value for w in at.warning)
    assert "Repetition penalty" in texts(at)  # the loop section still shows
    at.text_area(key="prompt_temperature").set_value("A capital da França é a cidade de").run()


def test_a_link_carries_the_settings_and_bad_values_fall_back():
    from streamlit.testing.v1 import AppTest

    from tests.app.helpers import APP

    at = AppTest.from_file(APP, default_timeout=300)
    at.session_state["lang"] = "en"
    for k, v in {"t": "0", "k": "5", "p": "9", "logits": "1 2 3 4", "prompt": "O gato sentou no"}.items():
        at.query_params[k] = v
    at.switch_page("pages/temperature.py").run()  # straight to the page, as a shared link opens it
    assert not at.exception
    assert at.session_state["temperature_T"] == 0.0 and at.session_state["temperature_k"] == 5
    assert at.session_state["temperature_p"] == 0.9  # 9 is out of range: the default, with a notice
    assert any("p" in i.value for i in at.info)
    assert at.text_area(key="prompt_temperature").value == "O gato sentou no"
    assert "token D" in at.dataframe[0].value.columns


def test_the_files_box_holds_the_live_panels_charts_and_the_chain(captured):
    """The live panel's files are in one box, drawn only while it is open (a class's phones that follow the
    teacher's sliders do not register them at every move): the chain's table, and the bars, entropy and chain charts (and the draws once drawn) as PNG and SVG."""
    at = run_page("temperature", lang="en")
    assert not at.exception and "sampling-chain.csv" not in captured

    def images() -> list[str]:
        return [name for name in captured if name.startswith("token-by-token-chart-")]

    captured.clear()
    at.run()
    closed = len(images())  # the charts of the other panels keep their own buttons
    captured.clear()
    at.session_state["temperature_files_open"] = True
    at.run()
    assert not at.exception
    chain = both(captured, "sampling-chain")
    stages = [c for c in chain.columns if c not in ("token", "id")]
    assert stages[0] == "raw" and len(chain) > 1
    assert chain["id"].is_unique and chain["token"].astype(str).str.len().min() > 0
    for name in stages:  # the shown tokens' probabilities at each stage: a part of the whole mass
        assert chain[name].between(0, 1).all() and 0 < chain[name].sum() <= 1 + 1e-6, name
    assert len(images()) == closed + 6, images()  # bars, entropy, chain: PNG and SVG
    assert all(b"<svg" in captured[name] for name in images() if name.endswith(".svg"))
    captured.clear()
    next(b for b in at.button if b.key == "temperature_draw").click().run()
    assert len(images()) == closed + 8  # and the draws
