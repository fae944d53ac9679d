"""``ops.tensor_dot``, ``ops.batch_dot``, ``ops.ger``, ``ops.svd`` and ``ops.grid_sample``.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> a, b = Tensor(np.ones((1, 2, 3), np.float32)), Tensor(np.ones((3, 1, 2), np.float32))
    >>> ops.tensor_dot(a, b, ((0, 1), (1, 2))).shape
    (3, 3)
"""
from __future__ import annotations

import numbers
from typing import Any

import tensorflow as tf

from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function._utils import to_tf

__all__ = ["tensor_dot", "batch_dot", "ger", "svd", "grid_sample"]


def _int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _tensor_dot_axes(axes: Any, r1: int, r2: int) -> tuple:
    op = "tensor_dot"
    if _int(axes):
        if axes < 0:
            raise ValueError(f"For '{op}', the 'axes' must be non-negative, but got {axes}.")
        if axes > min(r1, r2):
            raise ValueError(f"For '{op}', the 'axes' must be at most the inputs' ranks {r1} and {r2}, but got "
                             f"{axes}.")
        return list(range(r1 - axes, r1)), list(range(axes))
    if not isinstance(axes, (tuple, list)) or len(axes) != 2:
        raise ValueError(f"For '{op}', the 'axes' must be an int or a tuple or list of two elements, but got "
                         f"{axes!r}.")
    a1, a2 = ([a] if _int(a) else list(a) for a in axes)
    if len(a1) != len(a2):
        raise ValueError(f"For '{op}', the two elements of 'axes' must have the same length, but got {axes!r}.")
    for rank, ax in ((r1, a1), (r2, a2)):
        for v in ax:
            if not _int(v) or not -rank <= v < rank:
                raise ValueError(f"For '{op}', the value in 'axes' must be in range: [{-rank}, {rank - 1}], but "
                                 f"got {v!r}.")
    return [v % r1 for v in a1], [v % r2 for v in a2]


def tensor_dot(x1: Any, x2: Any, axes: Any) -> Tensor:
    """Sum products over the given axes of ``x1`` and ``x2`` (``numpy.tensordot``).

    Args:
        x1: the first Tensor.
        x2: the second Tensor.
        axes: an int N (the last N axes of ``x1`` with the first N of ``x2``), or a pair of ints or
            of sequences of ints.

    Returns:
        A Tensor with the free axes of ``x1`` then those of ``x2``.

    Raises:
        ValueError: for invalid axes or mismatched contracted dimensions.
    """
    a = to_tf(x1, "tensor_dot", "x1")
    b = to_tf(x2, "tensor_dot", "x2")
    a1, a2 = _tensor_dot_axes(axes, a.shape.rank, b.shape.rank)
    for i, j in zip(a1, a2):
        if a.shape[i] is not None and b.shape[j] is not None and a.shape[i] != b.shape[j]:
            raise ValueError(f"For 'tensor_dot', the contracted dimensions must match, but got x1 shape "
                             f"{a.shape.as_list()} axis {i} and x2 shape {b.shape.as_list()} axis {j}.")
    return _wrap(tf.tensordot(a, b, [a1, a2]))


def ger(input: Any, vec2: Any) -> Tensor:  # noqa: A002
    """The outer product of two 1-D Tensors: ``(n,) x (m,) -> (n, m)``.

    Raises:
        ValueError: when an input is not 1-D.
    """
    a = to_tf(input, "ger", "input")
    b = to_tf(vec2, "ger", "vec2")
    if a.shape.rank != 1 or b.shape.rank != 1:
        raise ValueError(f"For 'ger', the 'input' and 'vec2' must be 1-D, but got shapes {a.shape.as_list()} and "
                         f"{b.shape.as_list()}.")
    if a.dtype != b.dtype:
        raise TypeError(f"For 'ger', the 'input' and 'vec2' must have the same dtype, but got {a.dtype.name} and "
                        f"{b.dtype.name}.")
    return _wrap(a[:, None] * b[None, :])


