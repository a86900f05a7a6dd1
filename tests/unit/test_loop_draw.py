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


def test_while_generate_runs_the_candidates_are_text_and_the_chart_comes_at_the_end(monkeypatch):
    """stream() redraws the live parts at most every REDRAW_S s with the candidates as text lines (a chart redrawn at
    every token cost a class's press a fifth of its server time), and draws the chart once, at the last step."""
    from ui.loop import draw

    charts: list = []
    monkeypatch.setattr(draw, "live", lambda run, slots, chart=True: charts.append((len(run.steps), chart)))
    clock = iter(float(i) for i in range(10, 1000))  # every step a second after the one before: each is drawn
    monkeypatch.setattr(draw.time, "perf_counter", lambda: next(clock))
    bar: list = []
    run = _Run(end=5)
    draw.stream(draw_steps(run), draw.Slots(None, None, None, _Bar(bar)), 5)
    assert charts == [(1, False), (2, False), (3, False), (4, False), (5, True)]
    assert bar[-1] == "cleared" and len(bar) == 6


def draw_steps(run: _Run):
    while not run.done:
        run.advance()
        yield run


def _step(top: list[tuple[int, str, float]], chosen: tuple[int, str, float]):
    import model_backend as mb
    from model_backend.types import Candidate, TokenInfo

    token = TokenInfo(id=chosen[0], text=chosen[1], piece=chosen[1], display=chosen[1], bytes=(), special=False)
    return mb.Step(index=0, phase="prefill", token=token, prob=chosen[2], logprob=0.0, sampled_prob=chosen[2], rank=1,
                   entropy_bits=0.0, top=tuple(Candidate(i, s, 0.0, p) for i, s, p in top), stages=(), ms=0.0,
                   kv_cache_bytes=0, text=chosen[1])


def test_the_candidates_text_lists_each_with_its_probability_and_marks_the_chosen_one(monkeypatch):
    """While "Generate" runs, the chart's place lists the candidates as text: their probabilities lined up, then the
    chart's labels (a line too long for a projector's column wraps in its token), the chosen one marked at the
    start."""
    from ui import i18n
    from ui.loop.draw import candidates_rows, candidates_text

    monkeypatch.setattr(i18n, "lang", lambda: "en")
    step = _step([(1, " Paris", 0.625), (2, " Lyon", 0.08), (3, "<b>", 0.01)], (2, " Lyon", 0.08))
    lines = candidates_text(step).split("\n")
    assert lines == ["  62.5%  ·Paris", "▶  8.0%  ·Lyon", "   1.0%  <b>"]  # probabilities lined up, then the token
    assert candidates_rows(step)["token"].tolist() == ["·Paris", "·Lyon", "<b>"]  # the chart's labels are the same
    # a chosen token outside the top list is added, as on the chart; look-alike tokens keep their ids
    step = _step([(1, " a", 0.5), (7, " a", 0.25)], (9, " b", 0.001))
    assert candidates_text(step).split("\n") == ["  50.0%  ·a", "  25.0%  ·a #7", "▶  0.1%  ·b"]


def test_a_long_token_is_cut_in_the_list_and_the_title_counts_a_chosen_token_from_outside_the_top(monkeypatch):
    """The list cuts a label at TEXT_LABEL_MAX characters (the chart cuts its labels too), so one long token does not
    make every line wrap; a chosen token that was not among the top k is named in the title."""
    from ui import i18n
    from ui.loop.draw import TEXT_LABEL_MAX, cand_title, candidates_text

    monkeypatch.setattr(i18n, "lang", lambda: "en")
    long = "x" * 40
    lines = candidates_text(_step([(1, long, 0.5), (2, " b", 0.25)], (2, " b", 0.25))).split("\n")
    assert lines[0] == "  50.0%  " + "x" * (TEXT_LABEL_MAX - 1) + "…" and lines[1] == "▶ 25.0%  ·b"
    # two long look-alikes: cut first, then the second gets its id (it would be lost if the cut came after)
    lines = candidates_text(_step([(1, long, 0.5), (2, long + "y", 0.25)], (1, long, 0.5))).split("\n")
    assert lines[1].endswith("… #2") and lines[0] != lines[1]
    inside = _step([(1, " a", 0.5), (2, " b", 0.25)], (2, " b", 0.25))
    outside = _step([(1, " a", 0.5), (2, " b", 0.25)], (9, " z", 0.001))
    assert cand_title(inside) == "**Step 1** (prefill): the 2 candidates"
    assert cand_title(outside) == "**Step 1** (prefill): the 2 most likely candidates and the chosen one"


