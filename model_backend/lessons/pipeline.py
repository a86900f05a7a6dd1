"""The numbers behind the pipeline and loop pages: masks, the MLP's expansion, softmax totals, KV-cache sizes."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from model_backend.core.sampling import choose, distributions, run_chain
from model_backend.runtime.loading import ModelBundle
from model_backend.types import ModelInfo, SamplingParams


def visible_keys(n_tokens: int, layer_type: str = "full_attention", window: int | None = None) -> np.ndarray:
    """Which key positions each query position may attend to.

    Causal: a token sees itself and the tokens before it, never later ones. A sliding-attention
    layer also forgets keys more than `window - 1` positions back.

    Returns:
        bool [T, T]: [query, key] True where attention is allowed; False cells are masked.
    """
    q = np.arange(n_tokens)[:, None]
    k = np.arange(n_tokens)[None, :]
    allowed = k <= q
    if layer_type == "sliding_attention" and window:
        allowed &= k > q - window
    return allowed


def residual_norms(hidden_states: np.ndarray, position: int = -1) -> np.ndarray:
    """Length (L2 norm) of the residual stream at one position after each layer.

    Args:
        hidden_states: [L+1, T, D] (0 = scaled embeddings, L = after the final norm).
    Returns:
        float64 [L+1]
    """
    return np.linalg.norm(hidden_states[:, position, :].astype(np.float64), axis=-1)


@dataclass(frozen=True)
class SoftmaxView:
    """The last position's logits turned into probabilities, with the totals a class can check."""

    ids: tuple[int, ...]  # the top-N token ids, most likely first
    logits: tuple[float, ...]
    probs: tuple[float, ...]
    top_sum: float  # probability held by the top N
    rest_sum: float  # probability held by every other token of the vocabulary
    total: float  # sum over the whole vocabulary (1 up to rounding)
    vocab_size: int


def top_order(values: np.ndarray, n: int) -> np.ndarray:
    """The indices of the n largest values, largest first, ties by lower index: exactly
    np.argsort(-values, kind="stable")[:n], without sorting the whole vocabulary (a 262k sort was ~20 ms of
    every pipeline visit). Everything tied with the n-th largest value is kept before the stable sort."""
    values = np.asarray(values)
    if n >= values.shape[0]:
        return np.argsort(-values, kind="stable")[:n]
    kth = values[np.argpartition(-values, n - 1)[n - 1]]  # the n-th largest value
    keep = np.flatnonzero(values >= kth)  # ascending indices: the stable sort keeps ties in index order
    return keep[np.argsort(-values[keep], kind="stable")][:n]


def softmax_view(logits: np.ndarray, n: int = 10) -> SoftmaxView:
    """Softmax over the whole vocabulary (through the sampling chain's raw stage), trimmed to the top n.

    Args:
        logits: [V] raw logits of one position.
    """
    probs = distributions(logits, SamplingParams(temperature=1.0))[0][1].astype(np.float64)  # [V]
    order = top_order(probs, n)
    total = float(probs.sum())
    top_sum = float(probs[order].sum())
    return SoftmaxView(ids=tuple(int(i) for i in order), logits=tuple(float(logits[i]) for i in order),
                       probs=tuple(float(probs[i]) for i in order), top_sum=top_sum, rest_sum=total - top_sum,
                       total=total, vocab_size=int(probs.shape[0]))


def pick(logits: np.ndarray, params: SamplingParams) -> int:
    """Choose one token from cached logits the way the loop would (greedy, or a seeded draw). No forward pass."""
    scores = float_row(logits).reshape(1, -1)  # [1, V]; a shared memo's read-only row is copied
    stages = run_chain(torch.zeros((1, 0), dtype=torch.long), scores, params)
    generator = None if params.greedy else torch.Generator().manual_seed(int(params.seed or 0))
    return choose(stages[-1], params, generator)


ROWS = 16_384  # rows of the output matrix converted to float32 at once (42 MB for d_model 640)


@dataclass(frozen=True)
class OutputLayer:
    """The last step before the softmax, measured on the loaded model: logits = W·h.

    W is the output matrix (lm_head.weight, [V, D]); h is the last position's vector after the final norm.
    """

    vocab: int
    d_model: int
    tied_config: bool  # config.tie_word_embeddings
    same_tensor: bool  # lm_head.weight and embed_tokens.weight share storage (data_ptr equal)
    equal_values: bool  # torch.equal(lm_head.weight, embed_tokens.weight)
    softcap: float | None  # Gemma 2's final_logit_softcapping: logits = cap * tanh(logits / cap); None here
    max_diff: float  # max |W·h (float32) - the model's logits| over the vocabulary
    same_top: bool  # W·h and the model agree on the most likely token
    shared_params: int  # parameters the tie saves: V x D


