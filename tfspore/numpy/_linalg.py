"""``mindspore.numpy`` products and related functions: ``dot``, ``matmul``, ``inner``, ``outer``, ``tensordot``,
``kron``, ``cross``, ``multi_dot``, ``matrix_power``, ``convolve``, ``correlate``, the ``poly*`` functions,
``cov`` and ``corrcoef``.
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore.common.tensor import Tensor
from tfspore.numpy import _utils as U

__all__ = ["dot", "matmul", "inner", "outer", "tensordot", "kron", "cross", "multi_dot", "matrix_power", "convolve",
           "correlate", "polyadd", "polysub", "polyval", "polyder", "polymul", "polyint", "cov", "corrcoef"]


def _pair(a: Any, b: Any) -> tuple:
    return tuple(U.promote_all([U.to_tf(a), U.to_tf(b)]))


def _mm(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
    if a.dtype == tf.bool:
        return tf.cast(tf.matmul(tf.cast(a, tf.int32), tf.cast(b, tf.int32)), tf.bool)
    return tf.matmul(a, b)


def dot(a: Any, b: Any) -> Tensor:
    """Dot product: the sum product over the last axis of ``a`` and the second-to-last of ``b``.

    Raises:
        ValueError: when those axes differ in length.
    """
    x, y = _pair(a, b)
    if x.shape.rank == 0 or y.shape.rank == 0:
        return Tensor(x * y)
    yt = y if y.shape.rank < 2 else tf.transpose(y, list(range(y.shape.rank - 2)) + [y.shape.rank - 1,
                                                                                      y.shape.rank - 2])
    if x.shape[-1] != yt.shape[-1]:
        raise ValueError(f"shapes are not aligned: {x.shape.as_list()} and {y.shape.as_list()}")
    res = _mm(tf.reshape(x, [-1, x.shape[-1]]), tf.transpose(tf.reshape(yt, [-1, yt.shape[-1]])))
    return Tensor(tf.reshape(res, U.shape_of(x)[:-1] + U.shape_of(yt)[:-1]))


def matmul(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Matrix product with numpy's rules for 1-D operands and batch broadcasting."""
    a, b = _pair(x1, x2)
    if a.shape.rank == 0 or b.shape.rank == 0:
        raise ValueError("matmul: Input operand does not have enough dimensions")
    va, vb = a.shape.rank == 1, b.shape.rank == 1
    if va:
        a = a[None, :]
    if vb:
        b = b[:, None]
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"For 'matmul', the shapes {a.shape.as_list()} and {b.shape.as_list()} are not aligned.")
    tf.broadcast_static_shape(a.shape[:-2], b.shape[:-2])  # raises for batch shapes that cannot broadcast
    res = _mm(a, b)  # tf.matmul broadcasts the batch dimensions
    if va:
        res = tf.squeeze(res, -2)
    if vb:
        res = tf.squeeze(res, -1)
    return Tensor(U.apply_dtype(res, dtype))


def inner(a: Any, b: Any) -> Tensor:
    """Sum product over the last axes of ``a`` and ``b``.

    Raises:
        ValueError: when the last axes differ in length.
    """
    x, y = _pair(a, b)
    if x.shape.rank == 0 or y.shape.rank == 0:
        return Tensor(x * y)
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"shapes {x.shape.as_list()} and {y.shape.as_list()} are not aligned")
    res = tf.tensordot(x, y, [[x.shape.rank - 1], [y.shape.rank - 1]])
    return Tensor(res)


def outer(a: Any, b: Any) -> Tensor:
    """The outer product of the flattened inputs."""
    U.check_tensor("outer", a, b)
    x, y = _pair(a, b)
    return Tensor(tf.reshape(x, [-1, 1]) * tf.reshape(y, [1, -1]))


def tensordot(a: Any, b: Any, axes: Any = 2) -> Tensor:
    """Sum product over the given axes (an int: the last ``axes`` of ``a`` and first of ``b``)."""
    x, y = _pair(a, b)
    if isinstance(axes, int) and axes == 0 and (x.shape.rank == 0 or y.shape.rank == 0):
        return Tensor(x * y)
    if isinstance(axes, (list, tuple)) and len(axes) == 2 and isinstance(axes[0], int):
        axes = [[axes[0]], [axes[1]]]
    return Tensor(tf.tensordot(x, y, axes))


