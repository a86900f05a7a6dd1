"""Hallucination: every generated token with the probability the model gave it, the seed's examples, and
fact/invention pairs that measure whether confidence tells them apart (it is computed live, not claimed)."""
import streamlit as st

import model_backend as mb
from ui import hallucination_view as view
from ui.i18n import t
from ui.nav import next_page_link
from ui.share import Param, restore, share_box
from ui.widgets import intro, prompt_box

FIRST = view.config()["presets"][0]  # Einstein: shown on the first visit
PARAMS = [Param("prompt", "prompt_hallucination", str, FIRST["prompt"]),
          Param("mode", "hallucination_mode", str, "greedy", choices=("greedy", "sampled")),
          Param("T", "hallucination_T", float, 1.0, 0.1, 2.0), Param("seed", "hallucination_seed", int, 0, 0, 2**31 - 1),
          Param("n", "hallucination_n", int, FIRST["max_new_tokens"], 4, 48),
          Param("dtype", "hallucination_dtype", str, "float32", choices=view.DTYPES),
          Param("pair", "hallucination_pair", str, view.config()["pairs"][0]["id"],
                choices=tuple(p["id"] for p in view.config()["pairs"])),
          Param("run", "hallucination_run", bool, False)]  # the visitor asked for runs of new prompts


def use_preset(preset: dict) -> None:
    st.session_state["prompt_hallucination"] = st.session_state["prompt"] = preset["prompt"]
    st.session_state["hallucination_n"] = preset["max_new_tokens"]


def controls() -> tuple[mb.SamplingParams, str]:
    modes = {m: t(f"hallucination.mode.{m}") for m in ("greedy", "sampled")}
    a, b, c = st.columns([2, 2, 1])
    mode = a.segmented_control(t("hallucination.mode"), list(modes), format_func=modes.get, key="hallucination_mode",
                               help=t("hallucination.mode.help"))
    dtype = b.segmented_control(t("hallucination.dtype"), list(view.DTYPES), key="hallucination_dtype",
                                help=t("hallucination.dtype.help")) or "float32"
    n = c.number_input(t("hallucination.tokens"), 4, 48, key="hallucination_n")
    if mode != "sampled":
        return mb.SamplingParams(temperature=0, max_new_tokens=n), dtype
    a, b, c = st.columns([2, 2, 1], vertical_alignment="bottom")
    temp = a.slider(t("hallucination.temperature"), 0.1, 2.0, step=0.1, key="hallucination_T")
    seed = b.number_input(t("hallucination.seed"), 0, 2**31 - 1, key="hallucination_seed", help=t("hallucination.seed.help"))
    c.button(t("hallucination.redraw"), icon=":material/casino:",  # a click asks for the run: it runs at once
             on_click=lambda: st.session_state.update(hallucination_seed=(seed + 1) % 2**31, hallucination_run=True))
    return mb.SamplingParams(temperature=temp, seed=int(seed), max_new_tokens=n), dtype


def asked(prompt: str, params: mb.SamplingParams, dtype: str) -> bool:
    """Whether to generate now. A prompt nobody has run waits for a click (a new prompt's run is most of what
    a visit costs the server); the text's examples run at once, a run already made is shown at once, and after
    one click (or from a link made after one) every new prompt of this visitor runs as it is typed."""
    if st.session_state.get("hallucination_run") or view.preset_for(prompt) is not None:
        return True
    if view.cached(prompt, params, dtype) is not None:
        return True
    st.caption(t("hallucination.ask.hint", n=params.max_new_tokens))
    st.button(t("hallucination.ask.run"), type="primary", icon=":material/play_arrow:", key="hallucination_go",
              on_click=st.session_state.__setitem__, args=("hallucination_run", True))
    return False


def completion(prompt: str, params: mb.SamplingParams, dtype: str) -> None:
    if asked(prompt, params, dtype):
        view.completion_panel(prompt, params, dtype)


def render() -> None:
    restore("hallucination", PARAMS)
    if not st.session_state.get("_hallucination_seen"):  # first visit: the seed's example comes first
        st.session_state["_hallucination_seen"] = True
        st.session_state.setdefault("prompt_hallucination", FIRST["prompt"])
    for p in PARAMS[1:]:
        st.session_state.setdefault(p.key, p.default)
    intro("hallucination")
    with st.container(horizontal=True, vertical_alignment="center"):
        st.caption(t("hallucination.presets"))
        for preset in view.config()["presets"]:
            st.button(t(f"hallucination.preset.{preset['id']}"), key=f"hallucination_preset_{preset['id']}",
                      on_click=use_preset, args=(preset,))
    prompt = prompt_box("hallucination")
    params, dtype = controls()
    if prompt is not None:
        completion(prompt, params, dtype)
    share_box("hallucination", PARAMS)
    view.pairs_section(dtype)
    next_page_link("hallucination")


render()
