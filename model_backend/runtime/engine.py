"""The model engine: the one owner of a loaded model's passes, and where visitors' prefills and decode steps meet.

Every pass runs under the engine's lock (queueing.FairLock: visitors in turn, round-robin), one at a time. A prefill
(a new prompt, no cache yet) and a decode step (one new token per row against the visitor's own KV cache) are
batchable: those that wait while another pass runs are taken together by whichever of them gets the lock first,
and run as one batched pass (iteration-level scheduling, as in Orca and vLLM: a new run joins at the next step, a
finished one simply stops asking). Prefills batch with prefills, decode steps with decode steps. One visitor's
one-row step alone runs exactly as it did before the engine: the same call, the same numbers.

A request may have several rows of its own (the nondeterminism page's runs of one prompt, the beams of a beam
search); all its rows have the same length. Such a request runs the batched way even when it is alone, so that its
rows get the same numbers alone as beside other visitors' (a padded batch's attention otherwise splits its sums
another way than the request's own rows do: a 4-row request's logits moved by 0.25 in bfloat16 when another
visitor's step joined it). In a batched pass each row keeps its own positions (RoPE), and its attention runs on its
own keys (invariance.py), so that its numbers are those it gets alone. Nothing is padded (invariance.Own, where the
model allows it: Gemma 3 does): a prefill pass packs every prompt's tokens into one sequence and computes those
tokens only, and each request gets a cache of its own; a decode pass has one row per row, and each request's new
keys and values go straight into the cache it brought. So a visitor's cache never holds another's tokens. (A pass
that returns attention weights, or a model without Own, left-pads every request to the longest one, masks the
padding, and cuts each request's cache out of the batch's.) Anything a sliding-window layer could cut (a cache or a
prompt longer than sliding_window - 2 tokens) runs alone, so that no window is ever shifted.

A generation under way is a Run (`Engine.run`): before a decode pass, a run's step waits a moment (GATHER_S at most)
for the next steps of the other runs whose steps came back, so that a class's steps make one pass, not a lone row
and then the rest. The passes themselves run on one thread of their own (`_pass_thread`), with the machine's
intra-op threads (on a 2-core CPU the engine's decode steps run on a thread of their own with one: `_decode_thread`,
except a wide pass's output layer, `_head_on_pass_thread`; and a packed prefill's rows' attention runs on one of its
own, `_rows_thread`),
while the threads that start their torch work after them work on one.

transformers' generate() (beam search, penalties, any processor) runs in the visitor's own thread, and each of its
passes is handed to the engine as a prefill or a decode step like the loop's (the model's forward is routed while
that thread is inside `generate`): so the beams of one visitor and the greedy rows of another share a pass, and a
new visitor's generate() joins at the next step. A pass generate() asks for that is not such a step (padding,
attentions, several new tokens on a cache) runs alone. Sampling in generate() draws from torch's global generator,
which threads would share, so a sampled generate() batches only with its own `generator` (the draw is then made by
`Draw` from that generator, the same draw generate() makes from the global one); without one it runs alone.

The engine is the only door to the model (tests/unit/test_engine_owns_model.py):
- `forward`, `prefill`, `decode` and `generate` run passes; `exclusive()` holds the model for work that hooks it
  or needs its gradients (activation caches, Captum) or calls its parts (the logit lens, one layer's MLP);
- `weights` hands out the model for reading its parameters, configuration and structure only.
Every guarded module (the model, its body, the body's parts, each layer and each layer's parts) checks on each
call that the calling thread is inside one of those doors, and raises ModelOutsideEngine otherwise. The passes
are counted where they happen, in the body's pre-hook: a batched step, one generate() step, one Captum batch or
one gradient pass is one pass each.
"""
from __future__ import annotations

import functools
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from types import SimpleNamespace

import torch
import torch.nn.functional as F
from transformers import DynamicCache, LogitsProcessor, LogitsProcessorList, StoppingCriteria, StoppingCriteriaList
from transformers.modeling_outputs import CausalLMOutputWithPast

from model_backend.runtime import invariance, queueing
from model_backend.runtime.draw import multinomial_one
from model_backend.runtime.queueing import FairLock, Visitor

MAX_BATCH = 64  # rows in one batched pass at most: a class of 30 pressing, or a dozen "Run 5 times" at once
MAX_IN_FLIGHT = 3  # requests one visitor may have waiting or running at once (the decoding page runs three); more wait
GATHER_S = 0.25  # a decode pass waits at most this long for the other runs' next steps (see `Engine.run`)
STALE_S = 1.0  # not for a run whose last step came back longer ago than this
_inside = threading.local()  # .models: {id(model): depth} the models this thread may call now
MACHINE_THREADS = torch.get_num_threads()  # intra-op threads before `_pass_thread` (OMP_NUM_THREADS, or the cores)
# On two cores an engine decode pass on the CPU leaves one to the visitors' own step work (see `_decode_thread`);
# elsewhere it keeps the machine's threads, on the pass thread (other counts were not measured)
DECODE_THREADS = 1 if MACHINE_THREADS == 2 else MACHINE_THREADS
_pool_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_decode_pool: ThreadPoolExecutor | None = None  # the decode passes' thread, where it has fewer intra-op threads
_rows_pool: ThreadPoolExecutor | None = None  # a packed prefill's attention, on one intra-op thread (`_rows_thread`)
# a packed prefill whose prompts have at most this many tokens runs its attention on `_rows_thread` (the 2-core EPYC,
# in-process, one pass, rows thread against pass thread: 29 prompts of 21 tokens 233-262 against 293-310 ms, of 32
# 409-426 against 456-470, 20 of 64 561-621 against 580-590, 12 of 128 717-729 against 664-723, 8 of 256 1147-1169
# against 981-993: longer prompts' products are large enough to share)
ROWS_THREAD_TOKENS = 64
_pool_thread: list[int] = []  # the idents of the pass threads, once they run


