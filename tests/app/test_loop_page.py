"""The loop page: stepping makes tokens one forward pass at a time, the finish reason is shown, and a step
already taken is never recomputed when only the view changes."""
import html

import pytest

from model_backend.core.tokens import visible
from tests.app.helpers import run_page, texts
from ui import backend

BUTTONS = {"pt-BR": ("Próximo token", "Gerar até o fim"), "en": ("Next token", "Generate to the end")}


def _passes() -> int:
    return backend.forward_passes()


def _button(at, label):
    return next(b for b in at.button if b.label == label)


def _run(at):
    """The visitor's current run, as the page keeps it."""
    return next(reversed(at.session_state["loop_runs"].values()))


@pytest.mark.parametrize("lang, title", [("pt-BR", "O loop autoregressivo"), ("en", "The autoregressive loop")])
def test_next_token_steps_once_in_both_languages(lang, title):
    """One step is one forward pass. The first click runs the prefill; once a step is shown the next one is
    computed ahead (LoopRun.look_ahead), so the next click shows it without a pass of its own, and starts one."""
    at = run_page("loop", lang=lang)
    assert not at.exception and title in texts(at)
    prompt = at.text_area(key="prompt_loop").value
    before = _passes()
    _button(at, BUTTONS[lang][0]).click().run()
    assert not at.exception
    run = _run(at)
    assert len(run.steps) == 1 and run.steps[0].phase == "prefill"
    word = "Escolhido" if lang == "pt-BR" else "Chosen"  # the chart's text names the bar its colour marks
    said = [h.proto.body for h in at.get("html") if word in h.proto.body]
    assert said and html.escape(visible(run.steps[0].token.text) or "∅") in said[0], said
    assert any(c.value == prompt + run.steps[0].text for c in at.code)  # the growing text
    assert run.ahead is not None
    ahead = run.ahead.result(timeout=60)  # the second step, computed while the visitor reads the first
    assert _passes() == before + 2 and ahead.index == 1 and ahead.phase == "decode"
    _button(at, BUTTONS[lang][0]).click().run()
    assert not at.exception
    assert len(_run(at).steps) == 2 and _run(at).steps[1] is ahead  # shown, not computed again
    assert any(c.value == prompt + _run(at).steps[1].text for c in at.code)
    _run(at).ahead.result(timeout=60)
    assert _passes() == before + 3  # the third step, ahead


def test_steps_computed_ahead_are_the_steps_the_loop_makes():
    """A run clicked through step by step (each step after the first computed ahead) makes the tokens, the
    probabilities and the finish reason that one uninterrupted run of the loop makes with the same seed (the
    same process and threads: the same pass, so equal to the last bit; 1e-6 leaves room for nothing else)."""
    import model_backend as mb

    at = run_page("loop", lang="en")
    at.number_input(key="loop_max_new").set_value(6).run()
    while not _run(at).done:
        _button(at, "Next token").click().run()
        assert not at.exception
    run = _run(at)
    assert run.ahead is None  # nothing is computed after the last step
    whole = mb.generate(backend.bundle_for(), run.prompt, run.params)
    assert [s.token.id for s in run.steps] == [s.token.id for s in whole.steps]
    assert [s.prob for s in run.steps] == pytest.approx([s.prob for s in whole.steps], abs=1e-6)
    assert run.result.finish_reason == whole.finish_reason == "length" and run.result.completion == whole.completion


def test_changing_the_view_never_recomputes_a_step():
    at = run_page("loop", lang="en")
    at.number_input(key="loop_max_new").set_value(3).run()
    _button(at, "Generate to the end").click().run()
    assert not at.exception
    steps = list(_run(at).steps)
    assert len(steps) == 3
    before = _passes()
    assert not any(s.key == "loop_inspect" for s in at.slider)  # the inspector is drawn only when opened
    at.session_state["loop_inspect_open"] = True  # open its expander
    at.run()
    at.slider(key="loop_inspect").set_value(1).run()
    at.text_area(key="prompt_loop").set_value(at.text_area(key="prompt_loop").value).run()
    assert not at.exception
    assert _passes() == before
    assert _run(at).steps == steps  # the very same Step objects
    assert "Input of step 1" in texts(at)


def test_max_new_tokens_1_shows_length_with_the_truncation_warning():
    at = run_page("loop", lang="en")
    at.number_input(key="loop_max_new").set_value(1).run()
    _button(at, "Next token").click().run()
    assert not at.exception
    warnings = " ".join(w.value for w in at.warning)
    assert "token limit" in warnings and "max_new_tokens ceiling (1)" in warnings and "not a finished answer" in warnings
    assert _run(at).result.finish_reason == "length"
    assert _button(at, "Next token").disabled  # the loop is over


def test_a_stop_sequence_from_the_greedy_text_shows_stop_sequence():
    at = run_page("loop", lang="pt-BR")
    at.slider(key="loop_temperature").set_value(0.0).run()
    at.number_input(key="loop_max_new").set_value(4).run()
    _button(at, "Gerar até o fim").click().run()
    greedy = _run(at)
    assert greedy.params.greedy and greedy.result is not None
    stop = greedy.steps[2].token.text.strip() or greedy.steps[2].token.text  # a piece of the third token
    assert stop in greedy.result.completion
    at.multiselect(key="loop_stop").set_value([stop]).run()
    _button(at, "Gerar até o fim").click().run()
    assert not at.exception
    result = _run(at).result
    assert result.finish_reason == "stop_sequence" and result.stop_sequence == stop
    assert stop not in result.completion
    infos = " ".join(i.value for i in at.info)
    assert "Motivo de parada: sequência de parada." in infos
    assert any(c.value == stop for c in at.code)  # the stop sequence is shown as text