def kron(a: Any, b: Any) -> Tensor:
    """The Kronecker product."""
    x, y = _pair(a, b)
    ndim = max(x.shape.rank, y.shape.rank)
    if ndim == 0:
        return Tensor(x * y)
    x = tf.reshape(x, [1] * (ndim - x.shape.rank) + U.shape_of(x))
    y = tf.reshape(y, [1] * (ndim - y.shape.rank) + U.shape_of(y))
    sa, sb = U.shape_of(x), U.shape_of(y)
    xe = tf.reshape(x, [d for s in sa for d in (s, 1)])
    ye = tf.reshape(y, [d for s in sb for d in (1, s)])
    return Tensor(tf.reshape(xe * ye, [p * q for p, q in zip(sa, sb)]))


def cross(a: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: Any = None) -> Tensor:
    """The cross product of 2- or 3-element vectors along the given axes.

    Raises:
        ValueError: for vectors of other lengths.
    """
    x, y = _pair(a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    ax_a = U.check_axis_in_range(axisa, x.shape.rank)
    ax_b = U.check_axis_in_range(axisb, y.shape.rank)
    x = tf.experimental.numpy.moveaxis(x, ax_a, -1)
    y = tf.experimental.numpy.moveaxis(y, ax_b, -1)
    if x.shape[-1] not in (2, 3) or y.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product (dimension must be 2 or 3)")
    if x.shape[-1] == 2 and y.shape[-1] == 2:
        return Tensor(x[..., 0] * y[..., 1] - x[..., 1] * y[..., 0])
    zero_x = tf.zeros_like(x[..., 0])
    zero_y = tf.zeros_like(y[..., 0])
    x0, x1, x2 = x[..., 0], x[..., 1], x[..., 2] if x.shape[-1] == 3 else zero_x
    y0, y1, y2 = y[..., 0], y[..., 1], y[..., 2] if y.shape[-1] == 3 else zero_y
    res = tf.stack([x1 * y2 - x2 * y1, x2 * y0 - x0 * y2, x0 * y1 - x1 * y0], axis=-1)
    ax_c = U.check_axis_in_range(axisc, res.shape.rank)
    return Tensor(tf.experimental.numpy.moveaxis(res, -1, ax_c))


def multi_dot(arrays: Any) -> Tensor:
    """Dot product of a chain of tensors (the first may be 1-D: a row; the last 1-D: a column).

    Raises:
        ValueError: for fewer than two tensors.
    """
    if len(arrays) < 2:
        raise ValueError("Expecting at least 2 arrays")
    ts = U.promote_all([U.to_tf(a) for a in arrays])
    first_vec, last_vec = ts[0].shape.rank == 1, ts[-1].shape.rank == 1
    if first_vec:
        ts[0] = ts[0][None, :]
    if last_vec:
        ts[-1] = ts[-1][:, None]
    res = ts[0]
    for t in ts[1:]:
        res = _mm(res, t)
    if first_vec:
        res = res[0]
    if last_vec:
        res = res[..., 0]
    return Tensor(res)


def matrix_power(a: Any, n: int) -> Tensor:
    """``a`` (square in its last two axes) raised to the non-negative integer power ``n``.

    Raises:
        TypeError: for a non-int ``n``. ValueError: for a non-square input or ``n < 0``.
    """
    t = U.to_tf(a)
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"exponent must be an integer, but got {type(n)}")
    if t.shape.rank < 2:
        raise ValueError("Array must be at least two-dimensional")
    if t.shape[-2] != t.shape[-1]:
        raise ValueError("Last 2 dimensions of the array must be square")
    if n < 0:
        raise ValueError(f"n < 0 is not supported now, but got {n}.")
    if n == 0:
        return Tensor(tf.broadcast_to(tf.eye(t.shape[-1], dtype=t.dtype), tf.shape(t)))
    res = t
    for _ in range(n - 1):
        res = _mm(res, t)
    return Tensor(res)


