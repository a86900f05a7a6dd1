"""Strings of the completion panel (seed 000's opening: prompt, completion, chat, no hidden thinking)."""

STRINGS = {
    "completion.header": ("Prompt, completação e chat", "Prompt, completion and chat"),
    "completion.text": (
        "Todo uso de um LLM tem duas partes: o **prompt**, o texto que você dá, e a **completação**, o que o "
        "modelo escreve a partir dali. O modelo não \"responde\": ele completa uma sequência. Chat, instrução, "
        "código, tradução: por baixo, é tudo completação de texto.",
        "Every use of an LLM has two parts: the **prompt**, the text you give, and the **completion**, what the "
        "model writes from there. The model does not \"answer\": it completes a sequence. Chat, instructions, "
        "code, translation: underneath, it is all text completion.",
    ),
    "completion.chat": (
        "**Um chat é só a completação de uma conversa formatada.** A mensagem vira um texto único, com marcas de "
        "turno, que termina onde começa a vez do modelo. É isto que uma interface de chat manda para um Gemma:",
        "**A chat is only the completion of a formatted conversation.** The message becomes one text, with turn "
        "markers, that ends where the model's turn begins. This is what a chat interface sends to a Gemma:",
    ),
    "completion.chat.caption": (
        "O formato de turnos publicado para o Gemma ({n} tokens para este tokenizador, sem contar o <bos>). "
        "Uma interface de chat para quando o modelo escreve <end_of_turn>; o loop desta app só para no token "
        "de parada (EOS), no limite de tokens ou numa sequência de parada. O modelo desta página é a versão "
        "base, sem ajuste para chat: ele conhece as marcas, mas não foi treinado para segui-las.",
        "Gemma's published turn format ({n} tokens for this tokenizer, not counting <bos>). A chat front end "
        "stops when the model writes <end_of_turn>; this app's loop stops only at the end-of-sequence token "
        "(EOS), at the token limit or at a stop sequence. This page's model is the base version, not tuned "
        "for chat: it knows the markers but was not trained to follow them.",
    ),
    "completion.question": (
        "Um livro custa {book} reais e uma caneta custa {pen} reais. Quanto custam {n_books} livros e {n_pens} canetas?",
        "A book costs {book} dollars and a pen costs {pen} dollars. How much do {n_books} books and {n_pens} pens cost?",
    ),
    "completion.q.prefix": ("Pergunta: ", "Question: "),
    "completion.q.direct": ("\nResposta (só o número):", "\nAnswer (just the number):"),
    "completion.q.steps": ("\nResposta, passo a passo:", "\nAnswer, step by step:"),
    "completion.q.direct.label": ("**Direto:** o número tem de sair já", "**Directly:** the number has to come at once"),
    "completion.q.steps.label": ("**Passo a passo:** o modelo escreve as contas antes",
                                 "**Step by step:** the model writes the working first"),
    "completion.think.title": ("O modelo não pensa e depois escreve", "The model does not think and then write"),
    "completion.think.text": (
        "Não há rascunho escondido: cada token é uma passada pela rede e uma escolha (aqui gulosa: o token mais provável, sem sorteio). Para "
        "dar uma resposta em um token, o modelo tem uma passada. Se ele escreve os passos antes, cada token "
        "escrito vira entrada das passadas seguintes: o texto é todo o \"pensamento\" que ele tem. Mesma pergunta, "
        "duas vezes, ao vivo:",
        "There is no hidden draft: each token is one pass through the network and one choice (here greedy: the most likely token, nothing drawn). To give "
        "an answer in one token, the model has one pass. If it writes out steps first, every token written becomes "
        "input to the passes that follow: the text is all the \"thinking\" it has. The same question, twice, live:",
    ),
    "completion.think.run": ("Perguntar dos dois jeitos", "Ask both ways"),
    "completion.think.hint": ("O botão roda o modelo duas vezes (modo guloso); cada resultado fica guardado.",
                              "The button runs the model twice (greedy); each result is kept."),
    "completion.think.caption": (
        "{n} tokens = {n} passadas, cada uma lendo só o texto anterior. Contém a resposta certa ({answer})? {right}.",
        "{n} tokens = {n} passes, each reading only the text before it. Does it contain the right answer "
        "({answer})? {right}.",
    ),
    "completion.yes": ("sim", "yes"),
    "completion.no": ("não", "no"),
    "completion.think.moral.none": (
        "Aqui os dois jeitos erraram: um modelo de {params} parâmetros erra contas com frequência.",
        "Here both ways got it wrong: a model of {params} parameters often gets sums wrong.",
    ),
    "completion.think.moral.steps": (
        "Aqui só o jeito com os passos acertou.",
        "Here only the way with the steps got it right.",
    ),
    "completion.think.moral.direct": (
        "Aqui a resposta direta acertou e a com passos errou: escrever os passos não garante o acerto, num "
        "modelo de {params} parâmetros.",
        "Here the direct answer got it right and the one with steps did not: writing the steps does not "
        "guarantee the answer, in a model of {params} parameters.",
    ),
    "completion.think.moral.both": (
        "Aqui os dois jeitos acertaram.",
        "Here both ways got it right.",
    ),
    "completion.think.point": (
        "O ponto é outro: escrever os passos dá ao modelo mais passadas e mais texto para ler antes do número. Os "
        "\"reasoning models\" fazem isso em escala: gastam muitos tokens \"pensando em voz alta\" antes da "
        "resposta final.",
        "The point is another: writing the steps gives the model more passes, and more text to read, before the "
        "number. \"Reasoning models\" do this at scale: they spend many tokens \"thinking aloud\" before the "
        "final answer.",
    ),
}
