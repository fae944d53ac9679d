"""Loss functions: ``LossBase``, ``SoftmaxCrossEntropyWithLogits``, ``MSELoss``, ``L1Loss``.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> loss = nn.MSELoss()
    >>> loss(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([1.0, 4.0], np.float32)))
    Tensor(shape=[], dtype=Float32, value= 2)
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore.common.tensor import Tensor, _wrap
from tfspore.nn.cell import Cell
from tfspore.nn.layer import _checkparam as validator
from tfspore.nn.layer._utils import cast_to, compute_dtype, to_tf

__all__ = ["LossBase", "SoftmaxCrossEntropyWithLogits", "MSELoss", "L1Loss"]


def _check_is_tensor(param_name: str, value: Any, cls_name: str) -> None:
    if value is not None and not isinstance(value, (Tensor, tf.Tensor, tf.Variable)):
        raise TypeError(f"For '{cls_name}', the '{param_name}' must be 'Tensor', but got "
                        f"'{type(value).__name__}'.")


class LossBase(Cell):
    """The base class of losses: ``get_loss`` applies the weights and the reduction.

    Args:
        reduction: ``'mean'``, ``'sum'`` or ``'none'``.

    Raises:
        ValueError: for another ``reduction``.

    Example:
        >>> class MyL1(LossBase):
        ...     def construct(self, logits, labels):
        ...         return self.get_loss((logits - labels).abs())
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        if reduction not in ("mean", "sum", "none"):
            raise ValueError(f"For '{self.cls_name}', the 'reduction' must be in ['mean', 'sum', 'none'], but got "
                             f"{reduction}.")
        self.average = reduction != "sum"
        self.reduce = reduction != "none"

    def get_axis(self, x: Any) -> tuple:
        """Return ``(0, 1, ..., rank - 1)`` for ``x``."""
        return tuple(range(to_tf(x).shape.rank))

    def get_loss(self, x: Any, weights: Any = 1.0) -> Tensor:
        """Weight ``x`` and reduce it as configured (computed in float32, returned in x's dtype).

        Args:
            x: the elementwise loss.
            weights: a number or a Tensor broadcastable to ``x``.

        Returns:
            The reduced (or, for ``'none'``, the weighted) loss.
        """
        v = to_tf(x)
        in_dtype = v.dtype
        v = tf.cast(v, tf.float32)
        w = tf.cast(to_tf(weights), tf.float32)
        v = w * v
        if self.reduce and self.average:
            v = tf.reduce_mean(v, axis=self.get_axis(v))
        if self.reduce and not self.average:
            v = tf.reduce_sum(v, axis=self.get_axis(v))
        return _wrap(cast_to(v, in_dtype))

    def construct(self, logits: Any, labels: Any) -> Any:
        raise NotImplementedError


def _pair(cell: Cell, logits: Any, labels: Any) -> tuple[tf.Tensor, tf.Tensor]:
    a, b = to_tf(logits), to_tf(labels)
    if a.dtype.is_floating or cell._mixed_precision_type is not None:
        dt = compute_dtype(cell, a)
        a, b = cast_to(a, dt), cast_to(b, dt)
    return a, b


class MSELoss(LossBase):
    """Mean squared error ``(logits - labels)^2`` with the reduction.

    Args:
        reduction: ``'mean'`` (default), ``'sum'`` or ``'none'``.

    Raises:
        TypeError: at call time, when an input is not a Tensor.

    Example:
        >>> MSELoss()
        MSELoss()
    """

    def construct(self, logits: Any, labels: Any) -> Tensor:
        _check_is_tensor("logits", logits, self.cls_name)
        _check_is_tensor("labels", labels, self.cls_name)
        a, b = _pair(self, logits, labels)
        return self.get_loss(tf.square(a - b))


class L1Loss(LossBase):
    """Mean absolute error ``|logits - labels|`` with the reduction.

    Args:
        reduction: ``'mean'`` (default), ``'sum'`` or ``'none'``.

    Example:
        >>> L1Loss(reduction='sum')
        L1Loss()
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.reduction = reduction

    def construct(self, logits: Any, labels: Any) -> Tensor:
        _check_is_tensor("logits", logits, self.cls_name)
        _check_is_tensor("labels", labels, self.cls_name)
        a, b = _pair(self, logits, labels)
        x = tf.abs(a - b)
        if self.reduction == "mean":
            x = tf.reduce_mean(x)
        elif self.reduction == "sum":
            x = tf.reduce_sum(x)
        return _wrap(x)


class SoftmaxCrossEntropyWithLogits(LossBase):
    """Softmax cross entropy between logits and (one-hot or sparse integer) labels.

    Args:
        sparse: labels are class indices of shape ``(N,)`` instead of one-hot ``(N, C)``.
        reduction: ``'none'`` (default: one loss per sample), ``'mean'`` or ``'sum'``.

    Inputs:
        logits: a Tensor of shape ``(N, C)``.
        labels: ``(N,)`` int32/int64 indices if ``sparse``, else ``(N, C)`` probabilities.

    Raises:
        TypeError: when ``sparse`` is not a bool, or an input is not a Tensor.
        ValueError: for a bad ``reduction``.

    Example:
        >>> SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
        SoftmaxCrossEntropyWithLogits()
    """

    def __init__(self, sparse: bool = False, reduction: str = "none") -> None:
        super().__init__(reduction)
        self.sparse = validator.check_bool(sparse, "sparse", self.cls_name)
        self.reduction = reduction

    def construct(self, logits: Any, labels: Any) -> Tensor:
        _check_is_tensor("logits", logits, self.cls_name)
        _check_is_tensor("labels", labels, self.cls_name)
        a = to_tf(logits)
        if a.dtype.is_floating or self._mixed_precision_type is not None:
            a = cast_to(a, compute_dtype(self, a))
        b = to_tf(labels)
        if self.sparse:
            if b.dtype not in (tf.int32, tf.int64):
                b = tf.cast(b, tf.int32)
            if self.reduction == "mean":
                x = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=b, logits=a)
                return _wrap(tf.reduce_mean(x))
            depth = a.shape[-1] if a.shape[-1] is not None else tf.shape(a)[-1]
            b = tf.one_hot(b, depth, 1.0, 0.0, dtype=tf.float32)
        x = tf.nn.softmax_cross_entropy_with_logits(labels=cast_to(b, a.dtype), logits=a)
        return self.get_loss(x)
