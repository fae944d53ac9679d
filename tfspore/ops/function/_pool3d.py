"""3-D pooling of NCDHW data (``ops.max_pool3d``, ``ops.avg_pool3d``) and the core the 3-D primitives share.

TensorFlow's CPU kernels take NDHWC, so the input is transposed in and out. Padding, ``ceil_mode``
and the average's divisor are resolved from the static shape: explicit pads go into the tensor,
and the divisor of each output position is a constant.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> ops.avg_pool3d(Tensor(np.ones((1, 1, 2, 2, 2), np.float32)), 2).asnumpy().ravel()
    array([1.], dtype=float32)
"""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function._utils import to_tf

__all__ = ["max_pool3d", "avg_pool3d"]

_TO_NDHWC, _TO_NCDHW = [0, 2, 3, 4, 1], [0, 4, 1, 2, 3]


def _is_int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def triple(op: str, arg: str, v: Any, allow_zero: bool = False) -> tuple:
    """An int or a tuple of 3 (or 5, with leading 1s) ints as a 3-tuple."""
    if _is_int(v):
        v = (v,) * 3
    if isinstance(v, list):
        v = tuple(v)
    if isinstance(v, tuple) and len(v) == 5 and v[:2] == (1, 1):
        v = v[2:]
    if not isinstance(v, tuple) or len(v) not in (1, 3) or not all(_is_int(e) for e in v):
        raise TypeError(f"For '{op}', the '{arg}' must be an int or a tuple of three ints, but got {v!r}.")
    if len(v) == 1:
        v = v * 3
    if any(e < 0 or (e == 0 and not allow_zero) for e in v):
        raise ValueError(f"For '{op}', the '{arg}' must be positive, but got {v!r}.")
    return tuple(int(e) for e in v)


def pads6(op: str, arg: str, pad: Any) -> tuple:
    """An int, 3 or 6 non-negative ints as ``(front, back, top, bottom, left, right)``."""
    if _is_int(pad):
        pad = (pad,) * 6
    if isinstance(pad, list):
        pad = tuple(pad)
    if isinstance(pad, tuple) and len(pad) == 3:
        pad = (pad[0], pad[0], pad[1], pad[1], pad[2], pad[2])
    if not isinstance(pad, tuple) or len(pad) != 6 or not all(_is_int(e) and e >= 0 for e in pad):
        raise ValueError(f"For '{op}', the '{arg}' must be a non-negative int or a tuple of three or six "
                         f"non-negative ints, but got {pad!r}.")
    return tuple(int(e) for e in pad)


