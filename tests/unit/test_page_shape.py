"""One shape for every page (issue 34, point 3): a page file is layout only, at most 100 lines; what it draws
lives in its view (docs/architecture.md, "The new house")."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_PAGE_LINES = 100  # counted as `wc -l` counts them


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n")


def test_every_page_file_is_at_most_100_lines():
    # app.py is the entry point (navigation and the shared sidebar), not a page: st.navigation lists pages/ only.
    pages = sorted(ROOT.joinpath("pages").glob("*.py"))
    assert len(pages) >= 10, f"expected the app's page files under pages/, found {[p.name for p in pages]}"
    offenders = {f"pages/{p.name}": n for p in pages if (n := _lines(p)) > MAX_PAGE_LINES}
    assert not offenders, (f"page files over {MAX_PAGE_LINES} lines (move their drawing into ui/<page>_view.py): "
                           + ", ".join(f"{name} ({n})" for name, n in sorted(offenders.items())))
