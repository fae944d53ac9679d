"""Tensor contractions ``ops.tensor_dot`` and ``ops.ger``.

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

from tfspore.common.tensor import Tensor, _wrap
from tfspore.ops.function._utils import to_tf

__all__ = ["tensor_dot", "ger"]


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
