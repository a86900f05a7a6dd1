"""Issue 32: sentences follow from their numbers, each with a case where the numbers say the opposite."""
import dataclasses

import numpy as np
import pytest
import torch

from model_backend import SamplingParams, generate
from model_backend.core.kv import kv_bytes_per_position, kv_cache_bytes_at
from model_backend.lessons import attention as att
from model_backend.lessons import nondeterminism as nd


@pytest.fixture
def pt():
    import streamlit as st

    before = st.session_state.get("lang")
    st.session_state["lang"] = "pt-BR"
    yield
    st.session_state["lang"] = before or "pt-BR"


def test_the_mlp_verdict_follows_the_count():
    from ui.pipeline.draw import FEW_LIT, active_neurons, mlp_verdict

    sparse = np.zeros(100)
    sparse[:3] = [5.0, -4.0, 1.0]
    dense = np.linspace(1.0, 2.0, 100)
    assert active_neurons(sparse) == 3 and active_neurons(dense) == 100 and active_neurons(np.zeros(4)) == 0
    assert mlp_verdict(active_neurons(sparse), 100) == "pipeline.mlp.few"
    assert mlp_verdict(active_neurons(dense), 100) == "pipeline.mlp.many"  # the opposite case: not "few"
    assert mlp_verdict(int(FEW_LIT * 100), 100) == "pipeline.mlp.many"


def _habits(previous: float, bos: float) -> att.HeadHabits:
    shape = (2, 4)
    return att.HeadHabits(bos=np.full(shape, bos), previous=np.full(shape, previous), same=np.full(shape, np.nan),
                         n_same=0)


def test_the_heads_verdicts_follow_the_measurements(pt):
    from ui.heads_view import sentences, specialised

    few = _habits(previous=0.05, bos=0.9)
    few.previous[0, 0] = 0.9
    many = _habits(previous=0.9, bos=0.1)
    assert specialised(few) == 1 and specialised(many) == 8
    text_few, text_many = " ".join(sentences(few)), " ".join(sentences(many))
    assert "poucas se especializam" in text_few and "a maioria se especializa" not in text_few
    assert "a maioria se especializa" in text_many and "poucas se especializam" not in text_many
    assert "8 de 8 cabeças põem mais de 50%" in text_few  # the threshold, interpolated
    assert "Nenhuma das 8 cabeças põe mais de 50%" in text_many  # no sink: the sink sentence is not said


def test_each_comparison_names_its_own_cause():
    from ui.nondeterminism.draw import cause_key, mantissa_bits

    def result(diff: float, at):
        return nd.TwoWays(a=None, b=None, max_abs_diff=diff, diverge_at=at)

    assert cause_key("dtype", result(0.0, None)) == "nondeterminism.cause.dtype"  # rounding, whatever the size
    assert cause_key("dtype", result(3.0, 2)) == "nondeterminism.cause.dtype"
    assert cause_key("batch", result(0.0, None)) == "nondeterminism.zero"
    assert cause_key("batch", result(1e-6, None)) == "nondeterminism.tiny"
    assert cause_key("batch", result(1e-6, 4)) == "nondeterminism.cause.order"
    assert mantissa_bits(torch.bfloat16) == 8 and mantissa_bits(torch.float32) == 24


def test_float_addition_commutes_and_does_not_associate():
    n, commute, grouped = nd.commutativity(2_000)
    assert commute == n  # IEEE 754: a + b == b + a, always (the seed says otherwise)
    assert grouped < n  # the property that fails is associativity


def test_the_residual_points_are_labelled_as_they_are(pt):
    from ui.pipeline.draw import residual_points

    points = residual_points(19)  # Gemma 3 270M: the embedding, 17 layers, the 18th with the final norm
    assert points[0] == ("emb.", "embedding")
    assert points[1] == ("1", "stream") and points[17] == ("17", "stream")
    assert points[18] == ("18 + normalização final", "final") and len(points) == 19


def test_both_sides_of_the_compute_panel_count_the_same_tokens():
    from ui.loop.draw import FRONTIER_PER_TOKEN, frontier_range, passed_tokens

    assert passed_tokens(7, 1) == 7 and passed_tokens(7, 20) == 26  # the last token is never fed back
    lo, hi = frontier_range(7, 20)
    assert lo == FRONTIER_PER_TOKEN[0] * 26 and hi == FRONTIER_PER_TOKEN[1] * 26


