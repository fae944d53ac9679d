"""Norms, closeness tests and matrix products (``ops.norm``, ``ops.isclose``, ``ops.matmul``, ``ops.bmm``).

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> ops.matmul(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((3, 4), np.float32))).shape
    (2, 4)
"""
from __future__ import annotations

import builtins
import math
from typing import Any

import tensorflow as tf

from tfspore._internal import validator as V
from tfspore._internal.norms import max_min_count_norm
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function.kernel_dtype import fast_matmul
from tfspore.ops.function._utils import binary, norm_axis, tf_dtype, to_float, to_tf

__all__ = [
    "norm", "isclose", "allclose", "linspace", "matmul", "bmm", "mm", "dot", "outer", "addmm", "cosine_similarity",
    "inner", "permute",
]

_builtin_max, _builtin_min = builtins.max, builtins.min


# ---------------------------------------------------------------------------- norms and comparisons
def _vector_norm(t: tf.Tensor, ord_: Any, axis: list, keep: bool) -> tf.Tensor:
    out = max_min_count_norm(t, ord_, axis, keep)
    if out is not None:
        return out
    a = tf.abs(t)
    if ord_ == 1:
        return tf.reduce_sum(a, axis=axis, keepdims=keep)
    if ord_ == 2:
        return tf.sqrt(tf.reduce_sum(tf.square(a), axis=axis, keepdims=keep))
    p = tf.constant(float(ord_), t.dtype)
    return tf.pow(tf.reduce_sum(tf.pow(a, p), axis=axis, keepdims=keep), 1.0 / p)


def _matrix_norm(t: tf.Tensor, ord_: Any, d0: int, d1: int, keep: bool) -> tf.Tensor:
    if ord_ == "fro":
        return tf.sqrt(tf.reduce_sum(tf.square(t), axis=[d0, d1], keepdims=keep))
    if ord_ in ("nuc", 2, -2):
        rank = t.shape.rank
        perm = [i for i in range(rank) if i not in (d0, d1)] + [d0, d1]
        s = tf.linalg.svd(tf.transpose(t, perm), compute_uv=False)
        out = tf.reduce_sum(s, -1) if ord_ == "nuc" else (tf.reduce_max(s, -1) if ord_ == 2 else tf.reduce_min(s, -1))
        if keep:
            out = tf.expand_dims(tf.expand_dims(out, _builtin_min(d0, d1)), _builtin_max(d0, d1))
        return out
    a = tf.abs(t)
    if ord_ in (1, -1):
        s = tf.reduce_sum(a, axis=d0, keepdims=True)
        red = tf.reduce_max if ord_ == 1 else tf.reduce_min
        out = red(s, axis=d1, keepdims=True)
    else:  # +-inf
        s = tf.reduce_sum(a, axis=d1, keepdims=True)
        red = tf.reduce_max if ord_ == math.inf else tf.reduce_min
        out = red(s, axis=d0, keepdims=True)
    return out if keep else tf.squeeze(out, [d0, d1])


