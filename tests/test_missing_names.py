"""Missing MindSpore names on tfspore modules raise an error naming the MindSpore name."""

import importlib
import json
import os
import pickle
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

import tfspore
import tfspore.nn
from tfspore import compat
from tfspore._missing import (MissingNameError, MissingNameImportError, install_missing_name_hook,
                              missing_name_error)

REPO_ROOT = Path(__file__).resolve().parents[1]
_MISSING = "NoSuchMindSporeName"

# Public MindSpore modules whose tfspore counterparts must explain a missing name.
_MODULES = ["", "nn", "nn.optim", "nn.loss", "ops", "ops.operations", "ops.functional",
            "ops.composite", "numpy", "dataset", "dataset.vision", "dataset.vision.c_transforms",
            "dataset.transforms", "dataset.transforms.c_transforms", "train", "train.callback",
            "train.serialization", "common", "common.dtype", "common.initializer",
            "communication", "communication.management", "context", "amp", "parallel", "profiler"]


def _message(module: str, name: str) -> str:
    return (f"module {module!r} has no attribute {name!r}: tfspore does not implement the "
            f"MindSpore name '{module}.{name}'")


@pytest.fixture
def aliased():
    compat.unalias_mindspore()
    compat.alias_mindspore()
    yield
    compat.unalias_mindspore()


def test_attribute_error_names_the_mindspore_name():
    with pytest.raises(MissingNameError) as info:
        getattr(tfspore.nn, _MISSING)
    assert isinstance(info.value, AttributeError)
    assert str(info.value) == _message("mindspore.nn", _MISSING)
    assert info.value.name == _MISSING
    assert info.value.obj is tfspore.nn


def test_top_level_package():
    with pytest.raises(MissingNameError, match=r"the MindSpore name 'mindspore\.NoSuchMindSporeName'"):
        getattr(tfspore, _MISSING)


def test_hasattr_and_getattr_default_keep_working():
    assert not hasattr(tfspore.nn, _MISSING)
    sentinel = object()
    assert getattr(tfspore.ops, _MISSING, sentinel) is sentinel
    assert hasattr(tfspore.nn, "Dense")


def test_dunder_names_raise_plain_attribute_error():
    with pytest.raises(AttributeError) as info:
        getattr(tfspore.nn, "__no_such_dunder__")
    assert type(info.value) is AttributeError


def test_from_import_names_the_mindspore_name():
    namespace: dict = {}
    with pytest.raises(MissingNameImportError) as info:
        exec(f"from tfspore.nn import Dense, {_MISSING}", namespace)  # pylint: disable=exec-used
    assert isinstance(info.value, ImportError)
    assert str(info.value) == (f"cannot import name {_MISSING!r} from 'mindspore.nn': tfspore does "
                               f"not implement the MindSpore name 'mindspore.nn.{_MISSING}'")
    assert namespace["Dense"] is tfspore.nn.Dense  # names before the missing one are bound


def test_star_import_and_pickling_unchanged():
    namespace: dict = {}
    exec("from tfspore.nn import *", namespace)  # pylint: disable=exec-used
    assert namespace["Dense"] is tfspore.nn.Dense
    assert pickle.loads(pickle.dumps(tfspore.nn.Dense)) is tfspore.nn.Dense


@pytest.mark.parametrize("module", _MODULES)
def test_every_public_module_through_the_alias(aliased, module):  # pylint: disable=unused-argument,redefined-outer-name
    name = "mindspore" + (f".{module}" if module else "")
    mod = importlib.import_module(name)
    with pytest.raises(MissingNameError) as info:
        getattr(mod, _MISSING)
    assert str(info.value) == _message(name, _MISSING)
    with pytest.raises(MissingNameImportError, match=f"'{name}.{_MISSING}'"):
        exec(f"from {name} import {_MISSING}", {})  # pylint: disable=exec-used


def test_missing_name_error_spells_mindspore():
    error = missing_name_error("tfspore.ops.operations", "Baz")
    assert isinstance(error, AttributeError)
    assert str(error) == _message("mindspore.ops.operations", "Baz")


def test_own_getattr_is_consulted_first(monkeypatch):
    module = types.ModuleType("tfspore.fake_own_getattr")

    def own(name):
        if name == "lazy":
            return 42
        raise AttributeError(name)

    module.__getattr__ = own
    monkeypatch.setitem(sys.modules, module.__name__, module)
    install_missing_name_hook(module)
    install_missing_name_hook(module)  # a second install keeps one hook
    assert module.lazy == 42
    with pytest.raises(MissingNameError, match=r"'mindspore\.fake_own_getattr\.other'"):
        getattr(module, "other")


def test_private_and_foreign_modules_are_left_alone():
    private = types.ModuleType("tfspore._private_for_test")
    foreign = types.ModuleType("somepackage.module")
    for module in (private, foreign, compat):
        install_missing_name_hook(module)
        assert not getattr(module.__dict__.get("__getattr__"), "_tfspore_missing_name_hook", False)


def test_hooks_cover_imports_and_lazy_submodules():
    """In a fresh process: every public module has the hook, whichever way it was imported."""
    script = textwrap.dedent("""
        import json, pkgutil, sys
        import tfspore
        hooked = lambda m: getattr(m.__dict__.get("__getattr__"), "_tfspore_missing_name_hook", False)
        public = lambda n: n != "tfspore.compat" and not any(p.startswith("_") for p in n.split("."))
        report = {}
        report["unhooked_after_import"] = sorted(
            n for n, m in list(sys.modules.items()) if n.startswith("tfspore") and public(n) and not hooked(m))
        report["dataset_loaded_before"] = "tfspore.dataset" in sys.modules
        report["lazy_vision"] = tfspore.dataset.vision.__name__
        report["lazy_error"] = ""
        try:
            tfspore.dataset.vision.NoSuchMindSporeName
        except AttributeError as exc:
            report["lazy_error"] = type(exc).__name__
        tfspore.compat.alias_mindspore()
        import importlib
        names = [i.name for i in pkgutil.walk_packages(tfspore.__path__, "tfspore.") if public(i.name)]
        for name in names:
            try:
                importlib.import_module("mindspore" + name[len("tfspore"):])
            except Exception:
                pass
        report["unhooked_after_alias"] = sorted(
            n for n, m in list(sys.modules.items()) if n.startswith("tfspore") and public(n) and not hooked(m))
        print(json.dumps(report))
    """)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    assert lines, proc.stderr[-3000:]
    report = json.loads(lines[-1])
    # A module imported after the install call at the end of tfspore/__init__.py (or of a
    # lazily imported package's __init__.py) misses the hook: keep that call last.
    assert report["unhooked_after_import"] == []
    assert report["dataset_loaded_before"] is False
    assert report["lazy_vision"] == "tfspore.dataset.vision"
    assert report["lazy_error"] == "MissingNameError"
    assert report["unhooked_after_alias"] == []
