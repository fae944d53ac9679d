"""The loss Primitives of ``mindspore.ops.operations.nn_ops`` (``SoftmaxCrossEntropyWithLogits`` ... ``NLLLoss``).

MindSpore's import path for them is ``tfspore.ops.operations.nn_ops`` (and ``tfspore.ops``).
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal import validator as V
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function import nn_func as N
from tfspore.ops.function import _loss as LS
from tfspore.ops.function._utils import to_tf
from tfspore.ops.operations.array_ops import OneHot, TopK  # noqa: F401  (MindSpore lists them in nn_ops too)
from tfspore.ops.primitive import Primitive, prim_attr_register


# ---------------------------------------------------------------------------- losses
class SoftmaxCrossEntropyWithLogits(Primitive):
    """Per-sample cross entropy of ``(logits, labels)`` (probabilities); returns ``(loss, dlogits)``."""

    @prim_attr_register
    def __init__(self) -> None:
        pass

    def __call__(self, logits: Any, labels: Any) -> tuple:
        return N.softmax_cross_entropy(logits, labels)


class SparseSoftmaxCrossEntropyWithLogits(Primitive):
    """Mean cross entropy of logits with int labels (its gradient w.r.t. the logits with ``is_grad``).

    Args:
        is_grad: return the gradient instead of the loss.
    """

    @prim_attr_register
    def __init__(self, is_grad: bool = False) -> None:
        V.check_bool(is_grad, "is_grad", "SparseSoftmaxCrossEntropyWithLogits")

    def __call__(self, logits: Any, labels: Any) -> Tensor:
        return N.sparse_softmax_cross_entropy(logits, labels, self.is_grad)


class _Reduction(Primitive):
    @prim_attr_register
    def __init__(self, reduction: str = "mean") -> None:
        V.check_string(reduction, ("none", "mean", "sum"), "reduction", self.name)


class BCEWithLogitsLoss(_Reduction):
    """Binary cross entropy with logits: ``(logits, label, weight, pos_weight)``.

    Args:
        reduction: 'mean', 'sum' or 'none'.
    """

    def __call__(self, logits: Any, label: Any, weight: Any = None, pos_weight: Any = None) -> Tensor:
        return N.binary_cross_entropy_with_logits(logits, label, weight, pos_weight, self.reduction)


class BinaryCrossEntropy(_Reduction):
    """Binary cross entropy of probabilities: ``(logits, labels, weight)``.

    Args:
        reduction: 'mean', 'sum' or 'none'.
    """

    def __call__(self, logits: Any, labels: Any, weight: Any = None) -> Tensor:
        return N.binary_cross_entropy(logits, labels, weight, self.reduction)


class KLDivLoss(_Reduction):
    """KL divergence ``labels * (log(labels) - logits)``: ``(logits, labels)``.

    Args:
        reduction: 'mean', 'sum', 'none' or 'batchmean'.
    """

    @prim_attr_register
    def __init__(self, reduction: str = "mean") -> None:
        V.check_string(reduction, ("none", "mean", "sum", "batchmean"), "reduction", "KLDivLoss")

    def __call__(self, logits: Any, labels: Any) -> Tensor:
        return N.kl_div(logits, labels, self.reduction)


class SmoothL1Loss(Primitive):
    """Smooth L1 loss of ``(logits, labels)``.

    Args:
        beta: the threshold between the quadratic and linear parts.
        reduction: 'none', 'mean' or 'sum'.
    """

    @prim_attr_register
    def __init__(self, beta: float = 1.0, reduction: str = "none") -> None:
        V.check_number(beta, "beta", "SmoothL1Loss")
        V.check_string(reduction, ("none", "mean", "sum"), "reduction", "SmoothL1Loss")

    def __call__(self, logits: Any, labels: Any) -> Tensor:
        return N.smooth_l1_loss(logits, labels, self.beta, self.reduction)


class NLLLoss(Primitive):
    """Negative log-likelihood of ``(logits, labels, weight)``; returns ``(loss, total_weight)``.

    Args:
        reduction: 'mean', 'sum' or 'none'.
        ignore_index: a label value that contributes nothing.
    """

    @prim_attr_register
    def __init__(self, reduction: str = "mean", ignore_index: int = -100) -> None:
        V.check_string(reduction, ("none", "mean", "sum"), "reduction", "NLLLoss")
        V.check_int(ignore_index, "ignore_index", "NLLLoss")

    def __call__(self, logits: Any, labels: Any, weight: Any) -> tuple:
        x = to_tf(logits, "NLLLoss", "logits")
        t = tf.cast(to_tf(labels, "NLLLoss", "labels"), tf.int32)
        w = to_tf(weight, "NLLLoss", "weight", x.dtype)
        loss = LS._nll_core(x, t, w, self.ignore_index, self.reduction, 0.0)
        wt = tf.where(tf.equal(t, self.ignore_index), tf.zeros([], x.dtype),
                      tf.gather(w, tf.where(tf.equal(t, self.ignore_index), 0, t)))
        return _wrap(loss), _wrap(tf.reduce_sum(wt))
