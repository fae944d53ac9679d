"""Selection and indexing of ``mindspore.numpy.array_ops``: ``where``, ``take``, ``take_along_axis``, ``choose``,
``select``, ``piecewise``, ``repeat``, ``unique``, ``unravel_index``, ``argwhere``, ``intersect1d`` and the
``apply_*`` helpers.
"""
from __future__ import annotations

import numbers
from typing import Any, Callable

import tensorflow as tf

from tfspore.common.tensor import Tensor
from tfspore.numpy import _utils as U

__all__ = ["where", "take_along_axis", "take", "repeat", "select", "choose", "piecewise", "unique",
           "unravel_index", "argwhere", "intersect1d", "apply_along_axis", "apply_over_axes"]


def where(condition: Any, x: Any = None, y: Any = None) -> Any:
    """Elements of ``x`` where ``condition`` holds and of ``y`` elsewhere (broadcast; dtypes promoted).

    With only ``condition``, the indices of its non-zero elements (a tuple of tensors, as ``nonzero``).
    """
    c = U.to_tf(condition)
    if x is None and y is None:
        idx = tf.where(tf.cast(c, tf.bool) if c.dtype != tf.bool else c)
        return tuple(Tensor(tf.cast(idx[:, i], tf.int64)) for i in range(c.shape.rank))
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    xt, yt = U.promote_all([U.to_tf(x), U.to_tf(y)])
    if c.dtype != tf.bool:
        c = tf.cast(c, tf.bool)
    shp = U.broadcast_shape(c, xt, yt)
    return Tensor(tf.where(tf.broadcast_to(c, shp), tf.broadcast_to(xt, shp), tf.broadcast_to(yt, shp)))


def take_along_axis(arr: Any, indices: Any, axis: int | None) -> Tensor:
    """Values of ``arr`` at ``indices`` along ``axis`` (indices broadcast against ``arr`` off that axis).

    Raises:
        ValueError: when ``arr`` and ``indices`` differ in rank.
    """
    U.check_tensor("take_along_axis", arr, indices)
    a, idx = U.to_tf(arr), U.to_tf(indices)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    ndim = a.shape.rank
    if ndim != idx.shape.rank:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    axis = U.check_axis_in_range(axis, ndim)
    a_shape, i_shape = U.shape_of(a), U.shape_of(idx)
    def bigger(p: Any, q: Any) -> Any:
        return max(p, q) if isinstance(p, int) and isinstance(q, int) else tf.maximum(p, q)

    out_i = [bigger(a_shape[d], i_shape[d]) if d != axis else i_shape[d] for d in range(ndim)]
    out_a = [bigger(a_shape[d], i_shape[d]) if d != axis else a_shape[d] for d in range(ndim)]
    idx = tf.broadcast_to(idx, out_i)
    a = tf.broadcast_to(a, out_a)
    idx = tf.where(idx < 0, idx + tf.cast(a_shape[axis], idx.dtype), idx)
    return Tensor(tf.gather(a, idx, axis=axis, batch_dims=axis))


def _clip_indices(idx: tf.Tensor, dims: int, mode: str, allow_negative: bool = True) -> tf.Tensor:
    if mode == "raise":
        raise NotImplementedError('"raise" mode is not implemented')
    if mode == "wrap":
        return tf.math.floormod(idx, tf.cast(dims, idx.dtype))
    if mode != "clip":
        raise ValueError(f'invalid mode. Expected "raise", "wrap", or "clip", but got {mode!r}')
    lo = -dims if allow_negative else 0
    idx = tf.where(idx < lo, tf.zeros_like(idx), idx)
    idx = tf.where(idx > dims - 1, tf.fill(tf.shape(idx), tf.cast(dims - 1, idx.dtype)), idx)
    return tf.where(idx < 0, idx + tf.cast(dims, idx.dtype), idx)


def take(a: Any, indices: Any, axis: int | None = None, mode: str = "clip") -> Tensor:
    """Elements of ``a`` at ``indices`` along ``axis`` (the flattened tensor when None).

    ``mode`` 'clip' clamps out-of-range indices (negative ones count from the end), 'wrap' wraps
    them around; 'raise' is not supported, as in MindSpore.
    """
    U.check_tensor("take", a, indices)
    t, idx = U.to_tf(a), U.to_tf(indices)
    if axis is None:
        t, axis = tf.reshape(t, [-1]), 0
    axis = U.check_axis_in_range(axis, t.shape.rank)
    idx = _clip_indices(idx, t.shape[axis], mode)
    return Tensor(tf.gather(t, idx, axis=axis))


