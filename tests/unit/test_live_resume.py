"""The teacher's browser back in a new session (a reload, a replica that died) leads her room again from its cookie
(ui.live_class.place.resume_teacher). Any write to st.session_state may stop the run (Streamlit starts a press's run
beside the first one and stops the first at its next write: fastReruns); a run stopped at any of its writes must
leave the next run able to resume, or the room already in her hands (the mark "tried" first lost her class, and
her Reveal, in a clean-clone CI run)."""
from types import SimpleNamespace

import pytest

import classroom as room
from classroom.store import MemoryStore
from ui.live_class import place


class Stopped(Exception):
    """What the write that stops the run raises (Streamlit's StopException)."""


class State(dict):
    """st.session_state that stops the run at its `stop_at`-th write (1-based; 0: never), before the value is in,
    as Streamlit does (SafeSessionState.__setitem__ calls its yield callback, which raises, before it writes)."""

    def __init__(self):
        super().__init__()
        self.stop_at, self.writes = 0, 0

    def __setitem__(self, key, value):
        self.writes += 1
        if self.writes == self.stop_at:
            raise Stopped(key)
        super().__setitem__(key, value)


@pytest.fixture
def teacher(monkeypatch):
    store = MemoryStore()
    code, token = room.create_room(store)
    state = State()
    fake = SimpleNamespace(session_state=state, context=SimpleNamespace(cookies={}))
    monkeypatch.setattr(place, "st", fake)
    monkeypatch.setattr(place, "store", lambda: store)
    return store, code, token, state, fake.context.cookies


def _writes_of_a_whole_run(cookie: str) -> int:
    state = State()
    place.st.session_state, saved = state, place.st.session_state
    place.st.context.cookies[place.TEACHER_COOKIE] = cookie
    try:
        place.resume_teacher()
    finally:
        place.st.session_state = saved
    return state.writes


def test_a_run_stopped_at_any_write_leaves_the_next_run_to_resume_the_class(teacher):
    store, code, token, _, cookies = teacher
    cookie = f"{room.normalize_code(code)}.{token}"
    writes = _writes_of_a_whole_run(cookie)
    assert writes >= 2
    for stop_at in range(1, writes + 1):
        state = State()
        place.st.session_state = state
        cookies[place.TEACHER_COOKIE] = cookie
        state.stop_at = stop_at
        with pytest.raises(Stopped):
            place.resume_teacher()
        state.stop_at = 0
        place.resume_teacher()  # the press's run, or the next one
        me = state.get(place.STATE)
        assert me == {"code": room.format_code(room.normalize_code(code)), "role": "teacher", "token": token}, stop_at
        place.leave(me)  # and "Leave" sticks, however far the first run got
        place.resume_teacher()
        assert place.STATE not in state and state["_live_cookie"] == "", stop_at


def test_leave_sticks_for_the_rest_of_the_session(teacher):
    _, code, token, state, cookies = teacher
    cookies[place.TEACHER_COOKIE] = f"{room.normalize_code(code)}.{token}"
    place.resume_teacher()
    assert state[place.STATE]["role"] == "teacher" and state["_live_cookie_read"]
    place.leave(state[place.STATE])
    place.resume_teacher()
    assert place.STATE not in state and state["_live_cookie"] == ""


@pytest.mark.parametrize("cookie, ended", [
    ("not a code.tok", False),         # not a code at all: forgotten, and nothing said
    ("KDXP-7M3R.wrong-token", True),   # a code, but no such room (ended): forgotten, and said to her alone
])
def test_a_cookie_that_leads_nowhere_is_forgotten(teacher, cookie, ended):
    _, _, _, state, cookies = teacher
    cookies[place.TEACHER_COOKIE] = cookie
    place.resume_teacher()
    assert place.STATE not in state and state["_live_cookie"] == "" and state["_live_cookie_read"]
    assert ("_live_ended" in state) is ended
    if ended:
        assert state["_live_ended"] == "KDXP-7M3R"


def test_a_wrong_token_for_a_live_room_is_forgotten_and_the_room_is_not_said_ended(teacher):
    _, code, _, state, cookies = teacher
    cookies[place.TEACHER_COOKIE] = f"{room.normalize_code(code)}.not-the-token"
    place.resume_teacher()
    assert place.STATE not in state and state["_live_cookie"] == "" and "_live_ended" not in state
