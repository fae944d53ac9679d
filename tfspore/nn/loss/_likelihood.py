"""Likelihood and margin losses added in MindSpore 2.x: ``FocalLoss``, ``MultiLabelSoftMarginLoss``,
``MultiMarginLoss``, ``TripletMarginLoss``, ``HingeEmbeddingLoss``, ``PoissonNLLLoss`` and
``GaussianNLLLoss``, with PyTorch's formulas as MindSpore implements them.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> loss = nn.HingeEmbeddingLoss(margin=1.0)
    >>> float(loss(Tensor(np.array([0.3, 2.0], np.float32)), Tensor(np.array([1.0, -1.0], np.float32))))
    0.15
"""
from __future__ import annotations

import math
from typing import Any

import tensorflow as tf

from tfspore._internal import validator
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.layer._utils import to_tf
from tfspore.nn.layer.activation import LogSoftmax
from tfspore.nn.loss._base import LossBase, check_is_tensor, reduce_by

__all__ = ["FocalLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss", "TripletMarginLoss", "HingeEmbeddingLoss",
           "PoissonNLLLoss", "GaussianNLLLoss", "TripletMarginWithDistanceLoss"]


class FocalLoss(LossBase):
    """The focal loss ``-(1 - p_t) ** gamma * log(p_t)`` over the softmax of axis 1.

    ``labels`` are either class indices with a size-1 axis 1, or one-hot / soft labels of the logits'
    shape; the per-class ``weight`` multiplies the log-probabilities. The loss is averaged over axis 1
    (or the class axis), then reduced.

    Args:
        weight: None or a 1-D Tensor of per-class weights.
        gamma: the focusing exponent (a float).
        reduction: ``'mean'``, ``'sum'`` or ``'none'``.

    Inputs:
        logits: a float Tensor ``(N, C)`` or ``(N, C, *)``.
        labels: an int or float Tensor ``(N, 1, *)`` or of the logits' shape.

    Outputs:
        The reduced loss.

    Raises:
        TypeError: for a non-float ``gamma`` or a non-Tensor ``weight``.
        ValueError: for a ``weight`` that is not 1-D, or mismatched ranks or shapes.

    Example:
        >>> FocalLoss(gamma=2.0).gamma
        2.0
    """

    def __init__(self, weight: Any = None, gamma: float = 2.0, reduction: str = "mean") -> None:
        super().__init__(reduction=reduction)
        self.gamma = validator.check_type(gamma, [float], "gamma", self.cls_name)
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError(f"For '{self.cls_name}', the type of 'weight' must be a Tensor, but got "
                            f"{type(weight).__name__}.")
        if isinstance(weight, Tensor) and len(weight.shape) != 1:
            raise ValueError(f"For '{self.cls_name}', the dimension of 'weight' must be 1, but got "
                             f"{len(weight.shape)}.")
        self.weight = weight
        self.logsoftmax = LogSoftmax(1)

    def construct(self, logits: Any, labels: Any) -> Tensor:
        name = self.cls_name
        check_is_tensor("logits", logits, name)
        check_is_tensor("labels", labels, name)
        x, y = to_tf(logits), to_tf(labels)
        if x.shape.rank != y.shape.rank:
            raise ValueError(f"For '{name}', 'logits' dimension must be equal to 'labels' dimension, but got 'logits' "
                             f"dimension: {x.shape.rank}, 'labels' dimension: {y.shape.rank}.")
        index_labels = y.shape[1] == 1
        if not index_labels and y.shape[1] != x.shape[1]:
            raise ValueError(f"For '{name}', the 'labels' channel must be 1 or equal to the 'logits' channel "
                             f"{x.shape[1]}, but got {y.shape[1]}.")
        if y.dtype not in (tf.int32, tf.float32, tf.float16):
            raise TypeError(f"For '{name}', the dtype of 'labels' must be int32, float16 or float32, but got "
                            f"{y.dtype.name}.")
        n, c = tf.shape(x)[0], tf.shape(x)[1]
        x = tf.reshape(x, [n, c, -1])
        y = tf.reshape(y, [n, tf.shape(y)[1], -1])
        log_p = to_tf(self.logsoftmax(_wrap(x)))
        if index_labels:
            idx = tf.cast(y[:, 0], tf.int32)  # (N, L)
            log_p = tf.gather(tf.transpose(log_p, [0, 2, 1]), idx, axis=2, batch_dims=2)  # (N, L)
        prob = tf.exp(log_p)
        if self.weight is not None:
            w = tf.cast(to_tf(self.weight), log_p.dtype)
            log_p = log_p * (tf.gather(w, idx) if index_labels else w[None, :, None])
        focus = tf.pow(1.0 - prob, self.gamma)
        if index_labels:
            loss = tf.reduce_mean(-focus * log_p, axis=1)
        else:
            loss = tf.reduce_mean(-focus * tf.cast(y, log_p.dtype) * log_p, axis=-1)
        return self.get_loss(_wrap(loss))


