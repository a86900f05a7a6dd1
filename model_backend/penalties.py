"""Two kinds of penalty against repetition, run live with generate(): the API kind that subtracts
(frequency and presence) and transformers' repetition penalty that divides."""
from __future__ import annotations

from dataclasses import dataclass

import torch
from transformers import LogitsProcessorList, RepetitionPenaltyLogitsProcessor

from .loading import ModelBundle
from .sampling import FrequencyPresencePenaltyLogitsProcessor
from .sampling_views import counted, find_loop
from .text import safe_text
from .tracing import encode


@dataclass(frozen=True)
class PenaltyRun:
    """One greedy generation under one penalty."""

    kind: str  # "none", "multiplicative" or "subtractive"
    completion: str
    token_ids: tuple[int, ...]
    loop_period: int  # the repeating cycle at the end (0: none)
    loop_repeats: int
    counted: int  # for a counting prompt: numbers continued correctly (see sampling_views.counted)


def processors(kind: str, prompt_length: int, repetition: float = 1.0, frequency: float = 0.0,
               presence: float = 0.0) -> LogitsProcessorList:
    """The penalty as a logits processor: transformers' own, or the subtractive one with the API formula."""
    if kind == "multiplicative":
        return LogitsProcessorList([RepetitionPenaltyLogitsProcessor(repetition)])
    if kind == "subtractive":
        return LogitsProcessorList([FrequencyPresencePenaltyLogitsProcessor(frequency, presence, prompt_length)])
    return LogitsProcessorList()


def greedy_run(bundle: ModelBundle, prompt: str, kind: str, max_new_tokens: int, count_from: int = 0,
               max_prompt_tokens: int = 512, **penalty) -> PenaltyRun:
    """generate(do_sample=False) with one penalty processor, holding the model's queue lock."""
    ids, _ = encode(bundle, prompt, max_prompt_tokens)
    input_ids = torch.tensor([ids], device=bundle.device)  # [1, S]
    eos = bundle.tokenizer.eos_token_id
    with bundle.lock, torch.inference_mode():
        bundle.forward_passes += 1
        out = bundle.model.generate(input_ids=input_ids, attention_mask=torch.ones_like(input_ids),
                                    do_sample=False, max_new_tokens=max_new_tokens,
                                    logits_processor=processors(kind, len(ids), **penalty),
                                    pad_token_id=eos, top_k=None, top_p=None, temperature=None)
    new = tuple(int(i) for i in out[0, len(ids):])
    text = safe_text(bundle.tokenizer.decode(list(new), skip_special_tokens=True))
    loop = find_loop(list(new))
    return PenaltyRun(kind=kind, completion=text, token_ids=new, loop_period=loop.period, loop_repeats=loop.repeats,
                      counted=counted(text, count_from) if count_from else 0)
