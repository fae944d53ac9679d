"""``mindspore.parallel._auto_parallel_context``: the ``auto_parallel_context()`` object the zoo imports.

Its ``get_<key>()`` / ``set_<key>(value)`` methods read and write the settings of
:func:`tfspore.set_auto_parallel_context`; ``get_<key>_is_set()`` says whether a key was set since
the last reset. All-reduce fusion split indices and sizes are stored (TensorFlow's collectives fuse
on their own).

Example:
    >>> from tfspore.parallel._auto_parallel_context import auto_parallel_context
    >>> auto_parallel_context().get_device_num_is_set()
    False
"""
from __future__ import annotations

from typing import Any, Callable

from tfspore import context

__all__ = ["auto_parallel_context"]


class _AutoParallelContext:
    """Accessors over the auto-parallel settings of :mod:`tfspore.context`."""

    def __init__(self) -> None:
        self._fusion: dict = {}

    def reset(self) -> None:
        """Restore the default settings."""
        context.reset_auto_parallel_context()
        self._fusion.clear()

    def set_all_reduce_fusion_split_indices(self, indices: list, group: str = "") -> None:
        """Store the gradient indices where all-reduce fusion splits (ascending ints)."""
        if not isinstance(indices, list) or any(not isinstance(i, int) for i in indices):
            raise TypeError("For 'set_auto_parallel_context().set_all_reduce_fusion_split_indices', the argument "
                            f"'indices' must be a list of int, but got {indices!r}.")
        if indices != sorted(indices):
            raise ValueError("For 'set_auto_parallel_context().set_all_reduce_fusion_split_indices', the elements in "
                             f"argument 'indices' must be sorted in ascending order, but got {indices!r}.")
        self._fusion[("indices", group)] = list(indices)
        if not group:
            context.set_auto_parallel_context(all_reduce_fusion_config=list(indices))

    def get_all_reduce_fusion_split_indices(self, group: str = "") -> list:
        """The stored all-reduce fusion split indices."""
        if not group:
            return list(context.get_auto_parallel_context("all_reduce_fusion_config"))
        return list(self._fusion.get(("indices", group), []))

    def set_all_reduce_fusion_split_sizes(self, sizes: list, group: str = "") -> None:
        """Store the all-reduce fusion split sizes."""
        if not isinstance(sizes, list) or any(not isinstance(i, int) for i in sizes):
            raise TypeError("For 'set_auto_parallel_context().set_all_reduce_fusion_split_sizes', the argument "
                            f"'sizes' must be a list of int, but got {sizes!r}.")
        self._fusion[("sizes", group)] = list(sizes)

    def get_all_reduce_fusion_split_sizes(self, group: str = "") -> list:
        """The stored all-reduce fusion split sizes."""
        return list(self._fusion.get(("sizes", group), []))

    def get_strategy_search_mode(self) -> str:
        """The strategy search mode (``search_mode``)."""
        return context.get_auto_parallel_context("search_mode")

    def __getattr__(self, name: str) -> Callable:
        if name.startswith("get_") and name.endswith("_is_set"):
            key = name[4:-7]
            return lambda: context._auto_parallel_is_set(key)  # pylint: disable=protected-access
        if name.startswith("get_"):
            key = name[4:]
            context.get_auto_parallel_context(key)  # raises for an unknown key
            return lambda: context.get_auto_parallel_context(key)
        if name.startswith("set_"):
            key = name[4:]

            def setter(value: Any) -> None:
                context.set_auto_parallel_context(**{key: value})
            return setter
        raise AttributeError(f"'auto_parallel_context()' has no attribute {name!r}")


_CONTEXT = _AutoParallelContext()


def auto_parallel_context() -> _AutoParallelContext:
    """Return the process's auto-parallel context object."""
    return _CONTEXT
