"""``mindspore.numpy`` comparisons and logic: ``equal``, ``less``..., ``isnan``/``isinf``/``isfinite``,
``isclose``, ``logical_*``, ``in1d``/``isin``, ``setdiff1d``, ``array_equal``/``array_equiv``, ``signbit``,
``sometrue`` and ``isscalar``.
"""
from __future__ import annotations

from typing import Any, Callable

import tensorflow as tf

from tfspore.common import dtype as mstype
from tfspore.common.tensor import Tensor
from tfspore.numpy import _utils as U

__all__ = ["not_equal", "less_equal", "less", "greater_equal", "greater", "equal", "isfinite", "isnan", "isinf",
           "isposinf", "isneginf", "isscalar", "logical_and", "logical_not", "logical_or", "logical_xor", "in1d",
           "isin", "isclose", "signbit", "sometrue", "array_equal", "array_equiv", "setdiff1d"]


_compare = U.binary_op


def not_equal(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``x1 != x2`` element-wise (both must be Tensors)."""
    U.check_tensor("not_equal", x1, x2)
    return _compare(tf.not_equal, x1, x2, dtype)


def less_equal(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``x1 <= x2`` element-wise (both must be Tensors)."""
    U.check_tensor("less_equal", x1, x2)
    return _compare(tf.less_equal, x1, x2, dtype)


def less(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``x1 < x2`` element-wise."""
    return _compare(tf.less, x1, x2, dtype)


def greater_equal(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``x1 >= x2`` element-wise."""
    return _compare(tf.greater_equal, x1, x2, dtype)


def greater(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``x1 > x2`` element-wise."""
    return _compare(tf.greater, x1, x2, dtype)


def equal(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``x1 == x2`` element-wise."""
    return _compare(tf.equal, x1, x2, dtype)


def _unary_bool(fn: Callable, x: Any, dtype: Any, non_float: bool = False) -> Tensor:
    """``fn(x)`` on a float tensor; on any other dtype every element answers ``non_float``."""
    t = U.to_tf(x)
    res = fn(t) if t.dtype.is_floating else (tf.ones_like if non_float else tf.zeros_like)(t, tf.bool)
    return Tensor(U.apply_dtype(res, dtype))


def isfinite(x: Any, dtype: Any = None) -> Tensor:
    """Whether each element is finite (integers always are)."""
    return _unary_bool(tf.math.is_finite, x, dtype, non_float=True)


def isnan(x: Any, dtype: Any = None) -> Tensor:
    """Whether each element is NaN."""
    return _unary_bool(tf.math.is_nan, x, dtype)


def isinf(x: Any, dtype: Any = None) -> Tensor:
    """Whether each element is positive or negative infinity."""
    return _unary_bool(tf.math.is_inf, x, dtype)


def isposinf(x: Any) -> Tensor:
    """Whether each element is positive infinity."""
    U.check_tensor("isposinf", x)
    return _unary_bool(lambda t: tf.logical_and(tf.math.is_inf(t), t > 0), x, None)


def isneginf(x: Any) -> Tensor:
    """Whether each element is negative infinity."""
    return _unary_bool(lambda t: tf.logical_and(tf.math.is_inf(t), t < 0), x, None)


def isscalar(element: Any) -> bool:
    """Whether ``element`` is a python scalar (int, float, bool or str), not a Tensor."""
    return isinstance(element, (int, float, bool, str, complex)) and not U.is_tensor(element)


def logical_and(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Element-wise logical AND (of bool tensors)."""
    return _compare(lambda a, b: tf.logical_and(tf.cast(a, tf.bool), tf.cast(b, tf.bool)), x1, x2, dtype)


def logical_or(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Element-wise logical OR."""
    return _compare(lambda a, b: tf.logical_or(tf.cast(a, tf.bool), tf.cast(b, tf.bool)), x1, x2, dtype)


def logical_xor(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Element-wise logical XOR (both must be Tensors)."""
    U.check_tensor("logical_xor", x1, x2)
    return _compare(lambda a, b: tf.math.logical_xor(tf.cast(a, tf.bool), tf.cast(b, tf.bool)), x1, x2, dtype)


def logical_not(a: Any, dtype: Any = None) -> Tensor:
    """Element-wise logical NOT."""
    t = U.to_tf(a)
    return Tensor(U.apply_dtype(tf.logical_not(tf.cast(t, tf.bool)), dtype))


def isclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    """Whether ``|a - b| <= atol + rtol * |b|`` element-wise (NaNs equal when ``equal_nan``)."""
    x, y = U.promote_all([U.to_tf(a), U.to_tf(b)])
    shp = U.broadcast_shape(x, y)
    x, y = tf.broadcast_to(x, shp), tf.broadcast_to(y, shp)
    if not x.dtype.is_floating:
        return Tensor(tf.abs(tf.cast(x, tf.float64) - tf.cast(y, tf.float64)) <= atol + rtol * tf.abs(
            tf.cast(y, tf.float64)))
    close = tf.logical_or(tf.equal(x, y), tf.abs(x - y) <= tf.cast(atol, x.dtype) + tf.cast(rtol, x.dtype) * tf.abs(y))
    close = tf.logical_and(close, tf.logical_not(tf.logical_or(tf.math.is_nan(x), tf.math.is_nan(y))))
    if equal_nan:
        close = tf.logical_or(close, tf.logical_and(tf.math.is_nan(x), tf.math.is_nan(y)))
    return Tensor(close)


def in1d(ar1: Any, ar2: Any, invert: bool = False) -> Tensor:
    """Whether each element of the flattened ``ar1`` is in ``ar2``."""
    a, b = U.promote_all([tf.reshape(U.to_tf(ar1), [-1]), tf.reshape(U.to_tf(ar2), [-1])])
    res = tf.reduce_any(tf.equal(a[:, None], b[None, :]), axis=-1)
    return Tensor(tf.logical_not(res) if invert else res)


def isin(element: Any, test_elements: Any, invert: bool = False) -> Tensor:
    """Whether each element of ``element`` is in ``test_elements``; shaped like ``element``."""
    e = U.to_tf(element)
    return Tensor(tf.reshape(U.to_tf(in1d(e, test_elements, invert)), tf.shape(e)))


def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Tensor:
    """The sorted unique values of ``ar1`` that are not in ``ar2`` (``ar1``'s values as given when
    ``assume_unique``)."""
    a = tf.reshape(U.to_tf(ar1), [-1])
    b = tf.reshape(U.to_tf(ar2), [-1])
    if not assume_unique:
        a = tf.sort(tf.unique(a)[0])
    a2, b2 = U.promote_all([a, b])
    keep = tf.logical_not(tf.reduce_any(tf.equal(a2[:, None], b2[None, :]), axis=-1))
    return Tensor(tf.boolean_mask(a, keep))


def array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> Tensor:
    """True when both have the same shape and elements (a 0-D bool Tensor).

    Raises:
        TypeError: for a non-bool ``equal_nan``.
    """
    if not isinstance(equal_nan, bool):
        raise TypeError(f"equal_nan must be bool, but got {type(equal_nan)}")
    x, y = U.to_tf(a1), U.to_tf(a2)
    if x.shape.as_list() != y.shape.as_list():
        return Tensor(tf.constant(False))
    x, y = U.promote_all([x, y])
    eq = tf.equal(x, y)
    if equal_nan and x.dtype.is_floating:
        eq = tf.logical_or(eq, tf.logical_and(tf.math.is_nan(x), tf.math.is_nan(y)))
    return Tensor(tf.reduce_all(eq))


def array_equiv(a1: Any, a2: Any) -> Tensor:
    """True when the inputs broadcast to one shape and are equal there."""
    x, y = U.to_tf(a1), U.to_tf(a2)
    try:
        tf.broadcast_static_shape(x.shape, y.shape)
    except ValueError:
        return Tensor(tf.constant(False))
    x, y = U.promote_all([x, y])
    return Tensor(tf.reduce_all(tf.equal(x, y)))


def signbit(x: Any, dtype: Any = None) -> Tensor:
    """Whether each element is negative.

    Raises:
        TypeError: for a ``dtype`` other than bool.
    """
    if dtype is not None and U.check_dtype(dtype) is not mstype.bool_:
        raise TypeError(f"Casting was not allowed for signbit, but got dtype {dtype}.")
    t = U.to_tf(x)
    return Tensor(t < tf.zeros_like(t))


def sometrue(a: Any, axis: Any = None, keepdims: Any = False) -> Tensor:
    """Whether any element over ``axis`` is non-zero.

    Raises:
        TypeError: for a non-int ``keepdims``.
    """
    if not isinstance(keepdims, int):
        raise TypeError(f"integer argument expected, but got {type(keepdims)}")
    t = U.to_tf(a)
    ax = U.axis_tuple(axis, t.shape.rank)
    nz = tf.not_equal(t, tf.zeros_like(t))
    return Tensor(tf.reduce_any(nz, axis=None if ax is None else list(ax), keepdims=keepdims not in (0, False)))
