"""``mindspore.numpy`` reductions and scans: ``sum``, ``mean``, ``std``, ``var``, ``amax``/``amin``, ``ptp``,
``average``, the ``nan*`` family, ``argmax``/``argmin``, ``count_nonzero``, ``cumsum``/``cumprod``,
``norm``, ``diff``, ``ediff1d``, ``gradient`` and ``trapz``.

Result dtypes follow MindSpore 2.10: ``sum`` of integers and bools gives int64, ``mean``, ``amax`` and
``amin`` keep the input dtype, ``cumsum`` widens small integers and bools to int32, ``argmax`` gives
int64 and ``argmin`` int32.
"""
from __future__ import annotations

import numbers
from typing import Any

import tensorflow as tf

from tfspore._internal.norms import max_min_count_norm
from tfspore.common.tensor import Tensor
from tfspore.numpy import _utils as U

__all__ = ["sum_", "mean", "std", "var", "amax", "amin", "ptp", "average", "nansum", "nanmean", "nanvar", "nanstd",
           "nanmax", "nanmin", "nancumsum", "argmax", "argmin", "count_nonzero", "cumsum", "cumprod", "norm", "diff",
           "ediff1d", "gradient", "trapz"]

_SMALL_INTS = (tf.int8, tf.int16, tf.uint8, tf.uint16, tf.bool)


def _axes(t: tf.Tensor, axis: Any) -> Any:
    if axis is None:
        return None
    if isinstance(axis, (list, tuple)) and not axis:
        return None
    return list(U.axis_tuple(axis, t.shape.rank))


def _check_initial(initial: Any) -> None:
    if initial is None:
        return
    if U.is_tensor(initial):
        if U.to_tf(initial).shape.rank:
            raise TypeError(f"initial should be scalar, but got a tensor of shape {U.to_tf(initial).shape}")
    elif not isinstance(initial, (int, float, bool)):
        raise TypeError(f"initial should be scalar, but got {type(initial)}")


def _where_mask(t: tf.Tensor, where: Any, initial: Any, fill: Any) -> tf.Tensor:
    if where is True or where is None:
        return t
    if initial is None:
        raise ValueError("initial value must be provided for where masks")
    w = tf.broadcast_to(tf.cast(U.to_tf(where), tf.bool), tf.shape(t))
    return tf.where(w, t, tf.cast(fill, t.dtype))


def sum_(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False, initial: Any = None) -> Tensor:
    """Sum over ``axis`` (all axes when None); integer and bool inputs sum in int64."""
    t = U.to_tf(a)
    _check_initial(initial)
    if dtype is not None:
        t = tf.cast(t, U.tf_dtype(dtype))
    elif t.dtype in U.INT_TYPES or t.dtype == tf.bool:
        t = tf.cast(t, tf.int64)
    res = tf.reduce_sum(t, axis=_axes(t, axis), keepdims=keepdims)
    if initial is not None:
        res = res + tf.cast(U.to_tf(initial), res.dtype)
    return Tensor(res)


def mean(a: Any, axis: Any = None, keepdims: bool = False, dtype: Any = None) -> Tensor:
    """Arithmetic mean over ``axis``, in the input's dtype (so integer means truncate, as in MindSpore)."""
    t = U.to_tf(a)
    res = tf.reduce_mean(t, axis=_axes(t, axis), keepdims=keepdims)
    return Tensor(U.apply_dtype(res, dtype))


def _moments(t: tf.Tensor, axis: Any, ddof: int, keepdims: bool) -> tf.Tensor:
    ax = _axes(t, axis)
    # MindSpore takes an integer tensor's mean in its own dtype (truncated) before the deviations
    m = U.to_float(tf.reduce_mean(t, axis=ax, keepdims=True)) if t.dtype != tf.bool else None
    t = U.to_float(t)
    m = tf.reduce_mean(t, axis=ax, keepdims=True) if m is None else m
    sq = tf.reduce_sum(tf.square(t - m), axis=ax, keepdims=keepdims)
    n = tf.cast(tf.size(t), t.dtype) if ax is None else tf.cast(
        tf.reduce_prod(tf.gather(tf.shape(t), ax)), t.dtype)
    return sq / (n - tf.cast(ddof, t.dtype))


