"""Conversions and checks shared by the ``tfspore.numpy`` modules.

Arguments come in as tfspore Tensors, Parameters, ``tf.Tensor`` values, python scalars, nested
lists/tuples or numpy arrays. They go out to TensorFlow ops as ``tf.Tensor`` values, and results
come back wrapped as tfspore Tensors. Python data follows ``mindspore.numpy``: ints become int32,
floats float32, bools bool; numpy arrays keep their dtype.
"""
from __future__ import annotations

import numbers
from typing import Any, Sequence

import numpy as onp
import tensorflow as tf

from tfspore._internal.shapes import dims
from tfspore.common import dtype as mstype
from tfspore.common.tensor import Tensor

__all__ = []

ARRAY_TYPES = (Tensor, tf.Tensor, tf.Variable, onp.ndarray, onp.generic, list, tuple, int, float, bool)
_ALL_TYPES = ("np.int_, np.int8, np.int16, np.int32, np.int64, np.uint, np.uint8, np.uint16, np.uint32, "
              "np.uint64, np.float16, np.float32, np.float64, np.bool_")
_DTYPE_NAMES = {
    "int": mstype.int32, "int8": mstype.int8, "int16": mstype.int16, "int32": mstype.int32,
    "int64": mstype.int64, "uint": mstype.uint32, "uint8": mstype.uint8, "uint16": mstype.uint16,
    "uint32": mstype.uint32, "uint64": mstype.uint64, "float": mstype.float32, "float16": mstype.float16,
    "float32": mstype.float32, "float64": mstype.float64, "bool": mstype.bool_,
}
_ALLOWED = (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8, mstype.uint16, mstype.uint32,
            mstype.uint64, mstype.float16, mstype.float32, mstype.float64, mstype.bool_)

INT_TYPES = (tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.uint16, tf.uint32, tf.uint64)
FLOAT_TYPES = (tf.float16, tf.float32, tf.float64, tf.bfloat16)


def is_tensor(x: Any) -> bool:
    """Whether ``x`` is a tensor value (tfspore Tensor or TF tensor)."""
    return isinstance(x, (Tensor, tf.Tensor, tf.Variable))


def _nested_numpy(a: Any) -> Any:
    if isinstance(a, (list, tuple)):
        return [_nested_numpy(v) for v in a]
    if isinstance(a, Tensor):
        return a.asnumpy()
    return a


def scalar_dtype(*values: Any) -> mstype.Type:
    """``mindspore.numpy``'s dtype for python numbers: bool if all are bools, int32 if all ints, else float32."""
    vals = [v for v in values if v is not None]
    if all(isinstance(v, bool) for v in vals):
        return mstype.bool_
    if all(isinstance(v, numbers.Integral) for v in vals):
        return mstype.int32
    return mstype.float32


def check_dtype(dtype: Any) -> mstype.Type:
    """Normalise a dtype argument (a MindSpore dtype, a name such as ``'float32'``, or ``int``/``float``/``bool``).

    Raises:
        TypeError: for anything else.
    """
    res = dtype
    if isinstance(dtype, str):
        res = _DTYPE_NAMES.get(dtype.lower())
    elif dtype is int:
        res = mstype.int32
    elif dtype is float:
        res = mstype.float32
    elif dtype is bool:
        res = mstype.bool_
    elif isinstance(dtype, type) and issubclass(dtype, onp.generic) or isinstance(dtype, onp.dtype):
        res = mstype.from_np_dtype(onp.dtype(dtype))
    elif isinstance(dtype, tf.DType):
        res = mstype.from_tf_dtype(dtype)
    if res not in _ALLOWED:
        raise TypeError(f"only {_ALL_TYPES} are allowed for dtype, but got {type(dtype)}")
    return res


def tf_dtype(dtype: Any) -> tf.DType:
    """The TF dtype of a dtype argument (see :func:`check_dtype`)."""
    return check_dtype(dtype).tf_dtype


