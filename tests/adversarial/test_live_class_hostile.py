"""The live class's text boxes get the hostile list too: the teacher's round prompt, a student's nickname and guess.
No exception, a clear message for a prompt that cannot be a round, and nothing a student typed reaches the
projector (or another phone) as Markdown or HTML."""
import classroom as room
from tests.adversarial.cases import HOSTILE_TEXT, MARKDOWN_PROBES
from tests.app.helpers import run_page, texts
from ui.live_class import STATE

MARKERS = ("<script", "<img", "javascript:", "example.invalid", "**bold**", "# heading", "$x$")  # only input has these


def _markdown_clean(at, where: str) -> None:
    for md in at.markdown:
        for marker in MARKERS:
            assert marker not in md.value, f"{where}: {marker!r} rendered as Markdown in {md.value[:80]!r}"


def test_the_round_prompt_and_the_students_text_survive_hostile_text():
    teacher = run_page("live", lang="en")
    teacher.button(key="live_start_page").click().run()
    code = teacher.session_state[STATE]["code"]
    tried = 0
    for name, value in {**HOSTILE_TEXT, **MARKDOWN_PROBES}.items():
        teacher.text_area(key="live_round_prompt").set_value(value)
        teacher.button(key="live_round_start").click().run()
        assert not teacher.exception, f"prompt {name}: {teacher.exception}"
        if not value.strip():
            assert teacher.warning, f"prompt {name}: no message"
        _markdown_clean(teacher, f"prompt {name}")
        tried += 1
    teacher.text_area(key="live_round_prompt").set_value("O gato subiu no")
    teacher.button(key="live_round_start").click().run()
    number = room.current_round(room.open_store(), code).number
    for name, value in {**HOSTILE_TEXT, **MARKDOWN_PROBES}.items():
        phone = run_page("live", lang="pt-BR")
        phone.text_input(key="live_code").set_value(code)
        phone.text_input(key="live_nick").set_value(value[:40])
        phone.button[[b.label for b in phone.button].index("Entrar")].click().run()
        assert not phone.exception, f"nickname {name}: {phone.exception}"
        phone.run()
        phone.text_input(key=f"live_guess_text_{number}").set_value(value[:40])
        phone.button[[b.label for b in phone.button].index("Enviar palpite")].click().run()
        assert not phone.exception, f"guess {name}: {phone.exception}"
        if not value.strip():
            assert phone.warning, f"guess {name}: no message"
        _markdown_clean(phone, f"phone {name}")
        tried += 2
    teacher.run()
    assert not teacher.exception
    _markdown_clean(teacher, "the projector with every hostile guess")
    assert "Guesses so far:" in texts(teacher)
    assert tried == 3 * len({**HOSTILE_TEXT, **MARKDOWN_PROBES})
