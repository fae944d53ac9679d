"""The vector norms that need no power: orders inf, -inf and 0.

``Tensor.norm``, ``ops.norm`` and ``numpy.norm`` differ in MindSpore in how they treat the other
orders (dtypes, the 1- and 2-norm special cases), but agree on these three, computed here once.
"""
from __future__ import annotations

import math
from typing import Any, Optional

import tensorflow as tf

__all__ = ["max_min_count_norm"]


def max_min_count_norm(t: tf.Tensor, ord_: Any, axis: Any, keepdims: bool) -> Optional[tf.Tensor]:
    """The largest ``|t|`` (ord inf), the smallest (ord -inf) or the count of non-zeros (ord 0, in
    ``t``'s dtype) over ``axis``; None for any other order.

    Example:
        >>> float(max_min_count_norm(tf.constant([3., -4., 0.]), math.inf, None, False))
        4.0
    """
    if ord_ is None or isinstance(ord_, str):
        return None
    if ord_ == math.inf:
        return tf.reduce_max(tf.abs(t), axis=axis, keepdims=keepdims)
    if ord_ == -math.inf:
        return tf.reduce_min(tf.abs(t), axis=axis, keepdims=keepdims)
    if ord_ == 0:
        return tf.reduce_sum(tf.cast(tf.not_equal(t, 0), t.dtype), axis=axis, keepdims=keepdims)
    return None
