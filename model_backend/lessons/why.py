"""Why this token? Input attribution (Captum's integrated gradients, gradient x input), direct logit
attribution, attention beside attribution and induction heads (what each head attends to: lessons/attention.py).

Every function takes token ids (already encoded and cut) and a ModelBundle; the model passes hold the
bundle's lock. Attributions need gradients, so run them on a float32 bundle.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import torch

from model_backend.core.activations import ActivationCache, final_norm_of, gemma_style, layers_of, run_with_cache
from model_backend.runtime import queueing
from model_backend.runtime.engine import _body
from model_backend.runtime.fastpath import GEMMA_NORMS
from model_backend.runtime.loading import ModelBundle

METHODS = ("ig", "gxi")  # integrated gradients (Captum), gradient x (input - baseline)
# Integrated gradients are approximated by a sum over points on the path; with too few points the scores do not
# add up to F(x) - F(baseline). The page doubles the points until they do, within a stated bound, up to a cap.
IG_SCHEDULE = (16, 32, 64, 128)  # Gauss-Legendre points per round; the last is the cap
IG_BOUND = 0.05  # complete enough: |residual| <= 5% of |F(x) - F(baseline)| ...
IG_FLOOR = 0.01  # ... or <= 0.01 logit, for a difference near 0
Progress = Callable[[float], None]


def _noop(_fraction: float) -> None:
    return None


# ---------------------------------------------------------------- the quantity we explain


@dataclass(frozen=True)
class Target:
    """What is explained: logit(token) at the last position, or logit(token) - logit(contrast)."""

    token: int
    contrast: int | None = None

    def direction(self, model: torch.nn.Module) -> torch.Tensor:
        """[D] float32: the unembedding row of `token` (minus that of `contrast`)."""
        w = model.get_output_embeddings().weight
        u = w[self.token].detach().float()
        return u if self.contrast is None else u - w[self.contrast].detach().float()

    def of_logits(self, logits: torch.Tensor) -> torch.Tensor:
        """The explained number from logits [..., V]."""
        value = logits[..., self.token]
        return value if self.contrast is None else value - logits[..., self.contrast]


def _softcap(model: torch.nn.Module) -> float | None:
    return getattr(model.config, "final_logit_softcapping", None) or None


def _explained(model: torch.nn.Module, target: Target, last_hidden: torch.Tensor) -> torch.Tensor:
    """[B] the explained number from the final normed hidden state [B, D], through only the needed rows
    of the head (the 262,144-row product is skipped)."""
    w = model.get_output_embeddings().weight
    rows = [target.token] + ([] if target.contrast is None else [target.contrast])
    logits = last_hidden.float() @ w[rows].float().T  # [B, 1 or 2]
    cap = _softcap(model)
    if cap:
        logits = torch.tanh(logits / cap) * cap
    return logits[:, 0] if target.contrast is None else logits[:, 0] - logits[:, 1]


# ---------------------------------------------------------------- input attribution


@dataclass(frozen=True)
class InputAttribution:
    """One score per input token: how much it moved the explained number (summed over the embedding)."""

    method: str  # "ig" or "gxi"
    scores: np.ndarray  # [T] float64
    value: float  # the explained number for the real input, F(x)
    baseline_value: float  # F(baseline)
    steps: int  # integration steps (1 for gradient x input)
    tried: tuple[int, ...] = ()  # integrated gradients until complete: the steps of every round run, in order

    @property
    def total(self) -> float:
        return float(self.scores.sum())

    @property
    def residual(self) -> float:
        """Completeness: sum of scores - (F(x) - F(baseline)). Near 0 for integrated gradients."""
        return self.total - (self.value - self.baseline_value)

    @property
    def allowed(self) -> float:
        """The largest |residual| that counts as complete (IG_BOUND of the difference, at least IG_FLOOR)."""
        return max(IG_BOUND * abs(self.value - self.baseline_value), IG_FLOOR)

    @property
    def complete(self) -> bool:
        return abs(self.residual) <= self.allowed


def baseline_ids(bundle: ModelBundle, ids: list[int], token: int | None = None) -> list[int]:
    """The reference input: <bos> kept (the model never runs without it), every other token replaced by
    `token` (default <pad>)."""
    if token is None:
        token = bundle.tokenizer.pad_token_id
        token = 0 if token is None else token
    return [ids[0]] + [token] * (len(ids) - 1)


def _forward_fn(bundle: ModelBundle, target: Target, calls: list[int], progress: Progress, expected: int):
    model = bundle.weights
    body = _body(model)
    who = queueing.visitor()

    def forward(input_ids: torch.Tensor) -> torch.Tensor:  # called inside the engine's exclusive()
        if queueing.unwanted(who):  # the visitor left or moved on: the rest of the chunks are nobody's
            raise who.error()
        calls[0] += 1
        progress(min(1.0, calls[0] / expected))
        hidden = body(input_ids=input_ids, use_cache=False).last_hidden_state[:, -1]  # [B, D]
        return _explained(model, target, hidden)  # [B]

    return forward


def integrated_gradients(bundle: ModelBundle, ids: list[int], target: Target, steps: int = 16,
                         chunk: int = 16, method: str = "gausslegendre", progress: Progress = _noop,
                         baseline: int | None = None) -> InputAttribution:
    """Captum's LayerIntegratedGradients on the embedding layer's output, from the baseline to the input.

    Args:
        ids: [T] token ids; the explained logit is at the last position.
        steps: points on the straight path from baseline to input (Gauss-Legendre by default).
        baseline: the token that replaces every input token but <bos> in the reference (default <pad>).
        chunk: how many of those points run as one batch (the steps are batched, not run one by one; one batch
            of 16 took half the CPU time of four batches of 4, measured on 2 cores).
    Returns:
        InputAttribution with scores [T] that sum to F(x) - F(baseline) up to `residual`.
    """
    from captum.attr import LayerIntegratedGradients

    model = bundle.weights
    inputs = torch.tensor([ids], device=bundle.device)
    base = torch.tensor([baseline_ids(bundle, ids, baseline)], device=bundle.device)
    calls = [0]
    expected = -(-steps // chunk) + 2  # Captum's layer pass, its batches, then F(x) and F(baseline)
    forward = _forward_fn(bundle, target, calls, progress, expected)
    lig = LayerIntegratedGradients(forward, model.get_input_embeddings())
    with bundle.engine.exclusive(grad=True):  # Captum hooks the shared model: nobody else may run meanwhile
        attr = lig.attribute(inputs, baselines=base, n_steps=steps, method=method, internal_batch_size=chunk)
        with torch.no_grad():
            value, baseline_value = forward(torch.cat([inputs, base])).tolist()
    scores = attr[0].detach().double().sum(-1).cpu().numpy()  # [T]
    return InputAttribution(method="ig", scores=scores, value=value, baseline_value=baseline_value, steps=steps)


def integrated_gradients_until_complete(bundle: ModelBundle, ids: list[int], target: Target,
                                        schedule: tuple[int, ...] = IG_SCHEDULE, progress: Progress = _noop,
                                        baseline: int | None = None) -> InputAttribution:
    """Integrated gradients with 16 Gauss-Legendre points, then 32, 64, ... until the scores add up to
    F(x) - F(baseline) within `allowed` (5%, or 0.01 logit), or the last round of the schedule (the cap) is done.

    Measured on Gemma 3 270M, 26 tokens, <pad> baseline: logit(" Paris") misses by 26% with 16 points, 5% with 32,
    0.1% with 64; logit(" Paris") - logit(" Ulm") (two logits of ~66 whose difference is ~1) misses by 1650% with
    16, 260% with 32, 14% with 64 and 4% with 128. Returns the last round, with `tried` listing every round.
    """
    total = sum(schedule)
    done = 0
    result = None
    for steps in schedule:
        def step_progress(fraction: float, done=done, steps=steps) -> None:
            progress(min(1.0, (done + fraction * steps) / total))

        result = integrated_gradients(bundle, ids, target, steps=steps, progress=step_progress, baseline=baseline)
        done += steps
        if result.complete:
            break
    return replace(result, tried=tuple(schedule[: schedule.index(result.steps) + 1]))


def gradient_x_input(bundle: ModelBundle, ids: list[int], target: Target, baseline: int | None = None
                     ) -> InputAttribution:
    """The gradient at the real input times (input - baseline), per token, summed over the embedding.

    One forward and one backward pass. It equals integrated gradients with one step taken at the input's
    end of the path, so its completeness residual shows how far the function is from linear.
    """
    with bundle.engine.exclusive(grad=True) as model:
        emb = model.get_input_embeddings()
        body = _body(model)
        x = emb(torch.tensor([ids], device=bundle.device)).detach().requires_grad_(True)  # [1, T, D]
        x0 = emb(torch.tensor([baseline_ids(bundle, ids, baseline)], device=bundle.device)).detach()
        value = _explained(model, target, body(inputs_embeds=x, use_cache=False).last_hidden_state[:, -1])
        (grad,) = torch.autograd.grad(value.sum(), x)
        with torch.no_grad():
            base_value = _explained(model, target, body(inputs_embeds=x0, use_cache=False).last_hidden_state[:, -1])
    scores = (grad * (x - x0).detach())[0].double().sum(-1).cpu().numpy()  # [T]
    return InputAttribution(method="gxi", scores=scores, value=float(value.detach()), baseline_value=float(base_value),
                            steps=1)


def attribute(bundle: ModelBundle, ids: list[int], target: Target, method: str,
              schedule: tuple[int, ...] = IG_SCHEDULE, progress: Progress = _noop, baseline: int | None = None
              ) -> InputAttribution:
    """Integrated gradients until complete ("ig") or gradient x (input - baseline) ("gxi")."""
    if method == "ig":
        return integrated_gradients_until_complete(bundle, ids, target, schedule=schedule, progress=progress,
                                                   baseline=baseline)
    if method == "gxi":
        return gradient_x_input(bundle, ids, target, baseline=baseline)
    raise ValueError(f"`method` has to be one of {METHODS}, but is {method!r}")


# ---------------------------------------------------------------- direct logit attribution


@dataclass(frozen=True)
class LogitAttribution:
    """The final residual stream at the last position, cut into what each part of the model added,
    each part projected on the target's unembedding direction through the final norm with its scale frozen.

    L = layers, H = heads. Values in logit units (float64).
    """

    embed: float  # the token embeddings (Gemma: scaled by sqrt(D))
    attn: np.ndarray  # [L] what each layer's attention added
    mlp: np.ndarray  # [L] what each layer's MLP added
    heads: np.ndarray  # [L, H] each head's share of attn (Gemma: post-attention norm's scale frozen too)
    logit: float  # the model's own explained number (from its logits)
    lens: np.ndarray  # [L+1] logit lens for the target: residual after l layers, through the final norm
    softcapped: bool  # True when the model squashes its logits (then `total` is before the squash)

    @property
    def total(self) -> float:
        return float(self.embed + self.attn.sum() + self.mlp.sum())

    @property
    def cumulative(self) -> np.ndarray:
        """[L+1] running total: embeddings, then + each layer's attention and MLP (final norm's scale)."""
        return self.embed + np.concatenate([[0.0], np.cumsum(self.attn + self.mlp)])


def _norm_parts(norm: torch.nn.Module, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """An RMSNorm as scale(x) * gain: (scale [..., 1] from x, gain [D]). The scale is what gets frozen."""
    eps = getattr(norm, "eps", None) or getattr(norm, "variance_epsilon", 1e-6)
    x = x.double()
    scale = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
    w = norm.weight.detach().double()
    gain = 1.0 + w if type(norm).__name__ in GEMMA_NORMS else w
    return scale, gain


def dla_names(n_layers: int) -> set[str]:
    names = {"blocks.0.hook_resid_pre", "ln_final.hook_normalized"}
    for layer in range(n_layers):
        names |= {f"blocks.{layer}.hook_attn_out", f"blocks.{layer}.hook_mlp_out", f"blocks.{layer}.attn.hook_z",
                  f"blocks.{layer}.attn.hook_out", f"blocks.{layer}.hook_resid_post"}
    return names


def head_outputs(bundle: ModelBundle, cache: ActivationCache, layer: int, pos: int = -1) -> torch.Tensor:
    """[H, D] what each head adds to the residual stream at `pos`: its slice of o_proj applied to its own
    output, then (Gemma) the post-attention norm with the scale of the heads' sum frozen. Sums to attn_out."""
    block = layers_of(bundle.weights)[layer]
    info = bundle.info
    z = cache[f"blocks.{layer}.attn.hook_z"][pos].double()  # [H, hd]
    w_o = block.self_attn.o_proj.weight.detach().double()  # [D, H*hd]
    w_o = w_o.reshape(w_o.shape[0], info.n_heads, info.head_dim)  # [D, H, hd]
    per_head = torch.einsum("hk,dhk->hd", z, w_o)  # [H, D]
    if gemma_style(block):
        scale, gain = _norm_parts(block.post_attention_layernorm, cache[f"blocks.{layer}.attn.hook_out"][pos])
        per_head = per_head * scale * gain
    return per_head


