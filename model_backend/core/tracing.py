"""One forward pass over a prompt, keeping what the pages draw (attention, residual stream, logits)."""
from __future__ import annotations

import numpy as np
import torch

from model_backend.core.activations import ActivationCache, final_norm_of, run_with_cache
from model_backend.core.tokens import safe_text, token_infos
from model_backend.runtime.loading import ModelBundle
from model_backend.types import Candidate, LensLayer, Trace
from model_backend.validation import check_prompt


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
    values = logits[top.indices].tolist()  # one gather, not n indexings (each a torch call: 30 visitors' steps at once)
    return tuple(Candidate(id=i, text=t, logit=v, prob=float(p))
                 for i, t, v, p in zip(ids, texts, values, top.values.tolist()))


def _final_norm(model):
    return final_norm_of(model) or torch.nn.Identity()


def unembed(model, hidden: torch.Tensor) -> torch.Tensor:
    """Project hidden states [.., D] to logits [.., V] the way the model's head does."""
    logits = model.get_output_embeddings()(hidden)
    cap = getattr(model.config, "final_logit_softcapping", None)
    if cap:
        logits = torch.tanh(logits / cap) * cap
    return logits


def logit_lens(bundle: ModelBundle, hidden_states: torch.Tensor, n: int) -> tuple[LensLayer, ...]:
    """Decode the last position of every layer's residual stream with the final norm + head.

    Args:
        hidden_states: [L+1, T, D] as in Trace (float32 copies; the model's own dtype is restored first,
            so a bfloat16 model decodes exactly what it computed). The last one is already normed.
    All layers go through the head in one product: the 262,144-row output matrix is read once, not once per layer.
    """
    with bundle.engine.exclusive() as model, torch.inference_mode():  # the final norm and the head are the model's
        norm = _final_norm(model)
        dtype = next(model.parameters()).dtype
        last = len(hidden_states) - 1
        rows = torch.stack([h[-1].to(dtype) if layer == last else norm(h[-1].to(dtype))  # [D] each
                            for layer, h in enumerate(hidden_states)])  # [L+1, D]
        logits = unembed(model, rows.unsqueeze(0))[0]  # [L+1, V]
        return tuple(LensLayer(layer=layer, top=candidates(bundle.tokenizer, logits[layer], n))
                     for layer in range(len(hidden_states)))


def trace_names(n_layers: int) -> set[str]:
    """The activation-cache names a Trace is built from."""
    names = {"blocks.0.hook_resid_pre", "ln_final.hook_normalized"}
    names |= {f"blocks.{layer}.attn.hook_pattern" for layer in range(n_layers)}
    names |= {f"blocks.{layer}.hook_resid_post" for layer in range(n_layers - 1)}
    return names


def hidden_from_cache(cache: ActivationCache, n_layers: int) -> torch.Tensor:
    """The residual stream as transformers' `hidden_states` gives it: [L+1, T, D], 0 = the scaled embeddings
    entering layer 0, l = what leaves layer l-1, and the last one after the final norm."""
    rows = [cache["blocks.0.hook_resid_pre"]]
    rows += [cache[f"blocks.{layer}.hook_resid_post"] for layer in range(n_layers - 1)]
    rows.append(cache["ln_final.hook_normalized"])
    return torch.stack(rows)


def trace(bundle: ModelBundle, text: str, max_tokens: int = 512, top_n: int = 10, lens_top: int = 5) -> Trace:
    """Run the model once over `text` and keep its internals, read from the named activation cache.

    Args:
        text: the prompt (validated; cut to max_tokens tokens with `truncated_from` set).
        top_n: candidates kept per position.
        lens_top: candidates kept per layer in the logit lens.
    Returns:
        Trace with attentions [L, H, T, T], hidden_states [L+1, T, D], embeddings [T, D], ...
    """
    ids, truncated_from = encode(bundle, text, max_tokens)
    n_layers = bundle.info.n_layers
    cache = run_with_cache(bundle, ids, names=trace_names(n_layers))
    with torch.inference_mode():
        logits = cache.logits  # [T, V]
        attn = cache.stack("blocks.{l}.attn.hook_pattern", n_layers)  # [L, H, T, T]
        hidden = hidden_from_cache(cache, n_layers)  # [L+1, T, D]
        emb = bundle.weights.get_input_embeddings().weight[torch.tensor(ids, device=bundle.device)].float()  # [T, D]
        top = tuple(candidates(bundle.tokenizer, logits[t], top_n) for t in range(logits.shape[0]))
    return Trace(
        tokens=token_infos(bundle.tokenizer, ids),
        truncated_from=truncated_from,
        embeddings=emb.cpu().numpy(),
        attentions=np.ascontiguousarray(attn.numpy()),
        hidden_states=hidden.numpy(),
        top=top,
        last_logits=logits[-1].numpy(),
        lens=logit_lens(bundle, hidden, lens_top),
        info=bundle.info,
    )


def next_token_logits(bundle: ModelBundle, text: str, max_tokens: int = 512) -> tuple[np.ndarray, tuple[int, ...], int | None]:
    """The prompt's next-token logits [V] (float32), its token ids and its pre-cut length: one forward pass that
    keeps nothing else (no attention weights, no residual stream, no logit lens) and multiplies only the last
    position by the 262,144-row output matrix. For pages that need the next-token distribution only (the
    temperature page): a trace() of a new prompt cost about twice as much. The values may differ from
    trace()'s last_logits in the last bits (the output product runs on 1 row instead of T)."""
    ids, truncated_from = encode(bundle, text, max_tokens)
    out = bundle.forward(input_ids=torch.tensor([ids], device=bundle.device), use_cache=False, logits_to_keep=1)
    logits = out.logits[0, -1].detach().float().cpu().numpy()  # [V]
    return logits, tuple(ids), truncated_from
