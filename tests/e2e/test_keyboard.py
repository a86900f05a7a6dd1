"""Keyboard use reaches the main controls: Tab walks to the prompt, the sampling sliders and the buttons,
and the arrow keys move a slider (the page then redraws with the new value)."""

import pytest

from tests.browser import open_page, settle, shoot
from ui.i18n import table

DESCRIBE = """() => {
  const el = document.activeElement;
  if (!el) return null;
  const box = el.closest('[data-testid="stSlider"], [data-testid="stTextArea"], [data-testid="stButton"],'
                         + '[data-testid="stDownloadButton"], [data-testid="stSidebarNav"], [data-testid="stNumberInput"],'
                         + '.vega-bind');  // a slider bound to a chart (the temperature page's bars)
  const label = box && box.querySelector('[data-testid="stWidgetLabel"], .vega-bind-name');
  return {kind: box ? (box.dataset.testid || 'vegaBind') : el.tagName,
          label: (label ? label.innerText : el.innerText || '').trim(),
          value: el.type === 'range' ? el.value : null};
}"""


def _tab_until(page, wanted, limit: int = 120) -> list[dict]:
    seen = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        info = page.evaluate(DESCRIBE)
        seen.append(info)
        if info and wanted(info):
            return seen
    raise AssertionError(f"Tab never reached the control; focus went through {seen}")


def test_tab_reaches_the_prompt_the_sliders_and_the_buttons(browser, server_url):
    page = open_page(browser, f"{server_url}/temperature?lang=en", width=1280, locale="en-US", wait=300)
    try:
        walk = _tab_until(page, lambda i: i["kind"] == "vegaBind" and i["label"].startswith("Temperature")
                          and i["value"] is not None)  # the thumb itself (its help icon comes first)
        kinds = {w["kind"] for w in walk if w}
        assert {"stSidebarNav", "stTextArea"} <= kinds, kinds  # the page list and the prompt come first
        before = float(page.evaluate(DESCRIBE)["value"])
        page.keyboard.press("ArrowRight")
        settle(page, 60)
        after = float(page.get_by_role("slider", name="Temperature T (0 = greedy)").input_value())
        assert abs(after - before - 0.05) < 1e-6, (before, after)
        shoot(page, "temperature-keyboard-1280-en", whole=False)
        _tab_until(page, lambda i: i["kind"] in ("stButton", "stDownloadButton"))  # buttons are reachable too
        assert page.locator('[data-testid="stException"]').count() == 0
    finally:
        page.close()


FOCUSED = """() => { const el = document.activeElement;
  return el ? {tag: el.tagName, text: (el.innerText || el.getAttribute('aria-label') || '').trim(),
               role: el.getAttribute('role'), outline: getComputedStyle(el).outlineStyle,
               shadow: getComputedStyle(el).boxShadow} : null; }"""


def _tab_to(page, wanted, limit: int = 150) -> dict:
    seen = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        info = page.evaluate(FOCUSED)
        seen.append(info and (info["tag"], info["text"][:30]))
        if info and wanted(info):
            return info
    raise AssertionError(f"Tab never reached the control; focus went through {seen}")


def _visible_focus(info: dict) -> bool:
    return info["outline"] not in ("none", "") or info["shadow"] not in ("none", "")


def test_keyboard_only_next_token_and_the_end_is_announced(browser, server_url):
    """Loop page: Tab to "Next token", Enter takes one step (the focus stays on the button, visibly); "Generate
    to the end" by keyboard ends with the live region saying so."""
    page = open_page(browser, f"{server_url}/loop?lang=en", width=1280, locale="en-US", wait=300)
    try:
        info = _tab_to(page, lambda i: i["tag"] == "BUTTON" and "Next token" in i["text"])
        assert _visible_focus(info), info
        page.keyboard.press("Enter")
        settle(page, 120)
        page.get_by_text("new tokens: 1", exact=False).first.wait_for(timeout=120_000)
        assert "Next token" in page.evaluate(FOCUSED)["text"]  # the rerun did not move the focus away
        _tab_to(page, lambda i: i["tag"] == "BUTTON" and "Generate to the end" in i["text"])
        page.keyboard.press("Enter")
        page.wait_for_function("() => (document.getElementById('tbt-live') || {}).textContent"
                               "?.startsWith('Generation finished')", timeout=300_000)
        live = page.locator("#tbt-live")
        assert live.get_attribute("aria-live") == "polite" and live.get_attribute("role") == "status"
        focused = page.evaluate(FOCUSED)  # the live updates while it generated did not take the focus away (2.2.2)
        assert focused and "Generate to the end" in focused["text"], focused
        assert page.locator('[data-testid="stException"]').count() == 0
    finally:
        page.close()


def test_keyboard_picks_a_query_token_as_the_heatmap_click_does(browser, server_url):
    """Attention page: the heatmap's row click has a keyboard twin, the "Token (query)" box; picking another token
    by keyboard changes what the bars chart's text alternative reads."""
    page = open_page(browser, f"{server_url}/attention?lang=en", width=1280, locale="en-US", wait=300)
    try:
        box = page.get_by_role("combobox", name="Token (query)")
        box.wait_for(timeout=120_000)
        before = page.locator(".tbt-sr-only").all_inner_texts()
        _tab_to(page, lambda i: i["tag"] == "INPUT" and page.evaluate(
            "(document.activeElement.closest('[data-testid=stSelectbox]') || {}).innerText?.includes('Token (query)')"))
        page.keyboard.press("ArrowDown")  # opens the list
        page.keyboard.press("ArrowUp")
        page.keyboard.press("Enter")
        settle(page, 120)
        after = page.locator(".tbt-sr-only").all_inner_texts()
        assert before and after and before != after, (before, after)
    finally:
        page.close()


