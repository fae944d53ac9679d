"""Element-wise activation layers (``ReLU`` ... ``FastGelu``) and their base class ``_Elementwise``.

MindSpore's import path for them is ``tfspore.nn.layer.activation`` (and ``tfspore.nn``).
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal import validator
from tfspore._internal.layout import elementwise_through_nchw
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import cast_to, compute_dtype, to_tf
from tfspore.ops.function.kernel_dtype import float32_for_half


class _Elementwise(Cell):
    """An activation applying one TF function elementwise, in the cell's compute dtype (computed in
    float32 for float16/bfloat16 data where ``_float32_for_half`` is set, as MindSpore's CPU
    kernels of those activations do; see ``ops.function.kernel_dtype.float32_for_half``)."""

    _float32_for_half = False

    def __init__(self) -> None:
        super().__init__()

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

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return elementwise_through_nchw(tf.nn.relu, x)


class ReLU6(_Elementwise):
    """``min(max(x, 0), 6)``.

    Example:
        >>> ReLU6()
        ReLU6()
    """

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

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return x * tf.sigmoid(x)


class Tanh(_Elementwise):
    """Hyperbolic tangent.

    Example:
        >>> Tanh()
        Tanh()
    """

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.tanh(x)


class Sigmoid(_Elementwise):
    """Logistic sigmoid ``1 / (1 + exp(-x))``.

    Example:
        >>> Sigmoid()
        Sigmoid()
    """

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.sigmoid(x)


class Softsign(_Elementwise):
    """``x / (1 + |x|)``.

    Example:
        >>> Softsign()
        Softsign()
    """

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.nn.softsign(x)


class HSwish(_Elementwise):
    """Hard swish ``x * relu6(x + 3) / 6``.

    Example:
        >>> HSwish()
        HSwish()
    """

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return x * tf.nn.relu6(x + 3) / 6


class HSigmoid(_Elementwise):
    """Hard sigmoid ``relu6(x + 3) / 6``.

    Example:
        >>> HSigmoid()
        HSigmoid()
    """

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.nn.relu6(x + 3) / 6


class LogSigmoid(_Elementwise):
    """``log(sigmoid(x))``.

    Example:
        >>> LogSigmoid()
        LogSigmoid()
    """

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        return tf.math.log_sigmoid(x)


class Mish(_Elementwise):
    """``x * tanh(softplus(x))``.

    Example:
        >>> Mish()
        Mish()
    """

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

    def _fn(self, x: tf.Tensor) -> tf.Tensor:
        ax = tf.abs(x)
        return x / (1 + tf.exp(-1.702 * ax)) * tf.exp(0.851 * (x - ax))
