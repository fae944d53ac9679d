"""Layers that rearrange elements without arithmetic: ``Unfold`` (image patches), ``PixelShuffle``,
``PixelUnshuffle`` and ``ChannelShuffle``.

``Unfold`` takes MindSpore's ``[1, k, k, 1]``-style arguments and returns ``(N, C * kh * kw, oh, ow)``
with the patch depth ordered ``(kh, kw, C)`` (TensorFlow's ``extract_patches`` order, which
MindSpore's ``ExtractImagePatches`` shares); the pixel shuffles follow ``ops.pixel_shuffle``:
``(*, C * r * r, H, W) <-> (*, C, H * r, W * r)``.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> nn.PixelShuffle(2)(Tensor(np.ones((1, 8, 3, 3), np.float32))).shape
    (1, 2, 6, 6)
"""
from __future__ import annotations

import numbers
from typing import Any

import tensorflow as tf

from tfspore._internal import validator
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import to_tf

__all__ = ["Unfold", "PixelShuffle", "PixelUnshuffle", "ChannelShuffle"]


def _is_int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


class Unfold(Cell):
    """Extract sliding ``ksize`` patches of an NCHW image into the channel dimension.

    Args:
        ksizes: ``[1, ksize_row, ksize_col, 1]``.
        strides: ``[1, stride_row, stride_col, 1]``.
        rates: ``[1, rate_row, rate_col, 1]`` (the dilation inside a patch).
        padding: 'valid' or 'same'.

    Inputs:
        input_x: a Tensor of shape ``(N, C, H, W)``.

    Outputs:
        A Tensor of shape ``(N, C * ksize_row * ksize_col, out_row, out_col)``.

    Raises:
        TypeError: when an argument is not a list or tuple.
        ValueError: for a wrongly formatted argument or ``padding``.

    Example:
        >>> Unfold([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1])(Tensor(np.ones((1, 3, 4, 4), np.float32))).shape
        (1, 12, 3, 3)
    """

    def __init__(self, ksizes: Any, strides: Any, rates: Any, padding: str = "valid") -> None:
        super().__init__()
        for arg, value in (("ksize", ksizes), ("stride", strides), ("rate", rates)):
            validator.check_type(value, [tuple, list], f"{arg}s", self.cls_name)
            if len(value) != 4 or value[0] != 1 or value[3] != 1:
                raise ValueError(f"For '{self.cls_name}' the format of '{arg}s' must be [1, {arg}_row, {arg}_col, 1], "
                                 f"but got {value}.")
            if not (_is_int(value[1]) and _is_int(value[2])) or value[1] < 1 or value[2] < 1:
                raise ValueError(f"For '{self.cls_name}' the {arg}_row and {arg}_col in '{arg}s' must be an positive "
                                 f"integer number, but got {arg}_row is {value[1]}, {arg}_col is {value[2]}")
        if not isinstance(padding, str) or padding.upper() not in ("VALID", "SAME"):
            raise ValueError(f"For 'ExtractImagePatches', the 'padding' must be str and must be in "
                             f"'['SAME', 'VALID']', but got {padding!r}.")
        self.ksizes, self.strides, self.rates = list(ksizes), list(strides), list(rates)
        self.padding = padding.upper()

    def construct(self, input_x: Any) -> Tensor:
        v = to_tf(input_x)
        if v.shape.rank != 4:
            raise ValueError(f"For '{self.cls_name}', the input must be 4-D, but got rank {v.shape.rank}.")
        y = tf.image.extract_patches(tf.transpose(v, [0, 2, 3, 1]), self.ksizes, self.strides, self.rates,
                                     self.padding)
        return _wrap(tf.transpose(y, [0, 3, 1, 2]))


