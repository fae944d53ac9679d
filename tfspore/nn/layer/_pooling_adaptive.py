"""Adaptive pooling layers (``AdaptiveAvgPool1d/2d``, ``AdaptiveMaxPool1d/2d``): the output size is
given, the windows follow.

MindSpore's import path for them is ``tfspore.nn.layer.pooling`` (and ``tfspore.nn``).
"""
from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from tfspore._internal import validator
from tfspore._internal.pool_window import adaptive_bins, adaptive_output_size2
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._pool_args import _is_int, _check_rank
from tfspore.nn.layer._utils import cast_to, compute_dtype, to_tf
from tfspore.ops.function.nn_func import adaptive_avg_pool2d


# ------------------------------------------------------------------------------ adaptive pooling
def _adaptive_1d_check(name: str, v: tf.Tensor, output_size: int) -> int:
    if v.shape.rank != 3:
        raise ValueError(f"For {name}, the input must has 3 dim, but got {v.shape.rank}: shape "
                         f"{tuple(v.shape.as_list()) if v.shape.rank is not None else None}.")
    width = v.shape[2]
    if width is None:
        raise ValueError(f"For {name}, the input's last dimension must be static, but got shape "
                         f"{tuple(v.shape.as_list())}.")
    if width < output_size:
        raise ValueError(f"For {name}, the input's last dimension must be greater or equal to output size "
                         f"{output_size}, but got {width}.")
    if width % output_size != 0:
        raise ValueError(f"For {name}, the input's last dimension must be divisible by output size {output_size}, "
                         f"but got {width}.")
    if v.dtype not in (tf.float16, tf.float32):
        raise TypeError(f"For {name}, the x_dtype must be float16 or float32, but got {v.dtype.name}.")
    return width


