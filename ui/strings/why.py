"""Strings of the "Why this token?" page: input attribution, direct logit attribution, attention beside
attribution, induction heads and what each head does."""

STRINGS = {
    "nav.why": ("Por que este token?", "Why this token?"),
    "why.title": ("Por que este token?", "Why this token?"),
    "why.intro": (
        "A página de atenção mostra **para onde** cada token olha. A pergunta seguinte é outra: **quais palavras "
        "fizeram o modelo escrever isto?** Aqui o modelo continua o seu prompt (guloso, em float32), você escolhe "
        "um token da completação e três medidas respondem: quanto cada token da entrada empurrou o modelo "
        "(atribuição), quanto cada camada e cada cabeça somou ao logit (atribuição direta ao logit) e, ao lado, a "
        "atenção — que muita gente confunde com a resposta. No fim, as **cabeças de indução**: o circuito que copia "
        "do contexto.",
        "The attention page shows **where** each token looks. The next question is a different one: **which words "
        "made the model write this?** Here the model continues your prompt (greedy, in float32), you pick a token "
        "of the completion, and three measures answer: how much each input token pushed the model (attribution), "
        "how much each layer and each head added to the logit (direct logit attribution) and, beside them, the "
        "attention that many people mistake for the answer. At the end, **induction heads**: the circuit that "
        "copies from the context.",
    ),
    "why.prompt.cap": (
        "Nesta página o prompt é cortado em até {n} tokens e a completação tem no máximo {m}: a atribuição da entrada roda "
        "o modelo várias vezes, com gradientes.",
        "On this page the prompt is cut to at most {n} tokens and the completion has at most {m}: the input attribution runs "
        "the model several times, with gradients.",
    ),
    "why.running": ("O modelo está escrevendo a completação (float32)…", "The model is writing the completion (float32)…"),
    "why.gen.title": ("A completação do modelo", "The model's completion"),
    "why.gen.caption": (
        "Escolha gulosa (sempre o token mais provável), em float32: {m} tokens (no máximo {cap}). Os tokens abaixo são os que você "
        "pode explicar.",
        "Greedy choice (always the most likely token), in float32: {m} tokens (at most {cap}). The tokens below are the ones you "
        "can explain.",
    ),
    "why.pick.token": ("Token a explicar", "Token to explain"),
    "why.pick.contrast": ("…e não este (contraste)", "…and not this one (contrast)"),
    "why.contrast.none": ("nenhum: explicar só o logit do token", "none: explain the token's logit alone"),
    "why.token.option": ("{i}: {text}", "{i}: {text}"),
    "why.contrast.option": ("{text} (prob. {p})", "{text} (prob. {p})"),
    "why.target.one": ("O número explicado: o logit deste token, na posição anterior a ele:",
                       "The explained number: this token's logit, at the position before it:"),
    "why.target.pair": ("O número explicado: logit(escolhido) − logit(contraste), na posição anterior:",
                        "The explained number: logit(chosen) − logit(contrast), at the position before:"),
    "why.target.value": ("valor no modelo: {v}", "value in the model: {v}"),
    # direct logit attribution
    "why.dla.title": ("Quais camadas e cabeças escreveram este logit?", "Which layers and heads wrote this logit?"),
    "why.dla.text": (
        "O fluxo residual na última posição é uma **soma**: os embeddings, mais o que a atenção e o MLP de cada "
        "camada acrescentaram. Projetando cada parcela na direção do token (a linha dele na matriz de saída; com contraste, a diferença "
        "das duas linhas), "
        "cada parte ganha um número em unidades de logit. Isso é exato para a soma; a norma final divide pelo "
        "tamanho do fluxo todo, e aqui essa escala fica **congelada** no seu valor real — por isso as partes somam "
        "o logit, mas cada número ignora como aquela parte mudou a escala. No Gemma 3, o que a atenção e o MLP "
        "somam já passou por uma norma dentro do bloco; a parte de cada cabeça usa a escala dessa norma congelada "
        "também.",
        "The residual stream at the last position is a **sum**: the embeddings, plus what each layer's attention "
        "and MLP added. Projecting each part on the token's direction (its row of the output matrix; with a contrast, the "
        "difference of the two rows) gives each "
        "part a number in logit units. That is exact for the sum; the final norm divides by the length of the whole "
        "stream, and here that scale is **frozen** at its real value — so the parts add up to the logit, but each "
        "number ignores how that part changed the scale. In Gemma 3, what attention and the MLP add has already "
        "gone through a norm inside the block; each head's part uses that norm's scale, frozen too.",
    ),
    "why.dla.check": (
        "Soma das partes: {total} · o número no modelo: {logit} · diferença: {diff}",
        "Sum of the parts: {total} · the model's number: {logit} · difference: {diff}",
    ),
    "why.dla.softcap": ("Este modelo comprime os logits (softcap): a soma é a do logit antes da compressão.",
                        "This model squashes its logits (softcap): the sum is that of the logit before squashing."),
    "why.dla.part": ("Parte", "Part"),
    "why.dla.part.attn": ("atenção", "attention"),
    "why.dla.part.mlp": ("MLP", "MLP"),
    "why.dla.part.embed": ("embeddings", "embeddings"),
    "why.dla.layer": ("camada {n}", "layer {n}"),
    "why.dla.axis.layer": ("Camada", "Layer"),
    "why.dla.axis.value": ("Contribuição ao logit", "Contribution to the logit"),
    "why.dla.layers.caption": (
        "Cada barra: o que a atenção (verde) ou o MLP (roxo) daquela camada somou ao número explicado, com a "
        "escala da norma final congelada. Barras para cima empurram o token escolhido; para baixo, contra. Os "
        "embeddings somam {embed}.",
        "Each bar: what that layer's attention (green) or MLP (purple) added to the explained number, with the "
        "final norm's scale frozen. Bars up push towards the chosen token; down, against it. The embeddings add "
        "{embed}.",
    ),
    "why.dla.heads.caption": (
        "As {n} cabeças (colunas = {layers} camadas, linhas = {heads} cabeças): quanto cada uma somou ao número "
        "explicado. Azul empurra a favor, laranja contra; a soma de uma coluna é a barra de atenção daquela camada. "
        "Mais forte: {best}.",
        "The {n} heads (columns = {layers} layers, rows = {heads} heads): how much each added to the explained "
        "number. Blue pushes for, orange against; a column sums to that layer's attention bar. Strongest: {best}.",
    ),
    "why.dla.axis.head": ("Cabeça", "Head"),
    "why.dla.lens.caption": (
        "Soma acumulada das partes (escala da norma final congelada) e a lente de logit da página do pipeline "
        "(cada camada com a sua própria escala), para o mesmo número. Elas se encontram na última camada: ali a "
        "lente é o próprio logit do modelo.",
        "Running total of the parts (final norm's scale frozen) and the pipeline page's logit lens (each layer "
        "with its own scale), for the same number. They meet at the last layer: there the lens is the model's "
        "own logit.",
    ),
    "why.dla.series.cum": ("soma acumulada (escala congelada)", "running total (frozen scale)"),
    "why.dla.series.lens": ("lente de logit", "logit lens"),
    "why.dla.axis.after": ("Depois da camada (0 = só embeddings)", "After layer (0 = embeddings only)"),
    "why.dla.series": ("Curva", "Curve"),
    # input attribution
    "why.attr.title": ("Quais tokens da entrada empurraram o modelo?", "Which input tokens pushed the model?"),
    "why.attr.method": ("Método", "Method"),
    "why.method.ig": ("Gradientes integrados (Captum, {n} pontos ou mais)", "Integrated gradients (Captum, {n} points or more)"),
    "why.method.gxi": ("Gradiente × (entrada − referência)", "Gradient × (input − baseline)"),
    "why.attr.run": ("Calcular a atribuição", "Compute the attribution"),
    "why.go": ("Completar e explicar", "Complete and explain"),
    "why.go.hint": (
        "O modelo completa o prompt em float32 (uma cópia do modelo em float32 é carregada na primeira vez) e "
        "decompõe o logit do token escolhido. Cada painel pesado abaixo espera o seu próprio clique.",
        "The model completes the prompt in float32 (a float32 copy of the model is loaded the first time) and "
        "decomposes the chosen token's logit. Each heavy panel below waits for its own click.",
    ),
    "why.attr.running": ("Calculando a atribuição ({method})…", "Computing the attribution ({method})…"),
    "why.attr.hint": (
        'Gradientes integrados rodam o modelo com gradientes em {n} pontos do caminho e, se as atribuições não somarem a diferença (margem de {bound}), de novo com {more} pontos, até {cap}: de segundos a alguns minutos neste servidor ({device}). Clique para calcular.',
        'Integrated gradients run the model with gradients at {n} points on the path and, if the attributions do not add up to the difference (within {bound}), again with {more} points, up to {cap}: from seconds to a few minutes on this server ({device}). Click to compute.',
    ),
    "why.attr.axis.token": ("Token da entrada (posição: texto)", "Input token (position: text)"),
    "why.attr.axis.score": ("Atribuição (unidades de logit)", "Attribution (logit units)"),
    "why.attr.caption": (
        "Cada barra: quanto aquele token da entrada empurrou o número explicado (azul a favor, laranja contra), "
        "medido por {method}. A referência é o mesmo texto com cada token trocado por <pad> (o <bos> fica), por "
        "isso o <bos> recebe 0.",
        "Each bar: how much that input token pushed the explained number (blue for, orange against), measured by "
        "{method}. The baseline is the same text with every token replaced by <pad> (<bos> stays), so <bos> gets 0.",
    ),
    "why.check.title": ("A soma fecha?", "Completeness check"),
    "why.check.sum": ("Soma das atribuições", "Sum of the attributions"),
    "why.check.diff": ("F(entrada) − F(referência)", "F(input) − F(baseline)"),
    "why.check.residual": ("Resíduo", "Residual"),
    "why.check.ig": (
        'Gradientes integrados somam exatamente F(entrada) − F(referência) quando a integral é exata; aqui ela é aproximada por pontos no caminho. Rodadas: {tried} pontos. Com {n} pontos sobra um resíduo de {pct} da diferença (margem aceita: {bound} da diferença, ou {floor} de logit).',
        'Integrated gradients add up exactly to F(input) − F(baseline) when the integral is exact; here it is approximated by points on the path. Rounds: {tried} points. With {n} points a residual of {pct} of the difference is left (accepted: {bound} of the difference, or {floor} logit).',
    ),
    "why.check.gxi": (
        "O gradiente é medido só no ponto da entrada: como o modelo não é linear, a soma não precisa dar a "
        "diferença; aqui o resíduo é de {pct}. É isso que “gradientes são locais” quer dizer.",
        "The gradient is measured only at the input: since the model is not linear, the sum need not give the "
        "difference; here the residual is {pct}. That is what “gradients are local” means.",
    ),
    "why.check.poor": (
        'Mesmo com {n} pontos (o limite desta página) o resíduo passa da margem: o número explicado varia muito entre a referência e a entrada, e estas barras não somam a diferença. Trate-as como um esboço; a atribuição direta ao logit acima não depende de pontos.',
        "Even with {n} points (this page's cap) the residual is above the bound: the explained number swings a lot between the baseline and the input, and these bars do not add up to the difference. Treat them as a sketch; the direct logit attribution above does not depend on points.",
    ),
    "why.attr.time": (
        'Calculado em {s} s (relógio, com o servidor compartilhado).',
        'Computed in {s} s (wall clock, on the shared server).',
    ),
    "why.limits.title": ("O que cada método diz, e o que não diz", "What each method can tell, and what it cannot"),
    "why.limits.text": (
        "- **Gradiente × (entrada − referência)** mede a inclinação do logit **no ponto da entrada** e multiplica pela distância "
        "até a referência. Gradientes são locais: dizem o que um empurrão minúsculo faria, não o que tirar a "
        "palavra faria.\n"
        "- **Gradientes integrados** tomam a média dos gradientes ao longo do caminho reto da referência até a "
        "entrada e a multiplicam por (entrada − referência). As "
        "atribuições somam a diferença F(entrada) − F(referência) (a soma fecha), mas **dependem da referência**: "
        "outra referência (zeros, outro token) dá outros números.\n"
        "- **Atribuição direta ao logit** lê só o caminho direto até a saída: uma cabeça que prepara o trabalho de "
        "uma camada posterior aparece com pouco, mesmo sendo essencial.\n"
        "- Nenhuma delas é uma explicação causal completa; para isso seria preciso intervir (trocar ativações e "
        "medir).",
        "- **Gradient × (input − baseline)** measures the slope of the logit **at the input** and multiplies it by the distance "
        "to the baseline. Gradients are local: they say what a tiny nudge would do, not what removing the word "
        "would do.\n"
        "- **Integrated gradients** average the gradients along the straight path from the baseline to the input "
        "and multiply the average by (input − baseline). "
        "The attributions sum to F(input) − F(baseline) (completeness), but they **depend on the baseline**: "
        "another baseline (zeros, another token) gives other numbers.\n"
        "- **Direct logit attribution** reads only the direct path to the output: a head that prepares work for a "
        "later layer shows up small, even when it is essential.\n"
        "- None of them is a full causal explanation; that takes intervening (swapping activations and "
        "measuring).",
    ),
    # attention beside attribution
    "why.vs.title": ("Atenção não é atribuição", "Attention is not attribution"),
    "why.vs.text": (
        "Para o mesmo token, cada token da entrada tem duas barras: a de cima, a fração da atenção que a última "
        "posição deu a ele; a de baixo, a fração da atribuição (em valor absoluto). Se a atenção bastasse como explicação, "
        "as duas deveriam ao menos apontar os mesmos tokens.",
        "For the same token, each input token has two bars: the top one, the share of attention the last "
        "position gave it; the bottom one, the share of the attribution (in absolute value). If attention were enough as "
        "an explanation, the two should at least point at the same tokens.",
    ),
    "why.vs.need": ("Calcule a atribuição acima para comparar.", "Compute the attribution above to compare."),
    "why.vs.layer": ("Camada da atenção", "Attention layer"),
    "why.vs.head": ("Cabeça", "Head"),
    "why.vs.avg_layers": ("média das {n} camadas", "average of the {n} layers"),
    "why.vs.avg_heads": ("média das {n} cabeças", "average of the {n} heads"),
    "why.vs.layer.n": ("camada {n}", "layer {n}"),
    "why.vs.head.n": ("cabeça {n}", "head {n}"),
    "why.vs.series": ("Medida", "Measure"),
    "why.vs.attention": ("atenção", "attention"),
    "why.vs.attribution": ("|atribuição|", "|attribution|"),
    "why.vs.axis.share": ("Fração do total", "Share of the total"),
    "why.vs.caption": (
        "Atenção ({view}) e atribuição por {method}, cada uma como fração do seu total. Aqui o <bos> recebe {p} "
        "da atenção e atribuição 0 (a referência o mantém): por isso fica fora da lista abaixo.",
        "Attention ({view}) and attribution by {method}, each as a share of its total. Here <bos> gets {p} of "
        "the attention and attribution 0 (the baseline keeps it): so it stays out of the list below.",
    ),
    "why.vs.caption.sink": (
        "Atenção ({view}) e atribuição por {method}, cada uma como fração do seu total. Aqui o <bos> recebe {p} "
        "da atenção, mais de {pct}, e atribuição 0 (a referência o mantém): a atenção que pousa no <bos> não "
        "explica a escolha. Por isso ele fica fora da lista abaixo.",
        "Attention ({view}) and attribution by {method}, each as a share of its total. Here <bos> gets {p} of "
        "the attention, more than {pct}, and attribution 0 (the baseline keeps it): the attention that rests "
        "on <bos> does not explain the choice. So it stays out of the list below.",
    ),
    "why.vs.disagree": ("Onde as duas mais discordam:", "Where the two disagree most:"),
    "why.vs.col.token": ("Token", "Token"),
    "why.vs.col.position": ("Posição", "Position"),
    "why.vs.col.attention": ("Atenção", "Attention"),
    "why.vs.col.attribution": ("|Atribuição|", "|Attribution|"),
    "why.vs.col.sign": ("Sentido", "Direction"),
    "why.vs.sign.for": ("a favor", "for"),
    "why.vs.sign.against": ("contra", "against"),
    # induction heads
    "why.ind.title": ("Cabeças de indução: copiar do contexto", "Induction heads: copying from the context"),
    "why.ind.text": (
        "Uma sequência de {n} tokens sorteados, sem sentido nenhum, aparece duas vezes. Na primeira vez o modelo "
        "não tem como prever o próximo token; na segunda, basta **achar a vez anterior e copiar o que veio "
        "depois**. As cabeças que fazem isso se chamam cabeças de indução: é aqui que o aprendizado em contexto "
        "pode ser visto acontecendo.",
        "A sequence of {n} randomly drawn tokens, meaning nothing, appears twice. The first time, the model cannot "
        "predict the next token; the second time it only has to **find the earlier occurrence and copy what came "
        "after it**. The heads that do this are called induction heads: this is where in-context learning can be "
        "seen happening.",
    ),
    "why.ind.run": ("Rodar a sequência repetida", "Run the repeated sequence"),
    "why.ind.seed": (
        "Semente da sequência",
        "Seed of the sequence",
    ),
    "why.ind.sequence": ("A sequência sorteada (aparece duas vezes):", "The drawn sequence (it appears twice):"),
    "why.ind.axis.position": ("Posição na entrada", "Position in the input"),
    "why.ind.axis.loss": ("Perda (nats) ao prever o próximo token", "Loss (nats) predicting the next token"),
    "why.ind.copy": ("Cópia", "Copy"),
    "why.ind.copy.1": ("1ª vez", "1st time"),
    "why.ind.copy.2": ("2ª vez", "2nd time"),
    "why.ind.drop": ("A queda é o modelo copiando do próprio contexto.", "The drop is the model copying from its own context."),
    "why.ind.nodrop": ("Aqui a perda não caiu na segunda vez: com esta semente não se vê a cópia.",
                       "Here the loss did not drop the second time: with this seed the copying does not show."),
    "why.ind.loss.caption": (
        "Perda por posição (entropia cruzada do token seguinte; menor = previu melhor). Média na 1ª vez: {a}; "
        "na 2ª vez: {b}. {verdict}",
        "Loss per position (cross-entropy of the next token; lower = predicted better). Mean on the 1st time: "
        "{a}; on the 2nd time: {b}. {verdict}",
    ),
    "why.ind.axis.score": ("Pontuação de indução", "Induction score"),
    "why.ind.grid.caption": (
        "Pontuação de indução de cada cabeça: a atenção média que um token da 2ª vez dá ao token que veio depois "
        "da sua cópia na 1ª vez. Mediana das {n} cabeças: {median}. As mais altas: {top}.",
        "Each head's induction score: the mean attention a 2nd-time token gives to the token that followed its copy "
        "the 1st time. Median of the {n} heads: {median}. The highest: {top}.",
    ),
    "why.ind.pick": ("Abrir a cabeça", "Open the head"),
    "why.ind.map.caption": (
        "Os pesos de atenção da {head} sobre a sequência repetida. Pontuação de indução {s} (mediana das {n} "
        "cabeças: {median}): mais de {pct} da atenção vai, em média, ao token seguinte à cópia anterior. É a "
        "diagonal deslocada na metade de baixo: cada token olha para o que veio depois da sua cópia anterior. "
        "A 1ª coluna é o <bos>.",
        "The attention weights of {head} over the repeated sequence. Induction score {s} (median of the {n} "
        "heads: {median}): more than {pct} of the attention goes, on average, to the token after the earlier "
        "copy. That is the shifted diagonal in the lower half: each token looks at what followed its earlier "
        "copy. The first column is <bos>.",
    ),
    "why.ind.map.caption.weak": (
        "Os pesos de atenção da {head} sobre a sequência repetida. Pontuação de indução {s} (mediana das {n} "
        "cabeças: {median}): não passa de {pct}, então esta cabeça não faz indução aqui, e a diagonal deslocada "
        "(cada token olhando para o que veio depois da sua cópia anterior) não deve aparecer nítida na metade "
        "de baixo. A 1ª coluna é o <bos>.",
        "The attention weights of {head} over the repeated sequence. Induction score {s} (median of the {n} "
        "heads: {median}): not above {pct}, so this head does not do induction here, and the shifted diagonal "
        "(each token looking at what followed its earlier copy) should not show clearly in the lower half. The "
        "first column is <bos>.",
    ),
    "why.ind.axis.query": ("Consulta (posição)", "Query (position)"),
    "why.ind.axis.key": ("Chave (posição)", "Key (position)"),
    "why.ind.axis.weight": ("Peso", "Weight"),
}
