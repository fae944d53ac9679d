"""Conversion helpers shared by the functional ops (tfspore values in, TF values out and back)."""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as V
from tfspore.common import dtype as mstype
from tfspore._internal.tensor_wrap import check_broadcast as broadcast_check
from tfspore._internal.tensor_wrap import (as_tf as _as_tf, promote as _promote,  # noqa: F401
                                           result_dtype as _result_dtype, wrap as _wrap, wrap_nest as _wrap_nest)
from tfspore.common.tensor import Tensor  # noqa: F401

__all__ = []

_INTLIKE = (tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.uint16, tf.uint32, tf.uint64, tf.bool)


def to_tf(x: Any, op: str = "op", arg: str = "input", dtype: tf.DType | None = None) -> tf.Tensor:
    """Convert an op argument to a ``tf.Tensor``, raising TypeError that names ``op`` and ``arg``."""
    if isinstance(x, Tensor):
        v = x._value()
        if isinstance(v, tf.Variable):
            v = v.value() if dtype is None or v.dtype == dtype else tf.cast(v, dtype)
            return v
        return v if dtype is None or v.dtype == dtype else tf.cast(v, dtype)
    if isinstance(x, (tf.Tensor, tf.Variable)):
        return _as_tf(x, dtype)
    V.check_tensor_like(x, arg, op)
    try:
        return _as_tf(x, dtype)
    except (ValueError, TypeError) as e:
        raise TypeError(f"For '{op}', the '{arg}' could not be converted to a Tensor: {x!r} ({e}).") from None


def to_float(t: tf.Tensor) -> tf.Tensor:
    """Cast integer and bool tensors to float32 (MindSpore's float-only math ops do the same)."""
    return tf.cast(t, tf.float32) if t.dtype in _INTLIKE else t


def tf_dtype(dtype: Any, op: str, arg: str = "dtype") -> tf.DType:
    """Return the TF dtype of a MindSpore dtype argument."""
    if isinstance(dtype, tf.DType):
        return dtype
    return mstype.as_ms_dtype(dtype, op, arg).tf_dtype


def static_shape(t: tf.Tensor) -> list:
    """The static shape as a list (None for unknown dims)."""
    return t.shape.as_list() if t.shape.rank is not None else None


def arg_extreme(fn: Any, api: str, x: Any, axis: int | None, axis_name: str, keep: bool,
                out_type: tf.DType) -> tf.Tensor:
    """``fn`` (``tf.argmax`` or ``tf.argmin``) of ``x`` along ``axis`` (of the flattened tensor when None),
    with the reduced axis kept as length 1 when ``keep``."""
    t = to_tf(x, api, "input")
    if axis is None:
        out = fn(tf.reshape(t, [-1]), output_type=out_type)
        return tf.reshape(out, [1] * t.shape.rank) if keep else out
    a = V.check_axis(axis, axis_name, api, t.shape.rank)
    out = fn(t, axis=a, output_type=out_type)
    return tf.expand_dims(out, a) if keep else out


def norm_axis(op: str, arg: str, axis: Any, rank: int | None, allow_none: bool = True) -> Any:
    """Normalise an axis argument (None, int, tuple/list, Tensor) to None or a tuple of ints in [0, rank)."""
    if axis is None:
        if not allow_none:
            raise TypeError(f"For '{op}', the '{arg}' must be an int or a tuple of ints, but got None.")
        return None
    if isinstance(axis, Tensor):
        axis = axis.asnumpy().tolist()
    if isinstance(axis, np.ndarray):
        axis = axis.tolist()
    if isinstance(axis, (numbers.Integral,)) and not isinstance(axis, bool):
        return (V.check_axis(int(axis), arg, op, rank),)
    if isinstance(axis, (list, tuple)):
        return V.check_axes(axis, arg, op, rank)
    raise TypeError(f"For '{op}', the '{arg}' must be an int, a tuple or a list of ints, but got "
                    f"{type(axis).__name__}: {axis!r}.")


