"""docs/performance.md's current figures are what bench/results.json gives (scripts/perf_docs.py, regenerated here)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "perf_docs.py"


def _check(results: Path, doc: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--check", "--results", str(results), "--doc", str(doc)],
        capture_output=True, text=True, timeout=60,
    )


def test_performance_doc_is_up_to_date_with_results_json():
    done = _check(ROOT / "bench" / "results.json", ROOT / "docs" / "performance.md")
    assert done.returncode == 0, done.stderr + "\nrun: python scripts/perf_docs.py"


def test_a_changed_figure_makes_the_doc_stale(tmp_path):
    """The check can fail: one median changed in a copy of results.json is caught, and a rewrite shows it."""
    res = json.loads((ROOT / "bench" / "results.json").read_text())
    res["figures"]["ms_per_token_bf16"]["median"] = 12345.6
    changed = tmp_path / "results.json"
    changed.write_text(json.dumps(res))
    doc = tmp_path / "performance.md"
    doc.write_text((ROOT / "docs" / "performance.md").read_text())
    assert _check(changed, doc).returncode == 1
    subprocess.run([sys.executable, str(SCRIPT), "--results", str(changed), "--doc", str(doc)], check=True, timeout=60)
    assert "12,346 ms" in doc.read_text() and _check(changed, doc).returncode == 0


def _pipeline_row(tmp_path, **move) -> str:
    """The docs table's row for the class's move to the pipeline page, with `move` put into a copy of the record."""
    res = json.loads((ROOT / "bench" / "results.json").read_text())
    res["live_class"]["one_replica"]["page_switches"]["pipeline"].update(move)
    changed = tmp_path / "results.json"
    changed.write_text(json.dumps(res))
    doc = tmp_path / "performance.md"
    doc.write_text((ROOT / "docs" / "performance.md").read_text())
    subprocess.run([sys.executable, str(SCRIPT), "--results", str(changed), "--doc", str(doc)], check=True, timeout=60)
    return next(line for line in doc.read_text().splitlines() if line.startswith("| the class opens pipeline:"))


def test_a_move_no_phone_made_reads_as_missed(tmp_path):
    """A page the bench's phones never reached has no p95: the table says how many missed it, not "None"."""
    row = _pipeline_row(tmp_path, p95_s=None, p50_s=None, titled_p95_s=None, missed=30, server_cpu_s=9.87)
    assert "| – (CPU 9.87, 30 of the phones missed it) |" in row and "None" not in row


def test_a_move_says_when_the_phones_showed_the_title(tmp_path):
    row = _pipeline_row(tmp_path, p95_s=2.34, p50_s=1.2, titled_p95_s=0.61, missed=0, server_cpu_s=2.19)
    assert "| 2.34 (p50 1.2; title 0.61; CPU 2.19) |" in row