def _conv1d_full(a: tf.Tensor, v: tf.Tensor, mode: str) -> tf.Tensor:
    """numpy's ``convolve`` of 1-D float tensors (``v`` already flipped for a correlation)."""
    n, m = a.shape[0], v.shape[0]
    if mode == "full":
        pad = m - 1
    elif mode == "same":
        pad = (m - 1) // 2 if n >= m else (m - 1) - (m - 1) // 2
    elif mode == "valid":
        pad = 0
    else:
        raise ValueError(f"mode should be one of ['full', 'same', 'valid'], but got {mode!r}.")
    if mode == "same":
        full = _conv1d_full(a, v, "full")
        out_len = max(n, m)
        start = (full.shape[0] - out_len) // 2
        return full[start:start + out_len]
    x = tf.pad(a, [[pad, pad]])
    kernel = tf.reverse(v, [0])
    res = tf.nn.conv1d(x[None, :, None], kernel[:, None, None], stride=1, padding="VALID")
    return res[0, :, 0]


def convolve(a: Any, v: Any, mode: str = "full") -> Tensor:
    """The discrete linear convolution of two 1-D sequences ('full', 'same' or 'valid').

    Raises:
        ValueError: for empty or non-1-D inputs.
    """
    x, y = U.to_tf(a), U.to_tf(v)
    if x.shape.num_elements() == 0 or y.shape.num_elements() == 0:
        raise ValueError("Inputs cannot be empty.")
    x, y = tf.reshape(x, [-1]) if x.shape.rank == 0 else x, tf.reshape(y, [-1]) if y.shape.rank == 0 else y
    if x.shape.rank != 1 or y.shape.rank != 1:
        raise ValueError("a and v must be 1-D tensor.")
    final = U.promote_types(x.dtype, y.dtype)
    x, y = tf.cast(x, tf.float32), tf.cast(y, tf.float32)
    if x.shape[0] < y.shape[0]:
        x, y = y, x
    return Tensor(tf.cast(_conv1d_full(x, y, mode), final))


def correlate(a: Any, v: Any, mode: str = "valid") -> Tensor:
    """The cross-correlation of two 1-D sequences ('valid', 'same' or 'full')."""
    x, y = U.to_tf(a), U.to_tf(v)
    if x.shape.rank != 1 or y.shape.rank != 1:
        raise ValueError("a and v must be 1-D tensor.")
    final = U.promote_types(x.dtype, y.dtype)
    final = final if final.is_floating else tf.float32
    x, y = tf.cast(x, tf.float32), tf.cast(y, tf.float32)
    swap = x.shape[0] < y.shape[0]
    if swap:
        x, y = y, x
    res = _conv1d_full(x, tf.reverse(y, [0]), mode)
    if swap:
        res = tf.reverse(res, [0])
    return Tensor(tf.cast(res, final))


def _poly(p: Any) -> tf.Tensor:
    t = U.to_tf(p)
    if t.shape.rank == 0:
        t = tf.reshape(t, [1])
    if t.shape.rank != 1:
        raise ValueError(f"input array must be scalar or 1-d sequence, but got rank {t.shape.rank}")
    return t


def polyadd(a1: Any, a2: Any) -> Tensor:
    """The sum of two polynomials (coefficients highest power first)."""
    x, y = U.promote_all([_poly(a1), _poly(a2)])
    d = x.shape[0] - y.shape[0]
    if d > 0:
        y = tf.pad(y, [[d, 0]])
    elif d < 0:
        x = tf.pad(x, [[-d, 0]])
    return Tensor(x + y)


def polysub(a1: Any, a2: Any) -> Tensor:
    """The difference of two polynomials."""
    return polyadd(a1, Tensor(-_poly(a2)))


def polyval(p: Any, x: Any) -> Tensor:
    """The polynomial ``p`` evaluated at ``x`` (computed in float32)."""
    c = tf.cast(_poly(p), tf.float32)
    xt = tf.cast(U.to_tf(x), tf.float32)
    res = tf.zeros_like(xt)
    for i in range(c.shape[0]):
        res = res * xt + c[i]
    return Tensor(res)


