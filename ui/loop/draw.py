"""The loop page's drawing: its settings and links, the run's text, candidates, flowchart, steps, time, KV cache and
compute, why it stopped, and the completion panel. It takes what ui.loop.compute returned (a LoopRun, read only:
its steps, result, done) and never reaches the model; a run to the end is drawn as its steps come, and a link's
replay shows a progress bar (a context manager that yields the callback compute reports to)."""
from __future__ import annotations

import json
import textwrap
import time
from collections.abc import Iterable
from contextlib import contextmanager
from typing import NamedTuple

import altair as alt
import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from streamlit.errors import StreamlitAPIException

import model_backend as mb
from model_backend.core.kv import kv_bytes_per_position, kv_cache_bytes_at, kv_values_per_token
from model_backend.core.tokens import visible
from model_backend.lessons.pipeline import answer_flops, output_flops
from ui.charts import OKABE_ITO, PRIMARY, projection_on, save_frame, show_frame
from ui.export import downloads, files_shown
from ui.i18n import fmt_bytes, fmt_float, fmt_int, fmt_pct, lang, t
from ui.loop.compute import ANSWER, SUM, Answered, LoopRun, PromptFacts
from ui.nav import decoding_link
from ui.share import Param, publish, restore, share_box
from ui.untrusted import escape_frame
from ui.widgets import data_table, model_text

ESCAPES = (("\\n", "\n"), ("\\t", "\t"))
STOP_PRESETS = ["\\n", ".", "\\n\\n"]
CHOSEN = OKABE_ITO[1]
ROW = 35  # table row height in px, so a table's height fits its rows exactly
STEP_WINDOW = 10  # the steps table shows the newest this many steps
TABLE_ROW, TABLE_ROW_PROJECTION = 32, 50  # an st.table row's height in px at 1280 px (Chromium), normal and projection
STOP_LINK = "loop_stop_link"  # the stop sequences in a link, as JSON (the multiselect holds a list)
MAX_STOPS, MAX_STOP_CHARS = 8, 50  # what a link may carry as stop sequences


# --- links that carry the settings ---------------------------------------------------------------

def link_params(cap: int) -> list[Param]:
    """The prompt, every sampling setting (the course text's defaults: T 0.7, top-p 0.9), and how many steps the
    run shows: a link opens the run at that step (the same seed makes the same tokens again), and a phone that
    follows the teacher takes her step."""
    return [Param("prompt", "prompt_loop", str, t("common.default_prompt")),
            Param("temperature", "loop_temperature", float, 0.7, low=0.0, high=2.0),
            Param("top_k", "loop_top_k", int, 0, low=0, high=1000),
            Param("top_p", "loop_top_p", float, 0.9, low=0.05, high=1.0),
            Param("rep", "loop_penalty", float, 1.0, low=1.0, high=2.0),
            Param("max_new", "loop_max_new", int, min(20, cap), low=1, high=cap),
            Param("seed", "loop_seed", int, 42, low=0, high=2**31 - 1),
            Param("steps", "loop_steps", int, 0, low=0, high=cap),
            Param("stop", STOP_LINK, str, "[]")]  # last: restore_link reads it apart


def stops_from_link(raw: str) -> list[str] | None:
    """A link's stop sequences: a JSON list of up to MAX_STOPS short strings, as typed. None if not that."""
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    ok = isinstance(value, list) and len(value) <= MAX_STOPS and all(
        isinstance(s, str) and 0 < len(s) <= MAX_STOP_CHARS and "\x00" not in s for s in value)
    return list(dict.fromkeys(value)) if ok else None


def restore_link(links: list[Param]) -> bool:
    """Put a shared link's values into the widgets' state (before they exist); True if this visit came from one.

    The loop keeps its tokens in this session only: a link brings the prompt and settings, and the same
    settings (same seed) make the same tokens again.
    """
    if "loop_from_link" not in st.session_state:
        st.session_state["loop_from_link"] = any(p.name in st.query_params for p in links)
    reading = not st.session_state.get("_restored_loop")  # this run reads the link (restore sets the flag)
    restore("loop", links)
    if reading and "steps" in st.query_params:
        st.session_state["_loop_replay"] = st.session_state.get("loop_steps", 0)  # the fragment replays to there
    raw = st.session_state.pop(STOP_LINK, None)  # only there on the run that read the link
    if raw is not None:
        stops = stops_from_link(raw)
        if stops is None:  # the same notice as restore()'s other rejected values
            st.session_state.setdefault("_rejected_loop", []).append("stop")
        else:
            st.session_state["loop_stop"] = stops
    for p in links[1:-1]:
        st.session_state.setdefault(p.key, p.default)
    st.session_state.setdefault("loop_stop", [])
    return st.session_state["loop_from_link"]


def publish_link(links: list[Param], box: bool = False) -> None:
    """Write the settings into the URL (with box=True also show the copyable link)."""
    st.session_state[STOP_LINK] = json.dumps(list(st.session_state.get("loop_stop") or []), ensure_ascii=False)
    try:
        (share_box if box else publish)("loop", links)
    finally:
        st.session_state.pop(STOP_LINK, None)  # else the next run would take it for a link's value


def table_height(rows: int) -> int:
    """A table's height in px: its rows exactly, up to 420 (then it scrolls)."""
    return min(420, ROW * (rows + 1) + 3)  # projection mode's taller rows: ui.widgets.projection_height


def parse_stops(entries: list[str]) -> tuple[str, ...]:
    """Stop sequences as typed (with \\n and \\t written as escapes) -> the real strings, order kept, no repeats."""
    out: list[str] = []
    for entry in entries:
        text = entry
        for escaped, real in ESCAPES:
            text = text.replace(escaped, real)
        if text not in out:
            out.append(text)
    return tuple(out)


