"""The static half of the zoo census: model folders, scanned files, and the names they use.

See :mod:`tools.zoo_census` for the rules; this module reads files with :mod:`ast` and
imports nothing from them.
"""
from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field
from typing import Iterator, Optional

__all__ = ["ScanResult", "model_folders", "model_files", "scan_source", "scan_zoo"]

_TOP_LEVELS = ("official", "research")
_SKIP_DIR_NAMES = frozenset({"infer", "cpp_infer", "sdk", "mxbase"})
_SKIP_DIR_PARTS = ("310", "modelarts", "onnx")
_SKIP_FILE_PARTS = ("310", "modelarts", "onnx")
_SKIP_ROOT_FILES = frozenset({"preprocess.py", "postprocess.py"})


def _skip_dir(name: str) -> bool:
    low = name.lower()
    return (low in _SKIP_DIR_NAMES or low.startswith("infer") or low.endswith("_infer")
            or any(part in low for part in _SKIP_DIR_PARTS) or low.startswith("."))


def _skip_file(name: str, depth: int) -> bool:
    low = name.lower()
    if any(part in low for part in _SKIP_FILE_PARTS):
        return True
    return depth == 0 and low in _SKIP_ROOT_FILES


def model_folders(zoo: str) -> Iterator[str]:
    """Yields the model folders of a zoo, relative to it, in sorted order.

    Args:
        zoo: The zoo's root folder.

    Yields:
        Paths such as ``official/cv/ResNet``.
    """
    for top in _TOP_LEVELS:
        top_dir = os.path.join(zoo, top)
        if not os.path.isdir(top_dir):
            continue
        for domain in sorted(os.listdir(top_dir)):
            domain_dir = os.path.join(top_dir, domain)
            if not os.path.isdir(domain_dir) or domain.startswith("."):
                continue
            for model in sorted(os.listdir(domain_dir)):
                if os.path.isdir(os.path.join(domain_dir, model)) and not model.startswith("."):
                    yield f"{top}/{domain}/{model}"


def model_files(zoo: str, folder: str) -> Iterator[str]:
    """Yields the scanned ``.py`` files of one model folder, relative to the zoo.

    Args:
        zoo: The zoo's root folder.
        folder: A model folder relative to ``zoo``.

    Yields:
        File paths relative to ``zoo``, in sorted order, without the skipped files.
    """
    base = os.path.join(zoo, folder)
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if not _skip_dir(d))
        depth = 0 if os.path.samefile(dirpath, base) else 1
        for name in sorted(filenames):
            if name.endswith(".py") and not _skip_file(name, depth):
                yield os.path.relpath(os.path.join(dirpath, name), zoo).replace(os.sep, "/")