def batch_dot(x1: Any, x2: Any, axes: Any = None) -> Tensor:
    """Per-sample dot products of two batches (axis 0 is the batch), contracting ``axes`` (Keras's ``batch_dot``).

    Args:
        x1: a Tensor of rank >= 2.
        x2: a Tensor of rank >= 2 with the same batch size.
        axes: an int (the same axis of both), a pair of ints, or None: the last axis of ``x1`` with
            the second-to-last of ``x2`` (its last when ``x2`` is 2-D).

    Returns:
        ``(batch, *free axes of x1, *free axes of x2)``; ``(batch, 1)`` when no free axis is left.

    Raises:
        ValueError: for invalid axes or inputs of rank below 2.
    """
    op = "batch_dot"
    a = to_tf(x1, op, "x1")
    b = to_tf(x2, op, "x2")
    r1, r2 = a.shape.rank, b.shape.rank
    if r1 is None or r2 is None or r1 < 2 or r2 < 2:
        raise ValueError(f"For '{op}', the rank of 'x1' and 'x2' must be at least 2, but got {r1} and {r2}.")
    if axes is None:
        ax1, ax2 = r1 - 1, (r2 - 1 if r2 == 2 else r2 - 2)
    elif _int(axes):
        ax1 = ax2 = axes
    elif isinstance(axes, (tuple, list)) and len(axes) == 2 and all(_int(v) for v in axes):
        ax1, ax2 = axes
    else:
        raise ValueError(f"For '{op}', the 'axes' must be an int, a pair of ints or None, but got {axes!r}.")
    ax1, ax2 = ax1 % r1, ax2 % r2
    if ax1 == 0 or ax2 == 0:
        raise ValueError(f"For '{op}', the 'axes' cannot contain 0 (the batch axis), but got {axes!r}.")
    k1, k2 = a.shape[ax1], b.shape[ax2]
    if k1 is not None and k2 is not None and k1 != k2:
        raise ValueError(f"For '{op}', the contracted dimensions must match, but got x1 shape {a.shape.as_list()} "
                         f"axis {ax1} and x2 shape {b.shape.as_list()} axis {ax2}.")
    free1 = [i for i in range(1, r1) if i != ax1]
    free2 = [i for i in range(1, r2) if i != ax2]
    at = tf.transpose(a, [0, *free1, ax1])
    bt = tf.transpose(b, [0, ax2, *free2])
    s1, s2 = tf.shape(at), tf.shape(bt)
    out = tf.matmul(tf.reshape(at, [s1[0], -1, s1[-1]]), tf.reshape(bt, [s2[0], s2[1], -1]))
    shape = tf.concat([s1[:1], s1[1:-1], s2[2:]], 0)
    if not free1 and not free2:
        shape = tf.concat([s1[:1], [1]], 0)
    return _wrap(tf.reshape(out, shape))


def svd(input: Any, full_matrices: bool = False, compute_uv: bool = True) -> Any:  # noqa: A002
    """Singular value decomposition of the last two axes: ``(s, u, v)`` with ``input = u @ diag(s) @ v^H``.

    Args:
        input: a ``(..., M, N)`` float or complex Tensor.
        full_matrices: full-sized ``u`` and ``v``.
        compute_uv: also return ``u`` and ``v`` (otherwise ``s`` alone).

    Returns:
        ``(s, u, v)``, or ``s``.
    """
    t = to_tf(input, "svd", "input")
    if t.shape.rank is not None and t.shape.rank < 2:
        raise ValueError(f"For 'svd', the rank of 'input' must be at least 2, but got {t.shape.rank}.")
    if not compute_uv:
        return _wrap(tf.linalg.svd(t, full_matrices=full_matrices, compute_uv=False))
    s_, u_, v_ = tf.linalg.svd(t, full_matrices=full_matrices, compute_uv=True)
    return _wrap(s_), _wrap(u_), _wrap(v_)


