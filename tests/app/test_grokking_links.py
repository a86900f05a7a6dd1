"""Links to the grokking page carry the live run's settings and the shipped run's step; hostile values fall
back with a notice; the curves and the spectrum download as CSV and JSON."""
from tests.app.download_capture import both
from tests.app.link_helpers import open_link, query_value


def _controls(at) -> dict:
    """The live-training settings as the page's widgets hold them."""
    return {"model": at.radio(key="grok_ctl_model").value, "p": at.select_slider(key="grok_ctl_p").value,
            "frac": at.slider(key="grok_ctl_frac").value, "wd": at.select_slider(key="grok_ctl_wd").value,
            "lr": at.select_slider(key="grok_ctl_lr").value, "seed": at.number_input(key="grok_ctl_seed").value,
            "steps": at.select_slider(key="grok_ctl_steps").value}


def test_a_link_restores_the_settings_and_the_step():
    at = open_link("grokking", {"model": "transformer", "p": "23", "frac": "40", "wd": "0.5", "lr": "0.001",
                                "seed": "7", "steps": "500", "step": "1000", "lang": "en"})
    assert not at.exception
    assert _controls(at) == {"model": "transformer", "p": 23, "frac": 40, "wd": 0.5, "lr": 0.001, "seed": 7,
                             "steps": 500}
    assert at.select_slider(key="grok_ship_step").value == 1000
    assert any("step 1,000" in c.value for c in at.caption)  # the Fourier view is the linked step's
    assert not any("link" in i.value for i in at.info)  # no value was refused
    for name, value in {"p": "23", "wd": "0.5", "steps": "500", "step": "1000", "lang": "en"}.items():
        assert query_value(at, name) == value  # published back: copying the URL gives the same view


def test_hostile_values_fall_back_to_defaults_with_a_notice():
    at = open_link("grokking", {"p": "<script>alert(1)</script>", "frac": "33", "wd": "nan", "lr": "1e9",
                                "seed": "-4", "steps": "abc", "step": "3", "model": "x" * 10_000, "lang": "en"})
    assert not at.exception
    assert _controls(at) == {"model": "mlp", "p": 97, "frac": 30, "wd": 2.0, "lr": 0.01, "seed": 0, "steps": 1500}
    slider = at.select_slider(key="grok_ship_step")
    assert slider.value == int(slider.options[-1].replace(",", ""))
    notice = " ".join(i.value for i in at.info)
    for name in ("p", "frac", "wd", "lr", "seed", "steps", "step", "model"):
        assert name in notice, name


def test_the_shipped_curves_and_spectrum_download(captured):
    at = open_link("grokking", {"lang": "en", "step": "20000"})
    assert not at.exception
    curves = both(captured, "grok-ship-curves")
    assert list(curves.columns) == ["run", "step", "train_acc", "test_acc", "train_loss", "test_loss"]
    assert curves["step"].iloc[-1] == 20000 and curves["test_acc"].iloc[-1] > 0.95  # it grokked
    assert curves["train_acc"].max() == 1.0
    spectrum = both(captured, "grokking-spectrum-step-20000")
    assert list(spectrum.columns) == ["step", "k", "power", "key"]
    assert abs(spectrum["power"].sum() - 1) < 1e-3 and spectrum["key"].any()
