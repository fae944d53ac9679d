"""The import graph of ``tfspore/`` keeps DESIGN.md's structure rules: no circle, no upward import.

The graph is read from the source with :mod:`ast` (nothing is imported). Nodes are modules
(``pkg/__init__.py`` is the package itself); every ``import`` / ``from ... import`` of a tfspore
module is an edge, wherever it stands (module level, inside a function or class, under ``try``,
``if`` or ``TYPE_CHECKING``): an import moved into a function to dodge a circle is still a
dependency a reader has to follow. ``from P import name`` is an edge to ``P.name`` when that is a
module, else to ``P``; ``import P.Q.R`` is an edge to ``P.Q.R`` only.

The layers go one way: ``common`` <- ``ops`` <- ``nn`` <- ``train`` (a module of a lower layer
never imports one of a higher layer); ``dataset`` and the other packages stand beside them.
"""
from __future__ import annotations

import ast
import os
from collections import defaultdict

import pytest

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tfspore")

#: rank of each layered top-level package: an import from a lower rank to a higher one is upward
LAYERS = {"common": 0, "ops": 1, "nn": 2, "train": 3}


def _module_name(rel: str) -> str:
    parts = rel[:-3].split(os.sep)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules(root: str) -> dict[str, tuple[str, bool]]:
    """Module name -> (path, is_package) for every ``.py`` file under ``root`` (a ``tfspore`` folder)."""
    mods = {}
    base = os.path.dirname(root)
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for f in sorted(filenames):
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                mods[_module_name(os.path.relpath(path, base))] = (path, f == "__init__.py")
    return mods


def _resolve_from(mod: str, is_pkg: bool, node: ast.ImportFrom) -> str | None:
    if node.level == 0:
        return node.module
    pkg = mod.split(".") if is_pkg else mod.split(".")[:-1]
    up = node.level - 1
    if up > len(pkg):
        return None
    base = pkg[: len(pkg) - up] if up else pkg
    return ".".join(base + ([node.module] if node.module else []))


def import_graph(root: str) -> dict[str, dict[str, int]]:
    """Module -> {imported tfspore module: line of the first such import} for the tree at ``root``."""
    mods = _modules(root)
    edges: dict[str, dict[str, int]] = defaultdict(dict)
    for mod, (path, is_pkg) in sorted(mods.items()):
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), filename=path)
        edges[mod]  # pylint: disable=pointless-statement  (a module without imports is still a node)
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names if a.name == "tfspore" or a.name.startswith("tfspore.")]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve_from(mod, is_pkg, node)
                if base and (base == "tfspore" or base.startswith("tfspore.")):
                    targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
            for target in targets:
                while target not in mods and "." in target:
                    target = target.rsplit(".", 1)[0]
                if target in mods and target != mod:
                    edges[mod].setdefault(target, node.lineno)
    return edges


def circles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm, iterative)."""
    index: dict = {}
    low: dict = {}
    on_stack: set = set()
    stack: list = []
    out: list = []
    for start in sorted(edges):
        if start in index:
            continue
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        work = [(start, iter(sorted(edges.get(start, ()))))]
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def upward_imports(edges: dict[str, dict[str, int]]) -> list[str]:
    """``module:line -> imported`` for every import from a lower layer into a higher one."""
    def layer(mod: str) -> int | None:
        parts = mod.split(".")
        return LAYERS.get(parts[1]) if len(parts) > 1 else None

    found = []
    for mod, targets in sorted(edges.items()):
        for target, line in sorted(targets.items()):
            low, high = layer(mod), layer(target)
            if low is not None and high is not None and low < high:
                found.append(f"{mod}:{line} -> {target}")
    return found


def test_no_import_circle():
    found = circles(import_graph(ROOT))
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_no_upward_import():
    found = upward_imports(import_graph(ROOT))
    assert not found, "imports against the layers common <- ops <- nn <- train:\n" + "\n".join(found)


def _tree(tmp_path, files: dict[str, str]) -> str:
    root = tmp_path / "tfspore"
    for rel, text in {"__init__.py": "", **files}.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        for parent in path.relative_to(root).parents:
            (root / parent / "__init__.py").touch()
        path.write_text(text)
    return str(root)


@pytest.mark.parametrize("files, expected", [
    ({"common/a.py": "from tfspore.common import b\n", "common/b.py": "def f():\n    from . import a\n"},
     [["tfspore.common.a", "tfspore.common.b"]]),
    ({"ops/x.py": "import tfspore.nn.y\n", "nn/y.py": "from tfspore.ops.x import helper\n"},
     [["tfspore.nn.y", "tfspore.ops.x"]]),
    ({"common/a.py": "from tfspore.common.b import g\n", "common/b.py": "import os\n"}, []),
])
def test_circles_are_found_wherever_the_import_stands(tmp_path, files, expected):
    assert circles(import_graph(_tree(tmp_path, files))) == expected


def test_upward_imports_are_found(tmp_path):
    root = _tree(tmp_path, {
        "nn/metrics.py": "def f():\n    from tfspore.train import metrics\n",
        "train/metrics.py": "from tfspore.nn.cell import Cell\n",
        "common/tensor.py": "if False:\n    from tfspore.ops import functional\n",
        "ops/functional.py": "from tfspore.common.tensor import Tensor\n",
        "dataset/x.py": "from tfspore.train import metrics\n",
    })
    assert upward_imports(import_graph(root)) == ["tfspore.common.tensor:2 -> tfspore.ops.functional",
                                                  "tfspore.nn.metrics:2 -> tfspore.train.metrics"]
