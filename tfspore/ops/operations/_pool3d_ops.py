"""Pooling primitives ``MaxPool3D``, ``AvgPool3D`` (NCDHW) and ``MaxPoolWithArgmax`` (NCHW).

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> ops.MaxPool3D(kernel_size=2, strides=2)(Tensor(np.ones((1, 1, 4, 4, 4), np.float32))).shape
    (1, 1, 2, 2, 2)
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function import _pool3d as P3
from tfspore.ops.function._utils import positive_pair, to_tf
from tfspore.ops.primitive import Primitive, prim_attr_register

__all__ = ["MaxPool3D", "AvgPool3D", "MaxPoolWithArgmax"]


def _pad_mode(name: str, pad_mode: Any) -> str:
    if not isinstance(pad_mode, str):
        raise TypeError(f"For '{name}', the 'pad_mode' must be str, but got {type(pad_mode).__name__}.")
    mode = pad_mode.upper()
    if mode not in ("VALID", "SAME", "PAD"):
        raise ValueError(f"For '{name}', the 'pad_mode' must be one of ['VALID', 'SAME', 'PAD'], but got "
                         f"'{pad_mode}'.")
    return mode


def _data_format(name: str, data_format: Any, valid: str) -> None:
    if data_format != valid:
        raise ValueError(f"For '{name}', the 'data_format' must be '{valid}', but got '{data_format}'.")


class MaxPool3D(Primitive):
    """3-D max pooling of NCDHW data: ``MaxPool3D(kernel_size, strides, pad_mode, pad_list, ceil_mode)(x)``.

    Args:
        kernel_size: an int or a tuple of 3 ints.
        strides: an int or a tuple of 3 ints.
        pad_mode: ``'VALID'``, ``'SAME'`` or ``'PAD'`` (any case).
        pad_list: with ``'PAD'``, an int or 3 or 6 ints ``(front, back, top, bottom, left, right)``.
        ceil_mode: with ``'PAD'``, round the output size up (None: False).
        data_format: ``'NCDHW'``.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for inconsistent arguments.
    """

    @prim_attr_register
    def __init__(self, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "VALID", pad_list: Any = 0,
                 ceil_mode: Any = None, data_format: str = "NCDHW") -> None:
        mode = _pad_mode(self.name, pad_mode)
        _data_format(self.name, data_format, "NCDHW")
        self.add_prim_attr("pad_mode", "CALCULATED" if mode == "PAD" else mode)
        self.add_prim_attr("kernel_size", (1, 1) + P3.triple(self.name, "kernel_size", kernel_size))
        self.add_prim_attr("strides", (1, 1) + P3.triple(self.name, "strides", strides))
        if ceil_mode is not None:
            if not isinstance(ceil_mode, bool):
                raise TypeError(f"For '{self.name}', the 'ceil_mode' must be bool, but got "
                                f"{type(ceil_mode).__name__}.")
            if mode != "PAD":
                raise ValueError("When the 'pad_mode' is 'same' or 'valid', the 'ceil_mode' only supports 'None'.")
        self.add_prim_attr("ceil_mode", int(bool(ceil_mode)))
        pads = P3.pads6(self.name, "pad_list", pad_list)
        if mode != "PAD" and any(pads):
            raise ValueError(f"For '{self.name}', the 'pad_list' must be zero or (0, 0, 0, 0, 0, 0) when 'pad_mode' "
                             f"is not \"pad\", but got 'pad_list' is {pad_list} and 'pad_mode' is {pad_mode}.")
        self.add_prim_attr("pad_list", pads)

    def __call__(self, x: Any) -> Tensor:
        mode = {"CALCULATED": "pad"}.get(self.pad_mode, self.pad_mode.lower())
        return P3.pool3d(self.name, "max", x, self.kernel_size[2:], self.strides[2:], mode, self.pad_list,
                         bool(self.ceil_mode))


class AvgPool3D(Primitive):
    """3-D average pooling of NCDHW data: ``AvgPool3D(kernel_size, strides, pad_mode, pad, ...)(x)``.

    Args:
        kernel_size: an int or a tuple of 3 ints.
        strides: an int or a tuple of 3 ints.
        pad_mode: ``'valid'``, ``'same'`` or ``'pad'`` (any case).
        pad: with ``'pad'``, an int or 6 ints ``(front, back, top, bottom, left, right)``.
        ceil_mode: round the output size up.
        count_include_pad: count the padding in the divisor.
        divisor_override: a fixed divisor when positive.
        data_format: ``'NCDHW'``.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for inconsistent arguments.
    """

    @prim_attr_register
    def __init__(self, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "valid", pad: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: int = 0,
                 data_format: str = "NCDHW") -> None:
        mode = _pad_mode(self.name, pad_mode)
        _data_format(self.name, data_format, "NCDHW")
        self.add_prim_attr("pad_mode", mode)
        self.add_prim_attr("kernel_size", (1, 1) + P3.triple(self.name, "kernel_size", kernel_size))
        self.add_prim_attr("strides", (1, 1) + P3.triple(self.name, "strides", strides))
        pads = P3.pads6(self.name, "pad", pad)
        if mode != "PAD" and any(pads):
            raise ValueError(f"For '{self.name}', the 'pad' must be zero or (0, 0, 0, 0, 0, 0) when 'pad_mode' "
                             f"is not \"PAD\", but got 'pad' is {pad} and 'pad_mode' is {pad_mode}.")
        self.add_prim_attr("pad_list", pads)
        for arg, v in (("ceil_mode", ceil_mode), ("count_include_pad", count_include_pad)):
            if not isinstance(v, bool):
                raise TypeError(f"For '{self.name}', the '{arg}' must be bool, but got {type(v).__name__}.")
        if not isinstance(divisor_override, int) or isinstance(divisor_override, bool) or divisor_override < 0:
            raise ValueError(f"For '{self.name}', the 'divisor_override' must be a non-negative int, but got "
                             f"{divisor_override!r}.")

    def __call__(self, x: Any) -> Tensor:
        return P3.pool3d(self.name, "avg", x, self.kernel_size[2:], self.strides[2:], self.pad_mode.lower(),
                         self.pad_list, self.ceil_mode, self.count_include_pad, self.divisor_override)


class MaxPoolWithArgmax(Primitive):
    """2-D max pooling of NCHW data that also returns where each maximum was: ``(output, mask)``.

    ``mask`` holds, for each output, the int32 index of the maximum in its sample's flattened
    ``(C, H, W)`` input, as MindSpore's CPU kernel does.

    Args:
        kernel_size: an int or a tuple of 2 ints.
        strides: an int or a tuple of 2 ints.
        pad_mode: ``'valid'`` or ``'same'``.
        data_format: ``'NCHW'``.
    """

    @prim_attr_register
    def __init__(self, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "valid",
                 data_format: str = "NCHW") -> None:
        mode = _pad_mode(self.name, pad_mode)
        if mode == "PAD":
            raise ValueError(f"For '{self.name}', the 'pad_mode' must be 'valid' or 'same', but got '{pad_mode}'.")
        _data_format(self.name, data_format, "NCHW")
        self.add_prim_attr("pad_mode", mode)
        self.add_prim_attr("kernel_size", (1, 1) + positive_pair(self.name, "kernel_size", kernel_size, True))
        self.add_prim_attr("strides", (1, 1) + positive_pair(self.name, "strides", strides, True))

    def __call__(self, x: Any) -> tuple:
        t = to_tf(x, self.name, "x")
        if t.shape.rank != 4:
            raise ValueError(f"For '{self.name}', the 'x' must be a 4-D NCHW Tensor, but got shape "
                             f"{t.shape.as_list()}.")
        nhwc = tf.transpose(t, [0, 2, 3, 1])
        y, idx = tf.nn.max_pool_with_argmax(nhwc, list(self.kernel_size[2:]), list(self.strides[2:]),
                                            self.pad_mode, output_dtype=tf.int64)
        shp = tf.shape(t, out_type=tf.int64)
        c, hw = shp[1], shp[2] * shp[3]
        mask = (idx % c) * hw + idx // c
        return _wrap(tf.transpose(y, [0, 3, 1, 2])), _wrap(tf.cast(tf.transpose(mask, [0, 3, 1, 2]), tf.int32))
