"""``mindspore.numpy`` searching, binning and index helpers: ``searchsorted``, ``interp``, ``digitize``,
``bincount``, ``histogram``, ``histogram2d``, ``histogramdd``, ``unwrap`` and ``ravel_multi_index``.
"""
from __future__ import annotations

import builtins
import math
from typing import Any

import tensorflow as tf

from tfspore.common.tensor import Tensor
from tfspore.numpy import _utils as U
from tfspore.numpy.array_creations import histogram_bin_edges

__all__ = ["searchsorted", "interp", "digitize", "bincount", "histogram", "histogram2d", "histogramdd", "unwrap",
           "ravel_multi_index"]


def _searchsorted_tf(a: tf.Tensor, v: tf.Tensor, side: str) -> tf.Tensor:
    shp = tf.shape(v)
    flat = tf.reshape(tf.cast(v, a.dtype), [1, -1])
    res = tf.searchsorted(a[None, :], flat, side=side, out_type=tf.int32)
    return tf.reshape(res, shp)


def searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> Tensor:
    """Indices where ``v`` would be inserted into the sorted 1-D ``a`` to keep it sorted (int32).

    Raises:
        ValueError: for an invalid ``side``, a non-1-D ``a`` or a ``sorter`` of the wrong size.
    """
    if side not in ("left", "right"):
        raise ValueError(f'invalid value for keyword "side": {side!r}')
    at = tf.cast(U.to_tf(a), tf.float32)
    if at.shape.rank != 1:
        raise ValueError("`a` should be 1-D array")
    if sorter is not None:
        st = U.to_tf(sorter)
        if st.shape.rank != 1 or st.shape[0] != at.shape[0]:
            raise ValueError("sorter must be 1-D array with the same size as `a`")
        at = tf.gather(at, st)
    return Tensor(_searchsorted_tf(at, U.to_tf(v), side))


def interp(x: Any, xp: Any, fp: Any, left: Any = None, right: Any = None) -> Tensor:
    """One-dimensional linear interpolation of the points ``(xp, fp)`` at ``x`` (float32).

    Raises:
        ValueError: for non-1-D ``xp``/``fp`` or ones of different lengths.
    """
    xt = tf.cast(U.to_tf(x), tf.float32)
    xpt, fpt = tf.cast(U.to_tf(xp), tf.float32), tf.cast(U.to_tf(fp), tf.float32)
    if xpt.shape.rank != 1 or fpt.shape.rank != 1:
        raise ValueError("xp and fp must be 1-d sequences")
    n = xpt.shape[0]
    if fpt.shape[0] != n:
        raise ValueError("the y-coordinates must have the same length as `xp`")
    i1 = tf.clip_by_value(_searchsorted_tf(xpt, xt, "left"), 0, n - 1)
    i0 = tf.clip_by_value(i1 - 1, 0, n - 1)
    x0, x1 = tf.gather(xpt, i0), tf.gather(xpt, i1)
    y0, y1 = tf.gather(fpt, i0), tf.gather(fpt, i1)
    same = tf.equal(x1, x0)
    res = tf.where(same, y1, y0 + (xt - x0) * (y1 - y0) / tf.where(same, tf.ones_like(x1), x1 - x0))
    lo = fpt[0] if left is None else tf.cast(U.to_tf(left), tf.float32)
    hi = fpt[-1] if right is None else tf.cast(U.to_tf(right), tf.float32)
    res = tf.where(xt < xpt[0], lo, res)
    res = tf.where(xt > xpt[-1], hi, res)
    return Tensor(res)


def digitize(x: Any, bins: Any, right: bool = False) -> Tensor:
    """The index of the bin each value of ``x`` falls in (``bins`` increasing or decreasing).

    Raises:
        ValueError: for non-1-D ``bins``.
    """
    xt, bt = U.to_tf(x), U.to_tf(bins)
    if bt.shape.rank != 1:
        raise ValueError("bins should be 1-dimensional")
    if xt.shape.num_elements() == 0:
        return Tensor(xt)
    if bt.shape[0] == 0:
        return Tensor(tf.zeros(tf.shape(xt), tf.int32))
    bf = tf.cast(bt, tf.float32)
    side = "left" if right else "right"
    inc = _searchsorted_tf(bf, xt, side)
    dec = bt.shape[0] - _searchsorted_tf(tf.reverse(bf, [0]), xt, side)
    return Tensor(tf.where(bf[0] <= bf[-1], inc, dec))


