"""Indexing ops: gather / scatter, slicing, sorting (``ops.gather``, ``ops.tensor_scatter_elements``, ``ops.topk``).

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> ops.gather(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)), Tensor(np.array([2, 0])), 1).shape
    (2, 2)
"""
from __future__ import annotations

import builtins
from typing import Any

import tensorflow as tf

from tfspore._internal import runtime_check
from tfspore._internal import validator as V
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function._utils import ms_dtype_of as _dt, norm_axis, shape_arg, to_tf

__all__ = [
    "gather", "gather_d", "gather_elements", "gather_nd", "scatter_nd", "tensor_scatter_update", "tensor_scatter_add",
    "tensor_scatter_sub", "tensor_scatter_mul", "tensor_scatter_div", "tensor_scatter_max", "tensor_scatter_min",
    "tensor_scatter_elements", "scatter", "slice", "strided_slice", "topk", "sort", "argsort", "unique", "tril",
    "triu", "flip", "reverse", "roll", "nonzero", "index_select", "repeat_interleave", "repeat_elements", "meshgrid",
    "reverse_sequence", "sequence_mask", "bincount", "searchsorted", "diag", "matrix_diag",
]

_range = builtins.range


# ---------------------------------------------------------------------------- gather / scatter
def _int_idx(op: str, arg: str, x: Any) -> tf.Tensor:
    t = to_tf(x, op, arg)
    if not t.dtype.is_integer:
        raise TypeError(f"For '{op}', the '{arg}' must be an int32 or int64 tensor, but got {_dt(t)}.")
    return t


def gather(input_params: Any, input_indices: Any, axis: int, batch_dims: int = 0) -> Tensor:
    """Gather slices of ``input_params`` along ``axis`` at ``input_indices``."""
    t = to_tf(input_params, "Gather", "input_params")
    i = _int_idx("Gather", "input_indices", input_indices)
    if isinstance(axis, Tensor):
        axis = int(axis.asnumpy())
    a = V.check_axis(axis, "axis", "Gather", t.shape.rank)
    size = t.shape[a] if t.shape[a] is not None else tf.shape(t, out_type=i.dtype)[a]
    i = runtime_check.wrap_indices(i, size, "Gather")
    return _wrap(tf.gather(t, i, axis=a, batch_dims=batch_dims))


def index_select(input: Any, axis: int, index: Any) -> Tensor:  # noqa: A002
    """Select entries of ``input`` along ``axis`` at the 1-D ``index``."""
    return gather(input, index, axis)


def _full_coords(index: tf.Tensor, a: int) -> tf.Tensor:
    """Coordinates ``[..., rank]`` that take every position of ``index`` with ``index`` along axis ``a``."""
    r = index.shape.rank
    shp = tf.shape(index, out_type=index.dtype)
    grids = tf.meshgrid(*[tf.range(shp[k]) for k in _range(r)], indexing="ij")
    grids[a] = index
    return tf.stack(grids, -1)


def gather_d(x: Any, dim: int, index: Any) -> Tensor:
    """``out[i][j] = x[index[i][j]][j]`` for ``dim`` 0 (generally: take ``index`` along ``dim``)."""
    t = to_tf(x, "GatherD", "x")
    i = _int_idx("GatherD", "index", index)
    if isinstance(dim, Tensor):
        dim = int(dim.asnumpy())
    a = V.check_axis(dim, "dim", "GatherD", t.shape.rank)
    if i.shape.rank is not None and t.shape.rank is not None and i.shape.rank != t.shape.rank:
        raise ValueError(f"For 'GatherD', the rank of 'index' must equal the rank of 'x', but got {i.shape.rank} and "
                         f"{t.shape.rank}.")
    return _wrap(tf.gather_nd(t, _full_coords(i, a)))


def gather_elements(input: Any, dim: int, index: Any) -> Tensor:  # noqa: A002
    """Alias of :func:`gather_d`."""
    return gather_d(input, dim, index)


def gather_nd(input_x: Any, indices: Any) -> Tensor:
    """Gather slices of ``input_x`` at the coordinates in the last dimension of ``indices``."""
    return _wrap(tf.gather_nd(to_tf(input_x, "GatherNd", "input_x"), _int_idx("GatherNd", "indices", indices)))


def scatter_nd(indices: Any, updates: Any, shape: Any) -> Tensor:
    """A zero tensor of ``shape`` with ``updates`` added at ``indices``."""
    i = _int_idx("ScatterNd", "indices", indices)
    u = to_tf(updates, "ScatterNd", "updates")
    shp = shape_arg("ScatterNd", "shape", shape)
    return _wrap(tf.scatter_nd(i, u, tf.cast(shp, i.dtype) if isinstance(shp, tf.Tensor) else shp))