def float_row(values: np.ndarray) -> torch.Tensor:
    """`values` as a float32 tensor; a read-only array (a shared memo's row) is copied, so torch never holds a view
    it could write through (torch warns of one)."""
    row = np.asarray(values, dtype=np.float32)
    return torch.from_numpy(row if row.flags.writeable else row.copy())


def output_layer(bundle: ModelBundle, final_hidden: np.ndarray, logits: np.ndarray) -> OutputLayer:
    """Recompute the last position's logits by hand and check the output matrix against the embedding.

    Args:
        final_hidden: [D] the last position's vector after the final norm (hidden_states[-1][-1]).
        logits: [V] the model's own logits at that position.
    """
    model = bundle.weights
    head, emb = model.get_output_embeddings().weight, model.get_input_embeddings().weight  # [V, D] each
    cap = getattr(getattr(model.config, "get_text_config", lambda: model.config)(), "final_logit_softcapping", None)
    with torch.inference_mode():
        h = float_row(final_hidden)  # [D]
        # [V]: one dot product per vocabulary row, in float32, a block of rows at a time (no 0.7 GB copy of W)
        mine = torch.cat([head[i:i + ROWS].float() @ h for i in range(0, head.shape[0], ROWS)])
        if cap:
            mine = cap * torch.tanh(mine / cap)
        theirs = float_row(logits)  # [V]
        diff = float((mine - theirs).abs().max())
        same_top = int(mine.argmax()) == int(theirs.argmax())
        same = head.data_ptr() == emb.data_ptr() and head.shape == emb.shape and head.stride() == emb.stride()
        equal = same or (head.shape == emb.shape and bool(torch.equal(head, emb)))  # one tensor: no 167M compares
    return OutputLayer(vocab=int(head.shape[0]), d_model=int(head.shape[1]),
                       tied_config=bool(getattr(model.config, "tie_word_embeddings", False)),
                       same_tensor=head.data_ptr() == emb.data_ptr(), equal_values=equal,
                       softcap=float(cap) if cap else None, max_diff=diff, same_top=same_top,
                       shared_params=int(head.numel()) if head.data_ptr() == emb.data_ptr() else 0)


@dataclass(frozen=True)
class AnswerFlops:
    """Arithmetic for one whole answer: the prompt's prefill, then one decode step per further token."""

    per_token: int  # 2 x parameters: one multiply and one add per weight, for one token
    prefill: int  # the prompt's tokens through the whole model (it also yields the first new token)
    decode: int  # every further new token, each with its attention over the context so far
    n_prompt: int
    n_new: int

    @property
    def total(self) -> int:
        return self.prefill + self.decode


def attention_flops(info: ModelInfo, context: int) -> int:
    """The part the 2 x parameters rule leaves out: one token's queries against `context` keys and the mix of
    `context` values, 2 x context x head_dim each, in every head of every layer."""
    return 2 * 2 * context * info.head_dim * info.n_heads * info.n_layers


def output_flops(info: ModelInfo) -> int:
    """One position through the output matrix: V x D multiply-adds."""
    return 2 * info.vocab_size * info.d_model


def answer_flops(info: ModelInfo, n_prompt: int, n_new: int) -> AnswerFlops:
    """FLOPs for an answer of n_new tokens after an n_prompt-token prompt (n_new >= 1).

    Prefill: each prompt position costs 2·N plus its attention over the positions up to it, less the output
    matrix (2·V·D) at every position but the last: the loop asks for the last position's logits only
    (stepping.py, logits_to_keep=1), so the others never go through it.
    Decode: new tokens 2 .. n_new each cost 2·N plus attention over the prompt and the tokens so far.
    """
    per = info.flops_per_token
    skipped = (n_prompt - 1) * output_flops(info)  # prompt positions whose logits nobody asked for
    prefill = n_prompt * per - skipped + sum(attention_flops(info, c) for c in range(1, n_prompt + 1))
    decode = sum(per + attention_flops(info, n_prompt + i) for i in range(1, n_new))
    return AnswerFlops(per_token=per, prefill=prefill, decode=decode, n_prompt=n_prompt, n_new=n_new)
