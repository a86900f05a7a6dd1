"""One shape for every page (issue 34, point 3): a page file is layout only, at most 100 lines; what it computes
lives in ui/<page>/compute.py and what it draws in ui/<page>/draw.py (docs/architecture.md, "The new house")."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_PAGE_LINES = 100  # counted as `wc -l` counts them
LESSONS = {"why", "attention", "grokking", "hallucination", "nondeterminism", "decoding", "pipeline", "loop",
           "temperature", "tokenizer", "home"}  # every lesson page, and home
PAGE_OF = {"live_class": "live"}  # a package whose page file has another name
ROUNDS = {"live_class"}  # the live class's round panels are timers that reread the room and write to it on clicks:
# its draw calls compute's functions from them (ui/live_class/__init__.py); every other rule holds for it too


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n")


def test_every_page_file_is_at_most_100_lines():
    # app.py is the entry point (navigation and the shared sidebar), not a page: st.navigation lists pages/ only.
    pages = sorted(ROOT.joinpath("pages").glob("*.py"))
    assert len(pages) >= 10, f"expected the app's page files under pages/, found {[p.name for p in pages]}"
    offenders = {f"pages/{p.name}": n for p in pages if (n := _lines(p)) > MAX_PAGE_LINES}
    assert not offenders, (f"page files over {MAX_PAGE_LINES} lines (move their work into ui/<page>/compute.py and draw.py): "
                           + ", ".join(f"{name} ({n})" for name, n in sorted(offenders.items())))


def _imports(path: Path, package: str) -> dict[str, set[str]]:
    """Module -> the names imported from it ("" for the module itself), relative imports resolved in `package`."""
    found: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for a in node.names:
                found.setdefault(a.name, set()).add("")
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]) if node.level else ""
            module = ".".join(x for x in (base, node.module or "") if x)
            for a in node.names:  # `from ui.why import compute` imports the module ui.why.compute
                found.setdefault(f"{module}.{a.name}", set()).add("")
                found.setdefault(module, set()).add(a.name)
    return found


def test_a_page_in_the_new_shape_computes_in_compute_and_draws_in_draw():
    """ui/<page>/compute.py draws nothing (no Streamlit, no Altair, no drawing module of ui); ui/<page>/draw.py never
    reaches the model: no ui.backend, and from compute only its constants and data types (names in capitals), never
    a function; the page imports both and hands one's results to the other (docs/architecture.md, "The new
    house")."""
    packages = sorted(p.parent for p in ROOT.joinpath("ui").glob("*/draw.py"))
    assert {p.name for p in packages} >= LESSONS, f"lesson pages not in the shape: {LESSONS - {p.name for p in packages}}"
    for package in packages:
        name = f"ui.{package.name}"
        compute, draw = _imports(package / "compute.py", name), _imports(package / "draw.py", name)
        drawing = [m for m in compute if m.split(".")[0] in {"streamlit", "altair"} or m.startswith(
            ("ui.charts", "ui.widgets", "ui.export", "ui.a11y", f"{name}.draw"))
            or m.startswith("ui.") and (m.endswith("_view") or "_view." in m)]  # a ui view draws; a lesson's
        # mlp_view or softmax_view (model_backend) is data
        assert not drawing, (package.name, drawing)
        assert not [m for m in draw if m == "ui.backend" or m.startswith("ui.backend.")], package.name
        from_compute = draw.get(f"{name}.compute", set())
        assert "" not in from_compute, f"{package.name}/draw.py imports the compute module itself"
        assert package.name in ROUNDS or all(n[:1].isupper() for n in from_compute), (package.name, sorted(from_compute))
        text = (package / "draw.py").read_text(encoding="utf-8")
        for word in ("bundle_for", "ModelBundle", "engine"):
            assert word not in text, f"{package.name}/draw.py mentions {word}"
        # a tokenizer object reached from draw (model.tokenizer, bundle.tokenizer): an attribute in the syntax tree,
        # not the tokenizer page's own name (ui.tokenizer) nor a string key ("tokenizer.cost.tokenizer")
        reached = [ast.unparse(n) for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Attribute)
                   and n.attr == "tokenizer" and ast.unparse(n.value) != "ui"]
        assert not reached, f"{package.name}/draw.py reaches a tokenizer: {reached}"
        page_file = f"pages/{PAGE_OF.get(package.name, package.name)}.py"
        page = _imports(ROOT / page_file, "pages")
        wanted = {f"{name}.draw"} if package.name in ROUNDS else {f"{name}.compute", f"{name}.draw"}
        assert wanted <= set(page), f"{page_file} imports {sorted(wanted)}"
        assert not [m for m in page if m == "ui.backend" or m.startswith("ui.backend.")], (
            f"{page_file} reaches the model itself: through its compute only")
    assert {p.name for p in packages} >= ROUNDS, "the live class's page is in the shape too"


CACHES = {"cache_data", "cache_resource", "lru_cache", "cache", "SharedMemo", "on_model"}


def test_draw_keeps_no_cache_of_its_own():
    """Caching lives in compute (and in ui.charts for chart objects: cached_chart, show_frame); a page's drawing
    modules keep none (st.cache_data, st.cache_resource, functools' caches, SharedMemo, backend.on_model)."""
    drawing = sorted(ROOT.joinpath("ui").glob("*/draw.py")) + [ROOT / "ui/temperature/penalties.py",
                                                                ROOT / "ui/temperature/presets.py"]
    assert len(drawing) >= 14, drawing
    found = {}
    for path in drawing:
        names = [n.attr if isinstance(n, ast.Attribute) else n.id for n in ast.walk(ast.parse(path.read_text()))
                 if isinstance(n, (ast.Attribute, ast.Name))]
        if used := sorted(set(names) & CACHES):
            found[str(path.relative_to(ROOT))] = used
    assert not found, f"drawing modules with a cache of their own: {found}"
