"""The live class in the app: start or join a room, follow the teacher, and play "guess the next token".

The rooms themselves are `classroom/` (plain Python, on the in-process or the Redis store). Here is what the
browser sees of them:
- the sidebar's "Live class" panel on every page (start, join, follow, leave);
- `follow()`: a fragment that reads the room's view version once a second on a following student's phone and,
  only when it changed, opens the teacher's page with the teacher's settings (the same query values a shared
  link carries, read again by each page's `restore`);
- `lead()`: after each of the teacher's runs, the page and its query values go to the room when they changed;
- `page()`: the live-class page: the code, the QR code and the count for the projector, the round, the
  histogram and the reveal for the teacher, the guess box for a student.
Students' text (nicknames, guesses) is data: it is drawn with st.text, st.code or inside charts, never as
Markdown or HTML.
"""
from __future__ import annotations

import io
import json
import secrets
from collections.abc import Callable
from typing import NamedTuple

import altair as alt
import pandas as pd
import streamlit as st
from streamlit.errors import StreamlitAPIException

import classroom as room
import model_backend as mb
from classroom.text import clean_answer
from model_backend.core.tokens import token_info
from model_backend.lessons import live as lv
from model_backend.lessons.live import guess_token, next_token_probs
from model_backend.validation import InvalidInput, check_prompt
from ui import backend
from ui.charts import OKABE_ITO, PRIMARY, show
from ui.i18n import fmt_float, fmt_pct, lang, t
from ui.share import Param, parse
from ui.untrusted import escape_markdown
from ui.widgets import fragment_run, model_text, show_error