def _axis_plan(n: int, k: int, s: int, mode: str, lo: int, hi: int, ceil_mode: bool) -> tuple:
    """``(pad_before, pad_after, out)`` along one axis; ``pad_after`` includes a ``ceil_mode`` overhang."""
    if mode == "valid":
        return 0, 0, (n - k) // s + 1
    if mode == "same":
        out = -(-n // s)
        need = max((out - 1) * s + k - n, 0)
        return need // 2, need - need // 2, out
    span = n + lo + hi - k
    out = (-(-span // s) if ceil_mode else span // s) + 1
    if ceil_mode and (out - 1) * s >= n + lo:
        out -= 1
    return lo, max((out - 1) * s + k - n - lo, hi), out


def _counts(n: int, k: int, s: int, lo: int, hi: int, out: int, include_pad: bool) -> np.ndarray:
    lo_b, hi_b = (-lo, n + hi) if include_pad else (0, n)
    return np.array([min(o * s - lo + k, hi_b) - max(o * s - lo, lo_b) for o in range(out)], np.float64)


def pool3d(op: str, kind: str, x: Any, ksize: tuple, strides: tuple, mode: str, pads: tuple = (0,) * 6,
           ceil_mode: bool = False, count_include_pad: bool = True, divisor: int = 0) -> Tensor:
    """Max (``kind='max'``) or average pooling of NCDHW ``x``.

    Args:
        op: the API name for errors.
        kind: ``'max'`` or ``'avg'``.
        x: the NCDHW input.
        ksize: 3 ints.
        strides: 3 ints.
        mode: ``'valid'``, ``'same'`` or ``'pad'``.
        pads: with ``'pad'``, ``(front, back, top, bottom, left, right)``.
        ceil_mode: with ``'pad'``, round the output size up.
        count_include_pad: average: count explicit and SAME pads in the divisor.
        divisor: average: a fixed divisor when positive.

    Returns:
        The pooled NCDHW Tensor.
    """
    t = to_tf(x, op, "x")
    if t.shape.rank != 5:
        raise ValueError(f"For '{op}', the 'x' must be a 5-D NCDHW Tensor, but got shape {t.shape.as_list()}.")
    spatial = t.shape.as_list()[2:]
    if None in spatial:
        raise ValueError(f"For '{op}', the spatial dimensions of 'x' must be known, but got {t.shape.as_list()}.")
    plans = [_axis_plan(n, k, s, mode, pads[2 * i], pads[2 * i + 1], ceil_mode)
             for i, (n, k, s) in enumerate(zip(spatial, ksize, strides))]
    if any(p[2] <= 0 for p in plans):
        raise ValueError(f"For '{op}', the output shape must be positive, but got {[p[2] for p in plans]} for input "
                         f"{t.shape.as_list()}, 'kernel_size' {ksize} and 'strides' {strides}.")
    outs = [p[2] for p in plans]  # an explicit pad past a ceil_mode end can leave extra windows to drop
    src = tf.transpose(t if t.dtype.is_floating else tf.cast(t, tf.float32), _TO_NDHWC)
    paddings = [[0, 0]] + [[p[0], p[1]] for p in plans] + [[0, 0]]
    if kind == "max":
        if any(sum(p) for p in paddings):
            src = tf.pad(src, paddings, constant_values=src.dtype.min)
        y = tf.nn.max_pool3d(src, [1, *ksize, 1], [1, *strides, 1], "VALID")[:, :outs[0], :outs[1], :outs[2]]
    else:
        if any(sum(p) for p in paddings):
            src = tf.pad(src, paddings)
        kvol = float(ksize[0] * ksize[1] * ksize[2])
        sums = tf.nn.avg_pool3d(src, [1, *ksize, 1], [1, *strides, 1], "VALID")[:, :outs[0], :outs[1], :outs[2]] * kvol
        if divisor:
            y = sums / float(divisor)
        else:
            c = [_counts(n, k, s, p[0], (p[1] if mode != "pad" else pads[2 * i + 1]), p[2], count_include_pad)
                 for i, (n, k, s, p) in enumerate(zip(spatial, ksize, strides, plans))]
            div = c[0][:, None, None] * c[1][None, :, None] * c[2][None, None, :]
            y = sums / tf.constant(div[None, :, :, :, None], sums.dtype)
    y = tf.transpose(y, _TO_NCDHW)
    return _wrap(tf.cast(y, t.dtype) if y.dtype != t.dtype else y)


def max_pool3d(x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """3-D max pooling of NCDHW data.

    Args:
        x: ``(N, C, D, H, W)`` input.
        kernel_size: an int or 3 ints.
        stride: an int or 3 ints (``kernel_size`` when None).
        padding: an int or 3 ints, padded on both sides.
        dilation: 1 (other values raise ValueError).
        ceil_mode: round the output size up.
        return_indices: also return the argmax indices (raises NotImplementedError).

    Returns:
        The pooled Tensor.
    """
    op = "max_pool3d"
    k = triple(op, "kernel_size", kernel_size)
    s = k if stride is None else triple(op, "stride", stride)
    p = pads6(op, "padding", padding)
    if triple(op, "dilation", dilation) != (1, 1, 1):
        raise ValueError(f"For '{op}', tfspore supports only 'dilation' 1, but got {dilation!r}.")
    if return_indices:
        raise NotImplementedError(f"For '{op}', tfspore does not implement 'return_indices'=True.")
    return pool3d(op, "max", x, k, s, "pad", p, bool(ceil_mode))


def avg_pool3d(input_x: Any, kernel_size: Any = 1, stride: Any = 1, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """3-D average pooling of NCDHW data.

    Args:
        input_x: ``(N, C, D, H, W)`` input.
        kernel_size: an int or 3 ints.
        stride: an int or 3 ints.
        padding: an int or 6 ints ``(front, back, top, bottom, left, right)``.
        ceil_mode: round the output size up.
        count_include_pad: count the zero padding in the divisor.
        divisor_override: a fixed divisor.

    Returns:
        The pooled Tensor.
    """
    op = "avg_pool3d"
    k = triple(op, "kernel_size", kernel_size)
    s = triple(op, "stride", stride)
    p = pads6(op, "padding", padding)
    return pool3d(op, "avg", input_x, k, s, "pad", p, bool(ceil_mode), bool(count_include_pad),
                  int(divisor_override or 0))