def _pass_thread() -> ThreadPoolExecutor:
    """The one thread where every engine's passes run (passes of two models wait for each other), with the machine's
    intra-op threads, except the decode steps on a 2-core CPU (`_decode_thread`, beside it: there a decode pass of
    one model may run beside another model's pass); the calling thread, every thread whose first torch work comes
    later (torch reads the count per thread, at the first use), and every thread that asks the engine for work
    (`_one_intra_op_thread`) get one.

    Why (measured on the 2-core EPYC, docs/engine-bench.md, 2026-12-06): torch's OpenMP threads are kept per
    calling thread, and while any other live thread of the process holds an OpenMP team of its own, even an idle
    one, the small operators of a pass (attention's products and softmaxes, row by row) each cost ~100 us instead
    of ~10: a 30-row decode step took 420-450 ms instead of 185, and a one-row step 80 instead of 60. On a server
    every visitor's script thread used to run passes and its own sampling with two threads, so every pass paid it.
    Now the visitors' threads work on one thread each (the sampling chain of one row is serial anyway), and the
    passes run here, the one thread meant to have a team. `exclusive()` work (Captum, activation caches, the logit lens)
    and a routed generate()'s own work between its steps stay in the caller's thread, on one intra-op thread: with
    the machine's threads there instead, the why, hallucination and decoding presses alone stayed within the
    spread of the runs (two alternating runs each; why ~5% faster; docs/engine-bench.md)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = _started(MACHINE_THREADS, "tbt-engine-pass")
        return _pool


def _decode_thread() -> ThreadPoolExecutor:
    """The thread where the engine's decode passes on a 2-core CPU run, on one intra-op thread (DECODE_THREADS); on
    any other count, the pass thread itself.

    Why (the 2-core EPYC of docs/engine-bench.md, section "The draw, top-p's sort and a decode pass's threads"):
    between two decode passes of a class, the visitors' threads do their steps' own work (the sampling chain, the
    draw), and some of it runs on into the next pass. In a profile of a 30-row pass with a team of two, the
    row-by-row attention's 1,080 products and 540 softmaxes took 57-62 µs each, 98 ms of the pass's 249. With the
    decode passes on this thread, in-process, 30 loop presses took 9.9-10.9 s and 0.44-0.48 CPU-s a press, against
    12.5-13.4 s and 0.55-0.59 on the pass thread with two, and one visitor alone was as fast. The core the pass
    leaves is the step work's. Prefills and every other pass keep the machine's threads: a long prompt's products
    are large enough to share (the attention of a packed prefill of short prompts excepted: `_rows_thread`). A thread of its own, not a count switched on the pass thread: torch's
    set_num_threads also sets the count every new thread starts with, and visitors' threads must start on one.
    Only on two cores: with more, this thread's team would sit beside the pass thread's (see `_pass_thread`), and
    no other count was measured."""
    if DECODE_THREADS == MACHINE_THREADS:
        return _pass_thread()
    global _decode_pool
    _pass_thread()
    with _pool_lock:
        if _decode_pool is None:
            _decode_pool = _started(DECODE_THREADS, "tbt-engine-decode")
        return _decode_pool


def _rows_thread() -> ThreadPoolExecutor:
    """The thread where a packed prefill's rows' attention runs (invariance.Own's `elsewhere`), on one intra-op
    thread: on the pass thread's team, each of its ~1,000 small products and softmaxes cost ~50 us, here ~3. A thread
    of its own, not the decode thread: a decode pass there may be waiting for the pass thread (its output layer,
    `_head_on_pass_thread`) while the pass thread waits for this work; nothing here waits for another thread."""
    global _rows_pool
    with _pool_lock:
        if _rows_pool is None:
            _rows_pool = _started(1, "tbt-engine-rows")
        return _rows_pool


def _started(threads: int, name: str) -> ThreadPoolExecutor:
    """A one-thread pool whose thread works on `threads` intra-op threads; the process's default stays one."""
    def start() -> None:
        torch.get_num_threads()  # torch reads the process's count once per thread, at its first use: now,
        torch.set_num_threads(threads)  # so that this thread's own count stays when it changes
        _pool_thread.append(threading.get_ident())

    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name, initializer=start)
    pool.submit(lambda: None).result()
    torch.set_num_threads(1)  # the process's default (and this thread's) from now on
    return pool


def _one_intra_op_thread() -> None:
    """The calling thread, a visitor's asking the engine for work, works on one intra-op thread (see `_pass_thread`),
    whatever the process's count was when it started or has been set to since."""
    if torch.get_num_threads() != 1 and threading.get_ident() not in _pool_thread:
        torch.set_num_threads(1)


def _cpu_decode(batch: list) -> bool:
    ids = batch[0].input_ids
    return not batch[0].prefill and ids is not None and ids.device.type == "cpu"


def _on_pass_thread(fn, *args, decode: bool = False):
    """fn(*args) on the pass thread, or for decode=True on the decode passes' thread (inline when already on one of
    them), its exception raised here."""
    pool = _decode_thread() if decode else _pass_thread()
    if threading.get_ident() in _pool_thread:
        return fn(*args)
    return pool.submit(fn, *args).result()
_routing = threading.local()  # .engine: the engine whose generate() this thread is in (its passes become steps)


WIDE_HEAD_ROWS = 2  # a decode pass of this many rows or more computes its output layer on the pass thread


