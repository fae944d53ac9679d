"""Run MindSpore code unchanged by resolving ``mindspore`` imports to tfspore.

:func:`alias_mindspore` installs an import hook so that ``import mindspore`` and
every ``mindspore.*`` import return the corresponding tfspore module::

    from tfspore.compat import alias_mindspore

    alias_mindspore()
    import mindspore                       # the tfspore package
    import mindspore.nn as nn              # tfspore.nn
    from mindspore.train.callback import LossMonitor

The aliased names are entries of ``sys.modules`` that hold the very same module
objects as their tfspore names (``sys.modules['mindspore.nn'] is
sys.modules['tfspore.nn']``), so classes, ``isinstance`` checks and module
state are shared between both spellings. Module attributes such as
``__name__`` keep their tfspore values.

While the alias is active, an installed MindSpore is shadowed: modules of it
that were already imported are set aside and put back by
:func:`unalias_mindspore`. A MindSpore module that tfspore does not implement
fails to import with :class:`ModuleNotFoundError` naming the MindSpore module, and a
name that a tfspore module lacks raises :class:`tfspore._missing.MissingNameError` naming
the MindSpore name (each module served gets the hook of :mod:`tfspore._missing`).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import threading
from types import ModuleType
from typing import Optional, Sequence

from tfspore._missing import install_missing_name_hook

__all__ = ["alias_mindspore", "unalias_mindspore", "is_mindspore_aliased"]

_ALIAS = "mindspore"
_TARGET = "tfspore"

_lock = threading.RLock()
# Modules of a real MindSpore set aside while the alias is active.
_stashed: dict[str, Optional[ModuleType]] = {}


def _is_alias_name(name: str) -> bool:
    return name == _ALIAS or name.startswith(_ALIAS + ".")


def _is_target_module(module: object) -> bool:
    name = getattr(module, "__name__", None)
    return isinstance(module, ModuleType) and isinstance(name, str) and (
        name == _TARGET or name.startswith(_TARGET + "."))


def _alias_to_target(name: str) -> str:
    return _TARGET + name[len(_ALIAS):]


def _target_to_alias(name: str) -> str:
    return _ALIAS + name[len(_TARGET):]


class _MindSporeAliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Meta path finder and loader that maps ``mindspore[.X]`` to ``tfspore[.X]``.

    The finder imports the tfspore module and hands the import system a spec
    whose loader returns that same module object, so both names share it. It
    never declines a ``mindspore`` name: otherwise the path finders would load
    a second copy of a tfspore file under the MindSpore name, or the real
    MindSpore.
    """

    def find_spec(
        self,
        fullname: str,
        path: Optional[Sequence[str]] = None,
        target: Optional[ModuleType] = None,
    ) -> Optional[importlib.machinery.ModuleSpec]:
        """Finds the tfspore module behind a ``mindspore`` module name.

        Args:
            fullname: Fully qualified name of the module being imported.
            path: The parent package's ``__path__`` (unused).
            target: Module being reloaded, if any (unused).

        Returns:
            A spec loading the tfspore module, or None for names outside
            ``mindspore``.

        Raises:
            ModuleNotFoundError: If tfspore does not implement the module.
        """
        if not _is_alias_name(fullname):
            return None
        target_name = _alias_to_target(fullname)
        try:
            module = importlib.import_module(target_name)
        except ModuleNotFoundError as exc:
            missing = exc.name or ""
            # Only translate the error when the missing module is the requested
            # tfspore module (or one of its packages); a missing third-party
            # dependency inside tfspore must surface unchanged.
            if fullname == _ALIAS or not missing.startswith(_TARGET + ".") or not (
                    target_name == missing or target_name.startswith(missing + ".")):
                raise
            alias_missing = _target_to_alias(missing)
            raise ModuleNotFoundError(
                f"No module named {alias_missing!r}: tfspore does not implement the "
                f"MindSpore module {alias_missing!r}",
                name=alias_missing,
            ) from None
        install_missing_name_hook(module)
        original_spec = getattr(module, "__spec__", None)
        return importlib.machinery.ModuleSpec(
            fullname,
            self,
            origin=getattr(original_spec, "origin", None),
            loader_state=(module, original_spec),
            is_package=hasattr(module, "__path__"),
        )

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        """Returns the already imported tfspore module for ``spec``.

        Args:
            spec: A spec made by :meth:`find_spec`.

        Returns:
            The tfspore module object.
        """
        module, _ = spec.loader_state
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Finishes the alias: the module keeps its own tfspore spec.

        The import system sets ``module.__spec__`` to the alias spec before
        calling this; the original spec is put back so that the module stays
        a plain tfspore module (``importlib.reload`` and pickling rely on it).

        Args:
            module: The module returned by :meth:`create_module`.
        """
        spec = module.__spec__
        if spec is not None and spec.loader is self and isinstance(spec.loader_state, tuple):
            module.__spec__ = spec.loader_state[1]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {_ALIAS!r} -> {_TARGET!r}>"


_finder = _MindSporeAliasFinder()


def is_mindspore_aliased() -> bool:
    """Tells whether :func:`alias_mindspore` is in effect.

    Returns:
        True if ``mindspore`` imports currently resolve to tfspore.

    Example:
        >>> from tfspore.compat import alias_mindspore, is_mindspore_aliased
        >>> alias_mindspore()
        >>> is_mindspore_aliased()
        True
    """
    return any(finder is _finder for finder in sys.meta_path)


def alias_mindspore() -> None:
    """Makes ``import mindspore`` and ``mindspore.*`` imports return tfspore modules.

    Installs an import hook at the front of ``sys.meta_path``. Calling it again
    while the alias is active does nothing. Modules of an installed MindSpore
    that were already imported are removed from ``sys.modules`` (and restored
    by :func:`unalias_mindspore`), so the real package stays shadowed while
    the alias is active.

    Importing a MindSpore module that tfspore lacks raises
    :class:`ModuleNotFoundError`, e.g. ``No module named 'mindspore.parallel.nn':
    tfspore does not implement the MindSpore module 'mindspore.parallel.nn'``.

    Example:
        >>> from tfspore.compat import alias_mindspore
        >>> alias_mindspore()
        >>> import mindspore.nn as nn
        >>> nn.__name__
        'tfspore.nn'
    """
    with _lock:
        if is_mindspore_aliased():
            return
        for name in [n for n in list(sys.modules) if _is_alias_name(n)]:
            module = sys.modules[name]
            if not _is_target_module(module):
                _stashed[name] = sys.modules.pop(name)
        sys.meta_path.insert(0, _finder)


def unalias_mindspore() -> None:
    """Undoes :func:`alias_mindspore`.

    Removes the import hook and the ``mindspore`` entries of ``sys.modules``
    that point to tfspore modules, and puts back the modules of a real
    MindSpore set aside by :func:`alias_mindspore`. The tfspore modules stay
    imported under their own names. Calling it when no alias is active only
    removes leftover aliased entries.

    Example:
        >>> from tfspore import compat
        >>> compat.alias_mindspore()
        >>> compat.unalias_mindspore()
        >>> compat.is_mindspore_aliased()
        False
    """
    with _lock:
        sys.meta_path[:] = [finder for finder in sys.meta_path if finder is not _finder]
        for name in [n for n in list(sys.modules) if _is_alias_name(n)]:
            if _is_target_module(sys.modules.get(name)):
                del sys.modules[name]
        sys.modules.update(_stashed)
        _stashed.clear()
