"""A phone follows the teacher's slider without a page run (ui.live_class.follow_in_fragment): on the temperature
page, when the teacher moves T, a following phone reruns the page's live fragment alone with her value. Its slider,
its numbers and its address show her T, and the phone's websocket carries no new page run (a full run starts with
a navigation message; a fragment's run does not). Thirty page runs at once is what made a class's follow slow
(bench class_bench: the follow figures)."""
import re
import time

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from tests.browser import open_page, settle
from tests.e2e.test_live_class_browser import _wait_text


def _join_recording(browser, server_url: str, code: str, runs: list[float]):
    """A pt-BR phone that joins by the QR code's link; `runs` gets the time of each full run its websocket shows."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="pt-BR")
    page = ctx.new_page()

    def on_frame(payload) -> None:
        if isinstance(payload, (bytes, bytearray)):
            msg = ForwardMsg.FromString(bytes(payload))
            if msg.WhichOneof("type") == "navigation" and msg.navigation.page_script_hash:
                runs.append(time.time())

    page.on("websocket", lambda ws: ws.on("framereceived", on_frame))
    page.goto(f"{server_url}/live?join={code.replace('-', '')}&lang=pt-BR")
    page.get_by_label(re.compile("Código da sala")).wait_for(timeout=120_000)
    page.get_by_role("button", name="Entrar").click()
    _wait_text(page, "sala " + code)
    return ctx, page


def _class_of_one(browser, server_url: str):
    """A teacher (en, 1280) who started a class, and one phone in it: (teacher, phone's context, phone, its runs)."""
    teacher = open_page(browser, f"{server_url}/live?lang=en")
    teacher.get_by_role("button", name="Start a class").last.click()
    teacher.locator(".tbt-room-code").wait_for(timeout=60_000)
    code = teacher.locator(".tbt-room-code").inner_text().strip()
    runs: list[float] = []
    ctx, phone = _join_recording(browser, server_url, code, runs)
    return teacher, ctx, phone, runs


def _value(page, name: str) -> str:
    """The visible sliders' values, joined: while a run replaces the chart (a new key), the browser keeps the old
    one until a run of the fragment finishes (Streamlit's retained elements), and the page hides it; a second visible
    slider makes a value no single one equals."""
    return ",".join(s.input_value() for s in page.get_by_role("slider", name=name).all())


def test_a_phone_takes_the_teachers_temperature_in_the_fragment_alone(browser, server_url):
    teacher, ctx, phone, runs = _class_of_one(browser, server_url)
    try:
        teacher.goto(f"{server_url}/temperature?lang=en")
        settle(teacher, wait=600)
        phone.wait_for_url(re.compile(r"/temperature\?.*t=0\.7"), timeout=120_000)
        settle(phone, wait=300)
        slider = "Temperatura T (0 = guloso)"
        assert _value(phone, slider) == "0.7"
        own = phone.get_by_role("slider", name=slider).first  # the student tries a slider of her own first: the chart
        own.focus()  # keeps that selection, which must not come back over the teacher's next value
        own.press("ArrowLeft")
        phone.wait_for_url(re.compile(r"t=0\.65"), timeout=60_000)
        settle(phone, wait=120)
        entropy = phone.locator('[data-testid="stMetricValue"]').nth(1)
        before, page_runs = entropy.inner_text(), len(runs)
        assert page_runs >= 2, runs  # the class page, then the temperature page: the recording works

        moved = teacher.get_by_role("slider", name="Temperature T (0 = greedy)")
        moved.focus()
        for _ in range(4):
            moved.press("ArrowRight")  # 0.70 -> 0.90 in her browser; her fragment's run tells the room
        teacher.wait_for_url(re.compile(r"t=0\.9"), timeout=60_000)
        phone.wait_for_url(re.compile(r"/temperature\?.*t=0\.9"), timeout=60_000)  # the phone's fragment wrote it
        end = time.time() + 30
        while (_value(phone, slider) != "0.9" or entropy.inner_text() == before) and time.time() < end:
            time.sleep(0.3)
        assert _value(phone, slider) == "0.9", phone.url  # the bars' slider, rebuilt at her value
        assert entropy.inner_text() != before  # the numbers at her T
        time.sleep(2.5)  # two more follow timer runs: nothing more to take
        assert len(runs) == page_runs, f"the phone ran its page {len(runs) - page_runs} time(s) to follow a slider"
        assert phone.locator('[data-testid="stException"]').count() == 0

        # a value outside the fragment (the prompt) still takes a page run
        teacher.goto(f"{server_url}/temperature?lang=en&t=0.9&prompt=Era+uma+vez")
        settle(teacher, wait=300)
        phone.wait_for_url(re.compile(r"/temperature\?.*prompt=Era\+uma\+vez"), timeout=60_000)
        end = time.time() + 30
        while len(runs) == page_runs and time.time() < end:
            time.sleep(0.3)
        assert len(runs) > page_runs
    finally:
        ctx.close()
        teacher.close()


def test_a_phone_takes_the_teachers_next_step_in_the_runs_fragment_alone(browser, server_url):
    """On the loop page the teacher's "Next token" reaches the phone as one step in its run's fragment (the same
    seed: the same token), once both show a step; her first step, which changes the panel below the run too,
    takes a page run."""
    teacher, ctx, phone, runs = _class_of_one(browser, server_url)
    try:
        teacher.goto(f"{server_url}/loop?lang=en")
        settle(teacher, wait=600)
        next_token = teacher.get_by_role("button", name="Next token")
        next_token.click()
        teacher.wait_for_url(re.compile(r"steps=1"), timeout=60_000)
        phone.wait_for_url(re.compile(r"/loop\?.*steps=1"), timeout=120_000)
        _wait_text(phone, "Passo 1 ", timeout=60)
        settle(phone, wait=120)
        page_runs = len(runs)
        next_token.click()
        teacher.wait_for_url(re.compile(r"steps=2"), timeout=60_000)
        _wait_text(teacher, "Step 2 ", timeout=60)
        phone.wait_for_url(re.compile(r"/loop\?.*steps=2"), timeout=60_000)
        _wait_text(phone, "Passo 2 ", timeout=60)
        tokens = re.compile(r"(?:new tokens|tokens novos): 2\):\s*(.+)")
        tokens3 = re.compile(r"(?:new tokens|tokens novos): 3\):\s*(.+)")
        hers, mine = tokens.search(teacher.inner_text("body")), tokens.search(phone.inner_text("body"))
        assert hers and mine and hers.group(1).strip() == mine.group(1).strip(), (hers, mine)  # the same text
        time.sleep(2)
        assert len(runs) == page_runs, f"the phone ran its page {len(runs) - page_runs} time(s) to follow a step"
        assert phone.locator('[data-testid="stException"]').count() == 0

        # the student's own steps: the phone keeps them, and its address says so, until the teacher's next step,
        # which it then shows (going back to her step 3 computes nothing: the run is shared)
        own = phone.get_by_role("button", name="Próximo token")
        own.click()
        _wait_text(phone, r"tokens novos: 3\)", timeout=60)
        own.click()
        _wait_text(phone, r"tokens novos: 4\)", timeout=60)
        phone.wait_for_url(re.compile(r"/loop\?.*steps=4"), timeout=60_000)
        time.sleep(2.5)  # two follow timer runs
        assert "steps=4" in phone.url and "tokens novos: 4)" in phone.inner_text("body"), phone.url
        next_token.click()  # her third step
        teacher.wait_for_url(re.compile(r"steps=3"), timeout=60_000)
        phone.wait_for_url(re.compile(r"/loop\?.*steps=3"), timeout=60_000)
        body = _wait_text(phone, r"tokens novos: 3\)", timeout=60)
        hers, mine = tokens3.search(teacher.inner_text("body")), tokens3.search(body)
        assert hers and mine and hers.group(1).strip() == mine.group(1).strip(), (hers, mine)
        assert phone.locator('[data-testid="stException"]').count() == 0
    finally:
        ctx.close()
        teacher.close()