def norm(A: Any, ord: Any = None, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:  # noqa: A002,N803
    """Matrix or vector norm, as ``mindspore.ops.norm``.

    Args:
        A: the input tensor.
        ord: None (2-norm / Frobenius), a number, inf, -inf, 'fro' or 'nuc'.
        dim: None, an int (vector norm) or a 2-tuple (matrix norm).
        keepdim: whether reduced dimensions are kept.
        dtype: cast the input to this dtype first.

    Returns:
        Tensor: the norm.

    Raises:
        ValueError: for an unsupported ``ord`` / ``dim`` combination.
    """
    t = to_tf(A, "norm", "A")
    if dtype is not None:
        t = tf.cast(t, tf_dtype(dtype, "norm"))
    t = to_float(t)
    rank = t.shape.rank
    valid_str = ("fro", "nuc")
    if isinstance(ord, str) and ord not in valid_str:
        raise ValueError(f"For 'norm', the 'ord' must be one of None, a number, inf, -inf, 'fro' or 'nuc', but got "
                         f"'{ord}'.")
    if dim is None:
        if ord is None:
            return _wrap(tf.sqrt(tf.reduce_sum(tf.square(t), keepdims=keepdim)) if not keepdim
                         else tf.sqrt(tf.reduce_sum(tf.square(t), axis=list(range(rank)), keepdims=True)))
        if rank == 1:
            if isinstance(ord, str):
                raise ValueError(f"For 'norm', 'ord' {ord!r} needs a 2-D input, but got a 1-D input.")
            return _wrap(_vector_norm(t, ord, [0], keepdim))
        if rank == 2:
            return _wrap(_matrix_norm(t, ord, 0, 1, keepdim))
        raise ValueError(f"For 'norm', the input must be 1-D or 2-D when 'ord' is given and 'dim' is None, but got "
                         f"a {rank}-D input.")
    ax = norm_axis("norm", "dim", dim, rank)
    if len(ax) == 1:
        if isinstance(ord, str):
            raise ValueError(f"For 'norm', 'ord' {ord!r} needs a 2-tuple 'dim', but got {dim!r}.")
        return _wrap(_vector_norm(t, 2 if ord is None else ord, list(ax), keepdim))
    if len(ax) == 2:
        return _wrap(_matrix_norm(t, "fro" if ord is None else ord, ax[0], ax[1], keepdim))
    raise ValueError(f"For 'norm', the 'dim' must be an int or a 2-tuple, but got {dim!r}.")


def isclose(input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08,  # noqa: A002
            equal_nan: bool = False) -> Tensor:
    """Element-wise ``|input - other| <= atol + rtol * |other|``.

    Args:
        input: the first tensor.
        other: the second tensor.
        rtol: relative tolerance.
        atol: absolute tolerance.
        equal_nan: whether two NaNs compare equal.

    Returns:
        Tensor: a bool tensor.
    """
    V.check_number(rtol, "rtol", "isclose")
    V.check_number(atol, "atol", "isclose")
    V.check_bool(equal_nan, "equal_nan", "isclose")
    a, b = binary("isclose", input, other)
    if not a.dtype.is_floating:
        return _wrap(tf.equal(a, b))
    close = tf.abs(a - b) <= tf.cast(atol, a.dtype) + tf.cast(rtol, a.dtype) * tf.abs(b)
    close = tf.logical_or(close, tf.equal(a, b))
    if equal_nan:
        close = tf.logical_or(close, tf.logical_and(tf.math.is_nan(a), tf.math.is_nan(b)))
    return _wrap(close)


def allclose(input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:  # noqa: A002
    """Whether all elements are close (see :func:`isclose`)."""
    return _wrap(tf.reduce_all(isclose(input, other, rtol, atol, equal_nan)._value()))


def linspace(start: Any, end: Any, steps: int) -> Tensor:
    """``steps`` evenly spaced float32 values from ``start`` to ``end`` inclusive.

    Args:
        start: the first value (number or 0-d Tensor).
        end: the last value.
        steps: the number of values.

    Returns:
        Tensor: a 1-D float32 tensor.
    """
    s = tf.cast(tf.reshape(to_tf(start, "linspace", "start"), []), tf.float32)
    e = tf.cast(tf.reshape(to_tf(end, "linspace", "end"), []), tf.float32)
    n = steps
    if isinstance(steps, Tensor):
        n = tf.cast(tf.reshape(steps._value(), []), tf.int32)
    else:
        V.check_positive_int(steps, "steps", "linspace")
    return _wrap(tf.linspace(s, e, n))


# ---------------------------------------------------------------------------- linear algebra
def _check_matmul(op: str, a: tf.Tensor, b: tf.Tensor, ta: bool = False, tb: bool = False) -> None:
    sa, sb = a.shape, b.shape
    if sa.rank is None or sb.rank is None or sa.rank < 1 or sb.rank < 1:
        return
    ka = sa[-2] if ta and sa.rank >= 2 else sa[-1]
    kb = sb[-1] if tb and sb.rank >= 2 else (sb[-2] if sb.rank >= 2 else sb[0])
    if ka is not None and kb is not None and ka != kb:
        raise ValueError(f"For '{op}', the input dimensions must be equal, but got 'x1_col': {ka} and 'x2_row': {kb}. "
                         f"x1 shape: {tuple(sa.as_list())}, x2 shape: {tuple(sb.as_list())}.")


def _mm(a: tf.Tensor, b: tf.Tensor, ta: bool = False, tb: bool = False) -> tf.Tensor:
    if a.dtype == tf.bool:
        a, b = tf.cast(a, tf.int32), tf.cast(b, tf.int32)
    if a.dtype in (tf.int8, tf.int16, tf.uint8):
        dt = a.dtype
        return tf.cast(tf.linalg.matmul(tf.cast(a, tf.int32), tf.cast(b, tf.int32), transpose_a=ta, transpose_b=tb),
                       dt)
    return fast_matmul(a, b, transpose_a=ta, transpose_b=tb)


def matmul(input: Any, other: Any) -> Tensor:  # noqa: A002
    """Matrix product with numpy broadcasting; 1-D operands are treated as vectors.

    Args:
        input: the first tensor.
        other: the second tensor.

    Returns:
        Tensor: the product.

    Raises:
        ValueError: when the contracted dimensions differ.
    """
    a, b = binary("matmul", input, other)
    _check_matmul("matmul", a, b)
    ra, rb = a.shape.rank, b.shape.rank
    if ra == 1 and rb == 1:
        return _wrap(tf.reduce_sum(a * b))
    if ra == 1:
        return _wrap(tf.squeeze(_mm(a[None, :], b), -2))
    if rb == 1:
        return _wrap(tf.squeeze(_mm(a, b[:, None]), -1))
    return _wrap(_mm(a, b))


def mm(input: Any, mat2: Any) -> Tensor:  # noqa: A002
    """2-D matrix product."""
    return matmul(input, mat2)


def bmm(input_x: Any, mat2: Any) -> Tensor:
    """Batched matrix product of ``(..., n, m)`` and ``(..., m, p)`` tensors."""
    a, b = binary("bmm", input_x, mat2)
    if a.shape.rank is not None and a.shape.rank < 3:
        raise ValueError(f"For 'bmm', the rank of 'input_x' must be at least 3, but got {a.shape.rank}.")
    _check_matmul("bmm", a, b)
    return _wrap(_mm(a, b))


def dot(input: Any, other: Any) -> Tensor:  # noqa: A002
    """Dot product of 1-D tensors (matrix product otherwise)."""
    return matmul(input, other)


def inner(input: Any, other: Any) -> Tensor:  # noqa: A002
    """Inner product over the last dimension."""
    a, b = binary("inner", input, other)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return _wrap(a * b)
    return _wrap(tf.tensordot(a, b, axes=[[-1], [-1]]))


def outer(input: Any, vec2: Any) -> Tensor:  # noqa: A002
    """Outer product of two 1-D tensors."""
    a, b = binary("outer", input, vec2)
    return _wrap(a[:, None] * b[None, :])


def addmm(input: Any, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:  # noqa: A002
    """``beta * input + alpha * (mat1 @ mat2)``."""
    p = matmul(mat1, mat2)._value()
    c = to_tf(input, "addmm", "input", p.dtype)
    return _wrap(tf.cast(beta, p.dtype) * c + tf.cast(alpha, p.dtype) * p)


def permute(input: Any, axis: Any) -> Tensor:  # noqa: A002
    """Permute the dimensions of ``input`` (see :func:`tfspore.ops.transpose`)."""
    from tfspore.ops.function.array_func import transpose
    return transpose(input, axis)


def cosine_similarity(x1: Any, x2: Any, dim: int = 1, eps: float = 1e-08) -> Tensor:
    """Cosine similarity along ``dim``."""
    a, b = binary("cosine_similarity", x1, x2)
    a, b = to_float(a), to_float(b)
    num = tf.reduce_sum(a * b, axis=dim)
    den = tf.maximum(tf.norm(a, axis=dim) * tf.norm(b, axis=dim), tf.cast(eps, a.dtype))
    return _wrap(num / den)
