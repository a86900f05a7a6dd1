"""The real embedded Gemma 3 270M (float32): parity with transformers' generate(), stop rules, traces."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from transformers import set_seed

from model_backend import SamplingParams, generate, trace

ROOT = Path(__file__).resolve().parents[2]
EINSTEIN = "Albert Einstein nasceu em"


def _reference(bundle, prompt, n, **kwargs):
    enc = bundle.tokenizer(prompt, return_tensors="pt")
    with torch.inference_mode():
        out = bundle.engine.generate(**enc, max_new_tokens=n, output_scores=True, return_dict_in_generate=True,
                                    pad_token_id=0, top_k=None, top_p=None, **kwargs)
    return out.sequences[0, enc.input_ids.shape[1]:].tolist(), out.scores


def test_model_is_the_embedded_gemma(real_bundle):
    info = real_bundle.info
    assert (info.n_layers, info.n_heads, info.n_kv_heads, info.d_model, info.vocab_size) == (18, 4, 1, 640, 262144)
    assert 260_000_000 < info.n_params < 280_000_000 and info.dtype == "float32"


def test_greedy_equals_generate_token_for_token_with_probabilities(real_bundle):
    g = generate(real_bundle, EINSTEIN, SamplingParams(temperature=0, max_new_tokens=16))
    ref_ids, scores = _reference(real_bundle, EINSTEIN, 16, do_sample=False)
    assert [s.token.id for s in g.steps] == ref_ids
    for step, score, tok in zip(g.steps, scores, ref_ids):
        assert step.prob == pytest.approx(float(torch.softmax(score[0].float(), -1)[tok]), abs=1e-5)
    assert g.completion.startswith(" 1879 em Ulm")


def test_seeded_sampling_matches_generate_do_sample(real_bundle):
    kw = dict(temperature=0.8, top_k=40, top_p=0.9, repetition_penalty=1.2)
    g = generate(real_bundle, "O gato sentou no", SamplingParams(max_new_tokens=12, seed=123, **kw))
    again = generate(real_bundle, "O gato sentou no", SamplingParams(max_new_tokens=12, seed=123, **kw))
    set_seed(123)
    enc = real_bundle.tokenizer("O gato sentou no", return_tensors="pt")
    with torch.inference_mode():
        out = real_bundle.engine.generate(**enc, max_new_tokens=12, do_sample=True, pad_token_id=0, **kw)
    ids = [s.token.id for s in g.steps]
    assert ids == [s.token.id for s in again.steps]
    assert ids == out[0, enc.input_ids.shape[1]:].tolist()


def test_finish_reasons(real_bundle):
    assert generate(real_bundle, EINSTEIN, SamplingParams(temperature=0, max_new_tokens=3)).finish_reason == "length"
    g = generate(real_bundle, EINSTEIN, SamplingParams(temperature=0, max_new_tokens=20, stop=("Ulm",)))
    assert g.finish_reason == "stop_sequence" and g.stop_sequence == "Ulm"
    assert g.completion == " 1879 em "


def test_trace_of_a_real_prompt(real_bundle):
    tr = trace(real_bundle, "O gato sentou no tapete")
    T = len(tr.tokens)
    assert tr.attentions.shape == (18, 4, T, T)
    np.testing.assert_allclose(tr.attentions.sum(-1), 1.0, atol=1e-5)
    assert (tr.attentions[..., np.triu(np.ones((T, T), bool), 1)] == 0).all()
    # the last layer of the logit lens is the model's own prediction
    assert tr.lens[-1].top[0].id == tr.top[-1][0].id
    assert tr.lens[-1].top[0].prob == pytest.approx(tr.top[-1][0].prob, abs=1e-5)
    # one-hot times the embedding matrix selects the row
    w = real_bundle.weights.get_input_embeddings().weight
    onehot = torch.zeros(w.shape[0])
    onehot[tr.tokens[2].id] = 1.0
    with torch.inference_mode():
        assert np.array_equal((onehot @ w).numpy(), tr.embeddings[2])


def test_html_from_the_model_stays_text(real_bundle):
    g = generate(real_bundle, "Olá, mundo!", SamplingParams(temperature=0, max_new_tokens=24))
    assert "<strong>" in g.completion  # the model really emits HTML; pages must show it as text


def test_cli_generate_and_analyze_json():
    r = subprocess.run([sys.executable, "-m", "model_backend", "generate", "--prompt", "A capital da França é",
                        "--max-new-tokens", "3", "--temperature", "0", "--dtype", "float32", "--json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert set(out) >= {"model", "device", "dtype", "prompt_tokens", "steps", "completion", "finish_reason",
                        "prefill_ms", "kv_cache_bytes"}
    assert out["finish_reason"] == "length" and len(out["steps"]) == 3 and len(out["kv_cache_bytes"]) == 3
    assert set(out["steps"][0]) >= {"id", "text", "prob", "sampled_prob", "rank", "entropy", "top", "ms"}
    r = subprocess.run([sys.executable, "-m", "model_backend", "analyze", "--prompt", "O gato sentou no", "--json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["dimensions"]["n_layers"] == 18 and len(out["logit_lens"]) == 19
    assert out["attention_shape"][:2] == [18, 4] and len(out["next_token_top10"]) == 10