def _tensor_scatter(op: str, fn):
    def f(input_x: Any, indices: Any, updates: Any) -> Tensor:
        t = to_tf(input_x, op, "input_x")
        i = _int_idx(op, "indices", indices)
        u = to_tf(updates, op, "updates", t.dtype)
        return _wrap(fn(t, i, u))
    f.__name__ = op
    f.__doc__ = f"``{op}``: update ``input_x`` at ``indices`` with ``updates``."
    return f


tensor_scatter_update = _tensor_scatter("tensor_scatter_update", tf.tensor_scatter_nd_update)
tensor_scatter_add = _tensor_scatter("tensor_scatter_add", tf.tensor_scatter_nd_add)
tensor_scatter_sub = _tensor_scatter("tensor_scatter_sub", tf.tensor_scatter_nd_sub)
tensor_scatter_max = _tensor_scatter("tensor_scatter_max", tf.tensor_scatter_nd_max)
tensor_scatter_min = _tensor_scatter("tensor_scatter_min", tf.tensor_scatter_nd_min)


def _scatter_mul(t, i, u):
    n = tf.shape(i)[0]
    return tf.foldl(lambda acc, k: tf.tensor_scatter_nd_update(acc, i[k:k + 1], tf.gather_nd(acc, i[k:k + 1]) * u[k:k + 1]),
                    tf.range(n), initializer=t)


def _scatter_div(t, i, u):
    n = tf.shape(i)[0]
    return tf.foldl(lambda acc, k: tf.tensor_scatter_nd_update(acc, i[k:k + 1], tf.gather_nd(acc, i[k:k + 1]) / u[k:k + 1]),
                    tf.range(n), initializer=t)


tensor_scatter_mul = _tensor_scatter("tensor_scatter_mul", _scatter_mul)
tensor_scatter_div = _tensor_scatter("tensor_scatter_div", _scatter_div)


def tensor_scatter_elements(input_x: Any, indices: Any, updates: Any, axis: int = 0, reduction: str = "none") -> Tensor:
    """Write ``updates`` into ``input_x`` at ``indices`` along ``axis`` (reduction 'none' or 'add')."""
    V.check_string(reduction, ("none", "add"), "reduction", "tensor_scatter_elements")
    t = to_tf(input_x, "tensor_scatter_elements", "input_x")
    i = _int_idx("tensor_scatter_elements", "indices", indices)
    u = to_tf(updates, "tensor_scatter_elements", "updates", t.dtype)
    a = V.check_axis(axis, "axis", "tensor_scatter_elements", t.shape.rank)
    r = t.shape.rank
    i = tf.where(i < 0, i + tf.cast(tf.shape(t)[a], i.dtype), i)
    coords = _full_coords(i, a)
    u = tf.slice(u, [0] * r, tf.shape(i)) if u.shape != i.shape else u
    fn = tf.tensor_scatter_nd_add if reduction == "add" else tf.tensor_scatter_nd_update
    return _wrap(fn(t, coords, u))


def scatter(input: Any, axis: int, index: Any, src: Any) -> Tensor:  # noqa: A002
    """Write ``src`` into ``input`` at ``index`` along ``axis`` (see :func:`tensor_scatter_elements`)."""
    if not isinstance(src, (Tensor, tf.Tensor)):
        src = Tensor._from_tf(tf.fill(tf.shape(to_tf(index)), tf.cast(src, to_tf(input).dtype)))
    return tensor_scatter_elements(input, index, src, axis)


# ---------------------------------------------------------------------------- slicing
def slice(input_x: Any, begin: Any, size: Any) -> Tensor:  # noqa: A001
    """The slice of ``input_x`` starting at ``begin`` with ``size`` (-1: to the end)."""
    t = to_tf(input_x, "Slice", "input_x")
    b = shape_arg("Slice", "begin", begin)
    s = shape_arg("Slice", "size", size)
    r = t.shape.rank
    if isinstance(b, list) and isinstance(s, list) and r is not None and (len(b) != r or len(s) != r):
        raise ValueError(f"For 'Slice', the lengths of 'begin' and 'size' must equal the rank {r} of 'input_x', but "
                         f"got begin={tuple(begin)}, size={tuple(size)}.")
    return _wrap(tf.slice(t, b, s))


