"""A visitor's place in a live class: the room store, who this session is in the room (STATE), a student's place
kept in the address (a reload, or a replica that died, brings the same student back), the teacher's cookie (her
browser leads the room again after a reload), and the room's errors in the visitor's language."""
from __future__ import annotations

import json

import streamlit as st

import classroom as room
from ui.i18n import t

STATE = "live_class"  # session_state: {"code", "role": "teacher" | "student", "token" (teacher), "sid", "following"}
PAGE = "pages/live.py"
SAMPLE_CODE = "KDXP-7M3R"  # a valid code (classroom.ALPHABET), for the messages
TEACHER_COOKIE = "tbt_teacher"  # "CODE.token" in the teacher's own browser: a reload, or a replica that died, keeps
# the class in her hands (read from the websocket's request by st.context.cookies; written by a script we render)
MESSAGE_VALUES = {"h": room.ROOM_TTL_S // 3600, "n": len(room.normalize_code(SAMPLE_CODE)), "example": SAMPLE_CODE}


def store() -> room.Store:
    return room.open_store()


def current() -> dict | None:
    return st.session_state.get(STATE)


def is_student() -> bool:
    me = current()
    return me is not None and me.get("role") == "student"


def following() -> bool:
    """A student's phone that follows the teacher ("follow the teacher" on). It shows her page without the files to
    save (the charts' PNG/SVG, the tables' CSV/JSON: ui.export.files_shown), which come back when the student turns
    "follow the teacher" off. Those buttons were a seventh of a page's run (tokenizer 60 -> 51.5 ms, pipeline 55 ->
    46.5 ms a visit here), and a class's 30 phones run the teacher's page at once: docs/performance.md, "Following
    phones draw no files"."""
    me = current()
    return me is not None and me.get("role") == "student" and bool(me.get("following", True))


def error(exc: Exception) -> None:
    """A room error in the visitor's language (the exception's own text is English, for the log)."""
    key = {room.RoomNotFound: "live.err.not_found", room.RateLimited: "live.err.limited",
           room.RoundClosed: "live.err.closed", room.BadAnswer: "live.err.answer", room.NotTeacher: "live.err.teacher",
           room.NotJoined: "live.err.not_joined"}.get(type(exc), "live.err.other")
    st.warning(t(key, **MESSAGE_VALUES), icon=":material/error:")


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
    cookie, until a run of the session has written what it found or "Leave" marked the cookie read (leave: so that
    it sticks); a room that ended says so to the teacher alone. Written last, the class before the mark that the
    cookie was read: Streamlit may stop a run before any write to st.session_state (a press's run starts beside the
    first run: fastReruns), and a run stopped there leaves the class in her hands, or nothing for the next run to
    try again (the mark written first lost her class, and the Reveal she pressed: tests/unit/test_live_resume.py)."""
    if current() is not None or st.session_state.get("_live_cookie_read"):
        return
    try:
        raw = str(st.context.cookies.get(TEACHER_COOKIE) or "")
    except Exception:  # noqa: BLE001 - no browser context (AppTest)
        raw = ""
    code, _, token = raw.partition(".")
    writes: dict = {}
    try:
        code = room.normalize_code(code) if token else ""
    except room.ClassroomError:
        code, writes["_live_cookie"] = "", ""  # not a code at all: forget it
    if code:
        try:
            canonical = room.resume(store(), code, token)
        except (room.ClassroomError, ValueError) as exc:
            writes["_live_cookie"] = ""  # gone, or not this room's token: forget it
            if isinstance(exc, room.RoomNotFound):
                writes["_live_ended"] = room.format_code(code)  # a real code (normalized): safe to show
        else:
            writes[STATE] = {"code": canonical, "role": "teacher", "token": token}
            writes["_live_cookie"] = raw  # the room lives on: so does the cookie
    for key, value in writes.items():
        st.session_state[key] = value
    st.session_state["_live_cookie_read"] = True


def leave(me: dict) -> None:
    """"Leave": this session is out of the class for good. Its teacher's cookie is not read again (the mark first,
    as resume_teacher writes it last: a first run stopped before the mark would otherwise lead the room again at
    the next run), and removed from the browser."""
    st.session_state["_live_cookie_read"] = True
    if me.get("role") == "teacher":
        st.session_state["_live_cookie"] = ""  # this browser no longer leads the room
    st.session_state.pop(STATE, None)


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