def _head_on_pass_thread(model: torch.nn.Module) -> None:
    """Where decode passes run on one intra-op thread (`_decode_thread`), their output layer runs on the pass thread,
    with the machine's threads, once a pass has WIDE_HEAD_ROWS rows: the one product large enough to share
    (262,144 x 640 for Gemma 3 270M: a 30-row step's took 35 ms on one thread, 16 on two, on the 2-core EPYC;
    a 30-row pass 86-104 -> 70-90 ms). Every other operator of the pass stays on one thread (with two, the pass's
    hundreds of small operators took 150 ms). The same function on the same input: the same numbers.
    The head is handed over between threads, not given more threads where it is: torch's set_num_threads also sets
    the count every new thread starts with (see `_decode_thread`)."""
    if DECODE_THREADS == MACHINE_THREADS or not hasattr(model, "get_output_embeddings"):
        return
    head = model.get_output_embeddings()
    if not isinstance(head, torch.nn.Module) or getattr(head, "_tbt_wide", False):
        return
    original = head.forward

    def on_pass_thread(x: torch.Tensor) -> torch.Tensor:
        with torch.inference_mode():
            return original(x)

    def forward(x: torch.Tensor) -> torch.Tensor:
        if (x.device.type != "cpu" or x.shape[:-1].numel() < WIDE_HEAD_ROWS or not torch.is_inference_mode_enabled()
                or not threading.current_thread().name.startswith("tbt-engine-decode")):
            return original(x)
        head._tbt_handed += 1
        return _pass_thread().submit(on_pass_thread, x).result()

    head.forward = forward
    head._tbt_wide, head._tbt_handed = True, 0  # installed; passes whose output layer ran on the pass thread


class ModelOutsideEngine(RuntimeError):
    """A module of an engine's model was called by code that did not go through the engine."""


def _body(model: torch.nn.Module) -> torch.nn.Module:
    """The transformer under the head (model.model for the causal-LM classes), or the model itself."""
    return getattr(model, "model", None) or getattr(model, "base_model", None) or model


def guarded_modules(model: torch.nn.Module) -> list[torch.nn.Module]:
    """The modules whose calls the engine checks: the model, its body, the body's direct parts (embedding, layer
    list, final norm, rotary), each layer and each layer's direct parts (attention, MLP, norms), and the head."""
    body = _body(model)
    found = [model, body, *body.children()]
    layers = getattr(body, "layers", None) or getattr(body, "h", None) or []
    for layer in layers:
        found += [layer, *layer.children()]
    head = model.get_output_embeddings() if hasattr(model, "get_output_embeddings") else None
    if isinstance(head, torch.nn.Module):
        found.append(head)
    unique: dict[int, torch.nn.Module] = {}
    for module in found:
        unique.setdefault(id(module), module)
    return list(unique.values())


@contextmanager
def _entered(model: torch.nn.Module) -> Iterator[None]:
    """Mark the calling thread as inside the engine of `model` (nested doors are fine)."""
    models = getattr(_inside, "models", None)
    if models is None:
        models = _inside.models = {}
    models[id(model)] = models.get(id(model), 0) + 1
    try:
        yield
    finally:
        models[id(model)] -= 1
        if not models[id(model)]:
            del models[id(model)]


class Run:
    """A generation under way (Engine.run): a loop of prefill and decode steps, or a generate()."""

    __slots__ = ("back", "late", "turning")

    def __init__(self) -> None:
        self.back: float | None = None  # when its last step came back (time.monotonic()); None before the first
        self.late = False  # a pass stopped waiting for it: not waited for again until it sends its next step
        self.turning = False  # waiting for a turn of its own (a pass that is not a step): sends no step meanwhile


@dataclass(eq=False)  # compared by identity: its tensors have no truth value
class _Step:
    """One visitor's prefill (past is None) or decode step, waiting for a pass."""

    input_ids: torch.Tensor  # [b, S] a prompt per row (prefill), or [b, 1] each row's newest token (decode)
    past: DynamicCache | None  # decode: the visitor's own cache, batch of b; the new keys and values go into it
    attentions: bool  # return the step's attention weights
    visitor: Visitor = Visitor()  # whose step it is, and whether it is still wanted
    run: Run | None = None  # the generation it is a step of (Engine.run), if any
    done: bool = False
    out: SimpleNamespace | None = None
    error: BaseException | None = None

    @property
    def rows(self) -> int:
        return int(self.input_ids.shape[0]) if self.input_ids is not None else 1

    @property
    def prefill(self) -> bool:
        return self.past is None


class WhileWanted(StoppingCriteria):
    """generate()'s stopping criterion: every row is done once the visitor no longer wants the work. It remembers
    that it stopped the generation (`fired`); check() then raises the visitor's error, so a generation cut short is
    never taken for a whole one (even if the visitor's browser is back by then).

        stop = WhileWanted()                      # the calling context's visitor
        out = model.generate(..., stopping_criteria=StoppingCriteriaList([stop]))
        stop.check()
    """

    def __init__(self, who: Visitor | None = None) -> None:
        self.who = who or queueing.visitor()
        self.fired = False

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor, **kwargs) -> torch.BoolTensor:
        if not self.fired and queueing.unwanted(self.who):
            self.fired = True
        return torch.full((input_ids.shape[0],), self.fired, dtype=torch.bool, device=input_ids.device)

    def check(self) -> None:
        if self.fired:
            raise self.who.error()