def test_the_kv_formula_bends_at_the_window_and_matches_the_cache(tiny_bundle):
    info = dataclasses.replace(tiny_bundle.info, eos_token_ids=())  # no early stop: run past the window
    bundle = tiny_bundle.with_info(info)
    window = info.sliding_window
    assert window and "sliding_attention" in info.layer_types and "full_attention" in info.layer_types
    g = generate(bundle, "abc", SamplingParams(temperature=0, max_new_tokens=window + 10))
    n_prompt = len(g.prompt_tokens)
    tried = 0
    for step in g.steps:
        assert step.kv_cache_bytes == kv_cache_bytes_at(info, n_prompt + step.index), step.index
        tried += 1
    assert tried == window + 10 and n_prompt + g.steps[-1].index > window
    per = kv_bytes_per_position(info)
    assert kv_cache_bytes_at(info, 10) - kv_cache_bytes_at(info, 9) == per
    full = sum(1 for k in info.layer_types if k == "full_attention")
    after = kv_cache_bytes_at(info, window + 5) - kv_cache_bytes_at(info, window + 4)
    assert after == per * full // info.n_layers < per  # past the window only the full-attention layers grow


def test_the_pair_is_labelled_by_its_measured_top_1_and_nuclei(pt):
    """TEMP-1/TEMP-2: the old caption called "The capital of France is" confident (measured top-1 19%) and
    said "muito depois para o incerto" at any sliders, also when both nuclei held one token."""
    from ui.temperature.draw import pair_text

    a, b = "The capital of France is", "Meu animal favorito é o"
    text = pair_text(1.0, {a: 0.191, b: 0.067}, {a: 136, b: 1063})
    assert "19,1%" in text and "6,7%" in text  # each label with its number
    assert f'a distribuição de "{a}" é a mais concentrada' in text
    assert "fecha em 136 token(s)" in text and "1.063" in text and "7,8 vezes mais" in text
    flipped = pair_text(1.0, {a: 0.05, b: 0.6}, {a: 900, b: 3})  # the opposite case: the other one is concentrated
    assert f'a distribuição de "{b}" é a mais concentrada' in flipped and f'O núcleo de "{b}" fecha em 3' in flipped
    same = pair_text(0.05, {a: 0.99, b: 0.97}, {a: 1, b: 1})
    assert "não separa os dois prompts" in same and "vezes mais" not in same
    assert "confiante" not in text + flipped + same


def test_the_count_verdict_follows_the_two_counts(pt):
    """TEMP-9: at r = 1.1 the reviewer measured 5 numbers counted with and without the penalty, under
    "a contagem se desfaz"."""
    from ui.temperature.draw import count_verdict

    kept = count_verdict(1.1, 5, 5)
    assert "ainda sobrevive" in kept and "se desfaz:" not in kept and "1,1" in kept
    broken = count_verdict(1.3, 5, 1)
    assert "a contagem se desfaz: 1 número(s)" in broken and "contra 5" in broken and "sobrevive" not in broken


def test_the_scale_reason_uses_the_given_d_k(pt):
    """A3: the reason for ÷√d_k, with d_k interpolated (256 in Gemma 3 270M, 64 in GPT-2)."""
    from ui.attention.draw import scale_reason

    assert "d_k = 256" in scale_reason(256) and "√256 = 16" in scale_reason(256)
    assert "√64 = 8" in scale_reason(64) and "Vaswani" in scale_reason(64) and "saturado" in scale_reason(64)
    assert "√10 = 3,2" in scale_reason(10)


def _node(i: int, step: int, rank: int, winner: bool):
    from model_backend.lessons.decoding import TreeNode

    return TreeNode(id=i, step=step, parent=None, token_id=i, token=f"t{i}", logprob=-1.0, cum=-1.0, rank=rank,
                    status="kept", winner=winner)


def test_the_beam_note_says_where_the_winner_left_rank_1(pt):
    """DEC-2: "Repare: o caminho vencedor nem sempre tem a colocação 1" was printed under every tree."""
    from types import SimpleNamespace

    from ui.decoding.draw import winner_note

    off = SimpleNamespace(nodes=[_node(0, 1, 1, True), _node(1, 1, 2, False), _node(2, 2, 2, True),
                                 _node(3, 3, 3, True)])
    assert winner_note(off).startswith("Repare") and "no passo 2 ele está em 2º" in winner_note(off)
    first = SimpleNamespace(nodes=[_node(0, 1, 1, True), _node(1, 1, 2, False), _node(2, 2, 1, True)])
    assert "Repare" not in winner_note(first) and "colocação 1 em todos os passos" in winner_note(first)


