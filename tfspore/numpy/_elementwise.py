"""Element-wise math of ``mindspore.numpy.math_ops``: arithmetic, powers, exponentials, logarithms, rounding,
trigonometric and bitwise functions, and dtype promotion helpers.

Python scalars are converted as ``mindspore.numpy`` does (ints to int32, floats to float32) before
two operands are promoted with its promotion table. Every function takes an optional ``dtype`` that casts the result.
"""
from __future__ import annotations

import math
from typing import Any, Callable

import tensorflow as tf

from tfspore.common import dtype as mstype
from tfspore.common.tensor import Tensor
from tfspore.numpy import _utils as U

__all__ = ["add", "subtract", "multiply", "divide", "true_divide", "power", "float_power", "absolute", "positive",
           "negative", "square", "sqrt", "cbrt", "reciprocal", "exp", "expm1", "exp2", "log", "log1p", "log2",
           "log10", "logaddexp", "logaddexp2", "minimum", "maximum", "heaviside", "hypot", "floor", "ceil",
           "trunc", "fix", "rint", "around", "sign", "copysign", "floor_divide", "remainder", "fmod", "divmod_",
           "clip", "deg2rad", "rad2deg", "radians", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh",
           "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "arctan2", "gcd", "lcm", "bitwise_and", "bitwise_or",
           "bitwise_xor", "invert", "promote_types", "result_type"]


def _out(t: tf.Tensor, dtype: Any) -> Tensor:
    return Tensor(U.apply_dtype(t, dtype))


_binary = U.binary_op


def _float_unary(fn: Callable, x: Any, dtype: Any) -> Tensor:
    return _out(fn(U.to_float(U.to_tf(x))), dtype)


def _trig_unary(fn: Callable, x: Any, dtype: Any, api: str) -> Tensor:
    U.check_tensor(api, x)
    t = U.to_tf(x)
    return _out(fn(tf.cast(t, U.float_for_trig(t.dtype))), dtype)