def from_python(a: Any, dtype: Any = None) -> tf.Tensor:
    """Python scalars, nested lists/tuples (Tensors allowed inside) and numpy data as a ``tf.Tensor``.

    Without ``dtype``, ints give int32, floats float32 and bools bool (numpy's choice with 64-bit
    types narrowed); numpy arrays keep their dtype. A list or tuple holding Tensors while a graph is
    traced is stacked with TF ops (its values are not known yet).
    """
    tfd = None if dtype is None else tf_dtype(dtype)
    if isinstance(a, (bool, numbers.Number)) and not isinstance(a, onp.generic):
        if isinstance(a, complex):
            raise TypeError(f"input data must be `int`, `float`, `bool`, `Tensor`, `list`, `tuple`, but got "
                            f"{type(a)}")
        return tf.constant(a, dtype=tfd or scalar_dtype(a).tf_dtype)
    if isinstance(a, (list, tuple)) and a and _has_symbolic(a):
        t = tf.stack(promote_all([to_tf(v) for v in a]))
        return t if tfd is None or t.dtype == tfd else tf.cast(t, tfd)
    if isinstance(a, (list, tuple)):
        arr = onp.asarray(_nested_numpy(a))
        if arr.dtype == object:
            raise ValueError("Input array must have the same size across all dimensions.")
        if tfd is None:
            if arr.dtype == onp.float64:
                arr = arr.astype(onp.float32)
            elif arr.dtype == onp.int64:
                arr = arr.astype(onp.int32)
            elif arr.dtype.kind not in "biuf":
                raise TypeError(f"For Tensor conversion, the input_data is {a} that contains unsupported element.")
        return tf.constant(arr if tfd is None else arr.astype(tfd.as_numpy_dtype))
    if isinstance(a, (onp.ndarray, onp.generic)):
        arr = onp.asarray(a)
        if arr.dtype.kind not in "biuf":
            raise TypeError(f"For Tensor conversion, the input_data is {a} that contains unsupported element.")
        return tf.constant(arr if tfd is None else arr.astype(tfd.as_numpy_dtype))
    raise TypeError(f"input data must be `int`, `float`, `bool`, `Tensor`, `list`, `tuple`, but got {type(a)}")


def _has_symbolic(a: Any) -> bool:
    if isinstance(a, (list, tuple)):
        return any(_has_symbolic(v) for v in a)
    return is_tensor(a) and not tf.executing_eagerly()


def to_tf(x: Any, dtype: tf.DType | None = None) -> tf.Tensor:
    """Any array-like argument as a ``tf.Tensor`` (Tensors keep their dtype unless ``dtype`` is given)."""
    if isinstance(x, (Tensor, tf.Tensor, tf.Variable)):
        t = tf.convert_to_tensor(x)
    else:
        t = from_python(x)
    if dtype is not None and t.dtype != dtype:
        t = tf.cast(t, dtype)
    return t


def check_tensor(api: str, *xs: Any) -> None:
    """Raise TypeError unless every argument is a Tensor (for APIs that take only tensors)."""
    for x in xs:
        if not is_tensor(x):
            raise TypeError(f"For '{api}', expect Tensor, but got {type(x).__name__}: {x!r}")


def static_shape(t: tf.Tensor) -> tuple:
    """The static shape; raises for an unknown rank."""
    return tuple(t.shape.as_list())


shape_of = dims  # the name the numpy modules use


def broadcast_shape(*ts: tf.Tensor) -> Any:
    """The broadcast shape of tensors: a list of ints when static, a shape tensor otherwise.

    Raises:
        ValueError: when the static shapes cannot broadcast.
    """
    static = tf.TensorShape([])
    for t in ts:
        static = tf.broadcast_static_shape(static, t.shape)
    if static.is_fully_defined():
        return static.as_list()
    dyn = tf.shape(ts[0])
    for t in ts[1:]:
        dyn = tf.broadcast_dynamic_shape(dyn, tf.shape(t))
    return dyn


def check_shape(shape: Any) -> tuple:
    """A shape argument (int, list, tuple or Tensor) as a tuple of non-negative ints."""
    if isinstance(shape, Tensor):
        shape = shape.asnumpy().tolist()
    if isinstance(shape, (numbers.Integral,)) and not isinstance(shape, bool):
        shape = (int(shape),)
    if not isinstance(shape, (list, tuple)):
        raise TypeError(f"only int, tuple, list and tensor are allowed for shape, but got {type(shape)}")
    out = []
    for s in shape:
        if not isinstance(s, (numbers.Integral,)) or isinstance(s, bool):
            raise TypeError(f"each entry in shape should be int, but got {shape!r}.")
        if s < 0:
            raise ValueError(f"each entry in shape should no less than 0, but got {shape!r}.")
        out.append(int(s))
    return tuple(out)


def check_axis_in_range(axis: Any, ndim: int) -> int:
    """One axis as a non-negative int, with MindSpore's errors."""
    if not isinstance(axis, numbers.Integral) or isinstance(axis, bool):
        raise TypeError(f"axes should be integers, not {type(axis)}")
    if not -ndim <= axis < max(ndim, 1) or (ndim == 0 and axis not in (0, -1)):
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return int(axis) % ndim if ndim else 0


