"""Tests never import bench, bench never imports tests, support imports neither; no bench script patches sys.path."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _imported(path: Path) -> set[str]:
    """Top-level package names a file imports (absolute imports, at any depth of the file)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def _files(folder: str) -> list[Path]:
    files = sorted((ROOT / folder).rglob("*.py"))
    assert files, f"no Python files under {folder}/"
    return files


def test_tests_never_import_bench():
    offenders = [str(p.relative_to(ROOT)) for p in _files("tests") if "bench" in _imported(p)]
    assert not offenders, offenders


def test_bench_never_imports_tests():
    offenders = [str(p.relative_to(ROOT)) for p in _files("bench") if "tests" in _imported(p)]
    assert not offenders, offenders


def test_support_imports_neither_tests_nor_bench():
    offenders = [str(p.relative_to(ROOT)) for p in _files("support") if _imported(p) & {"tests", "bench"}]
    assert not offenders, offenders


def test_no_bench_script_patches_sys_path():
    offenders = [str(p.relative_to(ROOT)) for p in _files("bench") if "sys.path" in p.read_text(encoding="utf-8")]
    assert not offenders, offenders


def test_chromium_flags_live_in_support_only():
    """One list of Chromium's flags (support/chromium.py), not a copy per script."""
    flag = '"--no' + '-sandbox"'  # split, so that this file is not a copy itself
    copies = [str(p.relative_to(ROOT)) for folder in ("tests", "bench") for p in _files(folder)
              if flag in p.read_text(encoding="utf-8")]
    assert not copies, copies


def _modules_imported(path: Path) -> set[str]:
    """Dotted module names a file imports (absolute imports), with `from a import b` counted as `a.b` too."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names |= {f"{node.module}.{a.name}" for a in node.names}
    return names


def test_model_backend_layers_import_downwards_only():
    """runtime/ knows neither the model's steps nor a lesson; core/ never imports a lesson (docs/architecture.md)."""
    forbidden = {"runtime": ("model_backend.core", "model_backend.lessons"), "core": ("model_backend.lessons",)}
    offenders = []
    for layer, below in forbidden.items():
        for p in _files(f"model_backend/{layer}"):
            bad = sorted(m for m in _modules_imported(p) if m.startswith(below))
            offenders += [f"{p.relative_to(ROOT)} imports {m}" for m in bad]
    assert not offenders, offenders


def test_model_backend_has_no_flat_module_left():
    """Only the modules every layer uses stay at the top; the rest live in runtime/, core/ or lessons/."""
    top = sorted(p.name for p in (ROOT / "model_backend").glob("*.py"))
    assert top == ["__init__.py", "__main__.py", "cli.py", "types.py", "validation.py"], top
    assert {p.name for p in (ROOT / "model_backend").iterdir() if p.is_dir() and p.name != "__pycache__"} == \
        {"runtime", "core", "lessons"}


def test_classroom_is_plain_python():
    """The live class's rooms (classroom/) are model-free and Streamlit-free: the pages draw what it returns."""
    allowed_extra = {"classroom", "redis"}
    offenders = [str(p.relative_to(ROOT)) for p in _files("classroom")
                 if _imported(p) & {"streamlit", "model_backend", "ui", "pages", "torch", "tests", "bench"}]
    assert not offenders, offenders
    outside = {name for p in _files("classroom") for name in _imported(p)} - allowed_extra
    import sys
    assert outside <= set(sys.stdlib_module_names), sorted(outside - set(sys.stdlib_module_names))
