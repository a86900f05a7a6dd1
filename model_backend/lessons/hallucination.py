"""How sure the model was of each token it wrote: per-token probabilities, and summaries to compare runs."""
from __future__ import annotations

from dataclasses import dataclass

from model_backend.types import Candidate, Generation, TokenInfo


@dataclass(frozen=True)
class TokenConfidence:
    """One generated token and how much probability the model gave it."""

    index: int  # 0 = first generated token
    token: TokenInfo
    prob: float  # raw softmax probability of this token at its step (before any sampling setting)
    logprob: float  # natural log of prob, from the logits (finite even if prob rounded to 0)
    entropy_bits: float  # how spread the step's whole distribution was
    rank: int  # 1 = the model's top guess
    alternatives: tuple[Candidate, ...]  # the step's raw top-N, most likely first


@dataclass(frozen=True)
class Summary:
    """A completion's confidence in three numbers (plus where the weakest token was)."""

    n_tokens: int
    mean_prob: float  # arithmetic mean of the tokens' probabilities
    min_index: int  # step of the least likely token (the first one, on ties)
    min_prob: float
    min_token: TokenInfo
    seq_logprob: float  # sum of the tokens' log-probabilities = log P(whole completion | prompt)


@dataclass(frozen=True)
class PairComparison:
    """A prompt about something real next to its invented twin (same pattern, made-up subject)."""

    real: Summary
    invented: Summary

    @property
    def invented_lower_mean(self) -> bool:
        return self.invented.mean_prob < self.real.mean_prob

    @property
    def invented_lower_min(self) -> bool:
        return self.invented.min_prob < self.real.min_prob

    @property
    def invented_lower_logprob(self) -> bool:
        return self.invented.seq_logprob < self.real.seq_logprob


@dataclass(frozen=True)
class Tally:
    """Over M pairs: in how many the invented twin looked less sure, by each measure."""

    pairs: int
    lower_mean: int
    lower_min: int
    lower_logprob: int


def token_table(generation: Generation) -> tuple[TokenConfidence, ...]:
    """Every generated token with its raw probability, entropy, rank and the step's top alternatives.

    Returns:
        one TokenConfidence per step, in order ([n_steps]).
    """
    return tuple(
        TokenConfidence(index=s.index, token=s.token, prob=s.prob, logprob=s.logprob,
                        entropy_bits=s.entropy_bits, rank=s.rank, alternatives=s.top)
        for s in generation.steps
    )


def summarize(generation: Generation) -> Summary:
    """Mean probability, the least likely token and the sequence log-probability of a completion.

    The sequence log-probability adds the log of each token's probability given everything before
    it, so it is the log of the probability of the whole completion (chain rule). Raises ValueError
    for a generation with no steps.
    """
    rows = token_table(generation)
    if not rows:
        raise ValueError("a generation with no tokens has no confidence to summarize")
    weakest = min(rows, key=lambda r: r.prob)  # min() keeps the first of equal values
    return Summary(n_tokens=len(rows), mean_prob=sum(r.prob for r in rows) / len(rows),
                   min_index=weakest.index, min_prob=weakest.prob, min_token=weakest.token,
                   seq_logprob=sum(r.logprob for r in rows))


def compare(real: Generation, invented: Generation) -> PairComparison:
    """Summaries of the two completions of a pair, side by side."""
    return PairComparison(real=summarize(real), invented=summarize(invented))


def tally(comparisons: list[PairComparison] | tuple[PairComparison, ...]) -> Tally:
    """Count the pairs where the invented prompt's completion had the lower value of each measure."""
    return Tally(pairs=len(comparisons),
                 lower_mean=sum(c.invented_lower_mean for c in comparisons),
                 lower_min=sum(c.invented_lower_min for c in comparisons),
                 lower_logprob=sum(c.invented_lower_logprob for c in comparisons))


def mentions(text: str, answers: list[str] | tuple[str, ...]) -> bool:
    """Whether a completion contains one of the accepted answers (case-insensitive).

    A coarse check used to label a completion "states the known fact"; it cannot tell a
    right answer from one that only contains the word.
    """
    low = text.casefold()
    return any(a.casefold() in low for a in answers)


def focus_step(rows: tuple[TokenConfidence, ...], token_text: str | None = None) -> int:
    """The step to inspect first: the first token whose text is `token_text` if there is one,
    otherwise the least likely token. Returns its index (0 when rows is empty)."""
    if not rows:
        return 0
    if token_text is not None:
        for r in rows:
            if r.token.text == token_text:
                return r.index
    return min(rows, key=lambda r: r.prob).index
