"""Strings of the compute panel on the loop page (FLOPs for the answer just generated)."""

STRINGS = {
    "compute.title": ("Quanta conta custou esta resposta", "How much arithmetic this answer cost"),
    "compute.total": ("Esta resposta ({n} tokens)", "This answer ({n} tokens)"),
    "compute.rate": ("Ritmo nesta máquina", "Rate on this machine"),
    "compute.frontier": ("Modelo de fronteira, {n} tokens", "Frontier model, {n} tokens"),
    "compute.caption": (
        "Cada token custa cerca de 2 × parâmetros = {per} (uma multiplicação e uma soma por peso; {params} "
        "parâmetros), mais a atenção sobre o contexto. O prefill passou os {p} tokens do prompt de uma vez "
        "({prefill}); os outros tokens da resposta, um por passada ({decode}). O ritmo divide o total pelo tempo "
        "medido dos {n} passos ({secs} s). Ao lado, o que o texto do curso diz de um modelo de fronteira: dezenas "
        "ou centenas de bilhões de FLOPs por token (aqui, de {lo} a {hi}), vezes os mesmos {n} tokens.",
        "Each token costs about 2 × parameters = {per} (one multiply and one add per weight; {params} parameters), "
        "plus attention over the context. Prefill passed the prompt's {p} tokens at once ({prefill}); the other "
        "tokens of the answer took one pass each ({decode}). The rate divides the total by the measured time of the "
        "{n} steps ({secs} s). Beside it, what the course text says of a frontier model: tens or hundreds of "
        "billions of FLOPs per token (here, {lo} to {hi}), times the same {n} tokens.",
    ),
}
