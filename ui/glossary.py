"""The glossary (PT <-> EN, from the term table) and the course text's pitfalls, one button on every page."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from model_backend.runtime.memo import cached
from ui.i18n import LANGS, lang, t
from ui.nav import available, link
from ui.strings.terms import TERMS

# Where each term is shown at work (a page of the path), None when no page is about it.
WHERE = {
    "completion": "loop", "autoregressive": "loop", "logit": "pipeline", "score": "attention",
    "sampling": "temperature", "temperature": "temperature", "nucleus": "temperature", "greedy": "temperature",
    "eos": "loop", "stop_sequence": "loop", "repetition_penalty": "temperature", "finish_reason": "loop",
    "seed": "nondeterminism", "centred": "attention", "rank": "hallucination", "checkpoint": "grokking",
    "weight_decay": "grokking", "dequantize": None, "full_attention": "attention", "query": "attention",
    "key": "attention", "gqa": "attention", "mqa": "attention", "logit_lens": "pipeline", "quantization": "home",
}
# Seed 000, "Armadilhas": each pitfall and the page that shows it live.
PITFALLS = (("think", "loop"), ("confidence", "hallucination"), ("dark", "temperature"),
            ("determinism", "nondeterminism"), ("finish", "loop"))


def glossary_frame() -> pd.DataFrame:
    """One row per concept: the term in the visitor's language first, then the other, then where to see it. Built
    once per language (every page's run draws it): the table does not change while the server runs."""
    return _frame(lang())


@cached(len(LANGS))
def _frame(language: str) -> pd.DataFrame:  # `language` is lang(): t() below reads the same
    pt_first = language == "pt-BR"
    names = {"pt-BR": t("gloss.col.pt"), "en": t("gloss.col.en")}
    first, second = ("pt-BR", "en") if pt_first else ("en", "pt-BR")
    pick = {"pt-BR": lambda term: term.pt, "en": lambda term: term.en}
    return pd.DataFrame({
        names[first]: [pick[first](term) for term in TERMS.values()],
        names[second]: [pick[second](term) for term in TERMS.values()],
        t("gloss.col.where"): [t(f"nav.{WHERE[k]}") if WHERE.get(k) else "—" for k in TERMS],
    })


def button(page: str) -> None:
    """A popover with the glossary and the pitfalls; each pitfall links to the page that shows it. Its content is
    drawn only while it is open (opening or closing it reruns the page): every page's run drew its ~15 elements and
    converted the glossary's table, for every visitor and each phone of a class that follows the teacher."""
    box = st.popover(t("gloss.open"), icon=":material/menu_book:", key="glossary_open", on_change="rerun")
    if not box.open:
        return
    pages = {name for name, _ in available()}
    with box:
        st.markdown(f"**{t('gloss.title')}**")
        st.table(glossary_frame(), hide_index=True)  # our own strings only (st.table renders Markdown)
        st.caption(t("gloss.caption"))
        st.markdown(f"**{t('gloss.pitfalls')}**")
        for key, where in PITFALLS:
            st.markdown(t(f"gloss.pit.{key}"))
            if where in pages and where != page:
                link(where, label=t("gloss.see", page=t(f"nav.{where}")), icon=":material/arrow_forward:")
