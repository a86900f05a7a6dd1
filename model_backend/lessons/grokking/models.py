"""Two small models for a + b mod p: an MLP over two embeddings, and a one-layer transformer (Nanda-style).

Parameters are created by hand and initialised from an explicit torch.Generator, so a run depends only
on its seed (never on the process-global RNG that other threads may be using).
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

MODEL_KINDS = ("mlp", "transformer")


def _normal(shape: tuple[int, ...], std: float, g: torch.Generator) -> nn.Parameter:
    return nn.Parameter(torch.randn(shape, generator=g) * std)


class PairMLP(nn.Module):
    """logits = W_out · relu(W_in · [E[a]; E[b]] + b_in) + b_out: two layers over one shared embedding E."""

    def __init__(self, p: int, d_embed: int, d_hidden: int, g: torch.Generator):
        super().__init__()
        self.embed = _normal((p, d_embed), 1 / math.sqrt(d_embed), g)  # [p, d_embed]: the matrix we Fourier-analyse
        self.w_in = _normal((2 * d_embed, d_hidden), 1 / math.sqrt(2 * d_embed), g)
        self.b_in = nn.Parameter(torch.zeros(d_hidden))
        self.w_out = _normal((d_hidden, p), 1 / math.sqrt(d_hidden), g)
        self.b_out = nn.Parameter(torch.zeros(p))

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        x = torch.cat([F.embedding(a, self.embed), F.embedding(b, self.embed)], dim=-1)  # [N, 2*d_embed]
        h = torch.relu(x @ self.w_in + self.b_in)  # [N, d_hidden]
        return h @ self.w_out + self.b_out  # [N, p]


class OneLayerTransformer(nn.Module):
    """Input "a b =" (three tokens); one attention layer, one ReLU MLP, no LayerNorm; read logits at "=".

    Shapes follow Nanda's grokking analysis: d_model 128, 4 heads of 32, MLP 512. With one layer only the
    "=" position reaches the answer, so queries, the attention output, the MLP and the unembedding are
    computed there alone (the same function as running them on all three positions, at half the cost).
    """

    def __init__(self, p: int, d_model: int, n_heads: int, d_mlp: int, g: torch.Generator):
        super().__init__()
        d_head, s = d_model // n_heads, 1 / math.sqrt(d_model)
        self.p, self.n_heads, self.d_head = p, n_heads, d_head
        self.embed = _normal((p + 1, d_model), s, g)  # [p+1, d_model]; row p is the "=" token
        self.pos = _normal((3, d_model), s, g)  # [3, d_model]
        self.w_q = _normal((d_model, n_heads * d_head), s, g)  # heads side by side: [d_model, H*d_head]
        self.w_k = _normal((d_model, n_heads * d_head), s, g)
        self.w_v = _normal((d_model, n_heads * d_head), s, g)
        self.w_o = _normal((n_heads * d_head, d_model), s, g)
        self.w_in = _normal((d_model, d_mlp), s, g)
        self.b_in = nn.Parameter(torch.zeros(d_mlp))
        self.w_out = _normal((d_mlp, d_model), s, g)
        self.b_out = nn.Parameter(torch.zeros(d_model))
        self.unembed = _normal((d_model, p), 1 / math.sqrt(p), g)

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        n, h, dh = a.shape[0], self.n_heads, self.d_head
        eq = torch.full_like(a, self.p)
        x = F.embedding(torch.stack([a, b, eq], dim=1), self.embed) + self.pos  # [N, 3, d_model]
        k = (x @ self.w_k).view(n, 3, h, dh)  # [N, 3, H, d_head]: every position is a key ...
        v = (x @ self.w_v).view(n, 3, h, dh)
        q = (x[:, 2] @ self.w_q).view(n, h, dh)  # [N, H, d_head]: ... the query is "=", which sees all three
        pattern = (torch.einsum("nhe,nshe->nhs", q, k) / math.sqrt(dh)).softmax(dim=-1)  # [N, H, 3]
        z = torch.einsum("nhs,nshe->nhe", pattern, v).reshape(n, h * dh)  # [N, H*d_head]
        resid = x[:, 2] + z @ self.w_o  # [N, d_model]
        resid = resid + torch.relu(resid @ self.w_in + self.b_in) @ self.w_out + self.b_out
        return resid @ self.unembed  # [N, p]


def build_model(kind: str, p: int, seed: int, *, d_embed: int = 128, d_hidden: int = 256, d_model: int = 128,
                n_heads: int = 4, d_mlp: int = 512) -> nn.Module:
    """A fresh model whose weights depend only on (kind, p, seed, sizes)."""
    g = torch.Generator().manual_seed(seed)
    if kind == "mlp":
        return PairMLP(p, d_embed, d_hidden, g)
    if kind == "transformer":
        return OneLayerTransformer(p, d_model, n_heads, d_mlp, g)
    raise ValueError(f"`model` has to be one of {MODEL_KINDS}, but is {kind!r}")


def embedding_matrix(model: nn.Module) -> torch.Tensor:
    """The learned embedding of the numbers 0..p-1 (a copy, detached): [p, d]."""
    p = model.w_out.shape[1] if isinstance(model, PairMLP) else model.p
    return model.embed[:p].detach().clone()
