"""Activation layers (``mindspore.nn.ReLU``, ``Softmax``, ``GELU``, ...) and ``get_activation``.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> nn.ReLU()(Tensor(np.array([-1.0, 2.0], np.float32)))
    Tensor(shape=[2], dtype=Float32, value= [ 0.00000000e+00,  2.00000000e+00])
"""
from __future__ import annotations

from typing import Any, Callable

import tensorflow as tf

from tfspore.common.tensor import Tensor, _wrap
from tfspore.nn.cell import Cell
from tfspore.nn.layer import _checkparam as validator
from tfspore.nn.layer._utils import cast_to, compute_dtype, to_tf

__all__ = ["Softmax", "LogSoftmax", "ReLU", "ReLU6", "LeakyReLU", "ELU", "SiLU", "Tanh", "GELU", "FastGelu",
           "Sigmoid", "Softsign", "HSwish", "HSigmoid", "LogSigmoid", "Mish", "get_activation"]


class _Elementwise(Cell):
    """An activation applying one TF function elementwise, in the cell's compute dtype."""

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        raise NotImplementedError

    def construct(self, x: Any) -> Tensor:
        v = to_tf(x)
        if v.dtype.is_floating or self._mixed_precision_type is not None:
            v = cast_to(v, compute_dtype(self, v))
        return _wrap(self._fn(v))


class ReLU(_Elementwise):
    """Rectified linear unit: ``max(x, 0)``.

    Example:
        >>> ReLU()
        ReLU()
    """

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.nn.relu(x)


class ReLU6(_Elementwise):
    """``min(max(x, 0), 6)``."""

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.nn.relu6(x)


class LeakyReLU(_Elementwise):
    """``x`` for ``x >= 0``, else ``alpha * x``.

    Args:
        alpha: the slope for negative inputs.

    Raises:
        TypeError: when ``alpha`` is not a number.
    """

    def __init__(self, alpha: float = 0.2) -> None:
        super().__init__()
        self.alpha = validator.check_float(alpha, "alpha", self.cls_name)

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.maximum(x, x * tf.cast(self.alpha, x.dtype)) if self.alpha <= 1 else \
            tf.minimum(x, x * tf.cast(self.alpha, x.dtype))


class ELU(_Elementwise):
    """Exponential linear unit: ``x`` for ``x > 0``, else ``alpha * (exp(x) - 1)``.

    Args:
        alpha: the scale of the negative part.
    """

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        self.alpha = validator.check_float(alpha, "alpha", self.cls_name)

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        a = tf.cast(self.alpha, x.dtype)
        return tf.where(x > 0, x, a * tf.math.expm1(tf.minimum(x, 0)))


class SiLU(_Elementwise):
    """``x * sigmoid(x)``."""

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return x * tf.sigmoid(x)


class Tanh(_Elementwise):
    """Hyperbolic tangent.

    Example:
        >>> Tanh()
        Tanh()
    """

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.tanh(x)


class Sigmoid(_Elementwise):
    """Logistic sigmoid ``1 / (1 + exp(-x))``."""

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.sigmoid(x)


class Softsign(_Elementwise):
    """``x / (1 + |x|)``."""

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.nn.softsign(x)


class HSwish(_Elementwise):
    """Hard swish ``x * relu6(x + 3) / 6``."""

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return x * tf.nn.relu6(x + 3) / 6


class HSigmoid(_Elementwise):
    """Hard sigmoid ``relu6(x + 3) / 6``."""

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.nn.relu6(x + 3) / 6


class LogSigmoid(_Elementwise):
    """``log(sigmoid(x))``."""

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.math.log_sigmoid(x)


class Mish(_Elementwise):
    """``x * tanh(softplus(x))``."""

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return x * tf.tanh(tf.nn.softplus(x))


class GELU(_Elementwise):
    """Gaussian error linear unit.

    Args:
        approximate: use the tanh approximation (MindSpore's default) instead of the exact erf form.

    Raises:
        TypeError: when ``approximate`` is not a bool.
    """

    def __init__(self, approximate: bool = True) -> None:
        super().__init__()
        validator.check_bool(approximate, "approximate", self.cls_name)
        self.approximate = "tanh" if approximate else "none"

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.nn.gelu(x, approximate=self.approximate == "tanh")


class FastGelu(_Elementwise):
    """Fast GELU: ``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``."""

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        ax = tf.abs(x)
        return x / (1 + tf.exp(-1.702 * ax)) * tf.exp(0.851 * (x - ax))


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
    """

    def __init__(self, axis: int | tuple = -1) -> None:
        super().__init__()
        self.axis = _check_axis(self.cls_name, axis)

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        if isinstance(self.axis, tuple):
            m = tf.reduce_max(x, axis=self.axis, keepdims=True)
            e = tf.exp(x - tf.stop_gradient(m))
            return e / tf.reduce_sum(e, axis=self.axis, keepdims=True)
        return tf.nn.softmax(x, axis=self.axis)


class LogSoftmax(_Elementwise):
    """Log-softmax along ``axis``.

    Args:
        axis: the axis to normalise over.

    Raises:
        TypeError: when ``axis`` is not an int.
    """

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = validator.check_int(axis, "axis", self.cls_name)

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.nn.log_softmax(x, axis=self.axis)


_activation: dict[str, Callable[[], Cell]] = {
    "softmax": Softmax,
    "logsoftmax": LogSoftmax,
    "relu": ReLU,
    "relu6": ReLU6,
    "silu": SiLU,
    "tanh": Tanh,
    "gelu": GELU,
    "fast_gelu": FastGelu,
    "elu": ELU,
    "sigmoid": Sigmoid,
    "softsign": Softsign,
    "leakyrelu": LeakyReLU,
    "hswish": HSwish,
    "hsigmoid": HSigmoid,
    "logsigmoid": LogSigmoid,
    "mish": Mish,
}


def get_activation(name: str | None, prim_name: str | None = None) -> Cell | None:
    """Return a new activation Cell for ``name`` (``'relu'``, ``'sigmoid'``...), or None for None.

    Args:
        name: the activation name.
        prim_name: the API name used in the error message.

    Raises:
        KeyError: for an unknown name.

    Example:
        >>> get_activation('relu')
        ReLU()
    """
    if name is None:
        return None
    if name not in _activation:
        prefix = f"For '{prim_name}', the" if prim_name else "The"
        raise KeyError(f"{prefix} 'name' must be in {list(_activation.keys())}, but got {name}.")
    return _activation[name]()

