"""The live class in AppTest: a teacher and students (separate sessions, one in-process store) start, join,
follow the teacher's page and settings, and play a guessing round to the reveal."""
import pytest

from tests.app.helpers import run_page, texts
from ui.live_class import STATE


def teacher(lang="en"):
    at = run_page("live", lang=lang)
    at.button(key="live_start_page").click().run()
    assert not at.exception
    me = at.session_state[STATE]
    assert me["role"] == "teacher"
    return at, me["code"]


def student(code, lang="pt-BR", nick=None):
    at = run_page("live", lang=lang)
    at.text_input(key="live_code").set_value(code)
    if nick is not None:
        at.text_input(key="live_nick").set_value(nick)
    at.button[[b.label for b in at.button].index("Entrar" if lang == "pt-BR" else "Join")].click().run()
    assert not at.exception
    return at


def test_the_projector_shows_the_code_and_a_phone_joins_with_it_typed_loosely():
    t, code = teacher()
    assert any(f">{code}</p>" in h.proto.body for h in t.get("html"))  # the code, large
    assert "live?join=" + code.replace("-", "") in texts(t)
    assert len(t.get("image")) >= 1  # the QR code
    s = student(code.lower().replace("-", " "))
    assert s.session_state[STATE]["role"] == "student" and s.session_state[STATE]["code"] == code
    t.run()
    assert [m.value for m in t.metric] == ["1"]


@pytest.mark.parametrize("code, message", [("ACDE-FGHJ", "Não há sala"), ("ABCD-EFGH", "8 caracteres"),
                                                  ("0000", "8 caracteres")])
def test_a_wrong_code_gets_a_clear_message_and_keeps_what_was_typed(code, message):
    s = student(code)
    assert STATE not in s.session_state
    assert any(message in w.value for w in s.warning)
    assert s.text_input(key="live_code").value == code


def test_a_nickname_is_stored_as_text():
    t, code = teacher()
    s = student(code, nick="<b>Ana</b> **x**")
    assert STATE in s.session_state
    for md in s.markdown:
        assert "<b>Ana" not in md.value


def test_the_teachers_page_and_settings_reach_the_room_even_from_a_fragment():
    """share.publish (which every page with a link calls, in its fragments too: the temperature page's sliders) tells
    the room where the teacher is and with which settings."""
    import classroom as room
    t, code = teacher()
    t.switch_page("pages/temperature.py").run()
    assert not t.exception
    view = room.view(room.open_store(), code)
    assert view.page == "temperature" and view.params["prompt"] and "lang" not in view.params
    t.switch_page("pages/loop.py").run()
    moved = room.view(room.open_store(), code)
    assert moved.page == "loop" and moved.version > view.version


def test_a_phone_goes_where_the_teacher_is_with_its_own_language():
    """follow_query: the teacher's view as the phone's destination (app.py's lead() writes the view and follow()
    switches the page: a real browser's part, tests/e2e/test_live_class_browser.py)."""
    import classroom as room
    from ui.live_class import follow_query
    view = room.View(version=3, page="temperature", params={"prompt": "O gato", "t": "1.3"})
    me = {"following": True}
    assert follow_query(me, view, "live", "pt-BR", projection=False) == {"prompt": "O gato", "t": "1.3", "lang": "pt-BR"}
    assert follow_query(me, view, "temperature", "pt-BR", projection=False) is None  # there already
    assert follow_query(me, view, "loop", "en", projection=True) == {"prompt": "O gato", "t": "1.3", "lang": "en",
                                                                   "projection": "1"}  # it wandered off: back
    assert follow_query({}, room.View(version=1, page=None, params={}), "home", "en", projection=False) is None


def test_a_guessing_round_from_start_to_reveal():
    t, code = teacher()
    a, b = student(code), student(code, lang="en")
    t.text_area(key="live_round_prompt").set_value("A capital da França é a cidade de")
    t.button(key="live_round_start").click().run()
    assert "Round 1" in texts(t)
    for at, guess in ((a, "Paris"), (b, "<script>x</script>")):
        at.run()
        at.text_input(key="live_guess_text_1").set_value(guess)
        at.button[[x.label for x in at.button].index("Enviar palpite" if at is a else "Send guess")].click().run()
        assert not at.exception
    assert "·Paris" in [c.value for c in a.code]  # the guess as its first token, the space shown as ·
    t.run()
    assert "Guesses so far: 2." in texts(t)
    assert len(t.get("vega_lite_chart")) == 1  # the class's histogram
    t.button(key="live_reveal_1").click().run()
    assert not t.exception
    assert len(t.get("vega_lite_chart")) == 2  # the class beside the model
    assert "after 1 revealed round(s)" in texts(t)
    a.run()
    assert "O modelo deu ao seu token a probabilidade" in texts(a)
    for md in b.markdown:
        assert "<script>" not in md.value


def test_the_teacher_hides_a_guess_from_the_projector():
    t, code = teacher()
    s = student(code, nick="Bo")
    t.text_area(key="live_round_prompt").set_value("O gato subiu no")
    t.button(key="live_round_start").click().run()
    s.run()
    s.text_input(key="live_guess_text_1").set_value("palavrão")
    s.button[[x.label for x in s.button].index("Enviar palpite")].click().run()
    t.run()
    assert "Bo: palavrão" in texts(t)
    sid = s.session_state[STATE]["sid"]
    t.checkbox(key=f"live_hide_1_{sid}").check().run()
    assert not t.exception
    assert "palavrão" not in texts(t) and "Bo: (guess hidden)" in texts(t)
    assert not t.get("vega_lite_chart")  # no answer left to count on the projector


def test_a_students_place_in_the_class_is_in_its_address():
    t, code = teacher()
    s = student(code)
    me = s.session_state[STATE]
    assert s.query_params.get("class") == code.replace("-", "") and s.query_params.get("me") == me["sid"]