def direct_logit_attribution(bundle: ModelBundle, ids: list[int], target: Target) -> LogitAttribution:
    """One forward pass (activation cache), then every part's contribution to the target's logit.

    Exact part: the final residual stream is the sum of the embeddings and of what each attention and MLP
    added. Approximate part: the final norm divides by the length of the whole stream; that scale is frozen
    at its real value, so the parts sum to the real logit, but a part's number ignores how it changed the scale.
    """
    model = bundle.weights
    n = bundle.info.n_layers
    cache = run_with_cache(bundle, ids, names=dla_names(n), keep_logits=False)
    resid = cache[f"blocks.{n - 1}.hook_resid_post"][-1]  # [D]
    scale, gain = _norm_parts(final_norm_of(model), resid)
    u = target.direction(model).double() * gain * scale  # [D] the frozen map from stream to logit
    read = lambda v: float(v[-1].double() @ u)  # noqa: E731
    attn = np.array([read(cache[f"blocks.{layer}.hook_attn_out"]) for layer in range(n)])
    mlp = np.array([read(cache[f"blocks.{layer}.hook_mlp_out"]) for layer in range(n)])
    heads = np.stack([(head_outputs(bundle, cache, layer) @ u).numpy() for layer in range(n)])
    with torch.inference_mode():
        normed = cache["ln_final.hook_normalized"][-1:]  # [1, D] what the head really read
        logit = float(_explained(model, target, normed.to(model.get_output_embeddings().weight.dtype))[0])
    return LogitAttribution(embed=read(cache["blocks.0.hook_resid_pre"]), attn=attn, mlp=mlp, heads=heads,
                            logit=logit, lens=lens_logits(bundle, cache, target), softcapped=bool(_softcap(model)))


