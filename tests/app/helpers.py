"""Run the real app.py with Streamlit's AppTest (real model, real widgets, no browser)."""
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")


def run_page(page: str | None = None, lang: str = "pt-BR", timeout: float = 300, **state) -> AppTest:
    """Run app.py (optionally switched to pages/<page>.py) in a language; extra kwargs go to session_state."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.session_state["lang"] = lang
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    if page:
        at.switch_page(f"pages/{page}.py")
        at.run()
    return at


def texts(at: AppTest) -> str:
    """Everything the page wrote, as one string, for simple assertions."""
    parts = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "code", "info", "warning", "error",
                 "success", "text", "metric"):
        for el in getattr(at, kind):
            parts.append(str(getattr(el, "value", "")) + " " + str(getattr(el, "label", "")))
    return "\n".join(parts)