def test_the_live_verdict_compares_the_cells_and_the_machines(pt):
    """DEC-3: "os números coincidem" was asserted whatever the two tables and machines said."""
    from model_backend.lessons import decoding as dec
    from ui.decoding.draw import live_verdict

    row = {"repeated": 0.5, "mean_logprob": -1.234, "distinct2": 0.25}
    stored = {s: dict(row) for s in dec.STRATEGIES}
    noise = {s: dict(row, mean_logprob=-1.2341) for s in dec.STRATEGIES}  # below the table's 2 decimals
    moved = dict(noise, greedy=dict(row, repeated=0.75))
    here = {"threads": 2, "cpu": "AMD EPYC", "cpu_capability": "AVX512"}
    there = dict(here, threads=16)
    n = 3 * len(dec.STRATEGIES)
    assert live_verdict(stored, noise, here, dict(here)) == f"Mesmo tipo de CPU, mesma precisão, mesmas threads: os {n} números coincidem."
    assert f"e mesmo assim 1 de {n} números mudaram" in live_verdict(stored, moved, here, dict(here))
    assert "Outro tipo de CPU ou outro número de threads, e ainda assim" in live_verdict(stored, noise, here, there)
    assert f"Outro tipo de CPU ou outro número de threads, e 1 de {n} números mudaram" in live_verdict(stored, moved, here, there)


def test_the_induction_map_caption_follows_the_heads_score(pt):
    """W2: the shifted diagonal "is induction" was said under any head the visitor opened."""
    from model_backend.lessons import why as at
    from ui.why.compute import IND_SHARE
    from ui.why.draw import ind_map_caption

    scores = np.full((2, 4), 0.01)
    scores[1, 2] = 0.8
    ind = at.Induction(ids=(), n=1, loss=np.zeros(2), scores=scores, patterns=np.zeros((2, 4, 3, 3)))
    strong, weak = ind_map_caption(ind, 1, 2, "L2 H3"), ind_map_caption(ind, 0, 0, "L1 H1")
    assert "Pontuação de indução 0,80" in strong and "É a diagonal deslocada" in strong and "não faz" not in strong
    assert "Pontuação de indução 0,01" in weak and "esta cabeça não faz indução aqui" in weak
    assert "É a diagonal deslocada" not in weak and f"não passa de {round(IND_SHARE * 100)}%" in weak
    assert "mediana das 8 cabeças: 0,010" in weak


def test_the_bos_sentence_reads_the_view_drawn(pt):
    """W4: "<bos> recebe muita atenção em muitas cabeças" was the caption of a chart that may show one head."""
    from ui.why.draw import vs_caption

    sink = vs_caption(np.array([0.9, 0.05, 0.05]), "camada 3, cabeça 1", "gradientes integrados")
    light = vs_caption(np.array([0.1, 0.5, 0.4]), "camada 3, cabeça 2", "gradientes integrados")
    assert "o <bos> recebe 90,0% da atenção, mais de 50%" in sink and "não explica a escolha" in sink
    assert "o <bos> recebe 10,0% da atenção e atribuição 0" in light and "mais de" not in light
    assert "muitas cabeças" not in sink + light


def _pair(real: float, invented: float, states_fact: bool):
    from types import SimpleNamespace

    return SimpleNamespace(comparison=SimpleNamespace(real=SimpleNamespace(mean_prob=real),
                                                      invented=SimpleNamespace(mean_prob=invented)),
                           states_fact=states_fact)


def test_the_hallucination_verdict_checks_whether_a_threshold_separates(pt):
    """HAL-1: with every invention below every stated fact, "pelos números sozinhos não dá para apontar" (or
    "só sabemos … porque já conhecíamos os fatos") was printed from the pairwise count alone."""
    from ui.hallucination.draw import separation

    apart = [_pair(0.8, 0.3, True), _pair(0.7, 0.4, True), _pair(0.35, 0.2, False)]
    assert separation(apart) == (0.4, 0.7)  # the highest wrong one (an invention), the lowest fact
    mixed = [_pair(0.8, 0.3, True), _pair(0.5, 0.6, True)]  # an invention above a stated fact
    assert separation(mixed) is None
    assert separation([_pair(0.3, 0.2, False)]) is None  # no stated fact: nothing to separate from
    assert separation([_pair(0.8, 0.3, True), _pair(0.9, 0.2, False)]) is None  # a wrong real one above a fact


