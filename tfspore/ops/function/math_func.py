"""Element-wise math, comparisons and reductions (``ops.add``, ``ops.mean``, ...).

Norms and matrix products (``_linalg``) and clipping (``clip_func``) are re-exported here.

Every function takes tfspore Tensors, Parameters, python scalars or numpy arrays, works eagerly
and inside a GRAPH_MODE trace, and returns tfspore Tensors.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> ops.mean(Tensor(np.array([1.0, 2.0], np.float32)))
    Tensor(shape=[], dtype=Float32, value= 1.5)
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal import validator as V
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function._utils import arg_extreme, binary, check_broadcast, norm_axis, tf_dtype, to_float, to_tf

__all__ = [
    "abs", "absolute", "neg", "negative", "sqrt", "rsqrt", "square", "exp", "log", "log1p", "expm1", "log2", "log10",
    "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "erf", "erfc", "floor",
    "ceil", "round", "sign", "reciprocal", "isnan", "isinf", "isfinite", "logical_not", "tanh", "trunc", "exp2",
    "add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "floor_div", "floor_divide",
    "floor_mod", "remainder", "fmod", "pow", "maximum", "minimum", "equal", "eq", "ne", "not_equal", "gt",
    "greater", "ge", "greater_equal", "lt", "less", "le", "less_equal", "logical_and", "logical_or", "logical_xor",
    "atan2", "arctan2", "squared_difference", "addn", "mean", "sum", "amax", "amin", "max", "min", "prod", "std",
    "var", "all", "any", "argmin", "logsumexp", "cumsum", "cumprod", "norm", "isclose", "allclose", "linspace",
    "matmul", "bmm", "mm", "dot", "outer", "addmm", "lerp", "sqrt_", "square_", "count_nonzero", "clamp", "clip",
    "clip_by_value", "clip_by_global_norm", "cosine_similarity", "diff", "inner", "permute",
]

_builtin_abs, _builtin_max, _builtin_min, _builtin_round, _builtin_sum, _builtin_pow = abs, max, min, round, sum, pow


# ---------------------------------------------------------------------------- unary
def _unary(op: str, fn, float_only: bool = False):
    def f(input: Any) -> Tensor:  # noqa: A002
        t = to_tf(input, op, "input")
        if float_only:
            t = to_float(t)
        return _wrap(fn(t))
    f.__name__ = f.__qualname__ = op
    f.__doc__ = (f"Element-wise ``{op}`` of ``input``{' (integer inputs become float32)' if float_only else ''}.\n\n"
                 f"    Args:\n        input: a Tensor, number or array.\n\n    Returns:\n        Tensor: the result.\n")
    return f


def _abs(t):
    return t if t.dtype == tf.bool or t.dtype.is_unsigned else tf.abs(t)


abs = _unary("abs", _abs)  # noqa: A001
absolute = abs
neg = _unary("neg", tf.negative)
negative = neg
sqrt = _unary("sqrt", tf.sqrt, True)
rsqrt = _unary("rsqrt", tf.math.rsqrt, True)
square = _unary("square", tf.square)
exp = _unary("exp", tf.exp, True)
exp2 = _unary("exp2", lambda t: tf.pow(tf.constant(2, t.dtype), t), True)
log = _unary("log", tf.math.log, True)
log1p = _unary("log1p", tf.math.log1p, True)
expm1 = _unary("expm1", tf.math.expm1, True)
log2 = _unary("log2", lambda t: tf.math.log(t) / tf.math.log(tf.constant(2, t.dtype)), True)
log10 = _unary("log10", lambda t: tf.math.log(t) / tf.math.log(tf.constant(10, t.dtype)), True)
sin = _unary("sin", tf.sin, True)
cos = _unary("cos", tf.cos, True)
tan = _unary("tan", tf.tan, True)
asin = _unary("asin", tf.asin, True)
acos = _unary("acos", tf.acos, True)
atan = _unary("atan", tf.atan, True)
sinh = _unary("sinh", tf.sinh, True)
cosh = _unary("cosh", tf.cosh, True)
asinh = _unary("asinh", tf.asinh, True)
acosh = _unary("acosh", tf.acosh, True)
atanh = _unary("atanh", tf.atanh, True)
erf = _unary("erf", tf.math.erf, True)
erfc = _unary("erfc", tf.math.erfc, True)
tanh = _unary("tanh", tf.tanh, True)
reciprocal = _unary("reciprocal", tf.math.reciprocal, True)
sign = _unary("sign", lambda t: tf.sign(t) if t.dtype != tf.bool else t)
logical_not = _unary("logical_not", lambda t: tf.logical_not(tf.cast(t, tf.bool)))
sqrt_ = sqrt
square_ = square


def _int_passthrough(fn):
    return lambda t: t if t.dtype in (tf.bool,) or t.dtype.is_integer else fn(t)


floor = _unary("floor", _int_passthrough(tf.floor))
ceil = _unary("ceil", _int_passthrough(tf.math.ceil))
trunc = _unary("trunc", _int_passthrough(lambda t: tf.where(t < 0, tf.math.ceil(t), tf.floor(t))))


def round(input: Any, *, decimals: int = 0) -> Tensor:  # noqa: A001,A002
    """Round half to even, as MindSpore's Round.

    Args:
        input: the tensor.
        decimals: the number of decimal places.

    Returns:
        Tensor: the rounded values, same dtype.
    """
    t = to_tf(input, "round", "input")
    V.check_int(decimals, "decimals", "round")
    if t.dtype.is_integer or t.dtype == tf.bool:
        return _wrap(t)
    if decimals:
        scale = tf.constant(10.0 ** decimals, t.dtype)
        return _wrap(tf.round(t * scale) / scale)
    return _wrap(tf.round(t))


def _float_pred(fn, default: bool):
    def f(t):
        if t.dtype.is_floating or t.dtype.is_complex:
            return fn(t)
        return tf.fill(tf.shape(t), default)
    return f


isnan = _unary("isnan", _float_pred(tf.math.is_nan, False))
isinf = _unary("isinf", _float_pred(tf.math.is_inf, False))
isfinite = _unary("isfinite", _float_pred(tf.math.is_finite, True))


# ---------------------------------------------------------------------------- binary
def _binary_op(op: str, fn, float_only: bool = False):
    def f(input: Any, other: Any) -> Tensor:  # noqa: A002
        a, b = binary(op, input, other)
        check_broadcast(op, a, b)
        if float_only:
            a, b = to_float(a), to_float(b)
        return _wrap(fn(a, b))
    f.__name__ = f.__qualname__ = op
    f.__doc__ = (f"Element-wise ``{op}`` of ``input`` and ``other``, broadcast, with MindSpore's type promotion.\n\n"
                 f"    Args:\n        input: a Tensor or number.\n        other: a Tensor or number.\n\n"
                 f"    Returns:\n        Tensor: the result.\n\n    Raises:\n"
                 f"        ValueError: when the shapes cannot broadcast.\n")
    return f


def _bool_safe(fn, bool_fn):
    return lambda a, b: bool_fn(a, b) if a.dtype == tf.bool else fn(a, b)


add = _binary_op("add", _bool_safe(tf.add, tf.logical_or))
sub = _binary_op("sub", tf.subtract)
subtract = sub
mul = _binary_op("mul", _bool_safe(tf.multiply, tf.logical_and))
multiply = mul
floor_div = _binary_op("floor_div", tf.math.floordiv)
floor_divide = floor_div
floor_mod = _binary_op("floor_mod", tf.math.floormod)
remainder = floor_mod
fmod = _binary_op("fmod", lambda a, b: tf.truncatemod(a, b))
maximum = _binary_op("maximum", _bool_safe(tf.maximum, tf.logical_or))
minimum = _binary_op("minimum", _bool_safe(tf.minimum, tf.logical_and))
equal = _binary_op("equal", tf.equal)
eq = equal
not_equal = _binary_op("not_equal", tf.not_equal)
ne = not_equal
greater = _binary_op("greater", tf.greater)
gt = greater
greater_equal = _binary_op("greater_equal", tf.greater_equal)
ge = greater_equal
less = _binary_op("less", tf.less)
lt = less
less_equal = _binary_op("less_equal", tf.less_equal)
le = less_equal
logical_and = _binary_op("logical_and", lambda a, b: tf.logical_and(tf.cast(a, tf.bool), tf.cast(b, tf.bool)))
logical_or = _binary_op("logical_or", lambda a, b: tf.logical_or(tf.cast(a, tf.bool), tf.cast(b, tf.bool)))
logical_xor = _binary_op("logical_xor", lambda a, b: tf.math.logical_xor(tf.cast(a, tf.bool), tf.cast(b, tf.bool)))
atan2 = _binary_op("atan2", tf.atan2, True)
arctan2 = atan2
squared_difference = _binary_op("squared_difference", tf.math.squared_difference)


def div(input: Any, other: Any, *, rounding_mode: str | None = None) -> Tensor:  # noqa: A002
    """Divide ``input`` by ``other`` (true division; 'floor' or 'trunc' rounding when asked).

    Args:
        input: the dividend.
        other: the divisor.
        rounding_mode: None (true division, integers give float32), 'floor' or 'trunc'.

    Returns:
        Tensor: the quotient.

    Raises:
        ValueError: when ``rounding_mode`` is not None, 'floor' or 'trunc'.
    """
    if rounding_mode is not None:
        V.check_string(rounding_mode, ("floor", "trunc"), "rounding_mode", "div")
    a, b = binary("div", input, other)
    check_broadcast("div", a, b)
    if rounding_mode == "floor":
        return _wrap(tf.math.floordiv(a, b))
    if rounding_mode == "trunc":
        if a.dtype.is_integer:
            return _wrap(tf.truncatediv(a, b))
        q = a / b
        return _wrap(tf.where(q < 0, tf.math.ceil(q), tf.floor(q)))
    a, b = to_float(a), to_float(b)
    return _wrap(tf.math.truediv(a, b))


divide = div
true_divide = div


def pow(input: Any, exponent: Any) -> Tensor:  # noqa: A001,A002
    """Element-wise ``input ** exponent`` with MindSpore's type promotion.

    Args:
        input: the base (Tensor or number).
        exponent: the exponent (Tensor or number).

    Returns:
        Tensor: the power.
    """
    a, b = binary("pow", input, exponent)
    check_broadcast("pow", a, b)
    if a.dtype == tf.bool:
        a, b = tf.cast(a, tf.int64), tf.cast(b, tf.int64)
    return _wrap(tf.pow(a, b))


def addn(x: Any) -> Tensor:
    """Add a tuple or list of tensors of the same shape and dtype.

    Args:
        x: a tuple or list of tensors.

    Returns:
        Tensor: the sum.

    Raises:
        TypeError: when ``x`` is not a non-empty tuple or list.
    """
    if isinstance(x, Tensor):
        x = (x,)
    if not isinstance(x, (list, tuple)) or not x:
        raise TypeError(f"For 'AddN', the 'x' must be a non-empty tuple or list of Tensors, but got {x!r}.")
    ts = [to_tf(t, "AddN", f"x[{i}]") for i, t in enumerate(x)]
    dt = ts[0].dtype
    for i, t in enumerate(ts):
        if t.dtype != dt:
            raise TypeError(f"For 'AddN', all input dtypes must be the same, but got x[0]: "
                            f"{_ms(dt)} and x[{i}]: {_ms(t.dtype)}.")
    return _wrap(tf.add_n(ts) if dt != tf.bool else tf.reduce_any(tf.stack(ts), 0))


def _ms(dt):
    from tfspore.common.dtype import from_tf_dtype
    return from_tf_dtype(dt)


def lerp(input: Any, end: Any, weight: Any) -> Tensor:  # noqa: A002
    """Linear interpolation ``input + weight * (end - input)``."""
    a, b = binary("lerp", input, end)
    _, w = binary("lerp", a, weight)
    return _wrap(a + tf.cast(w, a.dtype) * (b - a))


# ---------------------------------------------------------------------------- reductions
def _reduce(op: str, fn, x: Any, axis: Any, keep: Any, cast_bool: tf.DType | None = None) -> tf.Tensor:
    t = to_tf(x, op, "input")
    V.check_bool(keep, "keep_dims", op)
    ax = norm_axis(op, "axis", axis, t.shape.rank)
    if ax == ():
        ax = None
    if cast_bool is not None and t.dtype == tf.bool:
        t = tf.cast(t, cast_bool)
    return fn(t, axis=list(ax) if ax is not None else None, keepdims=bool(keep))


def _sum_dtype(t: tf.Tensor) -> tf.Tensor:
    if t.dtype == tf.bool or (t.dtype.is_integer and t.dtype != tf.int64):
        return tf.cast(t, tf.int64)
    return t


def mean(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    """Mean over ``axis`` (all axes when None or ``()``).

    Args:
        x: the input tensor.
        axis: int, tuple of ints, or None.
        keep_dims: whether reduced dimensions are kept with length 1.

    Returns:
        Tensor: the mean (integer inputs keep their dtype, as in MindSpore).

    Raises:
        ValueError: when an axis is out of range.
    """
    return _wrap(_reduce("mean", tf.reduce_mean, x, axis, keep_dims, tf.float32))


def sum(input: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:  # noqa: A001,A002
    """Sum over ``dim`` (all dims when None). Integer and bool inputs sum in int64, as MindSpore.

    Args:
        input: the input tensor.
        dim: int, tuple of ints, or None.
        keepdim: whether reduced dimensions are kept.
        dtype: the output dtype (the input is cast first).

    Returns:
        Tensor: the sum.
    """
    t = to_tf(input, "sum", "input")
    if dtype is not None:
        t = tf.cast(t, tf_dtype(dtype, "sum"))
    else:
        t = _sum_dtype(t)
    return _wrap(_reduce("sum", tf.reduce_sum, t, dim, keepdim))


def _minmax_reduce(op: str, fn, input: Any, axis: Any, keepdims: bool, initial: Any, where: Any) -> tf.Tensor:  # noqa: A002
    t = to_tf(input, op, "input")
    is_bool = t.dtype == tf.bool
    if is_bool:
        t = tf.cast(t, tf.int8)
    if where is not None:
        if initial is None:
            raise ValueError(f"For '{op}', the 'initial' must be given when 'where' is given, but got None.")
        w = to_tf(where, op, "where", tf.bool)
        t = tf.where(w, t, tf.cast(initial, t.dtype))
    out = _reduce(op, fn, t, axis, keepdims)
    if initial is not None:
        init = tf.cast(initial, out.dtype)
        out = tf.maximum(out, init) if fn is tf.reduce_max else tf.minimum(out, init)
    return tf.cast(out, tf.bool) if is_bool else out


def amax(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None,  # noqa: A002
         where: Any = None) -> Tensor:
    """Maximum over ``axis`` (all axes when None).

    Args:
        input: the input tensor.
        axis: int, tuple of ints, or None.
        keepdims: whether reduced dimensions are kept.
        initial: a lower bound of the result.
        where: a bool mask of the elements to consider (needs ``initial``).

    Returns:
        Tensor: the maxima.
    """
    return _wrap(_minmax_reduce("amax", tf.reduce_max, input, axis, keepdims, initial, where))


def amin(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None,  # noqa: A002
         where: Any = None) -> Tensor:
    """Minimum over ``axis`` (all axes when None); see :func:`amax`."""
    return _wrap(_minmax_reduce("amin", tf.reduce_min, input, axis, keepdims, initial, where))


def _arg_with_value(op: str, input: Any, axis: Any, keepdims: bool, is_max: bool):  # noqa: A002
    t = to_tf(input, op, "input")
    if axis is None:
        flat = tf.reshape(t, [-1])
        idx = tf.argmax(flat) if is_max else tf.argmin(flat)
        val = tf.reduce_max(flat) if is_max else tf.reduce_min(flat)
        return val, idx
    a = V.check_axis(axis, "axis", op, t.shape.rank)
    idx = tf.argmax(t, axis=a) if is_max else tf.argmin(t, axis=a)
    val = tf.reduce_max(t, axis=a, keepdims=keepdims) if is_max else tf.reduce_min(t, axis=a, keepdims=keepdims)
    if keepdims:
        idx = tf.expand_dims(idx, a)
    return val, idx


def max(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None,  # noqa: A001,A002
        where: Any = None) -> Any:
    """Maximum values and their indices along ``axis``.

    Args:
        input: the input tensor.
        axis: the axis; None reduces all elements.
        keepdims: whether the reduced axis is kept.
        initial: a lower bound of the maximum.
        where: a bool mask of the elements to consider.

    Returns:
        tuple: (values, indices), indices as int64.
    """
    if initial is not None or where is not None:
        return _wrap(_minmax_reduce("max", tf.reduce_max, input, axis, keepdims, initial, where))
    val, idx = _arg_with_value("max", input, axis, keepdims, True)
    return _wrap(val), _wrap(idx)


def min(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None,  # noqa: A001,A002
        where: Any = None) -> Any:
    """Minimum values and their indices along ``axis``; see :func:`max`."""
    if initial is not None or where is not None:
        return _wrap(_minmax_reduce("min", tf.reduce_min, input, axis, keepdims, initial, where))
    val, idx = _arg_with_value("min", input, axis, keepdims, False)
    return _wrap(val), _wrap(idx)


def prod(input: Any, axis: Any = None, keep_dims: bool = False, dtype: Any = None) -> Tensor:  # noqa: A002
    """Product over ``axis`` (all axes when None). Integer inputs multiply in int64, as MindSpore.

    Args:
        input: the input tensor.
        axis: int, tuple of ints, or None.
        keep_dims: whether reduced dimensions are kept.
        dtype: the output dtype.

    Returns:
        Tensor: the product.
    """
    t = to_tf(input, "prod", "input")
    t = tf.cast(t, tf_dtype(dtype, "prod")) if dtype is not None else _sum_dtype(t)
    return _wrap(_reduce("prod", tf.reduce_prod, t, axis, keep_dims))


def _moments(op: str, input: Any, axis: Any, ddof: Any, keepdims: bool) -> tf.Tensor:  # noqa: A002
    t = to_float(to_tf(input, op, "input"))
    if isinstance(ddof, bool):
        ddof = 1 if ddof else 0
    V.check_int(ddof, "ddof", op)
    V.check_bool(keepdims, "keepdims", op)
    ax = norm_axis(op, "axis", axis, t.shape.rank)
    ax = list(range(t.shape.rank)) if ax in (None, ()) else list(ax)
    m = tf.reduce_mean(t, axis=ax, keepdims=True)
    sq = tf.reduce_sum(tf.square(t - m), axis=ax, keepdims=keepdims)
    n = tf.cast(tf.reduce_prod(tf.gather(tf.shape(t), ax)), t.dtype)
    return sq / (n - tf.cast(ddof, t.dtype))


def var(input: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:  # noqa: A002
    """Variance over ``axis`` with ``ddof`` delta degrees of freedom.

    Args:
        input: the input tensor.
        axis: int, tuple of ints, or None (all axes).
        ddof: delta degrees of freedom (a bool means 1 or 0).
        keepdims: whether reduced dimensions are kept.

    Returns:
        Tensor: the variance.
    """
    return _wrap(_moments("var", input, axis, ddof, keepdims))


def std(input: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:  # noqa: A002
    """Standard deviation over ``axis``; see :func:`var`."""
    return _wrap(tf.sqrt(_moments("std", input, axis, ddof, keepdims)))


def all(input: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:  # noqa: A001,A002
    """Logical AND over ``axis`` (all axes when None)."""
    t = tf.cast(to_tf(input, "all", "input"), tf.bool)
    return _wrap(_reduce("all", tf.reduce_all, t, axis, keep_dims))


def any(input: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:  # noqa: A001,A002
    """Logical OR over ``axis`` (all axes when None)."""
    t = tf.cast(to_tf(input, "any", "input"), tf.bool)
    return _wrap(_reduce("any", tf.reduce_any, t, axis, keep_dims))


def argmin(input: Any, axis: int | None = None, keepdims: bool = False) -> Tensor:  # noqa: A002
    """Indices of the minima along ``axis`` (of the flattened tensor when None), as int32.

    Args:
        input: the input tensor.
        axis: the axis, or None.
        keepdims: whether the reduced axis is kept.

    Returns:
        Tensor: int32 indices.
    """
    return _wrap(arg_extreme(tf.argmin, "argmin", input, axis, "axis", keepdims, tf.int32))


def logsumexp(input: Any, axis: Any, keep_dims: bool = False) -> Tensor:  # noqa: A002
    """``log(sum(exp(input)))`` over ``axis``, computed stably."""
    t = to_float(to_tf(input, "logsumexp", "input"))
    ax = norm_axis("logsumexp", "axis", axis, t.shape.rank)
    return _wrap(tf.reduce_logsumexp(t, axis=list(ax) if ax else None, keepdims=keep_dims))


def count_nonzero(x: Any, axis: Any = (), keep_dims: bool = False, dtype: Any = None) -> Tensor:
    """Count the non-zero elements over ``axis`` (int32 by default)."""
    t = to_tf(x, "count_nonzero", "x")
    ax = norm_axis("count_nonzero", "axis", axis, t.shape.rank)
    out_dt = tf_dtype(dtype, "count_nonzero") if dtype is not None else tf.int32
    nz = tf.cast(tf.not_equal(t, tf.zeros([], t.dtype)), out_dt)
    return _wrap(tf.reduce_sum(nz, axis=list(ax) if ax else None, keepdims=keep_dims))


def cumsum(x: Any, axis: int, dtype: Any = None) -> Tensor:
    """Cumulative sum along ``axis``.

    Args:
        x: the input tensor (not bool).
        axis: the axis.
        dtype: the output dtype (the input is cast first).

    Returns:
        Tensor: the cumulative sums.
    """
    t = to_tf(x, "cumsum", "x")
    if dtype is not None:
        t = tf.cast(t, tf_dtype(dtype, "cumsum"))
    if t.dtype == tf.bool:
        raise TypeError("For 'CumSum', the input argument[x] must be a numeric Tensor, but got Tensor[Bool].")
    a = V.check_axis(axis, "axis", "cumsum", t.shape.rank)
    return _wrap(tf.cumsum(t, axis=a))


def cumprod(input: Any, dim: int, dtype: Any = None) -> Tensor:  # noqa: A002
    """Cumulative product along ``dim``."""
    t = to_tf(input, "cumprod", "input")
    if dtype is not None:
        t = tf.cast(t, tf_dtype(dtype, "cumprod"))
    a = V.check_axis(dim, "dim", "cumprod", t.shape.rank)
    return _wrap(tf.math.cumprod(t, axis=a))


def diff(x: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> Tensor:
    """The ``n``-th discrete difference along ``axis``."""
    t = to_tf(x, "diff", "x")
    a = V.check_axis(axis, "axis", "diff", t.shape.rank)
    parts = ([to_tf(prepend, "diff", "prepend", t.dtype)] if prepend is not None else []) + [t] + (
        [to_tf(append, "diff", "append", t.dtype)] if append is not None else [])
    t = tf.concat(parts, a) if len(parts) > 1 else t
    for _ in range(n):
        n_ = tf.shape(t)[a]
        hi = tf.gather(t, tf.range(1, n_), axis=a)
        lo = tf.gather(t, tf.range(0, n_ - 1), axis=a)
        t = tf.math.logical_xor(hi, lo) if t.dtype == tf.bool else hi - lo
    return _wrap(t)


from tfspore.ops.function._linalg import *  # noqa: E402,F401,F403
from tfspore.ops.function._linalg import _mm  # noqa: E402,F401
from tfspore.ops.function.clip_func import *  # noqa: E402,F401,F403