STATE = "live_class"  # session_state: {"code", "role": "teacher" | "student", "token" (teacher), "sid", "following"}
PAGE = "pages/live.py"
FOLLOW_S = 0.5  # how often a following phone reads the view's version (the goal: a change shows within
# 1.5 s; a read is a small GET, 0.003 CPU-s a phone a second at 1 s: bench class_bench)
SEEN_S = 20.0  # how often a phone tells the room it is still there (a write; the count uses the last minute)
RETRY_S = 4.0  # a switch to the teacher's page after which no full run ended by then (the switch was lost): again
MAX_SWITCHES = 3  # switches for one view of the teacher's before a phone stops trying (no endless page runs)
ROUND_S = 1.0  # how often the round's panel rereads the answers (teacher) or the round (student)
NOT_FOLLOWED = ("lang", "projection")  # each phone keeps its own language and text size
MODEL_TOP = 10
SAMPLE_CODE = "KDXP-7M3R"  # a valid code (classroom.ALPHABET), for the messages
TEACHER_COOKIE = "tbt_teacher"  # "CODE.token" in the teacher's own browser: a reload, or a replica that died, keeps
# the class in her hands (read from the websocket's request by st.context.cookies; written by a script we render)
MESSAGE_VALUES = {"h": room.ROOM_TTL_S // 3600, "n": len(room.normalize_code(SAMPLE_CODE)), "example": SAMPLE_CODE}


def pct(p: float) -> str:
    """A probability as a percentage with two significant digits when it is small ("0.0042%"), so that a
    guess the model thought unlikely does not read as 0%."""
    import math
    if p <= 0 or p >= 0.01:
        return fmt_pct(p)
    return fmt_pct(p, min(8, 1 - math.floor(math.log10(100 * p))))


def store() -> room.Store:
    return room.open_store()


def current() -> dict | None:
    return st.session_state.get(STATE)


def is_student() -> bool:
    me = current()
    return me is not None and me.get("role") == "student"


def _error(exc: Exception) -> None:
    """A room error in the visitor's language (the exception's own text is English, for the log)."""
    key = {room.RoomNotFound: "live.err.not_found", room.RateLimited: "live.err.limited",
           room.RoundClosed: "live.err.closed", room.BadAnswer: "live.err.answer", room.NotTeacher: "live.err.teacher",
           room.NotJoined: "live.err.not_joined"}.get(type(exc), "live.err.bad_code")
    st.warning(t(key, **MESSAGE_VALUES), icon=":material/error:")


# ---- the sidebar ------------------------------------------------------------------------------------------

def sidebar_panel() -> None:
    """The "Live class" panel: start or join; in a room, its code, the count or the follow switch, leave."""
    me = current()
    with st.expander(t("live.side.title"), icon=":material/groups:", expanded=me is not None):
        keep_teacher()
        if me is None:
            if ended := st.session_state.get("_live_ended"):
                st.info(t("live.side.ended", code=ended, **MESSAGE_VALUES), icon=":material/event_busy:")
            start_button("live_start")
            st.page_link(PAGE, label=t("live.side.join"), icon=":material/login:")
            return
        if me["role"] == "teacher":
            st.text(t("live.side.teacher", code=me["code"]))
        else:
            st.text(t("live.side.student", code=me["code"]))
            st.session_state.setdefault("live_following", me.get("following", True))
            st.toggle(t("live.side.follow"), key="live_following", on_change=_follow_changed,
                      help=t("live.side.follow.help"))
        st.page_link(PAGE, label=t("live.side.open"), icon=":material/co_present:")
        leave_help = t("live.side.leave.teacher", h=room.ROOM_TTL_S // 3600) if me["role"] == "teacher" else None
        if st.button(t("live.side.leave"), key="live_leave", width="stretch", help=leave_help):
            if me["role"] == "teacher":
                st.session_state["_live_cookie"] = ""  # this browser no longer leads the room
            st.session_state.pop(STATE, None)
            st.rerun()


def start_button(key: str) -> None:
    """ "Start a class": a new room, this session its teacher, then the class page (the code for the projector)."""
    if st.button(t("live.side.start"), help=t("live.side.start.help"), key=key, width="stretch", icon=":material/co_present:"):
        code, token = room.create_room(store())
        st.session_state[STATE] = {"code": code, "role": "teacher", "token": token}
        st.session_state["_live_cookie"] = f"{room.normalize_code(code)}.{token}"
        st.session_state.pop("_live_ended", None)
        st.switch_page(PAGE)


def cookie_script(value: str) -> str:
    """A script that keeps `value` ("CODE.token", ours: code letters, digits and token_urlsafe's [A-Za-z0-9_-])
    in TEACHER_COOKIE for the room's lifetime, or removes the cookie when `value` is empty."""
    age = room.ROOM_TTL_S if value else 0
    cookie = f"{TEACHER_COOKIE}={value}; Path=/; Max-Age={age}; SameSite=Strict"
    return (f'<div class="tbt-sr-only"><script>document.cookie = {json.dumps(cookie)} + '
            f'(location.protocol === "https:" ? "; Secure" : "");</script></div>')


def keep_teacher() -> None:
    """Write (after "Start a class" or a resume) or remove (after "Leave") the teacher's cookie, once."""
    pending = st.session_state.pop("_live_cookie", None)
    if pending is not None:
        st.html(cookie_script(pending), unsafe_allow_javascript=True)


def resume_teacher() -> None:
    """A new session in the teacher's browser (a reload, a replica that died) leads the room again, from the
    cookie. Tried once per session, so that "Leave" sticks; a room that ended says so to the teacher alone."""
    if current() is not None or st.session_state.get("_live_cookie_read"):
        return
    st.session_state["_live_cookie_read"] = True
    try:
        raw = str(st.context.cookies.get(TEACHER_COOKIE) or "")
    except Exception:  # noqa: BLE001 - no browser context (AppTest)
        raw = ""
    code, _, token = raw.partition(".")
    if not token:
        return
    try:
        code = room.normalize_code(code)
    except room.ClassroomError:
        st.session_state["_live_cookie"] = ""  # not a code at all: forget it
        return
    try:
        canonical = room.resume(store(), code, token)
    except (room.ClassroomError, ValueError) as exc:
        st.session_state["_live_cookie"] = ""  # gone, or not this room's token: forget it
        if isinstance(exc, room.RoomNotFound):
            st.session_state["_live_ended"] = room.format_code(code)  # a real code (normalized): safe to show
        return
    st.session_state[STATE] = {"code": canonical, "role": "teacher", "token": token}
    st.session_state["_live_cookie"] = raw  # the room lives on: so does the cookie


def _follow_changed() -> None:
    me = current()
    if me is not None and fragment_run():  # a timer's run cannot flip the switch:
        st.session_state["live_following"] = me.get("following", True)  # the browser resent a stale default
        return
    if me is not None:
        me["following"] = bool(st.session_state.get("live_following"))
        me["seen_version"] = -1  # back to following: go where the teacher is now


# ---- a phone's place in the class, kept in its address ---------------------------------------------------------

MARKS = ("class", "me")  # a student's room code and id in the URL: a new session (a reload, a replica that died)
# comes back as the same student by itself. The id only lets its holder answer as that student, in that room.


def url_marks() -> dict[str, str]:
    """The query values that keep a student's place in the class (none for anyone else)."""
    me = current()
    if me is None or me.get("role") != "student":
        return {}
    return {"class": room.normalize_code(me["code"]), "me": me["sid"]}


def rejoin_from_link() -> None:
    """A new session whose address holds a student's place (url_marks) comes back into that class."""
    if current() is not None or not all(st.query_params.get(k) for k in MARKS):
        return
    code, sid = str(st.query_params.get("class")), str(st.query_params.get("me"))
    try:
        student = room.rejoin(store(), code, sid)
    except (room.ClassroomError, ValueError):
        return  # the class ended, or the link is not a student's: the page opens as for anyone
    st.session_state[STATE] = {"code": room.format_code(room.normalize_code(code)), "role": "student",
                               "sid": student.session_id, "following": True, "seen_version": -1}
    st.session_state["live_sid"] = student.session_id


# ---- following and leading ----------------------------------------------------------------------------------

def followed_params(params: dict) -> dict:
    """The teacher's query values that a phone takes: all but language and projection mode."""
    return {k: v for k, v in params.items() if k not in NOT_FOLLOWED and isinstance(v, str)}


def lead(page_name: str) -> None:
    """The teacher's run ended on `page_name` with these query values: tell the room when they changed."""
    me = current()
    if me is None or me["role"] != "teacher":
        return
    _, params = _here(page_name)
    shown = (page_name, tuple(sorted(params.items())))
    if me.get("shown") == shown:
        return
    try:
        room.show(store(), me["code"], me["token"], page_name, params)
        me["shown"] = shown
    except room.ClassroomError:
        pass  # the room is gone: the sidebar still says where the teacher is, and "Leave" clears it


@st.fragment(run_every=FOLLOW_S)
def follow() -> None:
    """On a student's phone (every page but the class page, whose round panel does the same): one small read a
    second; a new version of the teacher's view opens it."""
    follow_step()


def follow_step() -> None:
    """Tell the room this phone is here (every SEEN_S), and go where the teacher is when this phone's last full run
    showed something else. Called from one timer per page only.

    Idempotent on purpose: Streamlit merges a switch_page rerun with a timer's rerun that the browser sent before it
    saw the switch, and the merged run keeps the older address, so a switch alone can run the old page with the old
    values. Every timer run therefore compares the teacher's view with what the last full run showed (`ran`), and
    switches again when they differ (at most MAX_SWITCHES times for one view of the teacher's)."""
    me = current()
    if me is None or me["role"] != "student":
        return
    import time
    try:
        if time.monotonic() - me.get("seen_at", 0.0) > SEEN_S:
            room.seen(store(), me["code"], me["sid"])
            me["seen_at"] = time.monotonic()
        if not me.get("following", True):
            return
        version = room.view_version(store(), me["code"])
        if version != me.get("seen_version"):
            view = room.view(store(), me["code"])
            me["seen_version"], me["target"], me["switches"] = view.version, [view.page, dict(view.params)], 0
    except room.ClassroomError:
        return  # the panel says so on the next full run
    # a timer's run compares with what the last full run showed; a full run, with what it is about to show
    shown = st.session_state.get("_live_ran" if fragment_run() else "_live_at")
    if fragment_run() and take_in_fragment(me, shown):
        return
    query = follow_query(me, shown, st.session_state.get("_live_runs", 0),
                         time.monotonic(), lang(), bool(st.session_state.get("projection")))
    if query is None:
        if fragment_run() and shows(shown, *(me.get("target") or [None, {}])):
            keep_address(me["target"][1])
        return
    target = me["target"][0]
    st.session_state.pop(f"_restored_{target}", None)  # the page reads the query values again
    st.session_state.pop("loop_from_link", None)
    st.switch_page(f"pages/{target}.py", query_params=query)


# ---- following inside a page's fragment -------------------------------------------------------------------------

class InFragment(NamedTuple):
    key: str  # the fragment's @st.fragment(key=...)
    params: tuple[Param, ...]  # the link values it draws
    taken: Callable[[], None] | None  # runs once the teacher's values are in the widgets' state
    accepts: Callable[[dict, dict], bool] | None  # (what the phone shows, her values): can the fragment alone show it?


IN_FRAGMENT: dict[str, InFragment] = {}


def follow_in_fragment(page_name: str, fragment_key: str, params: list[Param],
                       taken: Callable[[], None] | None = None,
                       accepts: Callable[[dict, dict], bool] | None = None) -> None:
    """`page_name` draws the link values `params` in its fragment `@st.fragment(key=fragment_key)`. When the teacher
    changes only these on the page a phone already shows, the phone takes them by rerunning that fragment alone, not
    the page: 30 page runs at once share one interpreter, a fragment's run is a fraction of one. `taken` runs once
    the teacher's values are in the widgets' state (the page's fragment reads them there); `accepts`, when given,
    says whether the fragment alone can show her values (else the page runs, as for any other change)."""
    IN_FRAGMENT[page_name] = InFragment(fragment_key, tuple(params), taken, accepts)


def changed_in_fragment(shown: tuple | list | None, page_name: str | None, params: dict) -> dict[str, Param] | None:
    """The teacher's values (`page_name`, `params`) that differ from what the phone's last full run showed, when the
    phone shows her page and all of them are drawn by its follow_in_fragment fragment: {value: its Param}; else
    None."""
    entry = IN_FRAGMENT.get(page_name or "")
    if entry is None or shown is None or shown[0] != page_name:
        return None
    by_name = {p.name: p for p in entry.params}
    changed = {k for k, v in params.items() if shown[1].get(k) != v}
    if not changed or not changed <= set(by_name) or (entry.accepts and not entry.accepts(shown[1], params)):
        return None
    return {k: by_name[k] for k in changed}


def take_in_fragment(me: dict, shown: tuple | list | None) -> bool:
    """On a follow timer's run: when the teacher's view differs from the phone's only in values that its page's
    fragment draws, put her values in the widgets' state and rerun that fragment alone. False when a page run is
    needed (another page, other values, a value the page would reject and say so)."""
    page_name, params = me.get("target") or [None, {}]
    changed = changed_in_fragment(shown, page_name, params)
    if changed is None:
        return False
    values = {}
    for name, p in changed.items():
        value, ok = parse(params[name], p)
        if not ok:
            return False  # the page's own run reads the link and names the bad value
        values[p.key] = value
    entry = IN_FRAGMENT[page_name]
    ids = fragment_ids(entry.key)
    if not ids:
        return False
    st.session_state.update(values)
    if entry.taken is not None:
        entry.taken()
    st.session_state["_live_ran"] = (page_name, {**shown[1], **{k: params[k] for k in changed}})
    me["switched_at"] = None
    rerun_fragments(ids)  # last: a write to session_state after it is a point where the run stops for it
    return True


def fragment_ids(key: str) -> list[str]:
    """The ids of the fragment `@st.fragment(key=key)` on this page ([] when it is not there)."""
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None or ctx.script_requests is None:
        return []
    try:
        return ctx.fragment_storage.resolve_target(key)
    except StreamlitAPIException:
        return []


def rerun_fragments(ids: list[str]) -> None:
    """Ask for a run of these fragments alone, after this timer's run. Streamlit's `st.rerun(key)` does this from a
    widget's callback only; a timer's run asks the script runner the same way (Streamlit 1.67: RerunData with the
    fragments' ids, fragment-scoped; pinned in requirements.txt, and tests/e2e/test_live_follow_fragment.py fails
    if it stops working)."""
    from streamlit.runtime.scriptrunner_utils.script_requests import RerunData
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx()
    ctx.script_requests.request_rerun(RerunData(
        query_string=ctx.query_string, page_script_hash=ctx.page_script_hash, fragment_id_queue=ids,
        is_fragment_scoped_rerun=True, cached_message_hashes=ctx.cached_message_hashes,
        context_info=ctx.context_info))


def keep_address(params: dict) -> None:
    """The phone shows the teacher's view: its address says so too. A timer's rerun that the browser sent before it
    saw a switch carries the old query string, which would otherwise stay in the address bar."""
    for key, value in params.items():
        if st.query_params.get(key) != value:
            st.query_params[key] = value


def shows(ran: tuple | list | None, page_name: str, params: dict) -> bool:
    """Does `ran` = (page, its query values) of a full run show the teacher's page with her values?"""
    return ran is not None and ran[0] == page_name and all(ran[1].get(k) == v for k, v in params.items())


def follow_query(me: dict, ran: tuple | list | None, runs: int, now: float, language: str,
                 projection: bool) -> dict | None:
    """Where a following phone goes for the teacher's view `me["target"]` = [page, params]: the query values of the
    teacher's page (with the phone's own language, projection mode and place in the class), or None when
    - the phone's last full run (`ran`) showed that view already, or the teacher is on no page yet;
    - a switch was made less than RETRY_S ago and no full run has ended since (`runs` counts them);
    - MAX_SWITCHES switches for this view did not get there (no endless loop of page runs).
    Counts the switch in `me`."""
    page_name, params = (me.get("target") or [None, {}])
    if not page_name or shows(ran, page_name, params):
        me["switched_at"] = None
        return None
    if me.get("switched_at") is not None and runs == me.get("switched_runs") and now - me["switched_at"] < RETRY_S:
        return None
    if me.get("switches", 0) >= MAX_SWITCHES:
        return None
    me["switches"], me["switched_at"], me["switched_runs"] = me.get("switches", 0) + 1, now, runs
    query = {**params, "lang": language, **({"class": room.normalize_code(me["code"]), "me": me["sid"]}
                                           if me.get("sid") and me.get("code") else {})}
    if projection:
        query["projection"] = "1"
    return query


def _here(page_name: str) -> tuple[str, dict]:
    """This run's page and the query values a following phone compares (all but language and projection)."""
    return page_name, followed_params({k: st.query_params.get(k) for k in st.query_params})


def at(page_name: str) -> None:
    """At the start of each full run: the page it runs and its query values (what the run will show)."""
    st.session_state["_live_at"] = _here(page_name)


def ran(page_name: str) -> None:
    """At the end of each full run that was not cut short: the page it showed and its query values (follow_step
    compares them with the teacher's), and how many such runs this session has had."""
    st.session_state["_live_ran"] = _here(page_name)
    st.session_state["_live_runs"] = st.session_state.get("_live_runs", 0) + 1


# ---- the live-class page --------------------------------------------------------------------------------------

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
        _error(exc)
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


def qr_png(text: str) -> bytes:
    """A QR code of `text` as a PNG (segno; error correction M, so a projector's glare does not stop a phone)."""
    import segno
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=10, border=2)
    return out.getvalue()


def projector(me: dict) -> None:
    """What the projector shows to let the class in: the code, large; the QR code; the link; the count."""
    link = join_link(me["code"])
    left, right = st.columns([3, 2])
    with left:
        st.markdown(t("live.code.label"))
        st.html(f'<p class="tbt-room-code" style="font-size:4rem;font-weight:700;letter-spacing:0.12em;'
                f'margin:0">{me["code"]}</p>')  # our own code: 8 symbols of classroom.ALPHABET and a dash
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


def _token_rows(prompt: str, answers: dict[str, int]) -> pd.DataFrame:
    """The class's answers grouped by the token each counts as: token id, its display, how many, the texts."""
    tok = backend.bundle_for().tokenizer
    by_id: dict[int, list] = {}
    for text, n in answers.items():
        info = guess_token(tok, prompt, text)
        if info is None:
            continue
        entry = by_id.setdefault(info.id, [info.display, 0])
        entry[1] += n
    rows = sorted(by_id.items(), key=lambda kv: (-kv[1][1], kv[1][0]))
    return pd.DataFrame({"id": [i for i, _ in rows], "token": [v[0] for _, v in rows],
                         "guesses": [v[1] for _, v in rows]})


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
    ).properties(title=t("live.model.title"), height=alt.Step(32))


