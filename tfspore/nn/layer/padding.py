"""Padding layers: ``ConstantPad1d/2d/3d``, ``ZeroPad2d``, ``ReflectionPad1d/2d/3d`` and
``ReplicationPad1d/2d/3d``.

``padding`` lists ``(left, right)`` of the last dimension first, then ``(top, bottom)`` of the one
before, and so on (an int pads every side of the layer's dimensions). Constant padding may be
negative (it crops); reflection padding must be non-negative and smaller than the dimension.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> nn.ZeroPad2d((1, 1, 2, 0))(Tensor(np.ones((1, 2, 3), np.float32))).shape
    (1, 4, 5)
"""
from __future__ import annotations

import numbers
from typing import Any

from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.ops.function import pad as _pad

__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad2d", "ReflectionPad1d", "ReflectionPad2d",
           "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d"]


def _is_int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


class _ConstantPadNd(Cell):
    """Pads with a constant ``value``."""

    _sides = 2

    def __init__(self, padding: Any, value: Any, name: str) -> None:
        super().__init__()
        if _is_int(padding):
            padding = (int(padding),) * self._sides
        elif isinstance(padding, tuple):
            if len(padding) % 2 != 0:
                raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple type must be a multiple "
                                 f"of 2, but got {len(padding)}")
            if self._sides == 2 and len(padding) != 2:
                raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple type must equal to 2."
                                 f"but got {len(padding)}")
            if len(padding) > self._sides:
                raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple type must no more than "
                                 f"{self._sides}.but got {len(padding)}")
        else:
            raise TypeError(f"For '{name}', the type of parameter 'padding' must be in [int, tuple], but got "
                            f"{type(padding)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"For '{name}', the type of parameter 'value' must be in [int, float], but got "
                            f"{type(value)}")
        self.value = value
        self.padding = padding

    def construct(self, x: Any) -> Tensor:
        return _pad(x, self.padding, mode="constant", value=self.value)


class ConstantPad1d(_ConstantPadNd):
    """Pad the last dimension with a constant.

    Args:
        padding: an int, or ``(left, right)``.
        value: the fill value.

    Inputs:
        x: a Tensor.

    Outputs:
        The padded Tensor.

    Raises:
        TypeError: when ``padding`` is not an int or tuple, or ``value`` not a number.
        ValueError: for a tuple of the wrong length.

    Example:
        >>> ConstantPad1d(1, 0.5).padding
        (1, 1)
    """

    _sides = 2

    def __init__(self, padding: Any, value: Any) -> None:
        super().__init__(padding, value, "ConstantPad1d")


class ConstantPad2d(_ConstantPadNd):
    """Pad the last two dimensions with a constant.

    Args:
        padding: an int, or ``(left, right[, top, bottom])``.
        value: the fill value.

    Inputs:
        x: a Tensor.

    Outputs:
        The padded Tensor.

    Raises:
        TypeError: when ``padding`` is not an int or tuple, or ``value`` not a number.
        ValueError: for a tuple of the wrong length.

    Example:
        >>> ConstantPad2d(1, 0.0).padding
        (1, 1, 1, 1)
    """

    _sides = 4

    def __init__(self, padding: Any, value: Any) -> None:
        super().__init__(padding, value, "ConstantPad2d")


class ConstantPad3d(_ConstantPadNd):
    """Pad the last three dimensions with a constant.

    Args:
        padding: an int, or ``(left, right[, top, bottom[, front, back]])``.
        value: the fill value.

    Inputs:
        x: a Tensor.

    Outputs:
        The padded Tensor.

    Raises:
        TypeError: when ``padding`` is not an int or tuple, or ``value`` not a number.
        ValueError: for a tuple of the wrong length.

    Example:
        >>> len(ConstantPad3d(1, 0.0).padding)
        6
    """

    _sides = 6

    def __init__(self, padding: Any, value: Any) -> None:
        super().__init__(padding, value, "ConstantPad3d")


class ZeroPad2d(_ConstantPadNd):
    """Pad the last two dimensions with zeros.

    Args:
        padding: an int, or ``(left, right[, top, bottom])``.

    Inputs:
        x: a Tensor.

    Outputs:
        The padded Tensor.

    Raises:
        TypeError: when ``padding`` is not an int or tuple.
        ValueError: for a tuple of the wrong length.

    Example:
        >>> ZeroPad2d(2).value
        0
    """

    _sides = 4

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0, "ZeroPad2d")


def _check_tuple_padding(name: str, padding: Any, non_negative: bool) -> tuple:
    if not isinstance(padding, tuple):
        raise TypeError(f"For '{name}' the input 'padding' must be an integer or tuple, but got "
                        f"{type(padding).__name__}")
    if len(padding) % 2 != 0:
        raise ValueError(f"For '{name}' the length of input 'padding' must be divisible by 2, but got padding of "
                         f"length {len(padding)}. ")
    if not all(_is_int(i) for i in padding):
        raise TypeError(f"For '{name}' every element in 'padding' must be integer, but got {padding}. ")
    if non_negative and not all(i >= 0 for i in padding):
        raise ValueError(f"For '{name}' every element in 'padding' must be >= 0. but got {padding}. ")
    return tuple(int(i) for i in padding)


class _ModePadNd(Cell):
    """Reflection or replication padding of the last ``len(padding) // 2`` dimensions."""

    _sides = 2
    _mode = "reflect"

    def __init__(self, padding: Any) -> None:
        super().__init__()
        if _is_int(padding):
            padding = (int(padding),) * self._sides
        self.padding = _check_tuple_padding(self.cls_name, padding, self._mode == "reflect")

    def construct(self, x: Any) -> Tensor:
        if not self.padding:
            return x
        if self._mode == "replicate":
            dims = self._sides // 2
            rank = len(x.shape)
            if rank not in (dims + 1, dims + 2):
                raise ValueError(f"For primitive[PadV3], the input dims when padding's size equal {self._sides} must "
                                 f"be equal to {dims + 1} or {dims + 2}, but got {rank}.")
        return _pad(x, self.padding, mode=self._mode)


def _doc(kind: str, dims: int, mode: str) -> str:
    order = ["(left, right)", "(left, right, top, bottom)", "(left, right, top, bottom, front, back)"][dims - 1]
    return (f"{kind} padding of the last {dims} dimension(s).\n\n    Args:\n        padding: an int, or {order}.\n\n"
            f"    Inputs:\n        x: a Tensor.\n\n    Outputs:\n        The padded Tensor.\n\n    Raises:\n"
            f"        TypeError: when ``padding`` is not an int or a tuple of ints.\n"
            f"        ValueError: for an odd-length tuple{' or a negative pad' if mode == 'reflect' else ''}.\n")


class ReflectionPad1d(_ModePadNd):
    __doc__ = _doc("Reflection", 1, "reflect")
    _sides, _mode = 2, "reflect"


class ReflectionPad2d(_ModePadNd):
    __doc__ = _doc("Reflection", 2, "reflect")
    _sides, _mode = 4, "reflect"


class ReflectionPad3d(_ModePadNd):
    __doc__ = _doc("Reflection", 3, "reflect")
    _sides, _mode = 6, "reflect"


class ReplicationPad1d(_ModePadNd):
    __doc__ = _doc("Replication (edge)", 1, "replicate")
    _sides, _mode = 2, "replicate"


class ReplicationPad2d(_ModePadNd):
    __doc__ = _doc("Replication (edge)", 2, "replicate")
    _sides, _mode = 4, "replicate"


class ReplicationPad3d(_ModePadNd):
    __doc__ = _doc("Replication (edge)", 3, "replicate")
    _sides, _mode = 6, "replicate"
