"""No number typed into a visible sentence unless it is a placeholder, a year, a citation or on the allow-list.

Issue 32: numbers the code knows or measures ("passo 700", "top-k 40", "mais da metade") were typed into
strings and went stale. Every digit left in a string after removing {placeholders}, `code`, years and
citations must be a name (GPT-4, float32), a definition (temperature 0 means greedy, a one-hot has one 1, a
row sums to 100%) or have its own entry below, with the reason it is not computed.
"""
import re

import pytest

from ui.strings import collect

CODE = re.compile(r"`[^`]*`|\{[^}]*\}")
YEAR = re.compile(r"(?<![\d.,])(1[6-9]\d\d|20\d\d)(?![\d.,]\d)")
CITATION = re.compile(r"\b(tabela|table|Fig\.|seção|section)\s+\d+(\.\d+)*|\bseed \d{3}\b|\brev\. [0-9a-f]{7,}\b",
                      re.IGNORECASE)
# Names that contain digits: models, number formats, quantization types, norms, file formats, ordinals.
NAMES = re.compile(
    r"\b(b?float(16|32)|FP16|BF16|Q\d_K(_M)?|Q\d_0|GPT-\d|Gemma \d|Llama \d(\.\d)?|Claude \d(\.\d)?|SmolLM\d|L2|"
    r"UTF-8|PC\d|distinct-\d|Wikitext-\d|\d-gram(a)?s?|\d-token|\d-time|\d(st|nd|rd|th)|\d+º|2\^63|2π|0x\.\.)",
    re.IGNORECASE)
HEADER = re.compile(r"^\d\.\s")  # a numbered section header: "3. Ponto flutuante"
# Definitions: temperature 0 is greedy, 1 switches a filter off, a one-hot vector has one 1 and zeros,
# probabilities sum to 1 (100%), keys and values are 2 (and a FLOP count is 2 x parameters), -1 = "the last".
DEFINITIONS = {"0", "1", "0.", "1.", "0,", "1,", "100%", "2", "-1", "−1", "100"}
NUMBER = re.compile(r"[-−]?\d+(?:[.,]\d+)*%?[.,]?")

# key -> the numbers that stay in it, and why (each entry is checked to be still needed).
ALLOWED: dict[str, tuple[set[str], str]] = {
    "live.cite": ({"29%", "125"}, "Shlegeris et al. (2022)'s published figures (humans' top-1, the smallest model), cited"),
    # the course text's own example numbers, quoted so the page can check them against the computation
    "temperature.seed.text": ({"2,0", "1,0", "0,1", "2.0", "1.0", "0.1"}, "seed 000's logits [2,0 · 1,0 · 0,1], quoted"),
    "temperature.seed.default": ({"2,0", "1,0", "0,1", "2.0", "1.0", "0.1"}, "seed 000's logits, the input's default"),
    "temperature.seed.caption_own": ({"2,0", "1,0", "0,1", "2.0", "1.0", "0.1"}, "seed 000's logits, named"),
    "temperature.seed.help": ({"2,0", "1,0", "0,1", "2.0", "1.0", "0.1", "3"}, "input examples, not results"),
    "temperature.err.logits_number": ({"2,0", "-1.5", "2.0"}, "an example of valid input in an error message"),
    "presets.text": ({"0,7", "1,0", "0,9", "0.7", "1.0", "0.9"}, "seed 000's advice (T ~0,7-1,0 + top_p ~0,9), quoted"),
    "mlp.cmp.classic": ({"4"}, "the course text's classic MLP expands 4x (seed 004), quoted"),
    "mlp.cmp.caption": ({"4"}, "the course text's 4x, set against this model's measured {x}"),
    "hallucination.preset.einstein.note": ({"14", "18"}, "historical dates (14 March 1879, 18 April 1955)"),
    "hallucination.preset.gondwana.note": ({"180"}, "geology: Gondwana began to break up ~180 million years ago"),
    "nondeterminism.assoc.caption": ({"0,1", "0,100000001", "0,8", "0.1", "0.100000001", "0.8"},
                                     "float32's stored value of 0.1, printed by the table above it"),
    "nondeterminism.assoc.same": ({"100000000", "-100000000"}, "numbers suggested for the visitor to type"),
    "nondeterminism.assoc.text": ({"7"}, "float32 keeps about 7 significant digits: a property of the format"),
    "hallucination.dtype.help": ({"7", "3"}, "float32 ~7 and bfloat16 ~2-3 significant digits: format properties"),
    "nondeterminism.redraw.help": ({"3"}, "the seeds 1, 2, 3… the page opens with, as a sequence"),
    "pen.counted": ({"5"}, "the prompt \"1, 2, 3, 4, 5,\" ends at 5: part of the example text"),
    "temperature.loop.counted": ({"5"}, "the same counting prompt's last number"),
    "temperature.loop.without": ({"1,0", "1.0"}, "penalty 1.0 = none: a definition"),
    "weights.short": ({"4"}, "Q4_K's 4 bits: the name of the type (its bits per weight are interpolated)"),
    "weights.detail": ({"4"}, "Q4_K's 4 bits: the name of the type (its bits per weight are interpolated)"),
    "decoding.loop.text": ({"4"}, "the paper's Figure 4, a citation"),
    "decoding.table.caption": ({"4"}, "the metric's name: repeated 4-grams (model_backend.lessons.decoding's n)"),
    "decoding.cmp.caption": ({"3"}, "the metric's definition: a cycle repeated at least 3 times"),
    "grokking.acc.caption": ({"99%", "95%"}, "the definitions of memorised (train >= 99%) and grokked (test >= 95%)"),
    "grokking.metric.memo": ({"99%"}, "the definition of memorised"),
    "grokking.metric.jump": ({"95%"}, "the definition of grokked"),
    "grokking.spectrum.caption": ({"3"}, "the definition of a key frequency: >= 3x a flat spectrum's share"),
    "grokking.waves.caption": ({"12"}, "the directions searched (a setting of the figure)"),
    "attention.cols.help": ({"10", "30"}, "advice on the columns slider's range"),
    "err.stop_count": ({"8"}, "the validation's limit, in an error message"),
    "temperature.seed.input": ({"10"}, "the input's limit (2 to 10 numbers)"),
    "tokenizer.map.few": ({"3"}, "the map needs at least 3 words (a limit, in an instruction)"),
}


