"""Strings of the glossary and pitfalls popover (seed 000: "Como explicar em inglês" and "Armadilhas")."""

STRINGS = {
    "gloss.open": ("Glossário e armadilhas", "Glossary and pitfalls"),
    "gloss.title": ("Glossário PT ↔ EN", "Glossary PT ↔ EN"),
    "gloss.col.pt": ("português", "Portuguese"),
    "gloss.col.en": ("inglês", "English"),
    "gloss.col.where": ("onde ver", "where to see it"),
    "gloss.caption": (
        "Um nome para cada coisa, em todas as páginas. Os termos do texto do curso (completação, amostragem por "
        "núcleo, guloso, motivo de parada…) vêm do glossário dele; os outros são escolhas deste app.",
        "One name for each thing, on every page. The course text's terms (completion, nucleus sampling, greedy, "
        "finish reason…) come from its glossary; the others are this app's choices.",
    ),
    "gloss.pitfalls": ("Armadilhas (do texto do curso)", "Pitfalls (from the course text)"),
    "gloss.pit.think": (
        "**Achar que o modelo \"pensa\" e depois \"escreve\".** Não há rascunho interno: cada token é uma passada "
        "e uma escolha (gulosa ou sorteada na amostragem). O que existe de \"pensar\" é o próprio texto gerado.",
        "**Believing the model \"thinks\" and then \"writes\".** There is no hidden draft: each token is one pass "
        "and one choice (greedy, or drawn in sampling). What \"thinking\" there is, is the generated text "
        "itself.",
    ),
    "gloss.pit.confidence": (
        "**Confundir confiança com verdade.** O modelo sempre tem uma distribuição e sempre escolhe dela. "
        "Probabilidade alta não é fato.",
        "**Mistaking confidence for truth.** The model always has a distribution and always picks from it. A high "
        "probability is not a fact.",
    ),
    "gloss.pit.dark": (
        "**Mexer em temperatura e top-p ao mesmo tempo, no escuro.** A temperatura remodela a distribuição e "
        "o top-p corta a cauda dessa distribuição já remodelada: mexendo nos dois juntos, sem critério, fica "
        "difícil prever o efeito.",
        "**Turning temperature and top-p at once, in the dark.** Temperature reshapes the distribution and "
        "top-p cuts the tail of the reshaped one: turning both together, without a reason, makes the effect "
        "hard to predict.",
    ),
    "gloss.pit.determinism": (
        "**Esperar determinismo com temperatura > 0.** Qualquer temperatura positiva sorteia. Para "
        "reproduzir, temperatura 0 (guloso) ou uma semente fixa (como neste app; numa API sem semente, só "
        "temperatura 0), e ainda assim a ordem das contas em GPU ou em lote pode variar.",
        "**Expecting determinism with temperature > 0.** Any positive temperature draws. To reproduce, "
        "temperature 0 (greedy) or a fixed seed (as in this app; with an API that has no seed, only "
        "temperature 0), and even then the order of the arithmetic on a GPU or in a batch can vary.",
    ),
    "gloss.pit.finish": (
        "**Ignorar o motivo de parada.** Tratar toda saída como completa, sem checar se foi o token de parada "
        "(EOS) ou um corte por limite de tokens.",
        "**Ignoring the finish reason.** Treating every output as complete, without checking whether it was the "
        "end-of-sequence token (EOS) or a cut at the token limit.",
    ),
    "gloss.see": ("Ver ao vivo: {page}", "See it live: {page}"),
}
