"""The loop page's computations: the runs of the loop, one per model, dtype, prompt and settings for every visitor
of this server process (SharedRun: a live generator holding its KV cache, stepped one forward pass at a time through
the model's queue, ui.backend, never recomputed), and each visitor's view of one (LoopRun: how many steps it shows);
the step after the one on screen computed ahead; a shared link's step shown or taken; and the completion panel's
chat and greedy answers. Nothing here draws: the views are kept in the visitor's state, a mapping the page hands in
(st.session_state), a run to the end is a generator of its steps, and a replay reports how far it is through a
callback."""
from __future__ import annotations

import itertools
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, MutableMapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import model_backend as mb
from model_backend.core.stats import Loop, find_loop
from model_backend.core.tracing import encode
from model_backend.runtime.memo import cached
from ui import backend

MAX_RUNS = 6  # finished runs kept per visitor, so switching a setting back does not recompute
GREEDY_LOOP_REPEATS = 3  # a cycle repeated this many times in a row at the end counts as "fell into a loop"
# The completion panel: Gemma's published turn format (the instruction-tuned "-it" models are trained on it; this
# base model is not), and one question whose answer is computed, asked of the model greedily.
TURN = "<start_of_turn>{role}\n{text}<end_of_turn>\n"
MAX_NEW = 48
NUMBER = re.compile(r"\d+")
SUM = {"book": 12, "pen": 3, "n_books": 2, "n_pens": 3}  # the question's numbers
ANSWER = SUM["book"] * SUM["n_books"] + SUM["pen"] * SUM["n_pens"]  # 33, computed


def max_new_tokens() -> int:
    """The server's cap on new tokens (MAX_NEW_TOKENS): the most steps a run may take."""
    return backend.settings().max_new_tokens


def invalid(params: mb.SamplingParams, cap: int) -> mb.InvalidInput | None:
    """What is wrong with these settings for a run of at most `cap` new tokens (mb.check_params), or None."""
    try:
        mb.check_params(params, cap)
    except mb.InvalidInput as exc:
        return exc
    return None


def trace(prompt: str) -> mb.Trace:
    """The prompt's forward pass (cached, shared with the other pages): its tokens and every position's guess."""
    return backend.trace(prompt)


@dataclass(frozen=True)
class PromptFacts:
    """What the run's fragment needs of the prompt: its token count (cut to the server's limit as the trace cuts
    it), the count before the cut (None if not cut), and the model's figures."""

    n_tokens: int
    truncated_from: int | None
    info: mb.ModelInfo


@backend.on_model(max_entries=256, queued=False)
def _facts(model: mb.ModelBundle, prompt: str, max_tokens: int) -> PromptFacts:
    ids, truncated_from = encode(model, prompt, max_tokens)  # the trace's own tokenization
    return PromptFacts(n_tokens=len(ids), truncated_from=truncated_from, info=model.info)


def prompt_facts(prompt: str) -> PromptFacts:
    """The prompt's token count and the model's figures, from the tokenizer alone (one shared object): the run's
    fragment reruns on every step of every phone that follows the teacher, and it needs nothing else of the trace,
    whose cache hands each run a copy of the whole pass (1.5 MB for a 9-token prompt) and, while the engine is
    busy with the class's steps, draws a queue notice first."""
    return _facts(prompt, backend.settings().max_prompt_tokens)


def run_key(prompt: str, params: mb.SamplingParams) -> tuple:
    """What a run depends on. Greedy ignores the seed, so the seed is left out of its key."""
    if params.greedy:
        params = mb.SamplingParams(temperature=0, top_k=params.top_k, top_p=params.top_p,
                                   repetition_penalty=params.repetition_penalty,
                                   max_new_tokens=params.max_new_tokens, stop=params.stop, seed=None)
    return backend.current_model(), backend.current_dtype(), prompt, params


# Where a run's next step is computed: for the visitor who asked first (its turns are that visitor's, and it is
# dropped only if that browser has gone), while the others who want the same step wait for it. Each pass still
# queues for the model's engine; the threads only wait there, so there are enough of them for every prompt of a
# class to have one step in the queue.
AHEAD = ThreadPoolExecutor(max_workers=32, thread_name_prefix="loop-ahead")
MAX_SHARED = 64  # runs kept for every visitor (each holds its generator and KV cache until the run ends)


_SERIALS = itertools.count(1)


