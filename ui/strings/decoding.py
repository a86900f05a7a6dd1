"""Strings of the decoding-strategies page (Holtzman et al. 2019, "The Curious Case of Neural Text Degeneration")."""

STRINGS = {
    "nav.decoding": ("Estratégias de decodificação", "Decoding strategies"),
    "decoding.title": ("Estratégias de decodificação: por que guloso e beam search degeneram",
                       "Decoding strategies: why greedy and beam search degenerate"),
    "decoding.intro": (
        "O mesmo modelo, o mesmo prompt, cinco jeitos de escolher o próximo token. Holtzman e colegas "
        "(*The Curious Case of Neural Text Degeneration*, 2019) mostraram que buscar o texto **mais provável** "
        "(guloso, beam search) dá texto repetitivo e sem graça, que sortear da distribuição inteira dá texto "
        "incoerente, e propuseram o **top-p** (amostragem por núcleo) entre os dois. Aqui isso roda de verdade, no "
        "{model}, com o `generate()` da biblioteca transformers. Nada roda até você apertar um botão.",
        "The same model, the same prompt, five ways to pick the next token. Holtzman and colleagues (*The "
        "Curious Case of Neural Text Degeneration*, 2019) showed that searching for the **most likely** text "
        "(greedy, beam search) gives repetitive, bland text, that sampling from the whole distribution gives "
        "incoherent text, and proposed **top-p** (nucleus sampling) in between. Here it runs for real, on {model}, "
        "with the transformers library's own `generate()`. Nothing runs until you press a button.",
    ),
    # 1. side by side
    "decoding.side.header": ("1. Cinco estratégias, um prompt", "1. Five strategies, one prompt"),
    "decoding.side.text": (
        "- **guloso**: sempre o token mais provável;\n"
        "- **beam search**: mantém as *w* sequências (a largura do beam) de maior probabilidade acumulada e devolve a de maior pontuação (soma dos log p ÷ nº de tokens);\n"
        "- **amostragem pura** (T = 1): sorteia da distribuição inteira do modelo;\n"
        "- **top-k {k}**: sorteia entre os {k} tokens mais prováveis;\n"
        "- **top-p {p}**: sorteia do menor conjunto de tokens que soma ao menos {p_pct} da probabilidade.\n\n"
        "As três amostragens rodam juntas num único `generate()` em lote, e a semente fixa os sorteios.",
        "- **greedy**: always the most likely token;\n"
        "- **beam search**: keeps the *w* sequences (the beam width) with the highest cumulative probability and returns the "
        "one with the highest score (sum of log p ÷ number of tokens);\n"
        "- **pure sampling** (T = 1): draws from the model's whole distribution;\n"
        "- **top-k {k}**: draws among the {k} most likely tokens;\n"
        "- **top-p {p}**: draws from the smallest set of tokens that adds up to at least {p_pct} of the probability.\n\n"
        "The three sampled strategies run together in one batched `generate()`, and the seed fixes the draws.",
    ),
    "decoding.ctl.width": ("Largura do beam", "Beam width"),
    "decoding.ctl.width.help": ("Quantas sequências o beam search mantém a cada passo.",
                                "How many sequences beam search keeps at each step."),
    "decoding.ctl.tokens": ("Tokens novos", "New tokens"),
    "decoding.ctl.seed": ("Semente dos sorteios", "Seed of the draws"),
    "decoding.run": ("Rodar as cinco estratégias", "Run the five strategies"),
    "decoding.run.hint": (
        "Aperte o botão para rodar o modelo; uma barra mostra o progresso e cada resultado fica guardado. O custo "
        "cresce com a largura do beam e com os tokens (o beam {w} com {n} tokens é o mais lento); a tabela mostra "
        "quanto cada estratégia levou neste servidor, na execução que produziu o resultado.",
        "Press the button to run the model; a bar shows the progress and every result is kept. The cost grows with "
        "the beam width and the tokens (beam {w} over {n} tokens is the slowest); the table shows how long each "
        "strategy took on this server, in the run that produced the result.",
    ),
    "decoding.run.changed": ("As configurações mudaram: aperte o botão de novo para rodar com elas.",
                             "The settings changed: press the button again to run with them."),
    "decoding.progress": ("{what}: passo {n} de {total}", "{what}: step {n} of {total}"),
    "decoding.progress.all": ("as cinco estratégias, ao mesmo tempo", "the five strategies, at once"),
    "decoding.progress.bench": ("o prompt da tabela", "the table's prompt"),
    "decoding.strategy.greedy": ("guloso", "greedy"),
    "decoding.strategy.beam": ("beam {w}", "beam {w}"),
    "decoding.strategy.sampling": ("amostragem pura (T = 1)", "pure sampling (T = 1)"),
    "decoding.strategy.top_k": ("top-k {k}", "top-k {k}"),
    "decoding.strategy.top_p": ("top-p {p}", "top-p {p}"),
    "decoding.col.strategy": ("estratégia", "strategy"),
    "decoding.col.measure": ("medida", "measure"),
    "decoding.col.tokens": ("tokens", "tokens"),
    "decoding.col.repeated": ("4-gramas repetidos", "repeated 4-grams"),
    "decoding.col.distinct1": ("distinct-1", "distinct-1"),
    "decoding.col.distinct2": ("distinct-2", "distinct-2"),
    "decoding.col.logprob": ("log-prob média por token", "mean log-prob per token"),
    "decoding.axis.logprob": ("log-prob média / token", "mean log-prob / token"),  # short: fits the chart's height
    "decoding.col.seconds": ("tempo (s)", "time (s)"),
    "decoding.col.similarity": ("autossimilaridade", "self-similarity"),
    "decoding.col.loops": ("termina em loop", "ends in a loop"),
    "decoding.col.token": ("token", "token"),
    "decoding.col.position": ("posição", "position"),
    "decoding.col.repeat": ("repetido?", "repeated?"),
    "decoding.yes": ("sim", "yes"),
    "decoding.no": ("não", "no"),
    "decoding.batch": ("{s} (lote)", "{s} (batch)"),  # the caption says how many rows: short, the table fits
    "decoding.dtype.note": (
        "Aqui as cinco estratégias rodam em {dtype}, não em {was}: este processador não tem o caminho rápido "
        "do oneDNN para {was}, e o beam search multiplica uma linha por sequência do beam a cada passo, o que no caminho "
        "comum de {was} sai várias vezes mais lento.",
        "Here the five strategies run in {dtype}, not {was}: this CPU lacks oneDNN's fast path for {was}, and "
        "beam search multiplies one row per beam at every step, which on {was}'s plain path is several times "
        "slower.",
    ),
    "decoding.table.caption": (
        "**4-gramas repetidos**: fração das sequências de 4 tokens da completação que já tinham aparecido "
        "antes nela. **distinct-n**: sequências de n tokens diferentes ÷ todas (1 = nada se repete). "
        "**log-prob média**: a média de log p(token) sob o próprio modelo (T = 1, sem filtro), como a "
        "geração o calculou a cada passo; perto de 0 = texto que o modelo acha provável. **tempo**: "
        "segundos de relógio do `generate()` de cada estratégia, com a passada do prompt, na execução que produziu "
        "este resultado; as três amostragens são um só `generate()` de {n} linhas. As três execuções desta página "
        "correm ao mesmo tempo, e o servidor junta os passos delas e os de outros visitantes numa passada só, "
        "então o tempo inclui a espera e as outras linhas.",
        "**Repeated 4-grams**: share of the completion's 4-token sequences that had already appeared earlier "
        "in it. **distinct-n**: different n-token sequences ÷ all of them (1 = nothing repeats). **Mean "
        "log-prob**: the mean of log p(token) under the model itself (T = 1, no filter), as the generation "
        "computed it at each step; near 0 = text the model finds likely. **Time**: "
        "wall-clock seconds of each strategy's `generate()`, prompt pass included, in the run that produced this "
        "result; the three sampled strategies are one `generate()` of {n} rows. This page's three runs go at "
        "once, and the server puts their steps and other visitors' in one pass, so the time includes waiting "
        "and the other rows.",
    ),
    "decoding.text.caption": (
        "Cada completação, token a token; em laranja, os tokens de um 4-grama que já tinha aparecido antes na "
        "mesma completação (a primeira ocorrência fica branca, salvo num loop de menos de {n} tokens, em que as ocorrências se sobrepõem). Passe o mouse para ver cada token.",
        "Each completion, token by token; in orange, the tokens of a 4-gram that had already appeared earlier "
        "in the same completion (its first occurrence stays white, except in a loop shorter than {n} tokens, where occurrences overlap). Hover to see each token.",
    ),
    "decoding.text.plain": ("O texto de cada completação", "The text of each completion"),
    # 2. beam tree
    "decoding.tree.header": ("2. Dentro do beam search: os primeiros passos",
                             "2. Inside beam search: the first steps"),
    "decoding.tree.text": (
        "O beam search da seção 1, passo a passo, como o `generate()` o fez (um *LogitsProcessor* só "
        "anota o que a biblioteca lhe entrega, sem mudar nada). A cada passo, cada sequência mantida "
        "propõe tokens; todas as propostas são ordenadas pela **log-probabilidade acumulada** (a soma dos "
        "log p de todos os seus tokens), e só as *w* melhores seguem (*w*, a largura do beam). Azul: mantidas. Cinza: cortadas. "
        "Rosa: terminou (token de parada). Laranja: o caminho da sequência que venceu no fim. Clique num nó para ver as propostas daquele passo.",
        "Section 1's beam search, step by step, as `generate()` ran it (a *LogitsProcessor* only records what "
        "the library hands it, and changes nothing). At each step, every kept sequence proposes tokens; all "
        "proposals are ranked by **cumulative log-probability** (the sum of the log p of all their tokens), and "
        "only the best *w* go on (*w*, the beam width). Blue: kept. Grey: pruned. Pink: ended (end-of-sequence token). Orange: the path of the sequence that won in the "
        "end. Click a node to see that step's proposals.",
    ),
    "decoding.tree.root": ("prompt", "prompt"),
    "decoding.tree.none": ("Rode as cinco estratégias (seção 1) para ver a árvore.",
                           "Run the five strategies (section 1) to see the tree."),
    "decoding.tree.axis.step": ("passo", "step"),
    "decoding.tree.axis.rank": ("colocação no passo", "rank in its step"),
    "decoding.tree.status": ("situação", "status"),
    "decoding.status.kept": ("mantida", "kept"),
    "decoding.status.pruned": ("cortada", "pruned"),
    "decoding.status.ended": ("terminou (token de parada, EOS)", "ended (end-of-sequence token, EOS)"),
    "decoding.status.winner": ("caminho vencedor", "winning path"),
    "decoding.col.cum": ("log-prob acumulada", "cumulative log-prob"),
    "decoding.col.logp": ("log p(token)", "log p(token)"),
    "decoding.col.rank": ("colocação", "rank"),
    "decoding.col.beam": ("sequência até aqui", "sequence so far"),
    "decoding.tree.caption": (
        "Beam {w}, os primeiros {steps} passos: {kept} sequências mantidas por passo e as {pruned} melhores "
        "das não mantidas (as outras não aparecem). A vencedora terminou com pontuação {score}: a soma dos log p ÷ número de tokens, o que o "
        "`generate()` usa para escolher (e devolve em `sequences_scores`), lido aqui dos passos do próprio beam search.",
        "Beam {w}, the first {steps} steps: {kept} sequences kept per step and the best {pruned} of those not kept (the others are not drawn). The "
        "winner ended with score {score}: the sum of log p ÷ number of tokens, what `generate()` chooses by (and "
        "returns in `sequences_scores`), read here from the search's own steps.",
    ),
    "decoding.tree.off_first": (
        "Repare: aqui o caminho vencedor não tem a colocação 1 em todo passo: no passo {step} ele está em "
        "{rank}º. O beam guarda a sequência, não o melhor token de cada passo.",
        "Note: here the winning path is not rank 1 at every step: at step {step} it is rank {rank}. The beam "
        "keeps the sequence, not the best token of each step.",
    ),
    "decoding.tree.all_first": (
        "Nesta execução o caminho vencedor teve a colocação 1 em todos os passos mostrados; com outro prompt ou "
        "outra largura, ele pode passar por um token que não era o melhor do seu passo.",
        "In this run the winning path was rank 1 at every step shown; with another prompt or width, it can go "
        "through a token that was not the best of its step.",
    ),
    "decoding.tree.step": ("Propostas do passo {n}", "Proposals of step {n}"),
    "decoding.tree.picked": ("Nó escolhido: colocação {rank} no passo {n}.", "Picked node: rank {rank} of step {n}."),
    # 3. feedback loop
    "decoding.loop.header": ("3. Por que o loop se alimenta", "3. Why the loop feeds itself"),
    "decoding.loop.text": (
        "A figura 4 do artigo: uma frase repetida *n* vezes. O artigo encontrou que a cada cópia o modelo acha a "
        "próxima **mais** provável: quanto mais o texto se repete, mais ele espera que se repita. Por isso um loop "
        "de guloso não se desfaz sozinho: cada volta torna a próxima mais certa. Aqui isso é medido neste modelo, "
        "com a frase que você escolher; a outra curva passa os mesmos logits pela penalidade de repetição da "
        "biblioteca (`RepetitionPenaltyLogitsProcessor`). Ela não subtrai: divide por r o logit positivo (e "
        "multiplica por r o negativo) de todo token que já está no texto.",
        "The paper's Figure 4: a sentence repeated *n* times. The paper found that with each copy the model finds "
        "the next copy **more** likely: the more the text repeats, the more it expects repetition. That is why a "
        "greedy loop does not undo itself: each turn makes the next one more certain. Here it is measured on this "
        "model, with the sentence you pick; the other curve passes the same logits through the library's "
        "repetition penalty (`RepetitionPenaltyLogitsProcessor`). It does not subtract: it divides by r the "
        "positive logit (and multiplies by r the negative one) of every token already in the text.",
    ),
    "decoding.loop.presets": ("Frases prontas", "Ready sentences"),
    "decoding.loop.sentence": ("Frase a repetir", "Sentence to repeat"),
    "decoding.loop.times": ("Repetições (n)", "Repetitions (n)"),
    "decoding.loop.penalty": ("Penalidade de repetição", "Repetition penalty"),
    "decoding.loop.run": ("Medir", "Measure"),
    "decoding.loop.hint": ("Aperte **Medir**: é uma passada do modelo sobre o texto repetido.",
                           "Press **Measure**: it is one model pass over the repeated text."),
    "decoding.loop.axis.rep": ("repetição da frase (n)", "repetition of the sentence (n)"),
    "decoding.loop.axis.prob": ("P(token), média da repetição", "P(token), mean over the repetition"),
    "decoding.loop.curve": ("curva", "curve"),
    "decoding.loop.raw": ("sem penalidade", "no penalty"),
    "decoding.loop.penalized": ("penalidade {r}", "penalty {r}"),
    "decoding.loop.token_prob": ("P(token)", "P(token)"),
    "decoding.loop.caption": (
        "Cada ponto grande é a probabilidade média que o modelo dá aos tokens de uma cópia da frase, dado tudo o "
        "que veio antes; os pontos pequenos são os tokens. Sem penalidade: de {first} na 1ª cópia para {last} na "
        "{n}ª ({verdict}). Com penalidade {r}: {pfirst} → {plast}.",
        "Each large point is the mean probability the model gives the tokens of one copy of the sentence, given "
        "everything before; the small points are the tokens. No penalty: from {first} at the 1st copy to {last} "
        "at copy {n} ({verdict}). With penalty {r}: {pfirst} → {plast}.",
    ),
    "decoding.loop.climbs": ("sobe a cada cópia", "it climbs with every copy"),
    "decoding.loop.rises": ("sobe, mas não a cada cópia", "it rises, but not with every copy"),
    "decoding.loop.flat": ("não sobe: com esta frase o artigo não se confirma", "it does not rise: with this sentence "
                           "the paper's finding does not hold"),
    "decoding.loop.cut": ("O texto foi encurtado para {n} repetições (limite de {limit} tokens).",
                          "The text was cut to {n} repetitions (limit of {limit} tokens)."),
    "decoding.loop.empty": ("Digite uma frase para repetir.", "Type a sentence to repeat."),
    # 4. comparison
    "decoding.cmp.header": ("4. A comparação do artigo, em miniatura", "4. The paper's comparison, in miniature"),
    "decoding.cmp.text": (
        "O artigo comparou as estratégias em milhares de textos. Aqui, {n} começos de texto escritos para este "
        "projeto ({pt} em português, {en} em inglês), cada estratégia com até {tokens} tokens (beam {w}; {samples} "
        "amostras por estratégia sorteada). A tabela vem de `bench/decoding_bench.py`, rodado uma vez "
        "({date}, {wall} s); é dado guardado, não roda agora. **Autossimilaridade**: a sobreposição média "
        "(Jaccard) dos trigramas entre as amostras do mesmo prompt (linhas do mesmo lote, sorteadas com a semente "
        "do prompt: a posição dele na lista, contando do zero); guloso e beam são determinísticos, então dão sempre o mesmo texto: "
        "posto em 1.",
        "The paper compared the strategies on thousands of texts. Here, {n} openings written for this project "
        "({pt} in Portuguese, {en} in English), each strategy with up to {tokens} tokens (beam {w}; {samples} samples "
        "per sampled strategy). The table comes from `bench/decoding_bench.py`, run once ({date}, {wall} s); it "
        "is stored data, nothing runs now. **Self-similarity**: the mean overlap (Jaccard) of trigrams between "
        "the samples of the same prompt (rows of one batch, drawn with the prompt's seed: its position in the list, counting from zero); greedy and "
        "beam are deterministic, so they always give the same text: set to 1.",
    ),
    "decoding.cmp.partial": (
        "A execução gravada cobriu {n} dos {total} prompts; a tabela é a média desses {n}.",
        "The stored run covered {n} of the {total} prompts; the table is the mean over those {n}.",
    ),
    "decoding.cmp.caption": (
        "Médias sobre os {n} prompts. **termina em loop**: fração das completações cujo fim é um ciclo de "
        "tokens repetido ao menos 3 vezes seguidas.",
        "Means over the {n} prompts. **Ends in a loop**: share of the completions whose end is a cycle of "
        "tokens repeated at least 3 times in a row.",
    ),
    "decoding.cmp.chart.caption": (
        "Cada estratégia num ponto: repetição (→) contra log-prob média (↑). O artigo não tem este gráfico: "
        "pela sua Tabela 1, guloso e beam têm perplexidade (exp(−log-prob média): baixa = em cima) muito baixa e muita repetição, a amostragem pura "
        "perplexidade alta, e o top-p fica perto do texto humano. Neste gráfico, isso seria guloso e beam em "
        "cima à direita, a amostragem pura embaixo à esquerda e o top-p entre os dois.",
        "Each strategy as a point: repetition (→) against mean log-prob (↑). The paper has no such chart: by "
        "its Table 1, greedy and beam have very low perplexity (exp(−mean log-prob): low = top) and much repetition, pure sampling high "
        "perplexity, and top-p sits close to human text. On this chart that would put greedy and "
        "beam at the top right, pure sampling at the bottom left and top-p between the two.",
    ),
    "decoding.cmp.verdict.yes": (
        "**A ordem esperada pelo artigo se reproduz neste modelo**: guloso e beam são os mais repetitivos ({rep_det}), a "
        "amostragem pura é a menos provável ({lp_pure}), e a log-prob do top-p ({lp_p}) fica entre a da amostragem "
        "pura e a do guloso e do beam, com {rep_p} dos seus 4-gramas repetidos.",
        "**The ordering the paper leads one to expect holds for this model**: greedy and beam are the most repetitive ({rep_det}), pure "
        "sampling is the least likely ({lp_pure}), and top-p's log-prob ({lp_p}) sits between pure sampling's and "
        "greedy's and beam's, with {rep_p} of its 4-grams repeated.",
    ),
    "decoding.cmp.verdict.no": (
        "**A ordem do artigo só se reproduz em parte neste modelo**: {detail}",
        "**The paper's ordering holds only in part for this model**: {detail}",
    ),
    "decoding.cmp.fail.repetition": ("guloso/beam não são os mais repetitivos", "greedy/beam are not the most repetitive"),
    "decoding.cmp.fail.coherence": ("a amostragem pura não é a menos provável", "pure sampling is not the least likely"),
    "decoding.cmp.fail.between": ("o top-p não fica entre os dois", "top-p does not sit between the two"),
    "decoding.cmp.missing": ("A tabela guardada não foi encontrada (rode `make bench-decoding`).",
                             "The stored table was not found (run `make bench-decoding`)."),
    "decoding.live.header": ("Recalcular um prompt agora", "Recompute one prompt now"),
    "decoding.live.pick": ("Prompt da tabela", "Prompt of the table"),
    "decoding.live.run": ("Recalcular este prompt", "Recompute this prompt"),
    "decoding.live.hint": (
        "Roda as cinco estratégias neste prompt com as configurações, a semente e a precisão ({dtype}) da tabela: "
        "{n} completações de {tokens} tokens e uma passada para pontuar cada uma. Mostra os números ao lado dos "
        "guardados.",
        "Runs the five strategies on this prompt with the table's settings, seed and precision ({dtype}): {n} "
        "completions of {tokens} tokens and one scoring pass for each. Shows the numbers beside the stored ones.",
    ),
    "decoding.live.caption": (
        "Cada célula: guardado → agora. «guardado»: o que o bench gravou para este prompt ({date}, {dtype}, "
        "{threads_then} thread(s), {cpu_then}); «agora»: o que este servidor calculou (guardado até {ttl}; {dtype}, {threads_now} "
        "thread(s), {cpu_now}).",
        "Each cell: stored → now. “stored”: what the bench saved for this prompt ({date}, {dtype}, {threads_then} "
        "thread(s), {cpu_then}); “now”: what this server computed (kept up to {ttl}; {dtype}, {threads_now} thread(s), {cpu_now}).",
    ),
    "decoding.live.ttl": ("{h} h", "{h} h"),
    "decoding.live.same.equal": (
        "Mesmo tipo de CPU, mesma precisão, mesmas threads: os {n} números coincidem.",
        "Same CPU type, precision and threads: the {n} numbers agree.",
    ),
    "decoding.live.same.changed": (
        "Mesmo tipo de CPU e mesma precisão, e mesmo assim {k} de {n} números mudaram: o caminho das contas pode "
        "ter mudado desde que a tabela foi gravada (o servidor passou a calcular o prompt uma vez e copiar o cache "
        "para cada linha, e a juntar as linhas dos visitantes numa passada). Cada mudança soma em outra ordem; um "
        "último dígito diferente pode trocar um token num quase empate, e o texto segue outro caminho.",
        "Same CPU type and precision, and still {k} of {n} numbers changed: the path of the arithmetic may have "
        "changed since the table was recorded (the server now computes the prompt once and copies its cache to "
        "every row, and runs visitors' rows in one pass). Each change sums in another order; one different last "
        "digit can swap a token at a near-tie, and the text takes another path.",
    ),
    "decoding.live.other.equal": (
        "Outro tipo de CPU ou outro número de threads, e ainda assim os {n} números coincidem: aqui as somas em outra ordem não mudaram "
        "nenhum token que a tabela mostre.",
        "Another CPU type or thread count, and still the {n} numbers agree: here the sums in another order changed no token "
        "that the table shows.",
    ),
    "decoding.live.other.changed": (
        "Outro tipo de CPU ou outro número de threads, e {k} de {n} números mudaram: as somas em ponto flutuante, em outra ordem, podem "
        "mudar um token em algum ponto, e o texto segue outro caminho.",
        "Another CPU type or thread count, and {k} of {n} numbers changed: floating-point sums in another order can change one "
        "token somewhere, and the text takes another path.",
    ),
    "decoding.link.from_loop": ("Por que guloso e beam search degeneram: a página de estratégias de decodificação",
                                "Why greedy and beam search degenerate: the decoding strategies page"),
}
