"""L2-norm Cells: ``ClipByNorm`` (clip a tensor to a maximum L2 norm) and ``Norm``.

Both are deprecated in MindSpore 2.x in favour of ``ops.clip_by_norm`` / ``ops.norm`` but still
exported by MindSpore 2.10, and model-zoo scripts clip their gradients with ``nn.ClipByNorm``.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> nn.ClipByNorm()(Tensor(np.array([3.0, 4.0], np.float32)), Tensor(1.0)).asnumpy()
    array([0.6, 0.8], dtype=float32)
"""
from __future__ import annotations

import numbers
from typing import Any

import tensorflow as tf

from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import to_tf

__all__ = ["ClipByNorm", "Norm"]

_FLOATS = (tf.float16, tf.float32)
_MS_NAMES = {tf.float16: "Float16", tf.float32: "Float32", tf.float64: "Float64", tf.bfloat16: "BFloat16",
             tf.int8: "Int8", tf.int16: "Int16", tf.int32: "Int32", tf.int64: "Int64", tf.uint8: "UInt8",
             tf.bool: "Bool"}


def _is_int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _check_axis(axis: Any, name: str) -> tuple:
    """``axis`` as a tuple of ints (None: every dimension), validated as MindSpore's ClipByNorm does."""
    if axis is None:
        return ()
    if not (_is_int(axis) or isinstance(axis, (tuple, list))):
        raise TypeError(f"For '{name}', the type of 'axis' should be one of '['int', 'tuple', 'list']', but got type "
                        f"'{type(axis).__name__}'.")
    items = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    for i, item in enumerate(items):
        if not _is_int(item):
            raise TypeError(f"For '{name}', the type of 'axis[{i}]' should be 'int', but got type "
                            f"'{type(item).__name__}'.")
    return tuple(int(a) for a in items)


def _check_float_input(v: tf.Tensor, arg: str) -> None:
    if v.dtype not in _FLOATS:
        raise TypeError(f"For primitive[ClipByNorm], the input argument[{arg}] must be a type of {{Float16, Float32}}, "
                        f"but got {_MS_NAMES.get(v.dtype, v.dtype.name)}.")


def clip_by_norm_tf(x: tf.Tensor, clip_norm: tf.Tensor, axis: tuple) -> tf.Tensor:
    """``x * clip_norm / max(||x||_2, clip_norm)`` in float32, the norm taken over ``axis`` (all when empty).

    An all-zero slice stays zero (its norm is not divided by).
    """
    x = tf.cast(x, tf.float32)
    c = tf.cast(clip_norm, tf.float32)
    square_sum = tf.reduce_sum(tf.square(x), axis=list(axis) if axis else None, keepdims=True)
    positive = square_sum > 0
    l2 = tf.where(positive, tf.sqrt(tf.where(positive, square_sum, tf.ones_like(square_sum))), square_sum)
    return x * c / tf.maximum(l2, c)


class ClipByNorm(Cell):
    """Clips a tensor to a maximum L2 norm: ``x * clip_norm / max(||x||_2, clip_norm)``.

    The output equals ``x`` where the L2 norm of ``x`` (over ``axis``) is at most ``clip_norm``;
    otherwise ``x`` is scaled down to norm ``clip_norm``. The result is always float32.

    Args:
        axis: the dimension(s) the norm is taken over; None takes all of them.

    Inputs:
        x: a float16 or float32 Tensor.
        clip_norm: a scalar (or broadcastable) float16 or float32 Tensor.

    Outputs:
        A float32 Tensor of the shape of ``x``.

    Raises:
        TypeError: when ``axis`` is not None, an int, or a tuple/list of ints; at call time, when ``x`` or
            ``clip_norm`` is not float16/float32.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> ClipByNorm()(Tensor(np.ones((4, 16), np.float32)), Tensor(np.array([2.0], np.float32))).shape
        (4, 16)
    """

    def __init__(self, axis: Any = None) -> None:
        super().__init__()
        self.axis = _check_axis(axis, "ClipByNorm")

    def construct(self, x: Any, clip_norm: Any) -> Tensor:
        v, c = to_tf(x), to_tf(clip_norm)
        _check_float_input(v, "x")
        _check_float_input(c, "clip_norm")
        return _wrap(clip_by_norm_tf(v, c, self.axis))


class Norm(Cell):
    """The L2 norm ``sqrt(sum(x ** 2, axis))`` (MindSpore's deprecated ``nn.Norm``).

    Args:
        axis: the dimension(s) to reduce; ``()`` reduces all of them.
        keep_dims: keep the reduced dimensions with size 1.

    Inputs:
        x: a float Tensor.

    Outputs:
        A Tensor of the norms.

    Raises:
        TypeError: when ``keep_dims`` is not a bool.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> float(Norm()(Tensor(np.array([3.0, 4.0], np.float32))))
        5.0
    """

    def __init__(self, axis: Any = (), keep_dims: bool = False) -> None:
        super().__init__()
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For '{self.cls_name}', the type of 'keep_dims' should be 'bool', but got type "
                            f"'{type(keep_dims).__name__}'.")
        self.axis = axis
        self.keep_dims = keep_dims
        self._axes = _check_axis(axis, self.cls_name)

    def construct(self, x: Any) -> Tensor:
        v = to_tf(x)
        axes = list(self._axes) if self._axes else None
        return _wrap(tf.sqrt(tf.reduce_sum(tf.square(v), axis=axes, keepdims=self.keep_dims)))

    def extend_repr(self) -> str:
        return f"axis={self.axis}, keep_dims={self.keep_dims}"
