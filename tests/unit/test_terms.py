"""One name for each thing: no string of the app uses a forbidden variant of a term in ui/strings/terms.py,
and every term the table names is used somewhere."""
import re

import pytest

from ui.strings import collect
from ui.strings.terms import TERMS

CODE = re.compile(r"`[^`]*`|\{[^}]*\}")  # code spans and placeholders are not prose


def _prose(text: str) -> str:
    return CODE.sub(" ", text)


@pytest.mark.parametrize("concept", sorted(TERMS))
def test_no_string_uses_a_forbidden_variant(concept):
    term = TERMS[concept]
    bad = []
    for key, (pt, en) in collect().items():
        for lang, text, patterns in (("pt-BR", pt, term.pt_forbidden), ("en", en, term.en_forbidden)):
            for pattern in patterns:
                hit = re.search(pattern, _prose(text), flags=re.IGNORECASE)
                if hit:
                    bad.append(f"{key} ({lang}): {hit.group(0)!r} instead of {term.pt if lang == 'pt-BR' else term.en!r}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("concept", sorted(TERMS))
def test_every_term_is_used_somewhere(concept):
    term = TERMS[concept]
    stem = term.pt.split(" (")[0].lower()[:-2]  # "guloso" -> "gulo" also finds "gulosa"
    texts = [pt.lower() for key, (pt, _) in collect().items() if not key.startswith("term.")]
    assert any(stem in text for text in texts), term.pt


def test_the_checker_catches_what_it_should():
    # the patterns themselves, on hand-made text: a test that cannot fail is no test
    assert re.search(TERMS["seed"].pt_forbidden[0], "A seed do sorteio", re.IGNORECASE)
    assert re.search(TERMS["greedy"].pt_forbidden[0], "modo greedy", re.IGNORECASE)
    assert not re.search(TERMS["greedy"].pt_forbidden[0], "modo guloso (greedy)", re.IGNORECASE)
    assert re.search(TERMS["score"].pt_forbidden[0], "as notas", re.IGNORECASE)
    assert re.search(TERMS["centred"].pt_forbidden[0], "sem centrar", re.IGNORECASE)
    assert not re.search(TERMS["centred"].pt_forbidden[0], "sem centralizar", re.IGNORECASE)
    assert re.search(TERMS["weight_decay"].pt_forbidden[0], "com weight decay 0", re.IGNORECASE)
    assert not re.search(TERMS["weight_decay"].pt_forbidden[0], "decaimento de pesos (weight decay)", re.IGNORECASE)
    assert _prose("use `seed=1` e {seed}").strip() == "use   e"
