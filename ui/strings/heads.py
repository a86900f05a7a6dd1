"""What different heads do, measured (the attention page and the "Why this token?" page)."""

STRINGS = {
    "heads.title": ("O que cada cabeça faz: medido, não afirmado", "What each head does: measured, not asserted"),
    "heads.text": (
        "Três hábitos simples, medidos em cada uma das {n} cabeças sobre este texto ({t} tokens): quanto da "
        "atenção vai para o primeiro token (`<bos>`), para o token logo antes, e para cópias anteriores do mesmo "
        "token. Cada número é a média sobre as posições onde a medida existe.",
        "Three simple habits, measured in each of the {n} heads over this text ({t} tokens): how much of the "
        "attention goes to the first token (`<bos>`), to the token just before, and to earlier copies of the same "
        "token. Each number is the average over the positions where the measure exists.",
    ),
    "heads.run": ("Medir as cabeças", "Measure the heads"),
    "heads.hint": (
        "Calculado a partir dos pesos de atenção já lidos acima, sem rodar o modelo de novo.",
        "Computed from the attention weights already read above, without running the model again.",
    ),
    "heads.bos": ("atenção no <bos>", "attention on <bos>"),
    "heads.previous": ("atenção no token anterior", "attention on the previous token"),
    "heads.same": ("atenção no mesmo token antes", "attention on the same token earlier"),
    "heads.axis.layer": ("Camada", "Layer"),
    "heads.axis.share": ("Parcela", "Share"),
    "heads.chart.bos": ("Atenção no <bos>", "Attention on <bos>"),
    "heads.chart.previous": ("Atenção no token anterior", "Attention on the previous token"),
    "heads.chart.same": ("Atenção no mesmo token antes", "Attention on the same token earlier"),
    "heads.axis.head": ("Cabeça", "Head"),
    "heads.grid.caption": (
        "A {measure} de cada uma das {n} cabeças (colunas = camadas 1 a {layers}, linhas = cabeças 1 a {heads}), "
        "média sobre {q} posições; contorno laranja nas {k} mais altas: {top}. Mediana das cabeças: {median}.",
        "Each of the {n} heads' {measure} (columns = layers 1 to {layers}, rows = heads 1 to {heads}), averaged "
        "over {q} positions; an orange outline on the {k} highest: {top}. Median head: {median}.",
    ),
    "heads.none": (
        "Nenhum token se repete neste texto, então não há o que medir para “o mesmo token antes”. Escreva uma "
        "palavra duas vezes no prompt para ver essas cabeças.",
        "No token repeats in this text, so there is nothing to measure for “the same token earlier”. Write a word "
        "twice in the prompt to see those heads.",
    ),
    "heads.seen": ("O que a turma pode ver, medido neste texto:", "What the class can see, measured on this text:"),
    "heads.sink": (
        "{k} de {n} cabeças põem mais de {pct} da atenção no `<bos>`: para elas, ele funciona como um lugar para "
        "“descansar” quando nada no texto interessa a essa cabeça.",
        "{k} of {n} heads put more than {pct} of their attention on `<bos>`: for them it works as a place to “rest” "
        "when nothing in the text matters to that head.",
    ),
    "heads.sink.none": (
        "Nenhuma das {n} cabeças põe mais de {pct} da atenção no `<bos>` neste texto.",
        "None of the {n} heads puts more than {pct} of its attention on `<bos>` in this text.",
    ),
    "heads.prev": (
        "Cabeças do token anterior: {heads} — cada uma põe mais de {pct} da atenção no token logo antes.",
        "Previous-token heads: {heads} — each puts more than {pct} of its attention on the token just before.",
    ),
    "heads.dup": (
        "Cabeças de token repetido: {heads} — cada uma põe mais de {pct} da atenção em cópias anteriores do "
        "mesmo token.",
        "Duplicate-token heads: {heads} — each puts more than {pct} of its attention on earlier copies of the same "
        "token.",
    ),
    "heads.nobody": ("nenhuma acima de {pct}", "none above {pct}"),
    "heads.far": (
        "A mais forte em cada medida, comparada com a cabeça mediana: {items}. {k} de {n} cabeças passam do "
        "limite do token anterior ou do token repetido: {verdict}",
        "The strongest for each measure, against the median head: {items}. {k} of {n} heads pass the previous-token "
        "or the duplicate-token threshold: {verdict}",
    ),
    "heads.verdict.few": ("poucas se especializam; a maioria fica longe disso.",
                          "few specialise; most are far from it."),
    "heads.verdict.many": ("neste texto, a maioria se especializa num desses hábitos.",
                           "on this text, most specialise in one of these habits."),
    "heads.item": ("{measure}: {head} ({value}; mediana {median})", "{measure}: {head} ({value}; median {median})"),
    "heads.rank": ("As {k} cabeças mais altas em cada medida", "The {k} highest heads for each measure"),
    "heads.col.rank": ("Colocação", "Rank"),
    "heads.rank.caption": ("Camadas e cabeças contadas a partir de 1, como no resto do app.",
                           "Layers and heads counted from 1, as everywhere in the app."),
    "heads.rank.files": ("Os mesmos números, para todas as cabeças, nos arquivos abaixo.",
                         "The same numbers, for every head, in the files below."),
}
