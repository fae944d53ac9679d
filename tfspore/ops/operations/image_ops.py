"""``tfspore.ops.operations.image_ops``: image primitives ``ResizeBilinear`` (MindSpore 1.x) and ``CropAndResize``.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> ops.ResizeBilinear((4, 6))(Tensor(np.ones((1, 2, 2, 3), np.float32))).shape
    (1, 2, 4, 6)
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function import _detection as D
from tfspore.ops.function._utils import to_tf
from tfspore.ops.primitive import Primitive, PrimitiveWithInfer, prim_attr_register

__all__ = ["ResizeBilinear", "CropAndResize"]


def _size_pair(name: str, size: Any) -> tuple:
    if isinstance(size, list):
        size = tuple(size)
    if not isinstance(size, tuple) or len(size) != 2:
        raise TypeError(f"For '{name}', the 'size' must be a tuple or list of 2 ints, but got {size!r}.")
    out = []
    for i, v in enumerate(size):
        if hasattr(v, "asnumpy"):
            v = v.asnumpy().item()
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise ValueError(f"For '{name}', the 'size[{i}]' must be a positive int, but got {v!r}.")
        out.append(v)
    return tuple(out)


class ResizeBilinear(PrimitiveWithInfer):
    """Bilinear resize of NCHW images to ``size`` (MindSpore 1.x's primitive): ``ResizeBilinear(size)(x)``.

    Args:
        size: ``(new_height, new_width)``.
        align_corners: align the corner pixels of input and output.
        half_pixel_centers: sample at pixel centres.

    Raises:
        TypeError: when ``size`` is not a pair.
        ValueError: when both ``align_corners`` and ``half_pixel_centers`` are True.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor, ops
        >>> x = Tensor(np.array([[[[1, 2], [3, 4]]]], np.float32))
        >>> ops.ResizeBilinear((3, 3), align_corners=True)(x).asnumpy()[0, 0]
        array([[1. , 1.5, 2. ],
               [2. , 2.5, 3. ],
               [3. , 3.5, 4. ]], dtype=float32)
    """

    @prim_attr_register
    def __init__(self, size: Any, align_corners: bool = False, half_pixel_centers: bool = False) -> None:
        self.add_prim_attr("size", _size_pair(self.name, size))
        for arg, v in (("align_corners", align_corners), ("half_pixel_centers", half_pixel_centers)):
            if not isinstance(v, bool):
                raise TypeError(f"For '{self.name}', the '{arg}' must be bool, but got {type(v).__name__}.")
        if align_corners and half_pixel_centers:
            raise ValueError(f"For '{self.name}', the 'half_pixel_centers' must be False when 'align_corners' is "
                             f"True, but got 'half_pixel_centers': {half_pixel_centers}.")

    def __call__(self, x: Any) -> Tensor:
        t = to_tf(x, self.name, "x")
        if t.shape.rank is not None and t.shape.rank != 4:
            raise ValueError(f"For '{self.name}', the 'x' must be a 4-D NCHW Tensor, but got shape "
                             f"{t.shape.as_list()}.")
        src = t if t.dtype in (tf.float32, tf.float64) else tf.cast(t, tf.float32)
        y = tf.compat.v1.image.resize_bilinear(tf.transpose(src, [0, 2, 3, 1]), list(self.size),
                                               align_corners=self.align_corners,
                                               half_pixel_centers=self.half_pixel_centers)
        y = tf.transpose(y, [0, 3, 1, 2])
        return _wrap(tf.cast(y, t.dtype) if t.dtype.is_floating else y)


class CropAndResize(Primitive):
    """Crop normalised boxes out of NHWC images and resize them: ``(x, boxes, box_index, crop_size)``.

    Args:
        method: ``'bilinear'`` or ``'nearest'``.
        extrapolation_value: the value sampled outside the image.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for an unknown ``method``.
    """

    @prim_attr_register
    def __init__(self, method: str = "bilinear", extrapolation_value: float = 0.0) -> None:
        if not isinstance(method, str):
            raise TypeError(f"For '{self.name}', the 'method' must be str, but got {type(method).__name__}.")
        if method not in ("bilinear", "nearest", "bilinear_v2"):
            raise ValueError(f"For '{self.name}', the 'method' must be one of ['bilinear', 'nearest', "
                             f"'bilinear_v2'], but got '{method}'.")
        if not isinstance(extrapolation_value, float):
            raise TypeError(f"For '{self.name}', the 'extrapolation_value' must be float, but got "
                            f"{type(extrapolation_value).__name__}.")
        self.init_prim_io_names(inputs=["x", "boxes", "box_index", "crop_size"], outputs=["y"])

    def __call__(self, x: Any, boxes: Any, box_index: Any, crop_size: Any) -> Tensor:
        return D.crop_and_resize(x, boxes, box_index, crop_size, self.method, self.extrapolation_value)
