"""Erasing transforms: ``CutOut`` (random zero patches) and ``RandomErasing`` (one random box).

Both build a boolean mask of the erased pixels from a few random numbers and select with
``tf.where``, so they run inside ``tf.data`` maps without Python.
"""
from __future__ import annotations

from typing import Sequence, Tuple, Union

import tensorflow as tf

from tfspore._internal import validator as c
from tfspore.dataset.transforms._base import ImageTensorOperation

__all__ = ["CutOut", "RandomErasing"]


class CutOut(ImageTensorOperation):
    """Zero `num_patches` square patches of side `length` at random positions.

    As in MindSpore, a patch's top-left corner is drawn uniformly from
    ``[-length, H] x [-length, W]``, so patches may be clipped by the image border.

    Args:
        length: Side of each patch; at most the image height and width.
        num_patches: Number of patches.
        is_hwc: True for HWC images, False for CHW.

    Raises:
        TypeError: If an argument has a wrong type.
        ValueError: If `length` or `num_patches` is not positive.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> out = vision.CutOut(2, num_patches=3)(np.full((8, 8, 3), 9, np.uint8))
        >>> out.shape, int(out.max())
        ((8, 8, 3), 9)
    """

    _tf_random = True

    def __init__(self, length: int, num_patches: int = 1, is_hwc: bool = True) -> None:
        super().__init__()
        api = "CutOut"
        c.check_type(length, (int,), "length", api)
        c.check_type(num_patches, (int,), "num_patches", api)
        c.check_type(is_hwc, (bool,), "is_hwc", api)
        c.check_range(length, "length", api, 1, c.FLOAT_MAX_INTEGER)
        c.check_range(num_patches, "num_patches", api, 1, c.FLOAT_MAX_INTEGER)
        self.length = length
        self.num_patches = num_patches
        self.is_hwc = is_hwc

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        if image.shape.rank != 3:
            raise RuntimeError(f"For 'CutOut', the input image should be in shape of "
                               f"{'<H,W,C>' if self.is_hwc else '<C,H,W>'}, but got shape {image.shape.as_list()}.")
        shape = tf.shape(image)
        h, w = (shape[0], shape[1]) if self.is_hwc else (shape[1], shape[2])
        size = self.length
        tf.debugging.assert_less_equal(tf.stack([size, size]), tf.stack([h, w]),
                                       message=f"For 'CutOut', the patch length {size} is larger than the image")
        n = self.num_patches
        tops = self._uniform([n], 0, h + size + 1, dtype=tf.int32) - size
        lefts = self._uniform([n], 0, w + size + 1, dtype=tf.int32) - size
        rows = tf.range(h)[None, :]
        cols = tf.range(w)[None, :]
        in_rows = tf.logical_and(rows >= tops[:, None], rows < tops[:, None] + size)  # [n, H]
        in_cols = tf.logical_and(cols >= lefts[:, None], cols < lefts[:, None] + size)  # [n, W]
        mask = tf.reduce_any(tf.logical_and(in_rows[:, :, None], in_cols[:, None, :]), axis=0)  # [H, W]
        mask = mask[:, :, None] if self.is_hwc else mask[None, :, :]
        return tf.where(mask, tf.zeros_like(image), image)


