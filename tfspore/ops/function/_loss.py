"""Loss functions (``ops.cross_entropy``, ``ops.nll_loss``, ``ops.mse_loss``, ...) with MindSpore's formulas.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> float(ops.mse_loss(Tensor(np.array([1.0, 3.0], np.float32)), Tensor(np.array([1.0, 1.0], np.float32))))
    2.0
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal import validator as V
from tfspore._internal.reduction import reduce_by
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function._utils import binary, ms_dtype_of, to_float, to_tf

__all__ = [
    "cross_entropy", "nll_loss", "mse_loss", "l1_loss", "smooth_l1_loss", "binary_cross_entropy_with_logits",
    "binary_cross_entropy", "kl_div", "cosine_embedding_loss", "softmax_cross_entropy",
    "sparse_softmax_cross_entropy", "sigmoid_cross_entropy", "l2_loss",
]


# ---------------------------------------------------------------------------- losses
def _weighted_reduce(x: tf.Tensor, reduction: str, weights: Any = None) -> tf.Tensor:
    dt = x.dtype
    xf = tf.cast(x, tf.float32)
    if weights is not None:
        xf = xf * tf.cast(weights, tf.float32)
    return tf.cast(reduce_by(xf, reduction), dt)


def mse_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:  # noqa: A002
    """Mean squared error ``(input - target) ** 2`` with 'mean', 'sum' or 'none' reduction."""
    V.check_string(reduction, ("none", "mean", "sum"), "reduction", "mse_loss")
    a, b = binary("mse_loss", input, target)
    return _wrap(_weighted_reduce(tf.square(a - b), reduction))


def l1_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:  # noqa: A002
    """Mean absolute error ``|input - target|`` with 'mean', 'sum' or 'none' reduction."""
    V.check_string(reduction, ("none", "mean", "sum"), "reduction", "l1_loss")
    a, b = binary("l1_loss", input, target)
    return _wrap(_weighted_reduce(tf.abs(a - b), reduction))


def smooth_l1_loss(input: Any, target: Any, beta: float = 1.0, reduction: str = "none") -> Tensor:  # noqa: A002
    """Smooth L1: ``0.5 d^2 / beta`` where ``|d| < beta``, ``|d| - 0.5 beta`` elsewhere."""
    V.check_string(reduction, ("none", "mean", "sum"), "reduction", "smooth_l1_loss")
    if beta <= 0:
        raise ValueError(f"For 'smooth_l1_loss', the 'beta' must be positive, but got {beta}.")
    a, b = binary("smooth_l1_loss", input, target)
    d = tf.abs(a - b)
    bt = tf.cast(beta, d.dtype)
    loss = tf.where(d < bt, 0.5 * d * d / bt, d - 0.5 * bt)
    return _wrap(_weighted_reduce(loss, reduction))


def binary_cross_entropy_with_logits(input: Any, target: Any, weight: Any = None, pos_weight: Any = None,  # noqa: A002
                                     reduction: str = "mean") -> Tensor:
    """Sigmoid + binary cross entropy, computed stably, with optional ``weight`` and ``pos_weight``."""
    V.check_string(reduction, ("none", "mean", "sum"), "reduction", "binary_cross_entropy_with_logits")
    x = to_tf(input, "binary_cross_entropy_with_logits", "input")
    V.check_float_dtype(x.dtype, "input", "binary_cross_entropy_with_logits")
    z = to_tf(target, "binary_cross_entropy_with_logits", "target", x.dtype)
    softplus_neg = tf.math.log1p(tf.exp(-tf.abs(x))) + tf.maximum(-x, 0)
    if pos_weight is not None:
        pw = to_tf(pos_weight, "binary_cross_entropy_with_logits", "pos_weight", x.dtype)
        lw = (pw - 1) * z + 1
        loss = (1 - z) * x + lw * softplus_neg
    else:
        loss = (1 - z) * x + softplus_neg
    if weight is not None:
        loss = loss * to_tf(weight, "binary_cross_entropy_with_logits", "weight", x.dtype)
    return _wrap(reduce_by(loss, reduction))


def binary_cross_entropy(input: Any, target: Any, weight: Any = None, reduction: str = "mean") -> Tensor:  # noqa: A002
    """Binary cross entropy of probabilities (logs clamped at ``log(1e-12)``)."""
    V.check_string(reduction, ("none", "mean", "sum"), "reduction", "binary_cross_entropy")
    x = to_tf(input, "binary_cross_entropy", "input")
    V.check_float_dtype(x.dtype, "input", "binary_cross_entropy")
    y = to_tf(target, "binary_cross_entropy", "target", x.dtype)
    eps = tf.cast(1e-12, x.dtype)
    loss = -(y * tf.math.log(tf.maximum(x, eps)) + (1 - y) * tf.math.log(tf.maximum(1 - x, eps)))
    if weight is not None:
        loss = loss * to_tf(weight, "binary_cross_entropy", "weight", x.dtype)
    return _wrap(reduce_by(loss, reduction))


def kl_div(logits: Any, labels: Any, reduction: str = "mean", log_target: bool = False) -> Tensor:
    """KL divergence ``labels * (log(labels) - logits)`` ('mean', 'sum', 'none' or 'batchmean')."""
    V.check_string(reduction, ("none", "mean", "sum", "batchmean"), "reduction", "kl_div")
    x = to_tf(logits, "kl_div", "logits")
    y = to_tf(labels, "kl_div", "labels", x.dtype)
    if log_target:
        loss = tf.exp(y) * (y - x)
    else:
        loss = tf.where(y > 0, y * (tf.math.log(tf.where(y > 0, y, tf.ones_like(y))) - x), -y * x * 0)
    if reduction == "batchmean":
        return _wrap(tf.reduce_sum(loss) / tf.cast(tf.shape(x)[0], x.dtype))
    return _wrap(reduce_by(loss, reduction))


def _nll_core(logp: tf.Tensor, target: tf.Tensor, weight: tf.Tensor | None, ignore_index: int | None,
              reduction: str, label_smoothing: float) -> tf.Tensor:
    """NLL over class dimension 1 (0 for 1-D input), MindSpore's formula (weighted mean divides by the weight sum)."""
    class_dim = 0 if logp.shape.rank == 1 else 1
    n_classes = tf.shape(logp)[class_dim]
    target = tf.cast(target, tf.int32)
    if ignore_index is not None:
        ignored = tf.equal(target, ignore_index)
        safe_t = tf.where(ignored, tf.zeros_like(target), target)
    else:
        ignored = None
        safe_t = target
    moved = logp if class_dim == logp.shape.rank - 1 else tf.experimental.numpy.moveaxis(logp, class_dim, -1)
    picked = tf.gather(moved, safe_t[..., None], batch_dims=safe_t.shape.rank)[..., 0]
    if weight is not None:
        w_t = tf.gather(weight, safe_t)
        loss = -picked * w_t
        smooth = -tf.reduce_sum(moved * weight, -1)
    else:
        w_t = tf.ones_like(picked)
        loss = -picked
        smooth = -tf.reduce_sum(moved, -1)
    if ignored is not None:
        zero = tf.zeros_like(loss)
        loss, w_t, smooth = tf.where(ignored, zero, loss), tf.where(ignored, zero, w_t), tf.where(ignored, zero, smooth)
    if reduction == "sum":
        loss, smooth = tf.reduce_sum(loss), tf.reduce_sum(smooth)
    elif reduction == "mean":
        denom = tf.reduce_sum(w_t)
        loss, smooth = tf.reduce_sum(loss) / denom, tf.reduce_sum(smooth) / denom
    if label_smoothing:
        eps_i = label_smoothing / tf.cast(n_classes, logp.dtype)
        loss = (1.0 - label_smoothing) * loss + eps_i * smooth
    return loss