def bincount(x: Any, weights: Any = None, minlength: int = 0, length: int | None = None) -> Tensor:
    """Counts of each non-negative int value in the 1-D ``x`` (weighted sums when ``weights`` is given), float32.

    Raises:
        ValueError: for non-1-D ``x``. TypeError: for non-int ``x``.
    """
    xt = U.to_tf(x)
    if xt.shape.rank != 1:
        raise ValueError("`x` should be one-dimensional")
    if xt.dtype not in U.INT_TYPES:
        raise TypeError("`x` should be an array of ints")
    xt = tf.maximum(tf.cast(xt, tf.int32), 0)
    if length is None:
        length = tf.maximum(tf.reduce_max(xt) + 1, minlength) if xt.shape[0] else minlength
    if weights is None:
        return Tensor(tf.math.bincount(xt, minlength=length, maxlength=length, dtype=tf.float32))
    w = tf.cast(U.to_tf(weights), tf.float32)
    return Tensor(tf.math.bincount(xt, weights=w, minlength=length, maxlength=length, dtype=tf.float32))


def histogram(a: Any, bins: Any = 10, range: Any = None, weights: Any = None,  # noqa: A002
              density: bool = False) -> tuple:
    """The histogram of the flattened ``a``: ``(counts, bin_edges)``.

    Raises:
        ValueError: when ``weights`` and ``a`` differ in shape.
    """
    at = tf.reshape(tf.cast(U.to_tf(a), tf.float32), [-1])
    w = None
    if weights is not None:
        w = U.to_tf(weights)
        if w.shape.as_list() != U.to_tf(a).shape.as_list():
            raise ValueError("weights should have the same shape as a")
        w = tf.reshape(w, [-1])
    edges = tf.cast(U.to_tf(histogram_bin_edges(Tensor(at), bins, range)), tf.float32)
    nb = edges.shape[0] - 1
    idx = _searchsorted_tf(edges, at, "right") - 1
    idx = tf.where(tf.equal(at, edges[-1]), nb - 1, idx)
    inside = tf.logical_and(idx >= 0, idx < nb)
    idx = tf.boolean_mask(idx, inside)
    if w is None:
        counts = tf.math.bincount(idx, minlength=nb, maxlength=nb, dtype=tf.float32)
    else:
        counts = tf.math.bincount(idx, weights=tf.cast(tf.boolean_mask(w, inside), tf.float32), minlength=nb,
                                  maxlength=nb, dtype=tf.float32)
    if density:
        counts = counts / (edges[1:] - edges[:-1]) / tf.reduce_sum(counts)
    return Tensor(counts), Tensor(edges)


def histogramdd(sample: Any, bins: Any = 10, range: Any = None, weights: Any = None,  # noqa: A002
                density: bool = False) -> tuple:
    """The multidimensional histogram of ``(N, D)`` samples: ``(counts, [edges per dimension])``."""
    s = tf.cast(U.to_tf(sample), tf.float32)
    if s.shape.rank == 1:
        s = s[:, None]
    d = s.shape[1]
    bins_l = list(bins) if isinstance(bins, (list, tuple)) else [bins] * d
    ranges = list(range) if range is not None else [None] * d
    edges, idxs = [], []
    for i in builtins.range(d):
        e = tf.cast(U.to_tf(histogram_bin_edges(Tensor(s[:, i]), bins_l[i], ranges[i])), tf.float32)
        nb = e.shape[0] - 1
        ix = _searchsorted_tf(e, s[:, i], "right") - 1
        ix = tf.where(tf.equal(s[:, i], e[-1]), nb - 1, ix)
        edges.append(e)
        idxs.append(ix)
    sizes = [e.shape[0] - 1 for e in edges]
    inside = tf.reduce_all(tf.stack([tf.logical_and(ix >= 0, ix < n) for ix, n in zip(idxs, sizes)]), axis=0)
    flat = tf.zeros_like(idxs[0])
    for ix, n in zip(idxs, sizes):
        flat = flat * n + ix
    flat = tf.boolean_mask(flat, inside)
    total = math.prod(sizes)
    if weights is None:
        counts = tf.cast(tf.math.bincount(flat, minlength=total, maxlength=total, dtype=tf.int32), tf.float32)
    else:
        w = tf.boolean_mask(tf.reshape(U.to_tf(weights), [-1]), inside)
        counts = tf.math.bincount(flat, weights=w, minlength=total, maxlength=total, dtype=w.dtype)
    counts = tf.reshape(counts, sizes)
    if density:
        vol = tf.ones(sizes, tf.float32)
        for i, e in enumerate(edges):
            shp = [1] * d
            shp[i] = -1
            vol = vol * tf.reshape(e[1:] - e[:-1], shp)
        counts = tf.cast(counts, tf.float32) / vol / tf.reduce_sum(tf.cast(counts, tf.float32))
    return Tensor(counts), [Tensor(e) for e in edges]



