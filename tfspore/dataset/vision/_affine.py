"""``Affine`` and ``RandomAffine``: rotation, translation, scale and shear about the image centre.

The matrix is MindSpore's ``T * C * RSS * C^-1`` (computed in float32, as MindSpore stores it)
and the warp is OpenCV's ``warpAffine`` reproduced by ``_image_ops.warp_affine``.
"""
from __future__ import annotations

import math
import numbers
from typing import Any, Optional, Sequence, Tuple, Union

import tensorflow as tf

from tfspore._internal import validator as c
from tfspore.dataset.vision._common import check_fill_value
from tfspore.dataset.transforms._base import ImageTensorOperation
from tfspore.dataset.vision import _image_ops as ops
from tfspore.dataset.vision.utils import Inter

__all__ = ["Affine", "RandomAffine"]

_METHODS = {Inter.NEAREST: "NEAREST", Inter.BILINEAR: "BILINEAR", Inter.AREA: "BILINEAR"}  # warps treat AREA as linear


def _check_resample(resample: Any, api: str) -> Inter:
    c.check_type(resample, (Inter,), "resample", api)
    if resample not in _METHODS:
        names = ", ".join(m.name for m in _METHODS)
        raise TypeError(f"For '{api}', the 'resample' {resample!r} is not supported; supported: {names}.")
    return resample


def affine_matrix(height: tf.Tensor, width: tf.Tensor, degrees: tf.Tensor, translate_x: tf.Tensor,
                  translate_y: tf.Tensor, scale: tf.Tensor, shear_x: tf.Tensor, shear_y: tf.Tensor):
    """MindSpore's forward affine matrix (6 float32 scalars) for an image of ``height x width``.

    Angles are in degrees; translations in pixels.
    """
    f32 = tf.float32
    rad = lambda d: tf.cast(tf.cast(math.pi * tf.cast(d, tf.float64) / 180.0, f32), tf.float64)  # noqa: E731
    a = rad(degrees)
    sx = rad(shear_x)
    sy = rad(-tf.cast(shear_y, tf.float64))
    s = tf.cast(tf.cast(scale, f32), tf.float64)
    m0 = tf.cast(s * tf.cos(a + sy) / tf.cos(sy), f32)
    m1 = tf.cast(s * (-tf.cos(a + sy) * tf.tan(sx) / tf.cos(sy) - tf.sin(a)), f32)
    m3 = tf.cast(s * tf.sin(a + sy) / tf.cos(sy), f32)
    m4 = tf.cast(s * (-tf.sin(a + sy) * tf.tan(sx) / tf.cos(sy) + tf.cos(a)), f32)
    cx = tf.cast(tf.cast(width - 1, tf.float64) / 2.0, f32)
    cy = tf.cast(tf.cast(height - 1, tf.float64) / 2.0, f32)
    m2 = (1.0 - m0) * cx - m1 * cy + tf.cast(translate_x, f32)
    m5 = (1.0 - m4) * cy - m3 * cx + tf.cast(translate_y, f32)
    return [m0, m1, m2, m3, m4, m5]


def _warp(image: tf.Tensor, matrix, resample: Inter, fill: Sequence[int]) -> tf.Tensor:
    img, was_2d = ops.as_hwc(image)
    shape = tf.shape(img)
    out = ops.warp_affine(img, matrix, shape[0], shape[1], _METHODS[resample], fill)
    return ops.restore(tf.ensure_shape(out, img.shape), was_2d)


def _image_check(image: tf.Tensor, api: str) -> None:
    if image.shape.rank is not None and image.shape.rank not in (2, 3):
        raise RuntimeError(f"For '{api}', the input image should be in shape of <H,W> or <H,W,C>, "
                           f"but got shape {image.shape.as_list()}.")


