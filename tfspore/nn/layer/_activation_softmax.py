"""The softmax family of activation layers (``Softmax``, ``LogSoftmax``, ``Softmin``, ``Softmax2d``,
``LogSoftmaxExt``).

MindSpore's import path for them is ``tfspore.nn.layer.activation`` (and ``tfspore.nn``).
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal import validator
from tfspore.nn.layer._activation_elementwise import _Elementwise


def _softmax(x: tf.Tensor, axis: Any) -> tf.Tensor:
    if isinstance(axis, tuple):
        m = tf.reduce_max(x, axis=axis, keepdims=True)
        e = tf.exp(x - tf.stop_gradient(m))
        return e / tf.reduce_sum(e, axis=axis, keepdims=True)
    return tf.nn.softmax(x, axis=axis)


def _check_axis(api: str, axis: Any) -> Any:
    if isinstance(axis, (list, tuple)):
        for a in axis:
            validator.check_int(a, "axis", api)
        return tuple(int(a) for a in axis)
    return validator.check_int(axis, "axis", api)


class Softmax(_Elementwise):
    """Softmax along ``axis``.

    Args:
        axis: the axis (or a tuple of axes) to normalise over.

    Raises:
        TypeError: when ``axis`` is not an int or a tuple of ints.

    Example:
        >>> Softmax(axis=0)
        Softmax()
    """

    def __init__(self, axis: int | tuple = -1) -> None:
        super().__init__()
        self.axis = _check_axis(self.cls_name, axis)

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return _softmax(x, self.axis)


class LogSoftmax(_Elementwise):
    """Log-softmax along ``axis``.

    Args:
        axis: the axis to normalise over.

    Raises:
        TypeError: when ``axis`` is not an int.

    Example:
        >>> LogSoftmax()
        LogSoftmax()
    """

    _float32_for_half = True

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = validator.check_int(axis, "axis", self.cls_name)

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.nn.log_softmax(x, axis=self.axis)


class Softmin(_Elementwise):
    """Softmin along ``axis``: ``softmax(-x)``.

    Args:
        axis: the axis (or a tuple of axes) to normalise over.

    Raises:
        TypeError: when ``axis`` is not an int or a tuple of ints.

    Example:
        >>> Softmin()
        Softmin()
    """

    def __init__(self, axis: int | tuple = -1) -> None:
        super().__init__()
        self.axis = _check_axis(self.cls_name, axis)

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return _softmax(-x, self.axis)


class Softmax2d(_Elementwise):
    """Softmax over the channel dimension of a ``(C, H, W)`` or ``(N, C, H, W)`` input (axis -3).

    Raises:
        ValueError: at call time, when the input is not 3-D or 4-D.

    Example:
        >>> Softmax2d()
        Softmax2d()
    """

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        if x.shape.rank not in (3, 4):
            raise ValueError(f"For '{self.cls_name}', the in_shape must have 3 or 4 dims, but got {x.shape.rank}.")
        return tf.nn.softmax(x, axis=-3)


class LogSoftmaxExt(_Elementwise):
    """Log-softmax along ``dim`` (None: dimension 0 for 0-, 1- and 3-D inputs, else 1).

    Args:
        dim: the dimension to normalise over.

    Example:
        >>> LogSoftmaxExt(1)
        LogSoftmaxExt()
    """

    _float32_for_half = True

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        dim = self.dim
        if dim is None:
            dim = 0 if x.shape.rank in (0, 1, 3) else 1
        return tf.nn.log_softmax(x, axis=dim)