def _check_ce_args(op: str, ignore_index: Any, reduction: Any, label_smoothing: Any) -> None:
    V.check_int(ignore_index, "ignore_index", op)
    V.check_string(reduction, ("none", "mean", "sum"), "reduction", op)
    V.check_float_range(label_smoothing, "label_smoothing", op, 0.0, 1.0)


def nll_loss(inputs: Any, target: Any, weight: Any = None, ignore_index: int = -100, reduction: str = "mean",
             label_smoothing: float = 0.0) -> Tensor:
    """Negative log-likelihood of log-probabilities ``inputs`` (class dimension 1) at ``target`` indices.

    Args:
        inputs: ``(N, C)``, ``(C,)`` or ``(N, C, d1, ...)`` log-probabilities.
        target: class indices ``(N,)`` / ``()`` / ``(N, d1, ...)``.
        weight: per-class weights ``(C,)``.
        ignore_index: a target value that contributes nothing.
        reduction: 'mean' (divided by the sum of the weights), 'sum' or 'none'.
        label_smoothing: in [0, 1].

    Returns:
        Tensor: the loss.
    """
    _check_ce_args("nll_loss", ignore_index, reduction, label_smoothing)
    x = to_tf(inputs, "nll_loss", "inputs")
    V.check_float_dtype(x.dtype, "inputs", "nll_loss")
    t = to_tf(target, "nll_loss", "target")
    w = None if weight is None else to_tf(weight, "nll_loss", "weight", x.dtype)
    return _wrap(_nll_core(x, t, w, ignore_index, reduction, label_smoothing))


