"""The loop page's pure helpers: stop sequences as typed become the real strings; a link's replay and its bar."""
from ui.loop.draw import parse_stops


def test_escapes_become_real_characters():
    assert parse_stops(["\\n", "\\n\\n", "\\t"]) == ("\n", "\n\n", "\t")


def test_text_is_kept_as_typed_including_spaces_and_accents():
    assert parse_stops([" que", "França", "<b>"]) == (" que", "França", "<b>")


def test_repeats_are_dropped_in_order():
    assert parse_stops([".", "\\n", ".", "\n"]) == (".", "\n")


class _Bar:
    """st.empty() as draw.replaying() uses it: what was drawn into it, in order."""

    def __init__(self, drawn: list):
        self.drawn = drawn

    def progress(self, value, text):
        self.drawn.append((value, text))

    def empty(self):
        self.drawn.append("cleared")


class _Run:
    """A run whose steps cost nothing: advance() appends one."""

    def __init__(self, end: int = 99):
        self.steps, self.end = [], end

    @property
    def done(self):
        return len(self.steps) >= self.end

    def advance(self):
        self.steps.append(len(self.steps))


def _replay(monkeypatch, wanted: int, run: _Run) -> list:
    """The page's replay: the link's step read once from the visitor's state (compute.rewound), then taken again
    (compute.replay) inside draw.replaying, whose bar reports how far it is."""
    from ui.loop import compute, draw

    drawn: list = []
    state = {"_loop_replay": wanted}
    monkeypatch.setattr(draw.st, "empty", lambda: _Bar(drawn))
    assert compute.rewound(state, run, "p", None) == (run, wanted) and "_loop_replay" not in state
    with draw.replaying(wanted, len(run.steps)) as progress:
        compute.replay(run, wanted, progress)
    return drawn


def test_a_long_replay_shows_its_progress_and_clears_it(monkeypatch):
    run = _Run()
    drawn = _replay(monkeypatch, 6, run)
    assert len(run.steps) == 6
    assert [value for value, _ in drawn[:-1]] == [i / 6 for i in range(6)] and drawn[-1] == "cleared"
    assert "6" in drawn[0][1] and "1" in drawn[0][1]  # step 1 of 6


def test_a_short_replay_or_one_that_ends_early_draws_nothing_more(monkeypatch):
    assert _replay(monkeypatch, 2, _Run()) == []  # a step or two: no bar
    run = _Run(end=3)
    drawn = _replay(monkeypatch, 9, run)
    assert len(run.steps) == 3 and len(drawn) == 4 and drawn[-1] == "cleared"  # the run's end stops the replay