class _Collector(ast.NodeVisitor):
    """Collects the ``mindspore`` names one module's source uses, in source order."""

    def __init__(self) -> None:
        self.bindings: dict[str, str] = {}
        self.names: set[str] = set()

    # Imports -----------------------------------------------------------------------
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            full = alias.name
            if full != "mindspore" and not full.startswith("mindspore."):
                self._unbind(alias.asname or full.split(".")[0])
                continue
            self.names.add(full)
            if alias.asname:
                self.bindings[alias.asname] = full
            else:
                self.bindings["mindspore"] = "mindspore"

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        is_ms = node.level == 0 and (module == "mindspore" or module.startswith("mindspore."))
        if is_ms:
            self.names.add(module)
        for alias in node.names:
            if alias.name == "*":
                continue
            if is_ms:
                full = f"{module}.{alias.name}"
                self.names.add(full)
                self.bindings[alias.asname or alias.name] = full
            else:
                self._unbind(alias.asname or alias.name)

    def _unbind(self, name: str) -> None:
        self.bindings.pop(name, None)

    # Scopes and rebinding ------------------------------------------------------------
    def _chain(self, node: ast.AST) -> Optional[str]:
        """The MindSpore name an expression spells (``nn``, ``ms.nn.Dense``), if any."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name) and node.id in self.bindings:
            return ".".join([self.bindings[node.id]] + parts[::-1])
        return None

    def _unbind_target(self, target: ast.AST) -> None:
        if isinstance(target, ast.Name):
            self._unbind(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._unbind_target(element)
        elif isinstance(target, ast.Starred):
            self._unbind_target(target.value)

    def _in_scope(self, body: list, args: Optional[ast.arguments]) -> None:
        saved = dict(self.bindings)
        if args is not None:
            for arg in args.posonlyargs + args.args + args.kwonlyargs:
                self._unbind(arg.arg)
            for arg in (args.vararg, args.kwarg):
                if arg is not None:
                    self._unbind(arg.arg)
        for stmt in body:
            self.visit(stmt)
        self.bindings = saved

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        args = node.args
        annotations = [arg.annotation for arg in args.posonlyargs + args.args + args.kwonlyargs
                       + [args.vararg, args.kwarg] if arg is not None]
        for expr in node.decorator_list + args.defaults + annotations + [node.returns] + [
                d for d in args.kw_defaults]:
            if expr is not None:
                self.visit(expr)
        self._in_scope(node.body, node.args)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> None:
        for expr in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
            self.visit(expr)
        self._in_scope([node.body], node.args)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for expr in node.decorator_list + node.bases + [kw.value for kw in node.keywords]:
            self.visit(expr)
        self._in_scope(node.body, None)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        alias = self._chain(node.value)
        for target in node.targets:
            if isinstance(target, ast.Name) and alias is not None:
                self.bindings[target.id] = alias
            else:
                self.visit(target)
                self._unbind_target(target)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self.visit(node.annotation)
        if node.value is not None:
            self.visit(node.value)
        self._unbind_target(node.target)

    def visit_For(self, node: ast.For) -> None:
        self.visit(node.iter)
        self._unbind_target(node.target)
        for stmt in node.body + node.orelse:
            self.visit(stmt)

    visit_AsyncFor = visit_For

    def visit_withitem(self, node: ast.withitem) -> None:
        self.visit(node.context_expr)
        if node.optional_vars is not None:
            self._unbind_target(node.optional_vars)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.type is not None:
            self.visit(node.type)
        if node.name:
            self._unbind(node.name)
        for stmt in node.body:
            self.visit(stmt)

    # Uses --------------------------------------------------------------------------
    def visit_Attribute(self, node: ast.Attribute) -> None:
        parts: list[str] = []
        current: ast.AST = node
        while isinstance(current, ast.Attribute):
            parts.append(current.attr)
            current = current.value
        if isinstance(current, ast.Name) and current.id in self.bindings:
            parts.reverse()
            self.names.add(".".join([self.bindings[current.id]] + parts))
            return  # the whole chain is recorded; its inner attributes are prefixes
        self.generic_visit(node)


def scan_source(source: str, filename: str = "<source>") -> set[str]:
    """Returns the raw ``mindspore`` names (imports and attribute chains) of a source.

    Args:
        source: Python source text.
        filename: Name used in syntax errors.

    Returns:
        Fully qualified dotted names, before chains are cut at non-module objects.

    Raises:
        SyntaxError: If the source does not parse.
    """
    tree = ast.parse(source, filename=filename)
    collector = _Collector()
    collector.visit(tree)
    return collector.names


@dataclass
class ScanResult:
    """What the scan of a zoo found, before names are resolved."""

    folders: list[str] = field(default_factory=list)
    files: int = 0
    unparsed: list[str] = field(default_factory=list)
    # raw name -> {folder: first file using it}
    uses: dict[str, dict[str, str]] = field(default_factory=dict)


def scan_zoo(zoo: str) -> ScanResult:
    """Scans every model folder of a zoo.

    Args:
        zoo: The zoo's root folder.

    Returns:
        The raw names with the folders and files that use them.
    """
    result = ScanResult()
    for folder in model_folders(zoo):
        result.folders.append(folder)
        for rel in model_files(zoo, folder):
            result.files += 1
            try:
                with open(os.path.join(zoo, rel), "rb") as fh:
                    names = scan_source(fh.read().decode("utf-8", "replace"), rel)
            except (SyntaxError, ValueError):
                result.unparsed.append(rel)
                continue
            for name in names:
                result.uses.setdefault(name, {}).setdefault(folder, rel)
    return result
