"""The model engine: the one owner of a loaded model's passes, and where visitors' decode steps meet.

Every pass runs under the engine's first-come-first-served lock (queueing.FifoLock), one at a time. A decode step
(one new token against a visitor's own KV cache) is batchable: steps that wait while another pass runs are taken
together by whichever of them gets the lock first, and run as one batched pass (iteration-level scheduling, as
in Orca and vLLM: a new run joins at the next step, a finished one simply stops asking). One visitor's step alone
runs exactly as it did before the engine: the same call, the same numbers.

A batched step left-pads every cache to the longest one and masks the padding; each row keeps its own positions
(RoPE), and its new key and value are appended to its own cache afterwards, so a visitor's cache never holds
another's tokens. A cache that a sliding-window layer has already cut (more than sliding_window - 2 tokens) runs
alone, so that no window is ever shifted by padding.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from types import SimpleNamespace

import torch
import torch.nn.functional as F
from transformers import DynamicCache

from model_backend.runtime.queueing import FifoLock

MAX_BATCH = 32  # decode steps in one pass at most: a class of 30, and a little room


@dataclass
class _Step:
    """One visitor's decode step, waiting for a pass."""

    input_ids: torch.Tensor  # [1, 1] the newest token
    past: DynamicCache  # the visitor's own cache, batch of 1; the new key and value are appended to it
    attentions: bool  # return the step's attention weights
    done: bool = False
    out: SimpleNamespace | None = None
    error: BaseException | None = None


class Engine:
    """Runs a model's passes one at a time, and batches the decode steps of concurrent visitors.

    `passes` counts forward passes (a batched step is one pass); `batched_steps` counts the steps that ran in a
    pass with others, and `widest` the largest batch so far, so that a bench or a test can see batching happen.
    """

    def __init__(self, model: torch.nn.Module, max_batch: int = MAX_BATCH) -> None:
        self._model = model
        self.lock = FifoLock()
        self.max_batch = max_batch
        self.passes = 0
        self.batched_steps = 0
        self.widest = 1
        self._pending: list[_Step] = []
        self._guard = threading.Lock()  # guards _pending; never held during a pass

    @property
    def model(self) -> torch.nn.Module:
        return self._model

    def forward(self, **inputs):
        """One pass of the model, alone, under inference mode (prefill, traces, anything but a decode step)."""
        with self.lock, torch.inference_mode():
            self.passes += 1
            return self._model(**inputs)

    def decode(self, input_ids: torch.Tensor, past: DynamicCache, output_attentions: bool = False) -> SimpleNamespace:
        """One decode step: the logits of the next token after `input_ids` ([1, 1]) given the visitor's `past`,
        which gains the token's key and value. Returns what the model's output has: logits [1, 1, V],
        past_key_values (the same `past`), attentions (one [1, heads, 1, keys] per layer, or None)."""
        step = _Step(input_ids=input_ids, past=past, attentions=output_attentions)
        with self._guard:
            self._pending.append(step)
        with self.lock:
            if not step.done:
                with self._guard:
                    batch = self._take(step)
                self._run(batch)
        if step.error is not None:
            raise step.error
        return step.out

    # ---- inside the lock

    def _batchable(self, step: _Step) -> bool:
        past = step.past
        layers = getattr(past, "layers", None)
        if not isinstance(past, DynamicCache) or not layers or layers[0].keys is None:
            return False
        window = getattr(self._model.config, "sliding_window", None) or 0
        length = layers[0].keys.shape[-2]
        if any(layer.keys.shape[-2] != length for layer in layers):
            return False  # a sliding layer has cut its window already
        return not window or length <= window - 2  # after this step the window is still whole

    def _take(self, first: _Step) -> list[_Step]:
        """The steps to run now: `first`, and when it can be batched, every other waiting step that can, in
        arrival order, up to max_batch. The taken ones leave the waiting list."""
        if not self._batchable(first):
            self._pending.remove(first)
            return [first]
        batch = [first]
        for s in self._pending:
            if len(batch) >= self.max_batch:
                break
            if s is not first and s.attentions == first.attentions and self._batchable(s):
                batch.append(s)
        taken = {id(s) for s in batch}
        self._pending = [s for s in self._pending if id(s) not in taken]
        return batch

    def _run(self, batch: list[_Step]) -> None:
        try:
            with torch.inference_mode():
                self.passes += 1
                if len(batch) == 1:
                    s = batch[0]
                    out = self._model(input_ids=s.input_ids, past_key_values=s.past, use_cache=True,
                                      output_attentions=s.attentions, logits_to_keep=1)
                    s.out = SimpleNamespace(logits=out.logits, past_key_values=out.past_key_values,
                                            attentions=out.attentions if s.attentions else None)
                else:
                    self._run_batched(batch)
                    self.batched_steps += len(batch)
                    self.widest = max(self.widest, len(batch))
        except Exception as exc:  # noqa: BLE001  every waiting visitor gets the error, none waits forever
            for s in batch:
                s.error = exc
        finally:
            for s in batch:
                s.done = True

    def _run_batched(self, batch: list[_Step]) -> None:
        lengths = [s.past.layers[0].keys.shape[-2] for s in batch]
        longest = max(lengths)
        device = batch[0].input_ids.device
        cache = DynamicCache(config=self._model.config)
        for index in range(len(batch[0].past.layers)):
            keys = [F.pad(s.past.layers[index].keys, (0, 0, longest - n, 0)) for s, n in zip(batch, lengths)]
            values = [F.pad(s.past.layers[index].values, (0, 0, longest - n, 0)) for s, n in zip(batch, lengths)]
            cache.update(torch.cat(keys), torch.cat(values), index)
        mask = torch.zeros(len(batch), longest + 1, dtype=torch.long, device=device)
        for row, n in enumerate(lengths):
            mask[row, longest - n:] = 1  # the padding is on the left; the new token is the last column
        out = self._model(input_ids=torch.cat([s.input_ids for s in batch]), attention_mask=mask,
                          position_ids=torch.tensor([[n] for n in lengths], device=device),
                          cache_position=torch.tensor([longest], device=device), past_key_values=cache,
                          use_cache=True, output_attentions=batch[0].attentions, logits_to_keep=1)
        for row, (s, n) in enumerate(zip(batch, lengths)):
            for index, layer in enumerate(cache.layers):
                s.past.update(layer.keys[row:row + 1, :, -1:, :], layer.values[row:row + 1, :, -1:, :], index)
            attn = None
            if s.attentions and out.attentions:
                attn = tuple(a[row:row + 1, :, :, longest - n:] for a in out.attentions)
            s.out = SimpleNamespace(logits=out.logits[row:row + 1], past_key_values=s.past, attentions=attn)