def settings_summary(params: mb.SamplingParams) -> str:
    """One line with every setting, so they are visible while the settings panel is closed."""
    off = t("loop.sum.off")
    parts = [t("loop.sum.greedy") if params.greedy else f"T = {fmt_float(params.temperature, 2)}",
             f"top-k {params.top_k if params.top_k else off}",
             f"top-p {fmt_float(params.top_p, 2) if params.top_p < 1 else off}",
             t("loop.sum.penalty", v=fmt_float(params.repetition_penalty, 2) if params.repetition_penalty != 1
               else t("loop.sum.off_f")),
             f"max_new_tokens {params.max_new_tokens}",
             t("loop.sum.stops", n=len(params.stop))]
    if not params.greedy:
        parts.append(t("loop.sum.seed", seed=params.seed))
    return " · ".join(parts)


def cand_title(step: mb.Step) -> str:
    """The candidates' title: the top k, or the top k and the chosen one when it was not among them (one more bar)."""
    outside = step.token.id not in {c.id for c in step.top}
    return t("loop.cand.title.plus" if outside else "loop.cand.title", n=step.index + 1,
             phase=t(f"loop.phase.{step.phase}"), k=len(step.top))


def cand_caption(step: mb.Step, last: bool) -> str:
    """The candidates' caption; "on the next turn it is part of the input" only when there is a next turn (review
    A, L9): the last step of a finished run (end-of-sequence token, the limit, a stop sequence) has none."""
    return t("loop.cand.caption.last" if last else "loop.cand.caption", p=fmt_pct(step.prob), rank=step.rank)


REPLAY_BAR_AFTER = 3  # a replay of more steps than this shows a progress bar while it runs


@contextmanager
def replaying(wanted: int | None, done: int):
    """While a link's step is taken again (from `done` steps to `wanted`), yield the callback compute tells how far
    it is; a long replay (a phone joining the teacher's run late) says so in a bar, step n of N, cleared after."""
    bar = st.empty() if wanted is not None and wanted - done > REPLAY_BAR_AFTER else None

    def progress(n: int, of: int) -> None:
        if bar is not None:
            bar.progress(n / of, text=t("loop.replay", n=n + 1, of=of))
    yield progress
    if bar is not None:
        bar.empty()


def take_step() -> None:
    """A phone that follows the teacher took her step (ui.live_class.follow_in_fragment): the run's fragment goes
    there as it goes to a link's step, replaying the same tokens, and then writes the step into the phone's address
    (publish_steps: the step it shows is not yet the one kept)."""
    st.session_state["_loop_replay"] = st.session_state.pop("loop_steps", 0)


def step_in_fragment(shown: dict, hers: dict) -> bool:
    """Can the run's fragment alone take the teacher's step? Yes when the phone shows a step and she does: from no
    step, or back to none, the positions panel outside the fragment changes too (the page runs)."""
    def steps(values: dict) -> int:
        raw = str(values.get("steps") or "0")
        return int(raw) if raw.isdigit() else 0

    return steps(shown) > 0 and steps(hers) > 0


def publish_steps(run: LoopRun, cap: int) -> None:
    """The link says how many steps the run shows (a teacher's phones take her step): written when it changed,
    also from the fragment, where the page's own publish_link does not run."""
    if st.session_state.get("loop_steps") != len(run.steps):
        st.session_state["loop_steps"] = len(run.steps)
        publish_link(link_params(cap))


def candidates(step: mb.Step, most: int | None = None) -> list[tuple[str, float, bool]]:
    """The step's top-10 candidates, the chosen one added if it was not in the top 10: (label, probability, chosen)
    each. Two tokens can look alike: a repeated label gets the token's id. most: labels cut to that many
    characters (with "…"), before the id is added (two long look-alikes stay apart)."""
    rows = [(c.id, c.text, c.prob) for c in step.top]
    if step.token.id not in [r[0] for r in rows]:
        rows.append((step.token.id, step.token.text, step.prob))
    labels: list[str] = []
    for token_id, text, _ in rows:
        label = visible(text) or "∅"
        label = label if most is None or len(label) <= most else label[:most - 1] + "…"
        labels.append(label if label not in labels else f"{label} #{token_id}")
    return [(label, p, token_id == step.token.id) for label, (token_id, _, p) in zip(labels, rows)]


def candidates_rows(step: mb.Step) -> pd.DataFrame:
    """The candidates chart's rows (`candidates`)."""
    rows = candidates(step)
    return pd.DataFrame({
        "order": range(len(rows)),
        "token": [label for label, _, _ in rows],
        "prob": [p for _, p, _ in rows],
        "shown": [fmt_pct(p) for _, p, _ in rows],
        "chosen": [t("loop.cand.chosen") if chosen else t("loop.cand.other") for _, _, chosen in rows],
    })


TEXT_LABEL_MAX = 20  # characters of a token's label in the candidates' text list


def candidates_text(step: mb.Step) -> str:
    """The candidates as plain lines, "probability  token", the chosen one marked in front: what the chart's place
    shows while "Generate" runs (a chart redrawn at every token was a fifth of a press's server time when a class
    pressed). The probabilities line up first; a token's label is cut at TEXT_LABEL_MAX characters (the chart cuts
    its labels too), and `visible` keeps every candidate on one line (a newline in a token is drawn as ↵)."""
    rows = [(label, fmt_pct(p), chosen) for label, p, chosen in candidates(step, most=TEXT_LABEL_MAX)]
    width = max(len(shown) for _, shown, _ in rows)
    return "\n".join(f"{CHOSEN_MARK if chosen else ' '} {shown:>{width}}  {label}" for label, shown, chosen in rows)


CHOSEN_MARK = "▶"  # at the start of the chosen candidate's line (the caption says so)