class Affine(ImageTensorOperation):
    """Apply a fixed affine transformation about the image centre (output keeps the input size).

    Args:
        degrees: Rotation angle in degrees, in [-180, 180].
        translate: ``(tx, ty)`` shift as fractions of the width and height, each in [-1, 1].
        scale: Scale factor (> 0).
        shear: A number (shear along x) or ``(shear_x, shear_y)``, in degrees within [-180, 180].
        resample: ``Inter.NEAREST`` (default), ``Inter.BILINEAR`` or ``Inter.AREA`` (bilinear).
        fill_value: Fill of the uncovered area: an int or an RGB 3-tuple.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.Affine(0, (0.25, 0), 1.0, 0)(np.array([[1, 2, 3, 4]], np.uint8)).tolist()
        [[0, 1, 2, 3]]
    """

    def __init__(self, degrees: float, translate: Sequence[float], scale: float, shear: Union[float, Sequence[float]],
                 resample: Inter = Inter.NEAREST, fill_value: Union[int, Tuple[int, int, int]] = 0) -> None:
        super().__init__()
        api = "Affine"
        c.check_type(degrees, (int, float), "degrees", api)
        c.check_range(degrees, "degrees", api, -180, 180)
        c.check_type(translate, (list, tuple), "translate", api)
        if len(translate) != 2:
            raise TypeError(f"For '{api}', the length of translate should be 2, but got {translate!r}.")
        for i, value in enumerate(translate):
            c.check_type(value, (int, float), f"translate[{i}]", api)
            c.check_range(value, f"translate[{i}]", api, -1.0, 1.0)
        c.check_type(scale, (int, float), "scale", api)
        c.check_range(scale, "scale", api, 0, c.FLOAT_MAX_INTEGER, inc_low=False)
        c.check_type(shear, (int, float, list, tuple), "shear", api)
        if isinstance(shear, numbers.Number):
            shear = (shear, 0.0)
        if len(shear) != 2:
            raise TypeError(f"For '{api}', the length of shear should be 2, but got {shear!r}.")
        for i, value in enumerate(shear):
            c.check_type(value, (int, float), f"shear[{i}]", api)
            c.check_range(value, f"shear[{i}]", api, -180, 180)
        self.degrees = float(degrees)
        self.translate = (float(translate[0]), float(translate[1]))
        self.scale = float(scale)
        self.shear = (float(shear[0]), float(shear[1]))
        self.resample = _check_resample(resample, api)
        self.fill_value = check_fill_value(fill_value, api)

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        _image_check(image, "Affine")
        shape = tf.shape(image)
        tx = self.translate[0] * tf.cast(shape[1], tf.float32)
        ty = self.translate[1] * tf.cast(shape[0], tf.float32)
        matrix = affine_matrix(shape[0], shape[1], self.degrees, tx, ty, self.scale, self.shear[0], self.shear[1])
        return _warp(image, matrix, self.resample, self.fill_value)


def _pair(value: Any, name: str, api: str) -> Tuple[float, float]:
    c.check_type(value, (list, tuple), name, api)
    if len(value) != 2:
        raise TypeError(f"For '{api}', {name} should be a list or tuple of length 2, but got {value!r}.")
    for i, item in enumerate(value):
        c.check_type(item, (int, float), f"{name}[{i}]", api)
    return (float(value[0]), float(value[1]))