def test_html_prompt_and_bad_settings_are_handled():
    at = run_page("loop", lang="en")
    at.text_area(key="prompt_loop").set_value("<script>alert(1)</script>").run()
    at.number_input(key="loop_max_new").set_value(1).run()
    _button(at, "Next token").click().run()
    assert not at.exception
    for md in at.markdown:
        assert "<script>" not in md.value
    at.text_area(key="prompt_loop").set_value("").run()
    assert not at.exception
    assert any("empty" in w.value for w in at.warning)


def test_a_20000_character_prompt_is_cut_with_a_message_and_still_steps():
    at = run_page("loop", lang="en")
    at.text_area(key="prompt_loop").set_value("palavra " * 2500).run()
    at.number_input(key="loop_max_new").set_value(1).run()
    _button(at, "Next token").click().run()
    assert not at.exception
    assert any("512" in i.value for i in at.info)  # the truncation notice
    assert _run(at).result.finish_reason == "length" and len(_run(at).result.prompt_tokens) == 512


def test_html_from_the_model_is_shown_as_text_in_both_modes():
    """The real model writes <strong> after "Olá, mundo!" (tests/integration/test_real_model.py). The page shows
    it verbatim in st.code, in the steps window (st.table, whose cells reach Markdown only escaped) and in the
    "All steps" table; no Markdown element on the page carries it."""
    from tests.app.link_helpers import open_link, tables
    from tests.markdown_check import unescaped
    from ui.loop.draw import STEP_WINDOW

    for projection in ("0", "1"):
        # 16 tokens: float32 writes <strong> at the 15th, bfloat16 at the 8th (and </strong> at the 13th), so the
        # window of the newest 10 holds one in either precision
        at = open_link("loop", {"prompt": "Olá, mundo!", "temperature": "0", "max_new": "16", "lang": "en",
                                "projection": projection})
        _button(at, BUTTONS["en"][1]).click().run()
        assert not at.exception
        run = _run(at)
        assert "<strong>" in run.result.completion
        assert any(c.value == "Olá, mundo!" + run.result.completion for c in at.code)  # the text, verbatim
        window = next(df for df in tables(at) if "phase" in df.columns)
        assert list(window["token"]) == [s.token.display for s in run.steps[-STEP_WINDOW:]]  # what the reader sees
        at.session_state["loop_steps_all_open"] = True  # "All steps": every step, drawn while open
        at.run()
        every = [df for df in tables(at) if "phase" in df.columns]  # the window and "All steps"
        full = max(every, key=len)
        assert len(every) == 2 and list(full["token"]) == [s.token.display for s in run.steps]
        assert "<strong>" in "".join(full["token"])
        cells = [v for t in at.table for col in t.value.columns for v in t.value[col] if isinstance(v, str)]
        assert any("strong" in v for v in cells)  # the steps window is an st.table in both modes
        for cell in cells:
            assert "<" not in unescaped(cell), cell  # "\\<": the renderer shows "<" and never reads a tag
        for source in [m.value for m in at.markdown] + [c.value for c in at.caption]:
            assert "strong>" not in source, source


def test_the_steps_window_holds_the_newest_steps_and_all_steps_holds_every_one():
    """The steps window shows the newest STEP_WINDOW steps, oldest first (the step just taken is the bottom row),
    says how many it leaves out, and "All steps" (drawn only while open) holds every one."""
    from tests.app.link_helpers import open_link, tables
    from ui.loop.draw import STEP_WINDOW

    at = open_link("loop", {"prompt": "O gato", "temperature": "0", "max_new": str(STEP_WINDOW + 3), "lang": "en"})
    for n in (1, STEP_WINDOW + 2):
        while len(_run(at).steps) < n:
            _button(at, "Next token").click().run()
            assert not at.exception
        steps = _run(at).steps
        window = [df for df in tables(at) if "phase" in df.columns]
        assert len(window) == 1  # "All steps" is closed: not drawn
        assert list(window[0]["step"]) == [s.index + 1 for s in steps[-STEP_WINDOW:]]
        assert list(window[0]["token"]) == [s.token.display for s in steps[-STEP_WINDOW:]]
        left_out = [c.value for c in at.caption if "steps;" in c.value]
        assert left_out == ([f"The newest {STEP_WINDOW} of {n} steps; every one is under \"All steps\" just below."]
                            if n > STEP_WINDOW else [])
    at.session_state["loop_steps_all_open"] = True
    at.run()
    full = max((df for df in tables(at) if "phase" in df.columns), key=len)
    assert list(full["step"]) == list(range(1, STEP_WINDOW + 3))


def test_the_thinking_moral_follows_the_two_live_answers(monkeypatch):
    """L10: the moral under "ask both ways" is chosen from the two answers the page just showed."""
    import re

    import ui.i18n
    from ui.loop.compute import ANSWER
    from ui.loop.draw import think_moral

    at = run_page("loop", lang="en", timeout=600)
    at.button(key="completion_go").click().run(timeout=600)
    assert not at.exception
    shown = texts(at)
    found = re.findall(rf"\({ANSWER}\)\? (yes|no)", shown)  # the two captions, in page order: direct, steps
    assert len(found) == 2, found
    monkeypatch.setattr(ui.i18n, "lang", lambda: "en")  # the expected sentence, in the page's language
    first = think_moral(found[0] == "yes", found[1] == "yes", "X").split(":")[0].split(".")[0]
    assert first in shown and first.startswith("Here")
