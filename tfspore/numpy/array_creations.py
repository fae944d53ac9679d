"""``mindspore.numpy`` array creation: ``array``, ``zeros``, ``arange``, ``linspace``, ``eye``, ``pad``...

Every function returns a tfspore Tensor computed with TensorFlow ops, so it also works inside
``tf.function`` / GRAPH_MODE. Default dtypes follow ``mindspore.numpy``: float32 for ``ones``,
``zeros``, ``eye`` and the ``*space`` functions; python ints give int32 and floats float32.
"""
from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as onp
import tensorflow as tf

from tfspore import ops
from tfspore.common import dtype as mstype
from tfspore.common.tensor import Tensor
from tfspore.numpy import _utils as U
from tfspore.numpy._pad import pad  # noqa: F401  (mindspore.numpy.array_creations.pad)

__all__ = ["array", "asarray", "asfarray", "copy_", "ones", "zeros", "full", "empty", "arange", "linspace",
           "logspace", "geomspace", "eye", "identity", "ones_like", "zeros_like", "full_like", "empty_like",
           "tri", "tril", "triu", "diagonal", "trace", "diag", "diagflat", "diag_indices", "meshgrid", "mgrid",
           "ogrid", "ix_", "indices", "vander", "hamming", "hanning", "bartlett", "blackman", "triu_indices",
           "tril_indices", "triu_indices_from", "tril_indices_from", "histogram_bin_edges", "pad", "rand",
           "randn", "randint"]


def asarray(a: Any, dtype: Any = None) -> Tensor:
    """Converts the input to a tensor (a Tensor of the same dtype is returned as it is).

    Args:
        a: int, float, bool, list, tuple (nested, Tensors allowed inside), numpy array or Tensor.
        dtype: the result's dtype. Default: inferred (python ints int32, floats float32).

    Returns:
        Tensor.

    Raises:
        TypeError: if ``a`` is not array-like or ``dtype`` is not a supported dtype.
    """
    if dtype is not None:
        dtype = U.check_dtype(dtype)
    if U.is_tensor(a):
        t = tf.convert_to_tensor(a)
        if dtype is None or t.dtype == dtype.tf_dtype:
            return a if isinstance(a, Tensor) else Tensor(t)
        return Tensor(tf.cast(t, dtype.tf_dtype))
    return Tensor(U.from_python(a, dtype))


def array(obj: Any, dtype: Any = None, copy: bool = True, ndmin: int = 0) -> Tensor:
    """Creates a tensor from array-like data (see :func:`asarray`), with at least ``ndmin`` dimensions.

    Raises:
        ValueError: when an empty tensor would be expanded by ``ndmin``.
    """
    res = tf.convert_to_tensor(asarray(obj, dtype))
    if ndmin > res.shape.rank:
        if res.shape.num_elements() == 0:
            raise ValueError("Empty tensor cannot be expanded beyond the current dimension.")
        res = tf.reshape(res, [1] * (ndmin - res.shape.rank) + U.shape_of(res))
    elif copy and U.is_tensor(obj):
        res = tf.identity(res)
    return Tensor(res)


def asfarray(a: Any, dtype: Any = mstype.float32) -> Tensor:
    """Converts the input to a float tensor (an integer ``dtype`` gives float32)."""
    dtype = U.check_dtype(dtype)
    if not dtype.tf_dtype.is_floating:
        dtype = mstype.float32
    return asarray(a, dtype)


def copy_(a: Any) -> Tensor:
    """Returns a tensor copy of the given object."""
    return Tensor(tf.identity(tf.convert_to_tensor(asarray(a))))


def _fill(shape: Any, value: Any, dtype: Any) -> Tensor:
    shape = U.check_shape(shape)
    return Tensor(tf.fill(shape, tf.cast(tf.constant(value), U.check_dtype(dtype).tf_dtype)))


def ones(shape: Any, dtype: Any = mstype.float32) -> Tensor:
    """A tensor of ``shape`` filled with ones (float32 by default)."""
    return _fill(shape, 1, dtype)


