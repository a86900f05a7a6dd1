"""Frozen dataclasses that the backend returns; pages only read them."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class TokenInfo:
    """One token as a person should see it."""

    id: int
    text: str  # the decoded text of this token alone, e.g. " mundo"
    piece: str  # the vocabulary entry, e.g. "▁mundo" or "<0xC3>"
    display: str  # text with whitespace made visible: "·mundo", "↵"
    bytes: tuple[int, ...]  # the UTF-8 bytes this token stands for
    special: bool  # <bos>, <eos>, <pad>, ...


@dataclass(frozen=True)
class ModelInfo:
    """The dimensions of the running model, read from its config and weights."""

    name: str
    architecture: str
    device: str
    dtype: str
    n_layers: int
    n_heads: int
    n_kv_heads: int
    head_dim: int
    d_model: int
    d_ff: int
    vocab_size: int
    n_params: int  # unique parameters (tied embedding counted once)
    n_embedding_params: int
    context_length: int
    activation: str
    layer_types: tuple[str, ...]  # per layer: "full_attention" or "sliding_attention"
    sliding_window: int | None
    tied_embeddings: bool
    embed_scale: float  # inputs are embedding rows times this (Gemma: sqrt(d_model))
    eos_token_ids: tuple[int, ...]
    bos_token_id: int | None

    @property
    def flops_per_token(self) -> int:
        """About 2 floating-point operations per parameter per generated token."""
        return 2 * self.n_params


@dataclass(frozen=True)
class Candidate:
    """A possible next token with its raw logit and probability."""

    id: int
    text: str
    logit: float
    prob: float


@dataclass(frozen=True)
class LensLayer:
    """What one layer would predict for the last position if the model stopped there."""

    layer: int  # 0 = embeddings, n_layers = final output
    top: tuple[Candidate, ...]


@dataclass(frozen=True)
class Trace:
    """One forward pass over a prompt, with the internals pages draw.

    Arrays are float32 numpy on the CPU. T = number of tokens, L = layers, H = query heads,
    D = d_model, N = top candidates kept per position.
    """

    tokens: tuple[TokenInfo, ...]
    truncated_from: int | None  # token count before cutting to the limit, or None
    embeddings: np.ndarray  # [T, D] rows of the embedding matrix (before embed_scale)
    attentions: np.ndarray  # [L, H, T, T] weights; masked (future) cells are exactly 0
    hidden_states: np.ndarray  # [L+1, T, D] residual stream: 0 = scaled embeddings, L = final norm
    top: tuple[tuple[Candidate, ...], ...]  # [T][N] the N most likely next tokens at every position
    last_logits: np.ndarray  # [V] every logit at the last position (the one generation uses)
    lens: tuple[LensLayer, ...]  # logit lens at the last position, one per hidden state
    info: ModelInfo


@dataclass(frozen=True)
class SamplingParams:
    """How to choose each token. temperature 0 means greedy (argmax)."""

    temperature: float = 1.0
    top_k: int = 0  # 0 = off
    top_p: float = 1.0  # 1.0 = off
    repetition_penalty: float = 1.0  # 1.0 = off
    max_new_tokens: int = 32
    stop: tuple[str, ...] = ()  # stop sequences
    seed: int | None = None  # None = a fresh random seed, reported in the result

    @property
    def greedy(self) -> bool:
        return self.temperature == 0


@dataclass(frozen=True)
class Stage:
    """The distribution after one processor of the sampling chain (repetition penalty,
    temperature, top-k, top-p), seen through the raw top-N token ids of the step."""

    name: str  # "raw", "repetition_penalty", "temperature", "top_k", "top_p", "greedy"
    probs: tuple[float, ...]  # probability of each of the step's top-N raw candidates
    kept: int  # how many tokens of the whole vocabulary still have non-zero probability
    entropy_bits: float


@dataclass(frozen=True)
class Step:
    """One turn of the autoregressive loop."""

    index: int  # 0 = the first generated token (made by the prefill pass)
    phase: str  # "prefill" or "decode"
    token: TokenInfo
    prob: float  # raw softmax probability of the chosen token
    logprob: float  # its natural log, from log_softmax of the logits (finite where prob underflows to 0)
    sampled_prob: float  # its probability in the processed distribution it was drawn from
    rank: int  # 1 = it was the most likely raw token
    entropy_bits: float  # entropy of the raw distribution
    top: tuple[Candidate, ...]  # raw top-N candidates
    stages: tuple[Stage, ...]  # the distribution after each processor, in order
    ms: float  # wall time of this step (forward pass + sampling)
    kv_cache_bytes: int  # size of the key/value cache after this step
    text: str  # completion so far, including this token
    finish_reason: str | None = None  # on the loop's last step only: "stop", "length" or "stop_sequence"
    attentions: np.ndarray | None = None  # [L, H, K] where this token's query looked, if recorded


@dataclass(frozen=True)
class Generation:
    """A finished run of the loop."""

    prompt_tokens: tuple[TokenInfo, ...]
    truncated_from: int | None
    steps: tuple[Step, ...]
    completion: str
    finish_reason: str  # "stop" (EOS), "length" (max_new_tokens) or "stop_sequence"
    stop_sequence: str | None
    prefill_ms: float
    seed: int | None
    params: SamplingParams
    info: ModelInfo
