"""A whole live class in Chromium: a teacher and three students in separate browser contexts. The teacher starts
a class; the students join (by the QR code's link and by typing the code); their phones follow the teacher to
another page with its settings; the teacher runs a guessing round; the histogram fills; the reveal puts the
model's probabilities beside it and every phone shows what the model gave its guess. One phone answers from the
keyboard alone, and axe-core (WCAG A and AA) audits the projector and the phones in the room."""
import re
import time

from tests.browser import BLOCKING, axe_audit, open_page, shoot

STUDENTS = [("pt-BR", "telhado"), ("en", "<b>Paris</b>"), ("pt-BR", "Paris")]


def _wait_text(page, pattern: str, timeout: float = 30) -> str:
    end = time.time() + timeout
    while time.time() < end:
        body = page.inner_text("body")
        if re.search(pattern, body):
            return body
        time.sleep(0.3)
    raise AssertionError(f"{pattern!r} not on {page.url} after {timeout} s; the page ends:\n{body[-1500:]}")


def _student(browser, server_url, code, lang, by_link):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale=lang)
    query = f"join={code.replace('-', '')}&lang={lang}" if by_link else f"lang={lang}"
    page = ctx.new_page()
    page.goto(f"{server_url}/live?{query}")
    box = page.get_by_label(re.compile("Código da sala|Room code"))
    box.wait_for(timeout=120_000)
    if not by_link:
        box.fill(code.lower())
    page.get_by_role("button", name=re.compile("^(Entrar|Join)$")).click()
    _wait_text(page, "sala " + code if lang == "pt-BR" else "room " + code)
    return ctx, page


