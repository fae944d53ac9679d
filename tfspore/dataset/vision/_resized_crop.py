"""Random resizing: ``RandomResizedCrop``, ``RandomCropDecodeResize`` and ``RandomResize``.

Both draw MindSpore's crop box (``RandomResizedCrop._crop_box``). ``RandomCropDecodeResize``
decodes JPEG input with ``tf.image.decode_and_crop_jpeg``: libjpeg-turbo decodes just the rows
and iMCU columns of the window, as MindSpore's ``JpegCropAndDecode`` does, after the box is drawn
from the size in the JPEG header. Other formats are decoded whole and cropped. With chroma
subsampling, the crop's edge columns upsample chroma from inside the window, so they can differ
from a crop of the fully decoded image, in MindSpore as here.
"""
from __future__ import annotations

import math
from typing import Any, Sequence, Union

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as c
from tfspore.dataset.vision._common import check_size
from tfspore.dataset.transforms._base import ImageTensorOperation
from tfspore.dataset.vision import _image_ops as ops
from tfspore.dataset.vision._common import (check_encoded_rank, check_inter, encoded_array, encoded_to_string,
                                            image_rank_check, resize_image, round_half_away)
from tfspore.dataset.vision.utils import Inter

__all__ = ["RandomResizedCrop", "RandomCropDecodeResize", "RandomResize"]


class RandomResizedCrop(ImageTensorOperation):
    """Crop a random area and aspect ratio, then resize to `size`.

    Tries `max_attempts` times to draw an area fraction in `scale` and a log-uniform aspect
    ratio in `ratio` that fits; otherwise crops the centre with the ratio clamped to `ratio`.

    Args:
        size: An int or ``(height, width)`` of the output.
        scale: Range of the crop area as a fraction of the image.
        ratio: Range of the crop aspect ratio (width / height).
        interpolation: An :class:`Inter` mode.
        max_attempts: Attempts before the fallback.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.RandomResizedCrop(8)(np.zeros((20, 30, 3), np.uint8)).shape
        (8, 8, 3)
    """

    _tf_random = True

    def __init__(self, size: Union[int, Sequence[int]], scale: Sequence[float] = (0.08, 1.0),
                 ratio: Sequence[float] = (3. / 4., 4. / 3.), interpolation: Inter = Inter.BILINEAR,
                 max_attempts: int = 10) -> None:
        super().__init__()
        api = type(self).__name__
        size = check_size(size, api)
        self.size = size * 2 if len(size) == 1 else size
        self.scale = c.check_min_max(scale, "scale", api, 0.0, c.FLOAT_MAX_INTEGER)
        if self.scale[1] <= 0:
            raise ValueError(f"For '{api}', input scale[1] must be greater than 0, but got {self.scale[1]}.")
        c.check_type(ratio, (list, tuple), "ratio", api)
        if len(ratio) != 2:
            raise TypeError(f"For '{api}', ratio should be a list/tuple of length 2, but got {ratio!r}.")
        for i, value in enumerate(ratio):
            c.check_type(value, (int, float), f"ratio[{i}]", api)
            c.check_range(value, f"ratio[{i}]", api, 0, c.FLOAT32_MAX, inc_low=False)
        if ratio[0] > ratio[1]:
            raise ValueError(f"For '{api}', ratio should be in (min,max) format, but got {tuple(ratio)!r}.")
        self.ratio = (float(ratio[0]), float(ratio[1]))
        self.interpolation = check_inter(interpolation, "interpolation", api)
        self.max_attempts = c.check_int_range(max_attempts, "max_attempts", api, 1, c.INT32_MAX)

    def _crop_box(self, height: tf.Tensor, width: tf.Tensor):
        """MindSpore's crop box ``(top, left, crop_h, crop_w)`` for an image of ``height x width``.

        Up to `max_attempts` draws of an area fraction and a log-uniform aspect ratio; the first
        box that fits wins (its width ``round(sqrt(area * scale * ratio))``, its height
        ``round(width / ratio)``, each at least 1). Otherwise the centre box with the ratio clamped
        into range. Rounding is half away from zero, as ``std::round``.
        """
        h_f = tf.cast(height, tf.float64)
        w_f = tf.cast(width, tf.float64)
        area = h_f * w_f
        n = self.max_attempts
        log_lo, log_hi = math.log(self.ratio[0]), math.log(self.ratio[1])
        if self.scale[0] == self.scale[1]:
            target = tf.fill([n], tf.constant(self.scale[0], tf.float64)) * area
        else:
            target = tf.cast(self._uniform([n], self.scale[0], self.scale[1]), tf.float64) * area
        if log_lo == log_hi:
            aspect = tf.fill([n], tf.constant(self.ratio[0], tf.float64))
        else:
            aspect = tf.exp(tf.cast(self._uniform([n], log_lo, log_hi), tf.float64))
        cw_f = tf.maximum(round_half_away(tf.sqrt(target * aspect)), 1.0)
        cw = tf.cast(cw_f, tf.int32)
        ch = tf.cast(tf.maximum(round_half_away(cw_f / aspect), 1.0), tf.int32)
        fits = tf.logical_and(cw <= width, ch <= height)
        u_top = self._uniform([n])
        u_left = self._uniform([n])
        tops = tf.cast(tf.floor(u_top * tf.cast(height - ch + 1, tf.float32)), tf.int32)
        lefts = tf.cast(tf.floor(u_left * tf.cast(width - cw + 1, tf.float32)), tf.int32)
        first = tf.argmax(tf.cast(fits, tf.int32), output_type=tf.int32)
        any_fit = tf.reduce_any(fits)
        # fallback: centre crop with the ratio clamped into range
        lo32, hi32 = float(np.float32(self.ratio[0])), float(np.float32(self.ratio[1]))  # MindSpore keeps float
        in_ratio = w_f / h_f
        narrow = in_ratio < lo32
        wide = tf.logical_and(tf.logical_not(narrow), in_ratio > hi32)
        fb_w = tf.where(wide, tf.cast(round_half_away(h_f * hi32), tf.int32), width)
        fb_h = tf.where(narrow, tf.cast(round_half_away(w_f / lo32), tf.int32), height)
        fb_w = tf.maximum(fb_w, 1)
        fb_h = tf.maximum(fb_h, 1)
        fb_top = tf.cast(round_half_away(tf.cast(height - fb_h, tf.float64) / 2.0), tf.int32)
        fb_left = tf.cast(round_half_away(tf.cast(width - fb_w, tf.float64) / 2.0), tf.int32)
        top = tf.where(any_fit, tops[first], fb_top)
        left = tf.where(any_fit, lefts[first], fb_left)
        crop_h = tf.where(any_fit, ch[first], fb_h)
        crop_w = tf.where(any_fit, cw[first], fb_w)
        return top, left, crop_h, crop_w

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        image_rank_check(image, "RandomResizedCrop")
        img, was_2d = ops.as_hwc(image)
        shape = tf.shape(img)
        top, left, crop_h, crop_w = self._crop_box(shape[0], shape[1])
        window = ops.crop(img, top, left, crop_h, crop_w)
        out = resize_image(window, self.size, self.interpolation)
        return ops.restore(out, was_2d)


