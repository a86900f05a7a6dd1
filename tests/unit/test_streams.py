"""`make test` runs two streams at once (tests/conftest.py): each test's stream comes from its node id alone."""
from tests.conftest import stream_of


def test_each_tier_goes_to_its_stream():
    assert stream_of("tests/unit/test_a.py::test_b") == "model"
    assert stream_of("tests/integration/test_a.py::C::test_b[x]") == "model"
    assert stream_of("tests/app/test_a.py::test_b") == "model"
    assert stream_of("tests/e2e/test_a.py::test_b") == "browser"
    assert stream_of("tests/deploy/test_a.py::test_b") == "browser"


def test_adversarial_files_go_by_their_name_even_with_slashes_in_a_parameter():
    assert stream_of("tests/adversarial/test_browser_hostile.py::test_b[a/b::c]") == "browser"
    assert stream_of("tests/adversarial/test_markdown_probes.py::test_b[browser/x]") == "model"
