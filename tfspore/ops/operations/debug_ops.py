"""Debug primitives: ``Print``.

Example:
    >>> from tfspore import ops
    >>> ops.Print()("step", 1)
    step
    1
"""
from __future__ import annotations

from typing import Any

from tfspore.ops.function.other_func import print_
from tfspore.ops.primitive import Primitive, prim_attr_register

__all__ = ["Print"]


class Print(Primitive):
    """Print strings, numbers and Tensors, one per line (``tf.print`` inside compiled graphs)."""

    @prim_attr_register
    def __init__(self) -> None:
        self.add_prim_attr("side_effect_io", True)

    def __call__(self, *args: Any) -> None:
        return print_(*args)
