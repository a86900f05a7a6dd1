"""Strings of the hallucination page: per-token confidence, the seed's presets, fact/invention pairs."""

STRINGS = {
    "hallucination.title": ("Alucinação e confiança", "Hallucination and confidence"),
    "hallucination.intro": (
        "O modelo foi treinado só para prever o próximo token provável: ele escreve o que **combina com o padrão**, "
        "seja verdade ou não. Aqui cada token gerado vem com a probabilidade que o modelo deu a ele. Procure o ponto "
        "em que um fato vira invenção e veja se os números avisam — **confiança não é verdade**.",
        "The model was trained only to predict a likely next token: it writes what **fits the pattern**, true or "
        "not. Here every generated token carries the probability the model gave it. Find the point where a fact "
        "turns into an invention and see whether the numbers warn you — **confidence is not truth**.",
    ),
    "hallucination.presets": ("Exemplos do texto:", "Examples from the text:"),
    "hallucination.preset.einstein": ("Albert Einstein nasceu em…", "Albert Einstein nasceu em…"),
    "hallucination.preset.gondwana": ("O primeiro presidente de Gondwana foi…",
                                      "O primeiro presidente de Gondwana foi…"),
    "hallucination.preset.einstein.note": (
        "**O que é verdade:** Einstein nasceu em 14 de março de **1879** em **Ulm**, no Reino de **Württemberg** "
        "(não na Baviera), e morreu em 18 de abril de **1955** em **Princeton**, nos Estados Unidos. Compare com o "
        "que o modelo escreve abaixo, e com a confiança que ele teve em cada pedaço.",
        "**What is true:** Einstein was born on 14 March **1879** in **Ulm**, in the Kingdom of **Württemberg** "
        "(not Bavaria), and died on 18 April **1955** in **Princeton**, USA. The prompt is Portuguese (“Albert "
        "Einstein was born in”). Compare with what the model writes below, and with how sure it was of each piece.",
    ),
    "hallucination.preset.gondwana.note": (
        "**O que é verdade:** Gondwana foi um supercontinente que começou a se partir há cerca de 180 milhões "
        "de anos. Nunca teve presidente. Veja se o modelo diz isso ou se completa a frase assim mesmo, e com "
        "que confiança.",
        "**What is true:** Gondwana was a supercontinent that began to break apart about 180 million years "
        "ago. It never had a president. The prompt is Portuguese (“The first president of Gondwana was”); see "
        "whether the model says so or completes the sentence anyway, and how confidently.",
    ),
    # controls
    "hallucination.mode": ("Como escolher cada token", "How each token is chosen"),
    "hallucination.mode.greedy": ("guloso", "greedy"),
    "hallucination.mode.sampled": ("amostrado", "sampled"),
    "hallucination.mode.help": (
        "guloso: sempre o token mais provável (a mesma frase toda vez). Amostrado: um sorteio pesado pelas "
        "probabilidades, depois da temperatura.",
        "greedy: always the most likely token (the same sentence every time). Sampled: a draw weighted by the "
        "probabilities, after temperature.",
    ),
    "hallucination.temperature": ("Temperatura", "Temperature"),
    "hallucination.seed": ("Semente do sorteio", "Seed of the draw"),
    "hallucination.seed.help": ("A mesma semente repete o mesmo sorteio.", "The same seed repeats the same draw."),
    "hallucination.redraw": ("Sortear de novo", "Draw again"),
    "hallucination.tokens": ("Tokens a gerar", "Tokens to generate"),
    "hallucination.dtype": ("Precisão nesta página", "Precision on this page"),
    "hallucination.dtype.help": (
        "float32 faz as contas com mais dígitos (cerca de 7; não é exata, e não desfaz a quantização dos pesos) e é a precisão em que o exemplo de "
        "Einstein foi medido. bfloat16 guarda só 2 ou 3 dígitos: onde dois tokens quase empatam ele pode escolher "
        "o outro, e o resto da frase muda.",
        "float32 computes with more digits (about 7; it is not exact, and it does not undo the weights' quantization) and is the precision the Einstein "
        "example was measured in. bfloat16 keeps only 2 or 3 digits: where two tokens nearly tie it can pick the "
        "other one, and the rest of the sentence changes.",
    ),
    "hallucination.one_in": ("1 em {n}", "1 in {n}"),
    "hallucination.running": ("O modelo está escrevendo…", "The model is writing…"),
    # a new prompt waits for a click
    "hallucination.ask.hint": (
        "Este prompt ainda não rodou com estes ajustes: clique para o modelo escrever {n} tokens e mostrar a "
        "confiança que teve em cada um.",
        "This prompt has not run with these settings yet: click to have the model write {n} tokens and show how "
        "sure it was of each.",
    ),
    "hallucination.ask.run": ("Gerar e medir", "Generate and measure"),
    # the completion
    "hallucination.output": ("O que o modelo escreveu", "What the model wrote"),
    "hallucination.sampled.note": (
        "No modo amostrado a cor mostra a probabilidade **original** (softmax dos logits, antes da temperatura): "
        "um sorteio pode pegar tokens que o modelo achava improváveis.",
        "In sampled mode the colour shows the **original** probability (softmax of the logits, before temperature): "
        "a draw can take tokens the model found unlikely.",
    ),
    "hallucination.chips.caption": (
        "Cada token gerado, com a probabilidade que o modelo deu a ele no passo em que foi escrito (cor: viridis, "
        "escuro = pouco provável, amarelo = quase certo). Passe o mouse (ou toque) num token para ver as "
        "{n} alternativas mais prováveis naquele passo.",
        "Each generated token, with the probability the model gave it at the step where it was written (colour: "
        "viridis, dark = unlikely, yellow = near certain). Hover (or tap) a token to see the {n} most likely "
        "alternatives at that step.",
    ),
    "hallucination.metric.mean": ("Probabilidade média", "Mean probability"),
    "hallucination.metric.mean.help": ("A média das probabilidades dos tokens gerados.",
                                       "The average of the generated tokens' probabilities."),
    "hallucination.metric.min": ("Token menos provável", "Least likely token"),
    "hallucination.metric.min.label": ("Token menos provável (passo {step})", "Least likely token (step {step})"),
    "hallucination.metric.min.help": ("O elo mais fraco da frase: ele está com borda grossa nos tokens acima "
                                      "quando é o passo escolhido abaixo.",
                                      "The weakest link of the sentence: it has a thick border in the tokens above "
                                      "when it is the step picked below."),
    "hallucination.metric.logprob": ("Log-probabilidade da sequência", "Sequence log-probability"),
    "hallucination.metric.logprob.help": (
        "A soma dos logaritmos (naturais) das probabilidades dos tokens = o log da probabilidade da frase inteira. "
        "Aqui: {whole} de chance para esta completação exata.",
        "The sum of the (natural) logs of the tokens' probabilities = the log of the probability of the whole "
        "sentence. Here: a {whole} chance for this exact completion.",
    ),
    # one step
    "hallucination.inspect": ("Um passo de perto: o que mais o modelo considerou", "One step up close: what else the model considered"),
    "hallucination.inspect.step": ("Passo", "Step"),
    "hallucination.inspect.text": (
        "No passo **{step}** o modelo escreveu um token com **{prob}** de probabilidade (colocação {rank} entre as "
        "opções dele). A melhor alternativa tinha **{other}**. Entropia do passo: {bits} bits.",
        "At step **{step}** the model wrote a token with **{prob}** probability (rank {rank} among its options). "
        "The best alternative had **{other}**. Entropy of the step: {bits} bits.",
    ),
    "hallucination.inspect.caption": (
        "Os {n} próximos tokens mais prováveis neste passo (candidatos, não completações){written}. Juntas somam {total}; "
        "os outros tokens do vocabulário dividem o resto.",
        "The {n} most likely next tokens at this step (candidates, not completions){written}. Together they add up "
        "to {total}; the other tokens of the vocabulary share the rest.",
    ),
    # per-token charts
    "hallucination.charts": ("Confiança ao longo da frase", "Confidence along the sentence"),
    "hallucination.chart.prob.caption": (
        "Probabilidade de cada token gerado, um ponto por passo. Fatos bem conhecidos e invenções podem ficar na "
        "mesma altura.",
        "Probability of each generated token, one point per step. Well-known facts and inventions can sit at the "
        "same height.",
    ),
    "hallucination.chart.entropy.caption": (
        "Entropia (em bits) da distribuição inteira em cada passo: alta = o modelo espalhou a aposta por muitas "
        "opções; 0 = só uma opção.",
        "Entropy (in bits) of the whole distribution at each step: high = the model spread its bet over many "
        "options; 0 = a single option.",
    ),
    "hallucination.col.step": ("passo", "step"),
    "hallucination.col.token": ("token", "token"),
    "hallucination.col.prob": ("probabilidade", "probability"),
    "hallucination.col.rank": ("colocação", "rank"),
    "hallucination.col.entropy": ("entropia", "entropy"),
    "hallucination.col.alt": ("alternativa {n}", "alternative {n}"),
    "hallucination.col.pair": ("par", "pair"),
    "hallucination.col.kind": ("tipo", "kind"),
    "hallucination.col.prompt": ("prompt", "prompt"),
    "hallucination.col.completion": ("completação", "completion"),
    "hallucination.col.entropy_axis": ("entropia (bits)", "entropy (bits)"),
    # pairs
    "hallucination.pairs.header": ("Fato ou invenção: a confiança separa?", "Fact or invention: does confidence tell them apart?"),
    "hallucination.pairs.intro": (
        "Cada par tem o mesmo padrão de frase: uma vez com algo real, outra com algo inventado (um país, uma "
        "pessoa, um monumento que não existem) ou com uma pergunta sem resposta (Gondwana existiu, mas nunca "
        "teve presidente). As duas completações são gulosas, com {n} tokens cada.",
        "Each pair has the same sentence pattern: once with something real, once with something made up (a "
        "country, a person, a monument that do not exist) or with a question that has no answer (Gondwana "
        "existed, but never had a president). Both completions are greedy, {n} tokens each. The prompts are "
        "Portuguese.",
    ),
    "hallucination.pairs.pick": ("Par", "Pair"),
    "hallucination.pair.real": ("Assunto real", "Real subject"),
    "hallucination.pair.invented": ("Assunto inventado", "Invented subject"),
    "hallucination.pair.premise": ("Premissa falsa sobre um assunto real", "False premise about a real subject"),
    "hallucination.pair.measure": ("medida", "measure"),
    "hallucination.pair.capital_fr.label": ("Capital: França ↔ Vastrônia", "Capital: France ↔ Vastronia"),
    "hallucination.pair.capital_jp.label": ("Capital: Japão ↔ Zemúria", "Capital: Japan ↔ Zemuria"),
    "hallucination.pair.born_einstein.label": ("Nascimento: Einstein ↔ Pfeffermann", "Born: Einstein ↔ Pfeffermann"),
    "hallucination.pair.born_machado.label": ("Nascimento: Machado de Assis ↔ Zorbanski",
                                              "Born: Machado de Assis ↔ Zorbanski"),
    "hallucination.pair.born_newton.label": ("Nascimento: Newton ↔ Brontovski", "Born: Newton ↔ Brontovski"),
    "hallucination.pair.president.label": ("Presidente: EUA ↔ Gondwana", "President: USA ↔ Gondwana"),
    "hallucination.pair.tower.label": ("Torre: Eiffel ↔ Vastroniana", "Tower: Eiffel ↔ Vastronian"),
    "hallucination.pair.statue.label": ("Cristo: Redentor ↔ Zorbiano", "Christ: the Redeemer ↔ Zorbian"),
    "hallucination.pair.capital_fr.truth": ("**Verdade:** a capital da França é Paris. A Vastrônia não existe.",
                                            "**Truth:** the capital of France is Paris. Vastronia does not exist."),
    "hallucination.pair.capital_jp.truth": ("**Verdade:** a capital do Japão é Tóquio. A Zemúria não existe.",
                                            "**Truth:** the capital of Japan is Tokyo. Zemuria does not exist."),
    "hallucination.pair.born_einstein.truth": ("**Verdade:** Einstein nasceu em 1879, em Ulm. Albert Pfeffermann "
                                               "foi inventado para este par.",
                                               "**Truth:** Einstein was born in 1879, in Ulm. Albert Pfeffermann was "
                                               "made up for this pair."),
    "hallucination.pair.born_machado.truth": ("**Verdade:** Machado de Assis nasceu em 1839, no Rio de Janeiro. "
                                              "Fabrício Zorbanski foi inventado para este par.",
                                              "**Truth:** Machado de Assis was born in 1839, in Rio de Janeiro. "
                                              "Fabrício Zorbanski was made up for this pair."),
    "hallucination.pair.born_newton.truth": ("**Verdade:** Newton nasceu em 1642 pelo calendário da época "
                                             "(1643 pelo nosso), em Woolsthorpe, Inglaterra. Isaac Brontovski foi "
                                             "inventado para este par.",
                                             "**Truth:** Newton was born in 1642 by the calendar of his time (1643 "
                                             "by ours), in Woolsthorpe, England. Isaac Brontovski was made up for "
                                             "this pair."),
    "hallucination.pair.president.truth": ("**Verdade:** o primeiro presidente dos EUA foi George Washington. "
                                           "Gondwana foi um supercontinente pré-histórico, sem presidente.",
                                           "**Truth:** the first president of the USA was George Washington. "
                                           "Gondwana was a prehistoric supercontinent, with no president."),
    "hallucination.pair.tower.truth": ("**Verdade:** a Torre Eiffel fica em Paris. A Torre Vastroniana não existe.",
                                       "**Truth:** the Eiffel Tower is in Paris. The Vastronian Tower does not exist."),
    "hallucination.pair.statue.truth": ("**Verdade:** o Cristo Redentor fica no Rio de Janeiro, no Corcovado. O "
                                        "Cristo Zorbiano não existe.",
                                        "**Truth:** Christ the Redeemer stands in Rio de Janeiro, on Corcovado. "
                                        "The Zorbian Christ does not exist."),
    "hallucination.pair.caption": (
        "As duas completações do par, token a token, na mesma escala de cor. Passe o mouse num token para ver as "
        "alternativas.",
        "Both completions of the pair, token by token, on the same colour scale. Hover a token to see the "
        "alternatives.",
    ),
    # the measurement over all pairs
    "hallucination.summary.header": ("O que os {m} pares mostram", "What the {m} pairs show"),
    "hallucination.summary.count": (
        "Medido neste servidor (cada completação calculada uma vez e guardada), com este modelo em {dtype}: em **{n} de {m}** pares a completação do gêmeo (assunto inventado ou premissa falsa) "
        "teve a probabilidade média **menor**; pela log-probabilidade da sequência, em {k} de {m}; pelo token "
        "menos provável, em {j} de {m}.",
        "Measured on this server (each completion computed once and kept), with this model in {dtype}: in **{n} of {m}** pairs the twin's (made-up subject or false premise) "
        "completion had the **lower** mean probability; by sequence log-probability, in {k} of {m}; by the "
        "least likely token, in {j} of {m}.",
    ),
    "hallucination.verdict.all": (
        "Aqui o assunto inventado baixou a confiança média em todos os pares. Mesmo assim o modelo escreveu uma "
        "resposta para cada coisa que não existe, e só sabemos quais estão erradas porque já conhecíamos os fatos.",
        "Here the made-up subject lowered the mean confidence in every pair. Even so, the model wrote an answer "
        "for every thing that does not exist, and we only know which answers are wrong because we already knew "
        "the facts.",
    ),
    "hallucination.verdict.most": (
        "Um assunto inventado costuma baixar a confiança do modelo, mas não sempre: pelos números sozinhos não dá "
        "para apontar quais frases são invenção.",
        "A made-up subject usually lowers the model's confidence, but not always: from the numbers alone you could "
        "not point out which sentences are inventions.",
    ),
    "hallucination.verdict.separated": (
        "Nestes {m} pares, um limiar separaria as completações: as erradas ficaram todas em até {lo} de "
        "probabilidade média, as que acertaram o fato todas a partir de {hi}. Mas o modelo não usa esse limiar: "
        "escreveu uma resposta para cada assunto, e um limiar achado em {m} pares não garante nada no próximo.",
        "In these {m} pairs a threshold would separate the completions: the wrong ones all stayed at or below "
        "{lo} mean probability, the ones that stated the fact all at {hi} or above. But the model does not use "
        "that threshold: it wrote an answer for every subject, and a threshold found on {m} pairs guarantees "
        "nothing on the next one.",
    ),
    "hallucination.verdict.some": (
        "Um assunto inventado baixa a confiança só um pouco mais vezes do que não baixa: para este modelo, a "
        "confiança está longe de ser um sinal confiável de invenção.",
        "A made-up subject lowers the confidence only a little more often than not: for this model, confidence is "
        "far from a reliable sign of invention.",
    ),
    "hallucination.verdict.none": (
        "Nestes pares a confiança não separa fato de invenção: o gêmeo inventado saiu tão confiante quanto o real "
        "pelo menos metade das vezes.",
        "In these pairs confidence does not tell fact from invention: the invented twin came out as confident as "
        "the real one at least half of the time.",
    ),
    "hallucination.summary.facts_all": (
        "Com o assunto real, o modelo acertou o fato conhecido nas **{m}** completações.",
        "With the real subject, the model stated the known fact in all **{m}** completions.",
    ),
    "hallucination.summary.facts": (
        "E mesmo com o assunto real o modelo acertou o fato conhecido em só **{a} de {m}** completações.",
        "And even with the real subject the model stated the known fact in only **{a} of {m}** completions.",
    ),
    "hallucination.summary.miss": (
        "A completação **errada** mais confiante de um assunto real (par “{pair}”) teve média de **{p}**: mais do "
        "que {k} das {n} completações que acertaram o fato.",
        "The most confident **wrong** completion of a real subject (pair “{pair}”) had a mean of **{p}**: more than "
        "{k} of the {n} completions that stated the fact.",
    ),
    "hallucination.summary.invented": (
        "A completação **gêmea** mais confiante (assunto inventado ou premissa falsa; par “{pair}”) teve média de **{p}**: mais do que {k} das {n} "
        "completações que acertaram o fato.",
        "The most confident **twin** completion (made-up subject or false premise; pair “{pair}”) had a mean of **{p}**: more than {k} of the "
        "{n} completions that stated the fact.",
    ),
    "hallucination.inspect.written": (", em laranja o que o modelo escreveu", ", in orange the one the model wrote"),
    "hallucination.inspect.outside": ("; o token escrito (colocação {rank}) não está entre eles",
                                      "; the token written (rank {rank}) is not among them"),
    "hallucination.summary.miss.none": (
        "A completação **errada** mais confiante de um assunto real (par “{pair}”) teve média de **{p}**: menos do "
        "que todas as {n} completações que acertaram o fato.",
        "The most confident **wrong** completion of a real subject (pair “{pair}”) had a mean of **{p}**: below "
        "every one of the {n} completions that stated the fact.",
    ),
    "hallucination.summary.invented.none": (
        "A completação **gêmea** mais confiante (assunto inventado ou premissa falsa; par “{pair}”) teve média de **{p}**: menos do que todas as {n} "
        "completações que acertaram o fato.",
        "The most confident **twin** completion (made-up subject or false premise; pair “{pair}”) had a mean of **{p}**: below every one of the "
        "{n} completions that stated the fact.",
    ),
    "hallucination.summary.moral": (
        "**Confiança não é verdade.** O modelo sempre tem uma distribuição e sempre escolhe dela; probabilidade "
        "alta só quer dizer que as palavras combinam com os padrões que ele aprendeu. Ele nunca foi treinado para "
        "dizer “não sei”.",
        "**Confidence is not truth.** The model always has a distribution and always picks from it; a high "
        "probability only means the words fit the patterns it learned. It was never trained to say “I don't know”.",
    ),
    "hallucination.kind.fact": ("assunto real, fato certo", "real subject, right fact"),
    "hallucination.kind.miss": ("assunto real, fato errado", "real subject, wrong fact"),
    "hallucination.kind.invented": ("assunto inventado", "invented subject"),
    "hallucination.kind.premise": ("assunto real, premissa falsa", "real subject, false premise"),
    "hallucination.summary.caption": (
        "Probabilidade média de cada completação, uma linha por par. Verde: o assunto real com o fato certo; "
        "vermelho: o assunto real com um fato errado; rosa: o assunto inventado; azul-claro: uma pergunta sem "
        "resposta sobre um assunto real (premissa falsa). O fato conta como certo quando a completação contém a "
        "resposta conhecida (por exemplo “Paris”).",
        "Mean probability of each completion, one row per pair. Green: the real subject with the right fact; red: "
        "the real subject with a wrong fact; pink: the invented subject; light blue: a question with no answer about "
        "a real subject (a false premise). A fact counts as right when the completion contains the known answer "
        "(for example “Paris”).",
    ),
    "hallucination.summary.table": ("Todas as completações dos pares", "Every completion of the pairs"),
}
