"""Math layers: ``MatMul`` (MindSpore's deprecated ``nn.MatMul``, with broadcasting).

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> nn.MatMul()(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((3, 4), np.float32))).shape
    (2, 4)
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal import validator
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import cast_to, compute_dtype, to_tf
from tfspore.ops.function.kernel_dtype import fast_matmul

__all__ = ["MatMul"]


class MatMul(Cell):
    """Matrix product of two tensors with numpy-style broadcasting of the batch dimensions.

    Args:
        transpose_x1: transpose the last two dimensions of ``x1`` first.
        transpose_x2: transpose the last two dimensions of ``x2`` first.

    Inputs:
        x1: a Tensor of rank >= 1.
        x2: a Tensor of rank >= 1.

    Raises:
        TypeError: when a flag is not a bool.
        ValueError: at call time, when the inner dimensions differ.

    Example:
        >>> MatMul(transpose_x2=True)
        MatMul()
    """

    def __init__(self, transpose_x1: bool = False, transpose_x2: bool = False) -> None:
        super().__init__()
        self.transpose_x1 = validator.check_bool(transpose_x1, "transpose_x1", self.cls_name)
        self.transpose_x2 = validator.check_bool(transpose_x2, "transpose_x2", self.cls_name)

    def construct(self, x1: Any, x2: Any) -> Tensor:
        a, b = to_tf(x1), to_tf(x2)
        if a.dtype.is_floating or self._mixed_precision_type is not None:
            dt = compute_dtype(self, a)
            a, b = cast_to(a, dt), cast_to(b, dt)
        r1, r2 = a.shape.rank, b.shape.rank
        t1 = self.transpose_x1 and r1 > 1
        t2 = self.transpose_x2 and r2 > 1
        col = a.shape[-1] if not t1 else a.shape[-2]
        row = b.shape[-2] if (r2 > 1 and not t2) else b.shape[-1] if r2 > 1 else b.shape[0]
        if r1 == 1:
            col = a.shape[0]
        if col is not None and row is not None and col != row:
            raise ValueError(f"For '{self.cls_name}', the input dimensions must be equal, but got 'x1_col' {col} and "
                             f"'x2_row' {row}.")
        if r1 == 1 and r2 == 1:
            return _wrap(tf.reduce_sum(a * b, -1))
        if r1 == 1:
            a = a[None, :]
        if r2 == 1:
            b = b[:, None]
        y = fast_matmul(a, b, transpose_a=t1, transpose_b=t2)
        if r1 == 1:
            y = tf.squeeze(y, -2)
        if r2 == 1:
            y = tf.squeeze(y, -1)
        return _wrap(y)
