"""A following phone's decision (ui/live_class.follow_query): switch to the teacher's view only while the phone's
last full run showed something else, wait for a switch's run to end, and give up after MAX_SWITCHES for one view.
Streamlit can merge a switch with a timer's rerun and run the old page: the next timer run must switch again."""
from ui.live_class import MAX_SWITCHES, RETRY_S, follow_query, shows

TEACHER = ["temperature", {"prompt": "O céu é", "T": "0.8"}]


def phone(**extra) -> dict:
    return {"role": "student", "code": "KDXP-7M3R", "sid": "s1", "target": [TEACHER[0], dict(TEACHER[1])], **extra}


def test_a_phone_already_there_does_not_switch():
    me = phone()
    ran = ("temperature", {"prompt": "O céu é", "T": "0.8", "class": "KDXP7M3R", "me": "s1"})
    assert shows(ran, *TEACHER)
    assert follow_query(me, ran, runs=5, now=100.0, language="en", projection=False) is None
    assert me.get("switches", 0) == 0


def test_the_switch_carries_the_teachers_values_and_the_phones_own():
    me = phone()
    query = follow_query(me, ("home", {}), runs=5, now=100.0, language="en", projection=True)
    assert query == {"prompt": "O céu é", "T": "0.8", "lang": "en", "class": "KDXP7M3R", "me": "s1",
                     "projection": "1"}
    assert me["switches"] == 1


def test_a_switch_whose_run_ran_the_old_values_is_made_again():
    """The merged rerun: a full run ended (runs went up) but it showed the old T."""
    me = phone()
    assert follow_query(me, ("temperature", {"T": "0.2"}), runs=5, now=100.0, language="pt-BR", projection=False)
    # a timer run before any full run ended: wait
    assert follow_query(me, ("temperature", {"T": "0.2"}), runs=5, now=101.0, language="pt-BR",
                        projection=False) is None
    # a full run ended, on the old T: switch again at once
    again = follow_query(me, ("temperature", {"T": "0.2"}), runs=6, now=101.5, language="pt-BR", projection=False)
    assert again is not None and again["T"] == "0.8" and me["switches"] == 2


def test_a_lost_switch_is_made_again_after_the_retry_time():
    me = phone()
    assert follow_query(me, ("home", {}), runs=1, now=100.0, language="en", projection=False)
    assert follow_query(me, ("home", {}), runs=1, now=100.0 + RETRY_S - 0.1, language="en", projection=False) is None
    assert follow_query(me, ("home", {}), runs=1, now=100.0 + RETRY_S + 0.1, language="en", projection=False)


def test_a_phone_stops_after_max_switches_for_one_view():
    me = phone()
    made = [follow_query(me, ("home", {}), runs=n, now=100.0 + n, language="en", projection=False)
            for n in range(MAX_SWITCHES + 3)]
    assert sum(q is not None for q in made) == MAX_SWITCHES
    # a new view of the teacher's (follow_step resets the count when the version changes) is followed again
    me["target"], me["switches"] = ["loop", {"step": "3"}], 0
    assert follow_query(me, ("home", {}), runs=99, now=200.0, language="en", projection=False)["step"] == "3"


def test_no_page_yet_means_no_switch():
    me = phone(target=[None, {}])
    assert follow_query(me, ("home", {}), runs=1, now=1.0, language="en", projection=False) is None
    assert follow_query({"role": "student"}, None, runs=0, now=1.0, language="en", projection=False) is None


def test_values_a_pages_fragment_draws_are_taken_in_that_fragment():
    """ui/live_class.changed_in_fragment: on the page the phone shows, a change only of values that the page's
    follow_in_fragment fragment draws is taken there; a value outside it, another page, or nothing changed is not."""
    from ui.live_class import IN_FRAGMENT, changed_in_fragment, follow_in_fragment
    from ui.temperature.draw import link_params

    links = link_params()
    saved = dict(IN_FRAGMENT)
    try:
        follow_in_fragment("temperature", "temperature_live_panel", links[1:7])
        ran = ("temperature", {"prompt": "O céu é", "t": "0.7", "k": "50", "class": "KDXP7M3R"})
        taken = changed_in_fragment(ran, "temperature", {"prompt": "O céu é", "t": "0.9", "k": "40"})
        assert taken is not None and set(taken) == {"t", "k"} and taken["t"].key == "temperature_T"
        assert changed_in_fragment(ran, "temperature", {"prompt": "Era uma vez", "t": "0.9"}) is None  # the prompt
        assert changed_in_fragment(ran, "temperature", {"prompt": "O céu é", "t": "0.7"}) is None  # nothing new
        assert changed_in_fragment(("home", {}), "temperature", {"t": "0.9"}) is None  # another page: a page run
        assert changed_in_fragment(ran, "loop", {"steps": "3"}) is None  # a page without such a fragment
        assert changed_in_fragment(None, "temperature", {"t": "0.9"}) is None  # no full run yet
    finally:
        IN_FRAGMENT.clear()
        IN_FRAGMENT.update(saved)


def test_the_loop_takes_the_teachers_step_in_its_fragment_only_between_two_steps():
    """From no step, or back to none, the loop page's positions panel (outside the run's fragment) changes too."""
    from ui.live_class import IN_FRAGMENT, changed_in_fragment, follow_in_fragment
    from ui.loop.draw import link_params, step_in_fragment

    saved = dict(IN_FRAGMENT)
    try:
        follow_in_fragment("loop", "loop_run", link_params(20)[-2:-1], accepts=step_in_fragment)
        at = lambda n: ("loop", {"prompt": "O céu é", "steps": str(n)})  # noqa: E731
        assert set(changed_in_fragment(at(2), "loop", {"prompt": "O céu é", "steps": "3"})) == {"steps"}
        assert changed_in_fragment(at(5), "loop", {"prompt": "O céu é", "steps": "1"}) is not None  # back: replayed
        assert changed_in_fragment(at(0), "loop", {"prompt": "O céu é", "steps": "1"}) is None
        assert changed_in_fragment(at(3), "loop", {"prompt": "O céu é", "steps": "0"}) is None
        assert changed_in_fragment(at(3), "loop", {"prompt": "O céu é", "steps": "x"}) is None
    finally:
        IN_FRAGMENT.clear()
        IN_FRAGMENT.update(saved)


def test_turning_follow_on_again_ends_a_change_of_the_student_s_own():
    """A student's own change on the teacher's view (live_class.own_change) holds the phone until her view changes,
    or until the student turns "Follow the projector" off and on: then the phone goes where she is at once."""
    import streamlit as st

    from ui.live_class import STATE
    from ui.live_class.sidebar import _follow_changed

    me = phone(following=True, seen_version=4, own=4)
    st.session_state[STATE] = me
    try:
        st.session_state["live_following"] = False
        _follow_changed()
        st.session_state["live_following"] = True
        _follow_changed()
        assert me["following"] and me["seen_version"] == -1 and "own" not in me
    finally:
        del st.session_state[STATE]
        del st.session_state["live_following"]