def candidates_chart(df: pd.DataFrame) -> alt.Chart:
    """The candidates as bars in the rows' order, the chosen one in another colour. Drawn with `show_frame`:
    the spec does not depend on the rows, so a new step only sends new rows."""
    base = alt.Chart(df).encode(
        y=alt.Y("token:N", sort=alt.EncodingSortField(field="order", op="min", order="ascending"), title=None,
                axis=alt.Axis(labelLimit=140)),
        x=alt.X("prob:Q", title=t("loop.axis.prob"), axis=alt.Axis(format="%")),
        tooltip=[alt.Tooltip("token:N", title=t("loop.axis.token")), alt.Tooltip("shown:N", title=t("loop.axis.prob")),
                 alt.Tooltip("chosen:N", title=" ")],
    )
    bars = base.mark_bar().encode(color=alt.Color(
        "chosen:N", scale=alt.Scale(domain=[t("loop.cand.chosen"), t("loop.cand.other")], range=[CHOSEN, PRIMARY]),
        title=None, legend=alt.Legend(orient="bottom", direction="vertical" if projection_on() else "horizontal")))
    return (bars + base.mark_text(align="left", dx=4).encode(text="shown:N")).properties(
        height=alt.Step(36 if projection_on() else 24))  # projection mode: larger labels need taller rows


def shown_key(run: LoopRun) -> tuple[int, int, str]:
    """Names the steps a visitor's view shows, for everyone who shows the same ones (show_frame's rows_key): the
    shared run's serial, how many of its steps, the language. A run's first n steps never change, so neither do
    the rows drawn from them: a class's 30 phones at the teacher's step convert each chart's rows once."""
    return run.shared.serial, len(run.steps), lang()


def show_candidates(step, save: bool = True, run: LoopRun | None = None) -> None:
    """The candidates chart; its text alternative also names the chosen bar (the chart tells it by colour).
    save=False: without its PNG/SVG buttons (the live chart: its buttons are in the files box, `files`).
    run: the view whose newest step this is (its rows are converted once for everyone who shows it)."""
    key = None if run is None else shown_key(run)
    df = candidates_rows(step)
    marks = df["chosen"].tolist()  # plain lists: a pandas filter here was a tenth of a phone's loop step (py-spy)
    at = marks.index(t("loop.cand.chosen")) if t("loop.cand.chosen") in marks else None
    note = None if at is None else t("a11y.chart.chosen", token=f"“{df['token'].iat[at]}”", p=df["shown"].iat[at])
    show_frame(candidates_chart, df, note=note, save=save, rows_key=key)


REDRAW_S = 0.25  # while "Generate" runs, the live parts are redrawn at most this often (and once more at the end)
# While it runs, the candidates are listed as text (candidates_text); the chart is drawn once the run stops. With a
# class pressing at once a press's tokens come about one a second, so a chart there was redrawn at every token:
# 0.18 of a press's 1.07 server CPU-s (bench press_bench --cases loop, 30 at once).


def buttons(done: bool) -> tuple[bool, bool, bool]:
    """The run's three buttons, next token, to the end (both off once the run is done) and start over: which was
    clicked, in that order."""
    b1, b2, b3 = st.columns([1, 1.4, 1] if projection_on() else 3)  # the longest label gets room in projection mode
    step_once = b1.button(t("loop.btn.next"), icon=":material/skip_next:", type="primary", disabled=done,
                          width="stretch")
    to_end = b2.button(t("loop.btn.generate"), icon=":material/fast_forward:", disabled=done, width="stretch")
    return step_once, to_end, b3.button(t("loop.btn.reset"), icon=":material/restart_alt:", width="stretch")


class Slots(NamedTuple):
    """The placeholders the run is drawn into, and redrawn while it generates."""

    text: DeltaGenerator
    tokens: DeltaGenerator
    chart: DeltaGenerator
    progress: DeltaGenerator


def slots() -> Slots:
    """The growing text and its tokens on the left, the newest step's candidates on the right, a progress bar."""
    left, right = st.columns([3, 2])
    with left:
        text_slot, tokens_slot = st.empty(), st.empty()
    with right:
        chart_slot = st.empty()
    return Slots(text_slot, tokens_slot, chart_slot, st.empty())


def stream(steps: Iterable[LoopRun], slots: Slots, max_new: int) -> None:
    """Draw a run to the end as its steps come (`steps` yields the run after each one): the tokens and the
    progress at most every REDRAW_S seconds, and once more at the end; then the bar is cleared."""
    drawn = 0.0
    for run in steps:
        if time.perf_counter() - drawn >= REDRAW_S or run.done:
            slots.progress.progress(len(run.steps) / max_new, text=t("loop.progress", n=len(run.steps), max=max_new))
            live(run, slots, chart=run.done)
            drawn = time.perf_counter()
    slots.progress.empty()


def rerun_buttons() -> None:
    """The buttons were drawn before the loop ended: rerun to draw them disabled."""
    try:
        st.rerun(scope="fragment")  # a click inside the fragment reran only the fragment: so again
    except StreamlitAPIException:  # the whole page ran (a test's click, a browser without fragments): rerun it
        st.rerun()


def live(run: LoopRun, slots: Slots, chart: bool = True) -> None:
    """The growing text and the newest step's candidates, drawn into placeholders (redrawn while generating).
    chart=False: the candidates as text lines (while "Generate" runs), not the chart."""
    completion = run.steps[-1].text if run.steps else ""
    with slots.text.container():
        st.markdown(t("loop.text.label", n=len(run.steps)))
        model_text(run.prompt + completion)
    with slots.tokens.container():
        if run.steps:
            st.markdown(t("loop.tokens.label"))
            model_text(" | ".join(s.token.display for s in run.steps))
    with slots.chart.container():
        if run.steps:
            step = run.steps[-1]
            st.markdown(cand_title(step))
            if not chart:
                model_text(candidates_text(step), wrap=False)  # a line each, also in a projector's narrow column
                st.caption(t("loop.cand.streaming", mark=CHOSEN_MARK))
                return
            show_candidates(step, save=False, run=run)  # its PNG/SVG buttons are in the files box (files)
            st.caption(cand_caption(step, last=run.done))
        else:
            st.info(t("loop.empty"), icon=":material/touch_app:")