class MultiLabelSoftMarginLoss(LossBase):
    """``-mean_c w_c * (y log sigmoid(x) + (1 - y) log sigmoid(-x))`` per sample, then reduced.

    Args:
        weight: None or per-class weights ``(C,)``.
        reduction: ``'mean'``, ``'sum'`` or ``'none'``.

    Inputs:
        x: a float Tensor ``(N, C)``.
        target: a Tensor of 0/1 labels of the same shape.

    Outputs:
        The reduced loss.

    Example:
        >>> MultiLabelSoftMarginLoss().reduction
        'mean'
    """

    def __init__(self, weight: Any = None, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.weight = weight
        self.reduction = reduction

    def construct(self, x: Any, target: Any) -> Tensor:
        v = to_tf(x)
        y = tf.cast(to_tf(target), v.dtype)
        loss = -(y * tf.math.log_sigmoid(v) + (1.0 - y) * tf.math.log_sigmoid(-v))
        if self.weight is not None:
            loss = loss * tf.cast(to_tf(self.weight), v.dtype)
        return _wrap(reduce_by(tf.reduce_mean(loss, axis=-1), self.reduction))


class MultiMarginLoss(LossBase):
    """``sum_{i != y} w_y * max(0, margin - x_y + x_i) ** p / C`` per sample, then reduced.

    Args:
        p: 1 or 2.
        margin: the margin.
        reduction: ``'mean'``, ``'sum'`` or ``'none'``.
        weight: None or per-class weights ``(C,)``.

    Inputs:
        x: a float Tensor ``(N, C)``.
        target: int class indices ``(N,)``.
        weight: per-class weights, when not given at construction.

    Outputs:
        The reduced loss.

    Raises:
        ValueError: for ``p`` other than 1 or 2, or a bad ``reduction``.

    Example:
        >>> MultiMarginLoss(p=2).p
        2
    """

    def __init__(self, p: int = 1, margin: float = 1.0, reduction: str = "mean", weight: Any = None) -> None:
        super().__init__()
        if p not in (1, 2) or isinstance(p, bool):
            raise ValueError(f"For 'MultiMarginLoss', the 'p' must be 1 or 2, but got {p!r}.")
        validator.check_type(margin, [int, float], "margin", "MultiMarginLoss")
        self.p, self.margin = p, float(margin)
        self.reduction = validator.check_string(reduction, ("mean", "sum", "none"), "reduction", "MultiMarginLoss")
        self.weight = weight

    def construct(self, x: Any, target: Any, weight: Any = None) -> Tensor:
        check_is_tensor("x", x, self.cls_name)
        check_is_tensor("target", target, self.cls_name)
        v = to_tf(x)
        t = tf.cast(to_tf(target), tf.int32)
        w = self.weight if self.weight is not None else weight
        picked = tf.gather(v, t, axis=1, batch_dims=1)[:, None]
        hinge = tf.maximum(self.margin - picked + v, 0.0)
        if self.p == 2:
            hinge = tf.square(hinge)
        if w is not None:
            hinge = hinge * tf.gather(tf.cast(to_tf(w), v.dtype), t)[:, None]
        not_target = 1.0 - tf.one_hot(t, tf.shape(v)[1], dtype=v.dtype)
        loss = tf.reduce_sum(hinge * not_target, axis=1) / tf.cast(tf.shape(v)[1], v.dtype)
        return _wrap(reduce_by(loss, self.reduction))


class TripletMarginLoss(LossBase):
    """``max(d(a, p) - d(a, n) + margin, 0)`` with ``d(u, v) = ||u - v + eps||_p`` over the last axis.

    Args:
        p: the norm degree.
        swap: use ``min(d(a, n), d(p, n))`` as the negative distance.
        eps: added to the differences.
        reduction: ``'mean'``, ``'sum'`` or ``'none'``.
        margin: the margin (overrides the call's ``margin`` when not 1.0).

    Inputs:
        x: the anchors ``(N, D)``.
        positive: ``(N, D)``.
        negative: ``(N, D)``.
        margin: the margin.

    Outputs:
        The reduced loss.

    Example:
        >>> TripletMarginLoss().p
        2
    """

    def __init__(self, p: int = 2, swap: bool = False, eps: float = 1e-06, reduction: str = "mean",
                 margin: float = 1.0) -> None:
        super().__init__()
        self.p, self.swap, self.eps, self.margin = p, swap, eps, margin
        self.reduction = validator.check_string(reduction, ("mean", "sum", "none"), "reduction", "TripletMarginLoss")

    def _dist(self, a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
        d = tf.abs(a - b + self.eps)
        return tf.pow(tf.reduce_sum(tf.pow(d, float(self.p)), axis=-1), 1.0 / self.p)

    def construct(self, x: Any, positive: Any, negative: Any, margin: Any = 1.0) -> Tensor:
        if self.margin != 1.0:
            margin = self.margin
        a, pos, neg = to_tf(x), to_tf(positive), to_tf(negative)
        d_ap, d_an = self._dist(a, pos), self._dist(a, neg)
        if self.swap:
            d_an = tf.minimum(d_an, self._dist(pos, neg))
        loss = tf.maximum(d_ap - d_an + tf.cast(to_tf(margin), a.dtype), 0.0)
        return _wrap(reduce_by(loss, self.reduction))


class HingeEmbeddingLoss(LossBase):
    """``x`` where the label is 1 and ``max(0, margin - x)`` where it is -1, then reduced.

    Args:
        margin: the margin.
        reduction: ``'mean'``, ``'sum'`` or ``'none'``.

    Inputs:
        logits: a float Tensor.
        labels: 1 or -1, of the same shape.

    Outputs:
        The reduced loss.

    Raises:
        TypeError: when ``margin`` is not a number.
        ValueError: for a bad ``reduction``.

    Example:
        >>> HingeEmbeddingLoss(2.0).margin
        2.0
    """

    def __init__(self, margin: float = 1.0, reduction: str = "mean") -> None:
        super().__init__()
        validator.check_type(margin, [float, int], "margin", self.cls_name)
        self.margin = margin
        self.reduction = validator.check_string(reduction, ("mean", "sum", "none"), "reduction", self.cls_name)

    def construct(self, logits: Any, labels: Any) -> Tensor:
        v = to_tf(logits)
        y = tf.cast(to_tf(labels), v.dtype)
        pos = tf.where(tf.equal(y, 1.0), v, tf.zeros_like(v))
        neg = tf.where(tf.equal(y, -1.0), tf.maximum(self.margin - v, 0.0), tf.zeros_like(v))
        return _wrap(reduce_by(pos + neg, self.reduction))


class PoissonNLLLoss(LossBase):
    """The Poisson negative log-likelihood: ``exp(x) - y * x`` (``log_input``) or ``x - y * log(x + eps)``,
    plus Stirling's approximation of ``log(y!)`` for ``y > 1`` when ``full``.

    Args:
        log_input: whether the input is a log-rate.
        full: add the Stirling term.
        eps: added inside the log when ``log_input`` is False.
        reduction: ``'mean'``, ``'sum'`` or ``'none'``.

    Inputs:
        input: the (log-)rates.
        target: the counts.

    Outputs:
        The reduced loss.

    Example:
        >>> PoissonNLLLoss(full=True).full
        True
    """

    def __init__(self, log_input: bool = True, full: bool = False, eps: float = 1e-08, reduction: str = "mean") -> None:
        super().__init__(reduction=reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def construct(self, input: Any, target: Any) -> Tensor:  # noqa: A002
        check_is_tensor("input", input, self.cls_name)
        check_is_tensor("target", target, self.cls_name)
        x = to_tf(input)
        y = tf.cast(to_tf(target), x.dtype)
        loss = tf.exp(x) - y * x if self.log_input else x - y * tf.math.log(x + self.eps)
        if self.full:
            t = tf.maximum(y, self.eps)
            stirling = (t + 0.5) * tf.math.log(t) - t + 0.5 * math.log(2 * math.pi)
            loss = loss + tf.where(t > 1, stirling, tf.zeros_like(stirling))
        return self.get_loss(_wrap(loss))


class GaussianNLLLoss(LossBase):
    """The Gaussian negative log-likelihood ``0.5 * (log(var) + (x - y) ** 2 / var)`` (``var`` clamped to ``eps``),
    plus ``0.5 * log(2 pi)`` when ``full``.

    Args:
        full: add the constant term.
        eps: the lower bound of ``var``.
        reduction: ``'mean'``, ``'sum'`` or ``'none'``.

    Inputs:
        logits: the predicted means.
        labels: the targets.
        var: the predicted variances (broadcast to ``logits``; a last axis of 1 is allowed).

    Outputs:
        The reduced loss.

    Raises:
        ValueError: for a non-positive ``eps`` or a bad ``reduction``.
        TypeError: when ``full`` is not a bool.

    Example:
        >>> GaussianNLLLoss(full=True).full
        True
    """

    def __init__(self, *, full: bool = False, eps: float = 1e-6, reduction: str = "mean") -> None:
        super().__init__()
        if not eps > 0 or math.isinf(eps):
            raise ValueError(f"For '{self.cls_name}', the 'eps' must be in range of (0, inf), but got {eps}.")
        validator.check_type(full, [bool], "full", self.cls_name)
        self.full, self.eps = full, eps
        self.reduction = validator.check_string(reduction, ("mean", "sum", "none"), "reduction", "gaussian_nll_loss")

    def construct(self, logits: Any, labels: Any, var: Any) -> Tensor:
        for arg, value in (("logits", logits), ("labels", labels), ("var", var)):
            check_is_tensor(arg, value, self.cls_name)
        x = to_tf(logits)
        y = tf.cast(to_tf(labels), x.dtype)
        v = tf.maximum(tf.cast(to_tf(var), x.dtype), self.eps)
        loss = 0.5 * (tf.math.log(v) + tf.square(x - y) / v)
        if self.full:
            loss = loss + 0.5 * math.log(2 * math.pi)
        return _wrap(reduce_by(loss, self.reduction))


def _pairwise_distance(x: Any, y: Any) -> Tensor:
    """The L2 norm of ``|x - y|`` over axis 1 (MindSpore's default distance of TripletMarginWithDistanceLoss)."""
    d = tf.abs(to_tf(x) - to_tf(y))
    if d.shape.rank == 0:
        raise ValueError("For 'pairwise_distance' in 'TripletMarginWithDistanceLoss', 'ndim' of the input must be "
                         f"positive, but got {d.shape.rank}")
    return _wrap(tf.norm(d, ord=2, axis=1))


class TripletMarginWithDistanceLoss(LossBase):
    """``max(d(x, positive) - d(x, negative) + margin, 0)`` with a given distance function, then reduced.

    Args:
        distance_function: a callable ``(a, b) -> distances``; None uses the L2 distance over axis 1.
        swap: use ``min(d(x, negative), d(positive, negative))`` as the negative distance.
        reduction: ``'mean'``, ``'sum'`` or ``'none'``.
        margin: the margin (a float).

    Inputs:
        x: the anchors.
        positive: the positives.
        negative: the negatives.

    Outputs:
        The reduced loss.

    Raises:
        TypeError: when ``margin`` is not a float or ``swap`` not a bool.

    Example:
        >>> TripletMarginWithDistanceLoss(margin=0.5).margin
        0.5
    """

    def __init__(self, distance_function: Any = None, swap: bool = False, reduction: str = "mean",
                 margin: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        if not isinstance(margin, float):
            raise TypeError(f"For '{self.cls_name}', the type of 'margin' must be float, but got "
                            f"{type(margin).__name__}.")
        validator.check_bool(swap, "swap", self.cls_name)
        self.distance_function = _pairwise_distance if distance_function is None else distance_function
        self.swap, self.reduction, self.margin = swap, reduction, margin

    def construct(self, x: Any, positive: Any, negative: Any) -> Tensor:
        for arg, value in (("x", x), ("positive", positive), ("negative", negative)):
            check_is_tensor(arg, value, self.cls_name)
        d1 = to_tf(self.distance_function(x, positive))
        d2 = to_tf(self.distance_function(x, negative))
        if self.swap:
            d2 = tf.minimum(d2, to_tf(self.distance_function(positive, negative)))
        return self.get_loss(_wrap(tf.maximum(d1 - d2 + self.margin, 0.0)))