def zeros(shape: Any, dtype: Any = mstype.float32) -> Tensor:
    """A tensor of ``shape`` filled with zeros (float32 by default)."""
    return _fill(shape, 0, dtype)


def empty(shape: Any, dtype: Any = mstype.float32) -> Tensor:
    """An uninitialised tensor of ``shape``; here filled with zeros."""
    return _fill(shape, 0, dtype)


def full(shape: Any, fill_value: Any, dtype: Any = None) -> Tensor:
    """A tensor of ``shape`` filled with ``fill_value`` (a scalar, or array-like broadcast to ``shape``).

    Raises:
        TypeError: if ``fill_value`` is not array-like.
    """
    shape = U.check_shape(shape)
    if not isinstance(fill_value, U.ARRAY_TYPES):
        raise TypeError(f"fill value should be int, float, bool, list, tuple, Tensor, but got {type(fill_value)}")
    if isinstance(fill_value, (bool, numbers.Number)) and not U.is_tensor(fill_value):
        dt = U.check_dtype(dtype) if dtype is not None else U.scalar_dtype(fill_value)
        return _fill(shape, fill_value, dt)
    v = U.to_tf(fill_value, None if dtype is None else U.tf_dtype(dtype))
    return Tensor(tf.broadcast_to(v, shape))


def _like(a: Any, dtype: Any, shape: Any) -> tuple:
    if not isinstance(a, U.ARRAY_TYPES):
        raise TypeError(f"prototype should be int, float, bool, list, tuple, Tensor, but got {type(a)}")
    t = U.to_tf(a)
    dt = t.dtype if dtype is None else U.tf_dtype(dtype)
    if shape is None or (isinstance(shape, (list, tuple)) and not shape):
        return (U.static_shape(t) if t.shape.is_fully_defined() else tf.shape(t)), dt
    return U.check_shape(shape), dt


def ones_like(a: Any, dtype: Any = None, shape: Any = None) -> Tensor:
    """Ones with the shape and dtype of ``a`` (or the given ones)."""
    shp, dt = _like(a, dtype, shape)
    return Tensor(tf.ones(shp, dt))


def zeros_like(a: Any, dtype: Any = None, shape: Any = None) -> Tensor:
    """Zeros with the shape and dtype of ``a`` (or the given ones)."""
    shp, dt = _like(a, dtype, shape)
    return Tensor(tf.zeros(shp, dt))


def empty_like(prototype: Any, dtype: Any = None, shape: Any = None) -> Tensor:
    """An uninitialised tensor like ``prototype``; here filled with zeros."""
    return zeros_like(prototype, dtype, shape)


def full_like(a: Any, fill_value: Any, dtype: Any = None, shape: Any = None) -> Tensor:
    """``fill_value`` with the shape and dtype of ``a`` (or the given ones)."""
    shp, dt = _like(a, dtype, shape)
    return Tensor(tf.cast(tf.broadcast_to(U.to_tf(fill_value), shp), dt))


def _number(x: Any, api: str, arg: str) -> Any:
    if U.is_tensor(x):
        return tf.convert_to_tensor(x).numpy().item()
    if x is not None and (not isinstance(x, numbers.Number) or isinstance(x, complex)):
        raise TypeError(f"For '{api}', the '{arg}' should be int or float, but got {type(x)}: {x!r}")
    return x


def arange(start: Any, stop: Any = None, step: Any = None, dtype: Any = None) -> Tensor:
    """Evenly spaced values in ``[start, stop)``, computed in float32 like ``mindspore.numpy``.

    Args:
        start, stop, step: numbers; with only ``start`` the range is ``[0, start)``.
        dtype: Default: int32 when all given numbers are ints, float32 otherwise.

    Returns:
        1-D Tensor.
    """
    start, stop, step = (_number(v, "arange", n) for v, n in ((start, "start"), (stop, "stop"), (step, "step")))
    dt = U.scalar_dtype(start, stop, step) if dtype is None else U.check_dtype(dtype)
    if dt is mstype.bool_:
        dt = mstype.int32
    if step == 0:
        raise ValueError("For 'arange', the 'step' should not be 0.")
    if stop is None and step is None:
        num, first, delta = math.ceil(start), 0, 1
    elif step is None:
        num, first, delta = math.ceil(stop - start), start, 1
    elif stop is None:
        num, first, delta = math.ceil((start + 0.0) / step), 0, step
    else:
        num, first, delta = math.ceil((stop - start + 0.0) / step), start, step
    iota = tf.range(max(int(num), 0), dtype=tf.float32)
    out = iota * tf.constant(delta, tf.float32) + tf.constant(first, tf.float32)
    return Tensor(tf.cast(out, dt.tf_dtype))