def flowchart(run: LoopRun, vocab: int, layout: str = "wide") -> str:
    """The course text's flowchart as Graphviz DOT: a two-row cycle ("wide"), one column ("tall": a phone, where
    the wide one was drawn at ~5 px a letter), or three rows of three ("rows": projection mode, where the wide one
    was drawn at ~10 px a letter and the column, ~1,100 px tall, did not fit a 720 px projector; three rows: ~640 px,
    ~14 px a letter at 1280 px).

    The box where the loop is now is coloured: the sequence while it runs, the end once it stopped. The text is
    the same at every step (the run's numbers are in the caption, `flow_caption`): the browser lays a changed
    chart out again, ~0.4 s of a slow machine's time per "Next token" click.
    """
    width = {"wide": 24, "tall": 18, "rows": 15}[layout]

    def q(key: str, wrap: int = width, **values) -> str:  # our own text, wrapped, with DOT's quote and newline escapes
        return "\\n".join(textwrap.wrap(t(key, **values).replace('"', "'"), wrap))

    nodes = {
        "A": q("loop.flow.seq"),
        "B": q("loop.flow.pass"), "C": q("loop.flow.logits", v=fmt_int(vocab)), "D": q("loop.flow.softmax", width + 6 if layout == "rows" else width),  # the longest box
        "E": q("loop.flow.sample"), "F": q("loop.flow.token"),
        "G": q("loop.flow.check", 24 if layout == "wide" else 14),  # a diamond: wider than its text
        "H": q("loop.flow.append"), "I": q("loop.flow.end"),
    }
    hot = "I" if run.done else "A"
    size = {"wide": 18, "tall": 16, "rows": 18}[layout] if projection_on() else 13
    nodesep = {"wide": 0.3, "tall": 0.5, "rows": 0.2}[layout]
    lines = [f'digraph {{ rankdir=TB; bgcolor="transparent"; nodesep={nodesep}; ranksep='
             f'{0.25 if layout == "tall" else 0.35};',
             f'node [shape=box, style="rounded,filled", fontname="sans-serif", fontsize={size}, fillcolor="#ffffff"];']
    for name, label in nodes.items():
        shape = ", shape=diamond" if name == "G" else ""
        fill = f', fillcolor="{CHOSEN}"' if name == hot else ""
        lines.append(f'{name} [label="{label}"{shape}{fill}];')
    if layout == "tall":  # down the column; the answers side by side under the check; back up to the sequence
        lines += ["A -> B -> C -> D -> E -> F -> G;", "{rank=same; I; H;}", "I -> H [style=invis];",  # the end left
                  f'G -> I [label="{q("loop.flow.yes")}"]; G -> H [label="{q("loop.flow.no")}"];',
                  "H -> A [constraint=false];", "}"]
    elif layout == "rows":  # left to right, right to left, then the check; "no" goes back up to the sequence
        lines += ["{rank=same; A; B; C;}", "{rank=same; F; E; D;}", "{rank=same; H; G;}",
                  "A -> B -> C; C -> D;",
                  "F -> E [dir=back]; E -> D [dir=back];",  # drawn right to left: D -> E -> F
                  "F -> G;",
                  f'H -> G [dir=back, label="{q("loop.flow.no")}"]; A -> H [dir=back];',
                  f'G -> I [label="{q("loop.flow.yes")}"];', "}"]
    else:
        lines += ["{rank=same; A; B; C; D;}", "{rank=same; H; G; F; E;}",
                  "A -> B -> C -> D; D -> E;",
                  "F -> E [dir=back]; G -> F [dir=back];",  # drawn right to left: E -> F -> G
                  f'H -> G [dir=back, label="{q("loop.flow.no")}"]; A -> H [dir=back];',
                  f'G -> I [label="{q("loop.flow.yes")}"];', "}"]
    return "\n".join(lines)


FLOW_CSS = ("<style>@media (min-width: 641px) { .st-key-loop_flow_tall { display: none; } } "
            "@media (max-width: 640px) { .st-key-loop_flow_wide { display: none; } }</style>")


def flow(run: LoopRun, facts: PromptFacts) -> None:
    """The flowchart and its caption with this run's numbers: in projection mode the three rows at their own size; else
    the wide one, which a phone's screen swaps for the tall one (FLOW_CSS, our own static CSS)."""
    vocab = facts.info.vocab_size
    if projection_on():
        st.graphviz_chart(flowchart(run, vocab, "rows"), width="content")
    else:
        st.html(FLOW_CSS)
        with st.container(key="loop_flow_wide"):
            st.graphviz_chart(flowchart(run, vocab), width="stretch")
        with st.container(key="loop_flow_tall"):
            st.graphviz_chart(flowchart(run, vocab, "tall"), width="stretch")
    st.caption(flow_caption(run, facts.n_tokens))


def flow_caption(run: LoopRun, n_prompt: int) -> str:
    """The caption under the flowchart, with this run's numbers."""
    return t("loop.flow.caption", n=fmt_int(n_prompt + len(run.steps)), gen=len(run.steps))


# --- why it stopped ------------------------------------------------------------------------------------------------
# The course text calls it "stop_reason/finish_reason". OpenAI's Chat Completions API reports `finish_reason`: "stop"
# for both the end-of-sequence token and a stop sequence, "length" for the token limit. Anthropic's Messages API
# reports `stop_reason`: "end_turn", "stop_sequence", "max_tokens".

# this app's reason -> (OpenAI finish_reason, Anthropic stop_reason), from the providers' API references
API_NAMES = {
    "stop": ("stop", "end_turn"),
    "length": ("length", "max_tokens"),
    "stop_sequence": ("stop", "stop_sequence"),
}


def mapping_frame(current: str | None = None) -> pd.DataFrame:
    """One row per reason: what happened, and the value each API returns (▶ marks this generation's)."""
    return pd.DataFrame({
        t("finish.col.what"): [("▶ " if reason == current else "") + t(f"finish.what.{reason}") for reason in API_NAMES],
        t("finish.col.openai"): [f'"{openai}"' for openai, _ in API_NAMES.values()],
        t("finish.col.anthropic"): [f'"{anthropic}"' for _, anthropic in API_NAMES.values()],
    })


