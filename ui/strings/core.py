"""Strings of the shell: sidebar, navigation, errors, model preparation, home page."""

STRINGS = {
    "app.title": ("Token a Token", "Token by Token"),
    # sidebar
    "side.language": ("Idioma", "Language"),
    "side.model": ("Modelo", "Model"),
    "side.dtype": ("Precisão numérica", "Numeric precision"),
    "side.dtype.auto": ("automática (neste servidor: {auto})", "automatic (on this server: {auto})"),
    "side.dtype.float32": ("float32 (mais bits; não desfaz a quantização dos pesos)", "float32 (more bits; does not undo the weights' quantization)"),
    "side.dtype.bfloat16": ("bfloat16 (metade da memória)", "bfloat16 (half the memory)"),
    "side.advanced": ("Avançado", "Advanced"),
    "side.presets": ("Exemplos de prompt", "Prompt examples"),
    "side.presets.pick": ("— escolha um exemplo —", "— pick an example —"),
    "side.presets.help": ("Coloca o exemplo na caixa de texto de todas as páginas.",
                          "Puts the example in the text box of every page."),
    "side.running": ("Rodando: {model} · {device} · {dtype}", "Running: {model} · {device} · {dtype}"),
    # navigation
    "nav.home": ("Início", "Home"),
    "nav.pipeline": ("Visão geral do pipeline", "Pipeline overview"),
    "nav.loop": ("O loop autoregressivo", "The autoregressive loop"),
    "nav.tokenizer": ("Tokenizador e embeddings", "Tokenizer and embeddings"),
    "nav.attention": ("Atenção", "Attention"),
    "nav.temperature": ("Temperatura e amostragem", "Temperature and sampling"),
    "nav.nondeterminism": ("Não-determinismo", "Nondeterminism"),
    "nav.hallucination": ("Alucinação e confiança", "Hallucination and confidence"),
    "nav.grokking": ("Grokking", "Grokking"),
    "nav.next": ("Próxima página: {page}", "Next page: {page}"),
    # shared widgets
    "common.prompt": ("Prompt (o texto que o modelo vai continuar)", "Prompt (the text the model will continue)"),
    "common.default_prompt": ("A capital da França é", "The capital of France is"),  # each language its own
    "common.truncated": (
        "O texto tinha {n} tokens; o modelo vê só os primeiros {kept}. Nada foi apagado da sua caixa de texto.",
        "The text had {n} tokens; the model sees only the first {kept}. Nothing was removed from your text box.",
    ),
    # errors (keys follow model_backend.validation.InvalidInput.key)
    "err.prompt_type": ("O prompt precisa ser texto.", "The prompt has to be text."),
    "err.prompt_empty": ("O prompt está vazio. Digite um texto para o modelo continuar.",
                         "The prompt is empty. Type some text for the model to continue."),
    "err.prompt_too_long": ("O texto tem {n:,} caracteres; o limite é {limit:,}. Encurte-o para continuar.",
                            "The text has {n:,} characters; the limit is {limit:,}. Shorten it to go on."),
    "err.not_a_number": ("{name} precisa ser um número, mas é {value}.", "{name} has to be a number, but is {value}."),
    "err.not_finite": ("{name} precisa ser um número finito, mas é {value}.", "{name} has to be a finite number, but is {value}."),
    "err.not_integer": ("{name} precisa ser um número inteiro, mas é {value}.", "{name} has to be a whole number, but is {value}."),
    "err.temperature": ("A temperatura precisa ser 0 (guloso) ou positiva, mas é {value}.",
                        "Temperature has to be 0 (greedy) or positive, but is {value}."),
    "err.top_k": ("top-k precisa ser um inteiro positivo (ou 0 para desligar), mas é {value}.",
                  "top-k has to be a positive integer (or 0 for off), but is {value}."),
    "err.top_p": ("top-p precisa estar entre 0 (exclusive) e 1, mas é {value}.", "top-p has to be above 0 and at most 1, but is {value}."),
    "err.repetition_penalty": ("A penalidade de repetição precisa ser positiva, mas é {value}.",
                               "The repetition penalty has to be positive, but is {value}."),
    "err.max_new_tokens": ("max_new_tokens precisa estar entre 1 e {cap}, mas é {value}.",
                           "max_new_tokens has to be between 1 and {cap}, but is {value}."),
    "err.seed": ("A semente precisa estar entre 0 e 2^63 − 1, mas é {value}.", "The seed has to be between 0 and 2^63 − 1, but is {value}."),
    "err.stop": ("Cada sequência de parada precisa ter texto, mas uma é {value}.",
                 "Each stop sequence needs some text, but one is {value}."),
    "err.stop_count": ("No máximo 8 sequências de parada; foram dadas {n}.", "At most 8 stop sequences; {n} were given."),
    "err.model": ("O modelo não pôde ser carregado: {detail}", "The model could not be loaded: {detail}"),
    # model preparation
    "prepare.title": ("Preparando o modelo (só na primeira vez)", "Preparing the model (first time only)"),
    "prepare.assemble": ("montando o arquivo GGUF", "assembling the GGUF file"),
    "prepare.tokenizer": ("lendo o tokenizador", "reading the tokenizer"),
    "prepare.dequantize": ("desquantizando os pesos", "de-quantizing the weights"),
    "prepare.save": ("salvando uma cópia rápida de carregar", "saving a copy that loads fast"),
    "prepare.checksum": ("conferindo a cópia", "checking the copy"),
    "prepare.load": ("carregando", "loading"),
    "prepare.rebuild": ("cópia corrompida; reconstruindo", "corrupt copy; rebuilding"),
    "prepare.done": ("pronto", "ready"),
    "prepare.loading": ("Carregando o modelo {model}…", "Loading the model {model}…"),
    "backend.queued": ("O modelo está atendendo outros visitantes: {n} vez(es) do modelo na frente da sua, cerca de {seconds} s. "
                       "A fila anda por ordem de chegada, e os passos de geração de todos que esperam rodam juntos.",
                       "The model is serving other visitors: {n} turn(s) of the model ahead of yours, about {seconds} s. "
                       "The queue moves in arrival order, and the generation steps of everyone waiting run together."),
    # home
    "home.title": ("Token a Token", "Token by Token"),
    "home.intro": (
        "Bem-vindos! Aqui um modelo de linguagem **de verdade** escreve diante de vocês, **um token por "
        "vez**. Cada página abre uma etapa ou um fenômeno: do texto aos tokens, da atenção às probabilidades, "
        "e da amostragem (ou da escolha gulosa) de volta ao texto.",
        "Welcome! Here a **real** language model writes in front of you, **one token at a time**. Each page "
        "opens one stage or one phenomenon: from text to tokens, from attention to probabilities, and from "
        "sampling (or the greedy choice) back to text.",
    ),
    "home.path": (
        "O caminho sugerido",
        "The suggested path",
    ),
    "home.try": ("Experimente: qual é o próximo token?", "Try it: what is the next token?"),
    "home.try.caption": (
        "Os {n} próximos tokens mais prováveis segundo o modelo, calculados agora. As barras somam {top}; os "
        "outros {rest} tokens do vocabulário dividem os {left} restantes.",
        "The model's {n} most likely next tokens, computed just now. The bars add up to {top}; the other {rest} "
        "tokens of the vocabulary share the remaining {left}.",
    ),
    "home.col.token": ("token", "token"),
    "home.col.prob": ("probabilidade", "probability"),
    "home.model": ("O modelo", "The model"),
    # the weights: a quantized copy (ui/weights_view.py; figures from assets/models.json and ui/published.py)
    "weights.short": (
        "**Os pesos são uma cópia quantizada**, não os números do treino: o arquivo que vem com a instalação usa "
        "a receita {file_type} (só {q4} dos pesos em 4 bits; em média {bpw} bits por peso), e o app o {runs}. Por isso cada logit aqui difere um pouco do que dariam os pesos originais publicados pelo Google. A ficha do "
        "modelo, na página do pipeline, mostra a mistura e o custo.",
        "**The weights are a quantized copy**, not the numbers from training: the file that ships with the install "
        "uses the {file_type} recipe (only {q4} of the weights at 4 bits; {bpw} bits per weight on average), and "
        "the app {runs}. That is why every logit here differs a little from what Google's "
        "original published weights would give. The model card, on the pipeline page, shows the mix and the cost.",
    ),
    "weights.detail": (
        "**Os pesos.** O arquivo é um GGUF do llama.cpp com a receita de quantização {file_type}: cada bloco de "
        "pesos guarda poucos bits e uma escala. Lido do próprio arquivo: só {q4} dos pesos ficam de fato em 4 bits "
        "(Q4_K, {q4_bits} bits por peso com as escalas). A matriz de embedding, que também é a matriz de saída, "
        "tem {emb_share} dos pesos e fica em {emb} ({emb_bits} bits). O resto: {rest}. O Q4_K trabalha em blocos "
        "de {block} números, e as matrizes cujas linhas têm {d_model} números não se dividem nesses blocos: ali a "
        "receita usa outros tipos, e ela também dá mais bits a algumas outras matrizes. Em média: {bpw} bits por "
        "peso. {dequant}",
        "**The weights.** The file is a llama.cpp GGUF with the {file_type} quantization recipe: each block of "
        "weights keeps a few bits and a scale. Read from the file itself: only {q4} of the weights are really at "
        "4 bits (Q4_K, {q4_bits} bits per weight with the scales). The embedding matrix, which is also the output "
        "matrix, holds {emb_share} of the weights and is stored as {emb} ({emb_bits} bits). The rest: {rest}. Q4_K "
        "works in blocks of {block} numbers, and matrices whose rows have {d_model} numbers do not split into "
        "those blocks: there the recipe uses other types, and it also gives more bits to some other matrices. On "
        "average: {bpw} bits per weight. {dequant}",
    ),
    "weights.cost": (
        "**Quanto isso custa.** Medir o custo neste modelo exige uma cópia em ponto flutuante dele, e não há "
        "nenhuma disponível offline aqui: só o GGUF {file_type} vem com a instalação. Um número publicado, de "
        "outros modelos ({source}, Wikitext-2): com {file_type}, o {model} fica a uma divergência KL média de "
        "{kld} da versão FP16, escolhe o mesmo token mais provável em {top} das posições e tem perplexidade "
        "{ppl} maior; o {model2} fica a {kld2}, com o mesmo token mais provável em {top2}. O custo depende do "
        "modelo e da mistura de tipos: é uma ordem de grandeza, não a medida deste modelo. Comparar float32 com "
        "bfloat16 (página Não-determinismo) mede o arredondamento para bfloat16, dos pesos e das contas, não o da "
        "quantização.",
        "**What it costs.** Measuring the cost on this model needs a floating-point copy of it, and none can be "
        "had offline here: only the {file_type} GGUF ships with the install. A published figure, for other models "
        "({source}, Wikitext-2): with {file_type}, {model} sits at a mean KL divergence of {kld} from its FP16 "
        "version, picks the same most likely token at {top} of positions and has a {ppl} higher perplexity; "
        "{model2} sits at {kld2}, with the same most likely token at {top2}. The cost depends on the model and "
        "on the mix of types: an order of magnitude, not this model's measurement. Comparing float32 with "
        "bfloat16 (Nondeterminism page) measures the rounding to bfloat16, of the weights and of the arithmetic, not "
        "that of the quantization.",
    ),
    "weights.runs.float32": ("desquantiza para float32", "de-quantizes it to float32"),
    "weights.runs.other": ("desquantiza para float32 e o roda em {dtype}", "de-quantizes it to float32 and runs it in {dtype}"),
    "weights.dequant.float32": (
        "Ao preparar o modelo, o app desquantiza tudo para float32, que guarda esses valores arredondados sem "
        "perder nada, mas não recupera os originais.",
        "When it prepares the model, the app de-quantizes everything to float32, which keeps those rounded values "
        "without losing anything, but cannot bring back the originals.",
    ),
    "weights.dequant.other": (
        "Ao preparar o modelo, o app desquantiza tudo para float32, que guarda esses valores arredondados sem "
        "perder nada (mas não recupera os originais); ao carregar, converte para {dtype}, que arredonda a maioria "
        "deles mais uma vez.",
        "When it prepares the model, the app de-quantizes everything to float32, which keeps those rounded values "
        "without losing anything (but cannot bring back the originals); on loading it converts them to {dtype}, "
        "which rounds most of them once more.",
    ),
    "weights.emb_bits": ("{bits} bits ({kind})", "{bits} bits ({kind})"),
    "home.model.text": (
        "**{name}**: {params} parâmetros, {layers} camadas, vocabulário de {vocab} tokens. "
        "Roda em **{device}** com **{dtype}**.",
        "**{name}**: {params} parameters, {layers} layers, a vocabulary of {vocab} tokens. "
        "Running on **{device}** in **{dtype}**.",
    ),
}
