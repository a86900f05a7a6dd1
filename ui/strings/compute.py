"""Strings of the compute panel on the loop page (FLOPs for the answer just generated)."""

STRINGS = {
    "compute.title": ("Quanta conta custou esta resposta", "How much arithmetic this answer cost"),
    "compute.total": ("Esta resposta ({n} tokens pela rede)", "This answer ({n} tokens through the network)"),
    "compute.rate": ("Ritmo nesta máquina", "Rate on this machine"),
    "compute.frontier": ("Modelo de fronteira, os mesmos {n} tokens", "Frontier model, the same {n} tokens"),
    "compute.caption": (
        "Cada token custa cerca de 2 × parâmetros = {per} (uma multiplicação e uma soma por peso; {params} "
        "parâmetros), mais a atenção sobre o contexto. O prefill passou os {p} tokens do prompt de uma vez "
        "({prefill}; só a última posição passa pela matriz de saída, {out} a menos em cada uma das outras) e deu "
        "o primeiro token; dos {n} tokens gerados, {fed} voltaram como entrada, um por passada "
        "({decode}; o último não passa pela rede). Ao todo, {passed} tokens pela rede. O ritmo divide o total pelo "
        "tempo medido dos {n} passos ({secs} s). Ao lado, o que o texto do curso diz de um modelo de fronteira: "
        "dezenas ou centenas de bilhões de FLOPs por token (aqui, de {lo} a {hi}), vezes os mesmos {passed} tokens.",
        "Each token costs about 2 × parameters = {per} (one multiply and one add per weight; {params} parameters), "
        "plus attention over the context. Prefill passed the prompt's {p} tokens at once ({prefill}; only the last "
        "position goes through the output matrix, {out} less for each of the others) and gave the first token; of the {n} tokens generated, {fed} went back in as input, one pass each ({decode}; the last "
        "one never goes through the network). In all, {passed} tokens through the network. The rate divides the "
        "total by the measured time of the {n} steps ({secs} s). Beside it, what the course text says of a "
        "frontier model: tens or hundreds of billions of FLOPs per token (here, {lo} to {hi}), times the same "
        "{passed} tokens.",
    ),
}
