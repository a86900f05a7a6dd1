"""The sidebar's "Live class" panel on every page: start a class or join one; in a room, its code, the follow
switch (a student), the class page, and "Leave"."""
from __future__ import annotations

import streamlit as st

import classroom as room
from ui.i18n import t
from ui.live_class.place import MESSAGE_VALUES, PAGE, STATE, current, keep_teacher, leave, store
from ui.nav import link
from ui.widgets import fragment_run


def sidebar_panel() -> None:
    """The "Live class" panel: start or join; in a room, its code, the count or the follow switch, leave."""
    me = current()
    with st.expander(t("live.side.title"), icon=":material/groups:", expanded=me is not None):
        keep_teacher()
        if me is None:
            if ended := st.session_state.get("_live_ended"):
                st.info(t("live.side.ended", code=ended, **MESSAGE_VALUES), icon=":material/event_busy:")
            start_button("live_start")
            link("live", label=t("live.side.join"), icon=":material/login:")
            return
        if me["role"] == "teacher":
            st.text(t("live.side.teacher", code=me["code"]))
        else:
            st.text(t("live.side.student", code=me["code"]))
            st.session_state.setdefault("live_following", me.get("following", True))
            st.toggle(t("live.side.follow"), key="live_following", on_change=_follow_changed,
                      help=t("live.side.follow.help"))
        link("live", label=t("live.side.open"), icon=":material/co_present:")
        leave_help = t("live.side.leave.teacher", h=room.ROOM_TTL_S // 3600) if me["role"] == "teacher" else None
        if st.button(t("live.side.leave"), key="live_leave", width="stretch", help=leave_help):
            leave(me)
            st.rerun()


def start_button(key: str) -> None:
    """ "Start a class": a new room, this session its teacher, then the class page (the code for the projector)."""
    if st.button(t("live.side.start"), help=t("live.side.start.help"), key=key, width="stretch", icon=":material/co_present:"):
        code, token = room.create_room(store())
        st.session_state[STATE] = {"code": code, "role": "teacher", "token": token}
        st.session_state["_live_cookie"] = f"{room.normalize_code(code)}.{token}"
        st.session_state.pop("_live_ended", None)
        st.switch_page(PAGE)


def _follow_changed() -> None:
    me = current()
    if me is not None and fragment_run():  # a timer's run cannot flip the switch:
        st.session_state["live_following"] = me.get("following", True)  # the browser resent a stale default
        return
    if me is not None:
        me["following"] = bool(st.session_state.get("live_following"))
        me["seen_version"] = -1  # back to following: go where the teacher is now
        me.pop("own", None)  # a change of the student's own on this view (own_change) no longer holds the phone
