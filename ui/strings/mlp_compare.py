"""Strings of the MLP comparison on the pipeline page (the seed's x4 GELU vs this model's gated MLP)."""

STRINGS = {
    "mlp.cmp.title": ("O MLP do texto e o MLP deste modelo", "The text's MLP and this model's MLP"),
    "mlp.cmp.classic": ("texto do curso: expande 4×, GELU", "course text: expands 4×, GELU"),
    "mlp.cmp.ours": ("este modelo: MLP com porta, {act}", "this model: gated MLP, {act}"),
    "mlp.cmp.stage.in": ("entrada", "input"),
    "mlp.cmp.stage.up": ("projeção para cima", "projection up"),
    "mlp.cmp.stage.act": ("depois da ativação", "after the activation"),
    "mlp.cmp.stage.out": ("saída", "output"),
    "mlp.cmp.act_classic": ("GELU({n})", "GELU({n})"),
    "mlp.cmp.up_gated": ("2 × {n} (porta e up)", "2 × {n} (gate and up)"),
    "mlp.cmp.act_gated": ("{act}(porta) × up: {n}", "{act}(gate) × up: {n}"),
    "mlp.cmp.act_plain": ("{act}: {n}", "{act}: {n}"),
    "mlp.cmp.axis.width": ("números no vetor", "numbers in the vector"),
    "mlp.cmp.axis.model": ("MLP", "MLP"),
    "mlp.cmp.axis.step": ("etapa", "step"),
    "mlp.cmp.caption": (
        "Largura do vetor em cada etapa do bloco, para um token. O texto descreve o MLP clássico: {d} → {d4} (4×), "
        "GELU, → {d}. Este modelo (números da configuração) faz duas projeções para cima, a porta e o up, de "
        "{f} cada ({x}×, não 4×); a porta passa pela {act} e multiplica o up, número a número, e só então volta a "
        "{d}. Depois da {act}, a porta multiplica cada um dos {f} números do up: pode apagá-lo (perto de 0), deixá-lo passar ou ampliá-lo. Pesos por camada: {w_ours} aqui, contra "
        "{w_classic} no MLP clássico com a mesma largura de entrada.",
        "Width of the vector at each step of the block, for one token. The text describes the classic MLP: "
        "{d} → {d4} (4×), GELU, → {d}. This model (numbers from its config) makes two projections up, the gate and "
        "the up, {f} each ({x}×, not 4×); the gate goes through {act} and multiplies the up, number by number, and "
        "only then goes back to {d}. After {act}, the gate multiplies each of the up's {f} numbers: it can switch it off (near 0), let it through or amplify it. Weights per "
        "layer: {w_ours} here, against {w_classic} in a classic MLP with the same input width.",
    ),
}
