"""The loop page's computations: a visitor's runs of the loop, each a live generator holding its KV cache and
stepped one forward pass at a time through the model's queue (ui.backend), never recomputed; the step after the one
on screen computed ahead; a shared link's step taken again; and the completion panel's chat and greedy answers.
Nothing here draws: the runs are kept in the visitor's state, a mapping the page hands in (st.session_state), a
run to the end is a generator of its steps, and a replay reports how far it is through a callback."""
from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Iterator, MutableMapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

import model_backend as mb
from model_backend.core.stats import Loop, find_loop
from model_backend.core.tracing import encode
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


# Where the step after the one on screen is computed while the visitor looks (LoopRun.look_ahead). Each pass
# still queues for the model's engine's lock; the threads only wait there, so there are enough
# of them for every visitor of a class to have one step in the queue.
AHEAD = ThreadPoolExecutor(max_workers=32, thread_name_prefix="loop-ahead")


@dataclass
class LoopRun:
    """One visitor's run of the loop: the live generator (holding its KV cache) and every step taken."""

    prompt: str
    params: mb.SamplingParams
    steps: list[mb.Step] = field(default_factory=list)
    result: mb.Generation | None = None
    gen: Iterator | None = None
    ahead: Future | None = None  # the generator's next item, being computed since the last step was shown

    @property
    def done(self) -> bool:
        return self.result is not None

    def _resume(self) -> None:
        """A generator at this run's step: a new one from the prompt, its first len(steps) items taken again (the
        same settings and seed: the same tokens). Needed for the first step, and after an error closed the old one
        (the engine dropped a step of a visitor who moved on while it waited: a Python generator an exception
        leaves is over). A step that comes out different ends the kept steps there."""
        gen = backend.iter_generation(self.prompt, self.params)
        self.gen = None
        for i, kept in enumerate(list(self.steps)):
            again = next(gen)
            if not isinstance(again, mb.Step) or again.token.id != kept.token.id:
                self.steps = self.steps[:i] + ([again] if isinstance(again, mb.Step) else [])
                break
        self.gen = gen

    def _next(self):
        """The generator's next item; an error (it closed the generator) leaves none, so the next step resumes."""
        try:
            return next(self.gen)
        except BaseException:
            self.gen = None
            raise

    def advance(self) -> mb.Step | None:
        """Take exactly one step (one forward pass, or the one computed ahead). None when the loop has ended."""
        if self.done:
            return None
        ahead, self.ahead = self.ahead, None
        event = None
        if ahead is not None:
            try:
                event = ahead.result()  # the same item as a step computed now
            except mb.Cancelled:  # computed ahead for a browser that went away (a phone's screen locked): again
                self.gen = None
            except BaseException:
                self.gen = None
                raise
        if event is None:
            if self.gen is None:
                self._resume()
            event = self._next()
        if isinstance(event, mb.Generation):
            self.result, self.gen = event, None
            return None
        self.steps.append(event)  # kept before anything is drawn, so an interrupted rerun loses nothing
        if event.finish_reason:  # the loop says on its last step why it ends
            self.result, self.gen = self._next(), None  # the generator only wraps up: no forward pass
        return event

    def look_ahead(self) -> None:
        """Start the next step now, in a thread, while the visitor reads this one: a "Next token" click then only
        shows it. The step is the generator's next item, the same token (the same seed, the same draw) and the
        same numbers as a step computed on the click; its time is its own pass's. Only for a run the visitor has
        started, one step ahead at most."""
        if self.steps and not self.done and self.gen is not None and self.ahead is None:
            self.ahead = AHEAD.submit(backend.for_visitor(next), self.gen)


def current_run(state: MutableMapping, prompt: str, params: mb.SamplingParams) -> LoopRun:
    """The visitor's run for these settings (new settings start a new run; old runs are kept a while). `state`
    is the visitor's session state: the runs live there, under "loop_runs".

    Not a backend.on_model cache, on purpose: a run holds a live generator (and its KV cache) that is stepped in
    place, one visitor's, which no cache can hand out as a copy or share (whole reproducible runs are cached by
    backend.generation)."""
    runs: OrderedDict = state.setdefault("loop_runs", OrderedDict())
    key = run_key(prompt, params)
    if key not in runs:
        runs[key] = LoopRun(prompt=prompt, params=params)
        while len(runs) > MAX_RUNS:
            runs.popitem(last=False)
    runs.move_to_end(key)
    return runs[key]


def reset_run(state: MutableMapping, prompt: str, params: mb.SamplingParams) -> None:
    state.setdefault("loop_runs", OrderedDict()).pop(run_key(prompt, params), None)
    state["loop_steps"] = 0  # what the link says, before any rerun publishes it


def rewound(state: MutableMapping, run: LoopRun, prompt: str, params: mb.SamplingParams
            ) -> tuple[LoopRun, int | None]:
    """The run to take a link's step on, and that step: None unless this is the run that read the link (once).
    A run already past that step starts over."""
    wanted = state.pop("_loop_replay", None)
    if wanted is not None and len(run.steps) > wanted:
        reset_run(state, prompt, params)
        run = current_run(state, prompt, params)
    return run, wanted


def replay(run: LoopRun, wanted: int | None, progress: Callable[[int, int], None]) -> None:
    """Take the run to the step a link asked for (see `rewound`): steps taken again from the prompt with the same
    settings and seed, so the same tokens. Most steps are the engine's decode steps, batched with other visitors'
    (a class following the teacher's step). `progress(done, wanted)` is told before each step."""
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
