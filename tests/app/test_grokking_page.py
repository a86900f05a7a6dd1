"""The grokking page in AppTest: both languages, the shipped run and its scrubber, live training and comparison."""
import time

import pytest

from tests.app.helpers import run_page, texts


@pytest.mark.parametrize("lang, title, identity", [
    ("pt-BR", "Grokking: da memorização à generalização", "cos(θ_a+θ_b) = cos θ_a·cos θ_b − sen θ_a·sen θ_b"),
    ("en", "Grokking: from memorisation to generalisation", "cos(θ_a+θ_b) = cos θ_a·cos θ_b − sin θ_a·sin θ_b"),
])
def test_page_in_both_languages(lang, title, identity):
    at = run_page("grokking", lang=lang)
    assert not at.exception
    body = texts(at)
    assert title in body and identity in body
    assert "p = 113" in body and "scripts/train_grokking.py" in body
    memo, jump = at.metric[0].value, at.metric[1].value
    assert memo.replace(".", "").replace(",", "").isdigit() and jump.replace(".", "").replace(",", "").isdigit()
    assert len(at.get("vega_lite_chart")) >= 5  # accuracy, loss, spectrum and three waves


def test_the_step_scrubber_moves_the_fourier_view():
    at = run_page("grokking", lang="en")
    slider = at.select_slider(key="grok_ship_step")
    steps = [int(label.replace(",", "")) for label in slider.options]  # the options as shown: "1,000"
    assert steps[0] == 1 and slider.value == steps[-1]  # the end of training first
    assert any("Together they hold" in c.value for c in at.caption)  # key frequencies stand out
    assert any("the dots lie on the waves" in c.value for c in at.caption)
    slider.set_value(steps[0]).run()
    assert not at.exception
    assert any("None stands out: the spectrum is spread out" in c.value for c in at.caption)  # step 1
    assert any("none stands out: not clear waves yet" in m.value for m in at.markdown)  # no "waves it built"
    assert any("do not follow the waves yet" in c.value for c in at.caption)


def _until_done(at, timeout: float = 240):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        at.run()
        assert not at.exception
        if not at.button(key="grok_train").disabled:  # Train is enabled again: the run has ended
            return
        time.sleep(0.5)
    raise AssertionError("live training did not finish in time")


def test_train_live_then_compare_with_no_weight_decay():
    at = run_page("grokking", lang="en")
    assert any("Click **Train**" in i.value for i in at.info)
    at.select_slider(key="grok_ctl_p").set_value(23)
    at.select_slider(key="grok_ctl_steps").set_value(500)
    at.button(key="grok_train").click().run()
    assert not at.exception
    assert at.button(key="grok_train").disabled and not at.button(key="grok_stop").disabled  # one run at a time
    _until_done(at)
    assert any("Done: 500 steps" in s.value for s in at.success)
    assert at.session_state["_a11y_said"] == ("grokking", 1, 500)  # the live region was told that training ended
    assert "Fourier view of your run" in texts(at)
    live = at.select_slider(key="grok_live_step")
    assert live.options[0] == "1" and live.options[-1] == "500" and live.value == 500

    at.button(key="grok_compare").click().run()
    _until_done(at)
    runs = at.radio(key="grok_live_pick")
    assert runs.options == ["#1: weight decay 2.0", "#2: weight decay 0.0"] and runs.value == runs.options[-1]
    assert at.select_slider(key="grok_ctl_wd").value == 2.0  # the comparison does not change the visitor's setting


def test_stop_ends_a_live_run():
    at = run_page("grokking", lang="pt-BR")
    at.button(key="grok_train").click().run()
    time.sleep(3)
    at.run()
    at.button(key="grok_stop").click().run()
    _until_done(at)
    assert any("Parado no passo" in i.value for i in at.info)
