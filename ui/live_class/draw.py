"""The live-class page (pages/live.py): the code, the QR code and the count for the projector; the round, the
histogram and the reveal for the teacher; the guess box or the vote for a student. The teacher's round panels are
fragments that reread the room every ROUND_S seconds; her "Reveal" is drawn by the page's run (reveal_button). A student's board (the text, the guess box, the vote) is
drawn by the page's run; a timer (student_status, every FOLLOW_S, which also follows the teacher:
follow.follow_step) draws what the student's answer counts as and the reveal, and runs the page again when the
round changed. They write to the room on the teacher's and the students' clicks through compute. Students' text
(nicknames, guesses) is data: it is drawn with st.text, st.code or inside charts, never as Markdown or HTML."""
from __future__ import annotations

import secrets
import textwrap

import altair as alt
import pandas as pd
import streamlit as st

import classroom as room
from model_backend.lessons import live as lv
from model_backend.validation import InvalidInput, check_prompt
from ui.charts import OKABE_ITO, PRIMARY, show
from ui.i18n import fmt_float, fmt_int, fmt_pct, lang, t
from ui.live_class.compute import (
    FACT_CLOSE,
    FACT_OPTIONS,
    KINDS,
    guess_info,
    guess_infos,
    qr_png,
    reveal_payload,
    start_guess,
    start_vote,
    token_rows,
)
from ui.live_class.follow import FOLLOW_S, follow_step
from ui.live_class.place import MESSAGE_VALUES, SAMPLE_CODE, STATE, current, error, store, url_marks
from ui.live_class.sidebar import start_button
from ui.untrusted import escape_markdown
from ui.widgets import fragment_run, model_text, show_error

ROUND_S = 0.5  # how often the teacher's panels reread the answers and the phones seen (a student's: FOLLOW_S). At
# 1 s the histogram's delay (goal: 30 guesses shown within 1 s) was the timer's phase plus its run: 0.03-1.02 s


TINY = 1e-6  # below 0.0001%, a probability reads as "about 1 in N": a room cannot read 0.000000040%


def pct(p: float) -> str:
    """A probability as a percentage with two significant digits when it is small ("0.0042%"), so that a
    guess the model thought unlikely does not read as 0%; under TINY, "under 0.0001% (about 1 in N)"."""
    import math
    if p <= 0 or p >= 0.01:
        return fmt_pct(p)
    if p < TINY:
        return t("live.pct.tiny", limit=fmt_pct(TINY, 4), n=fmt_int(round(1 / p)))
    return fmt_pct(p, 1 - math.floor(math.log10(100 * p)))


def keep_in_address() -> None:
    """The class page's address holds the visitor's language and projection mode, so that a reload (or a replica
    that died) brings the projector back as it was."""
    wanted = {"lang": lang(), "projection": "1" if st.session_state.get("projection") else None}
    for key, value in wanted.items():
        if value is None:
            st.query_params.pop(key, None)
        elif st.query_params.get(key) != value:
            st.query_params[key] = value


def page() -> None:
    keep_in_address()
    st.title(t("live.title"))
    st.markdown(t("live.intro"))
    me = current()
    if me is None:
        join_form()
        st.subheader(t("live.teach.title"))
        start_button("live_start_page")
    elif me["role"] == "teacher":
        projector(me)
        teacher_round(me)
    else:
        student_round(me)


def join_form() -> None:
    """Join with a code (typed, or from the QR code's link: ?join=CODE)."""
    st.subheader(t("live.join.title"))
    if "live_code" not in st.session_state and st.query_params.get("join"):
        st.session_state["live_code"] = str(st.query_params.get("join"))[:20]
    with st.form("live_join"):
        code = st.text_input(t("live.side.code"), key="live_code", max_chars=20, placeholder=SAMPLE_CODE)
        nick = st.text_input(t("live.side.nick"), key="live_nick", max_chars=40)
        go = st.form_submit_button(t("live.join.go"), type="primary")
    if not go:
        return
    sid = st.session_state.setdefault("live_sid", secrets.token_urlsafe(12))
    try:
        room.normalize_code(code)
    except room.RoomNotFound:  # not a code at all: say what one looks like
        st.warning(t("live.err.bad_code", **MESSAGE_VALUES), icon=":material/error:")
        return
    try:
        student = room.join(store(), code, sid, nick or None)
    except (room.ClassroomError, ValueError) as exc:
        error(exc)
        return
    canonical = room.format_code(room.normalize_code(code))
    st.session_state[STATE] = {"code": canonical, "role": "student", "sid": student.session_id, "following": True,
                               "seen_version": -1}
    st.query_params.update(url_marks())
    st.rerun()


