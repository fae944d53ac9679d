"""Regression losses: ``MSELoss``, ``L1Loss``, ``SmoothL1Loss``, ``HuberLoss``, ``RMSELoss``, ``MAELoss``.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> print(nn.HuberLoss()(Tensor(np.array([1.0, 2.0, 3.0], np.float32)),
    ...                      Tensor(np.array([1.0, 2.0, 2.0], np.float32))))
    0.16666667
"""
from __future__ import annotations

import numbers
from typing import Any

import tensorflow as tf

from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.layer._utils import to_tf
from tfspore.nn.loss._base import LossBase, binary, check_is_tensor, reduce_by, reduce_loss

__all__ = ["MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "RMSELoss", "MAELoss"]


def _tensor_pair(logits: Any, labels: Any, cls_name: str) -> tuple[tf.Tensor, tf.Tensor]:
    """Check that both inputs are Tensors and return them promoted to one dtype (see :func:`binary`)."""
    check_is_tensor("logits", logits, cls_name)
    check_is_tensor("labels", labels, cls_name)
    return binary(logits, labels)


class MSELoss(LossBase):
    r"""Mean squared error :math:`(x - y)^2` with the reduction.

    Args:
        reduction: ``'mean'`` (default), ``'sum'`` or ``'none'``.

    Inputs:
        logits: the predictions, a Tensor of any shape.
        labels: the targets, broadcastable with ``logits``.

    Raises:
        ValueError: for a bad ``reduction``.
        TypeError: at call time, when an input is not a Tensor.

    Example:
        >>> import numpy as np
        >>> from tfspore import nn, Tensor
        >>> print(nn.MSELoss()(Tensor(np.array([1, 2, 3], np.float32)), Tensor(np.array([1, 1, 1], np.float32))))
        1.6666666
    """

    def construct(self, logits: Any, labels: Any) -> Tensor:
        a, b = _tensor_pair(logits, labels, self.cls_name)
        return self.get_loss(tf.square(a - b))


class L1Loss(LossBase):
    r"""Mean absolute error :math:`|x - y|` with the reduction.

    Args:
        reduction: ``'mean'`` (default), ``'sum'`` or ``'none'``.

    Inputs:
        logits: the predictions, a Tensor of any shape.
        labels: the targets, broadcastable with ``logits``.

    Raises:
        ValueError: for a bad ``reduction``.

    Example:
        >>> import numpy as np
        >>> from tfspore import nn, Tensor
        >>> print(nn.L1Loss()(Tensor(np.array([1, 2, 3], np.float32)), Tensor(np.array([1, 2, 2], np.float32))))
        0.33333334
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.reduction = reduction

    def construct(self, logits: Any, labels: Any) -> Tensor:
        a, b = _tensor_pair(logits, labels, self.cls_name)
        return _wrap(reduce_loss(tf.abs(a - b), self.reduction))


class MAELoss(LossBase):
    r"""Mean absolute error :math:`|x - y|` through ``get_loss`` (so an optional ``weights`` input applies).

    Args:
        reduction: ``'mean'`` (default), ``'sum'`` or ``'none'``.

    Inputs:
        logits: the predictions.
        label: the targets, broadcastable with ``logits``.

    Raises:
        ValueError: for a bad ``reduction``.
        TypeError: at call time, when an input is not a Tensor.

    Example:
        >>> from tfspore import nn
        >>> loss = nn.MAELoss(reduction='sum')
    """

    def construct(self, logits: Any, label: Any) -> Tensor:
        a, b = _tensor_pair(logits, label, self.cls_name)
        return self.get_loss(tf.abs(a - b))


class RMSELoss(LossBase):
    r"""Root mean squared error :math:`\sqrt{\mathrm{mean}((x - y)^2)}` (always reduced).

    Inputs:
        logits: the predictions.
        label: the targets, broadcastable with ``logits``.

    Raises:
        TypeError: when an input has an unsigned integer dtype.

    Example:
        >>> from tfspore import nn
        >>> loss = nn.RMSELoss()
    """

    def __init__(self) -> None:
        super().__init__()
        self.MSELoss = MSELoss()

    def construct(self, logits: Any, label: Any) -> Tensor:
        for v in (logits, label):
            dt = to_tf(v).dtype
            if dt.is_unsigned:
                raise TypeError(f"For 'RMSELoss', the parameters data type must not be in [mindspore.uint8, "
                                f"mindspore.uint16, mindspore.uint32, mindspore.uint64], but got mindspore.{dt.name}.")
        return _wrap(tf.sqrt(tf.convert_to_tensor(self.MSELoss(logits, label))))


def _check_smooth_l1_beta(beta: Any) -> float:
    if not isinstance(beta, (bool, numbers.Real)):
        raise TypeError(f"For 'SmoothL1Loss', the type of 'beta' should be one of '[bool, int, float]', but got "
                        f"{type(beta)}.")
    beta = float(beta)
    if beta < 0:
        raise RuntimeError(f"For 'SmoothL1Loss', the values for beta not support negative values, but got {beta:g}.")
    if beta == 0:
        raise RuntimeError(f"For 'SmoothL1Loss', the values for beta should greater than 0, but got {beta:g}.")
    return beta


class SmoothL1Loss(LossBase):
    r"""Smooth L1: :math:`0.5 d^2 / \beta` where :math:`|d| < \beta`, else :math:`|d| - 0.5 \beta`.

    Args:
        beta: the threshold between the squared and the linear part (> 0). Default: ``1.0``.
        reduction: ``'none'`` (default), ``'mean'`` or ``'sum'``.

    Inputs:
        logits: the predictions (float).
        labels: the targets, same shape and dtype as ``logits``.

    Raises:
        TypeError: when ``beta`` is not a number.
        RuntimeError: when ``beta`` is not positive (MindSpore raises it at the first call).
        ValueError: for a bad ``reduction``.

    Example:
        >>> import numpy as np
        >>> from tfspore import nn, Tensor
        >>> print(nn.SmoothL1Loss()(Tensor(np.array([1, 2, 3], np.float32)), Tensor(np.array([1, 2, 2], np.float32))))
        [0.  0.  0.5]
    """

    def __init__(self, beta: float = 1.0, reduction: str = "none") -> None:
        super().__init__(reduction)
        self.beta = beta
        self.reduction = reduction
        self._beta = _check_smooth_l1_beta(beta)

    def construct(self, logits: Any, labels: Any) -> Tensor:
        a, b = binary(logits, labels)
        d = tf.abs(a - b)
        bt = tf.cast(self._beta, d.dtype)
        loss = tf.where(d < bt, 0.5 * d * d / bt, d - 0.5 * bt)
        return _wrap(reduce_by(loss, self.reduction))


class HuberLoss(LossBase):
    r"""Huber loss: :math:`0.5 d^2` where :math:`|d| < \delta`, else :math:`\delta (|d| - 0.5 \delta)`.

    Args:
        reduction: ``'mean'`` (default), ``'sum'`` or ``'none'``.
        delta: the threshold between the squared and the linear part (> 0). Default: ``1.0``.

    Inputs:
        logits: the predictions (float).
        labels: the targets, broadcastable with ``logits``.

    Raises:
        TypeError: when ``delta`` is not an int or float.
        ValueError: when ``delta`` is not positive (MindSpore raises it at the first call), or for a
            bad ``reduction``.

    Example:
        >>> import numpy as np
        >>> from tfspore import nn, Tensor
        >>> print(nn.HuberLoss(delta=0.5)(Tensor(np.array([1, 2, 3], np.float32)),
        ...                               Tensor(np.array([1, 2, 1], np.float32))))
        0.29166666
    """

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        if isinstance(delta, bool) or not isinstance(delta, (int, float)):
            raise TypeError(f"For 'HuberLoss', the type of 'delta' should be one of '['int', 'float']', but got type "
                            f"'{type(delta).__name__}'.")
        if not delta > 0:
            raise ValueError(f"For 'HuberLoss', the argument 'delta' must > 0.0, but got {delta}.")
        self.reduction = reduction
        self.delta = delta

    def construct(self, logits: Any, labels: Any) -> Tensor:
        a, b = _tensor_pair(logits, labels, self.cls_name)
        z = tf.abs(a - b)
        delta = tf.cast(self.delta, z.dtype)
        loss = tf.where(z < delta, 0.5 * tf.square(z), delta * (z - 0.5 * delta))
        return _wrap(reduce_loss(loss, self.reduction))
