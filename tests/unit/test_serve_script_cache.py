"""ui/serve.py keeps the compiled scripts while no file is watched: Streamlit 1.67 clears its ScriptCache whenever the
last session leaves, and the next visitor of an empty server paid for parsing and compiling app.py and the page."""
from __future__ import annotations

import inspect

from streamlit.runtime import websocket_session_manager
from streamlit.runtime.scriptrunner.script_cache import ScriptCache

from ui import serve


def test_compiled_scripts_stay_cached_while_no_file_is_watched(monkeypatch, tmp_path):
    from streamlit import config

    script = tmp_path / "page.py"
    script.write_text("x = 1\n")
    cache = ScriptCache()
    clear = serve.kept_while_unwatched(ScriptCache.clear)
    first = cache.get_bytecode(str(script))
    monkeypatch.setattr(config, "get_option", lambda name: "none" if name == "server.fileWatcherType" else None)
    clear(cache)  # the last session left an unwatched server
    assert cache.get_bytecode(str(script)) is first
    monkeypatch.setattr(config, "get_option", lambda name: "poll" if name == "server.fileWatcherType" else None)
    clear(cache)  # watched: a file may have changed
    assert cache.get_bytecode(str(script)) is not first


def test_streamlit_still_clears_the_cache_when_the_last_session_leaves():
    # what the wrapper is for; when a newer Streamlit stops doing it, this test says the wrapper can go
    source = inspect.getsource(websocket_session_manager)
    assert "if not self._active_session_info_by_id:" in source and "self._script_cache.clear()" in source


def test_the_projects_server_watches_no_file():
    import tomllib
    from pathlib import Path

    config = tomllib.loads((Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml").read_text())
    assert config["server"]["fileWatcherType"] == "none"
