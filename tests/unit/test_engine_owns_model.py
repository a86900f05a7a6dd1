"""The engine is the only door to the model (issue 30): nothing else calls it, hooks it or holds its lock.

Three checks, each able to fail:
- at run time, every guarded part of the model raises when called from outside the engine's doors, so any test
  of the suite that reaches the model another way fails;
- a bundle keeps no `model` attribute: the model object is reachable only as the engine's read-only `weights`;
- no source file outside model_backend/runtime reads `.model` or `.lock` of a bundle, or calls `generate(`
  on anything but the engine.
"""
from __future__ import annotations

import ast
import threading
from pathlib import Path

import pytest
import torch

from model_backend.runtime.engine import ModelOutsideEngine, guarded_modules

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ["app.py", "pages", "ui", "model_backend", "bench", "tests"]
RUNTIME = ROOT / "model_backend" / "runtime"


def _files():
    for name in SOURCES:
        path = ROOT / name
        yield from ([path] if path.is_file() else sorted(path.rglob("*.py")))


def test_every_guarded_part_of_the_model_refuses_a_call_from_outside_the_engine(tiny_bundle):
    model = tiny_bundle.weights
    ids = torch.tensor([[1, 2, 3]])
    calls = [
        lambda: model(input_ids=ids),
        lambda: model.model(input_ids=ids),
        lambda: model.get_input_embeddings()(ids),
        lambda: model.get_output_embeddings()(torch.zeros(1, model.config.hidden_size)),
        lambda: model.model.norm(torch.zeros(1, model.config.hidden_size)),
        lambda: model.model.layers[0].mlp(torch.zeros(1, 1, model.config.hidden_size)),
        lambda: model.generate(input_ids=ids, max_new_tokens=1),
    ]
    before = tiny_bundle.forward_passes
    for call in calls:
        with pytest.raises(ModelOutsideEngine), torch.inference_mode():
            call()
    assert tiny_bundle.forward_passes == before  # a refused call is no pass
    names = {type(m).__name__ for m in guarded_modules(model)}
    assert model.get_input_embeddings() in guarded_modules(model) and "Linear" in names
    assert len(guarded_modules(model)) > 4 * len(model.model.layers)


def test_a_bundle_keeps_no_model_attribute_and_its_doors_count_every_pass(tiny_bundle):
    assert not hasattr(tiny_bundle, "model")
    ids = torch.tensor([[1, 2, 3]])
    before = tiny_bundle.forward_passes
    tiny_bundle.engine.forward(input_ids=ids)
    assert tiny_bundle.forward_passes == before + 1
    out = tiny_bundle.engine.generate(input_ids=ids, attention_mask=torch.ones_like(ids), max_new_tokens=3,
                                      min_new_tokens=3, do_sample=False, pad_token_id=0)
    assert out.shape[1] == 6 and tiny_bundle.forward_passes == before + 1 + 3  # one pass a generated token
    with tiny_bundle.engine.exclusive() as model, torch.inference_mode():
        model.model(input_ids=ids)  # a body pass (Captum's way) is a pass too
    assert tiny_bundle.forward_passes == before + 5


def test_inside_exclusive_only_the_holding_thread_may_call_the_model(tiny_bundle):
    ids = torch.tensor([[1, 2, 3]])
    errors: list[BaseException] = []

    def other():
        try:
            with torch.inference_mode():
                tiny_bundle.weights(input_ids=ids)
        except BaseException as exc:  # noqa: BLE001 - the refusal is what is tested
            errors.append(exc)

    with tiny_bundle.engine.exclusive():
        thread = threading.Thread(target=other)
        thread.start()
        thread.join(30)
    assert len(errors) == 1 and isinstance(errors[0], ModelOutsideEngine)


class _Reach(ast.NodeVisitor):
    """`<...bundle...>.model`, `<...bundle...>.lock`, `<...bundle_for(...)>.model`, and `.generate(` on a bundle
    or its weights (inside `exclusive()` the yielded model may generate); each as (line, text)."""

    def __init__(self, source: str):
        self.lines, self.found = [line.encode() for line in source.splitlines(keepends=True)], []

    def _text(self, node: ast.AST) -> str:
        """The node's source text, as ast.get_source_segment gives it; that function splits the whole source on
        each call, which made this scan take half a minute."""
        first, last = node.lineno - 1, node.end_lineno - 1
        if first == last:
            return self.lines[first][node.col_offset:node.end_col_offset].decode()
        parts = [self.lines[first][node.col_offset:], *self.lines[first + 1:last], self.lines[last][:node.end_col_offset]]
        return b"".join(parts).decode()

    def visit_Attribute(self, node: ast.Attribute) -> None:
        owner = self._text(node.value)
        if node.attr in {"model", "lock"} and "bundle" in owner.lower() and not owner.endswith((".weights", ".engine")):
            self.found.append((node.lineno, f"{owner}.{node.attr}"))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "generate":
            owner = self._text(func.value)
            if ("bundle" in owner and not owner.endswith(".engine")) or owner.endswith("weights"):
                self.found.append((node.lineno, f"{owner}.generate("))
        self.generic_visit(node)


def test_no_source_outside_the_runtime_reaches_the_model_but_through_the_engine():
    reached = []
    for path in _files():
        if RUNTIME in path.parents or path == Path(__file__):
            continue
        source = path.read_text(encoding="utf-8")
        finder = _Reach(source)
        finder.visit(ast.parse(source))
        reached += [f"{path.relative_to(ROOT)}:{line}: {text}" for line, text in finder.found]
    assert not reached, "\n".join(reached)


def test_the_reach_finder_sees_each_forbidden_form():
    source = ("a = bundle.model\nb = backend.bundle_for().model.config\nwith real_bundle.lock: pass\n"
              "bundle_for().generate(x)\nbundle.weights.generate(x)\nbundle.engine.generate(x)\nbundle.weights.config\n")
    finder = _Reach(source)
    finder.visit(ast.parse(source))
    assert [line for line, _ in finder.found] == [1, 2, 3, 4, 5]
