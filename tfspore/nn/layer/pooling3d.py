"""3-D pooling over NCDHW (or unbatched CDHW) input: ``MaxPool3d`` and ``AvgPool3d``.

``pad_mode`` 'valid' and 'same' map to TensorFlow's VALID and SAME pooling (SAME max pooling pads
with -inf). 'pad' takes explicit padding (``(head, tail, top, bottom, left, right)`` for average
pooling, symmetric ``(d, h, w)`` for max pooling) and PyTorch's ``ceil_mode`` rule (a last window
must start inside the input or its front padding). Average pooling divides each window by
``divisor_override``, by its size within the padded input (``count_include_pad``), or by its size
within the input; in 'same' mode the padding is SAME's and ``count_include_pad`` applies to it too. Max pooling with
``dilation`` or ``return_indices`` reduces over the kernel offsets one strided slice at a time and
returns the flat ``d * H * W + h * W + w`` index of each maximum within its (unpadded) channel.
TensorFlow's CPU 3-D pooling kernels take channels-last data only: the layers transpose around them.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> nn.MaxPool3d(kernel_size=2, stride=2)(Tensor(np.ones((1, 2, 4, 4, 4), np.float32))).shape
    (1, 2, 2, 2, 2)
"""
from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore._internal import validator
from tfspore._internal.pool_window import pooled_length
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.layer._pool_args import _is_int
from tfspore.nn.layer._utils import to_tf
from tfspore.nn.layer._window import check_window
from tfspore.nn.layer.pooling import _PoolNd, _same_pads
from tfspore.ops.operations import AvgPool3D

__all__ = ["MaxPool3d", "AvgPool3d"]

_TO_NDHWC = [0, 2, 3, 4, 1]
_TO_NCDHW = [0, 4, 1, 2, 3]


def _triple(v: Any) -> tuple[int, int, int]:
    return (int(v),) * 3 if _is_int(v) else tuple(int(i) for i in v) if len(v) == 3 else (int(v[0]),) * 3


class _Pool3d(_PoolNd):
    """The 3-D pooling layers' checks on top of ``_PoolNd``'s: 3-element windows, 4-D or 5-D input."""

    def __init__(self, kernel_size: Any, stride: Any, pad_mode: str) -> None:
        super().__init__(kernel_size, stride, pad_mode)
        for arg, value in (("kernel_size", self.kernel_size), ("stride", self.stride)):
            if isinstance(value, tuple) and len(value) != 3:
                raise ValueError(f"For '{self.cls_name}', the '{arg}' must be an int or a tuple of 3 ints, but got "
                                 f"{value!r}.")
        self._k, self._s = _triple(self.kernel_size), _triple(self.stride)

    def _prepare(self, x: Any) -> tuple[tf.Tensor, bool]:
        v = to_tf(x)
        if v.shape.rank not in (4, 5):
            raise ValueError(f"For '{self.cls_name}', the input must be a 4-D or 5-D tensor, but got rank "
                             f"{v.shape.rank}.")
        v = self._input(v)
        if v.shape.rank == 4:
            return v[None], True
        return v, False

    def _spatial(self, v: tf.Tensor) -> list[int]:
        dims = v.shape.as_list()[2:]
        if any(d is None for d in dims):
            raise ValueError(f"For '{self.cls_name}', the depth, height and width must be static, but got shape "
                             f"{tuple(v.shape.as_list())}.")
        return dims


def _check_padding(name: str, padding: Any, size: int) -> tuple[int, ...]:
    validator.check_type(padding, [int, tuple, list], "padding", name)
    if _is_int(padding):
        if padding < 0:
            raise ValueError(f"For '{name}', the 'padding' must be non-negative, but got {padding}.")
        return (int(padding),) * size
    if not all(_is_int(p) and p >= 0 for p in padding):
        raise ValueError(f"For '{name}', the 'padding' must be a sequence of non-negative ints, but got {padding!r}.")
    return tuple(int(p) for p in padding)


