"""The autoregressive loop, one step at a time: prefill, then decode with the KV cache."""
from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator

import numpy as np
import torch

from model_backend.core.kv import kv_cache_bytes
from model_backend.core.sampling import choose, kept_count, run_chain
from model_backend.core.stats import entropy_bits, log_prob
from model_backend.core.tokens import safe_text, token_info, token_infos
from model_backend.core.tracing import candidates, encode
from model_backend.runtime.loading import ModelBundle
from model_backend.types import Generation, SamplingParams, Stage, Step
from model_backend.validation import check_params


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


# A step's own work (the sampling chain, the draw, the statistics: ~6 ms on 262,144 scores) runs for at most as many
# runs at once as the machine has cores. With a class's 30 runs doing it at once after each batched pass, a row's
# work cost 14 ms instead of 6 (why was not measured: the caches, or Python's lock among 30 threads); in-process, 30
# loop runs of 20 tokens cost 11.8-12.4 CPU-s and 8.9-9.2 s; with the work two at a time on the 2-core EPYC, 8.6-10.3
# CPU-s and 7.8-9.2 s (one at a time: 10.2-10.4 s). docs/engine-bench.md, "A step's own work, cut again".
STEP_WORK = threading.BoundedSemaphore(_cores())


def _stages(stage_scores, top_ids: torch.Tensor) -> tuple[Stage, ...]:
    out = []
    for s in stage_scores:
        probs = s.probs[0]
        out.append(Stage(name=s.name, probs=tuple(probs[top_ids].tolist()), kept=kept_count(s.scores),
                         entropy_bits=entropy_bits(probs)))
    return tuple(out)


def _stop_hit(text: str, stops: tuple[str, ...]) -> tuple[int, str] | None:
    """Earliest stop sequence in text: (index where it starts, the sequence)."""
    hits = [(text.find(s), s) for s in stops if s in text]
    return min(hits) if hits else None


def finish_reason(token_id: int, eos: set[int] | frozenset[int], hit: tuple[int, str] | None, index: int,
                  max_new_tokens: int) -> str | None:
    """The loop's one stop rule: why it ends after step `index` (0-based), or None if it goes on.

    "stop": the model wrote an end-of-sequence token; "stop_sequence": the text now holds a stop sequence
    (`hit`, from _stop_hit); "length": that was the max_new_tokens-th token. Checked in this order.
    """
    if token_id in eos:
        return "stop"
    if hit:
        return "stop_sequence"
    if index + 1 >= max_new_tokens:
        return "length"
    return None


def iter_generation(bundle: ModelBundle, prompt: str, params: SamplingParams, *, top_n: int = 10,
                    max_prompt_tokens: int = 512, max_new_cap: int = 256,
                    record_attentions: bool = False) -> Iterator[Step | Generation]:
    """Generate token by token, yielding each Step as it is made, then the finished Generation.

    The first step runs the whole prompt at once (prefill) and fills the KV cache; every later
    step feeds only the newest token (decode) and reads the cache. Only the last position's
    logits are computed, as generate() does.
    """
    check_params(params, max_new_cap)
    ids, truncated_from = encode(bundle, prompt, max_prompt_tokens)
    seed = None if params.greedy else (params.seed if params.seed is not None else
                                       int.from_bytes(os.urandom(4), "little") & 0x7FFFFFFF)
    generator = None
    if seed is not None:
        generator = torch.Generator(device=bundle.device).manual_seed(seed)
    special = frozenset(bundle.tokenizer.all_special_ids)
    eos = set(bundle.info.eos_token_ids)
    context = torch.tensor([ids], device=bundle.device)  # [1, S] grows by one each step
    step_input, past, generated, steps = context, None, [], []
    finish, stop_seq, completion, prefill_ms = None, None, "", 0.0
    with bundle.engine.run() as run:  # its steps meet the other runs of its pass (engine.Engine.run)
        for index in range(params.max_new_tokens):
            started = time.perf_counter()
            if past is None:  # prefill: the whole prompt, batched with other visitors' new prompts of the moment
                out = bundle.prefill(step_input, output_attentions=record_attentions, run=run)
            else:  # decode: one token, batched with other visitors' steps waiting at the same moment
                out = bundle.decode(step_input, past, output_attentions=record_attentions, run=run)
            past = out.past_key_values
            logits = out.logits[:, -1, :].to(torch.float32)  # [1, V]: only the last position matters
            with STEP_WORK, torch.inference_mode():
                stage_scores = run_chain(context, logits, params)
                next_id = choose(stage_scores[-1], params, generator)
                raw = stage_scores[0].probs[0]
                top = candidates(bundle.tokenizer, logits[0], top_n, probs=raw)
                top_ids = torch.tensor([c.id for c in top], device=raw.device)
                step_attn = None
                if record_attentions and out.attentions:
                    step_attn = torch.stack([a[0, :, -1, :] for a in out.attentions]).float().cpu().numpy()
                if raw.device.type == "cpu":  # counted in numpy: one thread and no torch call, 30 visitors at once
                    raw_np = raw.numpy()
                    prob, rank = float(raw_np[next_id]), int(np.count_nonzero(raw_np > raw_np[next_id])) + 1
                else:
                    prob, rank = float(raw[next_id]), int((raw > raw[next_id]).sum()) + 1
                logprob = log_prob(logits[0], next_id)  # from the logits: log(prob) is -inf once prob underflows
                sampled = float(stage_scores[-1].probs[0, next_id])
                stages = _stages(stage_scores, top_ids)
                ent = stages[0].entropy_bits  # stage 0 is the raw distribution: its entropy is computed once
            ms = (time.perf_counter() - started) * 1000
            if index == 0:
                prefill_ms = ms
            generated.append(next_id)
            context = torch.cat([context, torch.tensor([[next_id]], device=bundle.device)], dim=1)
            step_input = context[:, -1:]
            text = safe_text(bundle.tokenizer.decode([g for g in generated if g not in eos],
                                                     skip_special_tokens=False))
            hit = _stop_hit(text, params.stop)
            completion = text[: hit[0]] if hit else text
            finish = finish_reason(next_id, eos, hit, index, params.max_new_tokens)
            step = Step(index=index, phase="prefill" if index == 0 else "decode",
                        token=token_info(bundle.tokenizer, next_id, special), prob=prob, logprob=logprob, sampled_prob=sampled,
                        rank=rank, entropy_bits=ent, top=top, stages=stages, ms=ms,
                        kv_cache_bytes=kv_cache_bytes(past), text=completion, finish_reason=finish,
                        attentions=None if step_attn is None else np.ascontiguousarray(step_attn))
            steps.append(step)
            if finish:
                stop_seq = hit[1] if finish == "stop_sequence" else None
                break
            yield step
    yield steps[-1]  # the last step, with its finish_reason, after the run has ended: no pass waits for it
    yield Generation(prompt_tokens=token_infos(bundle.tokenizer, ids), truncated_from=truncated_from,
                     steps=tuple(steps), completion=completion, finish_reason=finish, stop_sequence=stop_seq,
                     prefill_ms=prefill_ms, seed=seed, params=params, info=bundle.info)


def generate(bundle: ModelBundle, prompt: str, params: SamplingParams, **kwargs) -> Generation:
    """Run the whole loop and return the finished Generation."""
    result = None
    for event in iter_generation(bundle, prompt, params, **kwargs):
        result = event
    assert isinstance(result, Generation)
    return result