def reveal_payload(prompt: str, rows: pd.DataFrame) -> tuple[dict, int, bool]:
    """What the model measured for the round's prompt: its top tokens, and the probability of each guessed
    token; with (students who guessed its top token, whether the class's most common token was it)."""
    tr = backend.trace(prompt)
    top = tr.top[-1][:MODEL_TOP]
    probs = next_token_probs(tr.last_logits, [int(i) for i in rows["id"]]) if len(rows) else []
    tok = backend.bundle_for().tokenizer
    payload = {"top": [{"id": c.id, "token": token_info(tok, c.id).display, "prob": c.prob} for c in top],
               "guessed": [{"id": int(i), "token": str(s), "guesses": int(n), "prob": p}
                           for i, s, n, p in zip(rows["id"], rows["token"], rows["guesses"], probs)]}
    top_id = top[0].id
    matched = int(rows.loc[rows["id"] == top_id, "guesses"].sum()) if len(rows) else 0
    class_top = bool(len(rows)) and matched > 0 and matched == int(rows["guesses"].max())
    return payload, matched, class_top


KINDS = ("guess", "temperature", "fact")  # the rounds a teacher can run: a guess, and the two votes
FACT_CLOSE = 0.10  # two mean probabilities closer than this: "confidence did not tell them apart"
FACT_OPTIONS = ["fact", "invention"]  # a fact vote's options as the room keeps them (each phone translates them)


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
        prompt = st.text_area(t("live.round.prompt"), value=default, key="live_round_prompt", max_chars=500, height=80)
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
            _error(exc)
    round_board(me)


