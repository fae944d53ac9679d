"""Array manipulation of ``mindspore.numpy.array_ops``: reshaping, transposing, joining, splitting, flipping,
rolling. All results are tfspore Tensors computed with TensorFlow ops.
"""
from __future__ import annotations

import numbers
from typing import Any

import numpy as onp
import tensorflow as tf

from tfspore._internal import validator
from tfspore.common.tensor import Tensor
from tfspore.numpy import _utils as U

__all__ = ["transpose", "expand_dims", "squeeze", "rollaxis", "swapaxes", "moveaxis", "reshape", "ravel",
           "concatenate", "stack", "hstack", "vstack", "dstack", "column_stack", "atleast_1d", "atleast_2d",
           "atleast_3d", "tile", "broadcast_to", "broadcast_arrays", "roll", "append", "split", "array_split",
           "vsplit", "hsplit", "dsplit", "flip", "flipud", "fliplr", "rot90", "size", "array_str"]


def _t(a: Any, api: str, strict: bool = True) -> tf.Tensor:
    if strict:
        U.check_tensor(api, a)
    return U.to_tf(a)


def transpose(a: Any, axes: Any = None) -> Tensor:
    """Reverses or permutes the axes of a tensor.

    Raises:
        ValueError: if ``axes`` is not a permutation of the tensor's axes.
    """
    t = _t(a, "transpose")
    ndim = t.shape.rank
    if axes is None:
        perm = list(range(ndim))[::-1]
    else:
        axes = tuple(axes) if isinstance(axes, (list, tuple)) else (axes,)
        perm = [U.check_axis_in_range(x, ndim) for x in axes]
        if sorted(perm) != list(range(ndim)):
            raise ValueError(f"For 'transpose', the axes {axes} don't match array of dimension {ndim}.")
    return Tensor(tf.transpose(t, perm))


def expand_dims(a: Any, axis: Any) -> Tensor:
    """Inserts new axes of length 1 at the positions ``axis`` (an int or a tuple) of the result."""
    t = _t(a, "expand_dims")
    axes = axis if isinstance(axis, (list, tuple)) else (axis,)
    out_ndim = t.shape.rank + len(axes)
    pos = U.canonicalize_axis(tuple(axes), out_ndim)
    pos = pos if isinstance(pos, tuple) else (pos,)
    for p in pos:
        t = tf.expand_dims(t, p)
    return Tensor(t)


def squeeze(a: Any, axis: Any = None) -> Tensor:
    """Removes axes of length 1 (all of them, or those of ``axis`` that have length 1)."""
    t = _t(a, "squeeze")
    if axis is None:
        return Tensor(tf.squeeze(t))
    # as MindSpore 2.10, a selected axis whose length is not 1 is left in place
    axes = [ax for ax in U.axis_tuple(axis, t.shape.rank) if t.shape[ax] == 1]
    return Tensor(tf.squeeze(t, axes) if axes else t)