class RandomCropDecodeResize(RandomResizedCrop):
    """Decode an encoded image, crop a random area and aspect ratio, and resize it to `size`.

    The crop box follows MindSpore's sampling: up to `max_attempts` draws of an area fraction
    in `scale` and a log-uniform aspect ratio (width / height) in `ratio`; if none fits, the
    centre box with the ratio clamped into `ratio`. For JPEG only the box is decoded.

    Args:
        size: An int or ``(height, width)`` of the output.
        scale: Range of the crop area as a fraction of the image.
        ratio: Range of the crop aspect ratio (width / height).
        interpolation: An :class:`Inter` mode.
        max_attempts: Attempts before the fallback.

    Raises:
        TypeError: If an argument has a wrong type, or (eagerly) if the input is not a 1-D uint8 array.
        ValueError: If an argument is out of range.

    Example:
        >>> import io, numpy as np
        >>> from PIL import Image
        >>> from tfspore.dataset import vision
        >>> buf = io.BytesIO(); Image.new("RGB", (30, 20)).save(buf, format="JPEG")
        >>> vision.RandomCropDecodeResize((8, 6))(np.frombuffer(buf.getvalue(), np.uint8)).shape
        (8, 6, 3)
    """

    _tf_random = True

    def __init__(self, size: Union[int, Sequence[int]], scale: Sequence[float] = (0.08, 1.0),
                 ratio: Sequence[float] = (3. / 4., 4. / 3.), interpolation: Inter = Inter.BILINEAR,
                 max_attempts: int = 10) -> None:
        super().__init__(size, scale, ratio, interpolation, max_attempts)

    def __call__(self, img: Any) -> Any:
        img = encoded_array(img)
        if not isinstance(img, np.ndarray):
            raise TypeError(f"For 'RandomCropDecodeResize', the input should be an encoded image in 1-D NumPy "
                            f"format, but got {type(img)}.")
        if img.ndim != 1 or img.dtype.type is not np.uint8:
            raise TypeError(f"For 'RandomCropDecodeResize', the input should be an encoded image with uint8 type "
                            f"in 1-D NumPy format, but got shape {img.shape} and dtype {img.dtype.type}.")
        return super().__call__(img)

    def _apply(self, data: tf.Tensor) -> tf.Tensor:
        check_encoded_rank(data, "RandomCropDecodeResize")
        raw = encoded_to_string(data)

        def _jpeg():
            shape = tf.image.extract_jpeg_shape(raw)
            top, left, crop_h, crop_w = self._crop_box(shape[0], shape[1])
            window = tf.image.decode_and_crop_jpeg(raw, tf.stack([top, left, crop_h, crop_w]), channels=3,
                                                   dct_method="INTEGER_ACCURATE")
            return resize_image(window, self.size, self.interpolation)

        def _other():
            image = ops.decode_image(raw)
            shape = tf.shape(image)
            top, left, crop_h, crop_w = self._crop_box(shape[0], shape[1])
            return resize_image(ops.crop(image, top, left, crop_h, crop_w), self.size, self.interpolation)

        out = tf.cond(tf.io.is_jpeg(raw), _jpeg, _other)
        return tf.ensure_shape(out, [self.size[0], self.size[1], 3])


class RandomResize(ImageTensorOperation):
    """Resize with an interpolation chosen uniformly from bilinear, nearest, bicubic and area.

    Args:
        size: ``(height, width)``, or an int: the shorter side becomes `size` keeping the ratio.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.RandomResize((3, 5))(np.zeros((6, 8, 3), np.uint8)).shape
        (3, 5, 3)
    """

    _tf_random = True
    _MODES = (Inter.LINEAR, Inter.NEAREST, Inter.CUBIC, Inter.AREA)

    def __init__(self, size: Union[int, Sequence[int]]) -> None:
        super().__init__()
        self.size = check_size(size, "RandomResize")

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        image_rank_check(image, "RandomResize")
        index = self._uniform((), 0, len(self._MODES), dtype=tf.int32)
        branches = [lambda mode=mode: resize_image(image, self.size, mode) for mode in self._MODES]
        return tf.switch_case(index, branches)
