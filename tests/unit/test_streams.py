"""`make test` runs two streams at once (tests/conftest.py): each test's stream comes from its node id alone."""
import re
import subprocess
import sys

from tests.conftest import ROOT, stream_of


def test_each_tier_goes_to_its_stream():
    assert stream_of("tests/unit/test_a.py::test_b") == "model"
    assert stream_of("tests/integration/test_a.py::C::test_b[x]") == "model"
    assert stream_of("tests/app/test_a.py::test_b") == "model"
    assert stream_of("tests/e2e/test_a.py::test_b") == "browser"
    assert stream_of("tests/deploy/test_a.py::test_b") == "browser"


def test_adversarial_files_go_by_their_name_even_with_slashes_in_a_parameter():
    assert stream_of("tests/adversarial/test_browser_hostile.py::test_b[a/b::c]") == "browser"
    assert stream_of("tests/adversarial/test_markdown_probes.py::test_b[browser/x]") == "model"


def test_make_tests_two_streams_run_each_on_one_worker_of_its_own():
    """`-n 2 --dist loadgroup` (make test) as xdist runs it: a model file's tests all on one worker, a browser file's
    (deploy: offline manifest checks) all on the other. xdist's own loadgroup put tests of both on both workers."""
    files = {"model": "tests/unit/test_streams.py", "browser": "tests/deploy/test_kubernetes.py"}
    out = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-v", "-p", "no:cacheprovider",
                          f"{files['model']}::test_each_tier_goes_to_its_stream",
                          f"{files['model']}::test_adversarial_files_go_by_their_name_even_with_slashes_in_a_parameter",
                          files["browser"]], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    ran = re.findall(r"\[(gw\d)\] .*?PASSED (tests/\S+?)::", out.stdout)
    workers = {stream: {w for w, f in ran if f == path} for stream, path in files.items()}
    assert len(ran) > 5 and all(len(w) == 1 for w in workers.values()), workers
    assert workers["model"] != workers["browser"], workers