class RandomAffine(ImageTensorOperation):
    """Apply a random affine transformation about the image centre.

    Args:
        degrees: A number ``d`` (angle drawn from ``[-d, d]``) or a ``(min, max)`` range, in degrees.
        translate: ``(tx_min, tx_max)`` or ``(tx_min, tx_max, ty_min, ty_max)``, fractions of the
            width / height in [-1, 1]; the shift is drawn from ``[t_min * size, t_max * size]``.
        scale: ``(min, max)`` range of the scale factor.
        shear: A number ``s`` (x shear from ``[-s, s]``), ``(min, max)`` for x, or
            ``(x_min, x_max, y_min, y_max)``, in degrees.
        resample: ``Inter.NEAREST`` (default), ``Inter.BILINEAR`` or ``Inter.AREA`` (bilinear).
        fill_value: Fill of the uncovered area: an int or an RGB 3-tuple.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.RandomAffine(degrees=0, translate=(0.25, 0.25))(np.array([[1, 2, 3, 4]], np.uint8)).tolist()
        [[0, 1, 2, 3]]
    """

    _tf_random = True

    def __init__(self, degrees: Union[float, Sequence[float]], translate: Optional[Sequence[float]] = None,
                 scale: Optional[Sequence[float]] = None, shear: Optional[Union[float, Sequence[float]]] = None,
                 resample: Inter = Inter.NEAREST, fill_value: Union[int, Tuple[int, int, int]] = 0) -> None:
        super().__init__()
        api = "RandomAffine"
        c.check_type(degrees, (int, float, list, tuple), "degrees", api)
        if isinstance(degrees, (int, float)):
            c.check_range(degrees, "degrees", api, 0, c.FLOAT32_MAX)
            degrees = (-degrees, degrees)
        degrees = _pair(degrees, "degrees", api)
        if degrees[0] > degrees[1]:
            raise ValueError(f"For '{api}', degrees should be in (min,max) format, but got {degrees!r}.")
        if translate is None:
            translate = (0.0, 0.0, 0.0, 0.0)
        c.check_type(translate, (list, tuple), "translate", api)
        if len(translate) not in (2, 4):
            raise TypeError(f"For '{api}', translate should be a list or tuple of length 2 or 4, "
                            f"but got {translate!r}.")
        for i, value in enumerate(translate):
            c.check_type(value, (int, float), f"translate[{i}]", api)
            c.check_range(value, f"translate at {i}", api, -1.0, 1.0)
        translate = tuple(float(t) for t in translate) + ((0.0, 0.0) if len(translate) == 2 else ())
        if scale is None:
            scale = (1.0, 1.0)
        scale = _pair(scale, "scale", api)
        if scale[0] > scale[1]:
            raise ValueError(f"For '{api}', input scale[1] must be equal to or greater than scale[0], "
                             f"but got {scale!r}.")
        c.check_range(scale[0], "scale[0]", api, 0, c.FLOAT_MAX_INTEGER)
        c.check_range(scale[1], "scale[1]", api, 0, c.FLOAT_MAX_INTEGER, inc_low=False)
        if shear is None:
            shear = (0.0, 0.0, 0.0, 0.0)
        c.check_type(shear, (int, float, list, tuple), "shear", api)
        if isinstance(shear, (int, float)):
            c.check_range(shear, "shear", api, 0, c.FLOAT_MAX_INTEGER, inc_low=False)
            shear = (-shear, shear, 0.0, 0.0)
        if len(shear) not in (2, 4):
            raise TypeError(f"For '{api}', shear must be of length 2 or 4, but got {shear!r}.")
        for i, value in enumerate(shear):
            c.check_type(value, (int, float), f"shear[{i}]", api)
        shear = tuple(float(s) for s in shear) + ((0.0, 0.0) if len(shear) == 2 else ())
        if shear[0] > shear[1] or shear[2] > shear[3]:
            raise ValueError(f"For '{api}', input shear[1] must be equal to or greater than shear[0] and shear[3] "
                             f"must be equal to or greater than shear[2], but got {shear!r}.")
        self.degrees = degrees
        self.translate = translate
        self.scale = scale
        self.shear = shear
        self.resample = _check_resample(resample, api)
        self.fill_value = check_fill_value(fill_value, api)

    def _draw(self, lo, hi):
        if lo == hi:
            return tf.constant(lo, tf.float32)
        return self._uniform((), lo, hi)

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        _image_check(image, "RandomAffine")
        shape = tf.shape(image)
        h = tf.cast(shape[0], tf.float32)
        w = tf.cast(shape[1], tf.float32)
        t = self.translate
        degrees = tf.truncatemod(self._draw(*self.degrees), 360.0)  # C fmod
        tx = self._draw(t[0], t[1]) * w
        ty = self._draw(t[2], t[3]) * h
        scale = self._draw(*self.scale)
        shear_x = self._draw(self.shear[0], self.shear[1])
        shear_y = self._draw(self.shear[2], self.shear[3])
        matrix = affine_matrix(shape[0], shape[1], degrees, tx, ty, scale, shear_x, shear_y)
        return _warp(image, matrix, self.resample, self.fill_value)