class _AdaptivePool1d(Cell):
    _reduce = staticmethod(tf.reduce_mean)

    def __init__(self, output_size: int) -> None:
        super().__init__()
        validator.check_type(output_size, [int], "output_size", self.cls_name)
        if output_size < 1:
            raise ValueError(f"For '{self.cls_name}', the 'output_size' must be int and must >= 1, but got "
                             f"{output_size}.")
        self.output_size = output_size

    def construct(self, x: Any) -> Tensor:
        v = to_tf(x)
        if self._mixed_precision_type is not None:
            v = cast_to(v, compute_dtype(self, v))
        width = _adaptive_1d_check(self.cls_name, v, self.output_size)
        shape = tf.concat([tf.shape(v)[:2], [self.output_size, width // self.output_size]], 0)
        return _wrap(self._reduce(tf.reshape(v, shape), axis=-1))


class AdaptiveAvgPool1d(_AdaptivePool1d):
    """1-D adaptive average pooling to ``output_size`` (the length must be divisible by it).

    Args:
        output_size: the output length (an int >= 1).

    Inputs:
        input: a float16/float32 Tensor of shape ``(N, C, L)``.

    Raises:
        TypeError: when ``output_size`` is not an int, or the input is not float16/float32.
        ValueError: when ``output_size < 1``, the input is not 3-D, or ``L`` is not a multiple.

    Example:
        >>> AdaptiveAvgPool1d(3)
        AdaptiveAvgPool1d()
    """


class AdaptiveMaxPool1d(_AdaptivePool1d):
    """1-D adaptive max pooling to ``output_size`` (the length must be divisible by it).

    Args:
        output_size: the output length (an int >= 1).

    Inputs:
        x: a float16/float32 Tensor of shape ``(N, C, L)``.

    Raises:
        TypeError: when ``output_size`` is not an int, or the input is not float16/float32.
        ValueError: when ``output_size < 1``, the input is not 3-D, or ``L`` is not a multiple.

    Example:
        >>> AdaptiveMaxPool1d(3)
        AdaptiveMaxPool1d()
    """

    _reduce = staticmethod(tf.reduce_max)


def _check_output_size2(name: str, output_size: Any) -> Any:
    validator.check_type(output_size, [int, tuple], "output_size", name)
    if isinstance(output_size, tuple):
        if len(output_size) != 2:
            raise ValueError(f"For '{name}', the 'length of output_size' must be int and must = 2, but got "
                             f"{len(output_size)}: {output_size!r}.")
        for item in output_size:
            if item is not None and (not _is_int(item) or item < 0):
                raise ValueError(f"For '{name}', the 'output_size' must be a tuple of non-negative ints or None, "
                                 f"but got {output_size!r}.")
    elif output_size < 0:
        raise ValueError(f"For '{name}', the 'output_size' must be non-negative, but got {output_size}.")
    return output_size


def _bin_index(n: int, out: int) -> tuple[np.ndarray, int]:
    """The ``(out, k)`` input indices of the adaptive bins, each padded to ``k`` by repeating its last index."""
    bins = adaptive_bins(n, out)
    k = max(b - a for a, b in bins) if bins else 1
    return np.array([[min(a + j, b - 1) for j in range(k)] for a, b in bins], np.int32).reshape(out, k), k


class AdaptiveAvgPool2d(Cell):
    """2-D adaptive average pooling: output bin ``i`` averages rows ``[floor(i*H/oh), ceil((i+1)*H/oh))``.

    Args:
        output_size: an int or ``(oh, ow)``; a None entry keeps that input size.

    Inputs:
        input: a Tensor of shape ``(N, C, H, W)`` or ``(C, H, W)``.

    Raises:
        TypeError: when ``output_size`` is not an int or tuple.
        ValueError: for a tuple not of length 2.

    Example:
        >>> AdaptiveAvgPool2d((2, 3))
        AdaptiveAvgPool2d()
    """

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = _check_output_size2(self.cls_name, output_size)

    def construct(self, input: Any) -> Tensor:  # noqa: A002 (MindSpore's argument name)
        v = to_tf(input)
        if v.dtype.is_floating or self._mixed_precision_type is not None:
            v = cast_to(v, compute_dtype(self, v))
        _check_rank(self.cls_name, v, (3, 4))
        return adaptive_avg_pool2d(v, self.output_size)


class AdaptiveMaxPool2d(Cell):
    """2-D adaptive max pooling, with the bins of :class:`AdaptiveAvgPool2d`.

    Args:
        output_size: an int or ``(oh, ow)``; a None entry keeps that input size.
        return_indices: also return the int64 argmax positions within each ``H * W`` plane.

    Inputs:
        input: a Tensor of shape ``(N, C, H, W)`` or ``(C, H, W)``.

    Outputs:
        The pooled Tensor, or ``(output, indices)`` with ``return_indices``.

    Raises:
        TypeError: when ``output_size`` is not an int or tuple, or ``return_indices`` not a bool.
        ValueError: for a tuple not of length 2.

    Example:
        >>> AdaptiveMaxPool2d(2)
        AdaptiveMaxPool2d()
    """

    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size = _check_output_size2(self.cls_name, output_size)
        self.return_indices = validator.check_bool(return_indices, "return_indices", self.cls_name)

    def construct(self, input: Any) -> Any:  # noqa: A002 (MindSpore's argument name)
        v = to_tf(input)
        if v.dtype.is_floating or self._mixed_precision_type is not None:
            v = cast_to(v, compute_dtype(self, v))
        _check_rank(self.cls_name, v, (3, 4))
        h, w = v.shape[-2], v.shape[-1]
        if h is None or w is None:
            raise ValueError(f"For '{self.cls_name}', the spatial dimensions must be static, but got shape "
                             f"{tuple(v.shape.as_list())}.")
        oh, ow = adaptive_output_size2(self.cls_name, self.output_size, h, w)
        rows, kh = _bin_index(h, oh)
        cols, kw = _bin_index(w, ow)
        # (..., oh, kh, W) -> (..., oh, kh, ow, kw): every bin padded to the largest by repeating its last
        # element, which changes neither the max nor the first argmax
        win = tf.gather(tf.gather(v, rows.reshape(-1), axis=-2), cols.reshape(-1), axis=-1)
        lead = tf.shape(v)[:-2]
        win = tf.reshape(win, tf.concat([lead, [oh, kh, ow, kw]], 0))
        rank = v.shape.rank
        perm = list(range(rank - 2)) + [rank - 2, rank, rank - 1, rank + 1]
        win = tf.reshape(tf.transpose(win, perm), tf.concat([lead, [oh, ow, kh * kw]], 0))
        out = _wrap(tf.reduce_max(win, axis=-1))
        if not self.return_indices:
            return out
        arg = tf.argmax(win, axis=-1, output_type=tf.int32)  # (..., oh, ow), row-major in the window
        row = tf.gather(tf.constant(rows.reshape(-1), tf.int64), tf.range(oh)[:, None] * kh + arg // kw)
        col = tf.gather(tf.constant(cols.reshape(-1), tf.int64), tf.range(ow)[None, :] * kw + arg % kw)
        return out, _wrap(row * w + col)