def test_typing_keeps_every_key(browser, server_url):
    """Streamlit's page-wide 'r' (rerun) and 'c' keys never take a key typed in the prompt."""
    page = open_page(browser, f"{server_url}/?lang=en", width=1280, locale="en-US", wait=300)
    try:
        area = page.get_by_role("textbox").first
        area.focus()
        page.keyboard.press("End")
        page.keyboard.type(" rc RC")
        assert area.input_value().endswith(" rc RC")
    finally:
        page.close()


# ---- each page's main control, used with the keyboard alone (WCAG 2.1.1) -------------------------------------------
# The walk in tests/e2e/test_accessibility.py shows that Tab reaches every control; here the control is given the focus
# (as that walk would) and then used with keys only: Enter or Space on a button, the arrows on a slider, the arrows
# and Enter in a select box, Ctrl+Enter in a text area. Each page must then show something else than before.

PT = lambda key: table()[key][0]  # noqa: E731 - the pt-BR string of a key (the pages are seen in Portuguese here)


def _main_text(page) -> str:
    return page.locator('[data-testid="stMain"]').inner_text()


def _slider(page, label: str, nth: int = 0):
    box = page.locator('[data-testid="stSlider"]').filter(has=page.get_by_text(label, exact=True)).nth(nth)
    return box.get_by_role("slider")


def _select(page, label: str):
    return page.locator('[data-testid="stSelectbox"]').filter(has=page.get_by_text(label, exact=True)).get_by_role(
        "combobox")


def _press(page, target, *keys: str, wait: float = 180) -> None:
    target.focus()
    for key in keys:
        page.keyboard.press(key)
    settle(page, wait)


def _use_home(page):
    area = page.get_by_role("textbox", name=PT("common.prompt"))
    area.focus()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("O gato subiu no")
    page.keyboard.press("ControlOrMeta+Enter")  # a text area sends its text on Ctrl+Enter
    settle(page, 180)
    return area.input_value() == "O gato subiu no"


def _use_tokenizer(page):
    before = page.get_by_role("textbox", name=PT("tokenizer.box")).input_value()
    _press(page, page.get_by_role("button", name=PT("tokenizer.preset.code"), exact=True), "Enter")
    return page.get_by_role("textbox", name=PT("tokenizer.box")).input_value() != before


def _use_pipeline(page):
    thumb = _slider(page, PT("pipeline.mlp.layer"), nth=1)  # the MLP section's layer (the attention one comes first)
    before = int(thumb.input_value())  # a range input
    _press(page, thumb, "ArrowRight")
    return int(_slider(page, PT("pipeline.mlp.layer"), nth=1).input_value()) == before + 1


def _use_decoding(page):
    _press(page, _slider(page, PT("decoding.ctl.tokens")), "Home")  # the fewest new tokens: a shorter run
    tables = page.locator('[data-testid="stDataFrame"]').count()
    _press(page, page.get_by_role("button", name=PT("decoding.run")), "Enter", wait=300)
    return page.locator('[data-testid="stDataFrame"]').count() > tables  # the five strategies' table


def _use_why(page):
    charts = page.locator('[data-testid="stVegaLiteChart"]').count()
    _press(page, page.get_by_role("button", name=PT("why.go")), "Enter", wait=300)
    return page.locator('[data-testid="stVegaLiteChart"]').count() > charts


def _use_hallucination(page):
    _press(page, page.get_by_role("radio", name=PT("hallucination.mode.sampled"), exact=True), "Space", wait=300)
    return _slider(page, PT("hallucination.temperature")).count() == 1  # sampling's own controls came


def _use_nondeterminism(page):
    thumb = _slider(page, PT("nondeterminism.sum.n"))
    before = thumb.get_attribute("aria-valuetext")
    _press(page, thumb, "ArrowRight")
    return _slider(page, PT("nondeterminism.sum.n")).get_attribute("aria-valuetext") != before


def _use_grokking(page):
    thumb = _slider(page, PT("grokking.step.label"))
    before = thumb.get_attribute("aria-valuetext")
    _press(page, thumb, "Home")  # the first checkpoint (a link or a visit starts at the last)
    return _slider(page, PT("grokking.step.label")).get_attribute("aria-valuetext") != before


USES = {"home": _use_home, "tokenizer": _use_tokenizer, "pipeline": _use_pipeline, "decoding": _use_decoding,
        "why": _use_why, "hallucination": _use_hallucination, "nondeterminism": _use_nondeterminism,
        "grokking": _use_grokking}  # the loop, attention and temperature pages: the tests above


@pytest.mark.parametrize("name", list(USES))
def test_the_main_control_works_from_the_keyboard(browser, server_url, name):
    page = open_page(browser, f"{server_url}/{'' if name == 'home' else name}?lang=pt-BR", width=1280,
                     locale="pt-BR", wait=300)
    try:
        before = _main_text(page)
        assert USES[name](page), f"{name}: the control did not take the key"
        assert page.locator('[data-testid="stException"]').count() == 0
        assert _main_text(page) != before, f"{name}: the page shows the same after the key"
    finally:
        page.close()