def var(x: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Variance over ``axis`` with ``ddof`` delta degrees of freedom (float32 for integer inputs)."""
    return Tensor(_moments(U.to_tf(x), axis, ddof, keepdims))


def std(x: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Standard deviation over ``axis``."""
    return Tensor(tf.sqrt(_moments(U.to_tf(x), axis, ddof, keepdims)))


def _extreme(a: Any, axis: Any, keepdims: bool, initial: Any, where: Any, is_max: bool) -> Tensor:
    t = U.to_tf(a)
    _check_initial(initial)
    if initial is not None:
        init = tf.cast(U.to_tf(initial), t.dtype)
        t = tf.maximum(t, init) if is_max else tf.minimum(t, init)
        t = _where_mask(t, where, initial, init)
    elif where is not True and where is not None:
        raise ValueError("initial value must be provided for where masks")
    fn = tf.reduce_max if is_max else tf.reduce_min
    if t.dtype == tf.bool:
        fn = tf.reduce_any if is_max else tf.reduce_all
    return Tensor(fn(t, axis=_axes(t, axis), keepdims=keepdims))


def amax(a: Any, axis: Any = None, keepdims: bool = False, initial: Any = None, where: Any = True) -> Tensor:
    """Maximum over ``axis``; ``initial`` is a lower bound, ``where`` masks elements (needs ``initial``)."""
    return _extreme(a, axis, keepdims, initial, where, True)


def amin(a: Any, axis: Any = None, keepdims: bool = False, initial: Any = None, where: Any = True) -> Tensor:
    """Minimum over ``axis``; ``initial`` is an upper bound, ``where`` masks elements (needs ``initial``)."""
    return _extreme(a, axis, keepdims, initial, where, False)


def ptp(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Range of values (maximum - minimum) over ``axis``."""
    U.check_tensor("ptp", x)
    t = U.to_tf(x)
    ax = _axes(t, axis)
    return Tensor(tf.reduce_max(t, ax, keepdims) - tf.reduce_min(t, ax, keepdims))


def average(x: Any, axis: Any = None, weights: Any = None, returned: bool = False) -> Any:
    """Weighted average over ``axis`` (and the sum of weights when ``returned``).

    Raises:
        TypeError: for weights neither 1-D nor of ``x``'s shape, or 1-D weights without an int axis.
    """
    U.check_tensor("average", x)
    t = U.to_float(U.to_tf(x))
    ax = _axes(t, axis)
    if weights is None:
        avg = tf.reduce_mean(t, axis=ax)
        n = tf.size(t) if ax is None else tf.reduce_prod(tf.gather(tf.shape(t), ax))
        wsum = tf.fill(tf.shape(avg), tf.cast(n, t.dtype))
    else:
        U.check_tensor("average", weights)
        w = tf.cast(U.to_tf(weights), t.dtype)
        if w.shape != t.shape:
            if w.shape.rank != 1:
                raise TypeError("Weights should be None, 1-D or the same shape as input x.")
            if not isinstance(axis, int):
                raise TypeError("Axis must be specified when shapes of x and weights differ.")
            shp = [1] * t.shape.rank
            shp[ax[0]] = -1
            w = tf.reshape(w, shp)
        wsum = tf.reduce_sum(tf.broadcast_to(w, tf.shape(t)), axis=ax)
        avg = tf.reduce_sum(t * w, axis=ax) / wsum
    return (Tensor(avg), Tensor(wsum)) if returned else Tensor(avg)


def _nan_zero(t: tf.Tensor) -> tf.Tensor:
    return tf.where(tf.math.is_nan(t), tf.zeros_like(t), t) if t.dtype.is_floating else t


def nansum(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    """Sum over ``axis`` treating NaNs as zero."""
    t = _nan_zero(U.to_tf(a))
    return Tensor(U.apply_dtype(tf.reduce_sum(t, axis=_axes(t, axis), keepdims=keepdims), dtype))


def _count_nonnan(t: tf.Tensor, ax: Any, keepdims: bool) -> tf.Tensor:
    ok = tf.logical_not(tf.math.is_nan(t)) if t.dtype.is_floating else tf.ones_like(t, tf.bool)
    return tf.reduce_sum(tf.cast(ok, tf.float32), axis=ax, keepdims=keepdims)


def nanmean(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    """Mean over ``axis`` ignoring NaNs (float32 by default)."""
    t = U.to_tf(a)
    ax = _axes(t, axis)
    s = tf.reduce_sum(tf.cast(_nan_zero(t), tf.float32), axis=ax, keepdims=keepdims)
    return Tensor(U.apply_dtype(s / _count_nonnan(t, ax, keepdims), dtype if dtype is not None else "float32"))


def _nanvar_tf(t: tf.Tensor, axis: Any, ddof: int, keepdims: bool) -> tf.Tensor:
    t = tf.cast(t, tf.float32)
    ax = _axes(t, axis)
    cnt_k = _count_nonnan(t, ax, True)
    m = tf.reduce_sum(_nan_zero(t), axis=ax, keepdims=True) / cnt_k
    sq = tf.reduce_sum(_nan_zero(tf.square(t - m)), axis=ax, keepdims=keepdims)
    return sq / (_count_nonnan(t, ax, keepdims) - ddof)


def nanvar(a: Any, axis: Any = None, dtype: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Variance over ``axis`` ignoring NaNs."""
    return Tensor(U.apply_dtype(_nanvar_tf(U.to_tf(a), axis, ddof, keepdims), dtype or "float32"))


def nanstd(a: Any, axis: Any = None, dtype: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Standard deviation over ``axis`` ignoring NaNs."""
    return Tensor(U.apply_dtype(tf.sqrt(_nanvar_tf(U.to_tf(a), axis, ddof, keepdims)), dtype or "float32"))


def _nan_extreme(a: Any, axis: Any, dtype: Any, keepdims: Any, is_max: bool) -> Tensor:
    if not isinstance(keepdims, int):
        raise TypeError(f"integer argument expected, got {type(keepdims)}")
    t = U.to_tf(a)
    ax = _axes(t, axis)
    if t.dtype.is_floating:
        fill = float("-inf") if is_max else float("inf")
        nan = tf.math.is_nan(t)
        clean = tf.where(nan, tf.cast(fill, t.dtype), t)
        fn = tf.reduce_max if is_max else tf.reduce_min
        res = fn(clean, axis=ax, keepdims=bool(keepdims))
        all_nan = tf.reduce_all(nan, axis=ax, keepdims=bool(keepdims))
        res = tf.where(all_nan, tf.cast(float("nan"), t.dtype), res)
    else:
        res = (tf.reduce_max if is_max else tf.reduce_min)(t, axis=ax, keepdims=bool(keepdims))
    return Tensor(U.apply_dtype(res, dtype))


def nanmax(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    """Maximum over ``axis`` ignoring NaNs."""
    return _nan_extreme(a, axis, dtype, keepdims, True)


def nanmin(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    """Minimum over ``axis`` ignoring NaNs."""
    return _nan_extreme(a, axis, dtype, keepdims, False)


def _cumsum_tf(t: tf.Tensor, axis: Any, dtype: Any) -> tf.Tensor:
    if axis is None:
        t, axis = tf.reshape(t, [-1]), 0
    axis = U.check_axis_in_range(axis, t.shape.rank)
    if dtype is not None:
        t = tf.cast(t, U.tf_dtype(dtype))
    elif t.dtype in _SMALL_INTS:
        t = tf.cast(t, tf.int32)
    return tf.cumsum(t, axis=axis)


def cumsum(a: Any, axis: int | None = None, dtype: Any = None) -> Tensor:
    """Cumulative sum along ``axis`` (of the flattened tensor when None)."""
    U.check_tensor("cumsum", a)
    return Tensor(_cumsum_tf(U.to_tf(a), axis, dtype))


def nancumsum(a: Any, axis: int | None = None, dtype: Any = None) -> Tensor:
    """Cumulative sum treating NaNs as zero."""
    return Tensor(_cumsum_tf(_nan_zero(U.to_tf(a)), axis, dtype))


def cumprod(a: Any, axis: int | None = None, dtype: Any = None) -> Tensor:
    """Cumulative product along ``axis`` (small integers and bools give int32, uint8/16 uint32)."""
    t = U.to_tf(a)
    if axis is not None and (not isinstance(axis, int) or isinstance(axis, bool)):
        raise TypeError(f"integer axis is expected, but got {type(axis)}")
    if axis is None:
        t, axis = tf.reshape(t, [-1]), 0
    axis = U.check_axis_in_range(axis, t.shape.rank)
    orig = t.dtype
    if dtype is None:
        out = {tf.int8: tf.int32, tf.int16: tf.int32, tf.bool: tf.int32, tf.uint8: tf.uint32,
               tf.uint16: tf.uint32}.get(orig, orig)
    else:
        out = U.tf_dtype(dtype)
    work = t if orig == tf.float64 else tf.cast(t, tf.float32)
    return Tensor(tf.cast(tf.math.cumprod(work, axis=axis), out))


def _arg(a: Any, axis: Any, is_max: bool) -> Tensor:
    t = U.to_tf(a)
    if t.dtype == tf.bool:
        t = tf.cast(t, tf.int32)
    if axis is None:
        t, axis = tf.reshape(t, [-1]), 0
    axis = U.check_axis_in_range(axis, t.shape.rank)
    fn = tf.argmax if is_max else tf.argmin
    return Tensor(fn(t, axis=axis, output_type=tf.int64 if is_max else tf.int32))


def argmax(a: Any, axis: int | None = None) -> Tensor:
    """Indices of the maximum values along ``axis`` (of the flattened tensor when None), int64."""
    return _arg(a, axis, True)


def argmin(a: Any, axis: int | None = None) -> Tensor:
    """Indices of the minimum values along ``axis`` (of the flattened tensor when None), int32."""
    return _arg(a, axis, False)


def count_nonzero(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Number of non-zero values over ``axis`` (int32)."""
    t = U.to_tf(x)
    nz = tf.cast(tf.not_equal(t, tf.zeros_like(t)), tf.int32)
    return Tensor(tf.reduce_sum(nz, axis=_axes(t, axis), keepdims=keepdims))


def _vector_norm(t: tf.Tensor, ord_: Any, ax: list, keepdims: bool) -> tf.Tensor:
    if ord_ in ("fro", "nuc"):
        raise ValueError("Frobenius norm and nuclear norm are only defined for vectors")
    res = _vector_norm_same_dtype(t, ord_, ax, keepdims)
    # as MindSpore, the p-norms (and the count of ord 0) of a float16 vector come out in float32
    if t.dtype == tf.float16 and ord_ not in (float("inf"), float("-inf")):
        res = tf.cast(res, tf.float32)
    return res


def _vector_norm_same_dtype(t: tf.Tensor, ord_: Any, ax: list, keepdims: bool) -> tf.Tensor:
    a = tf.abs(t)
    if ord_ is None or ord_ == 2:
        total = tf.reduce_sum(tf.square(a), axis=ax, keepdims=keepdims)
        return tf.sqrt(tf.cast(total, tf.float32) if t.dtype == tf.float16 else total)
    out = max_min_count_norm(t, ord_, ax, keepdims)
    if out is not None:
        return out
    p = tf.cast(ord_, t.dtype)
    total = tf.reduce_sum(tf.pow(a, p), axis=ax, keepdims=keepdims)
    if t.dtype == tf.float16:
        total = tf.cast(total, tf.float32)
    return tf.pow(total, 1.0 / tf.cast(ord_, total.dtype))


def _matrix_norm(t: tf.Tensor, ord_: Any, ax: list, keepdims: bool) -> tf.Tensor:
    r, c = ax
    if ord_ in (None, "fro"):
        return tf.sqrt(tf.reduce_sum(tf.square(t), axis=ax, keepdims=keepdims))
    if ord_ == "nuc" or ord_ in (2, -2):
        perm = [i for i in range(t.shape.rank) if i not in ax] + [r, c]
        s = tf.linalg.svd(tf.transpose(t, perm), compute_uv=False)
        res = {"nuc": tf.reduce_sum, 2: tf.reduce_max, -2: tf.reduce_min}[ord_](s, axis=-1)
    elif ord_ in (1, -1, float("inf"), float("-inf")):
        red_first, red_then = (r, c) if ord_ in (1, -1) else (c, r)
        sums = tf.reduce_sum(tf.abs(t), axis=red_first, keepdims=True)
        fn = tf.reduce_max if ord_ in (1, float("inf")) else tf.reduce_min
        res = fn(sums, axis=red_then, keepdims=True)
        res = tf.squeeze(res, ax)
    else:
        raise ValueError(f"Invalid norm order for matrices: {ord_!r}")
    if keepdims:
        for a in sorted(ax):
            res = tf.expand_dims(res, a)
    return res


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A002
    """Vector norm (``axis`` an int) or matrix norm (``axis`` a pair); float32 for integer inputs.

    Raises:
        ValueError: for an invalid ``ord`` or number of axes.
    """
    if not isinstance(ord, (int, float)) and ord not in (None, "fro", "nuc"):
        raise ValueError(f"invalid value for `ord`: {ord!r}")
    t = U.to_float(U.to_tf(x))
    if axis is None:
        if ord is None:
            t = tf.reshape(t, [-1]) if not keepdims else t
            if keepdims:
                res = tf.sqrt(tf.reduce_sum(tf.square(t), keepdims=True))
                return Tensor(res)
        if t.shape.rank not in (1, 2):
            raise ValueError("for None axis, array must a vector or a 2-D matrix")
        ax = list(range(t.shape.rank))
    else:
        ax = list(U.axis_tuple(axis, t.shape.rank))
    if len(ax) == 1:
        return Tensor(_vector_norm(t, ord, ax, keepdims))
    if len(ax) == 2:
        return Tensor(_matrix_norm(t, ord, ax, keepdims))
    raise ValueError("invalid number of dimensions to norm")


def diff(a: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> Tensor:
    """The ``n``-th discrete difference along ``axis``.

    Raises:
        ValueError: for a negative ``n`` or one that would leave the axis empty.
    """
    U.check_tensor("diff", a)
    t = U.to_tf(a)
    ax = U.check_axis_in_range(axis, t.shape.rank)
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"Input n should be int, but got {type(n)}")
    if n < 0:
        raise ValueError(f"Input n must > 0, but got {n}.")
    if n == 0:
        return Tensor(t)

    def edge(extra: Any) -> tf.Tensor:
        e = tf.cast(U.to_tf(extra), t.dtype)
        if e.shape.rank == 0:
            shp = list(U.static_shape(t))
            shp[ax] = 1
            e = tf.broadcast_to(e, shp)
        return e

    parts = ([edge(prepend)] if prepend is not None else []) + [t] + ([edge(append)] if append is not None else [])
    if len(parts) > 1:
        t = tf.concat(parts, axis=ax)
    if n >= t.shape[ax]:
        raise ValueError("n is bigger then the specified dimension, this will result in an empty tensor.")
    for _ in range(n):
        hi = [slice(None)] * t.shape.rank
        lo = [slice(None)] * t.shape.rank
        hi[ax], lo[ax] = slice(1, None), slice(None, -1)
        t = t[tuple(hi)] - t[tuple(lo)] if t.dtype != tf.bool else tf.not_equal(t[tuple(hi)], t[tuple(lo)])
    return Tensor(t)


def ediff1d(ary: Any, to_end: Any = None, to_begin: Any = None) -> Tensor:
    """Differences between consecutive elements of the flattened tensor, with optional ends."""
    U.check_tensor("ediff1d", ary)
    t = tf.reshape(U.to_tf(ary), [-1])
    parts = []
    if to_begin is not None:
        parts.append(tf.cast(tf.reshape(U.to_tf(to_begin), [-1]), t.dtype))
    parts.append(t[1:] - t[:-1])
    if to_end is not None:
        parts.append(tf.cast(tf.reshape(U.to_tf(to_end), [-1]), t.dtype))
    return Tensor(tf.concat(parts, axis=0))


def _grad_axis(t: tf.Tensor, h: Any, ax: int, edge_order: int) -> tf.Tensor:
    def sl(lo: Any, hi: Any) -> tf.Tensor:
        idx = [slice(None)] * t.shape.rank
        idx[ax] = slice(lo, hi)
        return t[tuple(idx)]
    h = tf.cast(U.to_tf(h), t.dtype)
    interior = (sl(2, None) - sl(None, -2)) / (2.0 * h)
    if edge_order == 1 or t.shape[ax] < 3:
        first = (sl(1, 2) - sl(0, 1)) / h
        last = (sl(-1, None) - sl(-2, -1)) / h
    else:
        first = (-1.5 * sl(0, 1) + 2.0 * sl(1, 2) - 0.5 * sl(2, 3)) / h
        last = (0.5 * sl(-3, -2) - 2.0 * sl(-2, -1) + 1.5 * sl(-1, None)) / h
    return tf.concat([first, interior, last], axis=ax)


def gradient(f: Any, *varargs: Any, axis: Any = None, edge_order: int = 1) -> Any:
    """Numerical gradient by second-order central differences inside and one-sided ones at the edges.

    Raises:
        ValueError: for an axis shorter than 2 (or 3 with ``edge_order=2``).
    """
    t = U.to_float(U.to_tf(f))
    axes = list(range(t.shape.rank)) if axis is None else list(
        U.axis_tuple(axis, t.shape.rank) if isinstance(axis, (list, tuple)) else (U.check_axis_in_range(
            axis, t.shape.rank),))
    if edge_order not in (1, 2):
        raise ValueError("edge_order must be 1 or 2.")
    n = len(varargs)
    if n == 0:
        dx = [1.0] * len(axes)
    elif n == 1:
        dx = list(varargs) * len(axes)
    elif n == len(axes):
        dx = list(varargs)
    else:
        raise TypeError("Invalid number of arguments")
    res = []
    for h, ax in zip(dx, axes):
        if t.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) "
                             "elements are required.")
        if not isinstance(h, numbers.Number) and not (U.is_tensor(h) and U.to_tf(h).shape.rank == 0):
            raise NotImplementedError("Non-constant spacing not implemented")
        res.append(Tensor(_grad_axis(t, h, ax, edge_order)))
    return res[0] if len(res) == 1 else res


def trapz(y: Any, x: Any = None, dx: float = 1.0, axis: int = -1) -> Tensor:
    """Integral along ``axis`` by the trapezoidal rule (sample points ``x`` or spacing ``dx``)."""
    t = U.to_float(U.to_tf(y))
    ax = U.check_axis_in_range(axis, t.shape.rank)
    hi = [slice(None)] * t.shape.rank
    lo = [slice(None)] * t.shape.rank
    hi[ax], lo[ax] = slice(1, None), slice(None, -1)
    if x is not None:
        xs = tf.cast(U.to_tf(x), t.dtype)
        d = xs[1:] - xs[:-1] if xs.shape.rank == 1 else xs[tuple(hi)] - xs[tuple(lo)]
        if d.shape.rank == 1:
            shp = [1] * t.shape.rank
            shp[ax] = -1
            d = tf.reshape(d, shp)
    else:
        d = tf.cast(U.to_tf(dx), t.dtype)
    return Tensor(tf.reduce_sum((t[tuple(hi)] + t[tuple(lo)]) * d / 2.0, axis=ax))