def join_link(code: str) -> str:
    """The link the QR code carries: this server's live page with the code."""
    try:
        base = (st.context.url or "").split("?")[0]
    except Exception:  # noqa: BLE001 - no browser context in AppTest
        base = ""
    base = base.rsplit("/", 1)[0] if base.rstrip("/").endswith("/live") else base.rstrip("/")
    return f"{base}/live?join={room.normalize_code(code)}"


def projector(me: dict) -> None:
    """What the projector shows to let the class in: the code, large; the QR code; the link; the count."""
    link = join_link(me["code"])
    left, right = st.columns([3, 2])
    with left:
        st.markdown(t("live.code.label"))
        # our own code: 8 symbols of classroom.ALPHABET and a dash. On one line, sized to its column: at 4rem the
        # projection mode's larger text broke it in two at 1280 px, and so did a 390 px screen (columns stack there)
        st.html('<style>.tbt-room-code{font-size:min(4rem,5.2vw);white-space:nowrap}'
                '@media (max-width:640px){.tbt-room-code{font-size:min(4rem,12vw)}}</style>'
                f'<p class="tbt-room-code" style="font-weight:700;letter-spacing:0.12em;margin:0">{me["code"]}</p>')
        st.caption(t("live.link"))
        st.text(link)
        class_count(me["code"])
    with right:
        st.image(qr_png(link), caption=t("live.qr.alt", code=me["code"]), alt=t("live.qr.img", code=me["code"]),
                 width=260)


@st.fragment(run_every=ROUND_S)
def class_count(code: str) -> None:
    """How many phones were seen in the last minute, reread every ROUND_S seconds."""
    st.metric(t("live.count"), room.count(store(), code))


def class_chart(df: pd.DataFrame) -> alt.Chart:
    """The class's guesses, one bar per token, most common first."""
    return alt.Chart(df).mark_bar(color=PRIMARY).encode(
        y=alt.Y("token:N", sort="-x", title=None, axis=alt.Axis(labelLimit=160)),
        x=alt.X("guesses:Q", title=t("live.axis.guesses"), axis=alt.Axis(tickMinStep=1, format="d")),
        tooltip=[alt.Tooltip("token:N", title=t("live.axis.token")), alt.Tooltip("guesses:Q", title=t("live.axis.guesses"))],
    ).properties(title=t("live.hist.title"), height=alt.Step(32))


def model_chart(df: pd.DataFrame) -> alt.Chart:
    """The model's most likely next tokens, with the class's picks in another colour."""
    return alt.Chart(df).mark_bar().encode(
        y=alt.Y("token:N", sort="-x", title=None, axis=alt.Axis(labelLimit=160)),
        x=alt.X("prob:Q", title=t("live.axis.prob"), axis=alt.Axis(format="%")),
        color=alt.Color("picked:N", title=None, legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=0),
                        scale=alt.Scale(domain=[t("live.model.picked"), t("live.model.not_picked")],
                                        range=[OKABE_ITO[1], PRIMARY])),
        tooltip=[alt.Tooltip("token:N", title=t("live.axis.token")), alt.Tooltip("shown:N", title=t("live.axis.prob"))],
    ).properties(title=alt.TitleParams(textwrap.wrap(t("live.model.title"), 24)), height=alt.Step(32))  # in half
    # a projector's page, one line was cut: "Os tokens mais prováveis para o …"