class Draw(LogitsProcessor):
    """The last processor of a sampled generate() that runs with greedy selection: it draws each row's token from
    the processed scores with its own torch.Generator, exactly as generate(do_sample=True) draws with the global one
    (softmax, then torch.multinomial of one sample per row), and leaves only that token's score finite, so that
    generate()'s argmax takes it. The same seed gives the same tokens as the global generator seeded with it."""

    def __init__(self, generator: torch.Generator) -> None:
        self.generator = generator

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        probs = torch.nn.functional.softmax(scores, dim=-1)
        picked = multinomial_one(probs, self.generator)  # [rows, 1]: torch.multinomial's draw (runtime/draw.py)
        return torch.full_like(scores, float("-inf")).scatter_(1, picked, 0.0)


@contextmanager
def _unrouted() -> Iterator[None]:
    """The engine's own passes call the model itself, even on a thread that is inside a routed generate()."""
    before = getattr(_routing, "engine", None)
    _routing.engine = None
    try:
        yield
    finally:
        _routing.engine = before


class Engine:
    """Runs a model's passes one at a time, and batches the decode steps of concurrent visitors.

    `passes` counts forward passes (a batched step is one pass); `batched_steps` counts the steps that ran in a
    pass with others, and `widest` the largest batch so far, so that a bench or a test can see batching happen.
    """

    def __init__(self, model: torch.nn.Module, max_batch: int = MAX_BATCH) -> None:
        self._model = model
        self.lock = FairLock()
        self.max_batch = max_batch
        self.max_in_flight = MAX_IN_FLIGHT
        self.cancelled = 0  # requests dropped because their visitor left or moved on
        self._flight: dict = {}  # owner -> requests waiting or running
        self._flight_cond = threading.Condition(threading.Lock())
        self.passes = 0
        self.batched_steps = 0
        self.widest = 1
        self._pending: list[_Step] = []
        self._guard = threading.Lock()  # guards _pending and _runs; never held during a pass
        self._arrived = threading.Condition(self._guard)  # a step joined _pending, or a run ended or waits a turn
        self._runs: set[Run] = set()  # generations under way
        self.gathered_s = 0.0  # how long decode passes waited for the other runs' next steps, in all
        self.held_s = 0.0  # how long the model was held per turn, recent turns weighted most (for the estimate)
        self._hooks = self._install()
        self.invariant = invariance.install(model)  # batched rows get the attention each gets alone
        self.owned = self.invariant and invariance.can_own(model)  # batched passes keep each request's own cache
        _head_on_pass_thread(model)
        _pass_thread()
        _decode_thread()  # started now, not in a visitor's first decode while other threads start
        if DECODE_THREADS < MACHINE_THREADS:
            _rows_thread()

    def _install(self) -> list:
        for handle in getattr(self._model, "_tbt_engine_hooks", []):  # a model handed to a new engine
            handle.remove()
        key, body, model = id(self._model), _body(self._model), self._model
        original = getattr(model, "_tbt_forward", None) or model.forward
        model._tbt_forward = original

        @functools.wraps(original)  # generate() reads the forward's signature (logits_to_keep, position_ids)
        def forward(*args, **kwargs):
            if getattr(_routing, "engine", None) is self and not args:
                return self._routed(original, kwargs)
            return original(*args, **kwargs)

        model.forward = forward

        def check(module, _args):
            if module is model and getattr(_routing, "engine", None) is self:
                return  # a routed generate() pass: it becomes an engine step, which enters the engine itself
            models = getattr(_inside, "models", None)
            if not models or key not in models:
                raise ModelOutsideEngine(f"{type(module).__name__} of the shared model was called outside its "
                                         "engine: use the engine's forward, decode, generate or exclusive()")
            if module is body:
                self.passes += 1

        handles = [m.register_forward_pre_hook(check) for m in guarded_modules(self._model)]
        self._model._tbt_engine_hooks = handles
        return handles

    @property
    def weights(self) -> torch.nn.Module:
        """The model, to read its parameters, configuration and structure; calling any part of it raises."""
        return self._model

    @property
    def runs(self) -> int:
        """Generations under way (Engine.run)."""
        with self._guard:
            return len(self._runs)

    @property
    def queued(self) -> int:
        """Visitors' requests holding or waiting for the model now (each waiting decode step counts)."""
        return self.lock.queued

    def ahead(self) -> tuple[int, float]:
        """(turns, seconds): how many turns of the model a request arriving now waits for, and about how long.

        Waiting prefills are served together, and so are waiting decode steps, max_batch rows to a turn: 30
        visitors' steps ahead are one turn, not 30. The seconds are turns times the recent mean length of a turn
        (0 before the first)."""
        with self._guard:
            waiting = len(self._pending)
            prefill_rows = sum(s.rows for s in self._pending if s.prefill)
            decode_rows = sum(s.rows for s in self._pending if not s.prefill)
        turns = max(0, self.lock.queued - waiting) + -(-prefill_rows // self.max_batch) + -(-decode_rows // self.max_batch)
        return turns, turns * self.held_s

    @contextmanager
    def _admitted(self, who: Visitor) -> Iterator[None]:
        """At most max_in_flight requests of one visitor wait or run at once: a further one waits here, outside the
        queue, so that one visitor cannot fill it. Raises Cancelled (at once, or while waiting) if the visitor no
        longer wants the work."""
        if queueing.unwanted(who):
            self.cancelled += 1
            raise who.error()
        if who.owner is None:
            yield
            return
        with self._flight_cond:
            while self._flight.get(who.owner, 0) >= self.max_in_flight:
                self._flight_cond.wait(0.2)
                if queueing.unwanted(who):
                    self.cancelled += 1
                    raise who.error()
            self._flight[who.owner] = self._flight.get(who.owner, 0) + 1
        try:
            yield
        finally:
            with self._flight_cond:
                left = self._flight.pop(who.owner) - 1
                if left:
                    self._flight[who.owner] = left
                self._flight_cond.notify_all()

    @contextmanager
    def _turn(self) -> Iterator[None]:
        """Hold the lock for one turn of work (the visitor's turn, in round-robin) and remember how long it took.
        Work its visitor no longer wants is not started: Cancelled."""
        who = queueing.visitor()
        run = getattr(_routing, "run", None)
        _one_intra_op_thread()
        with self._admitted(who):
            if run is not None:
                with self._guard:
                    run.turning = True
                    self._arrived.notify_all()
            try:
                got = self.lock.acquire(who.owner, abandon=lambda: queueing.unwanted(who))
            finally:
                if run is not None:
                    with self._guard:
                        run.turning = False
            if not got:
                self.cancelled += 1  # the visitor left while it waited: it leaves the queue at once
                raise who.error()
            try:
                if queueing.unwanted(who):
                    self.cancelled += 1
                    raise who.error()
                started = time.perf_counter()
                try:
                    yield
                finally:
                    self._note(time.perf_counter() - started)
            finally:
                self.lock.release()

    def _note(self, seconds: float) -> None:
        self.held_s = seconds if not self.held_s else 0.8 * self.held_s + 0.2 * seconds

    @contextmanager
    def run(self) -> Iterator[Run]:
        """A generation under way: pass the yielded Run with each of its steps (prefill, decode; generate() does).

        Between two steps a run does its own work (the sampling chain, a page's drawing), and with a class on the
        server the runs' steps come back at slightly different moments. The first step back used to take the free
        model for its one row while the others piled up behind it, and the two groups stayed out of step: each
        step of 30 visitors was two passes, one of them for a single row, which the others' sampling slowed down
        (in-process, 30 loop runs of 20 tokens: 40 passes, 18-21 s). So a decode step of a run first waits until
        the other runs whose last step came back have sent their next one: at most GATHER_S, and not for a run
        that has ended, waits for a turn of its own, came back more than STALE_S ago, or was late for an earlier
        pass and has sent nothing since (a visitor reading before the next click); and not once a full pass
        (max_batch rows) is waiting. A run alone never waits."""
        run = Run()
        with self._guard:
            self._runs.add(run)
        try:
            yield run
        finally:
            with self._guard:
                self._runs.discard(run)
                self._arrived.notify_all()

    def _expected(self, mine: Run, now: float) -> list[Run]:
        """The runs whose next step a decode step of `mine` waits for (under _guard)."""
        sent = {s.run for s in self._pending}
        return [r for r in self._runs if r is not mine and r not in sent and not r.late and not r.turning
                and r.back is not None and now - r.back < STALE_S]

    def _gather(self, step: _Step) -> None:
        """Inside the lock, before a decode pass: wait for the other runs' next steps (see `run`)."""
        started = time.monotonic()
        deadline = started + GATHER_S
        with self._guard:
            while True:
                now = time.monotonic()
                missing = self._expected(step.run, now)
                rows = sum(s.rows for s in self._pending if not s.prefill and s.attentions == step.attentions)
                if not missing or rows >= self.max_batch or step.done or queueing.unwanted(step.visitor):
                    break  # all here, or a full pass waiting already
                if now >= deadline:
                    for r in missing:
                        r.late = True
                    break
                self._arrived.wait(deadline - now)
        self.gathered_s += time.monotonic() - started

    def forward(self, **inputs):
        """One pass of the model, alone, under inference mode (prefill, traces, anything but a decode step)."""
        with self._turn():
            return _on_pass_thread(self._call, inputs)

    def _call(self, inputs: dict):
        with _unrouted(), _entered(self._model), torch.inference_mode():
            return self._model(**inputs)

    def generate(self, generator: torch.Generator | None = None, **kwargs):
        """The model's own generate() (transformers), under inference mode: beam search, penalties and the other
        processors of the decoding pages. Each of its passes is a prefill or a decode step of the engine, batched
        with other visitors' (see the module's docstring); each step is one counted pass. If the visitor leaves or
        moves on meanwhile, it ends at its next step and raises Cancelled.

        generator: for do_sample=True, the request's own torch.Generator; the tokens are those generate() draws
        from the global generator in the same state. A sampled generate() without one holds the model alone
        (torch's global generator is the process's, so no other thread may draw meanwhile)."""
        stop = WhileWanted()
        stops = StoppingCriteriaList(kwargs.pop("stopping_criteria", None) or [])
        stops.append(stop)
        config = kwargs.get("generation_config") or self._model.generation_config
        sampled = bool(kwargs.get("do_sample", getattr(config, "do_sample", False)))
        if sampled and generator is not None:
            self._check_for_draw(kwargs)
            kwargs.update({k: None for k in ("temperature", "top_k", "top_p")})  # generate() adds no warper
            processors = LogitsProcessorList(kwargs.pop("logits_processor", None) or [])
            processors.append(Draw(generator))  # last: it draws from the fully processed scores
            kwargs.update(logits_processor=processors, do_sample=False)
            sampled = False
        if sampled:  # torch's global generator: nobody else may run or draw meanwhile
            with self._turn():
                out = _on_pass_thread(self._generate_alone, stops, kwargs)
        else:
            before = getattr(_routing, "engine", None), getattr(_routing, "run", None)
            with self.run() as run:
                _routing.engine, _routing.run = self, run  # its steps are this run's
                try:
                    with torch.inference_mode():
                        out = self._model.generate(stopping_criteria=stops, **kwargs)
                finally:
                    _routing.engine, _routing.run = before
        if stop.fired:
            self.cancelled += 1
        stop.check()
        return out

    def _generate_alone(self, stops: StoppingCriteriaList, kwargs: dict):
        with _unrouted(), _entered(self._model), torch.inference_mode():
            return self._model.generate(stopping_criteria=stops, **kwargs)

    @staticmethod
    def _check_for_draw(kwargs: dict) -> None:
        """Draw replaces generate()'s own sampling, which then runs with greedy selection: whatever generate() would
        have done only when sampling (its warpers, beam sampling, an assistant, the scores it returns) would be lost
        or changed silently. So with a generator, the caller passes temperature 1, top_k 0 and top_p 1, puts any
        warper in logits_processor, and asks for none of the rest; else ValueError."""
        refused = [k for k in ("generation_config", "typical_p", "epsilon_cutoff", "eta_cutoff", "min_p", "top_h",
                               "watermarking_config", "assistant_model", "output_scores")
                   if kwargs.get(k) not in (None, False)]
        if int(kwargs.get("num_beams") or 1) > 1:
            refused.append("num_beams")
        if refused:
            raise ValueError(f"with a generator, Draw cannot do what {', '.join(refused)} asks of generate()'s "
                             "own sampling")
        neutral = {"temperature": 1.0, "top_k": 0, "top_p": 1.0}
        if any(kwargs.get(k, "missing") not in (None, v) for k, v in neutral.items()):
            raise ValueError("with a generator, pass temperature=1.0, top_k=0 and top_p=1.0 and put any warper "
                             "in logits_processor: Draw samples after the caller's processors only")

    def _routed(self, original, kwargs: dict) -> CausalLMOutputWithPast:
        """One pass that generate() asks for, on a routed thread: a prefill of an empty cache, or one new token per
        row on the visitor's cache, becomes an engine step (batched with others); anything else runs alone."""
        ids, past, mask = kwargs.get("input_ids"), kwargs.get("past_key_values"), kwargs.get("attention_mask")
        plain = (ids is not None and ids.dim() == 2 and kwargs.get("inputs_embeds") is None
                 and not kwargs.get("output_attentions") and not kwargs.get("output_hidden_states")
                 and isinstance(past, DynamicCache) and (mask is None or bool(mask.all())))
        length = past.get_seq_length() if plain else -1
        if plain and length == 0:
            out = self.prefill(ids)
            layers = out.past_key_values.layers
            if all(layer.keys is not None and layer.keys.shape[-2] == ids.shape[-1] for layer in layers):
                for index, layer in enumerate(layers):  # into the caller's cache, as the model's own pass does
                    past.update(layer.keys, layer.values, index)
                out.past_key_values = past
        elif plain and length > 0 and ids.shape[-1] == 1:
            out = self.decode(ids, past)
        else:
            with self._turn():
                return _on_pass_thread(self._call_original, original, kwargs)
        return CausalLMOutputWithPast(logits=out.logits, past_key_values=out.past_key_values)

    def _call_original(self, original, kwargs: dict):
        with _unrouted(), _entered(self._model), torch.inference_mode():
            return original(**kwargs)

    @contextmanager
    def exclusive(self, grad: bool = False) -> Iterator[torch.nn.Module]:
        """Hold the model alone and yield it, for work that hooks it (activation caches), needs its gradients
        (grad=True: Captum, gradient x input) or calls its parts (the logit lens, one layer's MLP). Nobody
        else's pass runs until the block ends, so hooks registered inside see only this thread's calls."""
        with self._turn(), _unrouted(), _entered(self._model), torch.set_grad_enabled(grad):
            yield self._model

    def prefill(self, input_ids: torch.Tensor, output_attentions: bool = False, run: Run | None = None
                ) -> SimpleNamespace:
        """The first pass of a run: every row's prompt ([b, S], one length) through the model, batched with other
        visitors' prefills waiting at the same moment. Returns logits [b, 1, V] (the last position only, as
        generate() computes), past_key_values (a new cache of this request's rows alone), attentions (one
        [b, heads, S, S] per layer, or None). `run`: the generation it starts (Engine.run)."""
        return self._submit(_Step(input_ids=input_ids, past=None, attentions=output_attentions,
                                  visitor=queueing.visitor(), run=run or getattr(_routing, "run", None)))

    def decode(self, input_ids: torch.Tensor, past: DynamicCache, output_attentions: bool = False,
               run: Run | None = None) -> SimpleNamespace:
        """One decode step: the logits of the next token after `input_ids` ([b, 1], one token per row of `past`)
        given the visitor's `past`, which gains the tokens' keys and values. Returns what the model's output has:
        logits [b, 1, V], past_key_values (the same `past`), attentions (one [b, heads, 1, keys] per layer, or
        None). `run`: the generation it is a step of (Engine.run)."""
        return self._submit(_Step(input_ids=input_ids, past=past, attentions=output_attentions,
                                  visitor=queueing.visitor(), run=run or getattr(_routing, "run", None)))

    def _submit(self, step: _Step) -> SimpleNamespace:
        _one_intra_op_thread()
        with self._admitted(step.visitor):
            with self._guard:
                self._pending.append(step)
                if step.run is not None:
                    step.run.late = False
                self._arrived.notify_all()
            if not self.lock.acquire(step.visitor.owner,
                                     abandon=lambda: step.done or queueing.unwanted(step.visitor)):
                return self._left(step)  # run by another visitor's pass meanwhile, or no longer wanted
            try:
                if not step.done:  # this visitor's turn: run its step and every waiting step that fits beside it
                    if step.run is not None and not step.prefill and len(self._runs) > 1:
                        self._gather(step)
                    started = time.perf_counter()
                    with self._guard:
                        batch = self._take(step)
                    if batch:
                        _on_pass_thread(self._run, batch, decode=_cpu_decode(batch))
                        self._note(time.perf_counter() - started)
            finally:
                self.lock.release()
        if step.error is not None:
            raise step.error
        return step.out

    def _left(self, step: _Step) -> SimpleNamespace:
        """A step whose thread left the queue before its turn: its result if another pass ran it; else it leaves
        the waiting list and raises the visitor's error (a pass running it now finishes for nobody)."""
        if not step.done:
            with self._guard:
                if any(s is step for s in self._pending):
                    self._pending = [s for s in self._pending if s is not step]
                    step.error, step.done = step.visitor.error(), True
                    self.cancelled += 1
            if not step.done:
                raise step.visitor.error()
        if step.error is not None:
            raise step.error
        return step.out

    # ---- inside the lock

    def _window(self) -> int:
        return getattr(self._model.config, "sliding_window", None) or 0

    def _batchable(self, step: _Step) -> bool:
        window = self._window()
        if step.prefill:  # the prompt must fit in the window with room to spare: the batch's cache is never cut
            return step.input_ids is not None and not step.attentions and step.input_ids.shape[-1] >= 1 and (
                not window or step.input_ids.shape[-1] <= window - 2)
        past = step.past
        layers = getattr(past, "layers", None)
        if not isinstance(past, DynamicCache) or not layers or layers[0].keys is None:
            return False
        length = layers[0].keys.shape[-2]
        if any(layer.keys.shape[-2] != length for layer in layers):
            return False  # a sliding layer has cut its window already
        return not window or length <= window - 2  # after this step the window is still whole

    def _drop_unwanted(self) -> None:
        """Waiting steps whose visitor left or moved on leave the list, done, with Cancelled."""
        kept = []
        for s in self._pending:
            if queueing.unwanted(s.visitor):
                s.error, s.done = s.visitor.error(), True
                self.cancelled += 1
            else:
                kept.append(s)
        if len(kept) != len(self._pending):
            self.lock.wake()  # their threads leave the queue now
        self._pending = kept

    def _take(self, first: _Step) -> list[_Step]:
        """The steps to run now: `first`, and when it can be batched, every other waiting step of its kind that
        can, up to max_batch rows, visitors in turn (each visitor's first waiting step, then each one's second, in
        arrival order within a round). The taken ones leave the waiting list; so do the steps nobody wants any
        more (an empty list when that includes `first`)."""
        self._drop_unwanted()
        if first.done:
            return []
        if not self._batchable(first):
            self._pending = [s for s in self._pending if s is not first]
            return [first]
        batch, rows = [first], first.rows
        seen: dict = {}
        rounds = []
        for order, s in enumerate(self._pending):
            key = s.visitor.owner if s.visitor.owner is not None else ("step", id(s))
            rounds.append((seen.get(key, 0), order, s))
            seen[key] = seen.get(key, 0) + 1
        for _, _, s in sorted(rounds, key=lambda r: r[:2]):
            if s is first or s.prefill != first.prefill or s.attentions != first.attentions:
                continue
            if rows + s.rows > self.max_batch or not self._batchable(s):
                continue
            batch.append(s)
            rows += s.rows
        taken = {id(s) for s in batch}
        self._pending = [s for s in self._pending if id(s) not in taken]
        return batch

    def _run(self, batch: list[_Step]) -> None:
        try:
            with _unrouted(), _entered(self._model), torch.inference_mode():
                if len(batch) == 1 and (batch[0].rows == 1 or not self._batchable(batch[0])):
                    s = batch[0]
                    out = self._model(input_ids=s.input_ids, past_key_values=s.past, use_cache=True,
                                      output_attentions=s.attentions, logits_to_keep=1)
                    s.out = SimpleNamespace(logits=out.logits, past_key_values=out.past_key_values,
                                            attentions=out.attentions if s.attentions else None)
                else:  # several requests, or one of several rows: each row is computed as it is in any batch
                    if self.owned and not batch[0].attentions:  # each request's own cache, nothing padded
                        (self._run_packed if batch[0].prefill else self._run_own)(batch)
                    else:
                        with invariance.rows():  # each row's attention on its own keys: its numbers as alone
                            (self._run_prefills if batch[0].prefill else self._run_batched)(batch)
                    if len(batch) > 1:
                        self.batched_steps += len(batch)
                        self.widest = max(self.widest, sum(s.rows for s in batch))
        except Exception as exc:  # noqa: BLE001  every waiting visitor gets the error, none waits forever
            for s in batch:
                s.error = exc
        finally:
            now = time.monotonic()
            with self._guard:
                for s in batch:
                    s.done = True
                    if s.run is not None:  # its next step is expected soon
                        s.run.back = now
            self.lock.wake()  # their threads leave the queue now, not at their turn

    def _run_packed(self, batch: list[_Step]) -> None:
        """Prompts of several visitors (or rows of one) in one pass, packed: every row's tokens one after another in
        one sequence, each row's positions counted from 0, each row's attention on its own keys only, the logits of
        each row's last token. Nothing is padded: the pass computes the prompts' tokens and no others."""
        spans, ids, positions, start = [], [], [], 0
        for s in batch:
            mine = []
            for row in s.input_ids:
                n = row.shape[-1]
                mine.append((start, start + n))
                ids.append(row)
                positions.append(torch.arange(n, device=row.device))
                start += n
            spans.append(mine)
        caches = [DynamicCache(config=self._model.config) for _ in batch]
        elsewhere = None
        if (ids[0].device.type == "cpu" and DECODE_THREADS < MACHINE_THREADS
                and max(row.shape[-1] for row in ids) <= ROWS_THREAD_TOKENS):  # short prompts' attention: one thread
            elsewhere = lambda fn: _rows_thread().submit(fn).result()  # noqa: E731
        own = invariance.Own(caches, spans, prefill=True, elsewhere=elsewhere)
        last = torch.tensor([b - 1 for mine in spans for _, b in mine], device=ids[0].device)
        with invariance.own(own):
            out = self._model(input_ids=torch.cat(ids)[None], position_ids=torch.cat(positions)[None],
                              attention_mask=self._no_masks(), past_key_values=own, use_cache=True,
                              logits_to_keep=last)
        first = 0
        for s, past in zip(batch, caches):
            s.out = SimpleNamespace(logits=out.logits[0, first:first + s.rows, None], past_key_values=past,
                                    attentions=None)
            first += s.rows

    def _run_own(self, batch: list[_Step]) -> None:
        """Decode steps of several visitors (or rows of one) in one pass, each request's keys and values kept in its
        own cache, which gains the new token's: nothing padded, nothing assembled or cut apart."""
        spans, first = [], 0
        for s in batch:
            spans.append([(r, r + 1) for r in range(first, first + s.rows)])
            first += s.rows
        lengths = [s.past.layers[0].keys.shape[-2] for s in batch]
        device = batch[0].input_ids.device
        own = invariance.Own([s.past for s in batch], spans, prefill=False)
        with invariance.own(own):
            out = self._model(input_ids=torch.cat([s.input_ids for s in batch]),
                              position_ids=torch.tensor([[n] for s, n in zip(batch, lengths) for _ in range(s.rows)],
                                                        device=device),
                              attention_mask=self._no_masks(), past_key_values=own, use_cache=True, logits_to_keep=1)
        first = 0
        for s in batch:
            s.out = SimpleNamespace(logits=out.logits[first:first + s.rows], past_key_values=s.past, attentions=None)
            first += s.rows

    def _no_masks(self) -> dict:
        """The model's masks, one per layer kind, given as none: each row's attention makes its own (invariance.Own)."""
        kinds = set(getattr(self._model.config, "layer_types", None) or ["full_attention"])
        return {kind: None for kind in kinds | {"full_attention", "sliding_attention"}}

    def _run_prefills(self, batch: list[_Step]) -> None:
        """Prompts of several visitors in one pass: left-padded to the longest, the padding masked, each row's
        positions counted from its first real token (as generate() does for a padded batch)."""
        lengths = [s.input_ids.shape[-1] for s in batch]
        longest = max(lengths)
        ids = torch.cat([F.pad(s.input_ids, (longest - n, 0), value=0) for s, n in zip(batch, lengths)])
        mask = torch.zeros_like(ids)
        rows = [(s, n, sum(t.rows for t in batch[:i])) for i, (s, n) in enumerate(zip(batch, lengths))]
        for s, n, first in rows:
            mask[first:first + s.rows, longest - n:] = 1  # the padding is on the left
        positions = (mask.cumsum(-1) - 1).clamp(min=0)
        out = self._model(input_ids=ids, attention_mask=mask, position_ids=positions, use_cache=True,
                          logits_to_keep=1)
        cache = out.past_key_values
        for s, n, first in rows:
            past = DynamicCache(config=self._model.config)
            for index, layer in enumerate(cache.layers):  # this request's rows, without the padding
                past.update(layer.keys[first:first + s.rows, :, longest - n:, :].contiguous(),
                            layer.values[first:first + s.rows, :, longest - n:, :].contiguous(), index)
            s.out = SimpleNamespace(logits=out.logits[first:first + s.rows], past_key_values=past, attentions=None)

    def _run_batched(self, batch: list[_Step]) -> None:
        lengths = [s.past.layers[0].keys.shape[-2] for s in batch]  # one length per request (its rows share it)
        longest = max(lengths)
        device = batch[0].input_ids.device
        cache = DynamicCache(config=self._model.config)
        for index in range(len(batch[0].past.layers)):
            keys = [F.pad(s.past.layers[index].keys, (0, 0, longest - n, 0)) for s, n in zip(batch, lengths)]
            values = [F.pad(s.past.layers[index].values, (0, 0, longest - n, 0)) for s, n in zip(batch, lengths)]
            cache.update(torch.cat(keys), torch.cat(values), index)
        row_lengths = [n for s, n in zip(batch, lengths) for _ in range(s.rows)]
        mask = torch.zeros(len(row_lengths), longest + 1, dtype=torch.long, device=device)
        for row, n in enumerate(row_lengths):
            mask[row, longest - n:] = 1  # the padding is on the left; the new token is the last column
        out = self._model(input_ids=torch.cat([s.input_ids for s in batch]), attention_mask=mask,
                          position_ids=torch.tensor([[n] for n in row_lengths], device=device),
                          cache_position=torch.tensor([longest], device=device), past_key_values=cache,
                          use_cache=True, output_attentions=batch[0].attentions, logits_to_keep=1)
        first = 0
        for s, n in zip(batch, lengths):
            rows = slice(first, first + s.rows)
            for index, layer in enumerate(cache.layers):
                s.past.update(layer.keys[rows, :, -1:, :], layer.values[rows, :, -1:, :], index)
            attn = None
            if s.attentions and out.attentions:
                attn = tuple(a[rows, :, :, longest - n:] for a in out.attentions)
            s.out = SimpleNamespace(logits=out.logits[rows], past_key_values=s.past, attentions=attn)
            first += s.rows
