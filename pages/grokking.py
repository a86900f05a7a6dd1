"""Grokking: a model of a + b mod p memorises first and generalises thousands of steps later; inside, waves.
Layout only: ui.grokking.compute loads, trains and measures; ui.grokking.draw draws."""
from dataclasses import replace

import streamlit as st

from model_backend.lessons.grokking import GrokConfig
from model_backend.lessons.grokking.training import GROKKED_AT
from ui.grokking import compute, draw
from ui.i18n import t
from ui.nav import next_page_link
from ui.share import restore, share_box
from ui.widgets import intro


def shipped_section(run) -> None:
    """The run shipped in assets/: curves with the phases marked, then its Fourier view with a step scrubber."""
    if run is None:
        draw.missing()
        return
    draw.shipped_intro(run.config)
    steps = [int(s) for s in run.checkpoint_steps]
    draw.curve_panel("grok_ship", [("p = " + str(run.config.p), run.curves)], steps,
                     compute.phases(run.curves, p=run.config.p))
    st.caption(t("grokking.shipped.same"))
    st.header(t("grokking.fourier.header"))
    st.markdown(t("grokking.fourier.text"))
    draw.fourier_panel("grok_ship", compute.shipped_fourier(draw.step_slider("grok_ship", steps)))
    st.markdown(t("grokking.identity"))


def live_panel() -> None:
    """The live-training panel: a fragment that reruns every REDRAW_S s while a run trains, and not otherwise.
    (A fragment that loops cannot see its own Stop button: Streamlit queues a fragment's widget events until the
    fragment's run ends. Short periodic runs keep every button live.)"""
    runs = draw.runs()
    ticking = bool(runs) and runs[-1][1].running
    st.session_state["grok_ticking"] = ticking
    draw.controls(disabled=ticking)  # outside the fragment: drawn once per full run, not at every tick
    st.fragment(live_body, run_every=compute.REDRAW_S if ticking else None)()


def live_body() -> None:
    """Train / Stop / Compare, then the growing curves or the finished run with its Fourier view."""
    runs = draw.runs()
    running = bool(runs) and runs[-1][1].running
    if running != st.session_state.get("grok_ticking"):
        st.rerun(scope="app")  # a run started or ended: draw the controls and the fragment again, ticking or not
    train, stop, compare = draw.buttons(running)
    if stop and running:
        runs[-1][1].stop()  # the run sends a last checkpoint and ends; the next tick sees it
    elif (train or compare) and not running:
        cfg = draw.config_from_state()
        run = compute.start(replace(cfg, weight_decay=0.0) if compare else cfg)
        if run is None:
            draw.busy()  # every training slot is taken
        else:
            draw.keep(run.cfg, run)
            st.rerun(scope="app")  # start ticking
    curves = [(label, compute.run_curves(r)) for label, r in runs if r.snapshots]
    if running:
        runs[-1][1].touch()  # "still watching": a run nobody redraws stops by itself after IDLE_S
        draw.ticking(runs[-1][1], curves, compute.phases(curves[-1][1]) if curves else compute.Phases(None, None),
                     max(r.cfg.max_steps for _, r in runs))
    elif not runs:
        draw.empty()
    else:
        draw.outcome(runs)
        if curves:  # a finished (or stopped) run: its curves with the phases, then the Fourier view of a chosen run
            pick = draw.pick_run([label for label, _ in curves])
            run = dict(runs)[pick]
            ckpts = [s for s in run.snapshots if s.embedding is not None]
            steps = [s.step for s in ckpts]
            draw.curve_panel("grok_live", [c for c in curves if c[0] != pick] + [c for c in curves if c[0] == pick],
                             steps, compute.phases(dict(curves)[pick]))
            draw.fourier_header_live()
            draw.fourier_panel("grok_live", compute.fourier(steps, [s.embedding for s in ckpts],
                                                            draw.step_slider("grok_live", steps)))


def render() -> None:
    run = compute.shipped()
    params = draw.link_params(run.checkpoint_steps if run is not None else ())
    restore("grokking", params)  # a shared link's settings, before any widget exists
    intro("grokking")
    shipped_section(run)
    draw.live_intro(*compute.measured_grok_seconds(), GrokConfig().d_hidden, GROKKED_AT)
    live_panel()
    share_box("grokking", params)
    next_page_link("grokking")


render()