def teacher_round(me: dict) -> None:
    names = {k: t(f"live.kind.{k}") for k in KINDS}  # not t() inside a lambda: AppTest formats after the run
    kind = st.radio(t("live.kind"), KINDS, format_func=names.get, key="live_kind",
                    horizontal=True)
    if kind == "guess":
        st.subheader(t("live.round.title"))
        st.caption(t("live.cite"))
    else:
        st.subheader(t(f"live.kind.{kind}"))
        shown = [fmt_float(x, 1) for x in lv.VOTE_TEMPERATURES]
        ts = t("live.vote.sep").join(shown[:-1]) + t("live.vote.and") + shown[-1]  # "0,2; 0,8 e 1,5"
        st.caption(t(f"live.vote.{kind}.intro", tokens=lv.VOTE_TOKENS, ts=ts))
    if kind != "fact":
        default = st.session_state.get("prompt") or t("common.default_prompt")
        prompt = st.text_area(t("live.round.prompt" if kind == "guess" else "live.round.prompt.model"), value=default, key="live_round_prompt", max_chars=500, height=80)
    if st.button(t("live.round.start") if kind == "guess" else t("live.vote.start"), type="primary",
                 key="live_round_start" if kind == "guess" else f"live_vote_start_{kind}"):
        try:
            if kind == "guess":
                start_guess(me, check_prompt(prompt))
            else:
                with st.spinner(t("live.vote.writing")):
                    start_vote(me, kind, check_prompt(prompt) if kind == "temperature" else "")
        except InvalidInput as exc:
            show_error(exc)  # an empty or too long prompt: the same message as on every page
        except (room.ClassroomError, ValueError) as exc:
            error(exc)
    round_board(me)
    reveal_button(me)


TEACHER_DRAWN = "live_teacher_drawn"  # session_state: teacher_mark of the round reveal_button last drew
REVEAL_ERROR = "live_reveal_error"  # session_state: what a press of "Reveal" could not do, for the page's run to say


def teacher_mark(r: room.Round | None, total: int) -> tuple:
    """What of the room decides the teacher's "Reveal": the round, open or not, and whether any answer is in."""
    return (*round_mark(r), total > 0)


def reveal_button(me: dict) -> None:
    """"Reveal", while a round is open (disabled until an answer is in). Drawn by the page's run, not by the round's
    fragment: a press in a fragment that a new session has not drawn yet (the teacher's tab back from a replica that
    died) is dropped by Streamlit, as a student's guess was (student_board); a press outside it runs the page. Read
    from the button's value, not an on_click callback: Streamlit calls a callback only for a widget that an earlier
    run of the session drew, and a press sent before the new session's first run had drawn it would be skipped."""
    failed = st.session_state.pop(REVEAL_ERROR, None)
    if failed is not None:
        error(failed)
    try:
        r = room.current_round(store(), me["code"])
        total = room.tally_guesses(store(), me["code"]).total
    except room.ClassroomError:
        st.session_state[TEACHER_DRAWN] = teacher_mark(None, 0)
        return  # the round's panel says so
    st.session_state[TEACHER_DRAWN] = teacher_mark(r, total)
    label = t("live.round.reveal.vote" if r.kind == "vote" else "live.round.reveal")
    if r.number and r.open and st.button(label, key=f"live_reveal_{r.number}", disabled=not total,
                                         help=None if total else t("live.round.reveal.help")):
        _reveal(me, r.number)
        st.rerun()  # the round's panel above drew the open round: draw it revealed


def _reveal(me: dict, number: int) -> None:
    """"Reveal" pressed for round `number`: close it with what the model measured (a guess) or the sealed answer (a
    vote). Nothing when that round is no longer open (another of the teacher's tabs revealed it); a room error is
    said by the next run (REVEAL_ERROR)."""
    try:
        r = room.current_round(store(), me["code"])
        if r.number != number or not r.open:
            return
        if r.kind == "vote":
            room.reveal(store(), me["code"], me["token"], room.sealed(store(), me["code"], me["token"]) or {})
        else:
            rows = token_rows(r.prompt, room.tally_guesses(store(), me["code"]).counts)
            payload, matched, class_top = reveal_payload(r.prompt, rows)
            room.reveal(store(), me["code"], me["token"], payload, matched=matched, class_top=class_top)
    except room.RoundClosed:
        pass  # revealed meanwhile, by another tab of hers
    except room.ClassroomError as exc:
        st.session_state[REVEAL_ERROR] = exc


