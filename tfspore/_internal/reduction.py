"""The ``reduction`` argument of losses ('mean', 'sum', 'none') applied to a tensor of losses.

The loss functions of ``ops`` and the loss Cells of ``nn`` reduce the same way; the one
function here does it for both.
"""
from __future__ import annotations

import tensorflow as tf

__all__ = ["reduce_by"]


def reduce_by(x: tf.Tensor, reduction: str) -> tf.Tensor:
    """``x`` averaged (``'mean'``) or summed (``'sum'``) in its own dtype; ``x`` itself for ``'none'``.

    Example:
        >>> float(reduce_by(tf.constant([1.0, 3.0]), "mean"))
        2.0
    """
    if reduction == "mean":
        return tf.reduce_mean(x)
    if reduction == "sum":
        return tf.reduce_sum(x)
    return x
