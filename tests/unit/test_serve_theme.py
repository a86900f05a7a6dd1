"""ui/serve.py reads the theme's config once (theme_read_once): Streamlit 1.67 starts every run, each follow timer's
fragment run included, with a new_session message that walks all config options for each of six [theme] sections."""
from __future__ import annotations

import inspect

from streamlit import config
from streamlit.runtime import app_session

from ui import serve

THEME_SECTIONS = ("theme", "theme.light", "theme.dark", "theme.sidebar", "theme.light.sidebar", "theme.dark.sidebar")


def test_a_theme_section_is_read_once_per_parsed_config(monkeypatch):
    calls = []

    def get(section):
        calls.append(section)
        return {"primaryColor": f"#{len(calls):06d}"}

    wrapped = serve.theme_read_once(get)
    monkeypatch.setattr(config, "_config_options", {"a": 1})
    first = wrapped("theme")
    assert wrapped("theme") == first and calls == ["theme"]
    first["primaryColor"] = "changed by a caller"
    assert wrapped("theme") == {"primaryColor": "#000001"}  # each caller gets its own copy
    wrapped("theme.dark")
    assert calls == ["theme", "theme.dark"]
    monkeypatch.setattr(config, "_config_options", {"a": 2})  # the config parsed again: read again
    assert wrapped("theme") == {"primaryColor": "#000003"}
    wrapped("client")
    wrapped("client")  # st.set_option can change these while the server runs: read each time
    assert calls[-2:] == ["client", "client"]


def test_the_wrapped_reader_gives_streamlits_own_values():
    config.get_config_options()
    wrapped = serve.theme_read_once(config.get_options_for_section)
    for section in THEME_SECTIONS:
        assert wrapped(section) == config.get_options_for_section(section)
        assert wrapped(section) == config.get_options_for_section(section)


def test_streamlit_still_reads_the_theme_per_new_session_message():
    # what the wrapper is for; when a newer Streamlit stops doing it, this test says the wrapper can go
    assert "config.get_options_for_section(section)" in inspect.getsource(app_session._populate_theme_msg)
    assert "_populate_theme_msg(" in inspect.getsource(app_session.AppSession._create_new_session_message)