def redraw_when(seen: tuple, drawn_key: str) -> None:
    """On a timer's run: run the page again when `seen` (what the room says now) differs from what the page's last
    run drew to its end (session_state[drawn_key]); MAX_REDRAWS times at most for one state of the room (a run that
    stops early, e.g. a model that cannot load, would otherwise ask every tick; the next change tries again)."""
    if not fragment_run() or seen == st.session_state.get(drawn_key):
        return
    asked = st.session_state.get(ASKED)
    times = asked[1] + 1 if asked and asked[0] == seen else 1
    if times <= MAX_REDRAWS:
        st.session_state[ASKED] = (seen, times)
        st.rerun(scope="app")


def option_label(option: str, options: list[str]) -> str:
    """A vote option as a phone shows it: T in the phone's own number format, or fact/invention in its language."""
    if options == FACT_OPTIONS:
        return t(f"live.vote.{option}")
    try:
        return t("live.vote.t", t=fmt_float(float(option), 1))
    except ValueError:
        return option


@st.fragment(run_every=ROUND_S)
def round_board(me: dict) -> None:
    """The projector's round, reread every ROUND_S: the class's histogram, live; after the reveal the model beside it,
    and the score. Runs the page again when what reveal_button drew is out of date (redraw_when)."""
    try:
        r = room.current_round(store(), me["code"])
        answers = room.tally_guesses(store(), me["code"])
        score = room.tally(store(), me["code"])
    except room.ClassroomError as exc:
        error(exc)
        return
    redraw_when(teacher_mark(r, answers.total), TEACHER_DRAWN)
    if r.number == 0:
        st.info(t("live.round.none"), icon=":material/lightbulb:")
        return
    if r.kind == "vote":
        vote_board(me, r, answers)
        return
    st.markdown(t("live.round.of", n=r.number))
    model_text(r.prompt)
    rows = token_rows(r.prompt, answers.counts)
    if r.open:
        st.text(t("live.round.open", k=answers.total))
        if len(rows):
            show(class_chart(rows), save=False)
        answer_list(me, r.number)
        return
    revealed(r, rows, answers.total)
    st.text(t("live.tally", r=score.rounds, c=score.class_wins, m=score.model_wins))


def vote_frame(r: room.Round, answers: room.Answers) -> pd.DataFrame:
    """The class's votes, one row per option (in the options' order, zeros included)."""
    opts = r.options or []
    return pd.DataFrame({"token": [option_label(o, opts) for o in opts],
                         "guesses": [int(answers.counts.get(o, 0)) for o in opts]})


def vote_chart(df: pd.DataFrame) -> alt.Chart:
    """The class's votes, one bar per option, in the options' order."""
    return alt.Chart(df).mark_bar(color=PRIMARY).encode(
        y=alt.Y("token:N", sort=None, title=None, axis=alt.Axis(labelLimit=200)),
        x=alt.X("guesses:Q", title=t("live.axis.votes"), axis=alt.Axis(tickMinStep=1, format="d")),
        tooltip=[alt.Tooltip("token:N", title=t("live.axis.option")), alt.Tooltip("guesses:Q", title=t("live.axis.votes"))],
    ).properties(title=t("live.vote.chart"), height=alt.Step(32))


def vote_text(r: room.Round) -> None:
    """A vote's text: the prompt, then the continuation the model wrote, apart (a round without `lead`: one text)."""
    if r.lead is None:
        model_text(r.prompt)
        return
    st.caption(t("live.vote.prompt"))
    model_text(r.prompt[:r.lead])
    st.caption(t("live.vote.continuation"))
    model_text(r.prompt[r.lead:])


def vote_board(me: dict, r: room.Round, answers: room.Answers) -> None:
    """The projector's vote: the text, the votes live, "Reveal"; then the answer and what the model measured."""
    st.markdown(t("live.round.of", n=r.number))
    vote_text(r)
    df = vote_frame(r, answers)
    if r.open:
        st.text(t("live.vote.open", k=answers.total))
        show(vote_chart(df), save=False)
        answer_list(me, r.number, r.options)
        return
    show(vote_chart(df), save=False)
    vote_revealed(r, answers)


