"""``tfspore.amp`` (``mindspore.amp``): mixed precision and loss scaling.

The functional loss scalers (``LossScaler``, ``StaticLossScaler``, ``DynamicLossScaler``,
``all_finite`` and MindSpore's ``_grad_scale_map`` / ``_grad_unscale_map``, which its own
examples import from ``mindspore.amp``) are defined here. The mixed-precision levels and the
training-cell builder live in :mod:`tfspore.train.amp` (``build_train_network``,
``auto_mixed_precision``, ``custom_mixed_precision``, ``get_white_list``, ``get_black_list``) and
the loss-scale managers in :mod:`tfspore.train.loss_scale_manager`; this module re-exports them.

The scalers work eagerly and inside ``tf.function`` traces: the scale (and the dynamic scaler's
counter) are Parameters, and :meth:`DynamicLossScaler.adjust` updates them with TF ops.

Example:
    >>> import numpy as np
    >>> import tfspore as ms
    >>> from tfspore import amp, nn
    >>> net = nn.Dense(3, 2)
    >>> opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    >>> train_net = amp.build_train_network(net, opt, nn.MSELoss(), level="O3")
    >>> scaler = amp.DynamicLossScaler(scale_value=2 ** 10, scale_factor=2, scale_window=1)
    >>> grads = (ms.Tensor(np.array([np.log(-1), 1.0]), ms.float16), ms.Tensor(np.array([0.2]), ms.float16))
    >>> unscaled = scaler.unscale(grads)
    >>> scaler.adjust(amp.all_finite(unscaled))
    True
    >>> print(scaler.scale_value.asnumpy())
    512.0
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import tensorflow as tf

from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter
from tfspore._internal.tensor_wrap import unwrap_nest as _unwrap_nest, wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.train.amp import (auto_mixed_precision, build_train_network, custom_mixed_precision, get_black_list,
                               get_white_list)
from tfspore.train.loss_scale_manager import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager

__all__ = ["DynamicLossScaleManager", "LossScaleManager", "FixedLossScaleManager", "build_train_network",
           "auto_mixed_precision", "custom_mixed_precision", "get_white_list", "get_black_list", "LossScaler",
           "StaticLossScaler", "DynamicLossScaler", "all_finite"]


def _tf(x: Any) -> tf.Tensor:
    return tf.convert_to_tensor(_unwrap_nest(x))


def _map(fn: Any, inputs: Any) -> Any:
    """Apply ``fn`` to a Tensor, or to each Tensor of a tuple or list (a tuple comes back as a tuple)."""
    if isinstance(inputs, (tuple, list)):
        out = [_map(fn, x) for x in inputs]
        return tuple(out) if isinstance(inputs, tuple) else out
    return _wrap(fn(_tf(inputs)))


def _grad_scale_map(scale_value: Any, inputs: Any) -> Any:
    """Multiply a Tensor (or each Tensor of a tuple) by ``scale_value`` cast to its dtype."""
    scale = _tf(scale_value)
    return _map(lambda t: t * tf.cast(scale, t.dtype), inputs)


def _grad_unscale_map(scale_value: Any, inputs: Any) -> Any:
    """Multiply a Tensor (or each Tensor of a tuple) by ``1 / scale_value`` cast to its dtype."""
    recip = tf.math.reciprocal(tf.cast(_tf(scale_value), tf.float32))
    return _map(lambda t: t * tf.cast(recip, t.dtype), inputs)


def all_finite(inputs: Any) -> Tensor:
    """Whether every Tensor of ``inputs`` is finite (no inf, no NaN).

    Args:
        inputs: a tuple or list of Tensors.

    Returns:
        A bool scalar Tensor.

    Raises:
        TypeError: when ``inputs`` is not a tuple or list.

    Example:
        >>> import numpy as np
        >>> import tfspore as ms
        >>> from tfspore import amp
        >>> print(amp.all_finite((ms.Tensor(np.array([np.log(-1), 1, np.log(0)])), ms.Tensor(np.array([1.0])))))
        False
    """
    if not isinstance(inputs, (tuple, list)):
        raise TypeError(f"For 'all_finite', the 'inputs' must be a tuple or list of Tensors, but got "
                        f"{type(inputs).__name__}.")
    flags = [tf.reduce_all(tf.math.is_finite(t)) for t in (_tf(x) for x in inputs)
             if t.dtype.is_floating or t.dtype.is_complex]
    if not flags:
        return _wrap(tf.constant(True))
    return _wrap(tf.reduce_all(tf.stack(flags)))


def _check_scale_value(scale_value: Any) -> float:
    if isinstance(scale_value, bool) or not isinstance(scale_value, (float, int)):
        raise TypeError(f"The type of 'scale_value' should be one of '['float', 'int']', but got type "
                        f"'{type(scale_value).__name__}'.")
    if scale_value < 1.0:
        raise ValueError(f"The argument 'scale_value' must be > 1, but got {scale_value}")
    return scale_value


class LossScaler(ABC):
    """Abstract loss scaler for mixed-precision training.

    ``scale`` multiplies the loss (or gradients) by the scale, ``unscale`` divides the gradients
    back, and ``adjust`` updates the scale from whether the gradients were finite.

    Example:
        >>> class MyLossScaler(LossScaler):
        ...     def __init__(self, scale_value):
        ...         self.scale_value = Parameter(Tensor(scale_value, dtype=mstype.float32), name="scale_value")
        ...     def scale(self, inputs):
        ...         return _grad_scale_map(self.scale_value, inputs)
        ...     def unscale(self, inputs):
        ...         return _grad_unscale_map(self.scale_value, inputs)
        ...     def adjust(self, grads_finite):
        ...         return True
    """

    @abstractmethod
    def scale(self, inputs: Any) -> Any:
        """Multiply ``inputs`` (the loss or the gradients) by the scale.

        Args:
            inputs: a Tensor or a tuple of Tensors.
        """
        raise NotImplementedError

    @abstractmethod
    def unscale(self, inputs: Any) -> Any:
        """Divide ``inputs`` (the gradients) by the scale.

        Args:
            inputs: a Tensor or a tuple of Tensors.
        """
        raise NotImplementedError

    @abstractmethod
    def adjust(self, grads_finite: Any) -> Any:
        """Update the scale from whether the gradients are finite.

        Args:
            grads_finite: a bool scalar Tensor.
        """
        raise NotImplementedError


class _ParameterScaler(LossScaler):
    """The scaling shared by the built-in loss scalers: by the float32 Parameter ``scale_value``.

    Args:
        scale_value: the scale (int or float, >= 1).
    """

    def __init__(self, scale_value: float) -> None:
        scale_value = _check_scale_value(scale_value)
        self.scale_value = Parameter(Tensor(scale_value, dtype=mstype.float32), name="scale_value")

    def scale(self, inputs: Any) -> Any:
        """Multiply ``inputs`` by the scale.

        Args:
            inputs: a Tensor or a tuple of Tensors.

        Returns:
            The scaled value(s), with the structure of ``inputs``.
        """
        return _grad_scale_map(self.scale_value, inputs)

    def unscale(self, inputs: Any) -> Any:
        """Divide ``inputs`` by the scale.

        Args:
            inputs: a Tensor or a tuple of Tensors.

        Returns:
            The unscaled value(s), with the structure of ``inputs``.
        """
        return _grad_unscale_map(self.scale_value, inputs)


class StaticLossScaler(_ParameterScaler):
    """A fixed loss scale.

    Args:
        scale_value: the scale (int or float, >= 1), kept in the Parameter ``scale_value``.

    Raises:
        TypeError: when ``scale_value`` is not an int or float.
        ValueError: when it is < 1.

    Example:
        >>> import tfspore as ms
        >>> from tfspore import amp
        >>> print(amp.StaticLossScaler(scale_value=2 ** 10).scale(ms.Tensor([1.], ms.float32)))
        [1024.]
    """

    def adjust(self, grads_finite: Any) -> bool:
        """Return False: the scale is fixed.

        Args:
            grads_finite: a bool scalar Tensor (ignored).
        """
        return False


class DynamicLossScaler(_ParameterScaler):
    """A loss scale lowered on non-finite gradients and raised after ``scale_window`` finite steps.

    Args:
        scale_value: the initial scale (int or float, >= 1), in the Parameter ``scale_value``.
        scale_factor: the factor of decrease and increase (a positive int).
        scale_window: the number of consecutive finite steps before the scale grows (a positive
            int); the Parameter ``counter`` counts them.

    Raises:
        TypeError: for a ``scale_value`` that is not an int or float, or a ``scale_factor`` /
            ``scale_window`` that is not an int.
        ValueError: for ``scale_value`` < 1, or ``scale_factor`` / ``scale_window`` <= 0.

    Example:
        >>> import tfspore as ms
        >>> from tfspore import amp
        >>> scaler = amp.DynamicLossScaler(scale_value=2 ** 10, scale_factor=2, scale_window=1)
        >>> scaler.adjust(ms.Tensor(False))
        True
    """

    def __init__(self, scale_value: float, scale_factor: int, scale_window: int) -> None:
        super().__init__(scale_value)
        self.scale_window = validator.check_positive_int(scale_window, "scale_window", "DynamicLossScaler")
        self.scale_factor = validator.check_positive_int(scale_factor, "scale_factor", "DynamicLossScaler")
        self.counter = Parameter(Tensor(0, dtype=mstype.int32), name="counter")

    def adjust(self, grads_finite: Any) -> bool:
        """Update the scale: ``max(1, scale / factor)`` when the gradients are not finite;
        ``scale * factor`` (when that is finite) on the ``scale_window``-th finite step in a row.

        Args:
            grads_finite: a bool scalar Tensor, e.g. :func:`all_finite` of the gradients.

        Returns:
            True.
        """
        finite = tf.reshape(tf.cast(_tf(grads_finite), tf.bool), [])
        scale_var = self.scale_value._var
        counter_var = self.counter._var
        scale = tf.convert_to_tensor(scale_var)
        counter = tf.convert_to_tensor(counter_var)
        grown = scale * tf.constant(self.scale_factor, scale.dtype)
        on_finite = tf.where(tf.equal(counter, self.scale_window - 1),
                             tf.where(tf.math.is_finite(grown), grown, scale), scale)
        on_overflow = tf.maximum(tf.ones((), scale.dtype), scale / tf.constant(self.scale_factor, scale.dtype))
        scale_var.assign(tf.where(finite, on_finite, on_overflow), read_value=False)
        counter_var.assign(tf.math.floormod(counter + 1, self.scale_window) * tf.cast(finite, tf.int32),
                           read_value=False)
        return True
