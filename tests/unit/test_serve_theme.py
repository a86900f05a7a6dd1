"""ui/serve.py builds the theme's part of a run's first message once (theme_read_once): Streamlit 1.67 starts every
run, each follow timer's fragment run included, with a new_session message that walks all config options for each
of six [theme] sections."""
from __future__ import annotations

import inspect

from streamlit import config
from streamlit.proto.NewSession_pb2 import CustomThemeConfig
from streamlit.runtime import app_session

from ui import serve

# Streamlit's own builder, also when a test before this one ran serve.main() in this process (which wraps it)
POPULATE = getattr(app_session._populate_theme_msg, "tbt_wrapped", app_session._populate_theme_msg)
THEME_SECTIONS = ("theme", "theme.light", "theme.dark", "theme.sidebar", "theme.light.sidebar", "theme.dark.sidebar")




def test_a_theme_section_is_built_once_per_parsed_config(monkeypatch):
    calls = []

    def populate(msg, section="theme"):
        calls.append(section)
        msg.primary_color = f"#{len(calls):06d}"

    wrapped = serve.theme_read_once(populate)
    monkeypatch.setattr(config, "_config_options", {"a": 1})
    first, again = CustomThemeConfig(), CustomThemeConfig()
    wrapped(first)
    wrapped(again)
    assert first == again and first.primary_color == "#000001" and calls == ["theme"]
    wrapped(CustomThemeConfig(), "theme.dark")
    assert calls == ["theme", "theme.dark"]
    monkeypatch.setattr(config, "_config_options", {"a": 2})  # the config parsed again: built again
    third = CustomThemeConfig()
    wrapped(third)
    assert third.primary_color == "#000003"


def test_the_wrapped_builder_gives_streamlits_own_message():
    config.get_config_options()
    wrapped = serve.theme_read_once(POPULATE)
    for section in THEME_SECTIONS:
        mine, theirs = CustomThemeConfig(), CustomThemeConfig()
        wrapped(mine, section)
        wrapped(mine := CustomThemeConfig(), section)  # the kept bytes
        POPULATE(theirs, section)
        assert mine == theirs


def test_the_whole_theme_message_is_streamlits_own():
    # as _create_new_session_message builds it: [theme], then each nested section into its place; an empty section
    # must stay absent (merging b"" would mark it present)
    config.get_config_options()
    places = (("theme", lambda m: m), ("theme.light", lambda m: m.light), ("theme.dark", lambda m: m.dark),
              ("theme.sidebar", lambda m: m.sidebar), ("theme.light.sidebar", lambda m: m.light.sidebar),
              ("theme.dark.sidebar", lambda m: m.dark.sidebar))
    wrapped = serve.theme_read_once(POPULATE)
    for _ in range(2):  # built, then from the kept bytes
        mine, theirs = CustomThemeConfig(), CustomThemeConfig()
        for section, place in places:
            wrapped(place(mine), section)
            POPULATE(place(theirs), section)
        assert mine.SerializeToString() == theirs.SerializeToString()


def test_the_projects_theme_reaches_the_message():
    config.get_config_options()
    msg = CustomThemeConfig()
    serve.theme_read_once(POPULATE)(msg)
    assert msg.primary_color  # .streamlit/config.toml sets [theme] primaryColor


def test_streamlit_still_reads_the_theme_per_new_session_message():
    # what the wrapper is for; when a newer Streamlit stops doing it, this test says the wrapper can go
    assert "config.get_options_for_section(section)" in inspect.getsource(POPULATE)
    assert "_populate_theme_msg(" in inspect.getsource(app_session.AppSession._create_new_session_message)