def vote_revealed(r: room.Round, answers: room.Answers) -> None:
    """After a vote's reveal (projector and phones): the answer, how many voted it, what the model measured."""
    payload = r.revealed or {}
    answer = payload.get("answer")
    if answer is None:
        return
    right = int(answers.counts.get(answer, 0))
    if payload.get("vote") == "temperature":
        st.markdown(t("live.vote.temperature.answer", t=fmt_float(float(answer), 1)))
        rows = payload.get("rows") or []
        st.dataframe(pd.DataFrame({
            t("live.vote.col.t"): [fmt_float(float(x["t"]), 1) for x in rows],
            t("live.vote.col.first"): [t("live.vote.of_tokens", k=x["first_choice"], n=x["tokens"]) for x in rows],
            t("live.vote.col.mean"): [fmt_pct(x["mean_prob"]) for x in rows],
            t("live.vote.col.shown"): [t("live.vote.shown") if x["shown"] else "" for x in rows],
            t("live.vote.col.continuation"): [x["text"] for x in rows]}),  # last: the widest; a cell's plain text
            hide_index=True)
        st.caption(t("live.vote.temperature.why"))
    else:
        shown = next((x for x in payload.get("rows") or [] if x["shown"]), {})
        key = "fact" if answer == "fact" else {"real": "miss", "premise": "premise"}.get(shown.get("which"), "invented")
        st.markdown(t(f"live.vote.fact.answer.{key}"))
        if key == "miss":
            model_text(", ".join(payload.get("answers") or []))
        rows = payload.get("rows") or []
        st.dataframe(pd.DataFrame({
            t("live.vote.col.prompt"): [x["prompt"] for x in rows],
            t("live.vote.col.continuation"): [x["text"] for x in rows],
            t("live.vote.col.kind"): [t("live.vote.fact") if x["fact"] else t("live.vote.invention") for x in rows],
            t("live.vote.col.mean"): [fmt_pct(x["mean_prob"]) for x in rows]}),  # greedy: every token the top one
            hide_index=True)
        means = [x["mean_prob"] for x in rows]
        close = len(means) == 2 and abs(means[0] - means[1]) < FACT_CLOSE
        higher = "real" if len(rows) == 2 and rows[0]["which"] == "real" and means[0] > means[1] else "twin"
        why = ("live.vote.fact.why_none" if not any(x["fact"] for x in rows)  # no fact to tell apart
               else "live.vote.fact.why_close" if close else "live.vote.fact.why_apart")
        st.caption(t(why, pp=round(100 * FACT_CLOSE), which=t(f"live.vote.which.{higher}")))
    st.text(t("live.vote.right", m=right, n=answers.total))


def answer_list(me: dict, number: int, options: list[str] | None = None) -> None:
    """Every answer with its nickname, each with a switch that hides it (or the nickname) from the projector.
    options: a vote's (its answers are shown as the phones show them: "fato", "T = 0,2")."""
    try:
        given = room.answers(store(), me["code"], me["token"])
    except room.ClassroomError:
        return
    vote = options is not None
    with st.expander(t("live.votes.title" if vote else "live.answers.title", n=len(given)),
                     icon=":material/visibility_off:"):
        for a in given:
            c1, c2, c3 = st.columns([3, 1, 1])
            name = t("live.answers.nick_hidden") if a.nickname_hidden else (a.nickname or t("live.answers.anonymous"))
            shown = option_label(a.text, options) if vote else a.text
            hidden = t("live.answers.vote_hidden" if vote else "live.answers.hidden")
            c1.text(f"{name}: {hidden if a.hidden else shown}")  # students' text: plain text
            c2.checkbox(t("live.answers.hide"), value=a.hidden, key=f"live_hide_{number}_{a.session_id}",
                        on_change=_hide, args=(me, a.session_id, "guess", f"live_hide_{number}_{a.session_id}"))
            if a.nickname:
                c3.checkbox(t("live.answers.hide_nick"), value=a.nickname_hidden, key=f"live_hidenick_{a.session_id}",
                            on_change=_hide, args=(me, a.session_id, "nickname", f"live_hidenick_{a.session_id}"))


def _hide(me: dict, sid: str, what: str, key: str) -> None:
    try:
        room.hide(store(), me["code"], me["token"], sid, what=what, hidden=bool(st.session_state.get(key)))
    except room.ClassroomError:
        pass