def _unnormalize(coord: tf.Tensor, size: tf.Tensor, align_corners: bool) -> tf.Tensor:
    if align_corners:
        return (coord + 1.0) / 2.0 * (size - 1.0)
    return ((coord + 1.0) * size - 1.0) / 2.0


def grid_sample(input: Any, grid: Any, mode: str = "bilinear", padding_mode: str = "zeros",  # noqa: A002
                align_corners: bool = False) -> Tensor:
    """Sample NCHW ``input`` at the normalised ``(x, y)`` locations of ``grid`` ``(N, H_out, W_out, 2)``.

    Args:
        input: ``(N, C, H, W)`` Tensor.
        grid: ``(N, H_out, W_out, 2)`` coordinates in ``[-1, 1]`` (``-1`` the left / top edge).
        mode: ``'bilinear'`` or ``'nearest'``.
        padding_mode: ``'zeros'`` or ``'border'`` (``'reflection'`` raises NotImplementedError).
        align_corners: ``-1`` and ``1`` are the centres of the corner pixels (True) or their outer edges.

    Returns:
        ``(N, C, H_out, W_out)``.
    """
    op = "grid_sample"
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(f"For '{op}', the 'mode' must be 'bilinear', 'nearest' or 'bicubic', but got '{mode}'.")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"For '{op}', the 'padding_mode' must be 'zeros', 'border' or 'reflection', but got "
                         f"'{padding_mode}'.")
    if mode == "bicubic" or padding_mode == "reflection":
        raise NotImplementedError(f"For '{op}', tfspore implements 'bilinear' and 'nearest' with 'zeros' or "
                                  f"'border' padding, but got mode '{mode}' and padding_mode '{padding_mode}'.")
    x = to_tf(input, op, "input")
    g = tf.cast(to_tf(grid, op, "grid"), x.dtype)
    if x.shape.rank != 4 or g.shape.rank != 4:
        raise ValueError(f"For '{op}', only 4-D 'input' and 'grid' are supported, but got shapes "
                         f"{x.shape.as_list()} and {g.shape.as_list()}.")
    img = tf.transpose(x, [0, 2, 3, 1])                       # N, H, W, C
    shp = tf.shape(img)
    h, w = tf.cast(shp[1], x.dtype), tf.cast(shp[2], x.dtype)
    fx = _unnormalize(g[..., 0], w, align_corners)
    fy = _unnormalize(g[..., 1], h, align_corners)
    if padding_mode == "border":
        fx = tf.clip_by_value(fx, 0.0, w - 1.0)
        fy = tf.clip_by_value(fy, 0.0, h - 1.0)
    batch = tf.broadcast_to(tf.range(shp[0])[:, None, None], tf.shape(fx))

    def gather(iy: tf.Tensor, ix: tf.Tensor) -> tf.Tensor:
        inside = (iy >= 0) & (iy < shp[1]) & (ix >= 0) & (ix < shp[2])
        idx = tf.stack([batch, tf.clip_by_value(iy, 0, shp[1] - 1), tf.clip_by_value(ix, 0, shp[2] - 1)], -1)
        return tf.gather_nd(img, idx) * tf.cast(inside, x.dtype)[..., None]

    if mode == "nearest":
        out = gather(tf.cast(tf.round(fy), tf.int32), tf.cast(tf.round(fx), tf.int32))
    else:
        x0, y0 = tf.floor(fx), tf.floor(fy)
        wx, wy = (fx - x0)[..., None], (fy - y0)[..., None]
        ix0, iy0 = tf.cast(x0, tf.int32), tf.cast(y0, tf.int32)
        out = (gather(iy0, ix0) * (1 - wx) * (1 - wy) + gather(iy0, ix0 + 1) * wx * (1 - wy)
               + gather(iy0 + 1, ix0) * (1 - wx) * wy + gather(iy0 + 1, ix0 + 1) * wx * wy)
    return _wrap(tf.transpose(out, [0, 3, 1, 2]))
