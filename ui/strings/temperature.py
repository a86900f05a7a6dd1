"""Strings of the temperature and sampling page."""

STRINGS = {
    "temperature.title": ("Temperatura e amostragem", "Temperature and sampling"),
    "temperature.intro": (
        "Na mesma máquina, com o mesmo lote e a mesma precisão, a mesma entrada dá os mesmos logits. A variação "
        "que você controla entra **na hora de escolher** o token (a página Não-determinismo mostra a outra: a "
        "ordem das contas). Primeiro o exemplo do texto, com três tokens; depois a distribuição "
        "de verdade do {model}, passando pela cadeia que o `generate()` da biblioteca transformers usa: "
        "penalidade de repetição → temperatura → top-k → top-p. Mexa nos controles: o modelo **não roda de "
        "novo**, só a matemática da amostragem.",
        "On the same machine, with the same batch and the same precision, the same input gives the same logits. "
        "The variety you control comes in **when a token is chosen** (the Nondeterminism page shows the other "
        "kind: the order of the arithmetic). First the text's example with three tokens; then the real "
        "distribution of {model}, through the chain that the transformers library's `generate()` uses: "
        "repetition penalty → temperature → top-k → top-p. Move the controls: the model **does not run "
        "again**, only the sampling math does.",
    ),
    # 1. the seed's worked example
    "temperature.seed.header": ("1. O exemplo do texto, calculado ao vivo", "1. The text's example, computed live"),
    "temperature.seed.text": (
        "Três tokens com logits 2,0 · 1,0 · 0,1. Dividir cada logit por T antes do softmax: **T < 1 afia** a "
        "distribuição, **T > 1 achata**. A tabela é calculada agora, com o `TemperatureLogitsWarper` da "
        "transformers; ao lado, o que o texto imprime.",
        "Three tokens with logits 2.0 · 1.0 · 0.1. Divide each logit by T before the softmax: **T < 1 "
        "sharpens** the distribution, **T > 1 flattens** it. The table is computed now, with transformers' "
        "`TemperatureLogitsWarper`; next to it, what the text prints.",
    ),
    "temperature.seed.default": ("2,0; 1,0; 0,1", "2.0, 1.0, 0.1"),
    "temperature.seed.input": ("Logits (de 2 a 10 números)", "Logits (2 to 10 numbers)"),
    "temperature.seed.help": (
        "Separe com espaço ou ponto e vírgula, por exemplo 2,0; 1,0; 0,1 ou 3 2 1 0.",
        "Separate with spaces or commas, for example 2.0, 1.0, 0.1 or 3 2 1 0.",
    ),
    "temperature.seed.col.t": ("Temperatura", "Temperature"),
    "temperature.seed.col.token": ("token {name}", "token {name}"),
    "temperature.seed.col.seed": ("o texto imprime", "the text prints"),
    "temperature.seed.col.check": ("confere, arredondando?", "matches when rounded?"),
    "temperature.seed.match": ("sim, ao ponto percentual", "yes, to the percent"),
    "temperature.seed.diff": ("{name}: exato {exact}, o texto diz {seed}%", "{name}: exact {exact}, the text says {seed}%"),
    "temperature.seed.caption_seed": (
        "Tudo confere ao ponto percentual, exceto: {diffs}. O texto não diz como obteve os seus números "
        "(talvez tenha arredondado para a linha somar 100). Os valores exatos são calculados aqui, não "
        "copiados.",
        "Everything matches to the percent except: {diffs}. The text does not say how it got its numbers (it "
        "may have rounded so that the row adds up to 100). The exact values are computed here, not copied.",
    ),
    "temperature.seed.caption_diff": ("o token {name} em T = {t} dá {exact}, e o texto imprime {seed}%",
                                      "token {name} at T = {t} is {exact}, and the text prints {seed}%"),
    "temperature.seed.caption_own": (
        "Seus logits, calculados ao vivo. A coluna do texto só aparece para os logits do texto (2,0; 1,0; 0,1).",
        "Your logits, computed live. The text's column appears only for the text's logits (2.0, 1.0, 0.1).",
    ),
    "temperature.curve.computed": ("calculado", "computed"),
    "temperature.curve.seed": ("pontos do texto", "the text's points"),
    "temperature.curve.kind": ("série", "series"),
    "temperature.curve.caption_seed": (
        "Linha: a probabilidade do token mais provável para cada T, calculada. Quadrados: os pontos que o "
        "texto desenhou. {n} deles não conferem com a conta ao ponto percentual: {diffs}; o texto não diz "
        "como os obteve. A forma é a mesma: cai de quase 100% em direção a {floor} (um terço) conforme T "
        "cresce.",
        "Line: the probability of the most likely token at each T, computed. Squares: the points the text "
        "drew. {n} of them do not match the computation to the percent: {diffs}; the text does not say how it "
        "got them. The shape is the same: it falls from almost 100% towards {floor} (one third) as T grows.",
    ),
    "temperature.curve.diff": (
        "em T = {t} o exato é {exact} (o texto diz {seed}%)",
        "at T = {t} the exact value is {exact} (the text says {seed}%)",
    ),
    "temperature.curve.caption_own": (
        "A probabilidade do token mais provável para cada T, com os seus logits. Com T muito alto ela tende a "
        "{floor} (todos iguais); com T perto de 0, a {cold}: toda a probabilidade vai para o maior logit.",
        "The probability of the most likely token at each T, with your logits. With a very high T it tends to "
        "{floor} (all equal); with T near 0, to {cold}: all the probability goes to the largest logit.",
    ),
    "temperature.curve.caption_tied": (
        "A probabilidade do token mais provável para cada T, com os seus logits. Com T muito alto ela tende a "
        "{floor} (todos iguais); com T perto de 0, a {cold}, não a 100%: {m} logits empatam no topo e dividem a "
        "probabilidade entre si.",
        "The probability of the most likely token at each T, with your logits. With a very high T it tends to "
        "{floor} (all equal); with T near 0, to {cold}, not 100%: {m} logits tie at the top and share the "
        "probability.",
    ),
    "temperature.err.logits_number": (
        "{value} não é um número. Use números como 2,0 ou -1.5, separados por espaço ou ponto e vírgula.",
        "{value} is not a number. Use numbers like 2.0 or -1.5, separated by spaces or commas.",
    ),
    "temperature.err.logits_count": (
        "Escreva de {lo} a {hi} logits; agora são {n}.",
        "Write {lo} to {hi} logits; there are {n} now.",
    ),
    "temperature.axis.t": ("temperatura T", "temperature T"),
    "temperature.axis.ptop": ("P(token mais provável)", "P(most likely token)"),
    "temperature.axis.prob": ("probabilidade", "probability"),
    "temperature.axis.token": ("token", "token"),
    "temperature.axis.entropy": ("entropia (bits)", "entropy (bits)"),
    "temperature.axis.top_p": ("top-p", "top-p"),
    "temperature.axis.ntokens": ("n tokens mais prováveis", "n most likely tokens"),
    "temperature.axis.mass": ("probabilidade somada", "probability together"),
    "temperature.axis.prompt": ("prompt", "prompt"),
    # 2. the real model
    "temperature.real.header": ("2. A distribuição de verdade do modelo", "2. The model's real distribution"),
    "temperature.presets": ("Exemplos", "Examples"),
    "temperature.ctl.t": ("Temperatura T (0 = guloso)", "Temperature T (0 = greedy)"),
    "temperature.ctl.t.help": (
        "Divide os logits por T antes do softmax. Em 0 o modelo não sorteia: pega sempre o de maior logit, depois da "
        "penalidade (guloso, argmax).",
        "Divides the logits by T before the softmax. At 0 the model does not draw: it always takes the highest logit, "
        "after the penalty (greedy, argmax).",
    ),
    "temperature.ctl.k": ("top-k (0 = desligado)", "top-k (0 = off)"),
    "temperature.ctl.k.help": ("Mantém só os k tokens mais prováveis.", "Keeps only the k most likely tokens."),
    "temperature.ctl.p": ("top-p (1 = desligado)", "top-p (1 = off)"),
    "temperature.ctl.p.help": (
        "Mantém o menor conjunto de tokens cuja probabilidade somada chega a p (o núcleo): é a amostragem por "
        "núcleo.",
        "Keeps the smallest set of tokens whose probabilities add up to at least p (the nucleus): this is nucleus "
        "sampling.",
    ),
    "temperature.ctl.r": ("Penalidade de repetição (1 = desligada)", "Repetition penalty (1 = off)"),
    "temperature.ctl.r.help": (
        "Tokens que já estão no texto (prompt incluído) têm o logit dividido por este número (ou multiplicado, se "
        "negativo).",
        "Tokens already in the text (prompt included) get their logit divided by this number (or multiplied, if "
        "negative).",
    ),
    "temperature.ctl.caption": ("**T:** {t} **top-k:** {k} **top-p:** {p} **Penalidade de repetição:** {r}",
                                "**T:** {t} **top-k:** {k} **top-p:** {p} **Repetition penalty:** {r}"),
    "temperature.greedy.on": (
        "T = 0: **guloso**. Não há sorteio: o token de maior logit (depois da penalidade) sai sempre. "
        "Top-k e top-p não fazem nada aqui, como no `generate(do_sample=False)`.",
        "T = 0: **greedy**. There is no draw: the token with the highest logit (after the penalty) always "
        "comes out. Top-k and top-p do nothing here, as in `generate(do_sample=False)`.",
    ),
    "temperature.greedy.short": ("guloso", "greedy"),
    "temperature.greedy.mark": ("T = 0: guloso", "T = 0: greedy"),
    "temperature.metric.kept": ("Tokens que podem sair", "Tokens that can come out"),
    "temperature.metric.kept.help": (
        "De todo o vocabulário, quantos ainda têm probabilidade maior que zero no fim da cadeia. "
        "O núcleo do top-p tem {nucleus} tokens.",
        "Out of the whole vocabulary, how many still have a probability above zero at the end of the chain. "
        "The top-p nucleus has {nucleus} tokens.",
    ),
    "temperature.metric.entropy": ("Entropia", "Entropy"),
    "temperature.metric.top": ("P(token mais provável)", "P(most likely token)"),
    "temperature.bars.kept": ("pode sair", "can come out"),
    "temperature.bars.cut": ("cortado", "cut"),
    "temperature.cut.top_k": ("cortado pelo top-k", "cut by top-k"),
    "temperature.cut.top_p": ("cortado pelo top-p", "cut by top-p"),
    "temperature.cut.greedy": ("não é o argmax", "not the argmax"),
    "temperature.tip.raw": ("probabilidade crua", "raw probability"),
    "temperature.tip.final": ("no fim da cadeia", "at the end of the chain"),
    "temperature.tip.state": ("situação", "status"),
    "temperature.bars.caption": (
        "Os {n} tokens mais prováveis antes de qualquer ajuste, de {vocab}. Azul: a probabilidade final, da "
        "qual o token é sorteado (já renormalizada). Cinza: tokens cortados, na altura que teriam antes do corte.",
        "The {n} most likely tokens before any processing, out of {vocab}. Blue: the final probability the "
        "token is drawn from (already renormalised). Grey: cut tokens, at the height they had before the cut.",
    ),
    "temperature.entropy.before": ("antes do top-k e do top-p", "before top-k and top-p"),
    "temperature.entropy.after": ("com top-k e top-p", "with top-k and top-p"),
    "temperature.entropy.caption": (
        "Entropia da distribuição (em bits) conforme T muda: 0 bits é certeza total (guloso); cada bit a mais "
        "dobra o número de escolhas \"equivalentes\". O ponto laranja mostra quanto top-k e top-p cortam.",
        "Entropy of the distribution (in bits) as T changes: 0 bits is total certainty (greedy); each extra bit "
        "doubles the number of \"equally likely\" choices. The orange dot shows how much top-k and top-p cut.",
    ),
    # 3. the chain
    "temperature.chain.header": ("3. A cadeia, passo a passo", "3. The chain, step by step"),
    "temperature.chain.text": (
        "A mesma ordem do `generate()`: **penalidade de repetição → temperatura → top-k → top-p**. Cada coluna "
        "é a distribuição depois de um processador da transformers, aplicado ao vocabulário inteiro.",
        "The same order as `generate()`: **repetition penalty → temperature → top-k → top-p**. Each column is "
        "the distribution after one of transformers' processors, applied to the whole vocabulary.",
    ),
    "temperature.chain.caption": (
        "Linhas: os tokens mais prováveis; colunas: as etapas. Cinza = cortado nessa etapa ou numa anterior (um token cortado não volta). Um processador "
        "desligado não aparece, como no `generate()`, que o pula.",
        "Rows: the most likely tokens; columns: the stages. Grey = cut at that stage or an earlier one (a cut token never comes back). A processor that is off "
        "does not appear, as in `generate()`, which skips it.",
    ),
    "temperature.heat.cut": ("cortado", "cut"),
    "temperature.stage.raw": ("cru", "raw"),
    "temperature.stage.repetition_penalty": ("pen. de repetição", "rep. penalty"),
    "temperature.stage.temperature": ("temperatura", "temperature"),
    "temperature.stage.top_k": ("top-k", "top-k"),
    "temperature.stage.top_p": ("top-p", "top-p"),
    "temperature.stage.greedy": ("guloso", "greedy"),
    "temperature.chain.col.stage": ("etapa", "stage"),
    "temperature.chain.col.setting": ("ajuste", "setting"),
    "temperature.chain.col.kept": ("tokens que podem sair", "tokens that can come out"),
    "temperature.chain.col.entropy": ("entropia (bits)", "entropy (bits)"),
    "temperature.chain.col.top": ("maior prob. entre os mostrados", "top prob. among those shown"),
    "temperature.chain.off": ("desligado", "off"),
    # 4. draws
    # the live panel's files (ui.temperature.draw.files)
    "temperature.files.title": ("Baixar os gráficos e as probabilidades", "Download the charts and the probabilities"),
    "temperature.files.bars": ("**As barras, nos valores dos controles:**", "**The bars, at the controls' values:**"),
    "temperature.files.entropy": ("**A curva da entropia:**", "**The entropy curve:**"),
    "temperature.files.chain": (
        "**A cadeia, passo a passo:** o mapa de calor (PNG, SVG) e a probabilidade de cada token em cada etapa "
        "(CSV, JSON)",
        "**The chain, step by step:** the heatmap (PNG, SVG) and each token's probability at each stage (CSV, JSON)"),
    "temperature.files.draw": ("**Os sorteios:**", "**The draws:**"),
    "temperature.draw.header": ("4. Sortear de verdade", "4. Draw for real"),
    "temperature.draw.n": ("Quantos sorteios", "How many draws"),
    "temperature.draw.seed": ("Semente", "Seed"),
    "temperature.draw.button": ("Sortear {n} tokens", "Draw {n} tokens"),
    "temperature.draw.prob": ("probabilidade", "probability"),
    "temperature.draw.seen": ("frequência observada", "observed frequency"),
    "temperature.draw.other": ("(outros tokens)", "(other tokens)"),
    "temperature.draw.caption": (
        "{n} sorteios da distribuição final com `torch.multinomial` (a função com que o `generate()` sorteia "
        "cada token), aqui com um `torch.Generator` próprio de semente {seed} e {n} sorteios com reposição. "
        "Tokens diferentes que saíram: {distinct}. A mesma semente dá sempre os mesmos sorteios; com mais "
        "sorteios, as barras laranja se aproximam das azuis.",
        "{n} draws from the final distribution with `torch.multinomial` (the function `generate()` draws each "
        "token with), here with a `torch.Generator` of its own seeded with {seed} and {n} draws with "
        "replacement. Different tokens that came out: {distinct}. The same seed always gives the same draws; "
        "with more draws, the orange bars get closer to the blue ones.",
    ),
    # a concentrated distribution vs a spread one (which is which is measured: ui.temperature.draw.pair_text)
    "temperature.pair.header": ("O top-p se adapta: distribuição concentrada × espalhada",
                                "Top-p adapts: a concentrated distribution vs a spread one"),
    "temperature.pair.text": (
        "Com o mesmo p, o núcleo é pequeno quando a probabilidade se concentra em poucos tokens e grande quando "
        "se espalha por muitos. O top-k não faz isso: mantém sempre k tokens, sejam eles poucos demais ou muitos "
        "demais.",
        "With the same p, the nucleus is small when the probability is concentrated on a few tokens and large "
        "when it is spread over many. Top-k does not do that: it always keeps k tokens, whether that is too few "
        "or too many.",
    ),
    "temperature.pair.nucleus": ("Núcleo de \"{prompt}\" com p = {p}", "Nucleus of \"{prompt}\" at p = {p}"),
    "temperature.pair.p": ("top-p (o mesmo para os dois)", "top-p (the same for both)"),
    "temperature.pair.t": ("Temperatura T (a mesma para os dois)", "Temperature T (the same for both)"),
    "temperature.pair.top": ("Os mais prováveis: {top}", "The most likely: {top}"),
    "temperature.pair.dot": ("{n} tokens", "{n} tokens"),
    "temperature.pair.caption": (
        "Quanto da probabilidade os n tokens mais prováveis cobrem juntos (n em escala logarítmica), para os dois "
        "prompts com o mesmo T. O núcleo do top-p termina onde a curva cruza a linha tracejada p. Os números vêm "
        "do `TopPLogitsWarper`, no vocabulário inteiro.",
        "How much of the probability the n most likely tokens cover together (n on a log scale), for both "
        "prompts at the same T. The top-p nucleus ends where a curve crosses the dashed line p. The numbers come "
        "from `TopPLogitsWarper`, over the whole vocabulary.",
    ),
    "temperature.pair.tops": (
        "Com T = {t}, o token mais provável de \"{a}\" tem {pa} e o de \"{b}\", {pb}: das duas, a distribuição "
        "de \"{a}\" é a mais concentrada (o que não quer dizer que o modelo esteja certo).",
        "At T = {t}, the most likely token of \"{a}\" has {pa} and that of \"{b}\" {pb}: of the two, the "
        "distribution of \"{a}\" is the more concentrated (which does not mean the model is right).",
    ),
    "temperature.pair.sizes.apart": (
        "O núcleo de \"{a}\" fecha em {na} token(s), o de \"{b}\" em {nb}: {ratio} vezes mais.",
        "The nucleus of \"{a}\" closes at {na} token(s), that of \"{b}\" at {nb}: {ratio} times as many.",
    ),
    "temperature.pair.sizes.same": (
        "Com este T e este p, os dois núcleos têm {n} token(s): aqui o top-p não separa os dois prompts.",
        "At this T and this p, both nuclei hold {n} token(s): here top-p does not tell the two prompts apart.",
    ),
    # in the dark
    "temperature.dark.header": ("Por que mexer em T e p juntos \"no escuro\" engana",
                                "Why turning T and p together \"in the dark\" misleads"),
    "temperature.dark.text": (
        "O top-p mede a massa **depois** da temperatura. Subir T achata a distribuição, e o mesmo p passa a deixar "
        "entrar muito mais tokens; baixar T concentra a massa no topo, e o núcleo encolhe até poucos tokens, às "
        "vezes um só: aí o p corta quase tudo, e mexer nele quase não muda mais a distribuição. Os dois botões "
        "mexem na mesma cauda: o efeito de um depende do outro. Por isso o texto aconselha: mexa em um de cada vez.",
        "Top-p measures probability mass **after** the temperature. Raising T flattens the distribution, so the "
        "same p lets in many more tokens; lowering T concentrates the mass at the top, and the nucleus shrinks to "
        "a few tokens, sometimes a single one: then p cuts almost everything, and moving it barely changes the "
        "distribution any more. Both knobs work on the same tail: the effect of one depends on the other. That is "
        "why the text advises: change one at a time.",
    ),
    "temperature.dark.size": ("tokens no núcleo", "tokens in the nucleus"),
    "temperature.dark.caption": (
        "Tamanho do núcleo do top-p (quantos tokens podem sair, só com temperatura e top-p) para este prompt, em cada combinação de T "
        "(linhas) e p (colunas). Cor em escala logarítmica. Aqui, com T = {lo} o núcleo tem de {lo_min} a "
        "{lo_max} token(s); com T = {hi}, de {hi_min} a {hi_max}.",
        "Size of the top-p nucleus (how many tokens can come out, with temperature and top-p only) for this prompt, for each combination of T "
        "(rows) and p (columns). Colour on a logarithmic scale. Here, at T = {lo} the nucleus holds {lo_min} to "
        "{lo_max} token(s); at T = {hi}, {hi_min} to {hi_max}.",
    ),
    # 5. repetition
    "temperature.loop.header": ("5. Penalidade de repetição", "5. Repetition penalty"),
    "temperature.loop.text": (
        "O modo guloso (greedy) pega sempre o mais provável e cai fácil em loop (o texto dá o exemplo \"muito muito muito…\"). "
        "A penalidade de repetição divide o logit de todo token que já está no texto (ou multiplica, se ele for "
        "negativo): sempre para baixo. Abaixo, um loop de "
        "verdade deste modelo e o que a penalidade faz com ele, e um texto que **precisa** repetir tokens. Os "
        "dois no modo guloso (T = 0). O modelo às vezes escreve HTML; aqui ele aparece como texto.",
        "Greedy always takes the most likely token and falls into loops easily (the text's example is \"muito "
        "muito muito…\"). The repetition penalty divides the logit of every token already in the text (or multiplies "
        "it, if it is negative): always downwards. Below, a "
        "real loop of this model and what the penalty does to it, and a text that **needs** to repeat tokens. "
        "Both greedy (T = 0). The model sometimes writes HTML; here it is shown as text.",
    ),
    "temperature.loop.runs": (
        "Mudar este valor roda o modelo (duas gerações gulosas); cada resultado fica guardado.",
        "Changing this value runs the model (two greedy generations); each result is kept.",
    ),
    "temperature.loop.case.loop": ("Um loop de verdade", "A real loop"),
    "temperature.loop.case.needed": ("Um texto que precisa repetir", "A text that needs to repeat"),
    "temperature.loop.running": ("Gerando no modo guloso com penalidade {r}…", "Generating greedily with penalty {r}…"),
    "temperature.loop.with": ("**Penalidade {r}**", "**Penalty {r}**"),
    "temperature.loop.without": ("**Sem penalidade (1,0)**", "**No penalty (1.0)**"),
    "temperature.loop.found": (
        "Loop: um ciclo de {period} tokens se repete {repeats} vezes seguidas no fim.",
        "Loop: a cycle of {period} tokens repeats {repeats} times in a row at the end.",
    ),
    "temperature.loop.counted": ("Números contados certo depois do 5: {n}.", "Numbers counted right after 5: {n}."),
    "temperature.loop.none": ("Nenhum ciclo se repete no fim.", "No cycle repeats at the end."),
    "temperature.loop.warning": (
        "**Cuidado com o excesso.** A penalidade não sabe quais tokens *precisam* se repetir. Para contar, o "
        "modelo precisa da vírgula e dos dígitos que já usou; artigos, preposições e nomes próprios também são "
        "punidos depois da primeira vez.",
        "**Beware of too much.** The penalty does not know which tokens *need* to repeat. To count, the model "
        "needs the comma and the digits it has already used; articles, prepositions and proper names are "
        "punished too after their first use.",
    ),
    "temperature.loop.survives": (
        "Com a penalidade {r}, a contagem ainda sobrevive ({n} números, como sem penalidade): suba a "
        "penalidade e veja a partir de quando ela se desfaz.",
        "With penalty {r}, the count still survives ({n} numbers, as without the penalty): raise the penalty "
        "and see from where it falls apart.",
    ),
    "temperature.loop.breaks": (
        "Com a penalidade {r}, a contagem se desfaz: {n} número(s) contado(s) certo, contra {m} sem "
        "penalidade; o modelo evita justamente os tokens de que o texto precisa.",
        "With penalty {r}, the count falls apart: {n} number(s) counted right, against {m} without the "
        "penalty; the model avoids exactly the tokens the text needs.",
    ),
    "temperature.loop.advice": (
        "Por isso ela se usa com valores pequenos, e ainda assim com cuidado.",
        "That is why it is used with small values, and even then with care.",
    ),
}
