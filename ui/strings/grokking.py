"""Strings of the grokking page: the shipped run, the Fourier view, live training."""

STRINGS = {
    "grokking.title": ("Grokking: da memorização à generalização", "Grokking: from memorisation to generalisation"),
    "grokking.intro": (
        "Um modelo pequeno aprende a somar **a + b mod p** (o resto da divisão por p, como num relógio). "
        "Olhe as duas curvas de acurácia: a de **treino** chega a 100% logo, porque o modelo decora os pares "
        "que viu; a de **teste** (pares que ele nunca viu) fica muito atrás por milhares de passos e então "
        "**salta**. Depois, abra o modelo por dentro: ele construiu senos e cossenos.",
        "A small model learns **a + b mod p** (the remainder after dividing by p, like a clock). Watch the two "
        "accuracy curves: **train** reaches 100% early, because the model memorises the pairs it has seen; "
        "**test** (pairs it never saw) lags far behind for thousands of steps and then **jumps**. Then look "
        "inside the model: it has built sines and cosines.",
    ),
    # the shipped run
    "grokking.shipped.header": ("Uma execução completa, já treinada", "A full run, trained ahead of time"),
    "grokking.shipped.text": (
        "Um transformer de uma camada (como o de Nanda et al.; o experimento original de Power et al. usou duas) treinou "
        "em {frac} dos {pairs} pares com p = {p}, AdamW com decaimento de pesos {wd} e taxa de aprendizado {lr}, "
        "todos os pares de treino a cada passo, por {steps} passos.",
        "A one-layer transformer (like Nanda et al.'s; the original experiment by Power et al. used two) trained on "
        "{frac} of the {pairs} pairs with p = {p}, AdamW with weight decay {wd} and learning rate {lr}, every "
        "training pair at every step, for {steps} steps.",
    ),
    "grokking.shipped.same": (
        "O script `scripts/train_grokking.py` refaz esta execução. Na mesma máquina (mesma CPU, mesmo número "
        "de threads, mesma versão do PyTorch) e com a mesma semente, as curvas saem iguais, número por "
        "número. Em outra CPU as somas podem sair em outra ordem, e diferenças pequenas podem crescer ao "
        "longo de milhares de passos. É o mesmo efeito da ordem do ponto flutuante que a página de não "
        "determinismo mostra.",
        "The script `scripts/train_grokking.py` makes this run again. On the same machine (same CPU, same "
        "thread count, same PyTorch build) and with the same seed, the curves come out the same, number for "
        "number. On another CPU the sums may be done in another order, and small differences can grow over "
        "thousands of steps. It is the same floating-point order effect that the nondeterminism page shows.",
    ),
    "grokking.missing": (
        "A execução pronta não está em `assets/grokking/`. Rode `scripts/train_grokking.py` para criá-la; "
        "o treino ao vivo, abaixo, funciona sem ela.",
        "The shipped run is missing from `assets/grokking/`. Run `scripts/train_grokking.py` to make it; "
        "live training, below, works without it.",
    ),
    # curves
    "grokking.axis.step": ("passo de treino (escala log)", "training step (log scale)"),
    "grokking.axis.acc": ("acurácia", "accuracy"),
    "grokking.axis.loss": ("perda (escala log)", "loss (log scale)"),
    "grokking.axis.split": ("conjunto", "set"),
    "grokking.axis.run": ("execução", "run"),
    "grokking.split.train": ("treino", "train"),
    "grokking.split.test": ("teste", "test"),
    "grokking.mark.memo": ("memorização", "memorisation"),
    "grokking.mark.jump": ("salto", "jump"),
    "grokking.mark.here": ("passo escolhido", "chosen step"),
    "grokking.acc.caption": (
        "Acurácia no treino e no teste a cada passo (eixo horizontal em escala log). Faixa cinza: o modelo "
        "já acerta ≥ 99% do treino mas ainda não 95% do teste (memorização). Linha vermelha: o salto "
        "(teste ≥ 95%). Linha tracejada: o passo mostrado na visão de Fourier; clique na curva para escolher outro.",
        "Train and test accuracy at each step (horizontal axis on a log scale). Grey band: the model already "
        "gets ≥ 99% of the training pairs right but not yet 95% of the test pairs (memorisation). Red line: the "
        "jump (test ≥ 95%). Dashed line: the step shown in the Fourier view; click the curve to pick another.",
    ),
    "grokking.acc.readings": (
        "Na curva de teste, entre decorar e generalizar: {readings} (o acaso é {chance}, 1 em {p}); depois, o "
        "salto.",
        "On the test curve, between memorising and generalising: {readings} (chance is {chance}, 1 in {p}); then "
        "the jump.",
    ),
    "grokking.acc.reading": ("{acc} no passo {step}", "{acc} at step {step}"),
    "grokking.loss.caption": (
        "Perda (entropia cruzada) no treino e no teste, as duas em escala log. Na memorização a perda de "
        "teste pode até subir: o modelo fica confiante em respostas erradas (veja se sobe nesta execução).",
        "Loss (cross-entropy) on train and test, both on log scales. During memorisation the test loss can "
        "even rise: the model grows confident about wrong answers (see whether it rises in this run).",
    ),
    "grokking.metric.memo": ("Treino ≥ 99% no passo", "Train ≥ 99% at step"),
    "grokking.metric.jump": ("Teste ≥ 95% no passo", "Test ≥ 95% at step"),
    "grokking.metric.ratio": ("Passos até generalizar ÷ até decorar", "Steps to generalise ÷ to memorise"),
    "grokking.metric.never": ("ainda não", "not yet"),
    "grokking.tip.step": ("passo", "step"),
    "grokking.tip.value": ("valor", "value"),
    # Fourier view
    "grokking.fourier.header": ("Por dentro: senos e cossenos", "Inside: sines and cosines"),
    "grokking.fourier.text": (
        "A matriz de embedding dá um vetor a cada número a = 0 … p−1. Lendo cada dimensão desse vetor ao "
        "longo de a e decompondo em ondas (transformada de Fourier), vemos quanta energia cada frequência k "
        "tem. As frequências-chave aparecem **antes** do salto e vão ganhando energia aos poucos; o salto no "
        "teste vem quando esse circuito está formado e a memorização é limpa (Nanda et al., 2023). Arraste o "
        "passo e leia, na legenda, a parte da energia em cada passo.",
        "The embedding matrix gives each number a = 0 … p−1 a vector. Reading each dimension of that vector "
        "along a and splitting it into waves (a Fourier transform) shows how much power each frequency k has. "
        "The key frequencies appear **before** the jump and gain power gradually; the test jump comes when "
        "that circuit is formed and the memorisation is cleaned up (Nanda et al., 2023). Drag the step and "
        "read, in the caption, the share of power at each step.",
    ),
    "grokking.step.label": ("Passo salvo", "Checkpoint step"),
    "grokking.step.help": (
        "Os embeddings foram salvos nestes passos; clicar numa curva de acurácia também escolhe o mais próximo.",
        "The embeddings were saved at these steps; clicking an accuracy curve also picks the nearest one.",
    ),
    "grokking.axis.k": ("frequência k (voltas ao percorrer a = 0 … p−1)", "frequency k (turns as a runs over 0 … p−1)"),
    "grokking.axis.power": ("parte da energia", "share of the power"),
    "grokking.axis.kind": ("tipo", "kind"),
    "grokking.kind.key": ("frequência-chave", "key frequency"),
    "grokking.kind.other": ("outras", "others"),
    "grokking.spectrum.caption": (
        "Energia de cada frequência k na matriz de embedding no passo {step} (soma sobre as dimensões, "
        "sem a média). Em azul, as frequências-chave: pelo menos 3× a parte de um espectro plano. "
        "Elas somam {share} da energia.",
        "Power of each frequency k in the embedding matrix at step {step} (summed over dimensions, mean "
        "left out). In blue, the key frequencies: at least 3× the share of a flat spectrum. Together they "
        "hold {share} of the power.",
    ),
    "grokking.spectrum.flat": (
        "Energia de cada frequência k na matriz de embedding no passo {step}. Nenhuma se destaca: o espectro "
        "está espalhado.",
        "Power of each frequency k in the embedding matrix at step {step}. None stands out: the spectrum is "
        "spread out.",
    ),
    "grokking.waves.header": ("As ondas que o modelo construiu", "The waves the model built"),
    "grokking.waves.header.flat": ("As {n} frequências mais fortes (nenhuma se destaca: ainda não são ondas claras)",
                                   "The {n} strongest frequencies (none stands out: not clear waves yet)"),
    "grokking.waves.title": ("k = {k}", "k = {k}"),
    "grokking.axis.a": ("número a", "number a"),
    "grokking.axis.position": ("a na onda: {k}·a mod p", "a on the wave: {k}·a mod p"),
    "grokking.axis.value": ("valor", "value"),
    "grokking.axis.wave": ("onda", "wave"),
    "grokking.wave.cos": ("cos(2π·k·a/p)", "cos(2π·k·a/p)"),
    "grokking.wave.sin": ("sen(2π·k·a/p)", "sin(2π·k·a/p)"),
    "grokking.wave.learned_cos": ("embedding, direção do cos", "embedding, cos direction"),
    "grokking.wave.learned_sin": ("embedding, direção do sen", "embedding, sin direction"),
    "grokking.waves.caption": (
        "As três frequências mais fortes do fim do treino. Linhas: cos (azul) e sen (laranja) exatos. Pontos: "
        "o embedding de cada número a, lido na direção que o modelo final usa para essa onda, entre as 12 mais "
        "fortes dele (escala: no fim, amplitude 1). Cada a fica na posição k·a mod p, o lugar dele na onda de frequência k; assim a onda "
        "ideal é um período só. No passo {step}, os pontos {verdict}.",
        "The three strongest frequencies at the end of training. Lines: the exact cos (blue) and sin (orange). "
        "Dots: the embedding of each number a, read along the direction the final model uses for that wave, "
        "among its 12 strongest (scale: amplitude 1 at the end). Each a sits at k·a mod p, its place on the "
        "wave of frequency k, so the ideal wave is a single period. At step {step}, the dots {verdict}.",
    ),
    "grokking.waves.fit": ("caem sobre as ondas ({fit} de ajuste)", "lie on the waves ({fit} fit)"),
    "grokking.waves.nofit": ("ainda não seguem as ondas ({fit} de ajuste)", "do not follow the waves yet ({fit} fit)"),
    "grokking.identity": (
        "**Por que ondas servem para somar.** Se o modelo guarda cada número como um ângulo, θ_a = 2π·k·a/p, "
        "somar números vira somar ângulos, e a trigonometria faz isso com multiplicações: cos(θ_a+θ_b) = cos "
        "θ_a·cos θ_b − sen θ_a·sen θ_b (e sen(θ_a+θ_b) = sen θ_a·cos θ_b + cos θ_a·sen θ_b). A atenção e o "
        "MLP só precisam multiplicar os cossenos e senos de a e de b que o embedding entrega. Como o ângulo "
        "dá a volta a cada p, o \"mod p\" sai de graça. Na saída, a resposta c que mais pontua é a de maior "
        "soma, sobre as frequências-chave k, de cos(2π·k·(a+b−c)/p), máxima quando c = a + b mod p (com p "
        "primo e k ≠ 0). O texto do curso escreve a identidade com letras soltas, cos(a+b): ela vale "
        "para os ângulos 2π·a/p e 2π·b/p que ele calcula logo antes, não para os números a e b; e o modelo usa "
        "algumas frequências k, não só k = 1. Memorizar exige um peso para cada par; esse circuito usa poucas frequências, por "
        "isso o decaimento de pesos (weight decay), que pune pesos grandes, acaba preferindo-o.",
        "**Why waves help to add.** If the model stores each number as an angle, θ_a = 2π·k·a/p, then adding "
        "numbers becomes adding angles, and trigonometry does that with multiplications: cos(θ_a+θ_b) = cos "
        "θ_a·cos θ_b − sin θ_a·sin θ_b (and sin(θ_a+θ_b) = sin θ_a·cos θ_b + cos θ_a·sin θ_b). Attention and "
        "the MLP only have to multiply the cosines and sines of a and b that the embedding hands them. "
        "Because the angle wraps around every p, the \"mod p\" comes for free. At the output, the answer c that "
        "scores highest is the one with the largest sum, over the key frequencies k, of cos(2π·k·(a+b−c)/p), "
        "which peaks when c = a + b mod p (p prime, k ≠ 0). The course text writes the identity with "
        "bare letters, cos(a+b): it holds for the angles 2π·a/p and 2π·b/p it computes just before, not for the "
        "numbers a and b; and the model uses a few frequencies k, not only k = 1. Memorising needs a weight for "
        "every pair; this circuit needs only a few frequencies, which is why weight decay, which punishes "
        "large weights, ends up preferring it.",
    ),
    # live training
    "grokking.live.header": ("Treine você mesmo", "Train it yourself"),
    "grokking.live.text": (
        "Aqui o treino roda de verdade, na CPU do servidor, enquanto você olha. O padrão é um MLP de duas "
        "camadas sobre embeddings de a e b ({hidden} unidades ocultas); o gráfico mostra o passo em que ele faz "
        "grokking. Medido: {secs} s até {acc} de acerto no teste (mediana de {runs} execuções, "
        "`bench/grok_bench.py`, com outros processos na máquina). "
        "Depois, compare com decaimento de pesos 0 e veja nas curvas se ele generaliza no mesmo número de passos.",
        "Here training really runs, on the server's CPU, while you watch. The default is a two-layer MLP over "
        "embeddings of a and b ({hidden} hidden units); the chart shows the step where it groks. Measured: {secs} s "
        "to {acc} test accuracy (median of {runs} runs, `bench/grok_bench.py`, with other processes on the "
        "machine). Then compare with weight "
        "decay 0 and see in the curves whether it generalises in the same number of steps.",
    ),
    "grokking.ctl.model": ("Modelo", "Model"),
    "grokking.model.mlp": ("MLP de duas camadas (rápido)", "Two-layer MLP (fast)"),
    "grokking.model.transformer": ("Transformer de uma camada (mais lento)", "One-layer transformer (slower)"),
    "grokking.ctl.p": ("p (o módulo)", "p (the modulus)"),
    "grokking.ctl.frac": ("Fração dos pares para treino", "Fraction of pairs used for training"),
    "grokking.ctl.wd": ("Decaimento de pesos (weight decay)", "Weight decay"),
    "grokking.ctl.wd.help": (
        "Puxa todos os pesos para zero a cada passo. Forte: favorece a solução compacta (ondas). Zero: "
        "nenhuma penalidade puxa os pesos; com os ajustes padrão, o modelo decora e não generaliza no limite "
        "de passos.",
        "Pulls every weight towards zero at each step. Strong: favours the compact solution (waves). Zero: no "
        "penalty pulls the weights; with the default settings the model memorises and does not generalise "
        "within the step limit.",
    ),
    "grokking.ctl.lr": ("Taxa de aprendizado", "Learning rate"),
    "grokking.ctl.seed": ("Semente", "Seed"),
    "grokking.ctl.seed.help": (
        "Escolhe a divisão treino/teste e os pesos iniciais. Mesma semente e mesmos ajustes, neste servidor: "
        "mesmas curvas.",
        "Picks the train/test split and the initial weights. Same seed and settings, on this server: the same "
        "curves.",
    ),
    "grokking.ctl.steps": ("Máximo de passos", "Maximum steps"),
    "grokking.train": ("Treinar", "Train"),
    "grokking.compare": ("Comparar: mesmos ajustes, decaimento de pesos 0", "Compare: same settings, weight decay 0"),
    "grokking.stop": ("Parar", "Stop"),
    "grokking.reset": ("Voltar aos ajustes padrão", "Back to the default settings"),
    "grokking.busy": (
        "Já há {n} treinos rodando neste servidor. Tente de novo em alguns segundos.",
        "{n} trainings are already running on this server. Try again in a few seconds.",
    ),
    "grokking.progress": (
        "Passo {step} de {total} · treino {train} · teste {test} · {secs} s",
        "Step {step} of {total} · train {train} · test {test} · {secs} s",
    ),
    "grokking.starting": ("Preparando o treino…", "Getting the training ready…"),
    "grokking.state.done": ("Pronto: {steps} passos em {secs} s ({rate} passos/s).",
                            "Done: {steps} steps in {secs} s ({rate} steps/s)."),
    "grokking.state.stopped": ("Parado no passo {steps}, depois de {secs} s.", "Stopped at step {steps}, after {secs} s."),
    "grokking.state.abandoned": (
        "O treino parou no passo {steps} porque a página ficou sem ninguém olhando.",
        "Training stopped at step {steps} because nobody was watching the page.",
    ),
    "grokking.state.time_limit": (
        "O treino parou no passo {steps}: o limite é {limit} s por treino neste servidor.",
        "Training stopped at step {steps}: the limit is {limit} s per training on this server.",
    ),
    "grokking.state.error": ("O treino falhou: {error}", "Training failed: {error}"),
    "grokking.live.empty": (
        "Clique em **Treinar** para ver as curvas crescerem.",
        "Click **Train** to watch the curves grow.",
    ),
    "grokking.live.acc.caption": (
        "Acurácia de treino e teste da sua execução, atualizada enquanto treina (eixo log). Com duas "
        "execuções, a tracejada é a anterior. Faixa e linha vermelha: memorização e salto da última.",
        "Train and test accuracy of your run, updated while it trains (log axis). With two runs, the dashed "
        "one is the earlier. Band and red line: memorisation and jump of the latest.",
    ),
    "grokking.run.label": ("#{n}: decaimento de pesos {wd}", "#{n}: weight decay {wd}"),
    "grokking.run.pick": ("Execução mostrada na visão de Fourier", "Run shown in the Fourier view"),
    "grokking.live.fourier": ("Fourier da sua execução", "Fourier view of your run"),
}
