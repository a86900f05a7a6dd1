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


def _imports(path: Path) -> set[str]:
    import ast

    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            found |= {node.module or ""} | {f"{node.module}.{a.name}" for a in node.names}
    return found


def test_a_page_in_the_new_shape_computes_in_compute_and_draws_in_draw():
    """ui/<page>/compute.py draws nothing (no Streamlit, no Altair); ui/<page>/draw.py never reaches the model (no
    ui.backend, no model or tokenizer, none of compute's cached functions): the page hands one's results to the
    other (docs/architecture.md, "The new house")."""
    packages = sorted(p.parent for p in ROOT.joinpath("ui").glob("*/draw.py"))
    assert packages, "no page in the new shape yet (ui/<page>/compute.py and draw.py)"
    for package in packages:
        compute, draw = _imports(package / "compute.py"), _imports(package / "draw.py")
        assert not {m for m in compute if m.split(".")[0] in {"streamlit", "altair"}}, package
        assert "ui.backend" not in draw and not {m for m in draw if m.startswith("ui.backend")}, package
        private = {m for m in draw if m.startswith(f"ui.{package.name}.compute._")}
        assert not private, private
        text = (package / "draw.py").read_text(encoding="utf-8")
        for word in ("tokenizer", "bundle_for", "ModelBundle", "engine"):
            assert word not in text, f"{package.name}/draw.py mentions {word}"
        page = ROOT / "pages" / f"{package.name}.py"
        assert f"from ui.{package.name} import compute, draw" in page.read_text(encoding="utf-8"), page