def finish_box(result: mb.Generation) -> None:
    """finish_reason with the course text's explanation; a stop sequence (visitor text) is shown as text."""
    reason = result.finish_reason
    if reason == "length":
        st.warning(t("loop.finish.length", n=result.params.max_new_tokens), icon=":material/content_cut:")
    elif reason == "stop_sequence":
        st.info(t("loop.finish.stop_sequence"), icon=":material/block:")
        model_text(visible(result.stop_sequence or ""))
    else:
        st.success(t("loop.finish.stop"), icon=":material/check_circle:")
    with st.expander(t("finish.title"), icon=":material/translate:"):  # the seed: "stop_reason/finish_reason"
        st.table(mapping_frame(reason), hide_index=True)  # our own strings only (Markdown)
        st.caption(t("finish.caption"))


def greedy_loop_panel(prompt: str, loop) -> None:
    """When greedy decoding fell into a loop (compute.greedy_loop's Loop, or None): say how, and link the decoding
    page with this prompt, where greedy, beam search and sampling run side by side."""
    if loop is None:
        return
    st.info(t("loop.greedy_loop", period=loop.period, repeats=loop.repeats), icon=":material/repeat:")
    decoding_link(prompt, "loop")


def steps_rows(steps: list[mb.Step]) -> pd.DataFrame:
    """The steps table's rows as the reader sees them, one per step."""
    return pd.DataFrame({
        t("loop.col.step"): [s.index + 1 for s in steps],
        t("loop.col.phase"): [t(f"loop.phase.{s.phase}") for s in steps],
        t("loop.col.token"): [s.token.display for s in steps],
        t("loop.col.prob"): [fmt_pct(s.prob) for s in steps],
        t("loop.col.rank"): [s.rank for s in steps],
        t("loop.col.ms"): [fmt_float(s.ms, 1) for s in steps],
        t("loop.col.kv"): [fmt_bytes(s.kv_cache_bytes) for s in steps],
    })


def steps_table(steps: list[mb.Step]) -> None:
    """The newest STEP_WINDOW steps, oldest first, so the step just taken is always the bottom row; every step
    is in the "All steps" table below it, in the inspector and in the files.

    A plain table (st.table) of at most STEP_WINDOW rows in a box of constant height: a "Next token" click sends
    and lays out the same few rows whatever the step, and moves nothing below it. (A canvas grid of every step
    cost about 170 ms of a click in the browser, and its newest row fell below its fold after eleven steps.)"""
    shown = steps[-STEP_WINDOW:]
    with st.container(key="loop_steps_window"):  # window_css() keeps its height from the first step on
        st.table(escape_frame(steps_rows(shown)), hide_index=True)  # st.table reads Markdown: cells escaped
    if len(steps) > len(shown):
        st.caption(t("loop.steps.window", shown=len(shown), n=len(steps)))
    box = st.expander(t("loop.steps.all"), icon=":material/table_rows:", key="loop_steps_all_open", on_change="rerun")
    if box.open:  # drawn only while open: a click does not send every step again for a closed box
        with box:
            data_table(steps_rows(steps), hide_index=True, row_height=ROW, height=table_height(len(steps)))


def window_css() -> str:
    """Our own static CSS: the steps window is as tall as STEP_WINDOW rows from the first step on, wherever its rows
    keep to one line (wider than a phone), so the first clicks do not move everything below it either."""
    row = TABLE_ROW_PROJECTION if projection_on() else TABLE_ROW
    return ("<style>@media (min-width: 641px) { .st-key-loop_steps_window { min-height: "
            f"{(STEP_WINDOW + 1) * row + 2}px; }} }}</style>")


def steps_frame(steps: list[mb.Step]) -> pd.DataFrame:
    """One row per step taken: the table's values (raw numbers) plus the text so far, for the files."""
    return pd.DataFrame({
        "step": [s.index + 1 for s in steps], "phase": [s.phase for s in steps],
        "id": [s.token.id for s in steps], "token": [s.token.display for s in steps],
        "prob": [float(s.prob) for s in steps], "rank": [s.rank for s in steps], "ms": [float(s.ms) for s in steps],
        "kv_cache_bytes": [int(s.kv_cache_bytes) for s in steps], "completion": [s.text for s in steps],
    })


def candidates_frame(steps: list[mb.Step]) -> pd.DataFrame:
    """Every step's top candidates (the bars of the candidates charts): step, rank, id, token, prob, chosen."""
    rows = []
    for s in steps:
        rows += [{"step": s.index + 1, "rank": rank, "id": c.id, "token": visible(c.text) or "∅",
                  "prob": float(c.prob), "chosen": c.id == s.token.id} for rank, c in enumerate(s.top, start=1)]
        if s.token.id not in [c.id for c in s.top]:  # the chart adds the chosen token when it was not in the top
            rows.append({"step": s.index + 1, "rank": s.rank, "id": s.token.id, "token": visible(s.token.text) or "∅",
                         "prob": float(s.prob), "chosen": True})
    return pd.DataFrame(rows, columns=["step", "rank", "id", "token", "prob", "chosen"])


def inspector(run: LoopRun) -> None:
    """Look back at any step already taken: it is read from memory, never recomputed.

    In an expander, closed at first and drawn only while open: a "Next token" click then does not redraw its
    slider, text and chart (the newest step's candidates are at the top of the page already)."""
    box = st.expander(t("loop.inspect.title"), icon=":material/history:", key="loop_inspect_open", on_change="rerun")
    if not box.open:
        return
    with box:
        _inspect(run)


def _inspect(run: LoopRun) -> None:
    if len(run.steps) > 1:
        n = st.slider(t("loop.inspect.pick"), 1, len(run.steps), len(run.steps), key="loop_inspect")
    else:
        n = 1
    step = run.steps[n - 1]
    context = run.prompt + (run.steps[n - 2].text if n > 1 else "")
    st.markdown(t("loop.inspect.context", n=n))
    model_text(context)
    show_candidates(step)
    st.caption(cand_caption(step, last=run.done and n == len(run.steps)))