def repeat(a: Any, repeats: Any, axis: int | None = None) -> Tensor:
    """Repeats each element ``repeats`` times (an int, or one count per element along ``axis``)."""
    t = U.to_tf(a)
    if axis is None:
        t, axis = tf.reshape(t, [-1]), 0
    axis = U.check_axis_in_range(axis, t.shape.rank)
    if isinstance(repeats, (list, tuple)):
        if len(repeats) == 1:
            repeats = repeats[0]
        else:
            if len(repeats) != t.shape[axis]:
                raise ValueError(f"For 'repeat', the length of 'repeats' must equal the size of axis {axis}, "
                                 f"but got {len(repeats)} and {t.shape[axis]}.")
            repeats = list(repeats)
    if isinstance(repeats, numbers.Integral) and repeats < 0:
        raise ValueError(f"For 'repeat', the 'repeats' must be non-negative, but got {repeats}.")
    return Tensor(tf.repeat(t, repeats, axis=axis))


def select(condlist: Any, choicelist: Any, default: Any = 0) -> Tensor:
    """Elements of the first choice whose condition holds, ``default`` where none holds.

    Raises:
        ValueError: for scalar inputs or condition and choice lists of different lengths.
    """
    conds, choices = U.to_tf(condlist), U.to_tf(choicelist)
    if conds.shape.rank == 0 or choices.shape.rank == 0:
        raise ValueError("input cannot be scalars")
    if conds.shape[0] != choices.shape[0]:
        raise ValueError("list of cases must be same length as list of conditions")
    res_dtype = choices.dtype
    out = tf.cast(U.to_tf(default), res_dtype)
    for i in range(conds.shape[0] - 1, -1, -1):
        c = tf.cast(conds[i], tf.bool)
        shp = U.broadcast_shape(c, choices[i], out)
        out = tf.where(tf.broadcast_to(c, shp), tf.broadcast_to(choices[i], shp), tf.broadcast_to(out, shp))
    return Tensor(out)


def choose(a: Any, choices: Any, mode: str = "clip") -> Tensor:
    """For each element of the int tensor ``a``, the element of ``choices[a]`` at that position.

    Raises:
        ValueError: for a non-int ``a`` or scalar inputs.
    """
    idx = U.to_tf(a)
    if idx.dtype not in U.INT_TYPES:
        raise ValueError("`a` should be an int array")
    if isinstance(choices, (list, tuple)):
        cs = U.promote_all([U.to_tf(c) for c in choices])
    else:
        ct = U.to_tf(choices)
        cs = [ct[i] for i in range(ct.shape[0])]
    shp = idx.shape
    for c in cs:
        shp = tf.broadcast_static_shape(shp, c.shape)
    if idx.shape.rank == 0 and shp.rank == 0:
        raise ValueError("input cannot be scalars")
    stacked = tf.stack([tf.broadcast_to(c, shp) for c in cs])
    idx = _clip_indices(tf.broadcast_to(idx, shp), len(cs), mode, allow_negative=False)
    moved = tf.transpose(stacked, list(range(1, shp.rank + 1)) + [0])
    return Tensor(tf.gather(moved, tf.expand_dims(idx, -1), axis=shp.rank, batch_dims=shp.rank)[..., 0])


def piecewise(x: Any, condlist: Any, funclist: Any, *args: Any, **kw: Any) -> Tensor:
    """Evaluates a piecewise-defined function: ``funclist[i]`` (a function or a value) where ``condlist[i]``.

    A ``funclist`` one longer than ``condlist`` gives the default for where no condition holds.
    """
    xt = U.to_tf(x)
    conds = condlist if isinstance(condlist, (list, tuple)) else [condlist]
    conds = [tf.broadcast_to(tf.cast(U.to_tf(c), tf.bool), tf.shape(xt)) for c in conds]
    vals = []
    for f in funclist:
        v = f(Tensor(xt), *args, **kw) if callable(f) else f
        vals.append(tf.broadcast_to(U.to_tf(v), tf.shape(xt)))
    vals = U.promote_all(vals)
    n1, n2 = len(conds), len(vals)
    if n1 + 1 == n2:
        out = vals[-1]
        vals = vals[:-1]
    elif n1 == n2:
        out = tf.zeros_like(vals[0])
    else:
        raise ValueError(f"the number of choices should be either equal to conditions or {n1 + 1}, but got {n2}")
    for c, v in zip(reversed(conds), reversed(vals)):
        out = tf.where(c, v, out)
    return Tensor(out)


