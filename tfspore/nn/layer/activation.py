"""Activation layers (``mindspore.nn.ReLU``, ``Softmax``, ``GELU``, ...) and ``get_activation``.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> nn.ReLU()(Tensor(np.array([-1.0, 2.0], np.float32)))
    Tensor(shape=[2], dtype=Float32, value= [ 0.00000000e+00,  2.00000000e+00])
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import tensorflow as tf

from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import cast_to, compute_dtype, read_param, to_tf
from tfspore.nn.layer._activation_elementwise import (  # noqa: F401
    ELU, GELU, FastGelu, HSigmoid, HSwish, LeakyReLU, LogSigmoid, Mish, ReLU, ReLU6, Sigmoid, SiLU, Softsign, Tanh,
    _Elementwise)
from tfspore.nn.layer._activation_softmax import (_softmax, _check_axis, Softmax, LogSoftmax, Softmin,  # noqa: F401
                                                  Softmax2d, LogSoftmaxExt)

__all__ = ["Softmin", "Softmax", "Softmax2d", "LogSoftmax", "LogSoftmaxExt", "ReLU", "ReLU6", "RReLU", "SeLU", "SiLU",
           "Tanh", "Tanhshrink", "Hardtanh", "GELU", "FastGelu", "Sigmoid", "Softsign", "PReLU", "PReLUExt",
           "get_activation", "LeakyReLU", "HSigmoid", "HSwish", "ELU", "LogSigmoid", "LRN", "SoftShrink", "HShrink",
           "CELU", "Threshold", "Mish", "GLU", "Softplus"]


class RReLU(_Elementwise):
    """Randomized leaky ReLU: ``x`` for ``x >= 0``, else ``a * x`` with ``a ~ U(lower, upper)`` per element.

    As in MindSpore, the slopes are drawn on every call, in training and evaluation alike.

    Args:
        lower: the lowest slope.
        upper: the highest slope.

    Raises:
        TypeError: when ``lower`` or ``upper`` is not a number.
        ValueError: when ``lower > upper``.

    Example:
        >>> RReLU()
        RReLU()
    """

    def __init__(self, lower: float = 1 / 8, upper: float = 1 / 3) -> None:
        super().__init__()
        validator.check_type(upper, [float, int], "upper", self.cls_name)
        validator.check_type(lower, [float, int], "lower", self.cls_name)
        if lower > upper:
            raise ValueError(f"For {self.cls_name}, the value of 'upper' must be greater than or equal to 'lower', but "
                             f"got upper: {upper}, lower: {lower}.")
        self.lower, self.upper = float(lower), float(upper)

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        a = tf.random.uniform(tf.shape(x), self.lower, self.upper, dtype=tf.float32)
        return tf.where(x >= 0, x, x * tf.cast(a, x.dtype))


class SeLU(_Elementwise):
    """Scaled ELU: ``scale * (max(0, x) + min(0, alpha * (exp(x) - 1)))`` with the self-normalising constants.

    Example:
        >>> SeLU()
        SeLU()
    """

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.nn.selu(x)


class Tanhshrink(_Elementwise):
    """``x - tanh(x)``.

    Example:
        >>> Tanhshrink()
        Tanhshrink()
    """

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return x - tf.tanh(x)


class Hardtanh(_Elementwise):
    """Clamp to ``[min_val, max_val]``.

    Args:
        min_val: the lower bound.
        max_val: the upper bound.

    Raises:
        ValueError: when ``min_val >= max_val``.

    Example:
        >>> Hardtanh(-2.0, 2.0)
        Hardtanh()
    """

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0) -> None:
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val
        if self.min_val >= self.max_val:
            raise ValueError(f"For Hardtanh, min_val should be less than max_val, but got {self.min_val} and "
                             f"{self.max_val}.")

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.clip_by_value(x, tf.cast(self.min_val, x.dtype), tf.cast(self.max_val, x.dtype))


class PReLU(Cell):
    """Parametric ReLU: ``x`` for ``x > 0``, else ``w * x`` with one learned slope per channel.

    The slope Parameter lives at attribute ``w`` and is named ``a`` (MindSpore's names): standalone
    it is ``a``, nested ``prelu.w``.

    Args:
        channel: the number of slopes: 1, or the channel count (dimension 1 of the input).
        w: the initial slope: a float, a list of ``channel`` floats, or a float16/float32 Tensor of
            shape ``(channel,)``.

    Inputs:
        x: a Tensor; with ``channel > 1`` its dimension 1 must equal ``channel``.

    Raises:
        TypeError: when ``w`` is of another type.
        ValueError: for a non-positive ``channel`` or a ``w`` of the wrong length or dtype.

    Example:
        >>> PReLU(3, 0.1).w.shape
        (3,)
    """

    def __init__(self, channel: int = 1, w: Any = 0.25) -> None:
        super().__init__()
        validator.check_positive_int(channel, "channel", self.cls_name)
        if isinstance(w, (float, np.float32)):
            value = Tensor(np.full((channel,), w, np.float32))
        elif isinstance(w, list):
            if len(w) != channel:
                raise ValueError(f"For '{self.cls_name}', the length of 'w' must be equal to the 'channel' when the "
                                 f"'w' is a list, but got the length of 'w': {len(w)}, the 'channel': {channel}.")
            for item in w:
                if not isinstance(item, (float, np.float32)):
                    raise ValueError(f"For '{self.cls_name}', all elements in 'w' must be float when the 'w' is a "
                                     f"list, but got {item!r}.")
            value = Tensor(np.asarray(w, np.float32))
        elif isinstance(w, Tensor):
            if w.dtype not in (mstype.float16, mstype.float32):
                raise ValueError(f"For '{self.cls_name}', the dtype of 'w' must be float16 or float32 when the 'w' is "
                                 f"a tensor, but got {w.dtype}.")
            if len(w.shape) != 1 or w.shape[0] != channel:
                raise ValueError(f"For '{self.cls_name}', the dimension of 'w' must be 1, and the elements number "
                                 f"should be equal to the 'channel' when the 'w' is a tensor, but got 'w' shape "
                                 f"{w.shape}, the 'channel' {channel}.")
            value = w
        else:
            raise TypeError(f"For '{self.cls_name}', the 'w' only supported float, list and tensor, but got "
                            f"{type(w).__name__}: {w!r}.")
        self.w = Parameter(value, name="a")

    def construct(self, x: Any) -> Tensor:
        v = to_tf(x)
        v = cast_to(v, compute_dtype(self, v))
        return _wrap(_prelu(self.cls_name, v, read_param(self.w, v.dtype)))


def _prelu(name: str, x: tf.Tensor, w: tf.Tensor) -> tf.Tensor:
    rank = x.shape.rank
    n = w.shape[0]
    if n != 1:
        c = x.shape[1] if rank is not None and rank >= 2 else None
        if rank is not None and rank >= 2 and c is not None and c != n:
            raise ValueError(f"For '{name}', the length of 'weight' must be equal to number of channels: {c}, but "
                             f"got {n}.")
        if rank is not None and rank >= 2:
            w = tf.reshape(w, [1, n] + [1] * (rank - 2))
    return tf.where(x > 0, x, x * w)


class PReLUExt(Cell):
    """Parametric ReLU with the Parameter ``weight`` of shape ``(num_parameters,)`` (MindSpore's ``PReLUExt``).

    Args:
        num_parameters: the number of slopes: 1, or the channel count.
        init: the initial slope.
        dtype: the Parameter dtype (float32 when None).

    Example:
        >>> PReLUExt(3).weight.shape
        (3,)
    """

    def __init__(self, num_parameters: int = 1, init: float = 0.25, dtype: Any = None) -> None:
        super().__init__()
        self.weight = Parameter(Tensor(np.full((num_parameters,), init, np.float32), dtype), name="weight")

    def construct(self, input: Any) -> Tensor:  # noqa: A002 (MindSpore's argument name)
        v = to_tf(input)
        v = cast_to(v, compute_dtype(self, v))
        return _wrap(_prelu(self.cls_name, v, read_param(self.weight, v.dtype)))


class LRN(Cell):
    """Local response normalization over the channels of an NCHW input:
    ``x / (bias + alpha * sum(x^2 over channels c-r..c+r)) ** beta``.

    Args:
        depth_radius: the half-width ``r`` of the channel window.
        bias: the offset.
        alpha: the scale of the sum of squares.
        beta: the exponent.
        norm_region: ``'ACROSS_CHANNELS'`` only.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for a negative ``depth_radius`` or another ``norm_region``.

    Example:
        >>> LRN()
        LRN()
    """

    def __init__(self, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0, beta: float = 0.5,
                 norm_region: str = "ACROSS_CHANNELS") -> None:
        super().__init__()
        validator.check_non_negative_int(depth_radius, "depth_radius", self.cls_name)
        self.bias = validator.check_float(bias, "bias", self.cls_name, allow_int=False)
        self.alpha = validator.check_float(alpha, "alpha", self.cls_name, allow_int=False)
        self.beta = validator.check_float(beta, "beta", self.cls_name, allow_int=False)
        validator.check_string(norm_region, ["ACROSS_CHANNELS"], "norm_region", self.cls_name)
        self.depth_radius = depth_radius

    def construct(self, input_x: Any) -> Tensor:
        v = to_tf(input_x)
        v = cast_to(v, compute_dtype(self, v))
        if v.shape.rank != 4:
            raise ValueError(f"For '{self.cls_name}', the input must be 4-D, but got rank {v.shape.rank}.")
        y = tf.nn.local_response_normalization(tf.transpose(v, [0, 2, 3, 1]), self.depth_radius, self.bias,
                                               self.alpha, self.beta)
        return _wrap(tf.transpose(y, [0, 3, 1, 2]))


class _Shrink(_Elementwise):
    """A shrink activation with a number threshold ``lambd`` (a bool, int or float, as MindSpore's)."""

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = validator.check_type(lambd, [bool, int, float], "lambd", self.cls_name)


class SoftShrink(_Shrink):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, 0 in between.

    Args:
        lambd: the threshold (>= 0).

    Raises:
        TypeError: when ``lambd`` is not a number.
        RuntimeError: at call time, when ``lambd < 0``.

    Example:
        >>> SoftShrink()
        SoftShrink()
    """

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        if self.lambd < 0:
            raise RuntimeError(f"For '{self.cls_name}', the values for lambd should be greater or equal to 0, but "
                               f"found to be [{self.lambd}].")
        lam = tf.cast(self.lambd, x.dtype)
        return tf.where(x > lam, x - lam, tf.where(x < -lam, x + lam, tf.zeros_like(x)))


class HShrink(_Shrink):
    """``x`` where ``|x| > lambd``, else 0.

    Args:
        lambd: the threshold.

    Raises:
        TypeError: when ``lambd`` is not a number.

    Example:
        >>> HShrink()
        HShrink()
    """

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        lam = tf.cast(self.lambd, x.dtype)
        return tf.where(tf.abs(x) > lam, x, tf.zeros_like(x))


class CELU(_Elementwise):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``.

    Args:
        alpha: the scale (non-zero).

    Raises:
        TypeError: when ``alpha`` is not a float.
        ValueError: when ``alpha`` is 0.

    Example:
        >>> CELU()
        CELU()
    """

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        validator.check_type(alpha, [float], "alpha", self.cls_name)
        if alpha == 0:
            raise ValueError(f"For '{self.cls_name}', the 'alpha' can not be equal to 0, but got {alpha}.")
        self.alpha = alpha

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        a = tf.cast(self.alpha, x.dtype)
        return tf.where(x > 0, x, a * tf.math.expm1(tf.minimum(x, 0) / a))


class Threshold(_Elementwise):
    """``x`` where ``x > threshold``, else ``value``.

    Args:
        threshold: the threshold.
        value: the replacement.

    Example:
        >>> Threshold(0.1, 20.0)
        Threshold()
    """

    def __init__(self, threshold: float, value: float) -> None:
        super().__init__()
        self.threshold = threshold
        self.value = value

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.where(x > tf.cast(self.threshold, x.dtype), x, tf.cast(self.value, x.dtype) * tf.ones_like(x))


class GLU(_Elementwise):
    """Gated linear unit: ``a * sigmoid(b)`` with ``a, b`` the two halves of the input along ``axis``.

    Args:
        axis: the axis to split.

    Example:
        >>> GLU()
        GLU()
    """

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.dim = axis

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        a, b = tf.split(x, 2, axis=self.dim)
        return a * tf.sigmoid(b)


class Softplus(_Elementwise):
    """``log(1 + exp(beta * x)) / beta``, and ``x`` where ``beta * x > threshold``.

    MindSpore 2.10 has the function ``ops.softplus`` but no ``nn.Softplus``; this layer wraps the
    function with its defaults.

    Args:
        beta: the sharpness.
        threshold: above ``beta * x > threshold`` the output is ``x``.

    Raises:
        TypeError: when ``beta`` or ``threshold`` is not a number.

    Example:
        >>> Softplus()
        Softplus()
    """

    _float32_for_half = True

    def __init__(self, beta: float = 1, threshold: float = 20) -> None:
        super().__init__()
        self.beta = validator.check_float(beta, "beta", self.cls_name)
        self.threshold = validator.check_float(threshold, "threshold", self.cls_name)

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        b = tf.cast(self.beta, x.dtype)
        bx = x * b
        return tf.where(bx > self.threshold, x, tf.nn.softplus(bx) / b)


_activation: dict[str, Callable[[], Cell]] = {
    "softmin": Softmin,
    "softmax": Softmax,
    "softmax2d": Softmax2d,
    "logsoftmax": LogSoftmax,
    "logsoftmaxExt": LogSoftmaxExt,
    "relu": ReLU,
    "relu6": ReLU6,
    "rrelu": RReLU,
    "silu": SiLU,
    "tanh": Tanh,
    "tanhshrink": Tanhshrink,
    "hardtanh": Hardtanh,
    "gelu": GELU,
    "fast_gelu": FastGelu,
    "elu": ELU,
    "sigmoid": Sigmoid,
    "softsign": Softsign,
    "prelu": PReLU,
    "preluExt": PReLUExt,
    "leakyrelu": LeakyReLU,
    "hswish": HSwish,
    "hsigmoid": HSigmoid,
    "logsigmoid": LogSigmoid,
    "softshrink": SoftShrink,
    "hshrink": HShrink,
    "threshold": Threshold,
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