def polyder(p: Any, m: int = 1) -> Tensor:
    """The ``m``-th derivative of a polynomial.

    Raises:
        ValueError: for a negative ``m``.
    """
    c = _poly(p)
    if m < 0:
        raise ValueError(f"Order of derivative must be positive, but got {m}")
    if m >= c.shape[0]:
        return Tensor(tf.zeros((0,), tf.float32))
    for _ in range(m):
        n = c.shape[0]
        c = c[:-1] * tf.cast(tf.range(n - 1, 0, -1), c.dtype)
    return Tensor(c)


def polyint(p: Any, m: int = 1, k: Any = None) -> Tensor:
    """The ``m``-th antiderivative of a polynomial, with integration constants ``k``.

    Raises:
        ValueError: for a negative ``m``.
    """
    c = tf.cast(_poly(p), tf.float32)
    if m < 0:
        raise ValueError(f"Order of derivative must be positive, but got {m}")
    if m == 0:
        return Tensor(_poly(p))
    ks = tf.zeros((m,), c.dtype) if k is None else tf.reshape(tf.cast(U.to_tf(k), c.dtype), [-1])
    if ks.shape[0] == 1:
        ks = tf.tile(ks, [m])
    for i in range(m):
        n = c.shape[0]
        c = tf.concat([c / tf.cast(tf.range(n, 0, -1), c.dtype), ks[i:i + 1]], axis=0)
    return Tensor(c)


def polymul(a1: Any, a2: Any) -> Tensor:
    """The product of two polynomials."""
    return convolve(Tensor(_poly(a1)), Tensor(_poly(a2)))


def cov(m: Any, y: Any = None, rowvar: bool = True, bias: bool = False, ddof: Any = None, fweights: Any = None,
        aweights: Any = None, dtype: Any = None) -> Tensor:
    """The covariance matrix of the variables in the rows (or columns when ``rowvar`` is False) of ``m``."""
    x = U.to_float(U.to_tf(m))
    x = tf.reshape(x, [1, -1]) if x.shape.rank < 2 else (x if rowvar else tf.transpose(x))
    if y is not None:
        yt = U.to_float(U.to_tf(y))
        yt = tf.reshape(yt, [1, -1]) if yt.shape.rank < 2 else (yt if rowvar else tf.transpose(yt))
        x = tf.concat(U.promote_all([x, yt]), axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    n = x.shape[1]
    w = None
    if fweights is not None:
        w = tf.cast(U.to_tf(fweights), x.dtype)
    if aweights is not None:
        aw = tf.cast(U.to_tf(aweights), x.dtype)
        w = aw if w is None else w * aw
    if w is None:
        avg = tf.reduce_mean(x, axis=1, keepdims=True)
        fact = tf.cast(n - ddof, x.dtype)
        xc = x - avg
        c = tf.matmul(xc, xc, transpose_b=True) / fact
    else:
        wsum = tf.reduce_sum(w)
        avg = tf.reduce_sum(x * w, axis=1, keepdims=True) / wsum
        if ddof == 0:
            fact = wsum
        elif aweights is None:
            fact = wsum - ddof
        else:
            aw = tf.cast(U.to_tf(aweights), x.dtype)
            fact = wsum - ddof * tf.reduce_sum(w * aw) / wsum
        xc = x - avg
        c = tf.matmul(xc * w, xc, transpose_b=True) / fact
    if c.shape[0] == 1:
        c = tf.reshape(c, [])
    return Tensor(U.apply_dtype(c, dtype))


def corrcoef(x: Any, y: Any = None, rowvar: bool = True, dtype: Any = None) -> Tensor:
    """Pearson correlation coefficients (the normalised covariance matrix)."""
    c = U.to_tf(cov(x, y, rowvar))
    if c.shape.rank == 0:
        return Tensor(U.apply_dtype(c / c, dtype))
    d = tf.sqrt(tf.linalg.diag_part(c))
    c = c / d[:, None] / d[None, :]
    return Tensor(U.apply_dtype(tf.clip_by_value(c, -1.0, 1.0), dtype))
