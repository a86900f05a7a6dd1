"""Strings of the settings presets panel (seed 000's advice: factual vs creative)."""

STRINGS = {
    "presets.header": ("O conselho do texto, ao vivo: factual × criativo", "The text's advice, live: factual vs creative"),
    "presets.text": (
        "O texto aconselha: para saída factual ou estruturada, temperatura baixa (ou 0); para texto criativo, "
        "temperatura de 0,7 a 1,0 e top-p perto de 0,9. Aqui, no prompt desta página: **factual** = temperatura "
        "{t_f} (guloso); **criativo** = temperatura {t_c} e top-p {p_c}, sorteado {seeds} vezes com sementes "
        "diferentes. {n} tokens cada.",
        "The text advises: for factual or structured output, a low temperature (or 0); for creative text, a "
        "temperature of 0.7 to 1.0 and top-p near 0.9. Here, on this page's prompt: **factual** = temperature "
        "{t_f} (greedy); **creative** = temperature {t_c} and top-p {p_c}, drawn {seeds} times with different "
        "seeds. {n} tokens each.",
    ),
    "presets.run": ("Gerar os dois", "Generate both"),
    "presets.hint": ("O botão roda o modelo {n} vezes; cada resultado fica guardado.",
                     "The button runs the model {n} times; each result is kept."),
    "presets.running": ("Gerando…", "Generating…"),
    "presets.verdict.differ": ("o mesmo prompt, respostas diferentes.", "the same prompt, different answers."),
    "presets.verdict.same": ("desta vez os sorteios coincidiram (o modelo estava concentrado nestes tokens).",
                             "this time the draws agreed (the model was concentrated on these tokens)."),
    "presets.factual": ("factual (T = 0)", "factual (T = 0)"),
    "presets.creative": ("criativo (T = {t}, top-p {p})", "creative (T = {t}, top-p {p})"),
    "presets.col.preset": ("ajuste", "setting"),
    "presets.col.seed": ("semente", "seed"),
    "presets.col.text": ("texto gerado", "generated text"),
    "presets.caption": (
        "O factual não sorteia: rodado de novo, dá o mesmo texto. O criativo deu {distinct} texto(s) "
        "diferente(s) em {seeds} execuções (sementes): {verdict}",
        "Factual draws nothing: run again, it gives the same text. Creative gave {distinct} different text(s) "
        "in {seeds} runs (seeds): {verdict}",
    ),
}