def cross_entropy(input: Any, target: Any, weight: Any = None, ignore_index: int = -100,  # noqa: A002
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """Cross entropy of logits ``input`` (class dimension 1) with class indices or class probabilities.

    Args:
        input: ``(N, C)``, ``(C,)`` or ``(N, C, d1, ...)`` logits (float).
        target: int class indices, or float probabilities shaped like ``input``.
        weight: per-class weights ``(C,)``.
        ignore_index: with class indices, a target value that contributes nothing.
        reduction: 'mean', 'sum' or 'none'.
        label_smoothing: in [0, 1].

    Returns:
        Tensor: the loss.

    Raises:
        TypeError: when ``input`` is not a float tensor.
    """
    _check_ce_args("cross_entropy", ignore_index, reduction, label_smoothing)
    x = to_tf(input, "cross_entropy", "input")
    if x.dtype not in (tf.float16, tf.float32, tf.float64):
        raise TypeError(f"For cross_entropy, the input dtype should be mstype.float64, mstype.float32 or "
                        f"mstype.float16, but got dtype:{ms_dtype_of(x)}.")
    t = to_tf(target, "cross_entropy", "target")
    class_dim = 0 if x.shape.rank == 1 else 1
    logp = x - tf.reduce_logsumexp(x, axis=class_dim, keepdims=True)
    w = None if weight is None else to_tf(weight, "cross_entropy", "weight", x.dtype)
    if t.dtype.is_floating:
        t = tf.cast(t, x.dtype)
        n_classes = tf.cast(tf.shape(x)[class_dim], x.dtype)
        if label_smoothing > 0:
            t = t * (1 - label_smoothing) + label_smoothing / n_classes
        if w is not None and x.shape.rank != 1:
            w = tf.reshape(w, [1, -1] + [1] * (x.shape.rank - 2))
        prod = logp * t * (w if w is not None else 1.0)
        if reduction == "mean":
            return _wrap(-tf.reduce_sum(prod) / (tf.cast(tf.size(x), x.dtype) / n_classes))
        if reduction == "sum":
            return _wrap(-tf.reduce_sum(prod))
        return _wrap(-tf.reduce_sum(prod, class_dim))
    return _wrap(_nll_core(logp, t, w, ignore_index, reduction, label_smoothing))


def cosine_embedding_loss(input1: Any, input2: Any, target: Any, margin: float = 0.0,
                          reduction: str = "mean") -> Tensor:
    """``1 - cos`` for target 1, ``max(0, cos - margin)`` for target -1."""
    V.check_string(reduction, ("none", "mean", "sum"), "reduction", "cosine_embedding_loss")
    a, b = binary("cosine_embedding_loss", input1, input2)
    y = to_tf(target, "cosine_embedding_loss", "target", a.dtype)
    eps = tf.cast(1e-12, a.dtype)
    cos = tf.reduce_sum(a * b, -1) / tf.sqrt(tf.reduce_sum(a * a, -1) * tf.reduce_sum(b * b, -1) + eps)
    loss = tf.where(y > 0, 1 - cos, tf.maximum(tf.zeros_like(cos), cos - margin))
    return _wrap(reduce_by(loss, reduction))


def softmax_cross_entropy(logits: Any, labels: Any) -> tuple:
    """Per-sample cross entropy of logits with probability labels, and its gradient ``softmax - labels``."""
    x = to_tf(logits, "SoftmaxCrossEntropyWithLogits", "logits")
    V.check_float_dtype(x.dtype, "logits", "SoftmaxCrossEntropyWithLogits")
    y = to_tf(labels, "SoftmaxCrossEntropyWithLogits", "labels", x.dtype)
    if not x.shape.is_compatible_with(y.shape):
        raise ValueError(f"For 'SoftmaxCrossEntropyWithLogits', the 'logits' and 'labels' must have the same shape, "
                         f"but got {tuple(x.shape.as_list())} and {tuple(y.shape.as_list())}.")
    loss = tf.nn.softmax_cross_entropy_with_logits(y, x, axis=-1)
    return _wrap(loss), _wrap(tf.nn.softmax(x, -1) - y)


def sparse_softmax_cross_entropy(logits: Any, labels: Any, is_grad: bool = False) -> Tensor:
    """Mean cross entropy of logits with int labels; with ``is_grad`` its gradient w.r.t. the logits."""
    x = to_tf(logits, "SparseSoftmaxCrossEntropyWithLogits", "logits")
    V.check_float_dtype(x.dtype, "logits", "SparseSoftmaxCrossEntropyWithLogits")
    y = to_tf(labels, "SparseSoftmaxCrossEntropyWithLogits", "labels")
    if not y.dtype.is_integer:
        raise TypeError(f"For 'SparseSoftmaxCrossEntropyWithLogits', the 'labels' must be int32 or int64, but got "
                        f"{ms_dtype_of(y)}.")
    if is_grad:
        n = tf.cast(tf.shape(x)[0], x.dtype)
        return _wrap((tf.nn.softmax(x, -1) - tf.one_hot(y, tf.shape(x)[-1], dtype=x.dtype)) / n)
    return _wrap(tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, x)))


def sigmoid_cross_entropy(logits: Any, labels: Any) -> Tensor:
    """Element-wise sigmoid cross entropy of logits (no reduction)."""
    x = to_tf(logits, "SigmoidCrossEntropyWithLogits", "logits")
    V.check_float_dtype(x.dtype, "logits", "SigmoidCrossEntropyWithLogits")
    y = to_tf(labels, "SigmoidCrossEntropyWithLogits", "labels", x.dtype)
    return _wrap(tf.nn.sigmoid_cross_entropy_with_logits(y, x))


def l2_loss(x: Any) -> Tensor:
    """``sum(x ** 2) / 2``."""
    t = to_float(to_tf(x, "L2Loss", "input"))
    return _wrap(tf.reduce_sum(tf.square(t)) / 2)