def start_guess(me: dict, prompt: str) -> None:
    """Open a guessing round, with a few of the model's likely tokens for phones to tap (its most likely one
    among them, the others drawn from its top ten with a seed from the teacher's token)."""
    code = room.normalize_code(me["code"])
    number = room.current_round(store(), code).number + 1
    _, seed = lv.secret_pick(me["token"], code, number, lv.CANDIDATE_POOL)
    top = [c.id for c in backend.trace(prompt).top[-1]]
    taps = lv.candidate_answers(backend.bundle_for().tokenizer, prompt, top, seed, clean=clean_answer)
    room.start_round(store(), code, me["token"], "guess", prompt, taps or None)


def start_vote(me: dict, kind: str, prompt: str) -> None:
    """Open a vote: the model writes the text (its hidden setting picked from the teacher's token,
    `lv.secret_pick`), the room gets the text and the options, and the answer with what the model measured is
    sealed for the reveal."""
    code = room.normalize_code(me["code"])
    number = room.current_round(store(), code).number + 1
    if kind == "temperature":
        pick, seed = lv.secret_pick(me["token"], code, number, len(lv.VOTE_TEMPERATURES))
        runs = [(temp, backend.generation(prompt, mb.SamplingParams(temperature=temp, top_k=0, top_p=1.0,
                                                                    max_new_tokens=lv.VOTE_TOKENS, seed=seed)))
                for temp in lv.VOTE_TEMPERATURES]
        sealed = lv.temperature_vote(prompt, runs, pick)
        text, options = prompt + runs[pick][1].completion, [row["t"] for row in sealed["rows"]]
    else:
        from ui.hallucination.compute import CONFIG, pair_params

        pairs = CONFIG["pairs"]
        pick, _ = lv.secret_pick(me["token"], code, number, 2 * len(pairs))
        pair, shown_real = pairs[pick // 2], pick % 2 == 0
        real, invented = (backend.generation(pair[w], pair_params()) for w in ("real", "invented"))
        sealed = lv.fact_vote(pair, real, invented, shown_real)
        shown = next(r for r in sealed["rows"] if r["shown"])
        text, options = shown["prompt"] + shown["text"], FACT_OPTIONS
    room.start_round(store(), code, me["token"], "vote", text, options, sealed=sealed)


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
    """The projector's round: the class's histogram, live; "Reveal"; then the model beside it, and the score."""
    try:
        r = room.current_round(store(), me["code"])
        answers = room.tally_guesses(store(), me["code"])
        score = room.tally(store(), me["code"])
    except room.ClassroomError as exc:
        _error(exc)
        return
    if r.number == 0:
        st.info(t("live.round.none"), icon=":material/lightbulb:")
        return
    if r.kind == "vote":
        vote_board(me, r, answers)
        return
    st.markdown(t("live.round.of", n=r.number))
    model_text(r.prompt)
    rows = _token_rows(r.prompt, answers.counts)
    if r.open:
        st.text(t("live.round.open", k=answers.total))
        if len(rows):
            show(class_chart(rows), save=False)
        answer_list(me, r.number)
        if st.button(t("live.round.reveal"), key=f"live_reveal_{r.number}", disabled=not answers.total,
                     help=None if answers.total else t("live.round.reveal.help")):
            payload, matched, class_top = reveal_payload(r.prompt, rows)
            try:
                room.reveal(store(), me["code"], me["token"], payload, matched=matched, class_top=class_top)
            except room.ClassroomError as exc:
                _error(exc)
            try:
                st.rerun(scope="fragment")
            except StreamlitAPIException:  # the whole page ran (a test's click): rerun it
                st.rerun()
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


def vote_board(me: dict, r: room.Round, answers: room.Answers) -> None:
    """The projector's vote: the text, the votes live, "Reveal"; then the answer and what the model measured."""
    st.markdown(t("live.round.of", n=r.number))
    model_text(r.prompt)
    df = vote_frame(r, answers)
    if r.open:
        st.text(t("live.vote.open", k=answers.total))
        show(vote_chart(df), save=False)
        answer_list(me, r.number)
        if st.button(t("live.round.reveal"), key=f"live_reveal_{r.number}", disabled=not answers.total,
                     help=None if answers.total else t("live.round.reveal.help")):
            try:
                payload = room.sealed(store(), me["code"], me["token"]) or {}
                room.reveal(store(), me["code"], me["token"], payload)
            except room.ClassroomError as exc:
                _error(exc)
            try:
                st.rerun(scope="fragment")
            except StreamlitAPIException:
                st.rerun()
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
            t("live.vote.col.shown"): [t("live.vote.shown") if x["shown"] else "" for x in rows]}), hide_index=True)
        st.caption(t("live.vote.temperature.why"))
    else:
        shown = next((x for x in payload.get("rows") or [] if x["shown"]), {})
        key = "fact" if answer == "fact" else {"real": "miss", "premise": "premise"}.get(shown.get("which"), "invented")
        st.markdown(t(f"live.vote.fact.answer.{key}"))
        if key == "miss":
            model_text(", ".join(payload.get("answers") or []))
        rows = payload.get("rows") or []
        st.dataframe(pd.DataFrame({
            t("live.vote.col.text"): [x["prompt"] + x["text"] for x in rows],
            t("live.vote.col.kind"): [t("live.vote.fact") if x["fact"] else t("live.vote.invention") for x in rows],
            t("live.vote.col.mean"): [fmt_pct(x["mean_prob"]) for x in rows],
            t("live.vote.col.first"): [t("live.vote.of_tokens", k=x["first_choice"], n=x["tokens"]) for x in rows]}),
            hide_index=True)
        means = [x["mean_prob"] for x in rows]
        close = len(means) == 2 and abs(means[0] - means[1]) < FACT_CLOSE
        why = ("live.vote.fact.why_none" if not any(x["fact"] for x in rows)  # no fact to tell apart
               else "live.vote.fact.why_close" if close else "live.vote.fact.why_apart")
        st.caption(t(why, pp=round(100 * FACT_CLOSE)))
    st.text(t("live.vote.right", m=right, n=answers.total))