def histogram2d(x: Any, y: Any, bins: Any = 10, range: Any = None, weights: Any = None,  # noqa: A002
                density: bool = False) -> tuple:
    """The 2-D histogram of the points ``(x, y)``: ``(counts, x_edges, y_edges)``."""
    sample = tf.stack([tf.cast(tf.reshape(U.to_tf(x), [-1]), tf.float32),
                       tf.cast(tf.reshape(U.to_tf(y), [-1]), tf.float32)], axis=1)
    counts, edges = histogramdd(Tensor(sample), bins, range, weights, density)
    return counts, edges[0], edges[1]


def unwrap(p: Any, discont: float = math.pi, axis: int = -1) -> Tensor:
    """Unwraps phases by changing jumps larger than ``discont`` to their ``2*pi`` complement along ``axis``.

    Raises:
        TypeError: for a non-number ``discont``.
    """
    if not isinstance(discont, (int, float)):
        raise TypeError(f"discont should be a float, but got {type(discont)}")
    t = U.to_float(U.to_tf(p))
    ax = U.check_axis_in_range(axis, t.shape.rank)
    hi = [slice(None)] * t.shape.rank
    lo = [slice(None)] * t.shape.rank
    hi[ax], lo[ax] = slice(1, None), slice(None, -1)
    dd = t[tuple(hi)] - t[tuple(lo)]
    pi = tf.cast(math.pi, t.dtype)
    ddmod = tf.math.floormod(dd + pi, 2 * pi) - pi
    ddmod = tf.where(tf.logical_and(tf.equal(ddmod, -pi), dd > 0), pi * tf.ones_like(ddmod), ddmod)
    corr = ddmod - dd
    corr = tf.where(tf.abs(dd) < discont, tf.zeros_like(corr), corr)
    first = [slice(None)] * t.shape.rank
    first[ax] = slice(0, 1)
    head = t[tuple(first)]
    return Tensor(tf.concat([head, t[tuple(hi)] + tf.cumsum(corr, axis=ax)], axis=ax))


def ravel_multi_index(multi_index: Any, dims: Any, mode: str = "clip", order: str = "C") -> Tensor:
    """Flat indices of coordinate arrays in an array of shape ``dims`` (float32, as MindSpore).

    Raises:
        TypeError: for non-int indices or dims. ValueError: for the wrong number of coordinate arrays.
    """
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    if any(not isinstance(d, int) or isinstance(d, bool) for d in dims):
        raise TypeError("only 1-D integer arrays are accepted.")
    mi = U.to_tf(multi_index)
    if mi.dtype not in U.INT_TYPES:
        raise TypeError("only int indices permitted")
    if mi.shape[0] != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    if mode not in ("clip", "wrap", "raise"):
        raise ValueError(f'invalid mode. Expected "raise", "wrap", or "clip", but got {mode!r}')
    if order not in ("C", "F"):
        raise ValueError('invalid order. Expected "C" or "F"')
    strides = []
    acc = 1
    seq = list(builtins.range(len(dims)))
    for i in (reversed(seq) if order == "C" else seq):
        strides.append((i, acc))
        acc *= dims[i]
    res = tf.zeros_like(mi[0])
    for i, stride in strides:
        idx = mi[i]
        if mode == "wrap":
            idx = tf.math.floormod(idx, dims[i])
        else:
            idx = tf.clip_by_value(idx, 0, dims[i] - 1)
        res = res + idx * stride
    return Tensor(tf.cast(res, tf.float32))