def timing_rows(steps: list[mb.Step]) -> pd.DataFrame:
    return pd.DataFrame({"step": [s.index + 1 for s in steps], "ms": [s.ms for s in steps],
                         "phase": [t(f"loop.phase.{s.phase}") for s in steps],
                         "shown": [fmt_float(s.ms, 1) + " ms" for s in steps]})


def timing_bars(df: pd.DataFrame) -> alt.Chart:
    """Each step's time, prefill and decode in two colours (drawn with `show_frame`)."""
    return alt.Chart(df).mark_bar().encode(
        x=alt.X("step:O", title=t("loop.axis.step"), axis=alt.Axis(labelAngle=0)),
        y=alt.Y("ms:Q", title=t("loop.axis.ms")),
        color=alt.Color("phase:N", scale=alt.Scale(domain=[t("loop.phase.prefill"), t("loop.phase.decode")],
                                                   range=[CHOSEN, PRIMARY]), title=None,
                        legend=alt.Legend(orient="bottom")),
        tooltip=[alt.Tooltip("step:O", title=t("loop.axis.step")), alt.Tooltip("phase:N", title=t("loop.col.phase")),
                 alt.Tooltip("shown:N", title=t("loop.axis.ms"))],
    ).properties(height=300)


def timing_chart(steps: list[mb.Step], n_prompt: int, key: tuple | None = None) -> None:
    """The time of each step (`key`: shown_key, the rows are built once for everyone who shows these steps)."""
    show_frame(timing_bars, lambda: timing_rows(steps), save=False, rows_key=key)  # PNG/SVG: the files box
    decode = sorted(s.ms for s in steps if s.phase == "decode")
    median = decode[len(decode) // 2] if decode else 0.0
    st.caption(t("loop.time.caption", n=fmt_int(n_prompt), prefill=fmt_float(steps[0].ms, 0),
                 per=fmt_float(steps[0].ms / n_prompt, 0), decode=fmt_float(median, 0)))


def kv_rows(steps: list[mb.Step], n_prompt: int, info: mb.ModelInfo | None = None, up_to: int = 0) -> pd.DataFrame:
    """The measured cache size after each step ("measured"), and, with `info`, the formula's size at 1 .. up_to
    positions ("formula", sampled, the bend at the window included): one table, so show_frame can send it."""
    measured = pd.DataFrame({"positions": [n_prompt + s.index for s in steps], "bytes": [s.kv_cache_bytes for s in steps],
                             "series": "measured"})
    if info is None or up_to < 1:
        frame = measured
    else:
        window = (info.sliding_window or 0) - 1
        xs = sorted({1, up_to, *range(1, up_to + 1, max(up_to // 64, 1)), *([window] if 0 < window < up_to else [])})
        formula = pd.DataFrame({"positions": xs, "bytes": [kv_cache_bytes_at(info, x) for x in xs], "series": "formula"})
        frame = pd.concat([formula, measured], ignore_index=True)
    frame["shown"] = [fmt_bytes(b) for b in frame["bytes"]]
    return frame


def kv_line(df: pd.DataFrame) -> alt.LayerChart:
    """The KV cache's measured size (dots) against the positions it holds, over the formula's line (dashed);
    drawn with `show_frame` (one table, series "measured" and "formula")."""
    base = alt.Chart(df).encode(
        x=alt.X("positions:Q", title=t("loop.axis.positions"), axis=alt.Axis(tickMinStep=1, format="d")),
        y=alt.Y("bytes:Q", title=t("loop.axis.bytes")),
        tooltip=[alt.Tooltip("positions:Q", title=t("loop.axis.positions")),
                 alt.Tooltip("shown:N", title=t("loop.axis.bytes"))],
    )
    formula = base.transform_filter("datum.series == 'formula'").mark_line(color=CHOSEN, strokeDash=[6, 4])
    measured = base.transform_filter("datum.series != 'formula'")
    return (formula + measured.mark_line(color=PRIMARY)
            + measured.mark_point(color=PRIMARY, filled=True, size=50)).properties(height=300)


def kv_chart(steps: list[mb.Step], n_prompt: int, info: mb.ModelInfo, key: tuple | None = None) -> None:
    """The KV cache's size (`key`: shown_key, the rows are built once for everyone who shows these steps)."""
    window = info.sliding_window or 0
    n_sliding = sum(1 for k in info.layer_types if k == "sliding_attention")
    up_to = kv_up_to(steps, n_prompt, info)
    show_frame(kv_line, lambda: kv_rows(steps, n_prompt, info, up_to), save=False, rows_key=key)  # PNG/SVG: files
    per = kv_bytes_per_position(info)
    numbers = info.n_layers * kv_values_per_token(info.n_kv_heads, info.head_dim)
    st.caption(t("loop.kv.caption", per=fmt_bytes(per), layers=info.n_layers, kv=info.n_kv_heads,
                 hd=info.head_dim, numbers=fmt_int(numbers), b=per // numbers, dtype=info.dtype,
                 total=fmt_bytes(steps[-1].kv_cache_bytes)))
    if n_sliding and window:
        n_full = info.n_layers - n_sliding
        st.caption(t("loop.kv.window", n_sliding=n_sliding, kept=fmt_int(window - 1), window=fmt_int(window),
                     after=fmt_bytes(per * n_full // info.n_layers), n_full=n_full, per=fmt_bytes(per),
                     up_to=fmt_int(up_to)))


def positions_panel(tr: mb.Trace, run: LoopRun) -> None:
    """Logits exist at every position of the prompt; generation uses only the last one."""
    last = len(tr.tokens) - 1
    df = pd.DataFrame({
        t("loop.col.pos"): range(len(tr.tokens)),
        t("loop.col.token"): [tok.display for tok in tr.tokens],
        t("loop.col.guess"): [visible(top[0].text) or "∅" for top in tr.top],
        t("loop.col.prob"): [fmt_pct(top[0].prob) for top in tr.top],
        t("loop.col.used"): [t("loop.pos.used") if i == last else t("loop.pos.unused") for i in range(len(tr.tokens))],
    })
    data_table(df, hide_index=True, row_height=ROW, height=table_height(len(df)))
    st.caption(t("loop.pos.caption", n=fmt_int(len(tr.tokens)), v=fmt_int(tr.info.vocab_size)))
    downloads(pd.DataFrame({"position": range(len(tr.tokens)), "id": [tok.id for tok in tr.tokens],
                            "token": [tok.display for tok in tr.tokens],
                            "guess_id": [top[0].id for top in tr.top],
                            "guess": [visible(top[0].text) or "∅" for top in tr.top],
                            "prob": [float(top[0].prob) for top in tr.top],
                            "used": [i == last for i in range(len(tr.tokens))]}),
              "loop-prompt-positions", key="loop_dl_pos")
    if run.steps:
        st.markdown(t("loop.pos.match"))
        model_text(f"{visible(tr.top[-1][0].text)}  ({fmt_pct(tr.top[-1][0].prob)})  ≈  "
                   f"{visible(run.steps[0].top[0].text)}  ({fmt_pct(run.steps[0].top[0].prob)})")


def controls(cap: int) -> mb.SamplingParams:
    """The sampling settings, with the course text's sensible defaults (T 0.7, top-p 0.9); `cap`: the server's
    limit on new tokens."""
    with st.expander(t("loop.ctl.title"), icon=":material/tune:"):
        c1, c2, c3, c4 = st.columns(4)
        # Values come from session_state (defaults or a shared link: link_params), never from value=.
        temperature = c1.slider(t("loop.ctl.temperature"), 0.0, 2.0, step=0.05, key="loop_temperature",
                                help=t("loop.ctl.temperature.help"))
        greedy = temperature == 0
        top_k = c2.number_input(t("loop.ctl.top_k"), 0, 1000, step=1, key="loop_top_k", disabled=greedy,
                                help=t("loop.ctl.top_k.help"))
        top_p = c3.slider(t("loop.ctl.top_p"), 0.05, 1.0, step=0.05, key="loop_top_p", disabled=greedy,
                          help=t("loop.ctl.top_p.help"))
        penalty = c4.slider(t("loop.ctl.penalty"), 1.0, 2.0, step=0.05, key="loop_penalty",
                            help=t("loop.ctl.penalty.help"))
        c5, c6, c7 = st.columns([1, 2, 1])
        max_new = c5.number_input(t("loop.ctl.max_new"), 1, cap, step=1, key="loop_max_new")
        stops = c6.multiselect(t("loop.ctl.stop"), STOP_PRESETS, key="loop_stop", accept_new_options=True,
                               placeholder=t("loop.ctl.stop.placeholder"), help=t("loop.ctl.stop.help"))
        seed = c7.number_input(t("loop.ctl.seed"), 0, 2**31 - 1, step=1, key="loop_seed", disabled=greedy)
    params = mb.SamplingParams(temperature=float(temperature), top_k=int(top_k), top_p=float(top_p),
                               repetition_penalty=float(penalty), max_new_tokens=int(max_new),
                               stop=parse_stops(stops), seed=None if greedy else int(seed))
    st.caption(settings_summary(params))
    return params


# --- compute for the answer just generated: FLOPs per token x tokens, beside the course text's frontier figures -----

# Seed 003: a frontier model does "dezenas ou centenas de bilhões de FLOPs" per token, and an answer of a few
# hundred tokens reaches "dezenas ou centenas de trilhões": tens to hundreds of GFLOPs per token.
FRONTIER_PER_TOKEN = (10e9, 900e9)


def fmt_flops(x: float) -> str:
    """0.54e9 -> '0.54 GFLOPs', 3.1e12 -> '3.1 TFLOPs' (in the visitor's number style)."""
    for unit, scale in (("PFLOPs", 1e15), ("TFLOPs", 1e12), ("GFLOPs", 1e9), ("MFLOPs", 1e6)):
        if x >= scale:
            return fmt_float(x / scale, 2 if x < 10 * scale else (1 if x < 100 * scale else 0)) + " " + unit
    return fmt_int(round(x)) + " FLOPs"


def fmt_flops_range(lo: float, hi: float) -> str:
    """'0.12 – 10.8 TFLOPs': both ends in the unit of the larger one, so the range stays short."""
    unit, scale = next((u, v) for u, v in (("PFLOPs", 1e15), ("TFLOPs", 1e12), ("GFLOPs", 1e9), ("MFLOPs", 1e6),
                                           ("FLOPs", 1.0)) if hi >= v or v == 1.0)

    def short(x: float) -> str:
        v = x / scale
        return fmt_float(v, 2 if v < 10 else (1 if v < 100 else 0))
    return f"{short(lo)} – {short(hi)} {unit}"


def passed_tokens(n_prompt: int, n_new: int) -> int:
    """Token positions that went through the network for this answer: the prompt's (prefill) and every generated
    token but the last, which is never fed back. Both sides of the comparison count these same tokens."""
    return n_prompt + max(n_new - 1, 0)


def frontier_range(n_prompt: int, n_new: int) -> tuple[float, float]:
    """The course text's frontier FLOPs per token, times the same tokens this answer passed."""
    n = passed_tokens(n_prompt, n_new)
    return FRONTIER_PER_TOKEN[0] * n, FRONTIER_PER_TOKEN[1] * n


def answer_panel(info: mb.ModelInfo, n_prompt: int, steps: list[mb.Step]) -> None:
    """Three figures and a caption: this answer's FLOPs, its speed on this machine, a frontier model's range."""
    n_new = len(steps)
    f = answer_flops(info, n_prompt, n_new)
    seconds = sum(s.ms for s in steps) / 1000
    lo, hi = frontier_range(n_prompt, n_new)
    passed = fmt_int(passed_tokens(n_prompt, n_new))
    c = st.columns(3)
    c[0].metric(t("compute.total", n=passed), fmt_flops(f.total))
    c[1].metric(t("compute.rate"), fmt_flops(f.total / seconds) + "/s" if seconds > 0 else "—")
    c[2].metric(t("compute.frontier", n=passed), fmt_flops_range(lo, hi))
    st.caption(t("compute.caption", per=fmt_flops(f.per_token), params=fmt_int(info.n_params), p=fmt_int(n_prompt),
                 prefill=fmt_flops(f.prefill), out=fmt_flops(output_flops(info)), n=fmt_int(n_new), fed=fmt_int(max(n_new - 1, 0)), passed=passed,
                 decode=fmt_flops(f.decode), secs=fmt_float(seconds, 2), lo=fmt_flops(FRONTIER_PER_TOKEN[0]),
                 hi=fmt_flops(FRONTIER_PER_TOKEN[1])))


def steps_panels(run: LoopRun, facts: PromptFacts) -> None:
    """Under a run with steps: the steps table, the step inspector, time and KV cache per step, and the compute."""
    key = shown_key(run)  # the charts' rows: built and converted once for everyone who shows these steps
    st.subheader(t("loop.steps.title"))
    steps_table(run.steps)
    inspector(run)
    st.subheader(t("loop.time.title"))
    c1, c2 = st.columns(2)
    with c1:
        timing_chart(run.steps, facts.n_tokens, key)
    with c2:
        kv_chart(run.steps, facts.n_tokens, facts.info, key)
    st.subheader(t("compute.title"))
    answer_panel(facts.info, facts.n_tokens, run.steps)  # FLOPs x tokens, beside the seed's figures
    files(run, facts)


def kv_up_to(steps: list[mb.Step], n_prompt: int, info: mb.ModelInfo) -> int:
    """How far the KV chart's formula line goes: past the run, and far enough to show the sliding window's bend."""
    n_sliding = sum(1 for k in info.layer_types if k == "sliding_attention")
    return max(n_prompt + len(steps), 2 * (info.sliding_window or 0) if n_sliding else 0)


def files(run: LoopRun, facts: PromptFacts) -> None:
    """Every file of the steps taken, in one box drawn only while it is open: the steps and every step's
    candidates as CSV and JSON, and the run's three charts as PNG and SVG.

    Why one closed box: each download button is registered with Streamlit's file manager at every run, under
    one lock for the whole server. A class's 30 phones that follow the teacher's step redraw this fragment at
    the same moment, and the eight buttons drawn under the charts and tables made the phones wait for one
    another (a quarter of a phone's step in py-spy; bench class_bench: the step reached 30 phones in p95 1.27 s
    without them, against 1.62 s with them)."""
    if not files_shown():  # a phone that follows the teacher draws no files
        return
    box = st.expander(t("loop.files.title"), icon=":material/download:", key="loop_files_open", on_change="rerun")
    if not box.open:
        return
    with box:
        steps = run.steps
        st.markdown(t("loop.files.steps"))
        downloads(steps_frame(steps), "loop-steps", key="loop_dl_steps")
        st.markdown(t("loop.files.cand"))
        downloads(candidates_frame(steps), "loop-candidates", key="loop_dl_cand")
        st.markdown(t("loop.files.cand_chart", n=steps[-1].index + 1))
        save_frame(candidates_chart, candidates_rows(steps[-1]))
        st.markdown(t("loop.files.time"))
        save_frame(timing_bars, timing_rows(steps))
        st.markdown(t("loop.files.kv"))
        save_frame(kv_line, kv_rows(steps, facts.n_tokens, facts.info, kv_up_to(steps, facts.n_tokens, facts.info)))


def positions_title() -> None:
    """The title and the text of "Only the last position matters" (its table follows: positions_panel)."""
    st.subheader(t("loop.pos.title"))
    st.markdown(t("loop.pos.what"))


# --- the completion panel: seed 000's opening, live --------------------------------------------------------------
# A prompt and its completion, a chat as the completion of a formatted conversation, and "each token is all the
# thinking it gets" (the same question answered directly and after the model writes out the steps).

THINK_CASES = ("completion.q.direct", "completion.q.steps")


def question() -> str:
    """The question of the panel, in the visitor's language."""
    return t("completion.question", **SUM)


def chat(text: str) -> None:
    """The panel's opening, and a chat message formatted as one text (compute.chat_text)."""
    st.header(t("completion.header"))
    st.markdown(t("completion.text"))
    st.markdown(t("completion.chat"))
    model_text(text)


def chat_caption(n_tokens: int) -> None:
    st.caption(t("completion.chat.caption", n=fmt_int(n_tokens)))


def think_ask() -> bool:
    """The "ask both ways" button; True once clicked in this session (its hint until then)."""
    st.subheader(t("completion.think.title"))
    st.markdown(t("completion.think.text"))
    if st.button(t("completion.think.run"), icon=":material/play_arrow:", key="completion_go"):
        st.session_state["completion_ran"] = True
    if not st.session_state.get("completion_ran"):
        st.caption(t("completion.think.hint"))
        return False
    return True


def think_prompt(question: str, case: str) -> str:
    """The question asked directly, or asking for the steps first (`case`, one of THINK_CASES)."""
    return t("completion.q.prefix") + question + t(case)


def think_case(case: str, prompt: str, answer: Answered) -> bool:
    """One case's prompt, the model's answer and whether it is right; returns that."""
    st.markdown(t(f"{case}.label"))
    model_text(prompt + answer.generation.completion)
    st.caption(t("completion.think.caption", n=fmt_int(len(answer.generation.steps)),
                 right=t("completion.yes" if answer.right else "completion.no"), answer=ANSWER))
    return answer.right


def moral(right: list[bool], n_params: int) -> None:
    """Under the two answers (right or not: direct, then with the steps), the moral they tell."""
    st.markdown(think_moral(*right, fmt_int(n_params)))


def think_moral(direct: bool, steps: bool, params: str) -> str:
    """The panel's moral from its two results (review A, L10): "both ways get it wrong" only when both did."""
    case = {(False, False): "none", (False, True): "steps", (True, False): "direct", (True, True): "both"}
    return t(f"completion.think.moral.{case[direct, steps]}", params=params) + " " + t("completion.think.point")