def revealed(r: room.Round, rows: pd.DataFrame, total: int) -> None:
    """After the reveal: the class's guesses and the model's probabilities side by side, and who matched."""
    payload = r.revealed or {}
    top = payload.get("top") or []
    guessed_ids = {g["id"] for g in payload.get("guessed") or []}
    left, right = st.columns(2)
    with left:
        if len(rows):
            show(class_chart(rows), save=False)
    with right:
        labels = [c["token"] for c in top]
        df = pd.DataFrame({"token": [f"{lab} #{c['id']}" if labels.count(lab) > 1 else lab
                                     for lab, c in zip(labels, top)],
                           "prob": [c["prob"] for c in top], "shown": [fmt_pct(c["prob"]) for c in top],
                           "picked": [t("live.model.picked") if c["id"] in guessed_ids else t("live.model.not_picked")
                                      for c in top]})
        if len(df):
            show(model_chart(df), save=False)
    if top:
        matched = sum(g["guesses"] for g in payload.get("guessed") or [] if g["id"] == top[0]["id"])
        st.text(t("live.result.matched", m=matched, n=total))
        model_text(labels[0])
        if labels[0] and not labels[0].strip("·"):  # the lone space: a number's first token, say why
            st.caption(t("live.space_only"))
    if any("·" in lab for lab in labels) or any("·" in str(x) for x in rows.get("token", [])):
        st.caption(t("live.dot"))
    if payload.get("guessed"):
        st.dataframe(pd.DataFrame({t("live.axis.token"): [g["token"] for g in payload["guessed"]],
                                   t("live.axis.guesses"): [g["guesses"] for g in payload["guessed"]],
                                   t("live.axis.prob"): [pct(g["prob"]) for g in payload["guessed"]]}),
                     hide_index=True)


def student_round(me: dict) -> None:
    st.text(t("live.side.student", code=me["code"]))
    student_board(me)
    student_status(me)


DRAWN = "live_drawn_round"  # session_state: round_mark of the round this phone's board last drew to its end
ASKED = "live_redraws"  # session_state: (the room's round_mark, how many page runs the timer asked for it)
MAX_REDRAWS = 3  # page runs the timer asks for one state of the room before it gives up (a board that stops early)


def shows_answer(r: room.Round) -> bool:
    """Whether a student's board shows the round (else it says to wait)."""
    return r.number > 0 and (r.open or bool(r.revealed))


def round_mark(r: room.Round | None) -> tuple:
    """What of the room decides a student's board: the round, open or closed, revealed or not (None: the room
    could not be read)."""
    return ("gone",) if r is None else (r.number, r.kind, r.open, bool(r.revealed))


def my_answer(me: dict, r: room.Round) -> str | None:
    """This student's answer to round `r` as the room holds it (None: no answer, or the room could not say)."""
    try:
        return room.my_answer(store(), me["code"], me["sid"], r.number)
    except (room.ClassroomError, ValueError):
        return None


def student_board(me: dict) -> None:
    """A student's round as the page's run draws it: the text, and while the round is open the guess box and the
    model's likely tokens to tap, or the vote. Not a fragment: a press in a fragment that a new session has not
    drawn yet (a phone back from a replica that died, in its page's first run) is dropped by Streamlit
    (AppSession.request_rerun: "does not exist anymore"), and the guess with it; a press outside any fragment runs
    the page, and is never dropped. Its last step records the round it drew (for student_status)."""
    try:
        r = room.current_round(store(), me["code"])
    except room.ClassroomError as exc:
        error(exc)
        st.session_state[DRAWN] = round_mark(None)
        return
    if not shows_answer(r):
        st.info(t("live.student.wait"), icon=":material/hourglass_top:")
    elif r.kind == "vote":
        vote_form(me, r)
    else:
        guess_form(me, r)
    st.session_state[DRAWN] = round_mark(r)


@st.fragment(run_every=FOLLOW_S)
def student_status(me: dict) -> None:
    """A student's timer, every FOLLOW_S seconds, as often as a lesson page's follow timer. It follows the teacher
    (follow_step; the class's first move is from this page to hers: bench class_bench, page_switch_p95_s); it runs
    the page again when the round is another than the board last drew to its end (a new round, the reveal; a page
    run cut short heals so, MAX_REDRAWS times at most for one state of the room); and it draws, from the room, what
    the student's answer counts as and, after the reveal, what the model measured."""
    follow_step()
    try:
        r = room.current_round(store(), me["code"])
    except room.ClassroomError:
        r = None
    redraw_when(round_mark(r), DRAWN)
    if r is None or not shows_answer(r):
        return
    if r.kind == "vote":
        vote_status(me, r)
    else:
        guess_status(me, r)