class RandomErasing(ImageTensorOperation):
    """Erase one random box of a CHW image (as after ``ToTensor``) with probability `prob`.

    Up to `max_attempts` draws of an area fraction in `scale` and an aspect ratio (width /
    height, uniform) in `ratio`; the first box smaller than the image in both sides is filled
    with `value` at a uniform position. If none fits, the image is returned unchanged.

    Args:
        prob: Probability of erasing.
        scale: Range of the erased area as a fraction of the image.
        ratio: Range of the erased aspect ratio.
        value: An int fill, a 3-tuple of per-channel fills, or ``"random"`` for standard normal noise.
        inplace: Accepted for compatibility (tensors are never modified in place).
        max_attempts: Attempts before giving up.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> out = vision.RandomErasing(prob=1.0, value=0)(np.ones((3, 16, 16), np.float32))
        >>> out.shape, float(out.min())
        ((3, 16, 16), 0.0)
    """

    _tf_random = True

    def __init__(self, prob: float = 0.5, scale: Sequence[float] = (0.02, 0.33),
                 ratio: Sequence[float] = (0.3, 3.3), value: Union[int, str, Sequence[int]] = 0,
                 inplace: bool = False, max_attempts: int = 10) -> None:
        super().__init__()
        api = "RandomErasing"
        self.prob = c.check_float_range(prob, "prob", api, 0.0, 1.0)
        self.scale = c.check_min_max(scale, "scale", api, 0.0, c.FLOAT_MAX_INTEGER)
        if self.scale[1] <= 0:
            raise ValueError(f"For '{api}', input scale[1] must be greater than 0, but got {self.scale[1]}.")
        self.ratio = c.check_min_max(ratio, "ratio", api, 0.0, c.FLOAT_MAX_INTEGER)
        if self.ratio[0] <= 0:
            raise ValueError(f"For '{api}', input ratio[0] must be greater than 0, but got {self.ratio[0]}.")
        c.check_type(value, (int, list, tuple, str), "value", api)
        if isinstance(value, str) and value != "random":
            raise ValueError(f"For '{api}', the value for erasing should be either a single value, or a string "
                             f"'random', or a sequence of 3 elements for RGB respectively, but got {value!r}.")
        if isinstance(value, int):
            c.check_range(value, "value", api, 0, 255)
        if isinstance(value, (list, tuple)):
            if len(value) != 3:
                raise ValueError(f"For '{api}', value should be a sequence of 3 elements, but got {value!r}.")
            for i, item in enumerate(value):
                c.check_type(item, (int,), f"value[{i}]", api)
                c.check_range(item, f"value[{i}]", api, 0, 255)
        c.check_type(inplace, (bool,), "inplace", api)
        self.value = value
        self.inplace = inplace
        self.max_attempts = c.check_int_range(max_attempts, "max_attempts", api, 1, c.INT32_MAX)

    def _box(self, h: tf.Tensor, w: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor, tf.Tensor, tf.Tensor, tf.Tensor]:
        n = self.max_attempts
        area = tf.cast(h * w, tf.float64)
        target = tf.cast(self._uniform([n], self.scale[0], self.scale[1]), tf.float64) * area
        aspect = tf.cast(self._uniform([n], self.ratio[0], self.ratio[1]), tf.float64)
        erase_w = tf.cast(tf.round(tf.sqrt(target * aspect)), tf.int32)  # Python's round: half to even
        erase_h = tf.cast(tf.round(tf.cast(erase_w, tf.float64) / aspect), tf.int32)
        fits = tf.logical_and(erase_h < h, erase_w < w)
        first = tf.argmax(tf.cast(fits, tf.int32), output_type=tf.int32)
        eh, ew = erase_h[first], erase_w[first]
        top = tf.cast(tf.floor(self._uniform(()) * tf.cast(h - eh + 1, tf.float32)), tf.int32)
        left = tf.cast(tf.floor(self._uniform(()) * tf.cast(w - ew + 1, tf.float32)), tf.int32)
        return tf.reduce_any(fits), top, left, eh, ew

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        if image.shape.rank != 3:
            raise RuntimeError(f"For 'RandomErasing', the input should be a <C,H,W> image, "
                               f"but got shape {image.shape.as_list()}.")
        shape = tf.shape(image)
        h, w = shape[1], shape[2]
        found, top, left, eh, ew = self._box(h, w)
        rows = tf.range(h)[:, None]
        cols = tf.range(w)[None, :]
        box = (rows >= top) & (rows < top + eh) & (cols >= left) & (cols < left + ew)
        erase = tf.logical_and(tf.logical_and(found, self._bernoulli(self.prob)), box)[None, :, :]
        if self.value == "random":
            fill = tf.cast(tf.random.stateless_normal(shape, seed=self._seed()), image.dtype)
        elif isinstance(self.value, (list, tuple)):
            fill = tf.cast(tf.constant(list(self.value), tf.float64)[:, None, None], image.dtype)
        else:
            fill = tf.cast(tf.constant(float(self.value), tf.float64), image.dtype)
        return tf.where(erase, tf.broadcast_to(fill, shape) if self.value == "random" else fill, image)

