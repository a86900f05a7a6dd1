"""Links into the decoding page from the "greedy falls into a loop" places: the loop page, when a greedy run ends
in a cycle, links the decoding page with its prompt (a sampled run does not), and the decoding page takes a
linked prompt even when this session typed another one there before."""
from urllib.parse import parse_qs

from tests.app.link_helpers import open_link, query_value

LOOPING = "ha ha ha"  # greedy goes on " ha ha ha ..." on this model: a cycle of one token from the first step


def _decoding_links(at) -> list[dict]:
    """The query of every page link to the decoding page (what a click puts in the URL)."""
    return [parse_qs(el.proto.query_string) for el in at.get("page_link") if el.proto.page.endswith("decoding")]


def _generate(at):
    next(b for b in at.button if b.label == "Generate to the end").click().run()
    assert not at.exception, at.exception


def test_a_greedy_loop_on_the_loop_page_links_the_decoding_page_with_its_prompt():
    at = open_link("loop", {"prompt": LOOPING, "temperature": "0", "max_new": "8", "lang": "en"})
    assert not at.exception, at.exception
    assert not _decoding_links(at)  # nothing ran yet: no loop to speak of
    _generate(at)
    run = next(reversed(at.session_state["loop_runs"].values()))
    assert run.done and run.params.greedy
    assert any("Greedy fell into a loop" in i.value for i in at.info)
    assert _decoding_links(at) == [{"via": ["loop"], "prompt": [LOOPING]}]


def test_a_sampled_run_gets_no_greedy_loop_link():
    at = open_link("loop", {"prompt": LOOPING, "temperature": "1", "max_new": "4", "seed": "1", "lang": "en"})
    _generate(at)
    assert not any("Greedy fell into a loop" in i.value for i in at.info)
    assert not _decoding_links(at)


def test_the_decoding_page_takes_a_linked_prompt_over_one_typed_before():
    at = open_link("decoding", {"prompt": "Era uma vez um robô que", "lang": "en"})
    assert at.text_area(key="prompt_decoding").value == "Era uma vez um robô que"
    at.switch_page("pages/loop.py").run()  # the visitor walks on, then follows a link back
    at.query_params.clear()
    at.query_params["prompt"], at.query_params["via"] = LOOPING, "loop"
    at.switch_page("pages/decoding.py").run()
    assert not at.exception, at.exception
    assert at.text_area(key="prompt_decoding").value == LOOPING
    assert query_value(at, "prompt") == LOOPING and query_value(at, "via") is None  # published back, mark dropped
    assert at.session_state["decoding_width"] == 4  # settings the link did not carry keep their values