def unique(x: Any, return_inverse: bool = False) -> Any:
    """The unique elements of the flattened tensor in order of first occurrence, as MindSpore (and the inverse
    indices when asked)."""
    U.check_tensor("unique", x)
    t = tf.reshape(U.to_tf(x), [-1])
    vals, inv = tf.unique(t, out_idx=tf.int32)
    if not return_inverse:
        return Tensor(vals)
    return Tensor(vals), Tensor(inv)


def unravel_index(indices: Any, shape: Any, order: str = "C") -> Any:
    """Flat indices as a tuple of coordinate tensors for an array of ``shape`` (out-of-range indices clamp)."""
    idx = U.to_tf(indices)
    if order not in ("C", "F"):
        raise ValueError('invalid order. Expected "C" or "F"')
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    total = 1
    for s in shape:
        total *= s
    idx = tf.clip_by_value(idx, tf.cast(-total, idx.dtype), tf.cast(total - 1, idx.dtype))
    idx = tf.math.floormod(idx, tf.cast(total, idx.dtype))
    dims = shape if order == "C" else shape[::-1]
    coords = []
    rem = idx
    for d in reversed(dims):
        coords.append(tf.math.floormod(rem, tf.cast(d, idx.dtype)))
        rem = tf.math.floordiv(rem, tf.cast(d, idx.dtype))
    coords = coords[::-1] if order == "C" else coords
    if idx.shape.rank == 0 and len(shape) == 1:
        return Tensor(tf.reshape(coords[0], [1]))
    return tuple(Tensor(c) for c in coords)


def argwhere(a: Any) -> Tensor:
    """The indices of the non-zero elements, one row per element (int64)."""
    t = U.to_tf(a)
    return Tensor(tf.where(tf.cast(t, tf.bool) if t.dtype != tf.bool else t))


def intersect1d(ar1: Any, ar2: Any, assume_unique: bool = False, return_indices: bool = False) -> Any:
    """The sorted unique values in both inputs (with their first indices in each when asked)."""
    a = tf.reshape(U.to_tf(ar1), [-1])
    b = tf.reshape(U.to_tf(ar2), [-1])
    a, b = U.promote_all([a, b])
    ua = tf.sort(tf.unique(a)[0])
    ub = tf.unique(b)[0]
    common = tf.boolean_mask(ua, tf.reduce_any(tf.equal(ua[:, None], ub[None, :]), axis=1))
    if not return_indices:
        return Tensor(common)
    ia = tf.argmax(tf.cast(tf.equal(common[:, None], a[None, :]), tf.int32), axis=1, output_type=tf.int32)
    ib = tf.argmax(tf.cast(tf.equal(common[:, None], b[None, :]), tf.int32), axis=1, output_type=tf.int32)
    return Tensor(common), Tensor(ia), Tensor(ib)


def apply_along_axis(func1d: Callable, axis: int, arr: Any, *args: Any, **kwargs: Any) -> Tensor:
    """Applies ``func1d`` to the 1-D slices along ``axis``; its output dimensions replace ``axis``."""
    t = U.to_tf(arr)
    ndim = t.shape.rank
    axis = U.check_axis_in_range(axis, ndim)
    moved = tf.transpose(t, [i for i in range(ndim) if i != axis] + [axis])
    batch_shape = moved.shape.as_list()[:-1]
    flat = tf.reshape(moved, [-1, moved.shape[-1]])
    outs = [U.to_tf(func1d(Tensor(flat[i]), *args, **kwargs)) for i in range(flat.shape[0])]
    stacked = tf.stack(outs)
    res = tf.reshape(stacked, batch_shape + stacked.shape.as_list()[1:])
    extra = res.shape.rank - (ndim - 1)
    if extra >= 1:
        perm = list(range(axis)) + list(range(ndim - 1, res.shape.rank)) + list(range(axis, ndim - 1))
        res = tf.transpose(res, perm)
    return Tensor(res)


def apply_over_axes(func: Callable, a: Any, axes: Any) -> Tensor:
    """Applies ``func(a, axis)`` over each of ``axes`` in turn, keeping the reduced dimensions."""
    res = Tensor(U.to_tf(a))
    axes = axes if isinstance(axes, (list, tuple)) else (axes,)
    for ax in axes:
        out = U.to_tf(func(res, ax))
        r = U.to_tf(res)
        if out.shape.rank == r.shape.rank - 1:
            out = tf.expand_dims(out, U.check_axis_in_range(ax, r.shape.rank))
        elif out.shape.rank != r.shape.rank:
            raise ValueError("function is not returning a tensor of the correct shape")
        res = Tensor(out)
    return res