def strided_slice(input_x: Any, begin: Any, end: Any, strides: Any, begin_mask: int = 0, end_mask: int = 0,
                  ellipsis_mask: int = 0, new_axis_mask: int = 0, shrink_axis_mask: int = 0) -> Tensor:
    """Strided slice with TensorFlow/MindSpore mask semantics."""
    t = to_tf(input_x, "StridedSlice", "input_x")
    b, e, s = (shape_arg("StridedSlice", n, v) for n, v in (("begin", begin), ("end", end), ("strides", strides)))
    if isinstance(s, list) and 0 in s:
        raise ValueError(f"For 'StridedSlice', the 'strides' cannot contain 0, but got {tuple(strides)}.")
    both = begin_mask & shrink_axis_mask
    if both and isinstance(b, list) and isinstance(s, list):
        # a shrunk axis whose begin is masked takes the first element along the stride, as MindSpore
        b = list(b)
        for i in _range(len(b)):
            if both >> i & 1:
                b[i] = 0 if s[i] > 0 else -1
        begin_mask &= ~both
    return _wrap(tf.strided_slice(t, b, e, s, begin_mask=begin_mask, end_mask=end_mask, ellipsis_mask=ellipsis_mask,
                                  new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask))


def flip(input: Any, dims: Any) -> Tensor:  # noqa: A002
    """Reverse the order of elements along ``dims``."""
    t = to_tf(input, "flip", "input")
    ax = norm_axis("flip", "dims", dims, t.shape.rank)
    return _wrap(tf.reverse(t, list(ax)))


def reverse(x: Any, axis: Any) -> Tensor:
    """Reverse along ``axis``."""
    return flip(x, axis)


def roll(input: Any, shifts: Any, dims: Any = None) -> Tensor:  # noqa: A002
    """Roll elements along ``dims`` by ``shifts`` (of the flattened tensor when ``dims`` is None)."""
    t = to_tf(input, "roll", "input")
    if dims is None:
        return _wrap(tf.reshape(tf.roll(tf.reshape(t, [-1]), shifts, 0), tf.shape(t)))
    return _wrap(tf.roll(t, shifts, dims))


def tril(input: Any, diagonal: int = 0) -> Tensor:  # noqa: A002
    """The lower triangle (elements above ``diagonal`` set to zero)."""
    t = to_tf(input, "tril", "input")
    n, m = tf.shape(t)[-2], tf.shape(t)[-1]
    mask = tf.range(m)[None, :] - tf.range(n)[:, None] <= diagonal
    return _wrap(tf.where(mask, t, tf.zeros_like(t)))


def triu(input: Any, diagonal: int = 0) -> Tensor:  # noqa: A002
    """The upper triangle (elements below ``diagonal`` set to zero)."""
    t = to_tf(input, "triu", "input")
    n, m = tf.shape(t)[-2], tf.shape(t)[-1]
    mask = tf.range(m)[None, :] - tf.range(n)[:, None] >= diagonal
    return _wrap(tf.where(mask, t, tf.zeros_like(t)))


def diag(input: Any) -> Tensor:  # noqa: A002
    """A diagonal matrix from a 1-D tensor."""
    return _wrap(tf.linalg.diag(to_tf(input, "diag", "input")))


matrix_diag = diag


def nonzero(input: Any, *, as_tuple: bool = False) -> Any:  # noqa: A002
    """Indices of the non-zero elements, ``(n, rank)`` int64 (a tuple per axis when ``as_tuple``)."""
    t = to_tf(input, "nonzero", "input")
    idx = tf.where(tf.cast(t, tf.bool))
    if as_tuple:
        return tuple(_wrap(idx[:, k]) for k in _range(t.shape.rank))
    return _wrap(idx)


def repeat_interleave(input: Any, repeats: Any, axis: int | None = None) -> Tensor:  # noqa: A002
    """Repeat each element ``repeats`` times along ``axis`` (of the flattened tensor when None)."""
    t = to_tf(input, "repeat_interleave", "input")
    r = to_tf(repeats, "repeat_interleave", "repeats") if isinstance(repeats, Tensor) else repeats
    if axis is None:
        return _wrap(tf.repeat(tf.reshape(t, [-1]), r))
    return _wrap(tf.repeat(t, r, axis=axis))


def repeat_elements(x: Any, rep: int, axis: int = 0) -> Tensor:
    """Repeat each element ``rep`` times along ``axis``."""
    return repeat_interleave(x, rep, axis)


def meshgrid(*inputs: Any, indexing: str = "xy") -> tuple:
    """Coordinate grids from 1-D tensors."""
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)):
        inputs = inputs[0]
    V.check_string(indexing, ("xy", "ij"), "indexing", "meshgrid")
    return tuple(_wrap(g) for g in tf.meshgrid(*[to_tf(x, "meshgrid") for x in inputs], indexing=indexing))


