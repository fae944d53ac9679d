"""Debug primitives: ``Print`` and the summary operators (``ScalarSummary``, ...).

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
from tfspore.ops.operations._summary_ops import (SUMMARY_TENSOR_CACHE, HistogramSummary, ImageSummary,  # noqa: F401
                                                 ScalarSummary, TensorSummary)

__all__ = ["Print", "ScalarSummary", "ImageSummary", "TensorSummary", "HistogramSummary"]


class Print(Primitive):
    """Print strings, numbers and Tensors, one per line (``tf.print`` inside compiled graphs)."""

    @prim_attr_register
    def __init__(self) -> None:
        self.add_prim_attr("side_effect_io", True)

    def __call__(self, *args: Any) -> None:
        return print_(*args)