def leftover(text: str) -> list[str]:
    """The numbers a string still holds once placeholders, code, years, citations and names are removed."""
    prose = CODE.sub(" ", text)
    prose = HEADER.sub(" ", prose)
    for pattern in (CITATION, NAMES, YEAR):
        prose = pattern.sub(" ", prose)
    return [n for n in NUMBER.findall(prose) if n not in DEFINITIONS and n.rstrip(".,") not in DEFINITIONS]


def _all() -> dict[str, list[str]]:
    out = {}
    for key, (pt, en) in collect().items():
        found = leftover(pt) + leftover(en)
        if found:
            out[key] = found
    return out


def test_no_string_types_a_number_the_code_should_compute():
    table = collect()
    assert len(table) > 500  # the test looked at the whole table
    bad = []
    for key, found in _all().items():
        allowed = ALLOWED.get(key, (set(), ""))[0]
        rest = [n for n in found if n.rstrip(".,") not in allowed]
        if rest:
            bad.append(f"{key}: {rest}")
    assert not bad, "\n".join(bad)


def test_every_allowance_is_still_needed():
    found = _all()
    for key, (numbers, reason) in ALLOWED.items():
        assert reason, key
        assert key in found and numbers <= {n.rstrip(".,") for n in found[key]}, f"{key}: {numbers} no longer typed"


@pytest.mark.parametrize("text, expected", [
    ("faz grokking por volta do passo 700", ["700"]),  # issue 32's cases: each is caught
    ("- **top-k 40**: sorteia entre os 40 tokens", ["40", "40"]),
    ("criativo (T = 0,8, top-p 0,9)", ["0,8,", "0,9"]),
    ("temperatura 0 (guloso) e top-p 1 = desligado", []),  # definitions
    ("{n} tokens em `top_k=40` e {p}", []),  # placeholders and code
    ("Radford et al. 2019; Brown et al., 2020, tabela 2.1; seed 004", []),  # citations and years
    ("GPT-4, float32, bfloat16, Q4_K_M, Gemma 3, Llama 3.1", []),  # names
    ("3. Ponto flutuante: 12.288 dimensões", ["12.288"]),
])
def test_the_checker_catches_what_it_should(text, expected):
    assert leftover(text) == expected
