"""Embedding and margin losses: ``CosineEmbeddingLoss``, ``MarginRankingLoss``, ``SoftMarginLoss`` and
``MultilabelMarginLoss``.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> loss = nn.CosineEmbeddingLoss()
    >>> out = loss(Tensor(np.array([[0.3, 0.8], [0.4, 0.3]], np.float32)),
    ...            Tensor(np.array([[0.4, 1.2], [-0.4, -0.9]], np.float32)), Tensor(np.array([1, -1], np.int32)))
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal import validator
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.layer._utils import to_tf
from tfspore.nn.loss._base import (LossBase, binary, check_is_tensor, ms_dtype_name, reduce_by, reduce_loss,
                                   static_shape)

__all__ = ["CosineEmbeddingLoss", "MarginRankingLoss", "SoftMarginLoss", "MultilabelMarginLoss"]


def _checked_reduction(cls_name: str, reduction: Any, allowed: tuple) -> str:
    """``reduction`` if it is one of ``allowed``; MindSpore lists them in ``allowed``'s order in the error."""
    if not isinstance(reduction, str) or reduction not in allowed:
        raise ValueError(f"For '{cls_name}', the 'reduction' must be str and must be in '{list(allowed)}', but got "
                         f"'{reduction}'.")
    return reduction


class CosineEmbeddingLoss(LossBase):
    r"""Cosine embedding loss: :math:`1 - \cos(x_1, x_2)` where the label is 1,
    :math:`\max(0, \cos(x_1, x_2) - margin)` where it is -1, 0 for other labels.

    The cosine is taken along axis 1.

    Args:
        margin: a float in [-1.0, 1.0]. Default: ``0.0``.
        reduction: ``'mean'`` (default), ``'sum'`` or ``'none'``.

    Inputs:
        logits_x1: a Tensor of shape ``(N, D, *)``.
        logits_x2: a Tensor of the same shape and dtype.
        labels: 1 or -1 per sample, shape ``(N, *)``.

    Raises:
        TypeError: when ``margin`` is not a float, an input is not a Tensor, or the two inputs'
            dtypes differ.
        ValueError: when ``margin`` is outside [-1, 1], the inputs' shapes differ, or for a bad ``reduction``.

    Example:
        >>> from tfspore import nn
        >>> loss = nn.CosineEmbeddingLoss(margin=0.2)
    """

    def __init__(self, margin: float = 0.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        validator.check_type(margin, float, "margin", self.cls_name)
        if not -1.0 <= margin <= 1.0:
            raise ValueError(f"For '{self.cls_name}', the 'margin' must be in range of [-1.0, 1.0], but got {margin} "
                             f"with type 'float'.")
        self.margin = margin

    def construct(self, logits_x1: Any, logits_x2: Any, labels: Any) -> Tensor:
        check_is_tensor("logits_x1", logits_x1, self.cls_name)
        check_is_tensor("logits_x2", logits_x2, self.cls_name)
        check_is_tensor("labels", labels, self.cls_name)
        a, b = to_tf(logits_x1), to_tf(logits_x2)
        if a.dtype != b.dtype:
            raise TypeError(f"For '{self.cls_name}', the 'logits_x1' and 'logits_x2' must have the same dtype, but "
                            f"got {ms_dtype_name(a.dtype)} and {ms_dtype_name(b.dtype)}.")
        if not a.shape.is_compatible_with(b.shape):
            raise ValueError(f"For '{self.cls_name}', the 'logits_x1' and 'logits_x2' must have the same shape, but "
                             f"got {static_shape(a)} and {static_shape(b)}.")
        prod_sum = tf.reduce_sum(a * b, 1)
        denom = tf.sqrt(tf.reduce_sum(tf.square(a), 1)) * tf.sqrt(tf.reduce_sum(tf.square(b), 1))
        cosine = prod_sum / denom
        y = tf.cast(to_tf(labels), cosine.dtype)
        zeros = tf.zeros_like(cosine)
        pos = tf.where(tf.equal(y, 1), 1.0 - cosine, zeros)
        neg = tf.where(tf.equal(y, -1), tf.maximum(cosine - self.margin, 0.0), zeros)
        return self.get_loss(pos + neg)


class MarginRankingLoss(LossBase):
    r"""Margin ranking loss :math:`\max(0, -y (x_1 - x_2) + margin)`.

    Args:
        margin: a float. Default: ``0.0``.
        reduction: ``'mean'`` (default), ``'sum'`` or ``'none'``.

    Inputs:
        input1: a Tensor of any shape.
        input2: a Tensor of the same shape and dtype.
        target: 1 or -1, same shape and dtype.

    Raises:
        TypeError: when ``margin`` is not a float or the inputs' dtypes differ.
        ValueError: for a bad ``reduction``.

    Example:
        >>> from tfspore import nn
        >>> loss = nn.MarginRankingLoss(margin=0.1)
    """

    def __init__(self, margin: float = 0.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        validator.check_type(margin, float, "margin", self.cls_name)
        self.reduction = reduction
        self.margin = margin

    def construct(self, input1: Any, input2: Any, target: Any) -> Tensor:
        x1, x2, y = to_tf(input1), to_tf(input2), to_tf(target)
        for name, v in (("input2", x2), ("target", y)):
            if v.dtype != x1.dtype:
                raise TypeError(f"For {self.cls_name}, the {name} dtype should be equal to input1 dtype, but got "
                                f"{name} dtype:{ms_dtype_name(v.dtype)}, input1 dtype:{ms_dtype_name(x1.dtype)}.")
        x = tf.maximum(-y * (x1 - x2) + tf.cast(self.margin, x1.dtype), tf.zeros([], x1.dtype))
        return _wrap(reduce_loss(x, self.reduction))


class SoftMarginLoss(LossBase):
    r"""Two-class logistic loss :math:`\log(1 + \exp(-y x))` for targets 1 or -1.

    Args:
        reduction: ``'mean'`` (default), ``'sum'`` or ``'none'``.

    Inputs:
        logits: float predictions.
        labels: 1 or -1, same shape.

    Raises:
        ValueError: for a bad ``reduction`` (MindSpore raises it at the first call).

    Example:
        >>> from tfspore import nn
        >>> loss = nn.SoftMarginLoss()
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = _checked_reduction(self.cls_name, reduction, ("none", "mean", "sum"))

    def construct(self, logits: Any, labels: Any) -> Tensor:
        x, y = binary(logits, labels)
        z = -y * x
        loss = tf.maximum(z, 0.0) + tf.math.log1p(tf.exp(-tf.abs(z)))
        return _wrap(reduce_by(loss, self.reduction))


class MultilabelMarginLoss(LossBase):
    r"""Multi-label hinge loss: for each sample,
    :math:`\sum_{j \in T} \sum_{i \notin T} \max(0, 1 - (x_{y_j} - x_i)) / C`,
    where the target row lists the class indices :math:`T`, ended by the first -1.

    Args:
        reduction: ``'mean'`` (default), ``'sum'`` or ``'none'``.

    Inputs:
        x: float predictions of shape ``(C,)`` or ``(N, C)``.
        target: int32 class indices of the same shape, padded with -1.

    Raises:
        ValueError: for a bad ``reduction``.

    Example:
        >>> from tfspore import nn
        >>> loss = nn.MultilabelMarginLoss()
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = _checked_reduction(self.cls_name, reduction, ("none", "sum", "mean"))

    def construct(self, x: Any, target: Any) -> Tensor:
        xs, t = to_tf(x), tf.cast(to_tf(target), tf.int32)
        one_d = xs.shape.rank == 1
        if one_d:
            xs, t = xs[None], t[None]
        n_classes = tf.shape(xs)[1]
        valid = tf.math.cumprod(tf.cast(tf.not_equal(t, -1), xs.dtype), axis=1)
        safe_t = tf.where(valid > 0, t, tf.zeros_like(t))
        is_target = tf.reduce_sum(tf.one_hot(safe_t, n_classes, dtype=xs.dtype) * valid[..., None], 1) > 0
        x_t = tf.gather(xs, safe_t, batch_dims=1)
        margins = tf.nn.relu(1.0 - (x_t[:, :, None] - xs[:, None, :]))
        mask = valid[:, :, None] * tf.cast(tf.logical_not(is_target), xs.dtype)[:, None, :]
        loss = tf.reduce_sum(margins * mask, [1, 2]) / tf.cast(n_classes, xs.dtype)
        loss = reduce_by(loss, self.reduction)
        if self.reduction == "none" and one_d:
            loss = loss[0]
        return _wrap(loss)
