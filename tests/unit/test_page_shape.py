"""One shape for every page (issue 34, point 3): a page file is layout only, at most 100 lines; what it computes
lives in ui/<page>/compute.py and what it draws in ui/<page>/draw.py (docs/architecture.md, "The new house")."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_PAGE_LINES = 100  # counted as `wc -l` counts them
LESSONS = {"why", "attention", "grokking", "hallucination", "nondeterminism", "decoding", "pipeline", "loop",
           "temperature", "tokenizer", "home"}  # every lesson page, and home
PAGE_OF = {"live_class": "live"}  # a package whose page file has another name
ROUNDS = {"live_class"}  # the live class's round panels reread the room and write to it on clicks:
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


CACHES = {"cache_data", "cache_resource", "lru_cache", "cache", "cached", "SharedMemo", "on_model"}


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


def test_one_caching_style():
    """Every cache of the app is model_backend.runtime.memo's: `cached` (a SharedMemo keyed by the arguments) or
    ui.backend.on_model built on it. Neither Streamlit's caches nor functools' are used by the app, its pages or
    the lessons, and only ui.charts (chart objects, by fingerprint) holds a SharedMemo of its own. The runtime's
    once-per-process probes of the CPU (fastpath, invariance) keep functools.cache."""
    files = [ROOT / "app.py", *ROOT.joinpath("pages").glob("*.py"), *ROOT.joinpath("ui").rglob("*.py"),
             *ROOT.joinpath("model_backend").rglob("*.py")]
    assert len(files) > 60, len(files)
    probes = {"model_backend/runtime/fastpath.py", "model_backend/runtime/invariance.py"}
    found = {}
    for path in files:
        name = str(path.relative_to(ROOT))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        used = {n.attr if isinstance(n, ast.Attribute) else n.id for n in ast.walk(tree)
                if isinstance(n, (ast.Attribute, ast.Name))}
        other = used & {"cache_data", "cache_resource", "lru_cache", "memoize"}
        from_functools = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module == "functools"
                          for a in n.names} | {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
                                               and isinstance(n.value, ast.Name) and n.value.id == "functools"}
        if name not in probes and from_functools & {"cache", "lru_cache", "cached_property"}:
            other.add("functools.cache")
        if "SharedMemo" in used and name not in {"model_backend/runtime/memo.py", "ui/charts.py", "ui/backend.py"}:
            other.add("SharedMemo")
        if other:
            found[name] = sorted(other)
    assert not found, f"caches of another style: {found}"
    computes = sorted(ROOT.joinpath("ui").glob("*/compute.py"))
    styled = [p for p in computes if "on_model" in p.read_text() or "cached(" in p.read_text()]
    assert len(styled) >= 9, styled  # the pages' computations do use it


DATA_NAMES = {"int", "float", "str", "bool", "bytes", "None", "tuple", "list", "dict", "set", "frozenset",
              "Sequence", "Mapping", "Iterator", "Iterable", "Optional", "Any", "np", "ndarray", "pd", "DataFrame",
              "Path", "Literal"}


def test_compute_returns_data():
    """What a page's compute hands its draw is data: every public function of ui/<page>/compute.py says what it
    returns, and that is built of plain values, arrays and frames, model_backend's data types and the module's own
    dataclasses (never a chart, an element, or a function to call)."""
    computes = sorted(ROOT.joinpath("ui").glob("*/compute.py"))
    assert len(computes) >= 11, computes
    checked, wrong = 0, {}
    for path in computes:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        dataclasses = {n.name for n in tree.body if isinstance(n, ast.ClassDef) and any(
            "dataclass" in ast.unparse(d) for d in n.decorator_list)}
        from_backend = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                        and (n.module or "").startswith("model_backend") for a in n.names}
        from_backend |= {a.asname or a.name.split(".")[-1] for n in ast.walk(tree) if isinstance(n, ast.Import)
                         for a in n.names if a.name.startswith("model_backend")}
        for fn in tree.body:
            if not isinstance(fn, ast.FunctionDef) or fn.name.startswith("_"):
                continue
            checked += 1
            if fn.returns is None:
                wrong[f"{path.parent.name}.{fn.name}"] = "no return annotation"
                continue
            roots = {n.id for n in ast.walk(fn.returns) if isinstance(n, ast.Name)}
            strings = {n.value for n in ast.walk(fn.returns) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
            bad = {r for r in roots | strings if r not in DATA_NAMES | dataclasses | from_backend}
            if bad:
                wrong[f"{path.parent.name}.{fn.name}"] = f"{ast.unparse(fn.returns)}: {sorted(bad)}"
    assert checked >= 60, checked
    assert not wrong, wrong
