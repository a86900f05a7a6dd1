"""The nondeterminism page's computations: the sampled runs every visitor shares, one vector summed in several
orders, and the model computed two ways (two dtypes, alone and in a batch, two devices). Nothing here draws; what
it returns is data (frozen dataclasses)."""
from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass

import torch

import model_backend as mb
from model_backend.lessons import nondeterminism as nd
from model_backend.runtime.memo import cached
from ui import backend


def max_prompt_tokens() -> int:
    """The server's prompt limit (MAX_PROMPT_TOKENS): the most tokens a run reads."""
    return backend.settings().max_prompt_tokens


def model() -> mb.ModelBundle:
    """The visitor's model (loaded once per process and shared)."""
    return backend.bundle_for()


def has_gpu() -> bool:
    """Whether this server has a CUDA GPU, so the model can also be computed on it."""
    return torch.cuda.is_available()


# ---------------------------------------------------------------- 1. sampled runs

# Sampled runs already made, shared by every visitor of the process: each (model, dtype, prompt, settings, seeds)
# is computed once even when many ask at the same moment, and ready_runs() can tell whether it is there without
# computing or waiting (peek).
@backend.on_model(max_entries=64, ttl=None, queued=False)
def _sampled_runs(model: mb.ModelBundle, prompt: str, params: mb.SamplingParams, run_seeds: tuple[int, ...],
                  max_prompt: int) -> nd.SampledRuns:
    return nd.sample_runs(model, prompt, params, run_seeds, max_prompt)


def ready_runs(prompt: str, params: mb.SamplingParams, run_seeds: list[int]) -> nd.SampledRuns | None:
    """These runs if someone has already made them (computes nothing, waits for nothing)."""
    return _sampled_runs.peek(prompt, params, tuple(run_seeds), max_prompt_tokens())


def sampled_runs(prompt: str, params: mb.SamplingParams, run_seeds: list[int], busy=nullcontext) -> nd.SampledRuns:
    """Every run of the prompt, decoded together as one batch (kept per prompt, settings and seeds).

    `busy()` is a context entered while the runs are computed or awaited (the page's spinner), never when they
    are ready."""
    found = ready_runs(prompt, params, run_seeds)
    if found is not None:
        return found
    with backend.queue_notice(backend.bundle_for()), busy():
        return _sampled_runs(prompt, params, tuple(run_seeds), max_prompt_tokens())


# ---------------------------------------------------------------- 3. floating point

# The sums are the same for every model and visitor: kept without the model (backend.on_model would load it
# before the float section could be drawn), each size computed once (1,000,000 numbers: about 0.2 s).
@cached(8)
def vector_sums(n: int) -> tuple[tuple[nd.OrderedSum, ...], float]:
    """One [n] float32 vector (seed 0) added up in every order, and its exact sum."""
    return nd.sums_in_orders(nd.random_vector(n, seed=0), seed=0)


# ---------------------------------------------------------------- 3. the model, two ways


@backend.on_model(max_entries=16)
def _alone(model: mb.ModelBundle, prompt: str, n: int, way: str, max_prompt: int) -> nd.GreedyRun:
    return nd.run_alone(model, prompt, n, way, max_prompt)


@backend.on_model(max_entries=16)
def _in_batch(model: mb.ModelBundle, prompt: str, n: int, max_prompt: int) -> nd.GreedyRun:
    return nd.run_in_batch(model, prompt, n, "batch", nd.BATCH_FILLERS, max_prompt)


@backend.on_model(max_entries=2, ttl=None, seal_values=False, queued=False)
def _device_copy(model: mb.ModelBundle, device: str) -> mb.ModelBundle:
    """The visitor's model in float32 loaded again on `device`, once per process and shared. `model` is the same
    model on the server's own device: its (spec, dtype) make the key, and the spec is the visitor's."""
    return mb.load_bundle(backend.current_model(), "float32", device, settings=backend.settings())


# Not queued: the copy on `device` has its own queue, not the one the notice would report.
@backend.on_model(max_entries=8, queued=False)
def _on_device(model: mb.ModelBundle, device: str, prompt: str, n: int, max_prompt: int,
               _copy: mb.ModelBundle) -> nd.GreedyRun:
    return nd.run_alone(_copy, prompt, n, device, max_prompt)


def _run_on(device: str, prompt: str, n: int, max_prompt: int) -> nd.GreedyRun:
    """The float32 model loaded again on `device`, the prompt alone and greedy (cached per model and arguments)."""
    return _on_device(device, prompt, n, max_prompt, _device_copy(device, dtype="float32"), dtype="float32")


@dataclass(frozen=True)
class Comparison:
    """The same prompt computed two ways. kind: "dtype" (float32 against bfloat16), "batch" (float32 alone against
    float32 in a batch with nd.BATCH_FILLERS) or "device" (float32 on the CPU against the GPU)."""
    kind: str
    result: nd.TwoWays


def comparisons(prompt: str, n: int, progress=lambda fraction, way: None) -> tuple[Comparison, ...]:
    """Run (or fetch from the cache) every comparison, greedy for n tokens: float32 against bfloat16, alone against
    in a batch and, on a server with a GPU, CPU against GPU. `progress(fraction, way)` is told before each way
    runs (way: "float32", "bfloat16", "batch", "cpu" or "cuda")."""
    max_prompt = max_prompt_tokens()
    steps = [("float32", lambda: _alone(prompt, n, "float32", max_prompt, dtype="float32")),
             ("bfloat16", lambda: _alone(prompt, n, "bfloat16", max_prompt, dtype="bfloat16")),
             ("batch", lambda: _in_batch(prompt, n, max_prompt, dtype="float32"))]
    if has_gpu():
        steps += [("cpu", lambda: _run_on("cpu", prompt, n, max_prompt)),
                  ("cuda", lambda: _run_on("cuda", prompt, n, max_prompt))]
    done = {}
    for i, (way, work) in enumerate(steps):
        progress(i / len(steps), way)
        done[way] = work()
    pairs = [("dtype", "float32", "bfloat16"), ("batch", "float32", "batch")]
    if "cuda" in done:
        pairs.append(("device", "cpu", "cuda"))
    return tuple(Comparison(kind, nd.compare(done[a], done[b])) for kind, a, b in pairs)
