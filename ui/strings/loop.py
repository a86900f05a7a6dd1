"""Strings of the autoregressive loop page."""

STRINGS = {
    "loop.title": ("O loop autoregressivo", "The autoregressive loop"),
    "loop.intro": (
        "O modelo não escreve a resposta de uma vez: ele escolhe **um token**, anexa ao texto e roda de novo, "
        "agora lendo também o que acabou de escrever. Clique em **Próximo token** para dar uma volta do loop, "
        "ou em **Gerar até o fim**, e veja por que ele parou.",
        "The model does not write the answer at once: it picks **one token**, appends it to the text and runs "
        "again, now also reading what it just wrote. Click **Next token** for one turn of the loop, or "
        "**Generate to the end**, and see why it stopped.",
    ),
    # controls
    "loop.ctl.title": ("Configurações de amostragem", "Sampling settings"),
    "loop.sum.off": ("desligado", "off"),
    "loop.sum.off_f": ("desligada", "off"),  # agrees with a feminine noun (a penalidade)
    "loop.sum.seed": ("semente {seed}", "seed {seed}"),
    "loop.sum.greedy": ("guloso (T = 0)", "greedy (T = 0)"),
    "loop.sum.penalty": ("penalidade {v}", "penalty {v}"),
    "loop.sum.stops": ("sequências de parada: {n}", "stop sequences: {n}"),
    "loop.ctl.temperature": ("Temperatura (0 = guloso)", "Temperature (0 = greedy)"),
    "loop.ctl.temperature.help": (
        "Divide os logits antes do softmax. Abaixo de 1 afia a distribuição; acima de 1 achata. 0 pega sempre "
        "o mais provável (depois da penalidade de repetição, se ligada).",
        "Divides the logits before softmax. Below 1 sharpens the distribution; above 1 flattens it. 0 always "
        "takes the most likely token (after the repetition penalty, if it is on).",
    ),
    "loop.ctl.top_k": ("top-k (0 = desligado)", "top-k (0 = off)"),
    "loop.ctl.top_k.help": ("Sorteia só entre os k tokens mais prováveis.",
                            "Draws only among the k most likely tokens."),
    "loop.ctl.top_p": ("top-p (1 = desligado)", "top-p (1 = off)"),
    "loop.ctl.top_p.help": ("Sorteia só no núcleo: o menor conjunto de tokens cuja probabilidade somada chega a p.",
                            "Draws only from the nucleus: the smallest set of tokens whose probabilities add up to at least p."),
    "loop.ctl.penalty": ("Penalidade de repetição (1 = desligada)", "Repetition penalty (1 = off)"),
    "loop.ctl.penalty.help": ("Reduz os logits de tokens que já apareceram no texto, contra loops.",
                              "Lowers the logits of tokens already in the text, against loops."),
    "loop.ctl.max_new": ("max_new_tokens", "max_new_tokens"),
    "loop.ctl.stop": ("Sequências de parada", "Stop sequences"),
    "loop.ctl.stop.placeholder": ("nenhuma — digite e tecle Enter", "none — type and press Enter"),
    "loop.ctl.stop.help": (
        "Textos que encerram a geração quando aparecem. Escreva \\n para uma quebra de linha.",
        "Texts that end generation when they appear. Write \\n for a line break.",
    ),
    "loop.ctl.seed": ("Semente do sorteio", "Seed of the draw"),
    # buttons and progress
    "loop.btn.next": ("Próximo token", "Next token"),
    "loop.btn.generate": ("Gerar até o fim", "Generate to the end"),
    "loop.btn.reset": ("Recomeçar", "Start over"),
    "loop.progress": ("Gerando: token {n} de no máximo {max}", "Generating: token {n} of at most {max}"),
    "loop.replay": ("Indo até o passo do link: passo {n} de {of}", "Going to the link's step: step {n} of {of}"),
    "loop.empty": (
        "Nenhum token gerado ainda. Clique em **Próximo token** para a primeira volta do loop (o prefill).",
        "No token generated yet. Click **Next token** for the first turn of the loop (the prefill).",
    ),
    "loop.link.hint": (
        "Este link trouxe o prompt e as configurações, não os tokens. Clique em **Gerar até o fim**: as "
        "mesmas configurações, com a mesma semente, geram os mesmos tokens no mesmo tipo de servidor e na "
        "mesma precisão.",
        "This link brought the prompt and the settings, not the tokens. Click **Generate to the end**: the "
        "same settings, with the same seed, generate the same tokens on the same kind of server and in the "
        "same precision.",
    ),
    # live area
    "loop.text.label": ("**Prompt + o que o modelo escreveu** (tokens novos: {n}):",
                        "**Prompt + what the model wrote** (new tokens: {n}):"),
    "loop.tokens.label": ("Os tokens que ele escreveu, um por volta do loop:",
                          "The tokens it wrote, one per turn of the loop:"),
    "loop.cand.title": ("**Passo {n}** ({phase}): os {k} candidatos", "**Step {n}** ({phase}): the {k} candidates"),
    "loop.cand.title.plus": ("**Passo {n}** ({phase}): os {k} candidatos mais prováveis e o escolhido",
                             "**Step {n}** ({phase}): the {k} most likely candidates and the chosen one"),
    "loop.cand.chosen": ("escolhido", "chosen"),
    "loop.cand.streaming": (
        "Enquanto **Gerar até o fim** roda, os candidatos do passo mais recente aparecem em texto, com as "
        "probabilidades do softmax cru ({mark} marca o escolhido); o gráfico dos candidatos aparece quando o loop "
        "parar.",
        "While **Generate to the end** runs, the newest step's candidates are listed as text with their raw softmax "
        "probabilities ({mark} marks the chosen one); the candidates chart appears when the loop stops.",
    ),
    "loop.cand.other": ("candidato", "candidate"),
    "loop.cand.caption": (
        "Probabilidades do softmax cru para o próximo token. O escolhido (laranja) tinha {p} e era o {rank}º mais "
        "provável. Na próxima volta ele já faz parte da entrada.",
        "Raw softmax probabilities for the next token. The chosen one (orange) had {p} and was number {rank} "
        "in likelihood. On the next turn it is already part of the input.",
    ),
    "loop.cand.caption.last": (
        "Probabilidades do softmax cru para o próximo token. O escolhido (laranja) tinha {p} e era o {rank}º mais "
        "provável. Foi o último passo: não há próxima volta.",
        "Raw softmax probabilities for the next token. The chosen one (orange) had {p} and was number {rank} "
        "in likelihood. It was the last step: there is no next turn.",
    ),
    "loop.axis.prob": ("probabilidade", "probability"),
    "loop.axis.token": ("token", "token"),
    "loop.phase.prefill": ("prefill", "prefill"),
    "loop.phase.decode": ("decode", "decode"),
    # finish reasons (seed 000, "Controle do loop: quando parar")
    "loop.finish.stop": (
        "**Motivo de parada: token de parada.** O modelo escolheu o token de parada (`<eos>`, de fim de "
        "sequência), que aprendeu a emitir quando o texto está completo. É o término natural.",
        "**Finish reason: end-of-sequence token.** The model picked the end-of-sequence token (`<eos>`), "
        "which it learned to emit when the text is complete. This is the natural end.",
    ),
    "loop.greedy_loop": (
        "**O guloso caiu num loop**: o fim do texto repete um ciclo de {period} token(s) {repeats} vezes "
        "seguidas. O guloso sempre pega o mais provável (depois da penalidade, se ligada); a página "
        "Decodificação mede como cada cópia torna a próxima mais provável.",
        "**Greedy fell into a loop**: the end of the text repeats a cycle of {period} token(s) {repeats} "
        "times in a row. Greedy always takes the most likely token (after the penalty, if on); the Decoding "
        "page measures how each copy makes the next one more likely.",
    ),
    "loop.finish.length": (
        "**Motivo de parada: limite de tokens.** Bateu o teto de max_new_tokens ({n}) e cortou, mesmo no meio de uma "
        "frase. **Truncamento ≠ o modelo terminou**: esta saída não é uma resposta acabada. Sempre confira o "
        "motivo de parada.",
        "**Finish reason: token limit.** It hit the max_new_tokens ceiling ({n}) and cut, even in the middle of a "
        "sentence. **Truncation ≠ the model finished**: this output is not a finished answer. Always check the "
        "finish reason.",
    ),
    "loop.finish.stop_sequence": (
        "**Motivo de parada: sequência de parada.** Apareceu uma das suas sequências de parada, e a geração foi "
        "encerrada ali (a sequência não entra no texto). Esta é a que apareceu:",
        "**Finish reason: stop sequence.** One of your stop sequences appeared and generation ended there "
        "(the sequence is left out of the text). This is the one that appeared:",
    ),
    "finish.title": ("O mesmo motivo, com o nome que cada API usa", "The same reason, under each API's name"),
    "finish.col.what": ("o que aconteceu", "what happened"),
    "finish.col.openai": ("OpenAI: finish_reason", "OpenAI: finish_reason"),
    "finish.col.anthropic": ("Anthropic: stop_reason", "Anthropic: stop_reason"),
    "finish.what.stop": ("o modelo emitiu o token de parada (EOS)", "the model emitted the end-of-sequence token (EOS)"),
    "finish.what.length": ("bateu o limite de tokens (max_tokens)", "hit the token limit (max_tokens)"),
    "finish.what.stop_sequence": ("apareceu uma sequência de parada", "a stop sequence appeared"),
    "finish.caption": (
        "O texto chama o motivo de parada de stop_reason/finish_reason: cada provedor tem o seu nome. A OpenAI "
        "devolve \"stop\" tanto para o EOS quanto para uma sequência de parada; só \"length\" avisa que a resposta "
        "foi cortada. ▶ marca o motivo desta geração.",
        "The course text calls the finish reason stop_reason/finish_reason: each provider has its own name. OpenAI "
        "returns \"stop\" both for EOS and for a stop sequence; only \"length\" warns that the answer was cut. "
        "▶ marks this generation's reason.",
    ),
    # flowchart (seed 000)
    "loop.flow.seq": ("Sequência atual", "Current sequence"),
    "loop.flow.pass": (
        "Passada pelo transformer (atenção sobre o contexto; as camadas de janela deslizante veem só os "
        "últimos tokens)",
        "Transformer pass (attention over the context; sliding-window layers see only the latest tokens)",
    ),
    "loop.flow.logits": ("Logits: {v} pontuações", "Logits: {v} scores"),
    "loop.flow.softmax": ("Ajustes nos logits (penalidade de repetição, temperatura, top-k, top-p), depois o softmax: "
                          "distribuição de probabilidade",
                          "Logit adjustments (repetition penalty, temperature, top-k, top-p), then the softmax: "
                          "probability distribution"),
    "loop.flow.sample": ("Escolha: guloso (argmax) ou sorteio", "Choice: greedy (argmax) or a draw"),
    "loop.flow.token": ("Próximo token escolhido", "Next token chosen"),
    "loop.flow.check": ("Parar? (EOS, max_new_tokens atingido, sequência de parada)",
                        "Stop? (EOS, max_new_tokens reached, a stop sequence)"),
    "loop.flow.append": ("Anexa o token à sequência", "Append the token to the sequence"),
    "loop.flow.end": ("Fim da completação", "End of the completion"),
    "loop.flow.no": ("não", "no"),
    "loop.flow.yes": ("sim", "yes"),
    "loop.flow.caption": (
        "O fluxograma do loop. Sequência atual: {n} tokens (escritos pelo modelo: {gen}). O quadro laranja é onde "
        "o loop está agora. Só a 1ª volta (prefill) passa o prompt inteiro pela rede; nas outras (decode) entra só o "
        "token novo, e as chaves e valores dos anteriores vêm do KV cache. Como no texto do curso, a temperatura, o "
        "top-k e o top-p ajustam os logits antes do softmax.",
        "The loop's flowchart. Current sequence: {n} tokens (written by the model: {gen}). The orange box is where "
        "the loop is now. Only the 1st turn (prefill) passes the whole prompt through the network; in the others "
        "(decode) only the new token goes in, and the keys and values of the earlier ones come from the KV cache. As "
        "in the course text, temperature, top-k and top-p adjust the logits before the softmax.",
    ),
    # steps
    "loop.steps.title": ("Cada volta do loop", "Each turn of the loop"),
    "loop.steps.window": ("Os {shown} passos mais recentes de {n}; todos estão em \"Todos os passos\", logo abaixo.",
                          "The newest {shown} of {n} steps; every one is under \"All steps\" just below."),
    "loop.steps.all": ("Todos os passos", "All steps"),
    "loop.col.step": ("passo", "step"),
    "loop.col.phase": ("fase", "phase"),
    "loop.col.token": ("token", "token"),
    "loop.col.prob": ("probabilidade", "probability"),
    "loop.col.rank": ("colocação", "rank"),
    "loop.col.ms": ("tempo (ms)", "time (ms)"),
    "loop.col.kv": ("KV cache", "KV cache"),
    "loop.files.title": ("Baixar os passos e os gráficos", "Download the steps and the charts"),
    "loop.files.steps": ("**Os passos** (todos os de \"Todos os passos\", com o que o modelo escreveu até cada um):",
                         "**The steps** (every one in \"All steps\", with what the model wrote up to each):"),
    "loop.files.cand": ("**Os candidatos de cada passo** (as barras do gráfico dos candidatos):",
                        "**Every step's candidates** (the bars of the candidates chart):"),
    "loop.files.cand_chart": ("**O gráfico dos candidatos do passo {n}:**", "**The candidates chart of step {n}:**"),
    "loop.files.time": ("**O gráfico do tempo de cada passo:**", "**The chart of each step's time:**"),
    "loop.files.kv": ("**O gráfico do KV cache:**", "**The KV cache chart:**"),
    "loop.inspect.title": ("Rever um passo já dado", "Look back at a step already taken"),
    "loop.inspect.pick": ("Ver o passo", "Look at step"),
    "loop.inspect.context": ("**Entrada do passo {n}** (o que o modelo leu):", "**Input of step {n}** (what the model read):"),
    # timing and KV cache (seed 000, "A conexão com prefill, decode e KV cache")
    "loop.time.title": ("Prefill, decode e o KV cache", "Prefill, decode and the KV cache"),
    "loop.axis.step": ("passo", "step"),
    "loop.axis.ms": ("tempo (ms)", "time (ms)"),
    "loop.time.caption": (
        "Tempo de cada passo. **Prefill** (laranja): a primeira passada lê os {n} tokens do prompt de uma vez, "
        "em paralelo, e já dá o primeiro token ({prefill} ms, {per} ms por token do prompt). **Decode** (azul): daí em diante é um token por "
        "passada, em sequência (mediana {decode} ms), porque cada token depende do anterior. Enquanto você lê um "
        "passo, a página já calcula o seguinte, e **Próximo token** só o mostra; se outro visitante, com o mesmo "
        "prompt e as mesmas configurações (inclusive a semente), já calculou um passo, ele aparece sem nova passada. "
        "O tempo aqui é o do próprio passo (a espera na fila do modelo, a passada e a amostragem), não o da espera "
        "pelo clique.",
        "Time of each step. **Prefill** (orange): the first pass reads the prompt's {n} tokens at once, in "
        "parallel, and already gives the first token ({prefill} ms, {per} ms per prompt token). **Decode** (blue): from then on it is one "
        "token per pass, in sequence (median {decode} ms), because each token depends on the previous one. While "
        "you read a step, the page already computes the next one, and **Next token** only shows it; if another "
        "visitor with the same prompt and settings (the seed included) already computed a step, it appears without "
        "another pass. The time here is the step's own (the wait in the model's queue, the pass and the sampling), "
        "not the wait for the click.",
    ),
    "loop.axis.positions": ("posições guardadas no cache", "positions held in the cache"),
    "loop.axis.bytes": ("tamanho do KV cache (bytes)", "KV cache size (bytes)"),
    "loop.kv.caption": (
        "O KV cache guarda as chaves e valores de cada posição já vista, para o decode não recalcular tudo a "
        "cada passo. Cada posição a mais custa {per}: 2 (chave e valor) × {layers} camadas × {kv} cabeça K/V × "
        "{hd} números = {numbers} números, × {b} bytes por número em {dtype}. No último passo mostrado, eram "
        "{total} (pontos: medido no cache; linha tracejada: a fórmula).",
        "The KV cache keeps the keys and values of every position already seen, so decode does not recompute "
        "everything at each step. Each extra position costs {per}: 2 (key and value) × {layers} layers × {kv} K/V "
        "head × {hd} numbers = {numbers} numbers, × {b} bytes per number in {dtype}. At the last step shown it held {total} "
        "(dots: measured in the cache; dashed line: the formula).",
    ),
    "loop.kv.window": (
        "Isso vale até a janela: as {n_sliding} camadas de janela deslizante só guardam as últimas {kept} posições "
        "(com o token novo, {window}). Depois disso, só as {n_full} camadas de atenção completa crescem, e cada "
        "posição a mais custa {after} em vez de {per}: a linha tracejada (até {up_to} posições) dobra ali.",
        "That holds up to the window: the {n_sliding} sliding-window layers keep only the last {kept} positions "
        "(with the new token, {window}). After that, only the {n_full} full-attention layers grow, and each extra "
        "position costs {after} instead of {per}: the dashed line (up to {up_to} positions) bends there.",
    ),
    # only the last position matters (seed 000)
    "loop.pos.title": ("Só a última posição importa", "Only the last position matters"),
    "loop.pos.what": (
        "Numa passada, o transformer calcula logits para **todas** as posições: depois de cada token do prompt, "
        "uma previsão do token seguinte. Na geração só interessa o da **última** posição: as anteriores já "
        "foram decididas (no treino é diferente: todas são usadas de uma vez).",
        "In one pass, the transformer computes logits for **every** position: after each token of the prompt, "
        "a prediction of the next token. Generation only cares about the **last** position: the earlier ones are "
        "already decided (training is different: all are used at once).",
    ),
    "loop.col.pos": ("posição", "position"),
    "loop.col.guess": ("previsão do modelo para o próximo", "the model's prediction of the next"),
    "loop.col.used": ("usado?", "used?"),
    "loop.pos.used": ("✔ sim: escolhe o próximo token", "✔ yes: picks the next token"),
    "loop.pos.unused": ("não: já decidido", "no: already decided"),
    "loop.pos.caption": (
        "A previsão mais provável em cada uma das {n} posições do prompt (cada um é um vetor de {v} logits). "
        "Só a última linha vira token; por isso o loop pede ao modelo só os logits da última posição.",
        "The most likely prediction at each of the prompt's {n} positions (each is a vector of {v} logits). "
        "Only the last row becomes a token; that is why the loop asks the model only for the last position's "
        "logits.",
    ),
    "loop.pos.match": (
        "A previsão da última linha é o primeiro candidato do passo 1 acima (mesmos números, a menos de "
        "arredondamento):",
        "The last row's prediction is the first candidate of step 1 above (same numbers, up to rounding):",
    ),
}