def test_hostile_tokens_stay_one_line_each_and_are_kept_as_typed(monkeypatch):
    """A token with a newline, a bidi override, HTML, Markdown or an emoji: the list keeps one line per candidate,
    and the characters are kept (shown as text by model_text's code block; newlines and controls made visible)."""
    from ui import i18n
    from ui.loop.draw import candidates_text

    monkeypatch.setattr(i18n, "lang", lambda: "en")
    top = [(1, "a\nb", 0.3), (2, "\u202eevil", 0.2), (3, "<img src=x>", 0.1), (4, "[x](y)`", 0.1), (5, "🙂", 0.1)]
    lines = candidates_text(_step(top, (5, "🙂", 0.1))).split("\n")
    assert len(lines) == 5
    assert lines[0].endswith("a↵b") and lines[1].endswith("[U+202E]evil")
    assert lines[2].endswith("<img·src=x>") and lines[3].endswith("[x](y)`") and lines[4] == "▶ 10.0%  🙂"


def test_the_flowchart_has_a_column_for_phones_and_rows_for_projection_with_the_same_boxes_and_cycle():
    """The two-row cycle was drawn at ~5 px a letter on a phone: the tall layout is one column, wrapped narrower, with
    the same nine boxes, the same cycle (the append goes back to the sequence) and the same answers."""
    import re
    from types import SimpleNamespace

    import streamlit as st

    from ui.loop import draw

    st.session_state["lang"], st.session_state["projection"] = "en", False
    run = SimpleNamespace(done=False)
    wide, tall, rows = (draw.flowchart(run, 262144, layout) for layout in ("wide", "tall", "rows"))
    boxes = lambda dot: dict(re.findall(r'^([A-I]) \[label="([^"]*)"', dot, re.M))  # noqa: E731
    assert set(boxes(wide)) == set(boxes(tall)) == set(boxes(rows)) == set("ABCDEFGHI")
    assert max(len(line) for label in boxes(tall).values() for line in label.split("\\n")) <= 18
    assert max(len(line) for key, label in boxes(rows).items() if key != "D" for line in label.split("\\n")) <= 15
    assert max(len(line) for line in boxes(rows)["D"].split("\\n")) <= 21  # the longest box: wider, less tall
    assert "A -> B -> C -> D -> E -> F -> G;" in tall and "H -> A" in tall
    assert 'G -> I [label="yes"]' in tall and 'G -> H [label="no"]' in tall
    assert 'fillcolor="#' in tall.split("\nA [")[1].split("\n")[0]  # the running loop's box is coloured in both
    # projection mode: three rows of three (the column was ~1,100 px tall), the same cycle and answers
    assert "{rank=same; A; B; C;}" in rows and "{rank=same; F; E; D;}" in rows and "{rank=same; H; G;}" in rows
    assert "A -> B -> C; C -> D;" in rows and "F -> E [dir=back]; E -> D [dir=back];" in rows and "F -> G;" in rows
    assert 'H -> G [dir=back, label="no"]; A -> H [dir=back];' in rows and 'G -> I [label="yes"]' in rows
    assert "min-width: 641px) { .st-key-loop_flow_tall { display: none; }" in draw.FLOW_CSS
    assert "max-width: 640px) { .st-key-loop_flow_wide { display: none; }" in draw.FLOW_CSS
