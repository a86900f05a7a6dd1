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
    assert "after 1 revealed guessing round(s)" in texts(t)
    a.run()
    assert "O modelo deu ao seu token a probabilidade" in texts(a)
    for md in b.markdown:
        assert "<script>" not in md.value


def test_a_number_guess_shows_its_tokens_and_why_it_counts_as_the_lone_space():
    """Gemma's vocabulary has no token for " 1879": a year after a word is the space, then one token per digit."""
    import classroom as room
    t, code = teacher()
    s = student(code)
    t.text_area(key="live_round_prompt").set_value("Albert Einstein nasceu em")
    t.button(key="live_round_start").click().run()
    s.run()
    s.text_input(key="live_guess_text_1").set_value("1879")
    s.button[[x.label for x in s.button].index("Enviar palpite")].click().run()
    assert not s.exception
    assert "·" in [c.value for c in s.code]  # what it counts as
    assert "Seu palpite tem 5 tokens: · | 1 | 8 | 7 | 9" in texts(s)
    assert "Este token é só o espaço (·)" in texts(s)
    t.run()
    t.button(key="live_reveal_1").click().run()
    assert not t.exception
    top = room.current_round(room.open_store(), code).revealed["top"][0]["token"]
    assert ("This token is just the space (·)" in texts(t)) == (top == "·")
    assert "· marks the space that is part of the token." in texts(t)


def test_reveal_waits_for_an_answer_and_a_second_press_after_another_tab_revealed_does_nothing():
    import classroom as room
    t, code = teacher()
    t.text_area(key="live_round_prompt").set_value("O gato subiu no")
    t.button(key="live_round_start").click().run()
    assert t.button(key="live_reveal_1").disabled  # no answer yet
    s = student(code)
    s.text_input(key="live_guess_text_1").set_value("telhado")
    s.button[[x.label for x in s.button].index("Enviar palpite")].click().run()
    t.run()
    assert not t.button(key="live_reveal_1").disabled
    payload, me = {"top": [], "guessed": []}, t.session_state[STATE]
    room.reveal(room.open_store(), code, me["token"], payload)  # her other tab revealed it
    t.button(key="live_reveal_1").click().run()  # this tab still showed the button
    assert not t.exception and not t.warning
    assert room.tally(room.open_store(), code).rounds == 1  # revealed and scored once
    assert not [b for b in t.button if b.key == "live_reveal_1"]


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


def _vote(at, option: str, send: str) -> None:
    """Tap `option` (the room's value; the phone shows its label) and send the vote."""
    at.run()
    next(r for r in at.radio if r.key and r.key.startswith("live_vote_choice_")).set_value(option)
    at.button[[x.label for x in at.button].index(send)].click().run()
    assert not at.exception


def test_a_temperature_vote_from_start_to_reveal():
    import classroom as room
    from model_backend.lessons import live as lv
    t, code = teacher()
    a, b = student(code), student(code, lang="en")
    t.radio(key="live_kind").set_value("temperature").run()
    t.text_area(key="live_round_prompt").set_value("Era uma vez")
    t.button(key="live_vote_start_temperature").click().run()
    assert not t.exception
    r = room.current_round(room.open_store(), code)
    assert r.kind == "vote" and r.options == [f"{x:g}" for x in lv.VOTE_TEMPERATURES] and r.prompt.startswith("Era uma vez")
    assert "Round 1." in texts(t) and "Votes so far: 0." in texts(t)
    _vote(a, "0.2", "Enviar voto")
    _vote(b, "1.5", "Send vote")
    assert "Seu voto: T = 0,2." in texts(a)  # pt-BR: the number as Brazilians write it
    assert r.lead == len("Era uma vez")  # the prompt and the model's continuation, apart on every screen
    assert [c.value for c in a.code][-2:] == ["Era uma vez", r.prompt[r.lead:]]
    assert "A completação que o modelo escreveu:" in texts(a)
    assert [o for o in next(r for r in a.radio if r.key.startswith("live_vote")).options] == ["T = 0,2", "T = 0,8", "T = 1,5"]
    t.run()
    assert "Votes so far: 2." in texts(t)
    assert "(no nickname): T = 0.2" in texts(t) and "(no nickname): 0.2" not in texts(t)  # as the phones show it
    assert t.button(key="live_reveal_1").label == "Reveal the right answer"
    t.button(key="live_reveal_1").click().run()
    assert not t.exception
    sealed = room.current_round(room.open_store(), code).revealed
    answer = sealed["answer"]
    assert answer in r.options and [row["shown"] for row in sealed["rows"]].count(True) == 1
    shown = next(row for row in sealed["rows"] if row["shown"])
    assert r.prompt == "Era uma vez" + shown["text"]  # the text on screen is the one the answer names
    assert f"The model wrote the completion at **T = {float(answer):.1f}**." in [m.value for m in t.markdown]
    right = {"0.2": 1, "1.5": 1}.get(answer, 0)
    assert f"{right} of 2 votes were right." in texts(t)
    assert room.tally(room.open_store(), code).rounds == 0  # a vote is not scored against the model
    a.run()
    assert "O modelo escreveu a completação com" in " ".join(m.value for m in a.markdown)