def _xspace_args(api: str, start: Any, stop: Any, num: Any, endpoint: Any, dtype: Any) -> tuple:
    for v, n in ((start, "start"), (stop, "end")):
        if not isinstance(v, U.ARRAY_TYPES):
            raise TypeError(f"{n} should be int, float, bool, list, tuple, Tensor, but got {type(v)}")
    s = U.to_tf(start) if U.is_tensor(start) else tf.cast(U.to_tf(start), tf.float32)
    e = U.to_tf(stop) if U.is_tensor(stop) else tf.cast(U.to_tf(stop), tf.float32)
    if not isinstance(num, int) or isinstance(num, bool):
        raise TypeError(f"num should be an integer, but got {type(num)}")
    if not isinstance(endpoint, bool):
        raise TypeError(f"endpoint should be an boolean, but got {type(endpoint)}")
    dt = tf.float32 if dtype is None else U.tf_dtype(dtype)
    s, e = U.promote_all([s, e])
    shp = tf.broadcast_static_shape(s.shape, e.shape)
    return tf.broadcast_to(s, shp), tf.broadcast_to(e, shp), dt


def _linspace_tf(s: tf.Tensor, e: tf.Tensor, num: int, endpoint: bool, axis: int) -> tuple:
    ndim = s.shape.rank
    axis = U.check_axis_in_range(axis, ndim + 1)
    if num <= 0:
        raise ValueError("cannot support Tensor with num=0.")
    sf, ef = U.to_float(s), U.to_float(e)
    div = (num - 1) if endpoint else num
    iota_shape = [1] * (ndim + 1)
    iota_shape[axis] = num
    if num == 1:
        out = tf.expand_dims(sf, axis)
        delta = tf.constant(float("nan"), sf.dtype) if endpoint else ef - sf
        return out, delta
    delta = (ef - sf) / tf.cast(div, sf.dtype)
    iota = tf.reshape(tf.range(num, dtype=tf.float32), iota_shape)
    out = tf.expand_dims(sf, axis) + tf.cast(iota, sf.dtype) * tf.expand_dims(delta, axis)
    if endpoint:
        idx = tf.reshape(tf.range(num), iota_shape) == num - 1
        out = tf.where(idx, tf.expand_dims(ef, axis), out)
    return out, delta


def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: bool = False, dtype: Any = None,
             axis: int = 0) -> Any:
    """``num`` evenly spaced samples over ``[start, stop]`` (float32 by default).

    Returns:
        Tensor, or ``(Tensor, step)`` when ``retstep`` is True.
    """
    s, e, dt = _xspace_args("linspace", start, stop, num, endpoint, dtype)
    if not isinstance(retstep, bool):
        raise TypeError(f"retstep should be an boolean, but got {type(retstep)}")
    out, delta = _linspace_tf(s, e, num, endpoint, axis)
    out = Tensor(tf.cast(out, dt))
    return (out, Tensor(delta)) if retstep else out


def logspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, base: Any = 10.0, dtype: Any = None,
             axis: int = 0) -> Tensor:
    """``base ** linspace(start, stop)``."""
    s, e, dt = _xspace_args("logspace", start, stop, num, endpoint, dtype)
    if not isinstance(base, (int, float, bool)):
        raise TypeError(f"base should be a number, but got {type(base)}")
    lin, _ = _linspace_tf(s, e, num, endpoint, axis)
    return Tensor(tf.cast(tf.pow(tf.constant(base, lin.dtype), lin), dt))


def geomspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None,
              axis: int = 0) -> Tensor:
    """Numbers spaced evenly on a log scale (a geometric progression) from ``start`` to ``stop``."""
    s, e, dt = _xspace_args("geomspace", start, stop, num, endpoint, dtype)
    sf, ef = U.to_float(s), U.to_float(e)
    root = num - 1 if endpoint else num
    bases = tf.pow(ef / sf, tf.constant(1.0 / root, sf.dtype))
    exps, _ = _linspace_tf(tf.zeros_like(bases), tf.fill(tf.shape(bases), tf.cast(root, bases.dtype)), num,
                           endpoint, axis)
    ax = U.check_axis_in_range(axis, sf.shape.rank + 1)
    res = tf.pow(tf.expand_dims(bases, ax), exps) * tf.expand_dims(sf, ax)
    return Tensor(tf.cast(res, dt))


def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = mstype.float32) -> Tensor:
    """A 2-D tensor with ones on the ``k``-th diagonal and zeros elsewhere.

    Raises:
        TypeError: if ``N``, ``M`` or ``k`` is not an int.
    """
    dt = U.tf_dtype(dtype)
    M = N if M is None else M
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (N, M, k)):
        raise TypeError("Input tensor dimensions should be integers.")
    rows = tf.range(N)[:, None]
    cols = tf.range(M)[None, :]
    return Tensor(tf.cast(tf.equal(cols - rows, k), dt))


