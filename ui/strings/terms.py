"""One name for each thing: the term table every visible string keeps (tests/unit/test_terms.py checks it).

Each concept has the pt-BR and the English term the app uses, following the glossary of the course text
(seed 000, "Como explicar em inglês": Completação/Completion, Amostragem por núcleo/Nucleus sampling,
Greedy/guloso, Motivo de parada/Finish reason, ...), and the variants no string may use instead.
Forbidden variants are regular expressions, matched case-insensitively on each string with its `code`
spans and {placeholders} removed (code names such as `seed=` or `do_sample` are not prose).
STRINGS gives each term a translation key ("term.<concept>"), so the glossary panel shows them through t().
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    pt: str  # the pt-BR term the app uses
    en: str  # the English term the app uses
    pt_forbidden: tuple[str, ...] = ()  # regexes no pt-BR string may match
    en_forbidden: tuple[str, ...] = ()  # regexes no English string may match
    pt_re: str = ""  # the pt-BR term itself, in any inflection ("" = the term's first word, whole)
    en_re: str = ""  # the English term itself, in any inflection ("" = the term's first word, whole)

    def pattern(self, lang: str) -> str:
        """The regex that finds this term in a string of `lang` (pt-BR or en), to check that a string names
        the concept in both languages or in neither."""
        own = self.pt_re if lang == "pt-BR" else self.en_re
        if own:
            return own
        words = (self.pt if lang == "pt-BR" else self.en).split(" (")[0]
        return r"\b" + re.escape(words) + r"\b"


TERMS: dict[str, Term] = {
    "completion": Term("completação", "completion", (r"\bcontinuaç(ão|ões)\b", r"\bcompletude\b"),
                       (r"\bcontinuations?\b",), pt_re=r"\bcompleta[çc](ão|ões)\b", en_re=r"\bcompletions?\b"),
    "autoregressive": Term("loop autoregressivo", "autoregressive loop", (r"\bautorregressiv", r"\blaço\b"),
                           pt_re=r"\bautoregressiv", en_re=r"\bautoregressive"),
    "logit": Term("logit", "logit", pt_re=r"\blogits?\b", en_re=r"\blogits?\b"),
    "score": Term("pontuação", "score", (r"\bnotas?\b", r"\bescores?\b"), pt_re=r"\bpontu(a|am|ação|ações|ar|ada|ado)\b",
                  en_re=r"\bscor(e|es|ed|ing)\b"),
    "sampling": Term("amostragem", "sampling", (r"\bsampling\b",), pt_re=r"\bamostr(agem|agens|ar|as?|ado|ada|adas|ando)\b",
                     en_re=r"\bsampl(ing|e|ed|es)\b"),
    "temperature": Term("temperatura", "temperature", pt_re=r"\btemperaturas?\b", en_re=r"\btemperatures?\b"),
    "nucleus": Term("amostragem por núcleo (top-p)", "nucleus sampling (top-p)",
                    (r"\bamostragem de núcleo\b", r"\bnucleus\b"), pt_re=r"\bamostragem por\s+núcleo\b",
                    en_re=r"\bnucleus\s+sampling\b"),
    "greedy": Term("guloso (greedy)", "greedy", (r"(?<!guloso \()(?<!gulosa \()\bgreedy\b",),
                   pt_re=r"\bgulos[oa]s?\b", en_re=r"\bgreed(y|ily)\b"),
    "eos": Term("token de parada (EOS)", "end-of-sequence token (EOS)", (r"\btoken de fim\b",),
                pt_re=r"\btokens? de parada\b", en_re=r"\bend-of-sequence\b"),
    "stop_sequence": Term("sequência de parada", "stop sequence", (r"\bstop sequences?\b",),
                          pt_re=r"\bsequ[êe]ncias? de parada\b", en_re=r"\bstop sequences?\b"),
    "repetition_penalty": Term("penalidade de repetição", "repetition penalty",
                               (r"\bpenaliza[çc][ãa]o de repeti", r"\bpuni[çc][ãa]o de repeti"),
                               pt_re=r"\bpenalidades? de repetição\b", en_re=r"\brepetition penalt(y|ies)\b"),
    "finish_reason": Term("motivo de parada", "finish reason", (r"\braz[ãa]o de parada\b", r"\bmotivo do fim\b"),
                          (r"\breason for stopping\b",), pt_re=r"\bmotivos? de parada\b", en_re=r"\bfinish reasons?\b"),
    "seed": Term("semente", "seed", (r"\bseeds?\b",), pt_re=r"\bsementes?\b", en_re=r"\bseeds?\b"),
    "centred": Term("centralizado", "centred", (r"\bcentra(r|d[oa]s?)\b", r"\bcentrando\b"),
                    (r"\bcenter(ed|ing)\b",), pt_re=r"\bcentraliza", en_re=r"\bcentr(ed|ing|e)\b"),
    "rank": Term("colocação", "rank", (r"\branking\b",), pt_re=r"\bcoloca[çc](ão|ões)\b", en_re=r"\branks?\b"),
    "checkpoint": Term("passo salvo", "checkpoint", (r"\bcheckpoints?\b",), pt_re=r"\bpassos? salvos?\b",
                       en_re=r"\bcheckpoints?\b"),
    "weight_decay": Term("decaimento de pesos", "weight decay", (r"(?<!decaimento de pesos \()\bweight decay\b",)),
    "dequantize": Term("desquantizar", "de-quantize", (r"\bdescompact",), (r"\bdecompress",),
                       pt_re=r"\bdesquantiza", en_re=r"\bde-quantiz"),
    # attention (issue 32: each of these had two names across pages)
    "full_attention": Term("atenção completa", "full attention", (r"\baten[çc][ãa]o global\b",),
                           (r"\bglobal attention\b",), en_re=r"\bfull[- ]attention\b"),
    "query": Term("consulta", "query", (r"(?<!consulta \()\bquer(y|ies)\b",), pt_re=r"\bconsultas?\b",
                  en_re=r"\bquer(y|ies)\b"),
    "key": Term("chave", "key", (r"(?<!chave \()\bkeys?\b",), pt_re=r"\bchaves?\b(?!-)", en_re=r"\bkeys?\b"),
    "gqa": Term("atenção de consulta agrupada (GQA)", "grouped-query attention (GQA)", (r"\bcabeças agrupadas\b",),
                (r"\bgrouped heads\b",), pt_re=r"\bGQA\b", en_re=r"\bGQA\b"),
    "mqa": Term("atenção multi-consulta (MQA)", "multi-query attention (MQA)", (r"\bmulti-?query\b",),
                (r"\bsingle-key attention\b",), pt_re=r"\bMQA\b", en_re=r"\bMQA\b"),
    "logit_lens": Term("lente de logit", "logit lens", (r"\blentes? de logits\b",), (r"\blogits lens\b",)),
    "quantization": Term("quantização", "quantization", (r"\bquantizacao\b",), (r"\bquantisation\b",),
                         pt_re=r"\bquantiza(ção|d[oa]s?)\b", en_re=r"\bquantiz(ation|ed)\b"),
}

STRINGS = {f"term.{key}": (term.pt, term.en) for key, term in TERMS.items()}
