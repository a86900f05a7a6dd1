"""Keyboard use reaches the main controls: Tab walks to the prompt, the sampling sliders and the buttons,
and the arrow keys move a slider (the page then redraws with the new value)."""

from tests.browser import open_page, settle, shoot

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