class SharedRun:
    """One run of the loop for every visitor with the same model, dtype, prompt and settings (the seed included):
    the same seed makes the same tokens, so a step is computed once, by the engine, and every visitor shows it.
    A class whose phones follow the teacher's step asks for one pass a step, not thirty; a phone ahead of her goes
    back by showing fewer steps. The steps only grow; `lock` guards them, the generator and the step under way."""

    def __init__(self, prompt: str, params: mb.SamplingParams) -> None:
        self.prompt, self.params = prompt, params
        self.serial = next(_SERIALS)  # names this run (never reused): its first n steps are the same for everyone
        self.steps: list[mb.Step] = []
        self.result: mb.Generation | None = None
        self.gen: Iterator | None = None  # the live generator (with its KV cache), at len(steps)
        self.pending: Future | None = None  # the next step, being computed
        self.last: tuple[int, Future] | None = None  # the latest step asked for (its index) and its future
        self.lock = threading.Lock()

    def request(self) -> Future | None:
        """The step after the last one, being computed (started now if it is not yet); None when the run has
        ended. The generator is made here, in the visitor's thread (it reads the visitor's model); its items are
        taken in a pool thread, for this visitor."""
        with self.lock:
            if self.result is not None:
                return None
            if self.pending is None:
                skip = 0
                if self.gen is None:  # the first step, or an error closed the generator: a new one, at this step
                    self.gen, skip = backend.iter_generation(self.prompt, self.params), len(self.steps)
                self.pending = AHEAD.submit(backend.for_visitor(self._take), self.gen, skip)
                self.last = (len(self.steps), self.pending)
            return self.pending

    def _take(self, gen: Iterator, skip: int) -> mb.Step | mb.Generation:
        """Take the generator's next item (after `skip` items taken again, the same tokens), keep it, return it."""
        try:
            for i in range(skip):
                again = next(gen)
                if not isinstance(again, mb.Step) or again.token.id != self.steps[i].token.id:
                    raise RuntimeError("a run taken again made another token")  # the engine promises the same
            event = next(gen)
            end = next(gen) if isinstance(event, mb.Step) and event.finish_reason else None  # only wraps up
        except BaseException:
            with self.lock:
                self.gen, self.pending = None, None  # a generator an exception leaves is over: the next asks anew
            raise
        with self.lock:
            if isinstance(event, mb.Generation):
                self.result = event
            else:
                self.steps.append(event)
                self.result = end
            if self.result is not None:
                self.gen = None
            self.pending = None
        return event


@cached(MAX_SHARED, seal_values=False)
def _shared(model: str, dtype: str, prompt: str, params: mb.SamplingParams) -> SharedRun:
    return SharedRun(prompt, params)


@dataclass
class LoopRun:
    """One visitor's view of a run of the loop: the shared run (SharedRun) and how many of its steps it shows."""

    prompt: str
    params: mb.SamplingParams
    shared: SharedRun | None = None  # None: a run of its own (made at once)
    shown: int = 0

    def __post_init__(self) -> None:
        if self.shared is None:
            self.shared = SharedRun(self.prompt, self.params)

    @property
    def steps(self) -> list[mb.Step]:
        return self.shared.steps[:self.shown]

    @property
    def done(self) -> bool:
        return self.shared.result is not None and self.shown >= len(self.shared.steps)

    @property
    def result(self) -> mb.Generation | None:
        return self.shared.result if self.done else None

    @property
    def gen(self) -> Iterator | None:
        return self.shared.gen

    @property
    def ahead(self) -> Future | None:
        """The step after the ones shown, asked for while the visitor reads them (being computed, or made): its
        future, whose result is that step; None when it was not asked for."""
        index, future = self.shared.last or (None, None)
        return future if index == self.shown else None

    def advance(self) -> mb.Step | None:
        """Show exactly one more step: one already made (by anyone), or the one being made, or one computed now
        (one forward pass). None when the loop has ended."""
        dropped = 0
        while not self.done:
            if self.shown < len(self.shared.steps):
                self.shown += 1
                return self.shared.steps[self.shown - 1]
            pending = self.shared.request()
            if pending is None:
                continue
            try:
                pending.result()
            except mb.Cancelled:  # computed for a browser that went away (a phone's screen locked): ask again,
                dropped += 1  # now for this visitor; this visitor's own browser gone ends the run as before
                if dropped > 2:
                    raise
        return None

    def back_to(self, step: int) -> None:
        """Show the first `step` steps (fewer than now): nothing is computed."""
        self.shown = min(self.shown, step)

    def look_ahead(self) -> None:
        """Start the next step now, in a thread, while the visitor reads this one: a "Next token" click then only
        shows it. The step is the generator's next item, the same token (the same seed, the same draw) and the
        same numbers as a step computed on the click; its time is its own pass's. Only for a run the visitor has
        started, one step ahead of the last step made at most."""
        if self.shown and not self.done and self.shown == len(self.shared.steps):
            self.shared.request()


