"""One name for each thing: the term table every visible string keeps (tests/unit/test_terms.py checks it).

Each concept has the pt-BR and the English term the app uses, following the glossary of the course text
(seed 000, "Como explicar em inglês": Completação/Completion, Amostragem por núcleo/Nucleus sampling,
Greedy/guloso, Motivo de parada/Finish reason, ...), and the variants no string may use instead.
Forbidden variants are regular expressions, matched case-insensitively on each string with its `code`
spans and {placeholders} removed (code names such as `seed=` or `do_sample` are not prose).
STRINGS gives each term a translation key ("term.<concept>"), so the glossary panel shows them through t().
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    pt: str  # the pt-BR term the app uses
    en: str  # the English term the app uses
    pt_forbidden: tuple[str, ...] = ()  # regexes no pt-BR string may match
    en_forbidden: tuple[str, ...] = ()  # regexes no English string may match


TERMS: dict[str, Term] = {
    "completion": Term("completação", "completion", (r"\bcontinuaç(ão|ões)\b", r"\bcompletude\b")),
    "autoregressive": Term("loop autoregressivo", "autoregressive loop", (r"\bautorregressiv", r"\blaço\b")),
    "logit": Term("logit", "logit"),
    "score": Term("pontuação", "score", (r"\bnotas?\b", r"\bescores?\b")),
    "sampling": Term("amostragem", "sampling", (r"\bsampling\b",)),
    "temperature": Term("temperatura", "temperature"),
    "nucleus": Term("amostragem por núcleo (top-p)", "nucleus sampling (top-p)",
                    (r"\bamostragem de núcleo\b", r"\bnucleus\b")),
    "greedy": Term("guloso (greedy)", "greedy", (r"(?<!guloso \()(?<!gulosa \()\bgreedy\b",)),
    "eos": Term("token de parada (EOS)", "end-of-sequence token (EOS)", (r"\btoken de fim\b",)),
    "stop_sequence": Term("sequência de parada", "stop sequence", (r"\bstop sequences?\b",)),
    "repetition_penalty": Term("penalidade de repetição", "repetition penalty",
                               (r"\bpenaliza[çc][ãa]o de repeti", r"\bpuni[çc][ãa]o de repeti")),
    "finish_reason": Term("motivo de parada", "finish reason", (r"\braz[ãa]o de parada\b", r"\bmotivo do fim\b"),
                          (r"\breason for stopping\b",)),
    "seed": Term("semente", "seed", (r"\bseeds?\b",)),
    "centred": Term("centralizado", "centred", (r"\bcentra(r|d[oa]s?)\b", r"\bcentrando\b"),
                    (r"\bcenter(ed|ing)\b",)),
    "rank": Term("colocação", "rank", (r"\branking\b",)),
    "checkpoint": Term("passo salvo", "checkpoint", (r"\bcheckpoints?\b",)),
    "weight_decay": Term("decaimento de pesos", "weight decay", (r"(?<!decaimento de pesos \()\bweight decay\b",)),
    "dequantize": Term("desquantizar", "de-quantize", (r"\bdescompact",), (r"\bdecompress",)),
}

STRINGS = {f"term.{key}": (term.pt, term.en) for key, term in TERMS.items()}
