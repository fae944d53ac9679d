"""``LossBase`` and the helpers shared by the loss Cells.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> class MyL1(nn.LossBase):
    ...     def construct(self, logits, labels):
    ...         return self.get_loss((logits - labels).abs())
    >>> float(MyL1()(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([1.0, 4.0], np.float32))))
    1.0
"""
from __future__ import annotations

import logging
from typing import Any

import tensorflow as tf

from tfspore._internal import validator
from tfspore._internal.reduction import reduce_by
from tfspore.common import dtype as mstype
from tfspore._internal.tensor_wrap import check_broadcast
from tfspore._internal.tensor_wrap import promote as _promote, wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import cast_to, to_tf
from tfspore.ops import operations as P

__all__ = ["LossBase"]

_REDUCTIONS = ("mean", "sum", "none")


def check_is_tensor(param_name: str, value: Any, cls_name: str) -> None:
    """Raise TypeError when ``value`` (not None) is not a Tensor, as MindSpore's losses do.

    Args:
        param_name: the input's name.
        value: the input.
        cls_name: the loss's class name.

    Raises:
        TypeError: when ``value`` is neither None nor a Tensor.
    """
    if value is not None and not isinstance(value, (Tensor, tf.Tensor, tf.Variable)):
        raise validator.type_error(value, param_name, cls_name, "a Tensor")


def ms_dtype_name(dt: tf.DType) -> str:
    """``'mindspore.float32'`` for ``tf.float32`` (MindSpore's spelling in dtype errors)."""
    return repr(mstype.from_tf_dtype(dt))


def binary(a: Any, b: Any) -> tuple[tf.Tensor, tf.Tensor]:
    """Two loss inputs as tf tensors of one dtype, with MindSpore's type promotion (``a - b``).

    Raises:
        ValueError: when the static shapes cannot broadcast (checked at trace time, as ``Sub``).
    """
    ta, tb = _promote(to_tf(a), to_tf(b))
    check_broadcast("Sub", ta, tb, ("logits", "labels"))
    return ta, tb


def reduce_loss(x: tf.Tensor, reduction: str, weights: Any = None) -> tf.Tensor:
    """MindSpore's ``_get_loss``: multiply by ``weights``, reduce in float32, cast back to x's dtype.

    Args:
        x: the elementwise loss.
        reduction: ``'mean'``, ``'sum'`` or ``'none'``.
        weights: None or a value broadcastable to ``x``.

    Returns:
        The reduced loss as a ``tf.Tensor``.
    """
    in_dtype = x.dtype
    v = tf.cast(x, tf.float32)
    if weights is not None:
        v = tf.cast(to_tf(weights), tf.float32) * v
    return cast_to(reduce_by(v, reduction), in_dtype)


def static_shape(x: Any) -> tuple:
    """The static shape of ``x`` as a tuple (unknown dims are None)."""
    shape = to_tf(x).shape
    return tuple(shape.as_list()) if shape.rank is not None else ()


class LossBase(Cell):
    """The base class of losses: ``get_loss`` applies the weights and the reduction.

    Subclasses implement ``construct`` and call ``self.get_loss(x)`` on the elementwise loss.

    Args:
        reduction: ``'mean'`` (default), ``'sum'`` or ``'none'``.

    Raises:
        ValueError: for another ``reduction``.

    Example:
        >>> import numpy as np
        >>> from tfspore import nn, Tensor
        >>> class MyL1(nn.LossBase):
        ...     def construct(self, logits, labels):
        ...         return self.get_loss((logits - labels).abs())
        >>> print(MyL1()(Tensor(np.array([1, 2, 3], np.float32)), Tensor(np.array([1, 2, 2], np.float32))))
        0.33333334
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        validator.check_string(reduction, _REDUCTIONS, "reduction", self.cls_name)
        self.average = reduction != "sum"
        self.reduce = reduction != "none"
        # MindSpore's LossBase carries these primitives; custom losses call them in construct.
        self.reduce_mean = P.ReduceMean()
        self.reduce_sum = P.ReduceSum()
        self.mul = P.Mul()
        self.cast = P.Cast()

    def get_axis(self, x: Any) -> tuple:
        """All the axes of ``x``: ``(0, 1, ..., rank - 1)``.

        Args:
            x: a Tensor of any shape.

        Returns:
            tuple: the axes.
        """
        return tuple(range(to_tf(x).shape.rank))

    def get_loss(self, x: Any, weights: Any = 1.0) -> Tensor:
        """Weight ``x`` and reduce it as configured (computed in float32, returned in x's dtype).

        Args:
            x: the elementwise loss, a Tensor of shape ``(N, *)``.
            weights: a number, or a Tensor of rank 0 or of x's rank that broadcasts to ``x``.

        Returns:
            Tensor: the reduced loss, or for ``'none'`` the weighted elementwise loss.
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


class _Loss(LossBase):
    """MindSpore 1.x's loss base class, kept (deprecated) as a ``LossBase`` that warns once per construction.

    Scripts import it as ``from mindspore.nn.loss.loss import _Loss`` and subclass it exactly like
    ``LossBase``.

    Args:
        reduction: ``'mean'`` (default), ``'sum'`` or ``'none'``.

    Raises:
        ValueError: for another ``reduction``.

    Example:
        >>> class MyLoss(_Loss):
        ...     def construct(self, logits, labels):
        ...         return self.get_loss(logits - labels)
    """

    def __init__(self, reduction: str = "mean") -> None:
        logging.getLogger("tfspore").warning("'_Loss' is deprecated from version 1.3 and will be removed after "
                                             "version 2.9.0, use 'LossBase' instead.")
        super().__init__(reduction)

    def construct(self, logits: Any, labels: Any) -> Any:
        raise NotImplementedError
