"""Start the Streamlit server for app.py: `python -m ui.serve [streamlit options]`.

`make run`, the Dockerfile and the tests start the app through this module rather than bare
`streamlit run app.py`, for one reason: Streamlit still auto-discovers a `pages/` folder (its older
multipage mode) until app.py has called st.navigation once in the process. On a fresh server, a
visitor arriving by a deep link such as /temperature would get that page run alone, without
app.py's sidebar, language or theme. Turning the old mode off before the server starts fixes it.

It also stops the one poller that `fileWatcherType = "none"` does not stop: Streamlit's bootstrap
watches every config.toml path (~/.streamlit and ./.streamlit) with a PollingPathWatcher, forced to
"poll", re-reading and hashing each path every 0.2 s so that a changed config reloads. A server
reads its config once.

And it imports model_backend before Streamlit, so that the process-wide thread policy (model_backend's
THREAD_POLICY) is in the environment before numpy and torch load their thread pools.
"""
from __future__ import annotations

import sys
from pathlib import Path

import model_backend  # noqa: F401  first: its thread policy is set before Streamlit loads numpy

# isort: split
from streamlit.runtime.pages_manager import PagesManager
from streamlit.web import bootstrap, cli

APP = Path(__file__).resolve().parent.parent / "app.py"


def main(argv: list[str] | None = None) -> None:
    PagesManager.uses_pages_directory = False  # app.py's st.navigation is the only page registry
    if hasattr(bootstrap, "_install_config_watchers"):  # Streamlit 1.67's name; without it, nothing polls
        bootstrap._install_config_watchers = lambda flag_options: None
    sys.argv = ["streamlit", "run", str(APP), *(sys.argv[1:] if argv is None else argv)]
    cli.main()


if __name__ == "__main__":
    main()
