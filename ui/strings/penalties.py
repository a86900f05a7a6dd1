"""Strings of the penalties panel (temperature page): subtractive API penalties vs transformers' one."""

STRINGS = {
    "pen.header": ("6. Duas penalidades: a que subtrai e a que divide", "6. Two penalties: one subtracts, one divides"),
    "pen.text": (
        "O texto do curso descreve penalidades que **subtraem** dos logits de tokens já usados: é o tipo das APIs "
        "(frequência e presença). Pela fórmula publicada pelos provedores, com c_j = quantas vezes o token j já foi "
        "gerado: a penalidade de frequência tira α_freq a cada vez, e a de presença tira α_pres uma vez só, se o "
        "token já apareceu. A penalidade de repetição da transformers, usada acima, é de outro tipo: **divide** o "
        "logit (ou multiplica, se negativo) uma vez, não importa quantas vezes o token apareceu, e conta também o "
        "prompt. A de repetição é a da transformers (`RepetitionPenaltyLogitsProcessor`); a que subtrai foi escrita neste projeto com a fórmula publicada, na mesma interface `LogitsProcessor`, e roda no mesmo `generate()`.",
        "The course text describes penalties that **subtract** from the logits of tokens already used: the API kind "
        "(frequency and presence). By the providers' published formula, with c_j = how many times token j has been "
        "generated: the frequency penalty takes α_freq off each time, and the presence penalty takes α_pres off "
        "once, if the token has appeared at all. transformers' repetition penalty, used above, is another kind: it "
        "**divides** the logit (or multiplies it, if negative) once, however often the token appeared, and it counts "
        "the prompt too. The repetition penalty is transformers' own (`RepetitionPenaltyLogitsProcessor`); the subtracting one was written in this project from the published formula, on the same `LogitsProcessor` interface, and runs in the same `generate()`.",
    ),
    "pen.ctl.r": ("Penalidade de repetição (divide)", "Repetition penalty (divides)"),
    "pen.ctl.f": ("Penalidade de frequência α_freq", "Frequency penalty α_freq"),
    "pen.ctl.p": ("Penalidade de presença α_pres", "Presence penalty α_pres"),
    "pen.col.token": ("token", "token"),
    "pen.col.count": ("vezes já gerado", "times generated"),
    "pen.col.logit": ("logit", "logit"),
    "pen.col.mult": ("÷ repetição {r}", "÷ repetition {r}"),
    "pen.col.sub": ("− frequência {f}, presença {p}", "− frequency {f}, presence {p}"),
    "pen.example.caption": (
        "Quatro logits inventados e um texto gerado A, B, A, C, calculados agora pelos dois processadores. A "
        "penalidade que divide trata igual um token visto uma ou duas vezes; a que subtrai tira mais de quem "
        "apareceu mais. D nunca apareceu e fica igual nas duas.",
        "Four made-up logits and a generated text A, B, A, C, computed now by both processors. The penalty that "
        "divides treats a token seen once or twice the same; the one that subtracts takes more from whatever "
        "appeared more. D never appeared and stays the same in both.",
    ),
    "pen.run": ("Gerar com as duas, lado a lado", "Generate with both, side by side"),
    "pen.hint": (
        "O botão roda o modelo {n} vezes ({cases} textos × {kinds}: sem penalidade e com cada uma, no modo "
        "guloso); cada resultado fica guardado.",
        "The button runs the model {n} times ({cases} texts × {kinds}: without a penalty and with each one, greedy); "
        "each result is kept.",
    ),
    "pen.case.loop": ("Um loop de verdade", "A real loop"),
    "pen.case.needed": ("Um texto que precisa repetir", "A text that needs to repeat"),
    "pen.kind.none": ("**Sem penalidade**", "**No penalty**"),
    "pen.kind.multiplicative": ("**Divide (transformers), {r}**", "**Divides (transformers), {r}**"),
    "pen.kind.subtractive": ("**Subtrai (API): frequência {f}, presença {p}**",
                             "**Subtracts (API): frequency {f}, presence {p}**"),
    "pen.loop": ("Loop: um ciclo de {period} tokens se repete {repeats} vezes no fim.",
                 "Loop: a cycle of {period} tokens repeats {repeats} times at the end."),
    "pen.noloop": ("Nenhum ciclo se repete no fim.", "No cycle repeats at the end."),
    "pen.counted": ("Números contados certo depois do 5: {n}.", "Numbers counted right after 5: {n}."),
    "pen.warning": (
        "**O aviso do texto vale para as duas:** úteis contra loops, mas em excesso forçam o modelo a evitar "
        "palavras necessárias (artigos, nomes próprios, e aqui a vírgula e os dígitos da contagem). Suba as "
        "penalidades e veja a contagem se desfazer.",
        "**The text's warning holds for both:** useful against loops, but too much forces the model to avoid words "
        "it needs (articles, proper names, and here the comma and the digits of the count). Raise the penalties "
        "and watch the count fall apart.",
    ),
}
