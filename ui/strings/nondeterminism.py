"""Strings of the nondeterminism page: sampling, the cascade, floating-point order, what to do."""

STRINGS = {
    "nondeterminism.title": ("Por que o mesmo prompt dá respostas diferentes",
                             "Why the same prompt gives different answers"),
    "nondeterminism.intro": (
        "Até os logits, o modelo é só aritmética. A variação entra por duas portas, **o sorteio** do próximo "
        "token e **a ordem das contas** em ponto flutuante, e **o efeito cascata** a amplia: um único token "
        "diferente muda o resto (o texto do curso conta a cascata como uma terceira fonte; ela não cria "
        "diferença, só a espalha). O sorteio e o modelo calculado de dois jeitos rodam no modelo de verdade; "
        "as somas em ordens diferentes, em números de exemplo. No fim: o que fazer quando você precisa de "
        "respostas reproduzíveis.",
        "Up to the logits, the model is only arithmetic. Variation comes in through two doors, **the draw** "
        "of the next token and **the order of the arithmetic** in floating point, and **the cascade** "
        "amplifies it: a single different token changes the rest (the course text counts the cascade as a "
        "third source; it creates no difference, it only spreads one). The draw and the model computed two "
        "ways run on the real model; the sums in different orders, on example numbers. At the end: what to do "
        "when you need reproducible answers.",
    ),
    # 1. sampling
    "nondeterminism.sample.head": ("1. Amostragem: o sorteio do próximo token", "1. Sampling: the draw of the next token"),
    "nondeterminism.sample.text": (
        "Com temperatura acima de 0, cada token é **sorteado** da distribuição do modelo. Rode o mesmo prompt "
        "várias vezes e compare os textos. Com a mesma semente, os sorteios se repetem; com temperatura 0 "
        "(guloso) não há sorteio.",
        "With a temperature above 0, every token is **drawn** from the model's distribution. Run the same "
        "prompt several times and compare the texts. With the same seed the draws repeat; with temperature 0 "
        "(greedy) there is no draw.",
    ),
    "nondeterminism.temperature": ("Temperatura (0 = guloso)", "Temperature (0 = greedy)"),
    "nondeterminism.runs": ("Execuções", "Runs"),
    "nondeterminism.tokens": ("Tokens por execução", "Tokens per run"),
    "nondeterminism.mode": ("Semente", "Seed"),
    "nondeterminism.mode.fresh": ("nova a cada execução (como uma API sem semente)",
                                  "a fresh one each run (like an API call without a seed)"),
    "nondeterminism.mode.fixed": ("a mesma em todas as execuções", "the same for every run"),
    "nondeterminism.seed": ("Valor da semente", "Seed value"),
    "nondeterminism.redraw": ("Sortear de novo", "Draw again"),
    "nondeterminism.redraw.help": ("Novas sementes aleatórias para todas as execuções. A página abre com as "
                                   "sementes 1, 2, 3…, as mesmas para todos, para que uma turma veja as mesmas "
                                   "execuções.",
                                   "New random seeds for every run. The page opens with seeds 1, 2, 3…, the same "
                                   "for everyone, so that a class sees the same runs."),
    "nondeterminism.ask.hint": (
        "Este prompt ainda não rodou com estes ajustes: clique para o modelo escrever {tokens} tokens {n} vezes, "
        "com as sementes escolhidas.",
        "This prompt has not run with these settings yet: click to have the model write {tokens} tokens {n} times, "
        "with the chosen seeds.",
    ),
    "nondeterminism.ask.run": ("Rodar {n} vezes", "Run {n} times"),
    "nondeterminism.generating": ("Gerando as execuções, num lote…",
                                  "Generating the runs, as one batch…"),
    "nondeterminism.col.run": ("Execução", "Run"),
    "nondeterminism.col.seed": ("Semente", "Seed"),
    "nondeterminism.col.text": ("Texto gerado", "Generated text"),
    "nondeterminism.col.tokens": ("Tokens", "Tokens"),
    "nondeterminism.col.finish": ("Motivo de parada", "Finish reason"),
    "nondeterminism.greedy_seed": ("nenhuma (guloso)", "none (greedy)"),
    "nondeterminism.finish.stop": ("stop (EOS)", "stop (EOS)"),
    "nondeterminism.finish.length": ("length (limite)", "length (limit)"),
    "nondeterminism.finish.stop_sequence": ("stop (sequência de parada)", "stop (stop sequence)"),
    "nondeterminism.table.caption": (
        "Cada linha é uma execução do mesmo prompt (execuções com a mesma semente, ou gulosas, são calculadas "
        "uma vez só). Texto do modelo, mostrado como texto (↵ = quebra de linha). O motivo de parada "
        "(`finish_reason`) diz por que a execução parou.",
        "Each row is one run of the same prompt (runs with the same seed, or greedy ones, are computed once). "
        "Model text, shown as text (↵ = line break). The finish reason (`finish_reason`) says why the run "
        "stopped.",
    ),
    "nondeterminism.same.greedy": (
        "As {n} linhas têm o mesmo texto: com temperatura 0 o modelo sempre pega o token mais provável, nada "
        "é sorteado, e por isso a execução é calculada uma vez e repetida nas {n} linhas.",
        "All {n} rows have the same text: at temperature 0 the model always takes the most likely token, "
        "nothing is drawn, so the run is computed once and repeated in the {n} rows.",
    ),
    "nondeterminism.same.seeded": (
        "As {n} linhas têm o mesmo texto porque têm a mesma semente: a execução é calculada uma vez e "
        "repetida nas {n} linhas, já que a mesma semente repete os mesmos sorteios (a página do loop mostra "
        "isso rodando de novo).",
        "All {n} rows have the same text because they share one seed: the run is computed once and repeated "
        "in the {n} rows, since the same seed repeats the same draws (the loop page shows it "
        "running again).",
    ),
    "nondeterminism.same.fresh": (
        "Desta vez as {n} execuções saíram iguais, apesar das sementes diferentes: nesta temperatura, a "
        "distribuição estava concentrada num token em cada passo. Sorteie de novo ou aumente a temperatura.",
        "This time all {n} runs came out the same despite different seeds: at this temperature, the "
        "distribution was concentrated on one token at every step. Draw again or raise the temperature.",
    ),
    "nondeterminism.split": (
        "As execuções concordam nos primeiros **{k}** tokens e se separam no **token nº {pos}**. O que cada uma "
        "escolheu ali:",
        "The runs agree on the first **{k}** tokens and part at **token #{pos}**. What each one chose there:",
    ),
    "nondeterminism.split.first": (
        "As execuções já se separam no **primeiro token** gerado. O que cada uma escolheu ali:",
        "The runs already part at the **first** generated token. What each one chose there:",
    ),
    "nondeterminism.col.choice": ("Token escolhido", "Chosen token"),
    "nondeterminism.col.runs": ("Execuções", "Runs"),
    "nondeterminism.ended": ("(terminou)", "(ended)"),
    # 2. the cascade
    "nondeterminism.cascade.head": ("2. Efeito cascata: um token diferente muda o resto",
                                    "2. The cascade: one different token changes the rest"),
    "nondeterminism.cascade.text": (
        "Cada token escolhido vira parte da entrada do passo seguinte. Por isso uma única escolha diferente "
        "(\"Paris, a\" contra \"Paris é\") leva a textos que se afastam cada vez mais. A árvore começa no trecho "
        "que todas as execuções compartilham e se ramifica em cada token onde elas se separam.",
        "Every chosen token becomes part of the next step's input. That is why one different choice "
        "(\"Paris, a\" against \"Paris é\") leads to texts that drift further and further apart. The tree starts "
        "with the stretch every run shares and branches at each token where they part.",
    ),
    "nondeterminism.tree.x": ("Posição do token gerado", "Position of the generated token"),
    "nondeterminism.tree.branch": ("Ramo", "Branch"),
    "nondeterminism.tree.start": ("Começa no token nº", "Starts at token #"),
    "nondeterminism.tree.text": ("Texto do ramo", "Branch text"),
    "nondeterminism.tree.caption": (
        "Cada linha horizontal é um trecho de tokens que algumas execuções compartilham; cada bifurcação é um "
        "token em que elas escolheram diferente. O eixo conta os tokens gerados. Passe o mouse (ou toque) para "
        "ver o texto inteiro do ramo; a tabela abaixo tem o mesmo conteúdo.",
        "Each horizontal line is a stretch of tokens that some runs share; each fork is a token where they "
        "chose differently. The axis counts generated tokens. Hover (or tap) to see a branch's whole text; "
        "the table below has the same content.",
    ),
    "nondeterminism.tree.one": (
        "Todas as execuções são idênticas, então a árvore tem um único ramo. Use sementes novas a cada execução "
        "com temperatura acima de 0 para vê-la se ramificar.",
        "Every run is identical, so the tree has a single branch. Use a fresh seed each run with a temperature "
        "above 0 to see it branch.",
    ),
    # 3. floating point
    "nondeterminism.float.head": ("3. Ponto flutuante: a ordem das contas muda o resultado",
                                  "3. Floating point: the order of the arithmetic changes the result"),
    "nondeterminism.assoc.head": ("(a + b) + c ≠ a + (b + c)", "(a + b) + c ≠ a + (b + c)"),
    "nondeterminism.assoc.text": (
        "Em float32, cada soma é arredondada para o número representável mais próximo (cerca de 7 dígitos "
        "significativos). Agrupar as mesmas três parcelas de outro jeito arredonda em outros pontos. Calculado "
        "agora, em float32, com numpy:",
        "In float32, every addition is rounded to the nearest representable number (about 7 significant "
        "digits). Grouping the same three numbers another way rounds at other points. Computed just now, in "
        "float32, with numpy:",
    ),
    "nondeterminism.col.equal": ("Iguais?", "Equal?"),
    "nondeterminism.col.exact": ("Valor exato", "Exact value"),
    "nondeterminism.yes": ("sim", "yes"),
    "nondeterminism.no": ("não", "no"),
    "nondeterminism.assoc.caption": (
        "Cada float32 aparece com o menor número de dígitos que o identifica: \"0,1\" é o float32 mais próximo "
        "de 0,1, que vale 0,100000001…. \"Valor exato\" é a soma sem arredondamento das parcelas como o float32 "
        "as guarda, por isso nem ela dá 0,8.",
        "Each float32 is shown with the fewest digits that identify it: \"0.1\" is the float32 nearest 0.1, "
        "worth 0.100000001…. \"Exact value\" is the unrounded sum of the inputs as float32 stores them, "
        "which is why not even it is 0.8.",
    ),
    "nondeterminism.assoc.seed": (
        "**Um erro do texto do curso.** Ele diz que somas de ponto flutuante \"não são comutativas\". São: "
        "a + b e b + a dão sempre o mesmo float, porque o resultado é o valor exato arredondado, e o valor exato é "
        "o mesmo. Calculado agora com {n} pares de float32: a + b = b + a em {commute}. O que falha é a "
        "**associatividade**, a fórmula que o próprio texto escreve, (a + b) + c ≠ a + (b + c): com os mesmos "
        "números em trios, os dois agrupamentos coincidiram em só {grouped} de {n}.",
        "**An error in the course text.** It says floating-point sums are \"not commutative\" (\"não são "
        "comutativas\"). They are: a + b and b + a always give the same float, because the result is the exact "
        "value rounded, and the exact value is the same. Computed just now on {n} float32 pairs: a + b = b + a in "
        "{commute}. What fails is **associativity**, the formula the text itself writes, (a + b) + c ≠ a + (b + c): "
        "on the same numbers in triples, the two groupings agreed in only {grouped} of {n}.",
    ),
    "nondeterminism.assoc.own": ("Teste os seus números", "Try your own numbers"),
    "nondeterminism.assoc.result": ("(a + b) + c = **{left}** · a + (b + c) = **{right}** · exato: {exact}",
                                    "(a + b) + c = **{left}** · a + (b + c) = **{right}** · exact: {exact}"),
    "nondeterminism.assoc.differ": ("Os dois agrupamentos dão resultados diferentes.",
                                    "The two groupings give different results."),
    "nondeterminism.assoc.same": (
        "Com estes números os dois agrupamentos coincidem. Tente números de tamanhos muito diferentes, como "
        "100000000, -100000000 e 1.",
        "With these numbers both groupings agree. Try numbers of very different sizes, such as 100000000, "
        "-100000000 and 1.",
    ),
    "nondeterminism.sum.head": ("Um vetor longo somado em ordens diferentes",
                                "A long vector summed in different orders"),
    "nondeterminism.sum.text": (
        "Os mesmos números float32 (sinais e tamanhos variados, como as ativações de uma rede), somados em "
        "seis ordens. Uma GPU divide cada soma entre muitas threads, e a ordem em que as partes se juntam "
        "depende da forma do cálculo (tamanho do lote, kernel escolhido). Com o mesmo lote, os kernels usuais "
        "repetem a mesma ordem; num servidor, o lote muda a cada pedido (He et al., Thinking Machines, 2025). "
        "O texto do curso atribui a variação à ordem paralela em si; é o lote que a muda.",
        "The same float32 numbers (mixed signs and sizes, like a network's activations), added up in six "
        "orders. A GPU splits every sum across many threads, and the order in which the parts are combined "
        "depends on the shape of the computation (batch size, the kernel chosen). With the same batch, the "
        "usual kernels repeat the same order; on a server, the batch changes with every request (He et al., "
        "Thinking Machines, 2025). The course text blames the parallel order itself; it is the batch that "
        "changes it.",
    ),
    "nondeterminism.sum.n": ("Tamanho do vetor", "Vector length"),
    "nondeterminism.col.order": ("Ordem", "Order"),
    "nondeterminism.col.total": ("Total em float32", "float32 total"),
    "nondeterminism.col.error": ("Diferença para a soma exata", "Difference from the exact sum"),
    "nondeterminism.order.stored": ("da esquerda para a direita", "left to right"),
    "nondeterminism.order.ascending": (
        "crescente (do mais negativo ao mais positivo)",
        "ascending (most negative first)",
    ),
    "nondeterminism.order.descending": (
        "decrescente (do mais positivo ao mais negativo)",
        "descending (most positive first)",
    ),
    "nondeterminism.order.shuffled": ("embaralhada", "shuffled"),
    "nondeterminism.order.pairwise": ("em pares, como uma árvore (numpy.sum)", "in pairs, as a tree (numpy.sum)"),
    "nondeterminism.order.torch": ("em blocos paralelos (torch.sum)", "in parallel blocks (torch.sum)"),
    "nondeterminism.sum.caption": (
        "Diferença entre cada total em float32 e a soma exata dos mesmos {n} números ({exact}). Mesmos números, "
        "mesma máquina: só a ordem das somas mudou.",
        "Difference between each float32 total and the exact sum of the same {n} numbers ({exact}). Same "
        "numbers, same machine: only the order of the additions changed.",
    ),
    "nondeterminism.model.head": ("O modelo real, calculado de dois jeitos", "The real model, computed two ways"),
    "nondeterminism.model.text": (
        "Um servidor pode calcular o mesmo prompt de jeitos diferentes: em bfloat16 para ganhar velocidade, ou "
        "junto com pedidos de outras pessoas num lote (batch), com preenchimento (padding) à esquerda. Aqui o "
        "modelo de verdade faz as duas coisas. Compare os logits do próximo token e as completações gulosas "
        "(temperatura 0, sem nenhum sorteio).",
        "A server may compute the same prompt in different ways: in bfloat16 for speed, or together with other "
        "people's requests in a batch, padded on the left. Here the real model does both. Compare the "
        "next-token logits and the greedy completions (temperature 0, nothing drawn).",
    ),
    "nondeterminism.model.prompt": ("Prompt da comparação", "Prompt for the comparison"),
    "nondeterminism.model.default_prompt": ("A capital da França é", "The capital of France is"),
    "nondeterminism.model.tokens": ("Tokens gerados", "Generated tokens"),
    "nondeterminism.model.run": ("Comparar", "Compare"),
    "nondeterminism.model.hint": (
        "Leva alguns segundos na CPU; depois fica guardado e volta na hora.",
        "Takes a few seconds on the CPU; afterwards it is kept and comes back at once.",
    ),
    "nondeterminism.progress.run": ("Calculando: {way}…", "Computing: {way}…"),
    "nondeterminism.way.float32": ("float32", "float32"),
    "nondeterminism.way.bfloat16": ("bfloat16", "bfloat16"),
    "nondeterminism.way.alone": ("sozinho (lote de 1)", "alone (batch of 1)"),
    "nondeterminism.way.batch": ("num lote de {n}", "in a batch of {n}"),
    "nondeterminism.way.cpu": ("CPU", "CPU"),
    "nondeterminism.way.cuda": ("GPU (CUDA)", "GPU (CUDA)"),
    "nondeterminism.cmp.dtype": ("float32 × bfloat16", "float32 vs bfloat16"),
    "nondeterminism.cmp.batch": ("Sozinho × num lote de {n} (float32)", "Alone vs in a batch of {n} (float32)"),
    "nondeterminism.cmp.device": ("CPU × GPU (float32)", "CPU vs GPU (float32)"),
    "nondeterminism.m.diff": ("Maior diferença entre logits", "Largest logit difference"),
    "nondeterminism.m.diff.help": (
        "O maior |logit_a − logit_b| entre os {vocab} tokens do vocabulário, na última posição do prompt.",
        "The largest |logit_a − logit_b| over the {vocab} tokens of the vocabulary, at the prompt's last "
        "position.",
    ),
    "nondeterminism.m.top": ("Token mais provável", "Most likely token"),
    "nondeterminism.m.top.same": ("o mesmo", "the same"),
    "nondeterminism.m.top.changed": ("mudou", "changed"),
    "nondeterminism.m.split": ("Primeiro token diferente", "First different token"),
    "nondeterminism.m.split.at": ("nº {pos}", "#{pos}"),
    "nondeterminism.m.split.none": ("nenhum", "none"),
    "nondeterminism.m.split.help": (
        "Onde as duas completações gulosas (temperatura 0) de {n} tokens escolhem tokens diferentes pela "
        "primeira vez.",
        "Where the two greedy (temperature 0) completions of {n} tokens first choose different tokens.",
    ),
    "nondeterminism.zero": (
        "Aqui a diferença foi exatamente zero: nesta máquina, os dois jeitos fizeram as mesmas contas na mesma "
        "ordem. Em GPUs, kernels diferentes para cada tamanho de lote costumam mudar essa ordem.",
        "Here the difference was exactly zero: on this machine both ways did the same arithmetic in the same "
        "order. On GPUs, different kernels for each batch size tend to change that order.",
    ),
    "nondeterminism.tiny": (
        "A diferença é minúscula, mas não é zero: mesmas contas, outra ordem de soma. Ela só troca um token "
        "quando os dois melhores candidatos estão quase empatados.",
        "The difference is tiny, but not zero: the same arithmetic, another order of addition. It only swaps a "
        "token when the two best candidates are almost tied.",
    ),
    "nondeterminism.cause.order": (
        "Mesmas contas, outra ordem de soma: em ponto flutuante, (a + b) + c pode não dar a + (b + c). Aqui essa "
        "diferença pequena bastou para trocar um token, porque os dois melhores candidatos estavam quase empatados.",
        "The same arithmetic, another order of addition: in floating point, (a + b) + c need not equal a + (b + c). "
        "Here that small difference was enough to swap a token, because the two best candidates were nearly tied.",
    ),
    "nondeterminism.cause.dtype": (
        "Aqui a causa não é a ordem das somas: em bfloat16, cada peso e cada resultado intermediário é arredondado "
        "para {bits} bits de mantissa (o float32 guarda {bits32}), cerca de {digits} algarismos decimais. Esse erro se acumula "
        "camada após camada, então a diferença nos logits não precisa ser pequena.",
        "Here the cause is not the order of the sums: in bfloat16, every weight and every intermediate result is "
        "rounded to {bits} bits of mantissa (float32 keeps {bits32}), about {digits} decimal digits. That error adds up layer "
        "after layer, so the difference in the logits need not be small.",
    ),
    "nondeterminism.col.way": ("Jeito", "Way"),
    "nondeterminism.col.at": ("Token nº {pos}", "Token #{pos}"),
    "nondeterminism.col.gap": ("Vantagem sobre o 2º colocado (logit)", "Lead over the runner-up (logit)"),
    "nondeterminism.split.caption": (
        "No token nº {pos} os dois jeitos escolheram tokens diferentes: pelo cálculo de {a}, o escolhido "
        "liderava o segundo colocado por {gap_a} (em logits); pelo de {b}, por {gap_b}. {tie}Daí em diante o "
        "efeito cascata fez o resto.",
        "At token #{pos} the two ways chose different tokens: by {a}'s computation, the chosen one led the "
        "runner-up by {gap_a} (in logits); by {b}'s, by {gap_b}. {tie}From there the cascade did the rest.",
    ),
    "nondeterminism.split.tie": ("Uma vantagem menor que {near} some com uma diferença pequena nos logits. ",
                                 "A lead under {near} vanishes with a small difference in the logits. "),
    "nondeterminism.split.ended": ("No token nº {pos} os textos se separam (um deles já tinha terminado); daí "
                                   "em diante o efeito cascata fez o resto.",
                                   "At token #{pos} the texts part (one had already ended); from there the "
                                   "cascade did the rest."),
    "nondeterminism.fillers": ("Os outros pedidos do lote", "The other requests in the batch"),
    "nondeterminism.engine.note": (
        "O servidor deste app também junta num lote os pedidos de visitantes que chegam ao mesmo tempo, mas "
        "calcula a atenção de cada linha do lote (uma sequência) só sobre as chaves "
        "dela, sem o preenchimento. Um pedido de várias linhas, como as execuções acima, é calculado do mesmo "
        "jeito sozinho ou no lote. Em bfloat16, onde a CPU daria a uma linha sozinha outros números que no lote, "
        "ele a calcula como duas linhas iguais. Assim, na CPU em que medimos (com o caminho rápido do oneDNN "
        "para bfloat16), cada prompt medido teve os mesmos logits, bit a bit, sozinho ou num lote com outros. "
        "Em float32, que o app usa nas CPUs sem esse caminho, uma linha sozinha passa por um kernel "
        "próprio, mais rápido que o do lote: num pedido de uma linha só, e nos logits do primeiro token, que a "
        "passada do prompt calcula numa linha. Ali os últimos dígitos dos logits podem mudar. A comparação acima "
        "usa um lote comum, sem esses cuidados.",
        "This app's own server also batches the requests of visitors who arrive at the same moment, but computes "
        "each batch row's attention (one sequence) on that row's own keys only, without the "
        "padding. A request of several rows, like the runs above, is computed the same way alone or in the "
        "batch. In bfloat16, where the CPU would give a row alone other numbers than in the batch, it computes "
        "that row as two equal rows. So, on the CPU we measured (with oneDNN's fast bfloat16 path), every "
        "prompt we measured got the same logits, bit for bit, alone or in a batch with others. In float32, which "
        "the app uses on CPUs without that path, a row alone takes its own kernel, faster than the batch's: in a "
        "request of one row, and for the first token's logits, which the prompt's pass computes in one row. "
        "There the last digits of the logits can change. The comparison above uses an ordinary batch, without "
        "these measures.",
    ),
    "nondeterminism.no_gpu": (
        "Não há GPU nesta máquina. Onde houver CUDA, esta seção também compara GPU × CPU com o mesmo prompt.",
        "There is no GPU on this machine. Where CUDA is present, this section also compares GPU against CPU "
        "on the same prompt.",
    ),
    # 4. what to do
    "nondeterminism.dev.head": ("4. O que fazer como desenvolvedor", "4. What a developer should do"),
    "nondeterminism.dev.text": (
        "- **Para reproduzir:** temperatura 0 (ou uma semente fixa) e registre modelo, versão, parâmetros e "
        "semente de cada chamada.\n"
        "- **Mesmo assim pode variar:** num servidor de GPU compartilhado, o seu pedido cai em lotes de tamanhos "
        "diferentes a cada vez, e os kernels somam em outra ordem. Uma diferença minúscula só troca o token "
        "quando dois candidatos estão quase empatados (a seção 3 compara os dois jeitos), e o efeito cascata "
        "faz o resto.\n"
        "- **Compare pelo significado, não pelo texto exato:** em testes, verifique fatos, campos e formato (ou "
        "use um avaliador), não a igualdade das strings.\n"
        "- **Sempre confira o `finish_reason`:** `length` quer dizer que a resposta foi cortada no limite de "
        "tokens, não que o modelo terminou; `stop` é o fim natural (o token de parada, EOS) ou uma sequência de "
        "parada.",
        "- **To reproduce:** temperature 0 (or a fixed seed), and record the model, its version, the parameters "
        "and the seed of every call.\n"
        "- **It can still vary:** on a shared GPU server your request lands in batches of a different size each "
        "time, and the kernels add up in another order. A tiny difference swaps the token only when "
        "two candidates nearly tie (section 3 compares the two ways), and the cascade does the rest.\n"
        "- **Compare by meaning, not by exact text:** in tests, check facts, fields and format (or use a "
        "grader), not string equality.\n"
        "- **Always check `finish_reason`:** `length` means the answer was cut at the token limit, not that the "
        "model was done; `stop` is the natural end (the end-of-sequence token, EOS) or a stop sequence.",
    ),
}