def _tab_to(page, is_there: str, most: int = 60) -> None:
    """Press Tab until `is_there` (a JS predicate on document.activeElement) holds: the keyboard reaches it."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate(f"(e => !!e && ({is_there}))(document.activeElement)"):
            return
    raise AssertionError(f"Tab never reached {is_there!r} on {page.url}")


def _no_blocking_violation(page, where: str) -> None:
    found = [(v["id"], v["impact"], v["nodes"][:3]) for v in axe_audit(page) if v["impact"] in BLOCKING]
    assert not found, f"{where}: axe found {found}"


def test_a_teacher_and_three_phones_play_a_guessing_round(browser, server_url):
    teacher = open_page(browser, f"{server_url}/live?lang=en")
    teacher.get_by_role("button", name="Start a class").last.click()
    teacher.locator(".tbt-room-code").wait_for(timeout=60_000)
    code = teacher.locator(".tbt-room-code").inner_text().strip()
    assert re.fullmatch(r"[A-Z0-9]{4}-[A-Z0-9]{4}", code)
    teacher.locator('[data-testid="stMain"] img').first.wait_for(timeout=30_000)  # the QR code
    phones = [_student(browser, server_url, code, lang, by_link=(i != 1)) for i, (lang, _) in enumerate(STUDENTS)]
    try:
        _wait_text(teacher, r"Phones connected \(last minute\)\s*3")
        shoot(teacher, "live-teacher-code-1280", whole=False)
        teacher.reload()  # a new session in the teacher's browser: it still leads the same room (its cookie)
        teacher.locator(".tbt-room-code").wait_for(timeout=60_000)
        assert teacher.locator(".tbt-room-code").inner_text().strip() == code
        _wait_text(teacher, r"Phones connected \(last minute\)\s*3")
        # the teacher opens another page: every phone follows, each in its own language
        teacher.get_by_role("link", name=re.compile("^Temperature")).first.click()
        teacher.wait_for_url(re.compile("/temperature"), timeout=60_000)
        for _, page in phones:
            page.wait_for_url(re.compile(r"/temperature\?.*prompt="), timeout=120_000)
        assert all(("lang=en" in p.url) == (lang == "en") for (_, p), (lang, _) in zip(phones, STUDENTS))
        # back to the class page: a round
        teacher.get_by_role("link", name="Open the class page").click()
        teacher.get_by_role("button", name="Start the round").wait_for(timeout=60_000)
        teacher.get_by_label(re.compile("^The round's prompt")).fill("A capital da França é a cidade de")
        teacher.get_by_role("button", name="Start the round").click()
        _wait_text(teacher, "Round 1")
        for i, ((_, page), (lang, guess)) in enumerate(zip(phones, STUDENTS)):
            page.wait_for_url(re.compile("/live"), timeout=120_000)  # a loaded machine: the phone's page run first
            en = lang == "en"  # each phone in its own language, in the round's timer runs too
            box = page.get_by_label("Your guess" if en else "Seu palpite")
            box.wait_for(timeout=60_000)
            send = "Send guess" if en else "Enviar palpite"
            if i == 2:  # this phone answers from the keyboard alone: Tab to the box, type, Tab to the button, Enter
                page.locator("body").focus()
                _tab_to(page, f"e.getAttribute('aria-label') === {'Your guess' if en else 'Seu palpite'!r}")
                page.keyboard.type(guess)
                _tab_to(page, f"e.tagName === 'BUTTON' && e.innerText.trim() === {send!r}")
                page.keyboard.press("Enter")
            else:
                box.fill(guess)
                page.get_by_role("button", name=send).click()
            _wait_text(page, "counts as this token" if en else "conta como este token")
        _wait_text(teacher, r"Guesses so far: 3\.", timeout=15)
        _no_blocking_violation(teacher, "the projector with a round open")
        _no_blocking_violation(phones[1][1], "a phone (en, 390 px) after its guess")
        assert teacher.locator("b", has_text="Paris").count() == 0  # a guess is text, never HTML
        teacher.get_by_role("button", name="Reveal the model's probabilities").click()
        _wait_text(teacher, r"of 3 guesses counted as the model's most likely token", timeout=60)
        assert "after 1 revealed guessing round(s)" in teacher.inner_text("body")
        shoot(teacher, "live-teacher-reveal-1280")
        for _, page in phones:
            _wait_text(page, "probabilidade|probability of", timeout=30)
        shoot(phones[0][1], "live-student-reveal-390")
        _no_blocking_violation(teacher, "the projector after the reveal")
        _no_blocking_violation(phones[0][1], "a phone (pt-BR, 390 px) after the reveal")
        _vote_round(teacher, phones)
        teacher.get_by_role("button", name="Leave the room").click()  # and after "Leave", a reload leads nothing
        teacher.get_by_role("button", name="Start a class").first.wait_for(timeout=30_000)
        time.sleep(1)  # the cookie's removal is a script in that run
        teacher.reload()
        teacher.get_by_role("button", name="Start a class").first.wait_for(timeout=60_000)
        assert teacher.locator(".tbt-room-code").count() == 0
    finally:
        for ctx, _ in phones:
            ctx.close()
        teacher.close()


def _vote_round(teacher, phones) -> None:
    """A "fact or invention?" vote. One phone (pt-BR) votes from the keyboard alone: Tab into the radio group, Space
    picks the focused option, an arrow key moves to the other, Tab to "Enviar voto", Enter. Another taps."""
    teacher.locator('[data-testid="stRadio"] label', has_text="Fact or invention?").click()
    teacher.get_by_role("button", name="Start the vote").click()
    _wait_text(teacher, r"Votes so far: 0\.", timeout=120)
    page = phones[2][1]
    _wait_text(page, "Este texto diz um fato ou uma invenção?", timeout=60)
    page.locator("body").focus()
    _tab_to(page, "e.type === 'radio'")
    page.keyboard.press("Space")
    page.keyboard.press("ArrowDown")
    picked = page.evaluate("() => document.activeElement.closest('label').innerText.trim()")
    assert picked == "invenção" and page.evaluate("() => document.activeElement.checked")
    _tab_to(page, "e.tagName === 'BUTTON' && e.innerText.trim() === 'Enviar voto'")
    page.keyboard.press("Enter")
    _wait_text(page, r"Seu voto: invenção\.")
    _no_blocking_violation(page, "a phone (pt-BR, 390 px) in a vote")
    other = phones[1][1]  # en
    other.locator('[data-testid="stRadio"] label', has_text="fact").first.click()
    other.get_by_role("button", name="Send vote").click()
    _wait_text(other, r"Your vote: fact\.")
    _wait_text(teacher, r"Votes so far: 2\.", timeout=15)
    teacher.get_by_role("button", name="Reveal the right answer").click()  # a vote's reveal says what it reveals
    _wait_text(teacher, r"of 2 votes were right\.", timeout=60)
    _wait_text(page, r"de 2 votos acertaram\.", timeout=30)