def current_run(state: MutableMapping, prompt: str, params: mb.SamplingParams) -> LoopRun:
    """The visitor's run for these settings (new settings start a new run; old runs are kept a while). `state`
    is the visitor's session state: the visitor's views live there, under "loop_runs", each on the run every
    visitor with these settings shares (kept for MAX_SHARED runs, then each visitor keeps the one it has).

    Not a backend.on_model cache, on purpose: a run holds a live generator (and its KV cache) that is stepped in
    place (whole reproducible runs are cached by backend.generation)."""
    runs: OrderedDict = state.setdefault("loop_runs", OrderedDict())
    key = run_key(prompt, params)
    if key not in runs:
        runs[key] = LoopRun(prompt=prompt, params=params, shared=_shared(*key))
        while len(runs) > MAX_RUNS:
            runs.popitem(last=False)
    runs.move_to_end(key)
    return runs[key]


def reset_run(state: MutableMapping, prompt: str, params: mb.SamplingParams) -> None:
    """Back to no step (the shared run keeps its steps: the next click shows the first again, computed once)."""
    state.setdefault("loop_runs", OrderedDict()).pop(run_key(prompt, params), None)
    state["loop_steps"] = 0  # what the link says, before any rerun publishes it


def rewound(state: MutableMapping, run: LoopRun, prompt: str, params: mb.SamplingParams
            ) -> tuple[LoopRun, int | None]:
    """The run to take a link's step on, and that step: None unless this is the run that read the link (once).
    A run already past that step goes back to it (it shows fewer steps: nothing is computed)."""
    wanted = state.pop("_loop_replay", None)
    if wanted is not None and len(run.steps) > wanted:
        run.back_to(wanted)
    return run, wanted


def replay(run: LoopRun, wanted: int | None, progress: Callable[[int, int], None]) -> None:
    """Take the run to the step a link asked for (see `rewound`): the steps any visitor already made are shown at
    once, the others are made from the prompt with the same settings and seed, so the same tokens (a class
    following the teacher's step asks for each step once). `progress(done, wanted)` is told before each step."""
    while wanted is not None and len(run.steps) < wanted and not run.done:
        progress(len(run.steps), wanted)
        run.advance()


def to_end(run: LoopRun) -> Iterator[LoopRun]:
    """The run taken to its end one step at a time (one forward pass each, or the one computed ahead): yields the
    run after each step, so the page draws the tokens as they come."""
    while not run.done:
        run.advance()
        yield run


def greedy_loop(result: mb.Generation) -> Loop | None:
    """The loop a greedy run ended in (a find_loop Loop), or None: not greedy, or no cycle repeated
    GREEDY_LOOP_REPEATS times at its end."""
    if not result.params.greedy:
        return None
    loop = find_loop([s.token.id for s in result.steps], min_repeats=GREEDY_LOOP_REPEATS)
    return loop if loop.period else None


# --- the completion panel (seed 000's opening) ---------------------------------------------------------------------

def chat_text(question: str) -> str:
    """One user message formatted as a single text, ending where the model's turn starts: what a chat sends."""
    return "<bos>" + TURN.format(role="user", text=question) + "<start_of_turn>model\n"


def chat_tokens(chat: str) -> int:
    """How many tokens the chat text is for the visitor's model's tokenizer, <bos> not counted."""
    return len(backend.bundle_for().tokenizer(chat[len("<bos>"):], add_special_tokens=False)["input_ids"])


def right_answer_in(text: str, answer: int) -> bool:
    return str(answer) in NUMBER.findall(text)


@dataclass(frozen=True)
class Answered:
    """The model's greedy answer to one prompt, and whether ANSWER is among the numbers it wrote."""

    generation: mb.Generation
    right: bool


def answered(prompt: str) -> Answered:
    """A greedy run of MAX_NEW tokens (cached: the same prompt, the same answer)."""
    gen = backend.generation(prompt, mb.SamplingParams(temperature=0, max_new_tokens=MAX_NEW))
    return Answered(gen, right_answer_in(gen.completion, ANSWER))


def n_params() -> int:
    """The visitor's model's parameter count."""
    return backend.bundle_for().info.n_params
