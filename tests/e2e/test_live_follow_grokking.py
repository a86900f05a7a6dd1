"""Two timers on one phone: a student who follows the teacher trains a grokking run on her phone. The run's panel
reruns every 1.5 s (ui.grokking.compute.REDRAW_S) and the follow timer every 0.5 s (ui.live_class.FOLLOW_S); Streamlit
merges a page switch with a timer's rerun that the browser sent before it saw the switch. Here, with both ticking:
the training keeps moving, a setting the teacher changes reaches the phone while it trains, and the phone follows
the teacher to another page."""
import re
import time

from tests.browser import open_page
from tests.e2e.test_live_class_browser import _student, _wait_text

STEP = re.compile(r"Passo ([\d.]+) de")  # the phone is in Portuguese: "Passo 120 de 10.000 · treino ..."


def _steps(page, n: int = 3, timeout: float = 180) -> list[int]:
    """The step the phone's progress bar says, read until it has moved n times."""
    progress, seen, end = page.locator('[data-testid="stProgress"]'), [], time.time() + timeout
    while time.time() < end and len(set(seen)) < n:
        match = STEP.search(progress.first.inner_text()) if progress.count() else None
        if match:
            seen.append(int(match.group(1).replace(".", "")))
        time.sleep(0.5)
    assert len(set(seen)) >= n and seen == sorted(seen), seen
    return seen


def test_a_phone_that_trains_a_grokking_run_still_follows_the_teacher(browser, server_url):
    teacher = open_page(browser, f"{server_url}/live?lang=en")
    teacher.get_by_role("button", name="Start a class").last.click()
    teacher.locator(".tbt-room-code").wait_for(timeout=60_000)
    code = teacher.locator(".tbt-room-code").inner_text().strip()
    ctx, phone = _student(browser, server_url, code, "pt-BR", by_link=True)
    try:
        # a long run (10,000 steps: minutes), so that it is still training when the teacher moves on
        teacher.goto(f"{server_url}/grokking?lang=en&steps=10000")
        teacher.get_by_role("button", name="Train").wait_for(timeout=120_000)
        phone.wait_for_url(re.compile(r"/grokking\?.*steps=10000"), timeout=120_000)
        phone.get_by_role("button", name="Treinar").click()
        before = _steps(phone)
        # the teacher changes the seed: the training phone takes it into its address and its (disabled) controls
        seed = teacher.get_by_label("Seed", exact=True)
        seed.fill("7")
        seed.press("Enter")
        teacher.wait_for_url(re.compile(r"seed=7"), timeout=60_000)
        phone.wait_for_url(re.compile(r"/grokking\?.*seed=7"), timeout=60_000)
        box, end = phone.get_by_label("Semente", exact=True), time.time() + 60
        while box.input_value() != "7" and time.time() < end:  # the page's run after the switch draws it
            time.sleep(0.5)
        assert box.input_value() == "7", (phone.url, box.input_value())
        after = _steps(phone)  # both timers still run: its run goes on from where it was
        assert after[0] >= before[-1], (before, after)
        assert phone.get_by_role("button", name="Parar", exact=True).is_enabled()
        assert phone.locator('[data-testid="stException"]').count() == 0
        # the teacher leaves the page: the phone follows within seconds, its run's timer notwithstanding
        teacher.get_by_role("link", name=re.compile("^Temperature")).first.click()
        teacher.wait_for_url(re.compile("/temperature"), timeout=60_000)
        phone.wait_for_url(re.compile(r"/temperature\?.*prompt="), timeout=60_000)
        _wait_text(phone, "Temperatura", timeout=60)
        assert phone.locator('[data-testid="stException"]').count() == 0
    finally:
        ctx.close()
        teacher.close()
