"""Seed 000's opening, live: a prompt and its completion, a chat as the completion of a formatted
conversation, and "each token is all the thinking it gets" (the same question answered directly and
after the model writes out the steps)."""
from __future__ import annotations

import re

import streamlit as st

import model_backend as mb
from ui import backend
from ui.i18n import fmt_int, t
from ui.widgets import model_text

# Gemma's published turn format (the instruction-tuned "-it" models are trained on it; this base model is not)
TURN = "<start_of_turn>{role}\n{text}<end_of_turn>\n"
MAX_NEW = 48
NUMBER = re.compile(r"\d+")
SUM = {"book": 12, "pen": 3, "n_books": 2, "n_pens": 3}  # the question's numbers
ANSWER = SUM["book"] * SUM["n_books"] + SUM["pen"] * SUM["n_pens"]  # 33, computed


def chat_text(question: str) -> str:
    """One user message formatted as a single text, ending where the model's turn starts: what a chat sends."""
    return "<bos>" + TURN.format(role="user", text=question) + "<start_of_turn>model\n"


def right_answer_in(text: str, answer: int) -> bool:
    return str(answer) in NUMBER.findall(text)


def thinking_case(question: str, answer: int, suffix_key: str) -> tuple[str, mb.Generation]:
    prompt = t("completion.q.prefix") + question + t(suffix_key)
    return prompt, backend.generation(prompt, mb.SamplingParams(temperature=0, max_new_tokens=MAX_NEW))


@st.fragment
def panel() -> None:
    st.header(t("completion.header"))
    st.markdown(t("completion.text"))
    question = t("completion.question", **SUM)
    st.markdown(t("completion.chat"))
    model_text(chat_text(question))
    n = len(backend.bundle_for().tokenizer(chat_text(question)[len("<bos>"):], add_special_tokens=False)["input_ids"])
    st.caption(t("completion.chat.caption", n=fmt_int(n)))

    st.subheader(t("completion.think.title"))
    st.markdown(t("completion.think.text"))
    if st.button(t("completion.think.run"), icon=":material/play_arrow:", key="completion_go"):
        st.session_state["completion_ran"] = True
    if not st.session_state.get("completion_ran"):
        st.caption(t("completion.think.hint"))
        return
    answer = ANSWER
    right = {}
    for col, key in zip(st.columns(2), ("completion.q.direct", "completion.q.steps")):
        with col:
            prompt, gen = thinking_case(question, answer, key)
            st.markdown(t(f"{key}.label"))
            model_text(prompt + gen.completion)
            right[key] = right_answer_in(gen.completion, answer)
            st.caption(t("completion.think.caption", n=fmt_int(len(gen.steps)),
                         right=t("completion.yes" if right[key] else "completion.no"), answer=answer))
    st.markdown(think_moral(right["completion.q.direct"], right["completion.q.steps"],
                            fmt_int(backend.bundle_for().info.n_params)))


def think_moral(direct: bool, steps: bool, params: str) -> str:
    """The panel's moral from its two results (review A, L10): "both ways get it wrong" only when both did."""
    case = {(False, False): "none", (False, True): "steps", (True, False): "direct", (True, True): "both"}
    return t(f"completion.think.moral.{case[direct, steps]}", params=params) + " " + t("completion.think.point")