def identity(n: int, dtype: Any = mstype.float32) -> Tensor:
    """The ``n x n`` identity matrix."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError("Input tensor dimensions should be integers.")
    return eye(n, dtype=dtype)


def _tri_mask(n: int, m: int, k: int) -> tf.Tensor:
    return tf.range(m)[None, :] - tf.range(n)[:, None] <= k


def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = mstype.float32) -> Tensor:
    """Ones at and below the ``k``-th diagonal, zeros elsewhere."""
    M = N if M is None else M
    return Tensor(tf.cast(_tri_mask(N, M, k), U.tf_dtype(dtype)))


def _tri_part(m: Any, k: int, lower: bool, api: str) -> Tensor:
    t = U.to_tf(m)
    if t.shape.rank < 1:
        raise ValueError(f"For '{api}', input m's rank should be larger than 0")
    if t.shape.rank == 1:
        n = t.shape[0]
        mask = _tri_mask(n, n, k) if lower else ~_tri_mask(n, n, k - 1)
        return Tensor(tf.where(mask, t[None, :], tf.zeros_like(t[None, :])))
    shp = U.shape_of(t)
    mask = _tri_mask(shp[-2], shp[-1], k) if lower else ~_tri_mask(shp[-2], shp[-1], k - 1)
    return Tensor(tf.where(mask, t, tf.zeros_like(t)))


def tril(m: Any, k: int = 0) -> Tensor:
    """The lower triangle of ``m`` (of its last two axes); a 1-D input is broadcast to a square first."""
    return _tri_part(m, k, True, "tril")


def triu(m: Any, k: int = 0) -> Tensor:
    """The upper triangle of ``m`` (of its last two axes); a 1-D input is broadcast to a square first."""
    return _tri_part(m, k, False, "triu")


def _diagonal_tf(t: tf.Tensor, offset: int, axis1: int, axis2: int) -> tf.Tensor:
    ndim = t.shape.rank
    if ndim < 2:
        raise ValueError("diagonal requires an array of at least two dimensions")
    a1, a2 = U.check_axis_in_range(axis1, ndim), U.check_axis_in_range(axis2, ndim)
    if a1 == a2:
        raise ValueError("axis1 and axis2 cannot be the same")
    perm = [i for i in range(ndim) if i not in (a1, a2)] + [a1, a2]
    moved = tf.transpose(t, perm)
    n, m = moved.shape[-2], moved.shape[-1]
    size = max(0, min(n + min(offset, 0), m - max(offset, 0)))
    if size == 0:
        return tf.zeros(moved.shape[:-2] + [0], t.dtype)
    rows = tf.range(size) + max(-offset, 0)
    cols = tf.range(size) + max(offset, 0)
    idx = tf.stack([rows, cols], axis=-1)
    batch = len(perm) - 2
    flat = tf.transpose(moved, [batch, batch + 1] + list(range(batch)))
    diag_vals = tf.gather_nd(flat, idx)  # [size, *batch]
    return tf.transpose(diag_vals, list(range(1, batch + 1)) + [0])


def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
    """The diagonal at ``offset`` of the 2-D sub-arrays spanned by ``axis1`` and ``axis2`` (moved last)."""
    return Tensor(_diagonal_tf(U.to_tf(a), offset, axis1, axis2))


def trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None) -> Tensor:
    """The sum along the diagonal at ``offset``."""
    t = _diagonal_tf(U.to_tf(a), offset, axis1, axis2)
    return Tensor(U.apply_dtype(tf.reduce_sum(t, axis=-1), dtype))


def diagflat(v: Any, k: int = 0) -> Tensor:
    """A 2-D tensor with the flattened input on the ``k``-th diagonal."""
    U.check_tensor("diagflat", v)
    t = tf.reshape(U.to_tf(v), [-1])
    return Tensor(tf.linalg.diag(t, k=k) if t.shape[0] else tf.zeros((abs(k), abs(k)), t.dtype))


def diag(v: Any, k: int = 0) -> Tensor:
    """The ``k``-th diagonal of a 2-D input, or a 2-D tensor with a 1-D input on its ``k``-th diagonal.

    Raises:
        ValueError: for inputs of other ranks.
    """
    t = U.to_tf(v)
    if t.shape.rank == 1:
        return diagflat(Tensor(t), k)
    if t.shape.rank == 2:
        return Tensor(_diagonal_tf(t, k, 0, 1))
    raise ValueError(f"Input must be 1- or 2-d, but got a tensor of rank {t.shape.rank}.")


def diag_indices(n: int, ndim: int = 2) -> tuple:
    """Indices of the main diagonal of an ``n``-sized ``ndim``-dimensional array."""
    if not isinstance(n, int) or not isinstance(ndim, int):
        raise TypeError("input must be integers")
    return tuple(Tensor(tf.range(n, dtype=tf.int32)) for _ in range(ndim))


def meshgrid(*xi: Any, sparse: bool = False, indexing: str = "xy") -> list:
    """Coordinate matrices from coordinate vectors (``'xy'`` or ``'ij'`` indexing)."""
    U.check_tensor("meshgrid", *xi)
    if not isinstance(sparse, bool):
        raise TypeError("argument sparse should be boolean")
    if indexing not in ("xy", "ij"):
        raise TypeError("Valid values for `indexing` are 'xy' and 'ij'.")
    grids = [tf.reshape(U.to_tf(x), [-1]) for x in xi]
    ndim = len(grids)
    sizes = [U.shape_of(g)[0] for g in grids]
    if indexing == "xy" and ndim > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    res = []
    for i, g in enumerate(grids):
        pos = i
        if indexing == "xy" and ndim > 1 and i < 2:
            pos = 1 - i
        shp = [1] * ndim
        shp[pos] = -1
        x = tf.reshape(g, shp)
        res.append(Tensor(x if sparse else tf.broadcast_to(x, sizes)))
    return res


def _nd_grid(key: Any, sparse: bool) -> Any:
    keys = key if isinstance(key, tuple) else (key,)
    vecs = []
    for s in keys:
        start = 0 if s.start is None else s.start
        step = 1 if s.step is None else s.step
        if isinstance(step, complex):
            vecs.append(tf.convert_to_tensor(linspace(start, s.stop, int(abs(step)))))
        else:
            vecs.append(tf.convert_to_tensor(arange(start, s.stop, step)))
    if not isinstance(key, tuple):
        return Tensor(vecs[0])
    out = meshgrid(*[Tensor(v) for v in vecs], sparse=sparse, indexing="ij")
    if sparse:
        return tuple(out)
    return Tensor(tf.stack([tf.convert_to_tensor(o) for o in out]))


class _NdGrid:
    """``mgrid[...]`` / ``ogrid[...]``: dense or open meshes from slices."""

    def __init__(self, sparse: bool) -> None:
        self.sparse = sparse

    def __getitem__(self, key: Any) -> Any:
        return _nd_grid(key, self.sparse)


mgrid = _NdGrid(False)
ogrid = _NdGrid(True)


def ix_(*args: Any) -> tuple:
    """An open mesh from ``N`` 1-D sequences: ``N`` tensors of ``N`` dims."""
    U.check_tensor("ix_", *args)
    n = len(args)
    res = []
    for i, a in enumerate(args):
        t = U.to_tf(a)
        if t.shape.rank != 1:
            raise ValueError("Cross index must be 1 dimensional")
        shp = [1] * n
        shp[i] = -1
        res.append(Tensor(tf.reshape(t, shp)))
    return tuple(res)


def indices(dimensions: Any, dtype: Any = mstype.int32, sparse: bool = False) -> list:
    """A grid of indices for an array of shape ``dimensions``: one tensor per dimension (a list, as MindSpore)."""
    dims = U.check_shape(dimensions)
    vecs = [Tensor(tf.range(d, dtype=U.tf_dtype(dtype))) for d in dims]
    return meshgrid(*vecs, sparse=sparse, indexing="ij")


def vander(x: Any, N: int | None = None, increasing: bool = False) -> Tensor:
    """The Vandermonde matrix of a 1-D input: columns are powers of ``x``."""
    t = U.to_tf(x)
    if t.shape.rank != 1:
        raise ValueError(f"x should be 1-D, but got dimension = {t.shape.rank}")
    n = t.shape[0] if N is None else N
    pw = tf.range(n, dtype=tf.int32)
    if not increasing:
        pw = pw[::-1]
    res = tf.pow(tf.cast(t[:, None], tf.float32), tf.cast(pw[None, :], tf.float32))
    return Tensor(tf.cast(tf.round(res), t.dtype) if not t.dtype.is_floating else tf.cast(res, t.dtype))


def _window(M: int, fn: Any) -> Tensor:
    if not isinstance(M, int) or isinstance(M, bool):
        raise TypeError(f"M should be an integer, but got {type(M)}")
    if M <= 1:
        return Tensor(tf.ones((max(0, M),), tf.float32))
    n = tf.range(M, dtype=tf.float32)
    return Tensor(tf.cast(fn(n, float(M)), tf.float32))


def hamming(M: int) -> Tensor:
    """The Hamming window of ``M`` points."""
    return _window(M, lambda n, m: 0.54 - 0.46 * tf.cos(2 * math.pi / (m - 1) * n))


def hanning(M: int) -> Tensor:
    """The Hanning window of ``M`` points."""
    return _window(M, lambda n, m: 0.5 - 0.5 * tf.cos(2 * math.pi / (m - 1) * n))


def bartlett(M: int) -> Tensor:
    """The Bartlett (triangular) window of ``M`` points."""
    return _window(M, lambda n, m: 1.0 - tf.abs(2.0 / (m - 1) * n - 1.0))


def blackman(M: int) -> Tensor:
    """The Blackman window of ``M`` points."""
    return _window(M, lambda n, m: 0.42 - 0.5 * tf.cos(2 * math.pi / (m - 1) * n)
                   + 0.08 * tf.cos(4 * math.pi / (m - 1) * n))


def _tri_indices(n: int, k: int, m: int | None, upper: bool) -> tuple:
    m = n if m is None else m
    mask = onp.triu(onp.ones((n, m), bool), k) if upper else onp.tril(onp.ones((n, m), bool), k)
    r, c = onp.nonzero(mask)
    return Tensor(tf.constant(r, tf.int32)), Tensor(tf.constant(c, tf.int32))


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple:
    """Indices of the upper triangle of an ``(n, m)`` array."""
    return _tri_indices(n, k, m, True)


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple:
    """Indices of the lower triangle of an ``(n, m)`` array."""
    return _tri_indices(n, k, m, False)


def triu_indices_from(arr: Any, k: int = 0) -> tuple:
    """Indices of the upper triangle of a 2-D tensor."""
    shp = U.static_shape(U.to_tf(arr))
    if len(shp) != 2:
        raise ValueError("input array must be 2-d")
    return _tri_indices(shp[0], k, shp[1], True)


def tril_indices_from(arr: Any, k: int = 0) -> tuple:
    """Indices of the lower triangle of a 2-D tensor."""
    shp = U.static_shape(U.to_tf(arr))
    if len(shp) != 2:
        raise ValueError("input array must be 2-d")
    return _tri_indices(shp[0], k, shp[1], False)


def histogram_bin_edges(a: Any, bins: Any = 10, range: Any = None, weights: Any = None) -> Tensor:  # noqa: A002
    """The edges of ``bins`` equal-width bins over ``range`` (or the data's min and max)."""
    t = tf.cast(tf.reshape(U.to_tf(a), [-1]), tf.float32)
    if isinstance(bins, (tuple, list)) or U.is_tensor(bins):
        return Tensor(U.to_tf(bins))
    if isinstance(bins, str):
        raise NotImplementedError("string value for `bins` not implemented")
    if range is None:
        lo, hi = tf.reduce_min(t), tf.reduce_max(t)
    else:
        if not isinstance(range, (list, tuple)) or len(range) != 2:
            raise ValueError("`range` should take the form (start, end)")
        if range[0] > range[1]:
            raise ValueError("max must be larger than min in range parameter")
        lo, hi = tf.constant(range[0], tf.float32), tf.constant(range[1], tf.float32)
    same = tf.equal(hi, lo)
    lo, hi = tf.where(same, lo - 0.5, lo), tf.where(same, hi + 0.5, hi)
    return linspace(Tensor(lo), Tensor(hi), bins + 1)


def rand(*shape: Any, dtype: Any = mstype.float32) -> Tensor:
    """Uniform samples in ``[0, 1)`` (float32 by default)."""
    return ops.rand(*shape, dtype=U.check_dtype(dtype))


def randn(*shape: Any, dtype: Any = mstype.float32) -> Tensor:
    """Standard normal samples (float32 by default)."""
    return ops.randn(*shape, dtype=U.check_dtype(dtype))


def randint(minval: int, maxval: int | None = None, shape: Any = None, dtype: Any = mstype.int32) -> Tensor:
    """Uniform integers in ``[minval, maxval)`` (``[0, minval)`` when ``maxval`` is None).

    Raises:
        TypeError: for non-int bounds. ValueError: for an empty range or a non-integer ``dtype``.
    """
    if not isinstance(minval, int):
        raise TypeError(f"For mindspore.numpy.randint, the type of the argument 'minval' must be int, but got "
                        f"{type(minval)}")
    if maxval is None:
        if minval <= 0:
            raise ValueError(f"For mindspore.numpy.randint, the argument 'minval' must be > 0 when the argument "
                             f"'maxval' is None, but got {minval}")
        minval, maxval = 0, minval
    elif not isinstance(maxval, int):
        raise TypeError(f"For mindspore.numpy.randint, the type of the argument 'maxval' must be int, but got "
                        f"{type(maxval)}")
    elif minval >= maxval:
        raise ValueError("For mindspore.numpy.randint, the value of 'minval' must be greater than the value of "
                         f"'maxval', but got minval={minval}, maxval={maxval}.")
    dt = U.check_dtype(dtype)
    if dt not in (mstype.int8, mstype.int16, mstype.int32, mstype.int64):
        raise ValueError(f"For 'mindspore.numpy.randint', the argument 'dtype' must be an integer dtype, but got "
                         f"{dtype}.")
    shp = () if shape is None else U.check_shape(shape)
    return ops.randint(minval, maxval, shp, dtype=dt)