def guess_form(me: dict, r: room.Round) -> None:
    """A guessing round's text, and while it is open the guess box and the model's likely tokens to tap."""
    st.markdown(t("live.student.prompt"))
    model_text(r.prompt)
    if not r.open:
        return
    with st.form(f"live_guess_{r.number}", clear_on_submit=False):
        text = st.text_input(t("live.student.guess"), max_chars=40, key=f"live_guess_text_{r.number}")
        sent = st.form_submit_button(t("live.student.send"), type="primary")
    tapped = None
    if r.options:  # or tap one of the model's likely tokens
        st.caption(t("live.student.tap", n=lv.CANDIDATE_POOL))
        for i, (col, option) in enumerate(zip(st.columns(len(r.options)), r.options)):
            info = guess_info(r.prompt, option)
            if col.button(escape_markdown(info.display if info else option), key=f"live_tap_{r.number}_{i}",
                          width="stretch"):
                tapped = option
    if sent or tapped is not None:
        try:
            room.guess(store(), me["code"], me["sid"], text if tapped is None else tapped, round_number=r.number)
        except (room.ClassroomError, ValueError) as exc:
            error(exc)


def guess_status(me: dict, r: room.Round) -> None:
    """What the student's guess counts as, and after the reveal the probability the model gave it."""
    mine = my_answer(me, r)
    if mine:
        infos = guess_infos(r.prompt, mine)
        info = infos[0] if infos else None
        if info is not None:
            st.markdown(t("live.student.counts_as"))
            model_text(info.display)
            if len(infos) > 1:  # the token display is the guess's own text: plain text
                st.text(t("live.student.tokens", n=len(infos), tokens=" | ".join(i.display for i in infos)))
            if lv.only_space(info):
                st.caption(t("live.space_only"))
            st.caption(t("live.student.space"))
            if r.revealed:
                guessed = {g["id"]: g["prob"] for g in r.revealed.get("guessed") or []}
                top = (r.revealed.get("top") or [{}])[0]
                if info.id in guessed:  # a guess that came in as the round closed has no measured probability
                    st.text(t("live.student.revealed", p=pct(guessed[info.id])))
                    if top:
                        model_text(top["token"])
    elif r.revealed:
        st.info(t("live.student.missed"), icon=":material/schedule:")


def vote_form(me: dict, r: room.Round) -> None:
    """A vote's text, and while it is open the options to pick."""
    opts = r.options or []
    st.markdown(t("live.student.vote.fact" if opts == FACT_OPTIONS else "live.student.vote.temperature"))
    vote_text(r)
    if not r.open:
        return
    mine = my_answer(me, r)
    labels = {o: option_label(o, opts) for o in opts}
    with st.form(f"live_vote_{r.number}", clear_on_submit=False):
        choice = st.radio(t("live.student.vote"), opts, index=opts.index(mine) if mine in opts else None,
                          format_func=labels.get, key=f"live_vote_choice_{r.number}")
        sent = st.form_submit_button(t("live.student.vote.send"), type="primary")
    if sent and choice is not None:
        try:
            room.guess(store(), me["code"], me["sid"], choice, round_number=r.number)
        except (room.ClassroomError, ValueError) as exc:
            error(exc)


def vote_status(me: dict, r: room.Round) -> None:
    """The student's vote, and after the reveal the answer and the class's votes."""
    opts = r.options or []
    mine = my_answer(me, r)
    if mine is not None:
        st.text(t("live.student.vote.mine", v=option_label(mine, opts)) +
                (" " + t("live.student.vote.open") if r.open else ""))
    if r.revealed:
        try:
            answers = room.tally_guesses(store(), me["code"])
        except room.ClassroomError:
            return
        vote_revealed(r, answers)
        if mine is None:
            st.info(t("live.student.missed.vote"), icon=":material/schedule:")