def _shuffle(v: tf.Tensor, r: int, name: str) -> tf.Tensor:
    if v.shape.rank is None or v.shape.rank < 3:
        raise ValueError(f"For '{name}', the dimension of 'input' must be at least 3, but got {v.shape.rank}.")
    c = v.shape[-3]
    if c is not None and c % (r * r) != 0:
        raise ValueError(f"For '{name}', the channels of 'input' must be divisible by upscale_factor ** 2, but got "
                         f"{c} and {r}.")
    shape = tf.shape(v)
    lead, h, w = shape[:-3], shape[-2], shape[-1]
    x = tf.reshape(v, [-1, shape[-3] // (r * r), r, r, h, w])
    x = tf.transpose(x, [0, 1, 4, 2, 5, 3])
    return tf.reshape(x, tf.concat([lead, [shape[-3] // (r * r), h * r, w * r]], 0))


def _unshuffle(v: tf.Tensor, r: int, name: str) -> tf.Tensor:
    if v.shape.rank is None or v.shape.rank < 3:
        raise ValueError(f"For '{name}', the dimension of 'input' must be at least 3, but got {v.shape.rank}.")
    for d in (v.shape[-2], v.shape[-1]):
        if d is not None and d % r != 0:
            raise ValueError(f"For '{name}', the height and width of 'input' must be divisible by downscale_factor, "
                             f"but got {tuple(v.shape.as_list())} and {r}.")
    shape = tf.shape(v)
    lead, c, h, w = shape[:-3], shape[-3], shape[-2], shape[-1]
    x = tf.reshape(v, [-1, c, h // r, r, w // r, r])
    x = tf.transpose(x, [0, 1, 3, 5, 2, 4])
    return tf.reshape(x, tf.concat([lead, [c * r * r, h // r, w // r]], 0))


class PixelShuffle(Cell):
    """Rearrange ``(*, C * r * r, H, W)`` into ``(*, C, H * r, W * r)``.

    Args:
        upscale_factor: ``r``.

    Inputs:
        input: a Tensor of rank 3 or more.

    Outputs:
        The rearranged Tensor.

    Raises:
        ValueError: for a non-positive factor, or channels not divisible by ``r * r``.

    Example:
        >>> PixelShuffle(3).upscale_factor
        3
    """

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = validator.check_positive_int(upscale_factor, "upscale_factor", self.cls_name)

    def construct(self, input: Any) -> Tensor:  # noqa: A002
        return _wrap(_shuffle(to_tf(input), self.upscale_factor, "pixel_shuffle"))


class PixelUnshuffle(Cell):
    """Rearrange ``(*, C, H * r, W * r)`` into ``(*, C * r * r, H, W)`` (the inverse of ``PixelShuffle``).

    Args:
        downscale_factor: ``r``.

    Inputs:
        input: a Tensor of rank 3 or more.

    Outputs:
        The rearranged Tensor.

    Raises:
        ValueError: for a non-positive factor, or a height or width not divisible by ``r``.

    Example:
        >>> PixelUnshuffle(2).downscale_factor
        2
    """

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = validator.check_positive_int(downscale_factor, "downscale_factor", self.cls_name)

    def construct(self, input: Any) -> Tensor:  # noqa: A002
        return _wrap(_unshuffle(to_tf(input), self.downscale_factor, "pixel_unshuffle"))


class ChannelShuffle(Cell):
    """Shuffle the channels of ``(N, C, *)`` input across ``groups`` groups (ShuffleNet's channel shuffle).

    Args:
        groups: the number of groups (``C`` must divide by it).

    Inputs:
        x: a Tensor of shape ``(N, C, *)``.

    Outputs:
        A Tensor of the same shape.

    Raises:
        TypeError: when ``groups`` is not an int.
        ValueError: when it is not positive.

    Example:
        >>> ChannelShuffle(2).groups
        2
    """

    def __init__(self, groups: int) -> None:
        super().__init__()
        if not _is_int(groups):
            raise TypeError(f"For ChannelShuffle, the param `groups` must be int, but got {type(groups)}.")
        if groups < 1:
            raise ValueError(f"For ChannelShuffle, the param `groups` must be larger than 0, but got {groups}.")
        self.groups = int(groups)

    def construct(self, x: Any) -> Tensor:
        v = to_tf(x)
        shape = tf.shape(v)
        out = tf.reshape(v, tf.stack([shape[0], self.groups, shape[1] // self.groups, -1]))
        out = tf.transpose(out, [0, 2, 1, 3])
        return _wrap(tf.reshape(out, shape))