def test_a_fact_vote_from_start_to_reveal():
    import classroom as room
    t, code = teacher()
    s = student(code, lang="en")
    t.radio(key="live_kind").set_value("fact").run()
    t.button(key="live_vote_start_fact").click().run()
    assert not t.exception
    r = room.current_round(room.open_store(), code)
    assert r.kind == "vote" and r.options == ["fact", "invention"]
    _vote(s, "invention", "Send vote")
    t.run()
    t.button(key="live_reveal_1").click().run()
    assert not t.exception
    payload = room.current_round(room.open_store(), code).revealed
    shown = next(row for row in payload["rows"] if row["shown"])
    assert r.prompt == shown["prompt"] + shown["text"]
    assert payload["answer"] == ("fact" if shown["fact"] else "invention")
    table = t.dataframe[-1].value
    assert list(table.columns) == ["prompt", "completion", "fact or invention", "mean probability of the tokens"]
    assert list(table["prompt"]) == [row["prompt"] for row in payload["rows"]]
    said = " ".join(m.value for m in t.markdown)
    assert ("It counts as a **fact**" in said) == (payload["answer"] == "fact")
    assert f"{int(payload['answer'] == 'invention')} of 1 votes were right." in texts(t)


def test_a_phone_taps_one_of_the_models_likely_tokens():
    import classroom as room
    t, code = teacher()
    s = student(code, lang="en")
    t.text_area(key="live_round_prompt").set_value("A capital da França é a cidade de")
    t.button(key="live_round_start").click().run()
    r = room.current_round(room.open_store(), code)
    assert r.options and 2 <= len(r.options) <= 4  # candidates to tap, the model's most likely token among them
    s.run()
    taps = [b for b in s.button if b.key and b.key.startswith("live_tap_1_")]
    assert len(taps) == len(r.options)
    taps[0].click().run()
    assert not s.exception
    assert room.tally_guesses(room.open_store(), code).counts == {r.options[0]: 1}
    assert "counts as this token" in " ".join(m.value for m in s.markdown)


def test_a_phone_follows_the_teacher_s_step_on_the_loop_page():
    """The teacher clicks "Next token" twice (in AppTest each click is a full run; in a browser it is the
    fragment's run, where publish_steps writes the step): the room holds her step, and a following phone opens
    the loop at that step, with her tokens (her seed)."""
    import classroom as room

    t, code = teacher()
    s = student(code)
    t.switch_page("pages/loop.py").run()
    assert not t.exception
    for _ in range(2):
        next(b for b in t.button if b.label == "Next token").click().run()
        assert not t.exception
    view = room.view(room.open_store(), code)
    assert view.page == "loop" and view.params["steps"] == "2"
    theirs = next(reversed(t.session_state["loop_runs"].values()))
    run = None
    for _ in range(3):  # the phone's runs (AppTest runs the whole script: the follow's switch included)
        s.run()
        assert not s.exception
        runs = s.session_state["loop_runs"] if "loop_runs" in s.session_state else {}
        run = next(reversed(runs.values()), None)
        if run is not None and len(run.steps) == 2:
            break
    assert run is not None, "the phone never opened the loop page"
    assert [step.token.id for step in run.steps] == [step.token.id for step in theirs.steps]
