"""Clear errors for MindSpore names that tfspore does not implement.

A tfspore module stands for the MindSpore module of the same path (``tfspore.nn`` for
``mindspore.nn``). When code asks one of them for a name tfspore lacks, the error names
the MindSpore name, as :mod:`tfspore.compat` does for a missing module::

    >>> import tfspore.nn as nn
    >>> nn.NoSuchLayer
    Traceback (most recent call last):
    ...
    tfspore._missing.MissingNameError: module 'mindspore.nn' has no attribute 'NoSuchLayer':
    tfspore does not implement the MindSpore name 'mindspore.nn.NoSuchLayer'

:func:`install_missing_name_hooks` gives every imported public tfspore module a
module-level ``__getattr__`` (PEP 562) that:

* returns a submodule that exists but is not imported yet, after importing it
  (``tfspore.nn.probability`` without ``import tfspore.nn.probability``);
* raises :class:`MissingNameError`, a subclass of :class:`AttributeError`, so
  ``hasattr``, ``getattr(module, name, default)``, pickling and ``from module import *``
  behave as for any missing attribute;
* raises :class:`MissingNameImportError` (an :class:`ImportError`) with the same text when
  the lookup comes from a ``from module import name`` statement, which would otherwise
  replace the message by Python's generic "cannot import name";
* raises a plain :class:`AttributeError` at once for dunder names (``__path__``,
  ``__wrapped__``, ...), which libraries probe all the time.

The hooks are installed at the end of ``tfspore/__init__.py`` for the modules imported
with tfspore, at the end of lazily imported packages for theirs, on a submodule that a
hook imports, and by :mod:`tfspore.compat` on every module it serves under a
``mindspore`` name. A module that defines its own ``__getattr__`` keeps it; the hook only
replaces the :class:`AttributeError` it raises.
"""
from __future__ import annotations

import dis
import importlib
import importlib.util
import sys
from types import ModuleType
from typing import Any, Callable, Optional

__all__ = ["MissingNameError", "MissingNameImportError", "missing_name_error",
           "mindspore_name", "install_missing_name_hook", "install_missing_name_hooks"]

_TARGET = "tfspore"
_ALIAS = "mindspore"
# Public tfspore modules with no MindSpore counterpart.
_NOT_MINDSPORE = frozenset({"tfspore.compat"})
_IMPORT_FROM = dis.opmap.get("IMPORT_FROM")


class MissingNameError(AttributeError):
    """A MindSpore name that tfspore does not implement, asked of a tfspore module."""


class MissingNameImportError(ImportError):
    """``from mindspore.x import name`` where tfspore does not implement ``name``."""


def mindspore_name(module_name: str) -> str:
    """Returns the MindSpore spelling of a tfspore module name.

    Args:
        module_name: A module name such as ``tfspore.nn``.

    Returns:
        ``mindspore.nn`` for ``tfspore.nn``; other names unchanged.
    """
    if module_name == _TARGET or module_name.startswith(_TARGET + "."):
        return _ALIAS + module_name[len(_TARGET):]
    return module_name


def missing_name_error(module_name: str, name: str) -> MissingNameError:
    """Builds the error for a MindSpore name that tfspore lacks.

    Args:
        module_name: The tfspore (or MindSpore) name of the module asked.
        name: The attribute asked for.

    Returns:
        A :class:`MissingNameError` whose message names the MindSpore module and name,
        e.g. ``module 'mindspore.nn' has no attribute 'Bar': tfspore does not implement
        the MindSpore name 'mindspore.nn.Bar'``.
    """
    alias = mindspore_name(module_name)
    error = MissingNameError(
        f"module {alias!r} has no attribute {name!r}: tfspore does not implement the "
        f"MindSpore name '{alias}.{name}'")
    error.name = name
    error.obj = sys.modules.get(module_name)
    return error


def _called_from_import_from(depth: int) -> bool:
    """Tells whether the frame ``depth`` levels up is executing ``from m import name``."""
    if _IMPORT_FROM is None:
        return False
    try:
        frame = sys._getframe(depth)  # pylint: disable=protected-access
        code = frame.f_code.co_code
        lasti = frame.f_lasti
        return 0 <= lasti < len(code) and code[lasti] == _IMPORT_FROM
    except (ValueError, AttributeError):
        return False


def _make_getattr(module_name: str, own: Optional[Callable[[str], Any]]) -> Callable[[str], Any]:
    def __getattr__(name: str) -> Any:  # pylint: disable=invalid-name
        if name.startswith("__") and name.endswith("__"):
            if own is not None:
                return own(name)
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        if own is not None:
            try:
                return own(name)
            except MissingNameError:
                raise
            except AttributeError:
                pass
        module = sys.modules.get(module_name)
        if module is not None and hasattr(module, "__path__") and not name.startswith("."):
            submodule = f"{module_name}.{name}"
            try:
                found = importlib.util.find_spec(submodule) is not None
            except (ImportError, ValueError):
                found = False
            if found:
                value = importlib.import_module(submodule)
                install_missing_name_hook(value)
                return value
        error = missing_name_error(module_name, name)
        # Frame 1 is this function; frame 2 the code asking for the name.
        if _called_from_import_from(2):
            alias = mindspore_name(module_name)
            raise MissingNameImportError(
                f"cannot import name {name!r} from {alias!r}: tfspore does not implement the "
                f"MindSpore name '{alias}.{name}'", name=alias) from None
        raise error

    __getattr__.__qualname__ = "__getattr__"
    __getattr__._tfspore_missing_name_hook = True  # type: ignore[attr-defined]
    return __getattr__


def _is_public_tfspore(module_name: str) -> bool:
    if module_name != _TARGET and not module_name.startswith(_TARGET + "."):
        return False
    if module_name in _NOT_MINDSPORE:
        return False
    return not any(part.startswith("_") for part in module_name.split("."))


def install_missing_name_hook(module: ModuleType) -> None:
    """Gives one public tfspore module the missing-name ``__getattr__``.

    Does nothing for private modules (a part of the name starts with ``_``), for
    modules outside tfspore or without a MindSpore counterpart, and for modules that
    have the hook already. A module's own ``__getattr__`` is kept and consulted first.

    Args:
        module: The module.
    """
    name = getattr(module, "__name__", None)
    if not isinstance(module, ModuleType) or not isinstance(name, str) or not _is_public_tfspore(name):
        return
    own = module.__dict__.get("__getattr__")
    if getattr(own, "_tfspore_missing_name_hook", False):
        return
    module.__getattr__ = _make_getattr(name, own)  # type: ignore[method-assign]


def install_missing_name_hooks(prefix: str = _TARGET) -> None:
    """Gives every imported public tfspore module under ``prefix`` the missing-name hook.

    Args:
        prefix: A package name; the package and its imported submodules get the hook.
    """
    for name, module in list(sys.modules.items()):
        if isinstance(module, ModuleType) and (name == prefix or name.startswith(prefix + ".")):
            install_missing_name_hook(module)
