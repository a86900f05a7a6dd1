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


# Strings where one language names a concept and the other, rightly, does not (each with its reason).
# Empty now: every string names each concept in both languages or in neither.
ALIGNMENT_EXCEPTIONS: dict[tuple[str, str], str] = {}


def _names(term, lang: str, text: str) -> bool:
    return re.search(term.pattern(lang), _prose(text), flags=re.IGNORECASE) is not None


def alignment_mismatches(table: dict[str, tuple[str, str]]) -> list[str]:
    """Strings that name a concept by its term in one language but not in the other: there the other language
    used a second name for the same concept (issue 32: "posição" where the English says rank, "amostragem por
    núcleo" where the English never says nucleus sampling)."""
    bad = []
    for concept, term in TERMS.items():
        for key, (pt, en) in table.items():
            if key.startswith("term.") or (concept, key) in ALIGNMENT_EXCEPTIONS:
                continue
            in_pt, in_en = _names(term, "pt-BR", pt), _names(term, "en", en)
            if in_pt != in_en:
                bad.append(f"{key}: {concept} named in {'pt-BR' if in_pt else 'en'} only "
                           f"({term.pt!r} / {term.en!r})")
    return bad


def test_each_concept_is_named_in_both_languages_or_in_neither():
    table = collect()
    checked = sum(1 for term in TERMS.values() for pt, en in table.values()
                  if _names(term, "pt-BR", pt) or _names(term, "en", en))
    assert checked > 200  # the patterns find the terms: the test looked at something
    bad = alignment_mismatches(table)
    assert not bad, "\n".join(bad)


def test_the_exceptions_are_still_needed():
    table = collect()
    for concept, key in ALIGNMENT_EXCEPTIONS:
        pt, en = table[key]
        term = TERMS[concept]
        assert _names(term, "pt-BR", pt) != _names(term, "en", en), f"{key}: exception for {concept} no longer needed"


def test_no_two_concepts_share_a_name():
    """The table itself: no term is another concept's term or one of its forbidden variants."""
    for a, ta in TERMS.items():
        for b, tb in TERMS.items():
            if a == b:
                continue
            for lang, word, patterns in (("pt-BR", ta.pt, tb.pt_forbidden), ("en", ta.en, tb.en_forbidden)):
                head = word.split(" (")[0]
                assert head.lower() != (tb.pt if lang == "pt-BR" else tb.en).split(" (")[0].lower(), (a, b)
                assert not any(re.search(p, head, re.IGNORECASE) for p in patterns), (a, b, lang)


def test_every_term_matches_its_own_pattern_and_not_its_variants():
    for concept, term in TERMS.items():
        assert re.search(term.pattern("pt-BR"), term.pt, re.IGNORECASE), concept
        assert re.search(term.pattern("en"), term.en, re.IGNORECASE), concept
        for lang, word, patterns in (("pt-BR", term.pt, term.pt_forbidden), ("en", term.en, term.en_forbidden)):
            assert not any(re.search(p, word, re.IGNORECASE) for p in patterns), (concept, lang)


def test_the_second_names_issue_32_found_are_caught():
    # each pair the issue listed, on hand-made text: the table's patterns flag the second name
    def flagged(concept: str, lang: str, text: str) -> bool:
        term = TERMS[concept]
        patterns = term.pt_forbidden if lang == "pt-BR" else term.en_forbidden
        return any(re.search(p, _prose(text), re.IGNORECASE) for p in patterns)

    assert flagged("full_attention", "pt-BR", "camada de atenção global")
    assert flagged("full_attention", "en", "a global attention layer")
    assert not flagged("full_attention", "pt-BR", "camada de atenção completa")
    assert flagged("query", "pt-BR", "cada token (query) olha")
    assert not flagged("query", "pt-BR", "a consulta (query) olha")
    assert flagged("key", "pt-BR", "para quem (key)")
    assert not flagged("key", "pt-BR", "para quem (chave)")
    assert flagged("gqa", "pt-BR", "**Cabeças agrupadas.** Há 4 cabeças")
    assert flagged("gqa", "en", "**Grouped heads.** There are")
    assert flagged("logit_lens", "pt-BR", "Lente de logits: a previsão")
    assert not flagged("logit_lens", "pt-BR", "Lente de logit: a previsão")
    # the cross-language check catches a second name that no forbidden list knows ("posição" for rank)
    bad = alignment_mismatches({"x.rank": ("Nó escolhido: posição 2 do passo 3.", "Picked node: rank 2 of step 3."),
                                "x.nucleus": ("é a amostragem por núcleo.", "(the nucleus)."),
                                "x.fine": ("colocação 2", "rank 2")})
    assert any(line.startswith("x.rank: rank") for line in bad), bad
    assert any(line.startswith("x.nucleus: nucleus") for line in bad), bad
    assert not any(line.startswith("x.fine") for line in bad), bad
