"""One forward pass over a prompt, keeping what the pages draw (attention, residual stream, logits)."""
from __future__ import annotations

import numpy as np
import torch

from .loading import ModelBundle
from .text import safe_text, token_infos
from .types import Candidate, LensLayer, Trace
from .validation import check_prompt


def encode(bundle: ModelBundle, text: str, max_tokens: int) -> tuple[list[int], int | None]:
    """Tokenize with the model's special tokens (Gemma adds <bos>); cut to max_tokens.

    Returns:
        (ids, original length if it was cut else None)
    """
    check_prompt(text)
    text = safe_text(text)  # a lone surrogate (possible from scripts, not browsers) becomes "?"
    ids = bundle.tokenizer(text, add_special_tokens=True)["input_ids"]
    if len(ids) > max_tokens:
        return list(ids[:max_tokens]), len(ids)
    return list(ids), None


def candidates(tokenizer, logits: torch.Tensor, n: int, probs: torch.Tensor | None = None) -> tuple[Candidate, ...]:
    """Top-n candidates of a [V] logit vector, with softmax probabilities over the full vocabulary
    (pass `probs` when the softmax is already computed)."""
    logits = logits.to(torch.float32)
    probs = torch.softmax(logits, dim=-1) if probs is None else probs
    top = torch.topk(probs, k=min(n, probs.shape[-1]))
    ids = top.indices.tolist()
    texts = tokenizer.batch_decode([[i] for i in ids], skip_special_tokens=False)
    return tuple(Candidate(id=i, text=t, logit=float(logits[i]), prob=float(p))
                 for i, t, p in zip(ids, texts, top.values.tolist()))


def _final_norm(model):
    inner = getattr(model, "model", None)
    return getattr(inner, "norm", None) or getattr(inner, "final_layernorm", None) or torch.nn.Identity()


def unembed(model, hidden: torch.Tensor) -> torch.Tensor:
    """Project hidden states [.., D] to logits [.., V] the way the model's head does."""
    logits = model.get_output_embeddings()(hidden)
    cap = getattr(model.config, "final_logit_softcapping", None)
    if cap:
        logits = torch.tanh(logits / cap) * cap
    return logits


def logit_lens(bundle: ModelBundle, hidden_states, n: int) -> tuple[LensLayer, ...]:
    """Decode the last position of every layer's residual stream with the final norm + head.

    The last hidden state returned by transformers is already normed, so it is used as is. All layers
    go through the head in one product: the 262,144-row output matrix is read once, not once per layer.
    """
    model = bundle.model
    norm = _final_norm(model)
    with torch.inference_mode():
        last = len(hidden_states) - 1
        rows = torch.stack([h[0, -1] if layer == last else norm(h[0, -1])  # [D] each
                            for layer, h in enumerate(hidden_states)])  # [L+1, D]
        logits = unembed(model, rows.unsqueeze(0))[0]  # [L+1, V]
        return tuple(LensLayer(layer=layer, top=candidates(bundle.tokenizer, logits[layer], n))
                     for layer in range(len(hidden_states)))


def trace(bundle: ModelBundle, text: str, max_tokens: int = 512, top_n: int = 10, lens_top: int = 5) -> Trace:
    """Run the model once over `text` and keep its internals.

    Args:
        text: the prompt (validated; cut to max_tokens tokens with `truncated_from` set).
        top_n: candidates kept per position.
        lens_top: candidates kept per layer in the logit lens.
    Returns:
        Trace with attentions [L, H, T, T], hidden_states [L+1, T, D], embeddings [T, D], ...
    """
    ids, truncated_from = encode(bundle, text, max_tokens)
    input_ids = torch.tensor([ids], device=bundle.device)
    out = bundle.forward(input_ids=input_ids, output_attentions=True, output_hidden_states=True,
                         use_cache=False)
    with torch.inference_mode():
        logits = out.logits[0].float()  # [T, V]
        attn = torch.stack([a[0] for a in out.attentions]).float()  # [L, H, T, T]
        hidden = torch.stack([h[0] for h in out.hidden_states]).float()  # [L+1, T, D]
        emb = bundle.model.get_input_embeddings().weight[input_ids[0]].float()  # [T, D]
        top = tuple(candidates(bundle.tokenizer, logits[t], top_n) for t in range(logits.shape[0]))
    return Trace(
        tokens=token_infos(bundle.tokenizer, ids),
        truncated_from=truncated_from,
        embeddings=emb.cpu().numpy(),
        attentions=np.ascontiguousarray(attn.cpu().numpy()),
        hidden_states=hidden.cpu().numpy(),
        top=top,
        last_logits=logits[-1].cpu().numpy(),
        lens=logit_lens(bundle, out.hidden_states, lens_top),
        info=bundle.info,
    )