def shape_arg(op: str, arg: str, shape: Any) -> Any:
    """Normalise a shape argument (int, tuple/list of ints or scalar Tensors, 1-D Tensor) for TF."""
    if isinstance(shape, Tensor):
        return tf.cast(shape._value(), tf.int64) if shape.ndim == 1 else tf.reshape(shape._value(), [-1])
    if isinstance(shape, (tf.Tensor, tf.Variable)):
        return shape
    if isinstance(shape, numbers.Integral) and not isinstance(shape, bool):
        return [int(shape)]
    if isinstance(shape, (list, tuple)):
        out = []
        dynamic = False
        for s in shape:
            if isinstance(s, (bool, np.bool_)):
                raise TypeError(f"For '{op}', the elements of '{arg}' must be int, but got {shape!r}.")
            if isinstance(s, numbers.Integral):
                out.append(int(s))
            elif isinstance(s, (Tensor, tf.Tensor)):
                out.append(tf.cast(tf.reshape(to_tf(s), []), tf.int32))
                dynamic = True
            else:
                raise TypeError(f"For '{op}', the elements of '{arg}' must be int, but got {shape!r}.")
        if dynamic:
            return tf.stack([tf.constant(v, tf.int32) if isinstance(v, int) else v for v in out]) if out else []
        return out
    raise TypeError(f"For '{op}', the '{arg}' must be a tuple or list of ints, but got "
                    f"{type(shape).__name__}: {shape!r}.")


def scalar_value(x: Any) -> Any:
    """A python scalar from a number, 0-d numpy array or eager 0-d Tensor; the tf value otherwise."""
    if isinstance(x, (numbers.Number, np.generic)):
        return x
    if isinstance(x, Tensor):
        return x._value()
    return x


def binary(op: str, a: Any, b: Any) -> tuple[tf.Tensor, tf.Tensor]:
    """Convert two operands with MindSpore's promotion rules, raising errors that name ``op``."""
    V.check_tensor_like(a, "input", op)
    V.check_tensor_like(b, "other", op)
    ta, tb = _promote(a, b)
    if ta.dtype != tb.dtype:
        dt = _result_dtype(ta.dtype, tb.dtype)
        ta, tb = tf.cast(ta, dt), tf.cast(tb, dt)
    return ta, tb


def check_broadcast(op: str, a: tf.Tensor, b: tf.Tensor) -> None:
    """Raise ValueError when two static shapes cannot broadcast."""
    broadcast_check(op, a, b, ("x", "y"))


def ms_dtype_of(t: tf.Tensor) -> mstype.Type:
    """The MindSpore dtype of a TF tensor."""
    return mstype.from_tf_dtype(t.dtype)


def pair(op: str, arg: str, v: Any, allow4: bool = True) -> tuple[int, int]:
    """An int or a tuple of 2 (or 4, NCHW-style) ints as a pair ``(h, w)``."""
    if isinstance(v, numbers.Integral) and not isinstance(v, bool):
        return int(v), int(v)
    vals = V.check_int_tuple(v, arg, op)
    if len(vals) == 2:
        return vals
    if len(vals) == 4 and allow4:
        return vals[2], vals[3]
    raise ValueError(f"For '{op}', the '{arg}' must be an int or a tuple of 2{' or 4' if allow4 else ''} ints, but "
                     f"got {v!r}.")


def positive_pair(op: str, arg: str, v: Any, allow4: bool = True) -> tuple[int, int]:
    """Like :func:`pair`, requiring positive values."""
    p = pair(op, arg, v, allow4)
    if p[0] <= 0 or p[1] <= 0:
        raise ValueError(f"For '{op}', the '{arg}' must be positive, but got {v!r}.")
    return p


def pads4(op: str, pad: Any) -> tuple[int, int, int, int]:
    """An int or a 4-tuple ``(top, bottom, left, right)`` of non-negative paddings."""
    if isinstance(pad, numbers.Integral) and not isinstance(pad, bool):
        vals = (int(pad),) * 4
    else:
        vals = V.check_int_tuple(pad, "pad", op)
        if len(vals) != 4:
            raise ValueError(f"For '{op}', the 'pad' must be an int or a tuple of 4 ints, but got {pad!r}.")
    if min(vals) < 0:
        raise ValueError(f"For '{op}', the 'pad' must be non-negative, but got {pad!r}.")
    return vals
