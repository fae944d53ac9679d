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
from tfspore.ops.function._layout import elementwise_through_nchw
from tfspore.ops.function.kernel_dtype import float32_for_half
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor, _wrap
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import cast_to, compute_dtype, read_param, to_tf

__all__ = ["Softmin", "Softmax", "Softmax2d", "LogSoftmax", "LogSoftmaxExt", "ReLU", "ReLU6", "RReLU", "SeLU", "SiLU",
           "Tanh", "Tanhshrink", "Hardtanh", "GELU", "FastGelu", "Sigmoid", "Softsign", "PReLU", "PReLUExt",
           "get_activation", "LeakyReLU", "HSigmoid", "HSwish", "ELU", "LogSigmoid", "LRN", "SoftShrink", "HShrink",
           "CELU", "Threshold", "Mish", "GLU", "Softplus"]


class _Elementwise(Cell):
    """An activation applying one TF function elementwise, in the cell's compute dtype (computed in
    float32 for float16/bfloat16 data where ``_float32_for_half`` is set, as MindSpore's CPU
    kernels of those activations do; see ``ops.function.kernel_dtype.float32_for_half``)."""

    _float32_for_half = False

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        raise NotImplementedError

    def construct(self, x: Any) -> Tensor:
        v = to_tf(x)
        if v.dtype.is_floating or self._mixed_precision_type is not None:
            v = cast_to(v, compute_dtype(self, v))
        return _wrap(float32_for_half(self._fn, v) if self._float32_for_half else self._fn(v))


class ReLU(_Elementwise):
    """Rectified linear unit: ``max(x, 0)``.

    Example:
        >>> ReLU()
        ReLU()
    """

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return elementwise_through_nchw(tf.nn.relu, x)


class ReLU6(_Elementwise):
    """``min(max(x, 0), 6)``.

    Example:
        >>> ReLU6()
        ReLU6()
    """

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return elementwise_through_nchw(tf.nn.relu6, x)


class LeakyReLU(_Elementwise):
    """``x`` for ``x >= 0``, else ``alpha * x``.

    Args:
        alpha: the slope for negative inputs.

    Raises:
        TypeError: when ``alpha`` is not a number.

    Example:
        >>> LeakyReLU(0.1)
        LeakyReLU()
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
        alpha: the scale of the negative part; as in MindSpore, only 1.0 is supported.

    Raises:
        TypeError: when ``alpha`` is not a number.
        ValueError: at call time, when ``alpha`` is not 1.0.

    Example:
        >>> ELU()
        ELU()
    """

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        self.alpha = validator.check_float(alpha, "alpha", self.cls_name)

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        if self.alpha != 1.0:
            raise ValueError(f"For '{self.cls_name}', the 'alpha' must be 1.0 (the only value MindSpore's Elu "
                             f"supports), but got {self.alpha}.")
        return tf.where(x > 0, x, tf.math.expm1(tf.minimum(x, 0)))


class SiLU(_Elementwise):
    """``x * sigmoid(x)``.

    Example:
        >>> SiLU()
        SiLU()
    """

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
    """Logistic sigmoid ``1 / (1 + exp(-x))``.

    Example:
        >>> Sigmoid()
        Sigmoid()
    """

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.sigmoid(x)


class Softsign(_Elementwise):
    """``x / (1 + |x|)``.

    Example:
        >>> Softsign()
        Softsign()
    """

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.nn.softsign(x)


class HSwish(_Elementwise):
    """Hard swish ``x * relu6(x + 3) / 6``.

    Example:
        >>> HSwish()
        HSwish()
    """

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return x * tf.nn.relu6(x + 3) / 6


class HSigmoid(_Elementwise):
    """Hard sigmoid ``relu6(x + 3) / 6``.

    Example:
        >>> HSigmoid()
        HSigmoid()
    """

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.nn.relu6(x + 3) / 6


class LogSigmoid(_Elementwise):
    """``log(sigmoid(x))``.

    Example:
        >>> LogSigmoid()
        LogSigmoid()
    """

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.math.log_sigmoid(x)


class Mish(_Elementwise):
    """``x * tanh(softplus(x))``.

    Example:
        >>> Mish()
        Mish()
    """

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

    Example:
        >>> GELU(approximate=False)
        GELU()
    """

    _float32_for_half = True

    def __init__(self, approximate: bool = True) -> None:
        super().__init__()
        validator.check_bool(approximate, "approximate", self.cls_name)
        self.approximate = "tanh" if approximate else "none"

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.nn.gelu(x, approximate=self.approximate == "tanh")


class FastGelu(_Elementwise):
    """Fast GELU: ``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``.

    Example:
        >>> FastGelu()
        FastGelu()
    """

    _float32_for_half = True

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        ax = tf.abs(x)
        return x / (1 + tf.exp(-1.702 * ax)) * tf.exp(0.851 * (x - ax))


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

    def __init__(self) -> None:
        super().__init__()

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

    def __init__(self) -> None:
        super().__init__()

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.nn.selu(x)


class Tanhshrink(_Elementwise):
    """``x - tanh(x)``.

    Example:
        >>> Tanhshrink()
        Tanhshrink()
    """

    def __init__(self) -> None:
        super().__init__()

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


class SoftShrink(_Elementwise):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, 0 in between.

    Args:
        lambd: the threshold (>= 0).

    Raises:
        TypeError: when ``lambd`` is not a float.
        ValueError: when ``lambd < 0``.

    Example:
        >>> SoftShrink()
        SoftShrink()
    """

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        validator.check_type(lambd, [float], "lambd", self.cls_name)
        if lambd < 0:
            raise ValueError(f"For '{self.cls_name}', the 'lambd' must be a non-negative float, but got {lambd}.")
        self.lambd = lambd

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        lam = tf.cast(self.lambd, x.dtype)
        return tf.where(x > lam, x - lam, tf.where(x < -lam, x + lam, tf.zeros_like(x)))


class HShrink(_Elementwise):
    """``x`` where ``|x| > lambd``, else 0.

    Args:
        lambd: the threshold.

    Raises:
        TypeError: when ``lambd`` is not a float.

    Example:
        >>> HShrink()
        HShrink()
    """

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        validator.check_type(lambd, [float], "lambd", self.cls_name)
        self.lambd = lambd

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