def answer_list(me: dict, number: int) -> None:
    """Every answer with its nickname, each with a switch that hides it (or the nickname) from the projector."""
    try:
        given = room.answers(store(), me["code"], me["token"])
    except room.ClassroomError:
        return
    with st.expander(t("live.answers.title", n=len(given)), icon=":material/visibility_off:"):
        for a in given:
            c1, c2, c3 = st.columns([3, 1, 1])
            name = t("live.answers.nick_hidden") if a.nickname_hidden else (a.nickname or t("live.answers.anonymous"))
            c1.text(f"{name}: {t('live.answers.hidden') if a.hidden else a.text}")  # students' text: plain text
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
    if payload.get("guessed"):
        st.dataframe(pd.DataFrame({t("live.axis.token"): [g["token"] for g in payload["guessed"]],
                                   t("live.axis.guesses"): [g["guesses"] for g in payload["guessed"]],
                                   t("live.axis.prob"): [pct(g["prob"]) for g in payload["guessed"]]}),
                     hide_index=True)


def student_round(me: dict) -> None:
    st.text(t("live.side.student", code=me["code"]))
    student_board(me)


@st.fragment(run_every=ROUND_S)
def student_board(me: dict) -> None:
    """A student's round, reread every ROUND_S seconds; the same timer follows the teacher (follow_step)."""
    follow_step()
    try:
        r = room.current_round(store(), me["code"])
    except room.ClassroomError as exc:
        _error(exc)
        return
    if r.number == 0 or (not r.open and not r.revealed):
        st.info(t("live.student.wait"), icon=":material/hourglass_top:")
        return
    if r.kind == "vote":
        student_vote(me, r)
        return
    st.markdown(t("live.student.prompt"))
    model_text(r.prompt)
    tok = backend.bundle_for().tokenizer
    mine = st.session_state.get(f"live_mine_{r.number}")
    if mine is None:  # a new session (a reload, another replica): the room still has this phone's guess
        try:
            mine = room.my_answer(store(), me["code"], me["sid"], r.number)
        except (room.ClassroomError, ValueError):
            mine = None
        if mine is not None:
            st.session_state[f"live_mine_{r.number}"] = mine
    if r.open:
        with st.form(f"live_guess_{r.number}", clear_on_submit=False):
            text = st.text_input(t("live.student.guess"), max_chars=40, key=f"live_guess_text_{r.number}")
            sent = st.form_submit_button(t("live.student.send"), type="primary")
        tapped = None
        if r.options:  # or tap one of the model's likely tokens
            st.caption(t("live.student.tap"))
            for i, (col, option) in enumerate(zip(st.columns(len(r.options)), r.options)):
                info = guess_token(tok, r.prompt, option)
                if col.button(escape_markdown(info.display if info else option), key=f"live_tap_{r.number}_{i}",
                              width="stretch"):
                    tapped = option
        if sent or tapped is not None:
            try:
                mine = room.guess(store(), me["code"], me["sid"], text if tapped is None else tapped,
                                  round_number=r.number)
                st.session_state[f"live_mine_{r.number}"] = mine
            except (room.ClassroomError, ValueError) as exc:
                _error(exc)
    if mine:
        info = guess_token(tok, r.prompt, mine)
        if info is not None:
            st.markdown(t("live.student.counts_as"))
            model_text(info.display)
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


def student_vote(me: dict, r: room.Round) -> None:
    """A student's vote: the text, the options to tap, and after the reveal the answer and their own vote."""
    opts = r.options or []
    st.markdown(t("live.student.vote.fact" if opts == FACT_OPTIONS else "live.student.vote.temperature"))
    model_text(r.prompt)
    key = f"live_mine_{r.number}"
    mine = st.session_state.get(key)
    if mine is None:
        try:
            mine = room.my_answer(store(), me["code"], me["sid"], r.number)
        except (room.ClassroomError, ValueError):
            mine = None
    if r.open:
        labels = {o: option_label(o, opts) for o in opts}
        with st.form(f"live_vote_{r.number}", clear_on_submit=False):
            choice = st.radio(t("live.student.vote"), opts, index=opts.index(mine) if mine in opts else None,
                              format_func=labels.get, key=f"live_vote_choice_{r.number}")
            sent = st.form_submit_button(t("live.student.vote.send"), type="primary")
        if sent and choice is not None:
            try:
                mine = room.guess(store(), me["code"], me["sid"], choice, round_number=r.number)
            except (room.ClassroomError, ValueError) as exc:
                _error(exc)
    if mine is not None:
        st.session_state[key] = mine
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
