"""Following and leading. The teacher's runs tell the room her page and query values (`lead`, also from a
fragment: ui.share.publish calls it); a following phone's timer (`follow`, every FOLLOW_S) reads the room's view
version and, only when it changed, opens her page with her values (the same query values a shared link carries,
read again by each page's `restore`), or, when only values a fragment of the page it shows draws changed, reruns
that fragment alone (`follow_in_fragment`)."""
from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import streamlit as st
from streamlit.errors import StreamlitAPIException

import classroom as room
from ui import nav
from ui.i18n import lang
from ui.live_class.place import current, store
from ui.share import Param, parse
from ui.widgets import fragment_run

FOLLOW_S = 0.5  # how often a following phone reads the view's version, on a lesson page and on the class page (the
# issue's goal: a change shows within 1.5 s; idle phones cost 0.005-0.006 CPU-s a phone a second: bench class_bench)
SEEN_S = 20.0  # how often a phone tells the room it is still there (a write; the count uses the last minute)
RETRY_S = 4.0  # a switch to the teacher's page after which no full run ended by then (the switch was lost): again
MAX_SWITCHES = 3  # switches for one view of the teacher's before a phone stops trying (no endless page runs)
NOT_FOLLOWED = ("lang", "projection")  # each phone keeps its own language and text size


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
    """On a student's phone (every page but the class page, whose timer student_status does the same): one small
    read every FOLLOW_S seconds; a new version of the teacher's view opens it."""
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
    if me.get("own") is not None and me.get("own") == me.get("seen_version"):
        return  # the student changed this view herself (own_change): it stays until the teacher's view changes
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
    st.switch_page(nav.page(target), query_params=query)  # the shared page: no path resolved on 30 phones at once


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
    fragment draws, park her values for that fragment (`took_teacher_values`, at its top, puts them in the widgets'
    state) and ask for its run. False when a page run is needed (another page, other values, a value the page would
    reject and say so).

    Nothing is written into the widgets' state here: a timer tick the browser sent meanwhile carries its own widget
    values and would win over them, and a widget the fragment already drew in the same run could not be written.
    And what the phone shows (`_live_ran`) changes only once the fragment has taken them: a run that was lost is
    asked for again (after RETRY_S)."""
    import time

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
    ids = fragment_ids(IN_FRAGMENT[page_name].key)
    if not ids:
        return False
    me["switched_at"] = None
    parked = (page_name, values, {**shown[1], **{k: params[k] for k in changed}})
    before = st.session_state.get("_live_pending")
    if before is not None and before[:3] == parked and time.monotonic() - before[3] < RETRY_S:
        return True  # asked for already: its run is queued
    st.session_state["_live_pending"] = (*parked, time.monotonic())
    rerun_fragments(ids)  # last: a write to session_state after it is a point where the run could stop
    return True


def took_teacher_values(page_name: str) -> bool:
    """At the top of a follow_in_fragment fragment, before its widgets: the teacher's values parked for this page go
    into the widgets' state, the page's `taken` runs, and the phone now shows her view. True when it took some."""
    pending = st.session_state.get("_live_pending")
    if pending is None or pending[0] != page_name or page_name not in IN_FRAGMENT:
        return False
    del st.session_state["_live_pending"]
    st.session_state.update(pending[1])
    if IN_FRAGMENT[page_name].taken is not None:
        IN_FRAGMENT[page_name].taken()
    st.session_state["_live_ran"] = (page_name, pending[2])
    return True


def own_change(page_name: str) -> None:
    """The page wrote its values into the address (ui.share.publish). On a following phone that showed the teacher's
    view, values that are not hers now mean the student changed the view herself (her own prompt, a step on the loop
    page, a slider): the phone keeps it until the teacher's view changes, and then takes her view again from what
    it shows. Before, the follow timer sent the phone back to her view at once (a page run), or, after a fragment's
    run, wrote her values back into the address while the phone showed its own. A fragment's run also says what
    the phone shows now (`_live_ran`; a full run says it when it ends, `ran`)."""
    me = current()
    if me is None or me["role"] != "student" or not me.get("following", True):
        return
    here = _here(page_name)
    if fragment_run():
        before = st.session_state.get("_live_ran")
        if before is None or before == here:
            return
        st.session_state["_live_ran"] = here
    else:
        before = st.session_state.get("_live_at")  # what this run started to show
        if before is None:
            return
    target = me.get("target")
    if target and target[0] and shows(before, *target) and not shows(here, *target):
        me["own"] = me.get("seen_version")


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
    widget's callback only; a timer's run asks the script runner as a browser's fragment request does (Streamlit
    1.67: RerunData with the fragments' ids; pinned in requirements.txt, and tests/e2e/test_live_follow_fragment.py
    fails if it stops working). Not fragment-scoped: it does not cut short a run under way (a click of the
    visitor's in another fragment, merged into this run, would be lost); it runs after it."""
    from streamlit.runtime.scriptrunner_utils.script_requests import RerunData
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx()
    ctx.script_requests.request_rerun(RerunData(
        query_string=ctx.query_string, page_script_hash=ctx.page_script_hash, fragment_id_queue=ids,
        is_fragment_scoped_rerun=False, cached_message_hashes=ctx.cached_message_hashes,
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
    st.session_state.pop("_live_pending", None)  # what the page showed is known again: a later tick compares