def lens_logits(bundle: ModelBundle, cache: ActivationCache, target: Target) -> np.ndarray:
    """[L+1] the logit lens for the target: the stream after 0..L layers through the final norm (each with
    its own scale) and the head, as the pipeline page's lens does."""
    model = bundle.weights
    n = bundle.info.n_layers
    streams = [cache["blocks.0.hook_resid_pre"][-1]] + [cache[f"blocks.{i}.hook_resid_post"][-1] for i in range(n)]
    out = []
    for x in streams:
        scale, gain = _norm_parts(final_norm_of(model), x)
        out.append(float((x.double() * scale * gain) @ target.direction(model).double()))
    return np.array(out)


# ---------------------------------------------------------------- attention beside attribution


@dataclass(frozen=True)
class Disagreement:
    position: int
    attention: float  # share of the query's attention on this token
    attribution: float  # share of the total |attribution| on this token (signed share in `signed`)
    signed: float


def attention_row(cache_or_patterns, layer: int | None, head: int | None) -> np.ndarray:
    """[T] where the last position looks: one head, a layer's average, or the average of all heads (None)."""
    pats = np.asarray(cache_or_patterns)  # [L, H, T, T]
    pats = pats if layer is None else pats[layer : layer + 1]
    pats = pats if head is None else pats[:, head : head + 1]
    return pats[:, :, -1].mean(axis=(0, 1))