def reverse_sequence(x: Any, seq_lengths: Any, seq_dim: int, batch_dim: int = 0) -> Tensor:
    """Reverse the first ``seq_lengths[b]`` elements along ``seq_dim`` of each batch entry."""
    return _wrap(tf.reverse_sequence(to_tf(x, "reverse_sequence"), to_tf(seq_lengths), seq_dim, batch_dim))


def sequence_mask(lengths: Any, maxlen: int | None = None) -> Tensor:
    """A bool mask ``[..., maxlen]`` that is True for positions below ``lengths``."""
    return _wrap(tf.sequence_mask(to_tf(lengths, "sequence_mask", "lengths"), maxlen))


def bincount(input: Any, weights: Any = None, minlength: int = 0) -> Tensor:  # noqa: A002
    """Count occurrences of each non-negative int."""
    t = to_tf(input, "bincount", "input")
    w = to_tf(weights) if weights is not None else None
    return _wrap(tf.math.bincount(tf.cast(t, tf.int32), w, minlength=minlength,
                                  dtype=w.dtype if w is not None else tf.int64))


def searchsorted(sorted_sequence: Any, values: Any, *, out_int32: bool = False, right: bool = False) -> Tensor:
    """Indices at which ``values`` would be inserted into the sorted last dimension."""
    s = to_tf(sorted_sequence, "searchsorted", "sorted_sequence")
    v = to_tf(values, "searchsorted", "values", s.dtype)
    return _wrap(tf.searchsorted(s, v, side="right" if right else "left",
                                 out_type=tf.int32 if out_int32 else tf.int64))


# ---------------------------------------------------------------------------- sort / topk / unique
def _move_last(t: tf.Tensor, a: int) -> tuple[tf.Tensor, list | None]:
    r = t.shape.rank
    if a == r - 1:
        return t, None
    perm = list(_range(r))
    perm[a], perm[-1] = perm[-1], perm[a]
    return tf.transpose(t, perm), perm


def topk(input: Any, k: int, dim: int | None = None, largest: bool = True, sorted: bool = True) -> tuple:  # noqa: A002
    """The ``k`` largest (or smallest) values along ``dim`` (the last when None) and their int32 indices.

    Raises:
        ValueError: when ``k`` exceeds the dimension.
    """
    t = to_tf(input, "topk", "input")
    if isinstance(k, Tensor):
        k = int(k.asnumpy())
    V.check_non_negative_int(k, "k", "topk")
    a = V.check_axis(-1 if dim is None else dim, "dim", "topk", t.shape.rank)
    n = t.shape[a] if t.shape.rank else 1
    if n is not None and k > n:
        raise ValueError(f"For 'topk', the 'k' must be at most the size {n} of dimension {a}, but got {k}.")
    x, perm = _move_last(t, a)
    if largest:
        vals, idx = tf.math.top_k(x, k, sorted=True)
    else:
        neg = -tf.cast(x, tf.float64) if x.dtype.is_unsigned else -x
        _, idx = tf.math.top_k(neg, k, sorted=True)
        vals = tf.gather(x, idx, batch_dims=x.shape.rank - 1)
    if perm is not None:
        vals, idx = tf.transpose(vals, perm), tf.transpose(idx, perm)
    return _wrap(vals), _wrap(tf.cast(idx, tf.int32))


def sort(input_x: Any, axis: int = -1, descending: bool = False) -> tuple:
    """Sort along ``axis`` (stable); returns (values, int32 indices)."""
    t = to_tf(input_x, "sort", "input_x")
    a = V.check_axis(axis, "axis", "sort", t.shape.rank)
    V.check_bool(descending, "descending", "sort")
    x, perm = _move_last(t, a)
    idx = tf.argsort(x, axis=-1, direction="DESCENDING" if descending else "ASCENDING", stable=True)
    vals = tf.gather(x, idx, batch_dims=x.shape.rank - 1)
    if perm is not None:
        vals, idx = tf.transpose(vals, perm), tf.transpose(idx, perm)
    return _wrap(vals), _wrap(tf.cast(idx, tf.int32))


def argsort(input: Any, axis: int = -1, descending: bool = False) -> Tensor:  # noqa: A002
    """The int32 indices that sort ``input`` along ``axis``."""
    return sort(input, axis, descending)[1]


def unique(input: Any) -> tuple:  # noqa: A002
    """Unique elements in order of first occurrence, and each element's index into them (int32)."""
    t = to_tf(input, "unique", "input")
    y, idx = tf.unique(tf.reshape(t, [-1]), out_idx=tf.int32)
    return _wrap(y), _wrap(tf.reshape(idx, tf.shape(t)))
