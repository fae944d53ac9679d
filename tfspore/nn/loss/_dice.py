"""Dice losses for segmentation: ``DiceLoss`` (binary) and ``MultiClassDiceLoss``.

Both are deprecated since MindSpore 2.8.0 and log a deprecation warning once on construction, as
MindSpore does.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> loss = nn.DiceLoss(smooth=1e-5)
    >>> out = loss(Tensor(np.array([[0.1, 0.9], [0.8, 0.2]], np.float32)),
    ...            Tensor(np.array([[0, 1], [1, 0]], np.float32)))
"""
from __future__ import annotations

import logging
from typing import Any

import tensorflow as tf

from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import to_tf
from tfspore.nn.layer.activation import get_activation
from tfspore.nn.loss._base import LossBase, binary, check_is_tensor, static_shape
from tfspore.nn.metrics.dice import check_smooth

__all__ = ["DiceLoss", "MultiClassDiceLoss"]

_logger = logging.getLogger("tfspore")
_DEPRECATED: set = set()
_ACTIVATIONS = ["softmax", "logsoftmax", "relu", "relu6", "tanh", "sigmoid"]


def _warn_deprecated(name: str) -> None:
    if name not in _DEPRECATED:
        _DEPRECATED.add(name)
        _logger.warning("'%s' is deprecated from version 2.8.0 and will be removed in a future version.", name)


def _dice_loss(logits: tf.Tensor, label: tf.Tensor, smooth: float) -> tf.Tensor:
    x, y = binary(tf.reshape(logits, [-1]), tf.reshape(label, [-1]))
    intersection = tf.reduce_sum(x * y)
    unionset = tf.reduce_sum(x * x) + tf.reduce_sum(y * y)
    return 1 - 2 * intersection / (unionset + smooth)


def _same_shape_pair(logits: Any, label: Any, cls_name: str) -> tuple[tf.Tensor, tf.Tensor]:
    """Check that ``logits`` and ``label`` are Tensors of the same shape and return their tf values."""
    check_is_tensor("logits", logits, cls_name)
    check_is_tensor("labels", label, cls_name)
    x, y = to_tf(logits), to_tf(label)
    if not x.shape.is_compatible_with(y.shape):
        raise ValueError(f"For '{cls_name}', the 'logits_shape' should be = label_shape: {static_shape(y)}, "
                         f"but got {static_shape(x)}.")
    return x, y


class DiceLoss(LossBase):
    r"""Binary Dice loss :math:`1 - 2 |X \cap Y| / (|X|^2 + |Y|^2 + smooth)` over all elements.

    Args:
        smooth: a positive float added to the denominator. Default: ``1e-5``.

    Inputs:
        logits: predictions of any shape.
        labels: targets of the same shape.

    Outputs:
        A scalar Tensor.

    Raises:
        TypeError: when ``smooth`` is not a float, an input is not a Tensor, or an input is uint8.
        ValueError: when ``smooth`` is not positive or the shapes differ.

    Example:
        >>> from tfspore import nn
        >>> loss = nn.DiceLoss()
    """

    def __init__(self, smooth: float = 1e-5) -> None:
        _warn_deprecated(type(self).__name__)
        super().__init__()
        self.smooth = check_smooth(smooth, self.cls_name)

    def construct(self, logits: Any, label: Any) -> Tensor:
        x, y = _same_shape_pair(logits, label, self.cls_name)
        if x.dtype == tf.uint8:
            raise TypeError(f"For '{self.cls_name}', the dtype of 'logits' can not be uint8.")
        if y.dtype == tf.uint8:
            raise TypeError(f"For '{self.cls_name}', the dtype of 'labels' can not be uint8.")
        return _wrap(_dice_loss(x, y, self.smooth))


class MultiClassDiceLoss(LossBase):
    r"""Mean over the classes (axis 1) of the binary Dice loss, after an activation of the logits.

    Args:
        weights: None, or a 2-D Tensor whose row ``i`` scales the loss of class ``i``. Default: ``None``.
        ignore_indiex: a class index to leave out (MindSpore's spelling). Default: ``None``.
        activation: ``'softmax'`` (default), ``'logsoftmax'``, ``'relu'``, ``'relu6'``, ``'tanh'``,
            ``'sigmoid'``, a Cell, or None. The named activations act on the last axis.

    Inputs:
        logits: predictions of shape ``(N, C, *)``.
        label: one-hot targets of the same shape.

    Raises:
        TypeError: when ``weights`` is not a Tensor, ``ignore_indiex`` not an int, or ``activation``
            neither a str nor a Cell.
        ValueError: for an unknown activation name, ``weights`` that are not 2-D, inputs of rank < 2
            or of different shapes.

    Example:
        >>> from tfspore import nn
        >>> loss = nn.MultiClassDiceLoss(ignore_indiex=None, activation="softmax")
    """

    def __init__(self, weights: Tensor | None = None, ignore_indiex: int | None = None,
                 activation: Any = "softmax") -> None:
        _warn_deprecated(type(self).__name__)
        super().__init__()
        self.binarydiceloss = DiceLoss(smooth=1e-05)
        if weights is not None and not isinstance(weights, Tensor):
            raise TypeError(f"For '{self.cls_name}', the type of 'weights' should be 'Tensor', but got type "
                            f"'{type(weights).__name__}'.")
        if weights is not None and to_tf(weights).shape.rank != 2:
            raise ValueError(f"For '{self.cls_name}', the dimension of 'weights' must be 2, but got "
                             f"{to_tf(weights).shape.rank}.")
        self.weights = weights
        if ignore_indiex is not None and (isinstance(ignore_indiex, bool) or not isinstance(ignore_indiex, int)):
            raise TypeError(f"For '{self.cls_name}', the type of 'ignore_indiex' should be 'int', but got type "
                            f"'{type(ignore_indiex).__name__}'.")
        self.ignore_indiex = ignore_indiex
        if isinstance(activation, str) and activation not in _ACTIVATIONS:
            raise ValueError(f"For '{self.cls_name}', the 'activation' must be in {_ACTIVATIONS}, but got "
                             f"{activation}.")
        act = get_activation(activation) if isinstance(activation, str) else activation
        if act is not None and not isinstance(act, Cell):
            raise TypeError(f"For '{self.cls_name}', the 'activation' must be str or Cell, but got {type(act)}.")
        self.activation = act

    def construct(self, logits: Any, label: Any) -> Tensor:
        x, y = _same_shape_pair(logits, label, self.cls_name)
        if x.shape.rank < 2:
            raise ValueError(f"For '{self.cls_name}', the 'logits' dimension must be greater than 1, but got "
                             f"{x.shape.rank}.")
        if y.shape.rank < 2:
            raise ValueError(f"For '{self.cls_name}', the 'labels' dimension must be greater than 1, but got "
                             f"{y.shape.rank}.")
        if self.activation is not None:
            x = to_tf(self.activation(_wrap(x)))
        n_classes = y.shape[1]
        w = None if self.weights is None else to_tf(self.weights)
        if w is not None and w.shape[0] != n_classes:
            raise ValueError(f"For '{self.cls_name}', the weight_shape[0] must be equal to label_shape[1], but got "
                             f"weight_shape[0]: {w.shape[0]} and label_shape[1]: {n_classes}.")
        total = 0
        for i in range(n_classes):
            if i != self.ignore_indiex:
                dice = _dice_loss(x[:, i], y[:, i], 1e-05)
                if w is not None:
                    dice = dice * tf.cast(w[i], dice.dtype)
                total += dice
        return _wrap(total / n_classes)
