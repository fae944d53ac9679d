"""Builders for primitives without constructor arguments that call one functional implementation."""
from __future__ import annotations

from typing import Any, Callable

from tfspore.ops.primitive import Primitive, prim_attr_register

__all__ = []


def simple_prim(name: str, fn: Callable, doc: str, module: str) -> type:
    """Create ``class <name>(Primitive)`` whose call is ``fn(*args)``."""

    @prim_attr_register
    def __init__(self) -> None:  # noqa: N807
        """Initialize."""

    def __call__(self, *args: Any) -> Any:  # noqa: N807
        return fn(*args)

    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc,
                                     "__module__": module, "__qualname__": name})