def test_the_gondwana_twin_is_a_false_premise_not_an_invented_subject(pt):
    """HAL-5: Gondwana is real (a supercontinent); its pair was drawn and labelled as "assunto inventado"."""
    from ui.hallucination import draw as view
    from ui.hallucination.compute import CONFIG

    twins = {p["id"]: p.get("twin", "invented") for p in CONFIG["pairs"]}
    assert twins["president"] == "premise" and sum(k == "invented" for k in twins.values()) >= 4
    assert set(twins.values()) <= set(view.KINDS) and set(view.KIND_COLOURS) == set(view.KINDS) == set(view.KIND_SHAPES)
    labels = view.kind_labels()
    assert labels["premise"] == "assunto real, premissa falsa" and labels["invented"] == "assunto inventado"


def test_the_cold_limit_of_the_curve_counts_the_tie(pt):
    """TEMP-8: "com T perto de 0, a 100%" was said also for tied logits, where the top probability tends to 1/m."""
    from ui.temperature.draw import curve_caption

    assert "a 100%: toda a probabilidade" in curve_caption([2.0, 1.0, 0.1])
    assert "a 33,3%, não a 100%: 3 logits" in curve_caption([1.0, 1.0, 1.0, 0.0])
    tied = curve_caption([3.0, 3.0, 1.0])
    assert "a 50%, não a 100%: 2 logits empatam" in tied and "33,3%" in tied


def test_the_sliding_paragraph_follows_the_limit_and_the_window(pt, tiny_bundle):
    """A5: "quase sempre todas as camadas enxergam tudo" was said whatever the limit; with limit <= window the
    prompt is always inside the window, and above it the window cuts in the prompt too."""
    from ui.attention.draw import sliding_text

    info = tiny_bundle.info  # window 64, one sliding and one full layer
    inside, beyond = sliding_text(info, 64), sliding_text(info, 512)
    assert "não mais que a janela: no prompt, todas as camadas enxergam tudo" in inside
    assert "a partir do token 65" in inside and "quase sempre" not in inside
    assert "mais que a janela: num prompt de mais de 64 tokens" in beyond and "enxergam tudo" not in beyond


def test_the_thinking_moral_follows_the_two_answers(pt):
    """L10: "erra contas com frequência, dos dois jeitos" was printed whatever the two captions said."""
    from ui.loop.draw import think_moral

    assert "os dois jeitos erraram" in think_moral(False, False, "268.098.176")
    assert "268.098.176 parâmetros" in think_moral(False, False, "268.098.176")
    assert "só o jeito com os passos acertou" in think_moral(False, True, "268.098.176")
    assert "a resposta direta acertou" in think_moral(True, False, "268.098.176")
    both = think_moral(True, True, "268.098.176")
    assert "os dois jeitos acertaram" in both and "erra" not in both and "O ponto é outro" in both


def test_the_candidates_caption_promises_a_next_turn_only_when_there_is_one(pt):
    """L9: "Na próxima volta ele já faz parte da entrada" was printed under the last step of a finished run."""
    from types import SimpleNamespace

    from ui.loop.draw import cand_caption

    step = SimpleNamespace(prob=0.5, rank=2)
    assert "Na próxima volta" in cand_caption(step, last=False)
    last = cand_caption(step, last=True)
    assert "não há próxima volta" in last and "Na próxima volta ele" not in last and "2º" in last


def test_where_two_ways_part_the_caption_gives_each_ways_lead_and_calls_a_near_tie_only_one(pt):
    """It said "the two best candidates were nearly tied" under every split, float32 vs bfloat16 too, where the
    page's own cause says the difference need not be small."""
    from ui.nondeterminism.draw import NEAR_TIE, split_caption

    tied = split_caption(2, ("float32", "bfloat16"), (1.0, 2.0, 0.04), (1.0, 2.0, 0.11))
    apart = split_caption(2, ("float32", "bfloat16"), (1.0, 2.0, 3.5), (1.0, 2.0, 0.11))
    assert "No token nº 3" in tied and "0,040" in tied and "0,110" in tied and "some com uma diferença" in tied
    assert "3,500" in apart and "some com uma diferença" not in apart and NEAR_TIE < 3.5
    assert "já tinha terminado" in split_caption(5, ("a", "b"), (1.0,) * 3, (1.0,) * 6)


def test_a_confident_wrong_completion_that_beats_no_right_one_is_not_said_to_beat_zero(pt):
    """"Mais do que 0 das 6 completações que acertaram o fato" read as a win; k = 0 has a sentence of its own."""
    from ui.hallucination.draw import confident_key
    from ui.i18n import t

    for kind in ("miss", "invented"):
        assert "menos do que todas as 6" in t(confident_key(kind, 0), pair="x", p="40%", k=0, n=6)
        assert "mais do que 2 das 6" in t(confident_key(kind, 2), pair="x", p="40%", k=2, n=6)
