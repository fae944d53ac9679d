"""The base class and shared argument helpers of the Tensor method mixins (``_tensor_math``,
``_tensor_reduce``, ``_tensor_shape``); ``_tensor_methods`` combines the mixins.

The helpers accept both of MindSpore 2.10's spellings of an argument (the legacy numpy-like
``axis``/``keepdims`` and the torch-like ``dim``/``keepdim``).
"""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore.common import dtype as mstype
from tfspore.common._tensor_promote import is_ms_tensor, kind_of

_MISSING = object()


def _axes(axis: Any, api: str) -> Any:
    """Normalise a reduction axis: None, an int, or a tuple of ints (an empty one means all)."""
    if axis is None:
        return None
    if is_ms_tensor(axis):
        axis = axis.asnumpy().tolist()
    if isinstance(axis, (list, tuple)):
        if not all(isinstance(a, (numbers.Integral, np.integer)) and not isinstance(a, bool) for a in axis):
            raise TypeError(f"For '{api}', the 'axis' must be an int or a tuple of ints, but got {axis!r}.")
        return tuple(int(a) for a in axis) or None
    if isinstance(axis, (numbers.Integral, np.integer)) and not isinstance(axis, bool):
        return int(axis)
    raise TypeError(f"For '{api}', the 'axis' must be None, an int or a tuple of ints, but got {axis!r}.")


def _pick(api: str, name: str, value: Any, alt_name: str, alt: Any, default: Any) -> Any:
    """Merge a legacy argument with its torch-style alias (``axis``/``dim``, ``keepdims``/``keepdim``)."""
    if alt is not _MISSING and alt is not None:
        return alt
    return default if value is _MISSING else value


def _shape_args(args: tuple, api: str) -> Any:
    """``f(2, 3)``, ``f((2, 3))``, ``f([2, 3])`` or ``f(Tensor)`` -> a list or tensor shape."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    elif len(args) == 1 and is_ms_tensor(args[0]):
        return args[0]._value()
    out = []
    for a in args:
        if is_ms_tensor(a):
            a = a._value()
        elif not isinstance(a, (numbers.Integral, np.integer, tf.Tensor)) or isinstance(a, bool):
            raise TypeError(f"For '{api}', the shape must be ints, but got {args!r}.")
        out.append(a)
    return out


def _float_input(v: tf.Tensor) -> tf.Tensor:
    """Integer and bool inputs of float functions (sqrt, exp...) compute in Float32."""
    return tf.cast(v, tf.float32) if kind_of(v.dtype) < 2 else v


def _tf_dt(dtype: Any, api: str) -> tf.DType:
    return mstype.as_ms_dtype(dtype, api, "dtype").tf_dtype


class MethodBase:
    """The host class supplies ``_value`` (the TF value) and ``_wrap_tf`` (wrap a result)."""

    __slots__ = ()

    def _v(self) -> tf.Tensor:
        v = self._value()
        return v if isinstance(v, tf.Tensor) else tf.convert_to_tensor(v)