def add(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``x1 + x2`` element-wise (broadcast; dtypes promoted)."""
    return _binary(tf.add, x1, x2, dtype)


def subtract(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``x1 - x2`` element-wise."""
    return _binary(tf.subtract, x1, x2, dtype)


def multiply(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``x1 * x2`` element-wise."""
    return _binary(tf.multiply, x1, x2, dtype)


def divide(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """True division; when neither operand is float16/float32 both are computed in float32."""
    a, b = U.to_tf(x1), U.to_tf(x2)
    if a.dtype not in (tf.float16, tf.float32) and b.dtype not in (tf.float16, tf.float32):
        a, b = tf.cast(a, tf.float32), tf.cast(b, tf.float32)
    a, b = U.promote_all([a, b])
    return _out(tf.math.divide(a, b), dtype)


def true_divide(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Same as :func:`divide`."""
    return divide(x1, x2, dtype)


def power(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``x1 ** x2`` element-wise."""
    return _binary(tf.pow, x1, x2, dtype)


def float_power(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``x1 ** x2`` computed in float32."""
    return _out(tf.pow(U.to_tf(x1, tf.float32), U.to_tf(x2, tf.float32)), dtype)


def absolute(x: Any, dtype: Any = None) -> Tensor:
    """``|x|`` element-wise."""
    t = U.to_tf(x)
    return _out(t if t.dtype == tf.bool or t.dtype.is_unsigned else tf.abs(t), dtype)


def positive(a: Any, dtype: Any = None) -> Tensor:
    """``+a`` (a copy)."""
    U.check_tensor("positive", a)
    return _out(tf.identity(U.to_tf(a)), dtype)


def negative(a: Any, dtype: Any = None) -> Tensor:
    """``-a`` element-wise."""
    return _out(tf.negative(U.to_tf(a)), dtype)


def square(x: Any, dtype: Any = None) -> Tensor:
    """``x * x`` element-wise."""
    return _out(tf.square(U.to_tf(x)), dtype)


def sqrt(x: Any, dtype: Any = None) -> Tensor:
    """Square root (integer inputs give float32)."""
    return _float_unary(tf.sqrt, x, dtype)


def cbrt(x: Any, dtype: Any = None) -> Tensor:
    """Cube root (the sign of ``x`` times ``|x| ** (1/3)``)."""
    return _float_unary(lambda t: tf.sign(t) * tf.pow(tf.abs(t), tf.cast(1.0 / 3.0, t.dtype)), x, dtype)


def reciprocal(x: Any, dtype: Any = None) -> Tensor:
    """``1 / x`` element-wise (integer division for integer inputs, as MindSpore's ``1 / x``)."""
    t = U.to_tf(x)
    if t.dtype.is_floating:
        return _out(tf.math.reciprocal(t), dtype)
    one = tf.ones_like(t)
    return _out(tf.cast(tf.math.divide(tf.cast(one, tf.float32), tf.cast(t, tf.float32)), tf.float32), dtype)


def exp(x: Any, dtype: Any = None) -> Tensor:
    """``e ** x``."""
    return _float_unary(tf.exp, x, dtype)


def expm1(x: Any, dtype: Any = None) -> Tensor:
    """``e ** x - 1``."""
    return _float_unary(tf.math.expm1, x, dtype)


def exp2(x: Any, dtype: Any = None) -> Tensor:
    """``2 ** x``."""
    t = U.to_tf(x)
    if t.dtype.is_floating:
        return _out(tf.pow(tf.cast(2, t.dtype), t), dtype)
    return _out(tf.pow(tf.cast(2, t.dtype), t), dtype)


def log(x: Any, dtype: Any = None) -> Tensor:
    """Natural logarithm."""
    return _float_unary(tf.math.log, x, dtype)


def log1p(x: Any, dtype: Any = None) -> Tensor:
    """``log(1 + x)``."""
    return _float_unary(tf.math.log1p, x, dtype)


def log2(x: Any, dtype: Any = None) -> Tensor:
    """Base-2 logarithm."""
    return _float_unary(lambda t: tf.math.log(t) / tf.math.log(tf.cast(2.0, t.dtype)), x, dtype)


def log10(x: Any, dtype: Any = None) -> Tensor:
    """Base-10 logarithm."""
    return _float_unary(lambda t: tf.math.log(t) / tf.math.log(tf.cast(10.0, t.dtype)), x, dtype)


def logaddexp(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``log(exp(x1) + exp(x2))``."""
    return _binary(lambda a, b: tf.math.log(tf.exp(U.to_float(a)) + tf.exp(U.to_float(b))), x1, x2, dtype)


def logaddexp2(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``log2(2 ** x1 + 2 ** x2)``."""
    def fn(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
        a, b = U.to_float(a), U.to_float(b)
        two = tf.cast(2.0, a.dtype)
        return tf.math.log(tf.pow(two, a) + tf.pow(two, b)) / tf.math.log(two)
    return _binary(fn, x1, x2, dtype)


def _nan_prop(fn: Callable, x1: Any, x2: Any, dtype: Any, api: str) -> Tensor:
    for x in (x1, x2):
        if not isinstance(x, U.ARRAY_TYPES):
            raise TypeError(f"Input {'x1' if x is x1 else 'x2'} is expected to be array_like, but got {type(x)}")
    a, b = U.to_tf(x1), U.to_tf(x2)
    if dtype is None and (a.shape.rank == 0) != (b.shape.rank == 0):
        dtype = mstype.from_tf_dtype(b.dtype if a.shape.rank == 0 else a.dtype)
    a, b = U.promote_all([a, b])
    res = fn(a, b)
    if a.dtype.is_floating:
        nan = tf.logical_or(tf.math.is_nan(a), tf.math.is_nan(b))
        res = tf.where(nan, tf.cast(float("nan"), a.dtype), res)
    return _out(res, dtype)


def minimum(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Element-wise minimum, propagating NaNs; with one scalar operand the tensor's dtype is kept."""
    return _nan_prop(tf.minimum, x1, x2, dtype, "minimum")


def maximum(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Element-wise maximum, propagating NaNs; with one scalar operand the tensor's dtype is kept."""
    return _nan_prop(tf.maximum, x1, x2, dtype, "maximum")


def heaviside(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """The Heaviside step function: 0 for ``x1 < 0``, ``x2`` for ``x1 == 0``, 1 for ``x1 > 0``."""
    def fn(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
        shp = U.broadcast_shape(a, b)
        a, b = tf.broadcast_to(a, shp), tf.broadcast_to(b, shp)
        b = tf.where(a < 0, tf.zeros_like(b), b)
        return tf.where(a > 0, tf.ones_like(b), b)
    return _binary(fn, x1, x2, dtype)


def hypot(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``sqrt(x1 ** 2 + x2 ** 2)``."""
    return _binary(lambda a, b: tf.sqrt(tf.square(U.to_float(a)) + tf.square(U.to_float(b))), x1, x2, dtype)


def floor(x: Any, dtype: Any = None) -> Tensor:
    """Round down (integer inputs give float32)."""
    return _float_unary(tf.floor, x, dtype)


def ceil(x: Any, dtype: Any = None) -> Tensor:
    """Round up, computed in float32."""
    return _out(tf.math.ceil(tf.cast(U.to_tf(x), tf.float32)), dtype)


def _fix_tf(t: tf.Tensor) -> tf.Tensor:
    t = t if t.dtype in (tf.float16, tf.float32) else tf.cast(t, tf.float32)
    return tf.where(t < 0, tf.math.ceil(t), tf.floor(t))


def fix(x: Any) -> Tensor:
    """Round towards zero (float32 for non-float inputs)."""
    U.check_tensor("fix", x)
    return Tensor(_fix_tf(U.to_tf(x)))


def trunc(x: Any, dtype: Any = None) -> Tensor:
    """Round towards zero (same as :func:`fix`)."""
    return _out(_fix_tf(U.to_tf(x)), dtype)


def rint(x: Any, dtype: Any = None) -> Tensor:
    """Round to the nearest integer, halves to even (float32 for non-float inputs)."""
    t = U.to_tf(x)
    t = t if t.dtype.is_floating else tf.cast(t, tf.float32)
    return _out(tf.math.rint(t), dtype)


def around(a: Any, decimals: int = 0) -> Tensor:
    """Round to ``decimals`` decimals (halves to even).

    Raises:
        TypeError: for a non-int ``decimals``. ValueError: for a negative one.
    """
    t = U.to_tf(a)
    if not isinstance(decimals, int) or isinstance(decimals, bool):
        raise TypeError(f"decimals must be an integer, but got {type(decimals)}")
    if decimals < 0:
        raise ValueError(f"decimals < 0 is not supported now, but got {decimals}.")
    if not t.dtype.is_floating:
        return Tensor(t)
    if decimals == 0:
        return Tensor(tf.math.rint(t))
    scale = tf.cast(10 ** decimals, t.dtype)
    return Tensor(tf.math.rint(t * scale) / scale)


def sign(x: Any, dtype: Any = None) -> Tensor:
    """-1, 0 or 1 by the sign of each element (NaN for NaN; float32 for integer inputs).

    Raises:
        TypeError: for bool inputs.
    """
    t = U.to_tf(x)
    if t.dtype == tf.bool:
        raise TypeError("sign does not accept dtype bool.")
    return _out(tf.sign(U.to_float(t)), dtype)


def copysign(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """The magnitude of ``x1`` with the sign of ``x2``."""
    for x in (x1, x2):
        if isinstance(x, bool) or not isinstance(x, (int, float, list, tuple, Tensor, tf.Tensor)):
            raise TypeError(f"integer, float, list, tuple or Tensor are expected, but got {type(x)}")
    a, b = U.to_tf(x1), U.to_tf(x2)
    if tf.bool in (a.dtype, b.dtype):
        raise TypeError("sign does not accept dtype bool.")
    shp = U.broadcast_shape(a, b)
    a, b = tf.broadcast_to(a, shp), tf.broadcast_to(b, shp)
    mag = tf.abs(a)
    neg = b < 0
    if b.dtype.is_floating:  # -0.0 counts as negative
        neg = tf.logical_or(neg, tf.logical_and(tf.equal(b, 0), tf.math.reciprocal(b) < 0))
    res = tf.where(neg, -mag, mag)
    return _out(res, dtype)


def floor_divide(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """The largest integer not greater than ``x1 / x2``."""
    return _binary(tf.math.floordiv, x1, x2, dtype)


def _remainder_tf(a: tf.Tensor, b: tf.Tensor, c_style: bool) -> tf.Tensor:
    dt = a.dtype
    if dt in U.INT_TYPES or dt == tf.bool:
        fa, fb = tf.cast(a, tf.float32), tf.cast(b, tf.float32)
    else:
        fa, fb = a, b
    q = fa / fb
    q = tf.where(q < 0, tf.math.ceil(q), tf.floor(q)) if c_style else tf.floor(q)
    res = fa - fb * q
    if dt in U.INT_TYPES:
        res = tf.where(tf.equal(fb, 0), tf.zeros_like(res), res)
    return tf.cast(res, dt) if res.dtype != dt else res


def remainder(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """The remainder of division with the sign of the divisor (``mod``)."""
    return _binary(lambda a, b: _remainder_tf(a, b, False), x1, x2, dtype)


def fmod(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """The remainder of division with the sign of the dividend (C's ``fmod``)."""
    return _binary(lambda a, b: _remainder_tf(a, b, True), x1, x2, dtype)


def divmod_(x1: Any, x2: Any, dtype: Any = None) -> tuple:
    """``(floor_divide(x1, x2), remainder(x1, x2))``."""
    return floor_divide(x1, x2, dtype), remainder(x1, x2, dtype)


def clip(x: Any, xmin: Any, xmax: Any, dtype: Any = None) -> Tensor:
    """Limits values to ``[xmin, xmax]`` (either bound may be None).

    Raises:
        ValueError: when both bounds are None.
    """
    if xmin is None and xmax is None:
        raise ValueError("One of max or min must be given.")
    if xmin is not None:
        x = maximum(x, xmin, dtype=dtype)
    if xmax is not None:
        x = minimum(x, xmax, dtype=dtype)
    return x


def deg2rad(x: Any, dtype: Any = None) -> Tensor:
    """Degrees to radians."""
    U.check_tensor("deg2rad", x)
    return _float_unary(lambda t: t * tf.cast(math.pi / 180.0, t.dtype), x, dtype)


def radians(x: Any, dtype: Any = None) -> Tensor:
    """Same as :func:`deg2rad`."""
    return deg2rad(x, dtype)


def rad2deg(x: Any, dtype: Any = None) -> Tensor:
    """Radians to degrees."""
    U.check_tensor("rad2deg", x)
    return _float_unary(lambda t: t * tf.cast(180.0 / math.pi, t.dtype), x, dtype)


def sin(x: Any, dtype: Any = None) -> Tensor:
    """Sine."""
    return _trig_unary(tf.sin, x, dtype, "sin")


def cos(x: Any, dtype: Any = None) -> Tensor:
    """Cosine."""
    return _trig_unary(tf.cos, x, dtype, "cos")


def tan(x: Any, dtype: Any = None) -> Tensor:
    """Tangent."""
    return _trig_unary(tf.tan, x, dtype, "tan")


def arcsin(x: Any, dtype: Any = None) -> Tensor:
    """Inverse sine."""
    return _trig_unary(tf.asin, x, dtype, "arcsin")


def arccos(x: Any, dtype: Any = None) -> Tensor:
    """Inverse cosine."""
    return _trig_unary(tf.acos, x, dtype, "arccos")


def arctan(x: Any, dtype: Any = None) -> Tensor:
    """Inverse tangent."""
    return _trig_unary(tf.atan, x, dtype, "arctan")


def sinh(x: Any, dtype: Any = None) -> Tensor:
    """Hyperbolic sine."""
    return _trig_unary(tf.sinh, x, dtype, "sinh")


def cosh(x: Any, dtype: Any = None) -> Tensor:
    """Hyperbolic cosine."""
    return _trig_unary(tf.cosh, x, dtype, "cosh")


def tanh(x: Any, dtype: Any = None) -> Tensor:
    """Hyperbolic tangent."""
    return _trig_unary(tf.tanh, x, dtype, "tanh")


def arcsinh(x: Any, dtype: Any = None) -> Tensor:
    """Inverse hyperbolic sine."""
    return _trig_unary(tf.asinh, x, dtype, "arcsinh")


def arccosh(x: Any, dtype: Any = None) -> Tensor:
    """Inverse hyperbolic cosine."""
    return _trig_unary(tf.acosh, x, dtype, "arccosh")


def arctanh(x: Any, dtype: Any = None) -> Tensor:
    """Inverse hyperbolic tangent."""
    return _trig_unary(tf.atanh, x, dtype, "arctanh")


def arctan2(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """The angle of the point ``(x2, x1)``."""
    U.check_tensor("arctan2", x1, x2)
    a, b = U.to_tf(x1), U.to_tf(x2)
    a, b = U.promote_all([tf.cast(a, U.float_for_trig(a.dtype)), tf.cast(b, U.float_for_trig(b.dtype))])
    return _out(tf.atan2(a, b), dtype)


def _gcd_tf(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
    dt = a.dtype
    a, b = tf.abs(tf.cast(a, tf.int64)), tf.abs(tf.cast(b, tf.int64))
    shp = U.broadcast_shape(a, b)
    a, b = tf.broadcast_to(a, shp), tf.broadcast_to(b, shp)

    def body(x: tf.Tensor, y: tf.Tensor) -> tuple:
        nz = tf.not_equal(y, 0)
        safe = tf.where(nz, y, tf.ones_like(y))
        return tf.where(nz, y, x), tf.where(nz, tf.math.floormod(x, safe), tf.zeros_like(y))

    x, _ = tf.while_loop(lambda x, y: tf.reduce_any(tf.not_equal(y, 0)), body, (a, b))
    return tf.cast(x, dt)


def gcd(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Greatest common divisor of ``|x1|`` and ``|x2|``."""
    return _binary(_gcd_tf, x1, x2, dtype)


def lcm(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Lowest common multiple of ``|x1|`` and ``|x2|``."""
    def fn(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
        g = _gcd_tf(a, b)
        res = tf.abs(tf.math.floordiv(a, tf.where(tf.equal(g, 0), tf.ones_like(g), g)) * b)
        return tf.where(tf.equal(g, 0), tf.zeros_like(res), res)
    return _binary(fn, x1, x2, dtype)


def bitwise_and(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Bit-wise AND of integer (or bool) tensors."""
    return _binary(lambda a, b: tf.logical_and(a, b) if a.dtype == tf.bool else tf.bitwise.bitwise_and(a, b),
                   x1, x2, dtype)


def bitwise_or(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Bit-wise OR of integer (or bool) tensors."""
    return _binary(lambda a, b: tf.logical_or(a, b) if a.dtype == tf.bool else tf.bitwise.bitwise_or(a, b),
                   x1, x2, dtype)


def bitwise_xor(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Bit-wise XOR of integer (or bool) tensors."""
    return _binary(lambda a, b: tf.math.logical_xor(a, b) if a.dtype == tf.bool else tf.bitwise.bitwise_xor(a, b),
                   x1, x2, dtype)


def invert(x: Any, dtype: Any = None) -> Tensor:
    """Bit-wise NOT (logical NOT for bools)."""
    t = U.to_tf(x)
    return _out(tf.logical_not(t) if t.dtype == tf.bool else tf.bitwise.invert(t), dtype)


def promote_types(type1: Any, type2: Any) -> mstype.Type:
    """The dtype both ``type1`` and ``type2`` safely cast to, by ``mindspore.numpy``'s table."""
    return mstype.from_tf_dtype(U.promote_types(U.tf_dtype(type1), U.tf_dtype(type2)))


def result_type(*arrays_and_dtypes: Any) -> mstype.Type:
    """The dtype that results from promoting the given tensors, scalars and dtypes."""
    def get(x: Any) -> tf.DType:
        if U.is_tensor(x) or isinstance(x, (list, tuple)) or (isinstance(x, (int, float, bool))):
            return U.to_tf(x).dtype
        return U.tf_dtype(x)
    dt = get(arrays_and_dtypes[0])
    for x in arrays_and_dtypes[1:]:
        dt = U.promote_types(dt, get(x))
    return mstype.from_tf_dtype(dt)
