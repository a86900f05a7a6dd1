"""Strings of the pipeline overview page."""

STRINGS = {
    "pipeline.title": ("Visão geral do pipeline", "Pipeline overview"),
    "pipeline.intro": (
        "Seu prompt atravessa oito etapas, do texto de volta ao texto. Cada quadro abaixo mostra os números "
        "**de verdade** que o modelo calculou agora para ele: o modelo é uma pilha de transformações de números. "
        "Troque o prompt e veja todos os números mudarem.",
        "Your prompt goes through eight stages, from text back to text. Each panel below shows the **real** numbers "
        "the model computed for it just now: the model is a stack of transformations of numbers. "
        "Change the prompt and watch every number change.",
    ),
    # the eight stages (seed 004: Entrada → Tokenização → Embedding → Atenção → MLP → Softmax → Amostragem → Saída)
    "pipeline.stage.input": ("Entrada", "Input"),
    "pipeline.stage.tokens": ("Tokenização", "Tokenization"),
    "pipeline.stage.embedding": ("Embedding", "Embedding"),
    "pipeline.stage.attention": ("Atenção", "Attention"),
    "pipeline.stage.mlp": ("MLP", "MLP"),
    "pipeline.stage.softmax": ("Softmax", "Softmax"),
    "pipeline.stage.sampling": ("Amostragem", "Sampling"),
    "pipeline.stage.output": ("Saída", "Output"),
    "pipeline.ov.input": ("{n} caracteres", "{n} characters"),
    "pipeline.ov.tokens": ("{n} tokens → {n} IDs", "{n} tokens → {n} IDs"),
    "pipeline.ov.embedding": ("{t} × {d} números", "{t} × {d} numbers"),
    "pipeline.ov.attention": ("{layers} camadas × {heads} cabeças", "{layers} layers × {heads} heads"),
    "pipeline.ov.softmax": ("{v} probabilidades, Σ = {total}", "{v} probabilities, Σ = {total}"),
    "pipeline.ov.caption": (
        "As oito etapas com os números deste prompt. Atenção e MLP se repetem {layers} vezes, uma por camada; "
        "a escolha aqui é gulosa (o token mais provável, sem sorteio). Os detalhes de cada etapa vêm abaixo.",
        "The eight stages with this prompt's numbers. Attention and MLP repeat {layers} times, once per layer; "
        "the choice here is greedy (the most likely token, nothing drawn). The details of each stage follow below.",
    ),
    # 1 input
    "pipeline.input.what": ("O texto que você digitou. Para o computador, ainda são só caracteres.",
                            "The text you typed. To the computer, it is still just characters."),
    "pipeline.input.fact": ("Seu prompt tem **{n}** caracteres.", "Your prompt has **{n}** characters."),
    # 2 tokens
    "pipeline.tokens.what": (
        "O tokenizador corta o texto em pedaços (tokens) e troca cada um pelo seu número (ID) no vocabulário. "
        "O primeiro, `<bos>`, marca o começo do texto. `·` é um espaço.",
        "The tokenizer cuts the text into pieces (tokens) and swaps each for its number (ID) in the vocabulary. "
        "The first one, `<bos>`, marks the beginning of the text. `·` is a space.",
    ),
    "pipeline.tokens.caption": ("{n} tokens; cada ID é uma posição num vocabulário de {v} tokens.",
                                "{n} tokens; each ID is a position in a vocabulary of {v} tokens."),
    "pipeline.col.pos": ("posição", "position"),
    "pipeline.col.token": ("token", "token"),
    "pipeline.col.id": ("ID", "ID"),
    # 3 one-hot and embedding
    "pipeline.embedding.what": (
        "Cada ID vira um vetor one-hot (um único 1 entre zeros), que seleciona uma linha da matriz de embedding: "
        "uma lista densa de números aprendidos no treino (nesta cópia, arredondados pela quantização: veja a ficha "
        "do modelo).",
        "Each ID becomes a one-hot vector (a single 1 among zeros), which selects one row of the embedding "
        "matrix: a dense list of numbers learned in training (in this copy, rounded by quantization: see the "
        "model card).",
    ),
    "pipeline.emb.pick": ("Token", "Token"),
    "pipeline.onehot.text": (
        "**One-hot:** {v} posições, o **1** na posição **{id}**, os outros {zeros} valores são 0.",
        "**One-hot:** {v} positions, the **1** at position **{id}**, the other {zeros} values are 0.",
    ),
    "pipeline.onehot.caption": ("As posições em volta de {id} no vetor one-hot: só essa vale 1.",
                                "The positions around {id} in the one-hot vector: only that one is 1."),
    "pipeline.emb.text": (
        "**Embedding:** a linha escolhida tem **{d}** números: {first}. O Gemma multiplica a linha por {scale} "
        "antes da primeira camada.",
        "**Embedding:** the selected row has **{d}** numbers: {first}. Gemma multiplies the row by {scale} "
        "before the first layer.",
    ),
    "pipeline.emb.caption": (
        "Os {d} números da linha {id} da matriz de embedding, um quadradinho cada (laranja > 0, azul < 0). "
        "Passe o mouse para ver o valor.",
        "The {d} numbers of row {id} of the embedding matrix, one little square each (orange > 0, blue < 0). "
        "Hover to see the value.",
    ),
    "pipeline.axis.dim": ("dimensão", "dimension"),
    "pipeline.axis.value": ("valor", "value"),
    "pipeline.axis.vocab_index": ("posição no vocabulário", "position in the vocabulary"),
    # 4 attention
    "pipeline.attention.what": (
        "Em cada camada, cada token olha para si mesmo e para os tokens anteriores e mistura o que eles carregam. "
        "Cada linha do mapa é um token (a consulta) e mostra quanto ele olha para cada token (a chave); a linha inteira soma "
        "100%.",
        "In each layer, each token looks at itself and at the earlier tokens and mixes in what they carry. "
        "Each row of the map is one token (the query) and shows how much it looks at each token (the key); a whole row "
        "sums to 100%.",
    ),
    "pipeline.att.layer": ("Camada", "Layer"),
    "pipeline.att.head": ("Cabeça", "Head"),
    "pipeline.att.masked": ("mascarado (futuro)", "masked (future)"),
    "pipeline.att.full_attention": ("atenção completa", "full attention"),
    "pipeline.att.sliding_attention": ("janela deslizante de {window} tokens", "sliding window of {window} tokens"),
    "pipeline.att.caption": (
        "Pesos de atenção da camada {layer}, cabeça {head} ({kind}). As células cinzas são a máscara causal: "
        "um token não pode ver o futuro: a máscara põe −∞ nesses pesos antes do softmax, e eles saem exatamente 0 (não são zeros aprendidos). "
        "Mostra no máximo os últimos {n} tokens.",
        "Attention weights of layer {layer}, head {head} ({kind}). Grey cells are the causal mask: a token "
        "cannot see the future: the mask puts −∞ on those weights before the softmax, and they come out exactly 0 (they are not learned zeros). "
        "Shows at most the last {n} tokens.",
    ),
    "pipeline.att.cropped": (
        "O prompt tem {n} tokens e o mapa mostra só os últimos {k}: os {hidden} primeiros (o `<bos>` entre eles) ficam de fora. "
        "Por isso as linhas desenhadas somam de {lo} a {hi}, e não 100%: o resto do peso vai para os tokens fora do "
        "mapa (a página Atenção mostra essa parte como uma coluna).",
        "The prompt has {n} tokens and the map shows only the last {k}: the first {hidden} (`<bos>` among them) are left out. "
        "That is why the rows drawn sum to {lo} to {hi}, not 100%: the rest of the weight goes to the tokens off the "
        "map (the Attention page shows that part as one column).",
    ),
    "pipeline.axis.query": ("quem olha (consulta)", "who looks (query)"),
    "pipeline.axis.key": ("para quem (chave)", "at whom (key)"),
    "pipeline.axis.weight": ("peso", "weight"),
    # 5 MLP
    "pipeline.mlp.what": (
        "Depois da atenção, cada token passa sozinho por uma rede feed-forward: o vetor é expandido, passa por "
        "uma função não linear e é comprimido de volta.",
        "After attention, each token goes alone through a feed-forward network: the vector is expanded, goes "
        "through a non-linear function and is compressed back.",
    ),
    "pipeline.mlp.layer": ("Camada", "Layer"),
    "pipeline.mlp.text": (
        "**{d} → {f} → {d}** (expansão de {x}×), ativação **{act}**, {params} pesos por camada. {kind}",
        "**{d} → {f} → {d}** ({x}× expansion), activation **{act}**, {params} weights per layer. {kind}",
    ),
    "pipeline.mlp.gated": (
        "É um MLP *com porta*: duas projeções para cima; uma passa pela {act} e multiplica a outra.",
        "It is a *gated* MLP: two projections up, one goes through {act} and multiplies the other.",
    ),
    "pipeline.mlp.plain": ("Uma projeção para cima, a ativação {act}, uma projeção para baixo.",
                           "One projection up, the activation {act}, one projection down."),
    "pipeline.mlp.in": ("Entrada do último token: **{n}** números {first}",
                        "Input of the last token: **{n}** numbers {first}"),
    "pipeline.mlp.hidden": ("Expandido, depois da ativação: **{n}** números {first}",
                            "Expanded, after the activation: **{n}** numbers {first}"),
    "pipeline.mlp.out": ("Saída, de volta à largura do modelo: **{n}** números {first}",
                         "Output, back to the model's width: **{n}** numbers {first}"),
    "pipeline.mlp.caption": (
        "Os valores reais do MLP da camada {layer} para o último token, um quadradinho por número "
        "(laranja > 0, azul < 0). {active} dos {f} neurônios do meio passam, em valor absoluto, de {cut} do maior: {verdict}",
        "The real values of layer {layer}'s MLP for the last token, one little square per number "
        "(orange > 0, blue < 0). {active} of the {f} middle neurons exceed, in absolute value, {cut} of the largest: {verdict}",
    ),
    "pipeline.mlp.few": ("aqui este token acende poucos neurônios ({share}).",
                         "here this token lights up few neurons ({share})."),
    "pipeline.mlp.many": ("aqui este token acende muitos neurônios ({share}): não é um padrão esparso.",
                          "here this token lights up many neurons ({share}): not a sparse pattern."),
    # residual stream
    "pipeline.res.title": ("O fluxo residual: camada após camada", "The residual stream: layer after layer"),
    "pipeline.res.what": (
        "Atenção e MLP não substituem o vetor do token: *somam* algo a ele (conexão residual). "
        "O mesmo vetor atravessa as camadas e vai sendo enriquecido.",
        "Attention and the MLP do not replace the token's vector: they *add* something to it (residual "
        "connection). The same vector goes through the layers and keeps being enriched.",
    ),
    "pipeline.res.embedding": ("embedding (antes de qualquer camada)", "embedding (before any layer)"),
    "pipeline.res.stream": ("depois da camada", "after the layer"),
    "pipeline.res.final": ("depois da última camada e da norma final", "after the last layer and the final norm"),
    "pipeline.res.x.emb": ("emb.", "emb."),
    "pipeline.res.x.final": ("{n} + normalização final", "{n} + final normalization"),
    "pipeline.axis.point": ("ponto do fluxo", "point of the stream"),
    "pipeline.axis.layer": ("camada", "layer"),
    "pipeline.axis.norm": ("tamanho do vetor (norma L2)", "vector length (L2 norm)"),
    "pipeline.res.caption": (
        "Tamanho (norma L2, escala log) do vetor do último token: {first} no embedding (o ponto 'emb.', antes de "
        "qualquer camada), até {peak} depois das camadas 1 a {upto} (o máximo, depois da camada {at}), e {last} "
        "no último ponto: depois da camada {layers} e da normalização final que vai para os logits (a saída da "
        "camada {layers} antes da norma não é guardada).",
        "Length (L2 norm, log scale) of the last token's vector: {first} at the embedding (the 'emb.' point, before "
        "any layer), up to {peak} after layers 1 to {upto} (the largest, after layer {at}), and {last} at the last "
        "point: after layer {layers} and the final normalization that feeds the logits (layer {layers}'s output "
        "before the norm is not kept).",
    ),
    # 6 softmax
    "pipeline.softmax.what": (
        "O vetor final é multiplicado pela matriz de saída: um *logit* (pontuação crua) para cada token do "
        "vocabulário. O softmax transforma os logits em probabilidades que somam 100% (confira o TOTAL abaixo).",
        "The final vector is multiplied by the output matrix: one *logit* (raw score) for every token of the "
        "vocabulary. Softmax turns the logits into probabilities that add up to 100% (check the TOTAL below).",
    ),
    "pipeline.out.shapes": (
        "**A camada de saída.** W é a matriz de saída, com uma linha por token do vocabulário: {v} × {d} números. "
        "h é o vetor final do último token ({d} números, depois da norma final). W·h é um produto escalar de h "
        "com cada linha: {v} logits, um por token.",
        "**The output layer.** W is the output matrix, with one row per vocabulary token: {v} × {d} numbers. h is "
        "the last token's final vector ({d} numbers, after the final norm). W·h is one dot product of h with each "
        "row: {v} logits, one per token.",
    ),
    "pipeline.out.tied": (
        "**No Gemma, W é a própria matriz de embedding** (pesos amarrados). Medido agora no modelo carregado: "
        "`lm_head.weight` e `embed_tokens.weight` ocupam a mesma memória (mesmo `data_ptr`) e `torch.equal` dá "
        "verdadeiro. A mesma tabela que transforma um token em vetor na entrada (lá multiplicada por {scale}) "
        "pontua cada token na saída, e o modelo economiza {n} parâmetros.",
        "**In Gemma, W is the embedding matrix itself** (tied weights). Measured just now on the loaded model: "
        "`lm_head.weight` and `embed_tokens.weight` share the same memory (same `data_ptr`) and `torch.equal` is "
        "true. The same table that turns a token into a vector at the input (there multiplied by {scale}) scores "
        "every token at the output, and the model saves {n} parameters.",
    ),
    "pipeline.out.untied": (
        "**Neste modelo W é uma matriz separada da de embedding** (pesos não amarrados; valores iguais: {equal}).",
        "**In this model W is a matrix of its own, apart from the embedding** (weights not tied; equal values: {equal}).",
    ),
    "pipeline.out.check": (
        "Conferido agora: W·h calculado à mão em float32 difere dos logits do modelo em no máximo {diff} "
        "({why}); mesmo token mais provável: {top}.",
        "Checked just now: W·h computed by hand in float32 differs from the model's logits by at most {diff} "
        "({why}); same most likely token: {top}.",
    ),
    "pipeline.out.why.round": ("o modelo calcula em {dtype}, que arredonda cada logit",
                               "the model computes in {dtype}, which rounds every logit"),
    "pipeline.out.why.order": ("as duas contas são float32; a diferença vem da ordem das somas",
                               "both are float32; the difference comes from the order of the sums"),
    "pipeline.out.softcap": (
        "Este modelo ainda limita os logits: {cap} · tanh(logit / {cap}).",
        "This model also caps the logits: {cap} · tanh(logit / {cap}).",
    ),
    "pipeline.out.yes": ("sim", "yes"),
    "pipeline.out.no": ("não", "no"),
    "pipeline.col.logit": ("logit", "logit"),
    "pipeline.col.prob": ("probabilidade", "probability"),
    "pipeline.sm.rest": ("outros {n}", "other {n}"),
    "pipeline.sm.total": ("TOTAL", "TOTAL"),
    "pipeline.sm.caption": (
        "Os {k} maiores logits (laranja) e suas probabilidades depois do softmax (azul). Os {k} somam {top}; "
        "o resto ({rest}) está espalhado pelos outros tokens; a soma sobre todos os {v} tokens dá {total}.",
        "The {k} largest logits (orange) and their probabilities after softmax (blue). The {k} add up to {top}; "
        "the rest ({rest}) is spread over the other tokens; the sum over all {v} tokens comes to {total}.",
    ),
    # 7 sampling
    "pipeline.sampling.what": (
        "Da distribuição, escolhe-se um token. O modo guloso (greedy) pega sempre o mais provável; amostrar sorteia de acordo "
        "com as probabilidades.",
        "From the distribution, one token is chosen. Greedy always takes the most likely one; sampling draws "
        "according to the probabilities.",
    ),
    "pipeline.sample.seed": ("Semente do sorteio", "Seed of the draw"),
    "pipeline.sample.greedy": ("**Guloso** (temperatura 0): o mais provável, {p}",
                               "**Greedy** (temperature 0): the most likely, {p}"),
    "pipeline.sample.drawn": ("**Sorteio** (temperatura 1, semente {seed}): tinha {p} de chance",
                              "**Draw** (temperature 1, seed {seed}): it had a {p} chance"),
    "pipeline.sample.caption": (
        "Mudar a semente sorteia de novo com os mesmos logits: o modelo não roda outra vez. Na mesma máquina, "
        "com o mesmo lote e a mesma precisão, tudo até os logits se repete igual; a variação que você controla "
        "entra aqui. Trocar a precisão ou o lote muda os logits; quanto, a página Não-determinismo mede.",
        "Changing the seed draws again from the same logits: the model does not run again. On the same machine, "
        "with the same batch and the same precision, everything up to the logits repeats exactly; the variation "
        "you control enters here. Changing the precision or the batch changes the logits; by how much, the "
        "Nondeterminism page measures.",
    ),
    # 8 output
    "pipeline.output.what": (
        "O token escolhido (guloso) volta a ser texto e é anexado ao prompt. Para o próximo token, tudo recomeça "
        "com essa entrada um token mais longa: é o loop da próxima página.",
        "The chosen (greedy) token becomes text again and is appended to the prompt. For the next token, "
        "everything starts over with this input one token longer: that is the loop on the next page.",
    ),
    "pipeline.output.caption": ("Prompt + o token escolhido, como texto.", "Prompt + the chosen token, as text."),
    # logit lens
    "pipeline.lens.title": ("Lente de logit: a previsão se formando", "Logit lens: the prediction taking shape"),
    "pipeline.lens.what": (
        "E se o modelo parasse numa camada do meio? Aplicamos a norma final e a matriz de saída ao vetor do "
        "último token depois de cada camada e vemos qual token ele preveria.",
        "What if the model stopped at a middle layer? We apply the final norm and the output matrix to the last "
        "token's vector after each layer and see which token it would predict.",
    ),
    "pipeline.lens.emb": ("embedding", "embedding"),
    "pipeline.lens.layer": ("camada {n}", "layer {n}"),
    "pipeline.lens.out": ("saída final", "final output"),
    "pipeline.axis.rank": ("1º, 2º, 3º mais provável", "1st, 2nd, 3rd most likely"),
    "pipeline.lens.caption": (
        "Os {k} tokens mais prováveis em cada camada, na última posição; a cor é a probabilidade. {emb} Nas camadas seguintes a previsão muda, nem sempre numa direção só, e a linha '{out}' é a que "
        "o modelo usa.",
        "The {k} most likely tokens at each layer, at the last position; colour is the probability. {emb} In the layers after it the prediction changes, not always in one direction, and the "
        "'{out}' row is the one the model uses.",
    ),
    "pipeline.lens.emb.self": (
        "Aqui a linha 'embedding' devolve o próprio token de entrada: com pesos amarrados, o produto da matriz de "
        "saída com o embedding normalizado costuma ser maior na linha do próprio token.",
        "Here the 'embedding' row gives back the input token itself: with tied weights, the output matrix times the "
        "normalized embedding is usually largest at the token's own row.",
    ),
    "pipeline.lens.emb.other": (
        "Aqui a linha 'embedding' não devolve o próprio token de entrada: com pesos amarrados isso é o comum, mas "
        "não é garantido.",
        "Here the 'embedding' row does not give back the input token: with tied weights that is common, but not "
        "guaranteed.",
    ),
    # model card
    "pipeline.card.title": ("Ficha do modelo e a escala dos outros", "Model card and the scale of others"),
    "pipeline.card.ours": ("**{name}**, o modelo rodando agora (lido da configuração e dos pesos):",
                           "**{name}**, the model running now (read from its config and weights):"),
    "pipeline.card.seed": ("Outros modelos (tabela do texto do curso):", "Other models (the course text's table):"),
    "pipeline.col.property": ("propriedade", "property"),
    "pipeline.col.value": ("valor", "value"),
    "pipeline.col.model": ("modelo", "model"),
    "pipeline.card.layers": ("camadas", "layers"),
    "pipeline.card.heads": ("cabeças de atenção", "attention heads"),
    "pipeline.card.kv_heads": ("cabeças de chave/valor", "key/value heads"),
    "pipeline.card.d_model": ("d_model (largura do vetor)", "d_model (vector width)"),
    "pipeline.card.d_ff": ("d_ff (largura do MLP)", "d_ff (MLP width)"),
    "pipeline.card.vocab": ("vocabulário", "vocabulary"),
    "pipeline.card.params": ("parâmetros", "parameters"),
    "pipeline.card.emb_params": ("… dos quais na matriz de embedding", "… of which in the embedding matrix"),
    "pipeline.card.context": ("contexto máximo (tokens)", "maximum context (tokens)"),
    "pipeline.card.activation": ("ativação do MLP", "MLP activation"),
    "pipeline.card.flops": ("FLOPs por token (≈ 2 × parâmetros)", "FLOPs per token (≈ 2 × parameters)"),
    "pipeline.card.dtype": ("precisão · dispositivo", "precision · device"),
    "pipeline.card.unknown": ("desconhecido", "unknown"),
    "pipeline.card.est": ("estimado", "estimated"),
    "pipeline.card.flops_short": ("FLOPs por token", "FLOPs per token"),
    "pipeline.card.moe": ("dezenas a centenas de GFLOPs (estimado)", "tens to hundreds of GFLOPs (estimated)"),
    "pipeline.card.gpt3": (
        "**Um erro do texto do curso.** Ele dá ao GPT-4 embeddings de {d} dimensões e {heads} cabeças em cada "
        "uma de {layers}+ camadas. Esses são os números publicados do **GPT-3** (Brown et al., 2020, tabela "
        "2.1: {d} dimensões, {layers} camadas, {heads} cabeças); os do GPT-4 não foram publicados. O modelo "
        "carregado aqui: {ours_d} dimensões, {ours_layers} camadas, {ours_heads} cabeças.",
        "**An error in the course text.** It gives GPT-4 {d}-dimensional embeddings and {heads} heads in each of "
        "its {layers}+ layers. Those are **GPT-3**'s published figures (Brown et al., 2020, table 2.1: {d} "
        "dimensions, {layers} layers, {heads} heads); GPT-4's were never published. The model loaded here: "
        "{ours_d} dimensions, {ours_layers} layers, {ours_heads} heads.",
    ),
    "pipeline.card.caption": (
        "Camadas e parâmetros como no texto do curso, corrigidos pelas fichas publicadas: o Llama 3.1 tem "
        "{llama} camadas (um número por tamanho, não uma faixa), e o GPT-2 tem {gpt2} parâmetros, as contagens que "
        "a OpenAI corrigiu (o texto diz {gpt2_seed}). FLOPs por token gerado ≈ 2 × os parâmetros que trabalham "
        "nesse token. O GPT-4 não foi publicado: os números são estimativas, e, segundo relatos não oficiais, ele "
        "é uma mistura de especialistas (MoE), em que cada token passa só por uma parte dos parâmetros. Por isso "
        "não são 2 × {gpt4} = {gpt4_flops} por token, e sim \"dezenas ou centenas de bilhões de FLOPs\", como "
        "diz o texto.",
        "Layers and parameters as in the course text, corrected by the published model cards: Llama 3.1 has "
        "{llama} layers (one number per size, not a range), and GPT-2 has {gpt2} parameters, the counts OpenAI "
        "corrected (the text says {gpt2_seed}). FLOPs per generated token ≈ 2 × the parameters that work on that "
        "token. GPT-4 was not published: its numbers are estimates, and it is reportedly a mixture of experts "
        "(MoE), where each token goes through only part of the parameters. So it is not 2 × {gpt4} = "
        "{gpt4_flops} per token but \"tens or hundreds of billions of FLOPs\", as the text says.",
    ),
}
