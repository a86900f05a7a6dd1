"""The protocol load client (support/protoload.py) against the real app: one visit gets the page's content."""
from __future__ import annotations

import pytest

from support.protoload import PAGES, find_button, marker, press_together, query_for, run_load, visit
from tests.conftest import run_async, start_server, stop_server


@pytest.fixture(scope="module")
def app_url():
    proc, url, log = start_server("protoload-server.log")
    yield url
    stop_server(proc, log)


def _elements(result) -> list:
    """Every new element the page drew, as protobufs."""
    return [m.delta.new_element for m in result.received
            if m.WhichOneof("type") == "delta" and m.delta.WhichOneof("type") == "new_element"]


def test_one_visit_gets_the_home_page(app_url):
    mine, other = marker(1), marker(2)
    r = run_async(visit(app_url, "home", query_for("home", mine, "en"), marker=mine, others=[other],
                          keep=True, timeout=240))
    assert r.status == "ok", r.error
    assert r.ok and not r.exceptions
    assert r.ready_s is not None and r.ready_s > 0
    assert r.runs >= 1 and r.payload_bytes > 1000 and r.wire_bytes > 0
    elements = _elements(r)
    kinds = {e.WhichOneof("type") for e in elements}
    assert "arrow_vega_lite_chart" in kinds or "vega_lite_chart" in kinds  # the next-token chart
    headings = " ".join(e.heading.body for e in elements if e.WhichOneof("type") == "heading")
    texts = " ".join(e.markdown.body for e in elements if e.WhichOneof("type") == "markdown") + headings
    assert "Token by Token" in texts and "Try it: what is the next token?" in texts  # English, as the link asked
    boxes = [e.text_area for e in elements if e.WhichOneof("type") == "text_area"]
    assert any(b.default == mine or b.value == mine for b in boxes)  # the visitor's prompt is in its box
    assert r.marker_seen is True and r.foreign_markers == []


def test_an_unknown_page_is_reported(app_url):
    r = run_async(visit(app_url, "no-such-page", "lang=en", timeout=120))
    assert r.status == "page_not_found"


def test_two_visitors_each_see_only_their_own_prompt(app_url):
    report = run_async(run_load(app_url, 2, ["home"], lang="en", timeout=240))
    assert report["errors"] == [] and report["leaks"] == [] and report["own_marker_missing"] == []
    assert report["ready_p95_s"] is not None


def test_only_loopback_servers():
    with pytest.raises(ValueError):
        run_async(visit("http://example.com", "home"))
    assert PAGES[0] == "home" and query_for("grokking", "x") == "lang=pt-BR"


def test_two_visitors_press_next_token_at_once(app_url):
    """The press client: each visitor opens the loop page with its own prompt, both press "Next token" at the same
    moment, and each press ends with the script finished and the step drawn on that visitor's page."""
    prompts = [marker(11), marker(12)]
    report = run_async(press_together(app_url, 2, "loop", "Next token", prompts=prompts, keep=True, timeout=300))
    assert report["errors"] == [] and len(report["results"]) == 2
    for r, mine, other in zip(report["results"], prompts, reversed(prompts), strict=True):
        assert r.status == "ok", r.error
        assert r.load_s > 0 and r.press_s > 0 and r.runs >= 1
        elements = _elements(r)
        headings = [e.heading.body for e in elements if e.WhichOneof("type") == "heading"]
        assert "Each turn of the loop" in headings  # the steps table exists only once a step ran
        raw = b"".join(m.SerializeToString() for m in r.received)
        assert mine.encode() in raw and other.encode() not in raw  # its own prompt's step, nobody else's
    assert report["press_p95_s"] is not None


def test_find_button_by_key_or_label():
    from support.protoload import Button

    buttons = {"$$ID-abc-why_go": Button("$$ID-abc-why_go", "Complete and explain"),
               "$$ID-def-None": Button("$$ID-def-None", "Next token", "frag1", disabled=True)}
    assert find_button(buttons, "why_go").label == "Complete and explain"
    assert find_button(buttons, "Next token").fragment_id == "frag1"
    assert find_button(buttons, "nope") is None