def disagreements(attention: np.ndarray, scores: np.ndarray, n: int = 3, skip_first: bool = True
                  ) -> tuple[Disagreement, ...]:
    """The tokens where the attention share and the attribution share (|score| / sum |score|) differ most.

    <bos> is skipped by default: the integrated-gradients baseline keeps it, so its attribution is 0 by
    construction, while many heads rest their attention there.
    """
    mag = np.abs(scores)
    share = mag / mag.sum() if mag.sum() > 0 else mag
    signed = scores / mag.sum() if mag.sum() > 0 else scores
    gap = np.abs(share - attention)
    order = [int(i) for i in np.argsort(-gap, kind="stable") if not (skip_first and i == 0)]
    return tuple(Disagreement(position=i, attention=float(attention[i]), attribution=float(share[i]),
                              signed=float(signed[i])) for i in order[:n])


# ---------------------------------------------------------------- induction heads


@dataclass(frozen=True)
class Induction:
    """A random token sequence seen twice: [<bos>, s_0..s_{n-1}, s_0..s_{n-1}]."""

    ids: tuple[int, ...]  # [2n + 1]
    n: int
    loss: np.ndarray  # [2n] cross-entropy (nats) of predicting token i+1 at position i
    scores: np.ndarray  # [L, H] mean attention from each second-copy token to the token after its first copy
    patterns: np.ndarray  # [L, H, T, T] (float32) so one head can be opened as a heatmap

    def top(self, k: int = 3) -> list[tuple[int, int, float]]:
        """(layer, head, score) of the k highest-scoring heads."""
        flat = np.argsort(-self.scores, axis=None, kind="stable")[:k]
        return [(int(i // self.scores.shape[1]), int(i % self.scores.shape[1]), float(self.scores.flat[i]))
                for i in flat]


def word_like_ids(tokenizer, limit: int = 40_000) -> list[int]:
    """Ids of ordinary lower-case word pieces ("▁casa"), the pool the random sequence is drawn from."""
    vocab = tokenizer.get_vocab()
    out = []
    for piece, i in vocab.items():
        if i >= limit:
            continue
        word = piece[1:] if piece[:1] in ("▁", "Ġ") else None
        if word and 3 <= len(word) <= 9 and word.isascii() and word.isalpha() and word.islower():
            out.append(i)
    return sorted(out)


def random_sequence(tokenizer, n: int, seed: int) -> list[int]:
    pool = word_like_ids(tokenizer)
    if len(pool) < n:
        pool = [i for i in range(len(tokenizer)) if i not in set(tokenizer.all_special_ids)]
    rng = np.random.default_rng(seed)
    return [int(i) for i in rng.choice(pool, size=n, replace=False)]


def induction_scores(patterns: np.ndarray, n: int) -> np.ndarray:
    """[L, H] from patterns [L, H, T, T] over [<bos>, s, s]: the query at 1+n+j (s_j again) looking at
    1+j+1 (what followed s_j the first time), averaged over j."""
    q = np.arange(1 + n, 1 + 2 * n)
    return patterns[:, :, q, q - n + 1].mean(axis=-1)


def induction(bundle: ModelBundle, n: int = 20, seed: int = 0) -> Induction:
    """Run [<bos>, s, s] once (activation cache: patterns and logits) and score every head."""
    seq = random_sequence(bundle.tokenizer, n, seed)
    bos = bundle.tokenizer.bos_token_id
    ids = ([bos] if bos is not None else []) + seq + seq
    n_layers = bundle.info.n_layers
    names = {f"blocks.{layer}.attn.hook_pattern" for layer in range(n_layers)}
    cache = run_with_cache(bundle, ids, names=names)
    logp = torch.log_softmax(cache.logits[:-1].double(), dim=-1)  # [T-1, V]
    loss = -logp[torch.arange(len(ids) - 1), torch.tensor(ids[1:])].numpy()
    pats = cache.stack("blocks.{l}.attn.hook_pattern", n_layers).numpy()
    if bos is None:  # keep the [<bos>, s, s] positions the score assumes
        raise ValueError("the induction test needs a tokenizer with a <bos> token")
    return Induction(ids=tuple(ids), n=n, loss=loss, scores=induction_scores(pats, n), patterns=pats)
