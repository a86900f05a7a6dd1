"""Strings of the attention page (heatmaps, grid of heads, Q/K/V sizes, the "banco" demo)."""

STRINGS = {
    "attention.title": ("Atenção: a quem cada token presta atenção?", "Attention: what does each token look at?"),
    "attention.intro": (
        "Em cada camada, cada token **olha para si mesmo e para os tokens anteriores** e decide quanto cada "
        "um importa: esses são os pesos de atenção, e cada linha soma 1. Escolha uma camada e uma cabeça, "
        "veja a matriz do modelo de verdade para o seu texto e note o triângulo cinza: o futuro fica "
        "**mascarado**. No fim da página, a mesma palavra (“banco”) muda de sentido conforme o contexto.",
        "In every layer, each token **looks at itself and at the tokens before it** and decides how much each "
        "one matters: those are the attention weights, and each row sums to 1. Pick a layer and a head, see "
        "the real model's matrix for your text, and notice the grey triangle: the future is **masked**. At "
        "the end of the page, the same word (“banco”, bank or bench) changes meaning with its context.",
    ),
    # the big heatmap
    "attention.big.title": ("Uma cabeça de atenção, em tamanho grande", "One attention head, large"),
    "attention.pick.layer": ("Camada", "Layer"),
    "attention.pick.layer.help": (
        "Camadas de “janela deslizante” só olham para os últimos tokens dentro da janela; as de atenção completa "
        "olham para todo o texto.",
        "“Sliding window” layers only look at the most recent tokens inside the window; full-attention layers look "
        "at the whole text.",
    ),
    "attention.layer.sliding": ("Camada {n} · janela deslizante ({window} tokens)",
                                "Layer {n} · sliding window ({window} tokens)"),
    "attention.layer.full": ("Camada {n} · atenção completa", "Layer {n} · full attention"),
    "attention.layer.avg": ("Média das {n} camadas", "Average of the {n} layers"),
    "attention.pick.head": ("Cabeça", "Head"),
    "attention.pick.head.help": (
        "As {n} cabeças de uma camada calculam pesos diferentes; {share}",
        "The {n} heads of a layer compute different weights; {share}",
    ),
    "attention.head.one": ("Cabeça {n}", "Head {n}"),
    "attention.head.avg": ("Média das {n} cabeças", "Average of the {n} heads"),
    "attention.view.one": ("Camada {layer}, cabeça {head}", "Layer {layer}, head {head}"),
    "attention.view.avg_heads": ("Camada {layer}: média das {n} cabeças", "Layer {layer}: average of its {n} heads"),
    "attention.view.avg_layers": ("Cabeça {head}: média das {n} camadas", "Head {head}: average over the {n} layers"),
    "attention.view.avg_all": ("Média de todas as {n} cabeças de todas as camadas",
                               "Average of all {n} heads in every layer"),
    "attention.axis.query": ("Consulta (o token que olha)", "Query (the token that looks)"),
    "attention.a11y.map": ("Gráfico: mapa de atenção, {rows} consultas × {cols} colunas de chaves; cada linha soma 1. "
                           "Em cada linha, as células depois do próprio token são o futuro, escondido pela máscara "
                           "causal.{sliding} Na última linha, {looks}.",
                           "Chart: attention map, {rows} queries × {cols} key columns; each row sums to 1. In each row, "
                           "the cells after the token itself are the future, hidden by the causal mask.{sliding} In the "
                           "last row, {looks}."),
    "attention.a11y.map.sliding": (" Nesta camada de janela deslizante, também ficam escondidas as chaves distantes "
                                   "demais para trás.",
                                   " In this sliding-window layer, keys too far back are hidden too."),
    "attention.a11y.map.looks": ("“{query}” olha mais para “{looked}” ({w})", "“{query}” looks most at “{looked}” ({w})"),
    "attention.a11y.map.middle": ("“{query}” põe mais peso nos {n} tokens do meio, somados ({w})",
                                  "“{query}” puts most weight on the {n} middle tokens, summed ({w})"),
    "attention.a11y.grid.avg": (" e a média delas", " and their average"),
    "attention.a11y.grid": ("Gráfico: grade de {cols} colunas (camadas{avg}) × {rows} linhas (cabeças e a média delas), "
                            "cada miniatura um pequeno mapa de atenção como o de cima; {marked}.",
                            "Chart: a grid of {cols} columns (layers{avg}) × {rows} rows (heads and their average), "
                            "each thumbnail a small attention map like the one above; {marked}."),
    "attention.a11y.grid.marked": ("o quadro laranja marca a miniatura aberta no mapa grande: {what}",
                                   "the orange frame marks the thumbnail open in the big map: {what}"),
    "attention.a11y.grid.unmarked": ("a miniatura aberta no mapa grande ({what}) não está neste grupo de camadas",
                                     "the thumbnail open in the big map ({what}) is not in this group of layers"),
    "attention.axis.key": ("Chave (o token olhado)", "Key (the token looked at)"),
    "attention.legend.weight": ("peso", "weight"),
    "attention.tip.query": ("consulta", "query"),
    "attention.tip.key": ("chave", "key"),
    "attention.tip.weight": ("peso de atenção", "attention weight"),
    "attention.masked": ("mascarado (futuro)", "masked (future)"),
    "attention.hidden_col": ("… {n} anteriores", "… {n} earlier"),
    "attention.hidden_tip": ("{n} tokens do meio, somados", "{n} middle tokens, summed"),
    "attention.heatmap.caption": (
        "Cada linha é um token olhando para trás: a cor é o peso que ele dá a cada token anterior e a si "
        "mesmo (0 a 1). Células cinzas com “–” são o futuro, que a máscara causal esconde. A coluna Σ mostra "
        "a soma de cada linha. Clique numa célula para ver essa linha em barras logo abaixo.",
        "Each row is one token looking back: the colour is the weight it gives to each earlier token and to "
        "itself (0 to 1). Grey cells with “–” are the future, hidden by the causal mask. The Σ column shows "
        "each row's sum. Click a cell to see that row as bars just below.",
    ),
    "attention.rowsum": (
        "Toda linha soma 1 (maior desvio nesta figura: {dev}; os pesos vêm em {dtype}, e o arredondamento explica "
        "a diferença).",
        "Every row sums to 1 (largest deviation in this figure: {dev}; the weights come in {dtype}, and rounding "
        "explains the difference).",
    ),
    "attention.capped": (
        "O texto tem {n} tokens; para continuar legível, a figura mostra as últimas {rows} linhas, o primeiro token "
        "e uma coluna que soma os {hidden} tokens do meio (assim as linhas ainda somam 1). As barras abaixo "
        "alcançam qualquer token.",
        "The text has {n} tokens; to stay readable, the figure shows the last {rows} rows, the first token and one "
        "column summing the {hidden} middle tokens (so rows still sum to 1). The bars below reach any token.",
    ),
    # one token
    "attention.token.title": ("Para onde um token olha?", "Where does one token look?"),
    "attention.pick.token": ("Token (consulta)", "Token (query)"),
    "attention.bars.caption": (
        "O peso que este token dá a cada token anterior (e a si mesmo), na camada e cabeça escolhidas acima. Em "
        "textos longos aparecem os {n} mais fortes; o resto vira uma barra cinza.",
        "The weight this token gives to each earlier token (and itself), in the layer and head chosen above. For "
        "long texts the {n} strongest are shown; the rest become one grey bar.",
    ),
    "attention.kind.prompt": ("prompt", "prompt"),
    "attention.kind.generated": ("gerado pelo modelo", "generated by the model"),
    "attention.kind.others": ("os demais, somados", "all others, summed"),
    "attention.others": ("outros {n} tokens", "{n} other tokens"),
    "attention.strongest.title": ("**As cabeças mais focadas neste token**", "**The heads most focused for this token**"),
    "attention.strongest.caption": (
        "Das {n} cabeças, as que põem mais peso num único token (anterior ou ele mesmo). O primeiro token (<bos>) fica de fora: "
        "muitas cabeças “descansam” nele quando não há nada útil para olhar.",
        "Of the {n} heads, those that put the most weight on a single token (earlier, or itself). The first token (<bos>) is left "
        "out: many heads “rest” on it when there is nothing useful to look at.",
    ),
    "attention.col.layer": ("camada", "layer"),
    "attention.col.head": ("cabeça", "head"),
    "attention.col.looks_at": ("olha para", "looks at"),
    # the grid
    "attention.grid.title": ("Todas as cabeças de uma vez", "Every head at once"),
    "attention.grid.avg": ("média", "avg"),
    "attention.grid.avg_tip": ("média sobre as camadas", "average over the layers"),
    "attention.grid.head_short": ("C{n}", "H{n}"),
    "attention.type.full_attention": ("atenção completa", "full attention"),
    "attention.type.sliding_attention": ("janela deslizante", "sliding window"),
    "attention.grid.caption": (
        "Colunas = camadas (números em laranja: atenção completa; as outras usam janela deslizante); linhas = "
        "cabeças. A última coluna e a última linha são **médias** (sobre as camadas e sobre as cabeças). Cada "
        "miniatura mostra até {n} colunas: num texto mais longo, o primeiro token, uma coluna que soma os tokens do "
        "meio e os últimos {tail}. Uma cabeça de uma camada não tem relação com a de mesmo número em outra (o número é só a "
        "ordem dentro da camada): a média de uma cabeça sobre as camadas junta cabeças diferentes; as médias com "
        "sentido são a de cada camada e a de todas. Clique numa miniatura para abri-la em tamanho grande acima; o quadro laranja marca a que está aberta. São {heads} cabeças ao todo.",
        "Columns = layers (orange numbers: full attention; the others use a sliding window); rows = heads. The last "
        "column and the last row are **averages** (over layers and over heads). Each thumbnail shows up to {n} "
        "columns: in a longer text, the first token, a column summing the middle tokens and the last {tail}. A head of "
        "one layer has nothing to do with the head of the same number in another (the number is just its order within the layer): "
        "averaging one head over the layers mixes different heads; the meaningful averages are each layer's and "
        "that of all of them. Click a thumbnail to open it large above; the orange frame marks the "
        "open one. That is {heads} heads in all.",
    ),
    # generated text
    "attention.gen.title": ("Atenção sobre o texto gerado", "Attention over generated text"),
    "attention.gen.n": ("Quantos tokens gerar (guloso: sempre o mais provável)",
                        "How many tokens to generate (greedy: always the most likely)"),
    "attention.gen.button": ("Gerar e mostrar a atenção", "Generate and show the attention"),
    "attention.gen.hint": (
        "O modelo continua o seu prompt; depois você vê como cada token novo olhou para o prompt e para os tokens "
        "que ele mesmo acabou de escrever.",
        "The model continues your prompt; then you see how each new token looked at the prompt and at the tokens it "
        "had just written itself.",
    ),
    "attention.reading": ("Lendo a atenção do modelo…", "Reading the model's attention…"),
    "attention.gen.tracing": ("{n} tokens gerados; lendo a atenção de cada um…",
                              "{n} tokens generated; reading the attention of each…"),
    "attention.gen.running": ("Gerando {n} tokens e lendo a atenção…", "Generating {n} tokens and reading the attention…"),
    "attention.gen.caption": (
        "Tokens com ▸, abaixo e à direita da linha laranja, foram gerados pelo modelo ({n} no total). A linha de "
        "cada token mostra para onde ele olhou ao escolher o token seguinte: a última linha do prompt (acima da "
        "linha laranja) escolheu o primeiro ▸, e a última linha ▸ escolheria um próximo, que não foi gerado.",
        "Tokens marked ▸, below and right of the orange line, were generated by the model ({n} in all). Each "
        "token's row shows where it looked when choosing the next token: the prompt's last row (above the orange "
        "line) chose the first ▸, and the last ▸ row would choose a next one, which was not generated.",
    ),
    # mechanics
    "attention.mech.title": ("Como é calculado, com os tamanhos deste modelo", "How it is computed, with this model's sizes"),
    "attention.col.tensor": ("tensor", "tensor"),
    "attention.col.shape": ("formato", "shape"),
    "attention.col.meaning": ("o que é", "what it is"),
    "attention.shape.0": ("os vetores dos tokens que entram na camada", "the token vectors entering the layer"),
    "attention.shape.1": ("pesos que fazem as consultas (uma por cabeça)", "weights that make the queries (one per head)"),
    "attention.shape.2": ("pesos que fazem as chaves (uma só cabeça K/V)", "weights that make the keys (a single K/V head)"),
    "attention.shape.3": ("pesos que fazem os valores", "weights that make the values"),
    "attention.shape.4": ("consultas: “o que estou procurando?”", "queries: “what am I looking for?”"),
    "attention.shape.5": ("chaves: “o que eu ofereço?”", "keys: “what do I offer?”"),
    "attention.shape.6": ("valores: “qual é o meu conteúdo?”", "values: “what is my content?”"),
    "attention.shape.7": (
        "as pontuações de cada consulta contra cada chave; a máscara põe −∞ no futuro (e, nas camadas de "
        "janela, além da janela), e a softmax de cada linha dá os pesos acima",
        "each query's scores against each key; the mask puts −∞ on the future (and, in the window layers, "
        "beyond the window), and each row's softmax gives the weights above",
    ),
    "attention.shape.8": ("a mistura dos valores, pesada pela atenção", "the mix of values, weighted by attention"),
    "attention.shape.9": ("pesos que juntam as cabeças de volta", "weights that merge the heads back"),
    "attention.shape.10": ("o que a camada soma ao fluxo residual", "what the layer adds to the residual stream"),
    "attention.shapes.caption": (
        "Formatos para o seu prompt de {t} tokens (lote de 1). Pesos aparecem como (entrada × saída).",
        "Shapes for your {t}-token prompt (batch of 1). Weights are shown as (input × output).",
    ),
    "attention.scale.gemma": (
        "**A escala.** A fórmula clássica divide por √d_k. O Gemma 3 multiplica as consultas por "
        "1/√`query_pre_attn_scalar`, e a configuração do modelo traz `query_pre_attn_scalar` = {basis}: 1/√{basis} = "
        "{scale}. Aqui d_k = {dk}, então dá no mesmo que 1/√d_k.",
        "**The scale.** The textbook formula divides by √d_k. Gemma 3 multiplies the queries by "
        "1/√`query_pre_attn_scalar`, and the model's config sets `query_pre_attn_scalar` = {basis}: 1/√{basis} = "
        "{scale}. Here d_k = {dk}, so it is the same as 1/√d_k.",
    ),
    "attention.scale.plain": (
        "**A escala.** Este modelo divide as pontuações por √d_k = √{dk}: cada pontuação é multiplicada por {scale} "
        "(base {basis}).",
        "**The scale.** This model divides the scores by √d_k = √{dk}: each score is multiplied by {scale} "
        "(basis {basis}).",
    ),
    "attention.scale.why": (
        "Por que dividir: se os números de q e de k variam em torno de 0 com variância 1, o produto escalar de "
        "dois vetores de d_k = {dk} números se espalha com desvio-padrão √{dk} = {sqrt}. Sem a divisão, as "
        "pontuações cresceriam com √d_k e o softmax ficaria saturado, quase um argmax: um peso perto de 1, os "
        "outros perto de 0, e gradientes quase nulos no treino. Dividir por √d_k devolve as pontuações à escala "
        "de 1 (Vaswani et al., 2017).",
        "Why divide: if the numbers in q and k vary around 0 with variance 1, the dot product of two vectors of "
        "d_k = {dk} numbers spreads with a standard deviation of √{dk} = {sqrt}. Without the division, the "
        "scores would grow with √d_k and the softmax would saturate, almost an argmax: one weight near 1, the "
        "others near 0, and almost no gradient in training. Dividing by √d_k brings the scores back to a scale "
        "of 1 (Vaswani et al., 2017).",
    ),
    "attention.qknorm": (
        "Antes do produto escalar, o Gemma 3 ainda normaliza Q e K (RMSNorm) e gira os dois conforme a posição "
        "(RoPE), que é como o modelo sabe a ordem dos tokens.",
        "Before the dot product, Gemma 3 also normalises Q and K (RMSNorm) and rotates both by position (RoPE), "
        "which is how the model knows the order of the tokens.",
    ),
    "attention.share.mqa": (
        "todas compartilham as mesmas chaves e valores (uma só cabeça de chave/valor: atenção multi-consulta, "
        "MQA, o caso extremo da atenção de consulta agrupada, GQA).",
        "they all share the same keys and values (a single key/value head: multi-query attention, MQA, the "
        "extreme case of grouped-query attention, GQA).",
    ),
    "attention.share.gqa": (
        "cada grupo de {group} cabeças compartilha as mesmas chaves e valores (atenção de consulta agrupada, GQA).",
        "each group of {group} heads shares the same keys and values (grouped-query attention, GQA).",
    ),
    "attention.share.mha": ("cada uma tem as suas próprias chaves e valores.", "each has its own keys and values."),
    "attention.gqa": (
        "**{kind}.** Há {heads} cabeças de consulta e {kv} de chave/valor: cada grupo de {group} consultas "
        "compara-se com as mesmas chaves e mistura os mesmos valores. Por isso o KV cache guarda "
        "{per} números por token e camada, e não {full}: {ratio}× menos memória.",
        "**{kind}.** There are {heads} query heads and {kv} key/value heads: each group of {group} queries is "
        "compared with the same keys and mixes the same values. That is why the KV cache keeps {per} "
        "numbers per token and layer instead of {full}: {ratio}× less memory.",
    ),
    "attention.kind.mqa": (
        "Atenção multi-consulta (MQA), o caso extremo da atenção de consulta agrupada (GQA)",
        "Multi-query attention (MQA), the extreme case of grouped-query attention (GQA)",
    ),
    "attention.kind.gqa": ("Atenção de consulta agrupada (GQA)", "Grouped-query attention (GQA)"),
    "attention.kind.mha": ("Atenção multi-cabeça", "Multi-head attention"),
    "attention.sliding": (
        "**Janela deslizante × atenção completa.** {n_sliding} camadas olham só para os últimos {window} tokens; "
        "{n_full} camadas ({full}) olham para o texto inteiro.",
        "**Sliding window vs. full attention.** {n_sliding} layers look only at the last {window} tokens; {n_full} "
        "layers ({full}) look at the whole text.",
    ),
    "attention.sliding.inside": (
        "Esta página aceita até {limit} tokens de prompt, não mais que a janela: no prompt, todas as camadas "
        "enxergam tudo. A janela corta no texto gerado, quando prompt e completação passam de {window} tokens: a "
        "partir do token {after}, as {n_sliding} camadas de janela deixam de ver o começo. Em textos longos, a "
        "janela economiza memória e tempo.",
        "This page takes prompts up to {limit} tokens, no more than the window: in the prompt, every layer sees "
        "everything. The window cuts in generated text, when prompt and completion pass {window} tokens: from "
        "token {after} on, the {n_sliding} sliding-window layers no longer see the beginning. In long texts, the "
        "window saves memory and time.",
    ),
    "attention.sliding.beyond": (
        "Esta página aceita até {limit} tokens de prompt, mais que a janela: num prompt de mais de {window} "
        "tokens, a partir do token {after} as {n_sliding} camadas de janela já não veem o começo. Em textos "
        "longos, a janela economiza memória e tempo.",
        "This page takes prompts up to {limit} tokens, more than the window: in a prompt of more than {window} "
        "tokens, from token {after} on the {n_sliding} sliding-window layers no longer see the beginning. In "
        "long texts, the window saves memory and time.",
    ),
    # banco
    "attention.banco.title": ("A mesma palavra, dois sentidos: “banco”", "One word, two meanings: “banco”"),
    "attention.banco.intro": (
        "Na entrada, “banco” é sempre o mesmo vetor: o embedding não sabe se é o banco do dinheiro ou o da "
        "praça. A cada camada, a atenção mistura no vetor dessa posição um pouco dos tokens **anteriores** (e "
        "dele mesmo): o que vem depois não entra. O gráfico mede, camada por camada, o quanto os dois vetores "
        "de “banco” ainda se parecem.",
        "At the input, “banco” is always the same vector: the embedding does not know whether it is the bank "
        "with money or the bench in the square. At every layer, attention mixes into that position's vector "
        "some of the tokens **before** it (and itself): what comes after does not enter. The chart measures, "
        "layer by layer, how alike the two “banco” vectors still are.",
    ),
    "attention.banco.seed": ("Exemplo do texto", "The text's example"),
    "attention.banco.before": ("Contexto antes da palavra", "Context before the word"),
    "attention.banco.seed.a": ("Fui ao banco sacar dinheiro", "Fui ao banco sacar dinheiro"),
    "attention.banco.seed.b": ("Sentei no banco da praça", "Sentei no banco da praça"),
    "attention.banco.seed.word": ("banco", "banco"),
    "attention.banco.before.a": ("Precisava de dinheiro, então fui ao banco",
                                 "Precisava de dinheiro, então fui ao banco"),
    "attention.banco.before.b": ("Cansado de andar pela praça, sentei no banco",
                                 "Cansado de andar pela praça, sentei no banco"),
    "attention.banco.before.word": ("banco", "banco"),
    "attention.banco.sentence": ("Frase {n}", "Sentence {n}"),
    "attention.banco.word": ("Palavra comparada", "Word compared"),
    "attention.banco.missing": (
        "A palavra não aparece (como palavra inteira) na frase {n}. Edite a frase ou a palavra.",
        "The word does not appear (as a whole word) in sentence {n}. Edit the sentence or the word.",
    ),
    "attention.banco.col.sentence": ("frase", "sentence"),
    "attention.banco.col.tokens": ("tokens da palavra", "the word's tokens"),
    "attention.banco.col.position": ("posição comparada", "position compared"),
    "attention.banco.col.sees": ("o que o modelo já leu nessa posição", "what the model has read at that position"),
    "attention.banco.raw": ("Mostrar também o cosseno sem centralizar", "Also show the cosine without centring"),
    "attention.banco.line.word": ("a palavra nas duas frases", "the word in both sentences"),
    "attention.banco.line.base": ("referência: tokens diferentes (média)", "reference: different tokens (mean)"),
    "attention.banco.line.raw": ("a palavra, sem centralizar", "the word, not centred"),
    "attention.banco.axis.layer": ("camada (0 = embedding, {n} = saída)", "layer (0 = embedding, {n} = output)"),
    "attention.banco.axis.sim": ("cosseno", "cosine"),
    "attention.banco.embedding": ("0 (embedding)", "0 (embedding)"),
    "attention.banco.final": ("{n} (saída, após a norma final)", "{n} (output, after the final norm)"),
    "attention.banco.caption": (
        "Similaridade de cosseno entre os vetores da palavra (o último token dela) nas duas frases, em cada camada. "
        "Na entrada (0, antes da camada 1) vale {first}, igual à dos embeddings ({emb}); {path}. Antes de "
        "comparar, subtraímos o vetor médio dos tokens das duas frases em cada camada: sem isso, umas poucas "
        "dimensões enormes, iguais em todos os tokens, deixam qualquer par perto de 1 (ligue a opção acima para ver). "
        "A linha cinza é a referência: pares de tokens diferentes.",
        "Cosine similarity between the word's vectors (its last token) in the two sentences, at every layer. At "
        "the input (0, before layer 1) it is {first}, equal to the embeddings' ({emb}); {path}. Before "
        "comparing, we subtract the mean vector of both sentences' tokens at each layer: without that, a few huge "
        "dimensions, alike in every token, keep any pair near 1 (turn on the option above to see). The grey line "
        "is the reference: pairs of different tokens.",
    ),
    "attention.banco.drops": ("cai até {lowest} e termina em {last}", "it drops to {lowest} and ends at {last}"),
    "attention.banco.stays": ("não fica abaixo disso em nenhuma camada e termina em {last}",
                              "it is not lower at any layer and ends at {last}"),
    "attention.banco.undefined": (
        "Com tão poucos tokens, o vetor da palavra é a própria média, e a similaridade centralizada não é definida. "
        "Escreva frases um pouco mais longas.",
        "With so few tokens the word's vector is the mean itself, so the centred similarity is not defined. Write "
        "slightly longer sentences.",
    ),
    "attention.banco.causal": (
        "O Gemma lê da esquerda para a direita: na posição de “banco” ele só viu as palavras **anteriores**. No "
        "exemplo do texto, as pistas (“dinheiro”, “praça”) vêm **depois** e não podem mudar esse vetor; o que o "
        "muda é “Fui ao” contra “Sentei no”. Clique em “Contexto antes da palavra” para pôr a pista antes.",
        "Gemma reads left to right: at the position of “banco” it has seen only the words **before** it. In the "
        "text's example the clues (“dinheiro”, “praça”) come **after** it and cannot change that vector; what "
        "changes it is “Fui ao” versus “Sentei no”. Click “Context before the word” to put the clue first.",
    ),
    # the grid's layer groups (larger blocks on a phone or a projector)
    "attention.grid.pick": ("Camadas na grade", "Layers in the grid"),
    "attention.grid.pick.help": (
        "Num celular ou num projetor, escolha um grupo de camadas para ver cada miniatura maior.",
        "On a phone or a projector, pick one group of layers to see each thumbnail larger.",
    ),
    "attention.grid.all": ("Todas", "All"),
    "attention.grid.group": ("{a}–{b}", "{a}–{b}"),
    "attention.grid.caption.group": (
        "Colunas = as camadas {a} a {b} (números em laranja: atenção completa; as outras usam janela deslizante); "
        "linhas = cabeças, e a última linha é a **média** das cabeças. Cada miniatura mostra até {n} colunas: num texto "
        "mais longo, o primeiro token, uma coluna que soma os tokens do meio e os últimos {tail}. Clique numa miniatura para abri-la em tamanho grande acima; o quadro laranja marca a que está "
        "aberta. Escolha “Todas” para ver as {heads} cabeças de uma vez.",
        "Columns = layers {a} to {b} (orange numbers: full attention; the others use a sliding window); rows = "
        "heads, and the last row is the **average** of the heads. Each thumbnail shows up to {n} columns: in a "
        "longer text, the first token, a column summing the middle tokens and the last {tail}. Click a thumbnail to open it large above; the orange frame marks the open one. Pick "
        "“All” to see all {heads} heads at once.",
    ),
    # downloads
    "attention.dl.title": ("Baixar estes dados (CSV ou JSON)", "Download this data (CSV or JSON)"),
    "attention.dl.tokens": ("Os {n} tokens: posição, id, o token como aparece nos eixos e o texto dele.",
                            "The {n} tokens: position, id, the token as the axes show it, and its text."),
    "attention.dl.matrix": (
        "{what}: as {n} células desenhadas, com o peso exato (vazio onde a máscara esconde a chave; camada ou "
        "cabeça -1 = média; key_pos -1 = a coluna que soma o meio de um texto longo).",
        "{what}: the {n} cells drawn, with the exact weight (empty where the mask hides the key; layer or head "
        "-1 = average; key_pos -1 = the column summing the middle of a long text).",
    ),
    "attention.dl.banco": (
        "As curvas acima, uma linha por camada (0 = embeddings): cosseno centralizado, a referência e o cosseno "
        "sem centralizar.",
        "The curves above, one row per layer (0 = embeddings): centred cosine, the reference, and the cosine "
        "without centring.",
    ),
    # the heatmap's size for long texts
    "attention.cols": ("Tokens na figura", "Tokens in the figure"),
    "attention.cols.n": ("Últimos {n}", "Last {n}"),
    "attention.cols.help": (
        "Num celular, 10 colunas continuam legíveis; com 30, alguns rótulos somem. O primeiro token e a soma do "
        "meio do texto ficam sempre.",
        "On a phone, 10 columns stay readable; with 30, some labels drop out. The first token and the sum of the "
        "middle of the text always stay.",
    ),
}