def canonicalize_axis(axis: Any, ndim: int) -> Any:
    """An int axis as an int in ``[0, ndim)``; a sequence as a sorted tuple; duplicates raise ValueError."""
    if isinstance(axis, (list, tuple)):
        res = tuple(check_axis_in_range(a, ndim) for a in axis)
        if len(set(res)) != len(res):
            raise ValueError(f"duplicate axes in {axis}.")
        return tuple(sorted(res))
    return check_axis_in_range(axis, ndim)


def axis_tuple(axis: Any, ndim: int) -> tuple | None:
    """An axis argument (None, int or sequence) as None or a sorted tuple of non-negative ints."""
    if axis is None:
        return None
    ax = canonicalize_axis(axis, ndim)
    return ax if isinstance(ax, tuple) else (ax,)


_PROMOTION_ORDER = {
    tf.bool: 0, tf.uint8: 1, tf.int8: 1, tf.uint16: 2, tf.int16: 2, tf.uint32: 3, tf.int32: 3, tf.uint64: 4,
    tf.int64: 4, tf.float16: 5, tf.bfloat16: 5, tf.float32: 6, tf.float64: 7,
}
_MIXED_INT = {
    (tf.uint8, tf.int8): tf.int16, (tf.uint8, tf.int16): tf.int16, (tf.uint8, tf.int32): tf.int32,
    (tf.uint8, tf.int64): tf.int64, (tf.uint16, tf.int8): tf.int32, (tf.uint16, tf.int16): tf.int32,
    (tf.uint16, tf.int32): tf.int32, (tf.uint16, tf.int64): tf.int64, (tf.uint32, tf.int8): tf.int64,
    (tf.uint32, tf.int16): tf.int64, (tf.uint32, tf.int32): tf.int64, (tf.uint32, tf.int64): tf.int64,
    (tf.uint64, tf.int8): tf.float64, (tf.uint64, tf.int16): tf.float64, (tf.uint64, tf.int32): tf.float64,
    (tf.uint64, tf.int64): tf.float64, (tf.uint16, tf.float64): tf.float32,
}


def promote_types(d1: tf.DType, d2: tf.DType) -> tf.DType:
    """``mindspore.numpy``'s promotion of two dtypes (its ``promotion_rule`` table)."""
    if d1 == d2:
        return d1
    for key in ((d1, d2), (d2, d1)):
        if key in _MIXED_INT:
            return _MIXED_INT[key]
    if d1 == tf.bool:
        return d2
    if d2 == tf.bool:
        return d1
    f1, f2 = d1 in FLOAT_TYPES, d2 in FLOAT_TYPES
    if f1 != f2:
        return d1 if f1 else d2
    return d1 if _PROMOTION_ORDER[d1] >= _PROMOTION_ORDER[d2] else d2


def promote_all(ts: Sequence[tf.Tensor]) -> list:
    """Cast tensors to their common promoted dtype."""
    dt = ts[0].dtype
    for t in ts[1:]:
        dt = promote_types(dt, t.dtype)
    return [t if t.dtype == dt else tf.cast(t, dt) for t in ts]


_TRIG = {tf.float16: tf.float16, tf.float32: tf.float32, tf.float64: tf.float64, tf.int8: tf.float16,
         tf.uint8: tf.float16, tf.bool: tf.float16}


def binary_op(fn: Any, x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``fn(x1, x2)`` on the operands promoted to their common dtype, cast to ``dtype`` when one is given."""
    a, b = promote_all([to_tf(x1), to_tf(x2)])
    return Tensor(apply_dtype(fn(a, b), dtype))


def float_for_trig(dt: tf.DType) -> tf.DType:
    """The float dtype ``mindspore.numpy`` computes float functions of ``dt`` in (its trigonometric rule)."""
    return _TRIG.get(dt, tf.float32)


def to_float(t: tf.Tensor) -> tf.Tensor:
    """Integer and bool tensors as float32; float tensors unchanged."""
    return t if t.dtype in FLOAT_TYPES else tf.cast(t, tf.float32)


def apply_dtype(t: tf.Tensor, dtype: Any) -> tf.Tensor:
    """Cast a result to ``dtype`` when one is given."""
    if dtype is None:
        return t
    d = tf_dtype(dtype)
    return t if t.dtype == d else tf.cast(t, d)
