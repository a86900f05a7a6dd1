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
    "backend.queued": ("O modelo está atendendo outros visitantes: {n} pedido(s) na frente do seu. A fila anda por ordem de chegada.",
                       "The model is serving other visitors: {n} request(s) ahead of yours. The queue moves in arrival order."),
    # home
    "home.title": ("Token a Token", "Token by Token"),
    "home.intro": (
        "Bem-vindos! Aqui um modelo de linguagem **de verdade** escreve diante de vocês, **um token por vez**. "
        "Cada página abre uma etapa: do texto aos tokens, da atenção às probabilidades, e do sorteio de volta ao texto.",
        "Welcome! Here a **real** language model writes in front of you, **one token at a time**. "
        "Each page opens one stage: from text to tokens, from attention to probabilities, and from the draw back to text.",
    ),
    "home.path": ("O caminho, na ordem do pipeline", "The path, in pipeline order"),
    "home.try": ("Experimente: qual é o próximo token?", "Try it: what is the next token?"),
    "home.try.caption": (
        "Os {n} próximos tokens mais prováveis segundo o modelo, calculados agora. As barras somam menos de 100% "
        "porque os outros {rest} tokens do vocabulário dividem o resto.",
        "The model's {n} most likely next tokens, computed just now. The bars add up to less than 100% "
        "because the other {rest} tokens of the vocabulary share the rest.",
    ),
    "home.col.token": ("token", "token"),
    "home.col.prob": ("probabilidade", "probability"),
    "home.model": ("O modelo", "The model"),
    "home.model.text": (
        "**{name}**: {params} parâmetros, {layers} camadas, vocabulário de {vocab} tokens. "
        "Roda em **{device}** com **{dtype}**.",
        "**{name}**: {params} parameters, {layers} layers, a vocabulary of {vocab} tokens. "
        "Running on **{device}** in **{dtype}**.",
    ),
}
