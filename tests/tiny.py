"""A tiny Gemma-3-shaped model with random weights and a character-level tokenizer, built in memory."""
from __future__ import annotations

import string

import torch
from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, processors
from transformers import Gemma3ForCausalLM, Gemma3TextConfig, PreTrainedTokenizerFast

from model_backend import bundle_from

SPECIALS = ["<pad>", "<eos>", "<bos>", "<unk>"]


def make_tokenizer() -> PreTrainedTokenizerFast:
    chars = list(string.ascii_letters + string.digits + string.punctuation + " \n" + "áéíóúãõçÁÉÍÓÚÃÕÇ")
    vocab = {tok: i for i, tok in enumerate(SPECIALS + chars)}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Split(Regex("."), behavior="isolated")
    tok.decoder = decoders.Fuse()
    tok.post_processor = processors.TemplateProcessing(single="<bos> $A", special_tokens=[("<bos>", 2)])
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", eos_token="<eos>",
                                   bos_token="<bos>", unk_token="<unk>")


def make_tiny_bundle(seed: int = 0):
    model, tokenizer = make_tiny_model(seed)
    return bundle_from(model, tokenizer, "tiny-gemma3")


def make_tiny_model(seed: int = 0, head_dim: int = 8):
    """The tiny model and its tokenizer, before any of the CPU speed-ups (bundle_from applies those). head_dim 64
    or more: a batched attention product over several rows sums in another order than one row's (invariance)."""
    tokenizer = make_tokenizer()
    torch.manual_seed(seed)
    config = Gemma3TextConfig(
        vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=1, head_dim=head_dim, max_position_embeddings=256,
        layer_types=["sliding_attention", "full_attention"], sliding_window=64,
        pad_token_id=0, eos_token_id=1, bos_token_id=2,
    )
    model = Gemma3ForCausalLM(config).eval()
    model.config._attn_implementation = "eager"
    return model, tokenizer


def start_queued(engine, threads, waits: int = 300) -> None:
    """Start `threads` while holding the engine's lock, wait until each has queued for it (a ticket each, at most
    `waits` x 10 ms), then release it: their first passes meet, and one of them runs all of them as one batch."""
    import threading

    engine.lock.acquire()
    for t in threads:
        t.start()
    pause = threading.Event()
    for _ in range(waits):
        if engine.lock.queued >= len(threads) + 1:
            break
        pause.wait(0.01)
    engine.lock.release()
