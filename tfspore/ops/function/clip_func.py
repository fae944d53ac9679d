"""Clipping (``ops.clamp``, ``ops.clip_by_value``, ``ops.clip_by_global_norm``).

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> ops.clamp(Tensor(np.array([-2.0, 0.5, 3.0], np.float32)), -1, 1).asnumpy()
    array([-1. ,  0.5,  1. ], dtype=float32)
"""
from __future__ import annotations

import numbers
from typing import Any

import tensorflow as tf

from tfspore._internal import validator as V
from tfspore._internal.tensor_wrap import result_dtype as _result_dtype, wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function._utils import binary, to_float, to_tf

__all__ = [
    "clamp", "clip", "clip_by_value", "clip_by_global_norm",
]


# ---------------------------------------------------------------------------- clipping
def _bound(x: Any, ref: tf.Tensor, op: str, arg: str) -> tf.Tensor:
    if isinstance(x, (Tensor, tf.Tensor, tf.Variable)):
        return to_tf(x, op, arg)
    _, v = binary(op, Tensor._from_tf(ref), x)
    return v


def clamp(input: Any, min: Any = None, max: Any = None) -> Tensor:  # noqa: A001,A002
    """Clamp values to ``[min, max]``; an integer input with float bounds gives float32.

    Args:
        input: the tensor.
        min: the lower bound (number or Tensor), or None.
        max: the upper bound (number or Tensor), or None.

    Returns:
        Tensor: the clamped values.

    Raises:
        ValueError: when both bounds are None.
    """
    if min is None and max is None:
        raise ValueError("For 'clamp', at least one of 'min' and 'max' must not be None, but got min=None and "
                         "max=None.")
    t = to_tf(input, "clamp", "input")
    lo = _bound(min, t, "clamp", "min") if min is not None else None
    hi = _bound(max, t, "clamp", "max") if max is not None else None
    dt = t.dtype
    for b in (lo, hi):
        if b is not None and b.dtype != dt:
            dt = _result_dtype(dt, b.dtype)
    t = tf.cast(t, dt)
    if lo is not None:
        t = tf.maximum(t, tf.cast(lo, dt))
    if hi is not None:
        t = tf.minimum(t, tf.cast(hi, dt))
    return _wrap(t)


clip = clamp


def clip_by_value(x: Any, clip_value_min: Any = None, clip_value_max: Any = None) -> Any:
    """Clamp a tensor, or each tensor of a list or tuple, to ``[clip_value_min, clip_value_max]``."""
    if isinstance(x, (list, tuple)):
        return type(x)(clamp(t, clip_value_min, clip_value_max) for t in x)
    return clamp(x, clip_value_min, clip_value_max)


def clip_by_global_norm(x: Any, clip_norm: Any = 1.0, use_norm: Any = None) -> tuple:
    """Scale a tuple of tensors so that their global L2 norm is at most ``clip_norm``.

    Args:
        x: a tuple or list of tensors.
        clip_norm: the maximum global norm (> 0).
        use_norm: accepted for compatibility; must be None.

    Returns:
        tuple: the clipped tensors.

    Raises:
        TypeError: when ``x`` is not a tuple or list.
        ValueError: when ``clip_norm`` is not positive.
    """
    if isinstance(x, Tensor):
        x = (x,)
    if not isinstance(x, (list, tuple)):
        raise TypeError(f"For 'clip_by_global_norm', the 'x' must be a tuple or list of Tensors, but got "
                        f"{type(x).__name__}.")
    if isinstance(clip_norm, numbers.Number):
        V.check_number(clip_norm, "clip_norm", "clip_by_global_norm")
        if clip_norm <= 0:
            raise ValueError(f"For 'clip_by_global_norm', the 'clip_norm' must be greater than 0, but got "
                             f"{clip_norm}.")
    ts = [to_float(to_tf(t, "clip_by_global_norm", f"x[{i}]")) for i, t in enumerate(x)]
    gn = tf.sqrt(tf.add_n([tf.reduce_sum(tf.square(tf.cast(t, tf.float32))) for t in ts]))
    cn = tf.cast(to_tf(clip_norm, "clip_by_global_norm", "clip_norm"), tf.float32)
    scale = cn / tf.maximum(gn, cn)
    return tuple(_wrap(t * tf.cast(scale, t.dtype)) for t in ts)