def _move(t: tf.Tensor, source: Any, destination: Any) -> tf.Tensor:
    ndim = t.shape.rank
    src = source if isinstance(source, (list, tuple)) else (source,)
    dst = destination if isinstance(destination, (list, tuple)) else (destination,)
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    src = [U.check_axis_in_range(s, ndim) for s in src]
    dst = [U.check_axis_in_range(d, ndim) for d in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError(f"duplicate axes in {source} or {destination}.")
    order = [i for i in range(ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return tf.transpose(t, order)


def moveaxis(a: Any, source: Any, destination: Any) -> Tensor:
    """Moves axes to new positions; the other axes keep their order."""
    return Tensor(_move(_t(a, "moveaxis"), source, destination))


def swapaxes(x: Any, axis1: int, axis2: int) -> Tensor:
    """Interchanges two axes."""
    t = _t(x, "swapaxes")
    ndim = t.shape.rank
    a1, a2 = U.check_axis_in_range(axis1, ndim), U.check_axis_in_range(axis2, ndim)
    perm = list(range(ndim))
    perm[a1], perm[a2] = perm[a2], perm[a1]
    return Tensor(tf.transpose(t, perm))


def rollaxis(x: Any, axis: int, start: int = 0) -> Tensor:
    """Rolls ``axis`` backwards until it lies before position ``start``."""
    t = _t(x, "rollaxis")
    ndim = t.shape.rank
    validator.check_int(axis, "axis", "rollaxis")
    validator.check_int(start, "start", "rollaxis")
    axis = U.check_axis_in_range(axis, ndim)
    if not -ndim <= start <= ndim:
        raise ValueError(f"For rollaxis, start {start} is out of bounds. Ranging from {-ndim} to {ndim} is allowed.")
    start = start + ndim if start < 0 else start
    if axis < start:
        start -= 1
    if axis == start:
        return Tensor(t)
    return Tensor(_move(t, axis, start))


def reshape(x: Any, new_shape: Any) -> Tensor:
    """Gives a new shape (one entry may be -1) without changing the data.

    Raises:
        ValueError: if the sizes don't match.
    """
    t = _t(x, "reshape")
    shp = (new_shape,) if isinstance(new_shape, numbers.Integral) else tuple(new_shape)
    known = [d for d in shp if d != -1]
    size = t.shape.num_elements()
    if size is not None and shp.count(-1) <= 1 and -1 not in shp and int(onp.prod(known)) != size:
        raise ValueError(f"For 'reshape', cannot reshape array of size {size} into shape {shp}.")
    return Tensor(tf.reshape(t, shp))


def ravel(x: Any) -> Tensor:
    """The tensor flattened to 1-D."""
    return Tensor(tf.reshape(_t(x, "ravel"), [-1]))


def _seq(arrays: Any, api: str) -> list:
    if arrays is None:
        raise TypeError(f"For '{api}', expect Union[Tensor, tuple(Tensor), list(Tensor)], but got None")
    if U.is_tensor(arrays):
        t = U.to_tf(arrays)
        return [t[i] for i in range(t.shape[0])]
    if not isinstance(arrays, (list, tuple)):
        raise TypeError(f"For '{api}', Tensor or, list or tuple of tensors are required, but got {type(arrays)}")
    if not arrays:
        raise ValueError("Need at least one tensor to concatenate.")
    return [U.to_tf(a) for a in arrays]


def concatenate(arrays: Any, axis: Any = 0) -> Tensor:
    """Joins tensors along an existing axis (``axis=None`` flattens them first); dtypes are promoted."""
    if U.is_tensor(arrays):
        t = U.to_tf(arrays)
        if axis is None:
            return Tensor(tf.reshape(t, [-1]))
        ax = U.check_axis_in_range(axis, t.shape.rank - 1)
        return Tensor(tf.concat(tf.unstack(t), axis=ax))
    ts = U.promote_all(_seq(arrays, "concatenate"))
    if axis is None:
        return Tensor(tf.concat([tf.reshape(t, [-1]) for t in ts], axis=0))
    ax = U.check_axis_in_range(axis, ts[0].shape.rank)
    return Tensor(tf.concat(ts, axis=ax))


def stack(arrays: Any, axis: int = 0) -> Tensor:
    """Joins tensors of one shape along a new axis.

    Raises:
        ValueError: for tensors of different shapes.
    """
    if U.is_tensor(arrays):
        t = U.to_tf(arrays)
        return Tensor(_move(t, 0, axis) if t.shape.rank else t)
    ts = U.promote_all(_seq(arrays, "stack"))
    shapes = {tuple(t.shape.as_list()) for t in ts}
    if len(shapes) != 1:
        raise ValueError(f"For 'stack', all input arrays must have the same shape, but got {sorted(shapes)}.")
    ax = U.check_axis_in_range(axis, ts[0].shape.rank + 1)
    return Tensor(tf.stack(ts, axis=ax))


def _atleast(t: tf.Tensor, n: int) -> tf.Tensor:
    r = t.shape.rank
    if r >= n:
        return t
    if n == 1:
        return tf.reshape(t, [1])
    if n == 2:
        return tf.reshape(t, [1] * (2 - r) + U.shape_of(t))
    if r == 0:
        return tf.reshape(t, [1, 1, 1])
    if r == 1:
        return t[None, :, None]
    return t[:, :, None]


def _atleast_nd(n: int, arys: tuple) -> Any:
    U.check_tensor(f"atleast_{n}d", *arys)
    res = [Tensor(_atleast(U.to_tf(a), n)) for a in arys]
    return res[0] if len(res) == 1 else res


def atleast_1d(*arys: Any) -> Any:
    """Tensors viewed with at least one dimension."""
    return _atleast_nd(1, arys)


def atleast_2d(*arys: Any) -> Any:
    """Tensors viewed with at least two dimensions."""
    return _atleast_nd(2, arys)


def atleast_3d(*arys: Any) -> Any:
    """Tensors viewed with at least three dimensions (``(N,)`` becomes ``(1, N, 1)``)."""
    return _atleast_nd(3, arys)


def hstack(tup: Any) -> Tensor:
    """Stacks horizontally (column wise): along axis 1, or axis 0 for 1-D tensors."""
    if U.is_tensor(tup):
        return Tensor(U.to_tf(tup))
    ts = U.promote_all([_atleast(t, 1) for t in _seq(tup, "hstack")])
    return Tensor(tf.concat(ts, axis=0 if ts[0].shape.rank == 1 else 1))


def vstack(tup: Any) -> Tensor:
    """Stacks vertically (row wise): 1-D tensors become rows."""
    if U.is_tensor(tup):
        return Tensor(U.to_tf(tup))
    ts = U.promote_all([_atleast(t, 2) for t in _seq(tup, "vstack")])
    return Tensor(tf.concat(ts, axis=0))


def dstack(tup: Any) -> Tensor:
    """Stacks depth wise (along the third axis)."""
    if U.is_tensor(tup):
        return Tensor(U.to_tf(tup))
    ts = U.promote_all([_atleast(t, 3) for t in _seq(tup, "dstack")])
    return Tensor(tf.concat(ts, axis=2))


def column_stack(tup: Any) -> Tensor:
    """Stacks 1-D tensors as columns of a 2-D tensor (2-D tensors are stacked as they are)."""
    if U.is_tensor(tup):
        return Tensor(U.to_tf(tup))
    ts = []
    for t in _seq(tup, "column_stack"):
        if t.shape.rank < 1:
            t = tf.reshape(t, [1])
        if t.shape.rank == 1:
            t = t[:, None]
        ts.append(t)
    return Tensor(tf.concat(U.promote_all(ts), axis=1))


def tile(a: Any, reps: Any) -> Tensor:
    """Repeats ``a`` ``reps`` times along each axis (``reps`` may be longer than ``a``'s rank)."""
    t = _t(a, "tile")
    reps = (reps,) if isinstance(reps, numbers.Integral) else tuple(reps)
    ndim = max(t.shape.rank, len(reps))
    t = tf.reshape(t, [1] * (ndim - t.shape.rank) + U.shape_of(t)) if ndim > t.shape.rank else t
    reps = (1,) * (ndim - len(reps)) + reps
    return Tensor(tf.tile(t, reps))


def broadcast_to(array: Any, shape: Any) -> Tensor:
    """Broadcasts a tensor to a new shape.

    Raises:
        ValueError: if the shapes are not compatible.
    """
    t = U.to_tf(array)
    shape = (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)
    try:
        out = tf.broadcast_static_shape(t.shape, tf.TensorShape(shape))
    except ValueError:
        out = None
    if out is None or (out.is_fully_defined() and tuple(out.as_list()) != shape):
        raise ValueError(f"cannot broadcast with {shape}")
    return Tensor(tf.broadcast_to(t, shape))


def broadcast_arrays(*args: Any) -> list:
    """Broadcasts any number of tensors against each other."""
    ts = [U.to_tf(a) for a in args]
    try:
        shp = U.broadcast_shape(*ts)
    except ValueError:
        raise ValueError(f"shape mismatch: objects cannot be broadcast to a single shape, got "
                         f"{[tuple(x.shape.as_list()) for x in ts]}") from None
    return [Tensor(tf.broadcast_to(t, shp)) for t in ts]


def roll(a: Any, shift: Any, axis: Any = None) -> Tensor:
    """Rolls elements along ``axis`` (the flattened tensor when None); elements leaving one end re-enter."""
    t = _t(a, "roll")
    if axis is None:
        return Tensor(tf.reshape(tf.roll(tf.reshape(t, [-1]), shift, 0), U.shape_of(t)))
    shifts = shift if isinstance(shift, (list, tuple)) else (shift,)
    axes = axis if isinstance(axis, (list, tuple)) else (axis,)
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(axes) == 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError(f"shape mismatch: shift {shift} and axis {axis} cannot be broadcast together")
    axes = [U.check_axis_in_range(x, t.shape.rank) for x in axes]
    return Tensor(tf.roll(t, list(shifts), axes))


def append(arr: Any, values: Any, axis: int | None = None) -> Tensor:
    """Appends ``values`` to the end of ``arr`` (both flattened when ``axis`` is None)."""
    U.check_tensor("append", arr, values)
    a, v = U.to_tf(arr), U.to_tf(values)
    if axis is None:
        a, v = tf.reshape(a, [-1]), tf.reshape(v, [-1])
        axis = 0
    else:
        axis = U.check_axis_in_range(axis, a.shape.rank)
    if a.shape.rank != v.shape.rank:
        raise ValueError("all tensors must have same number of dimensions")
    return Tensor(tf.concat(U.promote_all([a, v]), axis=axis))


def _split_at(t: tf.Tensor, bounds: list, axis: int) -> list:
    n = t.shape[axis]
    edges = [0] + [min(max(b if b >= 0 else b + n, 0), n) for b in bounds] + [n]
    parts = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        idx = [slice(None)] * t.shape.rank
        idx[axis] = slice(lo, max(lo, hi))
        parts.append(Tensor(t[tuple(idx)]))
    return parts


def _split(x: Any, indices_or_sections: Any, axis: int, api: str, even: bool) -> list:
    t = _t(x, api)
    axis = U.check_axis_in_range(validator.check_int(axis, "axis", api), t.shape.rank)
    n = t.shape[axis]
    if isinstance(indices_or_sections, numbers.Integral) and not isinstance(indices_or_sections, bool):
        k = int(indices_or_sections)
        if k <= 0:
            raise ValueError(f"For '{api}', the number of sections must be larger than 0, but got {k}.")
        if even and n % k:
            raise ValueError(f"For '{api}', array split does not result in an equal division: {n} into {k}.")
        size, extra = divmod(n, k)
        sizes = [size + 1] * extra + [size] * (k - extra)
        bounds = list(onp.cumsum(sizes)[:-1])
        return _split_at(t, [int(b) for b in bounds], axis)
    if isinstance(indices_or_sections, (list, tuple)) or U.is_tensor(indices_or_sections):
        vals = indices_or_sections
        if U.is_tensor(vals):
            vals = tf.convert_to_tensor(vals).numpy().tolist()
        return _split_at(t, [int(v) for v in vals], axis)
    raise TypeError(f"For '{api}', the 'indices_or_sections' should be int, tuple(int) or list(int), but got "
                    f"{type(indices_or_sections)}")


def split(x: Any, indices_or_sections: Any, axis: int = 0) -> list:
    """Splits a tensor into equal sections, or at the given indices, along ``axis``.

    Raises:
        ValueError: when an int number of sections does not divide the axis.
    """
    return _split(x, indices_or_sections, axis, "split", True)


def array_split(x: Any, indices_or_sections: Any, axis: int = 0) -> list:
    """Like :func:`split`, but an int number of sections need not divide the axis."""
    return _split(x, indices_or_sections, axis, "array_split", False)


def vsplit(x: Any, indices_or_sections: Any) -> list:
    """Splits along axis 0."""
    return _split(x, indices_or_sections, 0, "vsplit", True)


def hsplit(x: Any, indices_or_sections: Any) -> list:
    """Splits along axis 1 (axis 0 for 1-D tensors)."""
    t = _t(x, "hsplit")
    return _split(t, indices_or_sections, 1 if t.shape.rank > 1 else 0, "hsplit", True)


def dsplit(x: Any, indices_or_sections: Any) -> list:
    """Splits along axis 2."""
    return _split(x, indices_or_sections, 2, "dsplit", True)


def flip(m: Any, axis: Any = None) -> Tensor:
    """Reverses the order of elements along ``axis`` (all axes when None)."""
    t = _t(m, "flip")
    axes = U.axis_tuple(axis, t.shape.rank)
    axes = tuple(range(t.shape.rank)) if axes is None else axes
    return Tensor(tf.reverse(t, list(axes)) if axes else t)


def flipud(m: Any) -> Tensor:
    """Flips along axis 0."""
    return flip(m, 0)


def fliplr(m: Any) -> Tensor:
    """Flips along axis 1."""
    return flip(m, 1)


def rot90(a: Any, k: int = 1, axes: Any = (0, 1)) -> Tensor:
    """Rotates a tensor by 90 degrees ``k`` times in the plane of ``axes``.

    Raises:
        TypeError: for a non-int ``k`` or non-sequence ``axes``. ValueError: for equal axes.
    """
    t = _t(a, "rot90")
    if not isinstance(k, int) or isinstance(k, bool):
        raise TypeError(f"integer argument expected, but got {type(k)}")
    if not isinstance(axes, (tuple, list)):
        raise TypeError(f"tuple(ints) or list(ints) expected, but got {type(axes)}")
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    a1, a2 = U.check_axis_in_range(axes[0], t.shape.rank), U.check_axis_in_range(axes[1], t.shape.rank)
    if a1 == a2:
        raise ValueError("Axes must be different.")
    k %= 4
    if k == 0:
        return Tensor(t)
    if k == 2:
        return Tensor(tf.reverse(t, [a1, a2]))
    perm = list(range(t.shape.rank))
    perm[a1], perm[a2] = perm[a2], perm[a1]
    return Tensor(tf.reverse(tf.transpose(t, perm), [a1 if k == 1 else a2]))


def size(a: Any, axis: int | None = None) -> int:
    """The number of elements, or the length along ``axis``."""
    t = U.to_tf(a)
    if axis is None:
        return t.shape.num_elements()
    if not isinstance(axis, int):
        raise TypeError("axis argument should be integer.")
    return t.shape[U.check_axis_in_range(axis, t.shape.rank)]


def array_str(a: Any) -> str:
    """The string form of a tensor's data."""
    U.check_tensor("array_str", a)
    return str(onp.asarray(tf.convert_to_tensor(a)))