class MaxPool3d(_Pool3d):
    """3-D max pooling over an ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input.

    Args:
        kernel_size: an int or ``(kd, kh, kw)``.
        stride: an int or ``(sd, sh, sw)``.
        pad_mode: 'valid' (default), 'same' or 'pad'.
        padding: with 'pad', an int or ``(pd, ph, pw)`` padded on both sides.
        dilation: an int or ``(dd, dh, dw)`` (needs 'pad').
        return_indices: also return the flat index of each maximum (needs 'pad').
        ceil_mode: round the output size up instead of down ('pad').

    Inputs:
        x: a Tensor of shape ``(N, C, D, H, W)`` or ``(C, D, H, W)``.

    Outputs:
        The pooled Tensor, and with ``return_indices`` also an int64 Tensor of indices.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for bad sizes or paddings, or dilation/indices without 'pad'.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> MaxPool3d(2, 2)(Tensor(np.ones((2, 4, 4, 4), np.float32))).shape
        (2, 2, 2, 2)
    """

    def __init__(self, kernel_size: Any = 1, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
                 dilation: Any = 1, return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__(kernel_size, stride, pad_mode)
        name = self.cls_name
        self.return_indices = validator.check_bool(return_indices, "return_indices", name)
        self.ceil_mode = validator.check_bool(ceil_mode, "ceil_mode", name)
        pads = _check_padding(name, padding, 3)
        if len(pads) == 1:
            pads = pads * 3
        if len(pads) != 3:
            raise ValueError(f"For {name}, the length of padding must equal to 3, but got {len(pads)}.")
        validator.check_type(dilation, [int, tuple], "dilation", name)
        dil = _triple(dilation) if _is_int(dilation) or len(dilation) in (1, 3) else None
        if dil is None or any(d < 1 for d in dil):
            raise ValueError(f"For {name}, the 'dilation' must be a positive int or a tuple of 1 or 3 positive ints, "
                             f"but got {dilation!r}.")
        if (dilation != 1 or return_indices) and self.pad_mode != "PAD":
            raise ValueError(f"For {name}, the pad_mode must be 'pad' when dilation is not 1 or return_indices is "
                             f"True, but got pad_mode:{pad_mode}.")
        if self.pad_mode != "PAD" and any(pads):
            raise ValueError(f"For 'MaxPool3D', the 'pad_list' must be zero or (0, 0, 0, 0, 0, 0) when 'pad_mode' is "
                             f"not \"pad\", but got 'pad_list' is {padding} and 'pad_mode' is {pad_mode}.")
        for p, k in zip(pads, self._k):
            if p > k // 2:
                raise ValueError(f"For '{name}', the 'padding' must be at most half of the kernel size, but got "
                                 f"padding {padding} and kernel_size {kernel_size}.")
        self.padding, self.dilation = pads, dil

    def construct(self, x: Any) -> Any:
        v, unbatched = self._prepare(x)
        if self.pad_mode == "VALID":  # a window larger than the input crashes oneDNN (SIGFPE)
            check_window(self.cls_name, v, v.shape[2:], self._k, self._s, lead=v.shape[:2])
        if self.pad_mode != "PAD":
            y = tf.nn.max_pool3d(tf.transpose(v, _TO_NDHWC), self._k, self._s, self.pad_mode)
            out = tf.transpose(y, _TO_NCDHW)
            return _wrap(out[0] if unbatched else out)
        dims = self._spatial(v)
        outs = [pooled_length(dims[i], self._k[i], self._s[i], self.padding[i], dilation=self.dilation[i],
                              ceil_mode=self.ceil_mode) for i in range(3)]
        if any(o <= 0 for o in outs):
            check_window(self.cls_name, v, dims, self._k, self._s, self.dilation, [2 * p for p in self.padding],
                         lead=v.shape[:2])
        # pad the front by `padding` and the back far enough for every window, with the lowest value
        backs = [max((outs[i] - 1) * self._s[i] + self.dilation[i] * (self._k[i] - 1) + 1 - dims[i]
                     - self.padding[i], 0) for i in range(3)]
        fill = tf.constant(-np.inf if v.dtype.is_floating else v.dtype.min, v.dtype)
        padded = tf.pad(v, [[0, 0], [0, 0]] + [[self.padding[i], backs[i]] for i in range(3)], constant_values=fill)
        if self.dilation == (1, 1, 1) and not self.return_indices:
            y = tf.nn.max_pool3d(tf.transpose(padded, _TO_NDHWC), self._k, self._s, "VALID")
            y = tf.transpose(y, _TO_NCDHW)[:, :, :outs[0], :outs[1], :outs[2]]
            return _wrap(y[0] if unbatched else y)
        y, idx = self._max_with_argmax(padded, dims, outs)
        if unbatched:
            y, idx = y[0], idx[0]
        return (_wrap(y), _wrap(idx)) if self.return_indices else _wrap(y)

    def _max_with_argmax(self, padded: tf.Tensor, dims: list, outs: list) -> tuple[tf.Tensor, tf.Tensor]:
        """The maximum over the kernel offsets (first maximum wins) and its flat index in the unpadded input."""
        best, best_idx = None, None
        grids = [np.arange(outs[i]) * self._s[i] - self.padding[i] for i in range(3)]
        for off in itertools.product(*(range(k) for k in self._k)):
            starts = [off[i] * self.dilation[i] + self.padding[i] + grids[i][0] for i in range(3)]
            ends = [starts[i] + (outs[i] - 1) * self._s[i] + 1 for i in range(3)]
            piece = padded[:, :, starts[0]:ends[0]:self._s[0], starts[1]:ends[1]:self._s[1],
                           starts[2]:ends[2]:self._s[2]]
            pos = [grids[i] + off[i] * self.dilation[i] for i in range(3)]
            flat = (pos[0][:, None, None] * dims[1] + pos[1][None, :, None]) * dims[2] + pos[2][None, None, :]
            flat = tf.broadcast_to(tf.constant(flat.astype(np.int64)), tf.shape(piece))
            if best is None:
                best, best_idx = piece, flat
            else:
                better = piece > best
                best = tf.where(better, piece, best)
                best_idx = tf.where(better, flat, best_idx)
        return best, best_idx


class AvgPool3d(_Pool3d):
    """3-D average pooling over an ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input.

    Args:
        kernel_size: an int or ``(kd, kh, kw)``.
        stride: an int or ``(sd, sh, sw)``.
        pad_mode: 'valid' (default), 'same' or 'pad'.
        padding: with 'pad', an int, ``(pd, ph, pw)`` (both sides) or the 6-tuple
            ``(head, tail, top, bottom, left, right)``.
        ceil_mode: round the output size up instead of down.
        count_include_pad: count the zero padding in the divisor.
        divisor_override: a positive divisor used for every window, or None.

    Inputs:
        x: a float Tensor of shape ``(N, C, D, H, W)`` or ``(C, D, H, W)``.

    Outputs:
        The pooled Tensor.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for bad sizes, paddings or ``divisor_override``.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> AvgPool3d(2, 2)(Tensor(np.ones((1, 2, 4, 4, 4), np.float32))).shape
        (1, 2, 2, 2, 2)
    """

    def __init__(self, kernel_size: Any = 1, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: int | None = None) -> None:
        super().__init__(kernel_size, stride, pad_mode)
        name = self.cls_name
        pads = _check_padding(name, padding, 6)
        if len(pads) == 1:
            pads = pads * 6
        elif len(pads) == 3:
            pads = tuple(pads[i // 2] for i in range(6))
        elif len(pads) != 6:
            raise ValueError(f"For {name}, the padding must be a int or tuple/list contains 1 or 3 int, but got "
                             f"tuple/list with length:{len(pads)}.")
        if self.pad_mode != "PAD" and any(pads):
            raise ValueError(f"For 'AvgPool3D', the 'pad' must be zero or (0, 0, 0, 0, 0, 0) when 'pad_mode' is not "
                             f"\"pad\", but got 'pad' is {pads} and 'pad_mode' is {pad_mode}.")
        if divisor_override is not None and (not _is_int(divisor_override) or divisor_override <= 0):
            raise ValueError(f"For '{name}', the 'divisor_override' must be > 0, but got {divisor_override}.")
        self.ceil_mode = validator.check_bool(ceil_mode, "ceil_mode", name)
        self.count_include_pad = validator.check_bool(count_include_pad, "count_include_pad", name)
        self.padding, self.divisor_override = pads, divisor_override
        # 'valid' is 'pad' with zero pads here: ceil_mode applies to it too
        same = self.pad_mode == "SAME"
        self._pool = AvgPool3D(self._k, self._s, "SAME" if same else "PAD", pads, self.ceil_mode and not same,
                               self.count_include_pad, int(divisor_override or 0))

    def construct(self, x: Any) -> Tensor:
        v, unbatched = self._prepare(x)
        dims = self._spatial(v)
        k, s = self._k, self._s
        if self.pad_mode == "SAME":
            lohi = [_same_pads(dims[i], k[i], s[i])[:2] for i in range(3)]
        else:
            lohi = [(self.padding[2 * i], self.padding[2 * i + 1]) for i in range(3)]
        ceil = self.ceil_mode and self.pad_mode != "SAME"
        outs = [pooled_length(dims[i], k[i], s[i], lohi[i][0], lohi[i][1], ceil_mode=ceil) for i in range(3)]
        if any(o <= 0 for o in outs):
            check_window(self.cls_name, v, dims, k, s, pads=[lo + hi for lo, hi in lohi], lead=v.shape[:2],
                         err=RuntimeError)  # MindSpore's AvgPool3D raises RuntimeError
        y = to_tf(self._pool(v))
        return _wrap(y[0] if unbatched else y)
