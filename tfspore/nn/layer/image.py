"""Image layers: ``ResizeBilinear``.

MindSpore 2.10 removed ``nn.ResizeBilinear`` (use ``nn.Upsample`` or ``ops.interpolate``); it is
kept here, with the MindSpore 1.x/2.0 signature and its ``ResizeBilinearV2`` kernel, so that
older scripts run unchanged.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> nn.ResizeBilinear()(Tensor(np.ones((1, 1, 2, 3), np.float32)), scale_factor=2).shape
    (1, 1, 4, 6)
"""
from __future__ import annotations

import numbers
from typing import Any

import tensorflow as tf

from tfspore.common.tensor import Tensor, _wrap
from tfspore.nn.cell import Cell
from tfspore.nn.layer import _checkparam as validator
from tfspore.nn.layer._utils import cast_to, compute_dtype, to_tf

__all__ = ["ResizeBilinear"]


class ResizeBilinear(Cell):
    """Bilinear resizing of an NCHW input to ``size`` or by an integer ``scale_factor``.

    Source pixel ``i`` of output pixel ``o`` is ``o * in / out`` (``align_corners=False``,
    ``half_pixel_centers=False``: TensorFlow 1's legacy rule), ``o * (in - 1) / (out - 1)``
    (``align_corners=True``) or ``(o + 0.5) * in / out - 0.5`` (``half_pixel_centers=True``).

    Args:
        half_pixel_centers: use half-pixel centres (not together with ``align_corners``).

    Inputs:
        x: a float Tensor of shape ``(N, C, H, W)``.
        size: the output ``(height, width)``, or None.
        scale_factor: an int multiplying height and width, or None (exactly one of the two is set).
        align_corners: align the corner pixels.

    Outputs:
        A Tensor of shape ``(N, C, out_h, out_w)``.

    Raises:
        TypeError: when ``half_pixel_centers`` or ``align_corners`` is not a bool, or ``scale_factor``
            not an int.
        ValueError: at call time, for both or neither of ``size`` and ``scale_factor``, a bad ``size``,
            or ``align_corners`` with ``half_pixel_centers``.

    Example:
        >>> ResizeBilinear()
        ResizeBilinear()
    """

    def __init__(self, half_pixel_centers: bool = False) -> None:
        super().__init__()
        self.half_pixel_centers = validator.check_bool(half_pixel_centers, "half_pixel_centers", self.cls_name)

    def construct(self, x: Any, size: Any = None, scale_factor: Any = None, align_corners: bool = False) -> Tensor:
        name = self.cls_name
        v = to_tf(x)
        v = cast_to(v, compute_dtype(self, v))
        validator.check_bool(align_corners, "align_corners", name)
        if v.shape.rank != 4:
            raise ValueError(f"For '{name}', the input must be 4-D, but got rank {v.shape.rank}.")
        if align_corners and self.half_pixel_centers:
            raise ValueError(f"For '{name}', the 'align_corners' and 'half_pixel_centers' can not be True at the "
                             f"same time, but got align_corners={align_corners}.")
        if (size is None) == (scale_factor is None):
            raise ValueError(f"For '{name}', exactly one of 'size' and 'scale_factor' must be set, but got "
                             f"size={size!r}, scale_factor={scale_factor!r}.")
        if size is not None:
            if not isinstance(size, (tuple, list)) or len(size) != 2 or not all(
                    isinstance(s, numbers.Integral) and not isinstance(s, bool) and s > 0 for s in size):
                raise ValueError(f"For '{name}', the 'size' must be a tuple of 2 positive ints, but got {size!r}.")
            out = [int(size[0]), int(size[1])]
        else:
            validator.check_positive_int(scale_factor, "scale_factor", name)
            h, w = v.shape[2], v.shape[3]
            if h is None or w is None:
                raise ValueError(f"For '{name}', 'scale_factor' needs static spatial dims, but got shape "
                                 f"{tuple(v.shape.as_list())}.")
            out = [h * scale_factor, w * scale_factor]
        y = tf.compat.v1.image.resize_bilinear(tf.transpose(v, [0, 2, 3, 1]), out, align_corners=align_corners,
                                               half_pixel_centers=self.half_pixel_centers)
        return _wrap(tf.transpose(cast_to(y, v.dtype), [0, 3, 1, 2]))
