"""Pixel-value transforms of the AutoAugment family, as TensorFlow ops.

``Equalize``, ``AutoContrast``, ``Invert``, ``Posterize``, ``Solarize`` and their random
versions, ``RandomColor``, ``RandomSharpness`` and ``RandomGrayscale``. Histogram transforms build
a 256-entry lookup table per channel with OpenCV's arithmetic (as MindSpore's CPU kernels do)
and gather through it.
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as c
from tfspore.dataset.transforms._base import ImageTensorOperation
from tfspore.dataset.vision import _image_ops as ops

__all__ = ["Equalize", "RandomEqualize", "AutoContrast", "RandomAutoContrast", "Invert", "RandomInvert",
           "Posterize", "RandomPosterize", "Solarize", "RandomSolarize", "RandomColor", "AdjustSharpness",
           "RandomSharpness", "RandomAdjustSharpness", "RandomGrayscale"]


def _require_channels(image: tf.Tensor, api: str, channels: Sequence[int] = (1, 3)) -> Tuple[tf.Tensor, bool]:
    """The image as HWC (and whether it was HW), checking rank and channel count."""
    rank = image.shape.rank
    if rank is not None and rank not in (2, 3):
        raise RuntimeError(f"For '{api}', the input image should be in shape of <H,W> or <H,W,C>, "
                           f"but got an input of rank {rank} with shape {image.shape.as_list()}.")
    img, was_2d = ops.as_hwc(image)
    depth = img.shape[2]
    if depth is not None and depth not in channels:
        raise RuntimeError(f"For '{api}', the channel of the input image should be in {list(channels)}, "
                           f"but got {depth}.")
    return img, was_2d


def _require_uint8(image: tf.Tensor, api: str) -> None:
    if image.dtype != tf.uint8:
        raise RuntimeError(f"For '{api}', the input image should be of type uint8, but got {image.dtype.name}.")


def _per_channel_lut(img: tf.Tensor, lut_fn) -> tf.Tensor:
    """Apply ``lut_fn(histogram) -> [256] uint8 table`` to each channel of an HWC uint8 image."""
    channels = tf.transpose(tf.cast(img, tf.int32), [2, 0, 1])  # [C, H, W]

    def one(ch):
        hist = tf.math.bincount(tf.reshape(ch, [-1]), minlength=256, maxlength=256, dtype=tf.int32)
        return tf.gather(lut_fn(hist), ch)

    out = tf.map_fn(one, channels, fn_output_signature=tf.TensorSpec(None, tf.uint8))
    return tf.ensure_shape(tf.transpose(out, [1, 2, 0]), img.shape)


# ------------------------------------------------------------------------------------ equalize
def _equalize_lut(hist: tf.Tensor) -> tf.Tensor:
    """OpenCV's ``equalizeHist`` table: cumulative counts above the first used level, scaled to 255."""
    total = tf.reduce_sum(hist)
    first = tf.argmax(tf.cast(hist > 0, tf.int32), output_type=tf.int32)
    first_count = hist[first]
    scale = 255.0 / tf.cast(tf.maximum(total - first_count, 1), tf.float32)
    cum = tf.cumsum(hist)
    above = tf.cast(cum - cum[first], tf.float32) * scale
    levels = tf.range(256)
    table = tf.where(levels > first, tf.clip_by_value(tf.round(above), 0.0, 255.0), 0.0)
    flat = tf.fill([256], tf.cast(first, tf.float32))  # a single used level maps everything to it
    return tf.cast(tf.where(tf.equal(first_count, total), flat, table), tf.uint8)


class Equalize(ImageTensorOperation):
    """Equalize the histogram of each channel (OpenCV's ``equalizeHist``; uint8 images).

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.Equalize()(np.array([[0, 50], [50, 200]], np.uint8)).tolist()
        [[0, 170], [170, 255]]
    """

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        api = type(self).__name__
        img, was_2d = _require_channels(image, api)
        _require_uint8(img, api)
        return ops.restore(_per_channel_lut(img, _equalize_lut), was_2d)


# ------------------------------------------------------------------------------------ auto contrast
def _cut_low(hist: tf.Tensor, cut: tf.Tensor) -> tf.Tensor:
    """Remove `cut` counts from the lowest levels."""
    before = tf.cumsum(hist, exclusive=True)
    return hist - tf.clip_by_value(cut - before, 0, hist)


def _auto_contrast_lut(hist: tf.Tensor, cutoff: int, ignore: Sequence[int]) -> tf.Tensor:
    if ignore:
        keep = np.ones([256], np.int32)
        keep[list(ignore)] = 0
        hist = hist * tf.constant(keep)
    if cutoff:
        cut = tf.cast(tf.cast(tf.reduce_sum(hist), tf.float32) * (cutoff / 100.0), tf.int32)
        hist = _cut_low(hist, cut)
        hist = tf.reverse(_cut_low(tf.reverse(hist, [0]), cut), [0])
    used = hist > 0
    levels = tf.range(256)
    lo = tf.reduce_min(tf.where(used, levels, 255))
    hi = tf.reduce_max(tf.where(used, levels, -1))
    scale = 255.0 / tf.cast(tf.maximum(hi - lo, 1), tf.float32)
    offset = -tf.cast(lo, tf.float32) * scale
    stretched = tf.clip_by_value(tf.cast(tf.cast(levels, tf.float32) * scale + offset, tf.int32), 0, 255)
    return tf.cast(tf.where(hi <= lo, levels, stretched), tf.uint8)


class AutoContrast(ImageTensorOperation):
    """Stretch each channel so its darkest level becomes 0 and its brightest 255 (uint8 images).

    Args:
        cutoff: Percent (in [0, 50)) of the darkest and of the brightest pixels ignored when
            finding the range; MindSpore uses its integer part.
        ignore: Levels (an int or a list of ints in [0, 255]) left out of the histogram.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.AutoContrast()(np.array([[100, 150], [150, 200]], np.uint8)).tolist()
        [[0, 127], [127, 255]]
    """

    def __init__(self, cutoff: float = 0.0, ignore: Optional[Union[int, Sequence[int]]] = None) -> None:
        super().__init__()
        api = type(self).__name__
        c.check_type(cutoff, (int, float), "cutoff", api)
        c.check_range(cutoff, "cutoff", api, 0, 50, inc_high=False)
        if ignore is None:
            ignore = []
        c.check_type(ignore, (list, tuple, int), "ignore", api)
        if isinstance(ignore, int):
            ignore = [ignore]
        for item in ignore:
            c.check_type(item, (int,), "ignore", api)
            c.check_range(item, "ignore", api, 0, 255)
        self.cutoff = cutoff
        self.ignore = list(ignore)

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        api = type(self).__name__
        img, was_2d = _require_channels(image, api)
        _require_uint8(img, api)
        cutoff, ignore = int(self.cutoff), tuple(self.ignore)
        return ops.restore(_per_channel_lut(img, lambda h: _auto_contrast_lut(h, cutoff, ignore)), was_2d)


# ------------------------------------------------------------------------------------ invert, posterize, solarize
class Invert(ImageTensorOperation):
    """``255 - image`` for an <H,W,3> image (uint8, or float kept unscaled).

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.Invert()(np.array([[[0, 200, 255]]], np.uint8)).tolist()
        [[[255, 55, 0]]]
    """

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        if image.shape.rank != 3 or image.shape[2] not in (3, None):
            raise RuntimeError(f"For '{type(self).__name__}', the input should be an <H,W,3> image, "
                               f"but got shape {image.shape.as_list()}.")
        if image.dtype == tf.uint8:
            return 255 - image
        work = ops.work_dtype(image.dtype)
        return ops.saturate(255.0 - tf.cast(image, work), image.dtype)


def _posterize(img: tf.Tensor, bits: tf.Tensor) -> tf.Tensor:
    """Keep the top `bits` bits of each uint8 value."""
    mask = tf.cast(tf.bitwise.bitwise_and(tf.bitwise.invert(tf.bitwise.left_shift(1, 8 - bits) - 1), 255), tf.uint8)
    return tf.bitwise.bitwise_and(img, mask)


class Posterize(ImageTensorOperation):
    """Keep the top `bits` bits of each channel value (uint8 images).

    Args:
        bits: Bits kept, in [0, 8].

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.Posterize(2)(np.array([[255, 100]], np.uint8)).tolist()
        [[192, 64]]
    """

    def __init__(self, bits: int) -> None:
        super().__init__()
        self.bits = c.check_int_range(bits, "bits", type(self).__name__, 0, 8)

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        api = type(self).__name__
        img, was_2d = _require_channels(image, api)
        _require_uint8(img, api)
        return ops.restore(_posterize(img, tf.constant(self.bits, tf.int32)), was_2d)


class RandomPosterize(ImageTensorOperation):
    """Posterize with a number of bits drawn uniformly from `bits`.

    Args:
        bits: An int in [1, 8], or a ``(min, max)`` range within [1, 8].

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.RandomPosterize((1, 1))(np.array([[255, 100]], np.uint8)).tolist()
        [[128, 0]]
    """

    _tf_random = True

    def __init__(self, bits: Union[int, Sequence[int]] = (8, 8)) -> None:
        super().__init__()
        api = "RandomPosterize"
        c.check_type(bits, (list, tuple, int), "bits", api)
        if isinstance(bits, int):
            c.check_range(bits, "bits", api, 1, 8)
            bits = (bits, bits)
        if len(bits) != 2:
            raise TypeError(f"For '{api}', size of bits should be a single integer or a list/tuple (min, max) of "
                            f"length 2, but got {bits!r}.")
        for item in bits:
            c.check_type(item, (int,), "bits", api)
        if bits[0] > bits[1]:
            raise ValueError(f"For '{api}', bits should be in (min,max) format, but got {tuple(bits)!r}.")
        for item in bits:
            c.check_range(item, "bits", api, 1, 8)
        self.bits = (int(bits[0]), int(bits[1]))

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        api = type(self).__name__
        img, was_2d = _require_channels(image, api)
        _require_uint8(img, api)
        lo, hi = self.bits
        bits = tf.constant(lo) if lo == hi else self._uniform((), lo, hi + 1, dtype=tf.int32)
        return ops.restore(_posterize(img, bits), was_2d)


def _solarize(img: tf.Tensor, lo: tf.Tensor, hi: tf.Tensor) -> tf.Tensor:
    """MindSpore's Solarize: invert values in ``[lo, hi]``, or all values ``>= lo`` when ``lo == hi``."""
    work = ops.work_dtype(img.dtype)
    x = tf.cast(img, work)
    lo = tf.cast(lo, work)
    hi = tf.cast(hi, work)
    inside = tf.where(tf.equal(lo, hi), x >= lo, tf.logical_and(x >= lo, x <= hi))
    if img.dtype == tf.uint8:
        return tf.where(inside, 255 - img, img)
    return tf.where(inside, ops.saturate(255.0 - x, img.dtype), img)


class Solarize(ImageTensorOperation):
    """Invert the values within a threshold range.

    Args:
        threshold: A number ``t`` (values ``>= t`` are inverted) or ``(min, max)`` (values in
            ``[min, max]`` are inverted), within [0, 255].

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.Solarize(128)(np.array([[100, 200]], np.uint8)).tolist()
        [[100, 55]]
    """

    def __init__(self, threshold: Union[float, Sequence[float]]) -> None:
        super().__init__()
        api = "Solarize"
        c.check_type(threshold, (float, int, list, tuple), "threshold", api)
        if isinstance(threshold, (float, int)):
            threshold = (threshold, threshold)
        if len(threshold) != 2:
            raise TypeError(f"For '{api}', threshold must be a single number or sequence of two numbers, "
                            f"but got {threshold!r}.")
        for i, value in enumerate(threshold):
            c.check_type(value, (float, int), f"threshold[{i}]", api)
            c.check_range(value, f"threshold[{i}]", api, 0, 255)
        if threshold[1] < threshold[0]:
            raise ValueError(f"For '{api}', threshold must be in order of (min, max), but got {tuple(threshold)!r}.")
        self.threshold = (threshold[0], threshold[1])

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        img, was_2d = _require_channels(image, type(self).__name__)
        lo, hi = self.threshold
        return ops.restore(_solarize(img, tf.constant(float(lo)), tf.constant(float(hi))), was_2d)


class RandomSolarize(ImageTensorOperation):
    """Solarize with a sub-range of `threshold`: two levels drawn uniformly, sorted into ``(min, max)``.

    As in MindSpore, two equal draws invert every value at or above that level.

    Args:
        threshold: A ``(min, max)`` tuple of ints in [0, 255].

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.RandomSolarize((128, 128))(np.array([[100, 200]], np.uint8)).tolist()
        [[100, 55]]
    """

    _tf_random = True

    def __init__(self, threshold: Tuple[int, int] = (0, 255)) -> None:
        super().__init__()
        api = "RandomSolarize"
        c.check_type(threshold, (tuple,), "threshold", api)
        for i, value in enumerate(threshold):
            c.check_type(value, (int,), f"threshold[{i}]", api)
        if len(threshold) != 2:
            raise ValueError(f"For '{api}', threshold must be a sequence of two numbers, but got {threshold!r}.")
        for value in threshold:
            c.check_range(value, "threshold", api, 0, 255)
        if threshold[1] < threshold[0]:
            raise ValueError(f"For '{api}', threshold must be in min max format numbers, but got {threshold!r}.")
        self.threshold = threshold

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        api = type(self).__name__
        img, was_2d = _require_channels(image, api)
        _require_uint8(img, api)
        lo, hi = self.threshold
        draws = self._uniform([2], lo, hi + 1, dtype=tf.int32)
        return ops.restore(_solarize(img, tf.reduce_min(draws), tf.reduce_max(draws)), was_2d)


# ------------------------------------------------------------------------------------ blends
def _add_weighted(image: tf.Tensor, other: tf.Tensor, alpha: tf.Tensor, float_beta: bool) -> tf.Tensor:
    """OpenCV's ``addWeighted(image, alpha, other, 1 - alpha, 0)``: float32 products and sum, rounded half to even.

    `alpha` is a float32 factor. `float_beta` computes ``1 - alpha`` in float32 (RandomColor)
    rather than in double (Sharpness), as the MindSpore kernels do; the two differ in the last
    bits and so in some rounded levels.
    """
    a = tf.cast(alpha, tf.float32)
    b = 1.0 - a if float_beta else tf.cast(1.0 - tf.cast(a, tf.float64), tf.float32)
    out = tf.cast(image, tf.float32) * a + tf.cast(other, tf.float32) * b
    return ops.saturate(out, image.dtype)


def _check_degrees_pair(degrees: Any, api: str) -> Tuple[float, float]:
    if not isinstance(degrees, (list, tuple)):
        raise TypeError(f"For '{api}', degrees must be either a tuple or a list, but got {degrees!r}.")
    for i, value in enumerate(degrees):
        c.check_type(value, (int, float), f"degrees[{i}]", api)
    if len(degrees) != 2:
        raise ValueError(f"For '{api}', degrees must be a sequence with length 2, but got {degrees!r}.")
    for i, value in enumerate(degrees):
        c.check_range(value, f"degrees[{i}]", api, 0, c.FLOAT_MAX_INTEGER)
    if degrees[0] > degrees[1]:
        raise ValueError(f"For '{api}', degrees should be in (min,max) format, but got {tuple(degrees)!r}.")
    return (float(degrees[0]), float(degrees[1]))


class RandomColor(ImageTensorOperation):
    """Blend an RGB image with its grayscale version by a factor drawn from `degrees`.

    A factor of 1 returns the image, 0 the gray image (3 channels); others blend
    ``image * t + gray * (1 - t)`` as MindSpore's ``addWeighted`` does.

    Args:
        degrees: A ``(min, max)`` range of non-negative factors.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.RandomColor((0, 0))(np.array([[[255, 0, 0]]], np.uint8)).tolist()
        [[[76, 76, 76]]]
    """

    _tf_random = True

    def __init__(self, degrees: Sequence[float] = (0.1, 1.9)) -> None:
        super().__init__()
        self.degrees = _check_degrees_pair(degrees, "RandomColor")

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        if image.shape.rank != 3 or image.shape[2] not in (3, None):
            raise RuntimeError(f"For 'RandomColor', the input should be an <H,W,3> RGB image, "
                               f"but got shape {image.shape.as_list()}.")
        lo, hi = self.degrees
        t = tf.constant(lo, tf.float32) if lo == hi else self._uniform((), lo, hi)
        gray = tf.broadcast_to(ops.rgb_to_gray(image), tf.shape(image))
        eps = 0.00195
        blended = _add_weighted(image, gray, t, float_beta=True)
        out = tf.where(tf.abs(t) < eps, gray, blended)
        return tf.where(tf.abs(t - 1.0) < eps, image, out)


def _sharpness(image: tf.Tensor, alpha: tf.Tensor) -> tf.Tensor:
    """MindSpore's Sharpness: blend with a 3x3 smoothing ([[1,1,1],[1,5,1],[1,1,1]] / 13), borders kept."""
    img, was_2d = ops.as_hwc(image)
    x = tf.cast(img, tf.float32)
    padded = tf.pad(x, [[1, 1], [1, 1], [0, 0]], mode="REFLECT")
    kernel = np.full([3, 3], 1.0 / 13.0, np.float32)
    kernel[1, 1] = 5.0 / 13.0
    shape = tf.shape(x)
    acc = tf.zeros_like(x)
    for dy in range(3):
        for dx in range(3):
            acc += padded[dy:dy + shape[0], dx:dx + shape[1], :] * kernel[dy, dx]
    smooth = ops.saturate(acc, img.dtype)
    h, w = shape[0], shape[1]
    rows = tf.range(h)[:, None, None]
    cols = tf.range(w)[None, :, None]
    border = (rows == 0) | (rows == h - 1) | (cols == 0) | (cols == w - 1)
    smooth = tf.where(border, img, smooth)
    return ops.restore(_add_weighted(img, smooth, alpha, float_beta=False), was_2d)


class AdjustSharpness(ImageTensorOperation):
    """Sharpen (factor > 1) or blur (factor < 1) an image.

    Args:
        sharpness_factor: A non-negative factor; 1 returns the image.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.AdjustSharpness(1.0)(np.full((3, 3), 7, np.uint8)).tolist()
        [[7, 7, 7], [7, 7, 7], [7, 7, 7]]
    """

    def __init__(self, sharpness_factor: float) -> None:
        super().__init__()
        self.sharpness_factor = c.check_float_range(sharpness_factor, "sharpness_factor", "AdjustSharpness", 0.0,
                                                    c.FLOAT32_MAX)

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        _require_channels(image, type(self).__name__, (1, 3, 4))
        return _sharpness(image, tf.constant(self.sharpness_factor, tf.float32))


class RandomSharpness(ImageTensorOperation):
    """Adjust the sharpness by a factor drawn uniformly from `degrees` (0 blurs, 1 keeps, 2 sharpens).

    Args:
        degrees: A ``(min, max)`` range of non-negative factors.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.RandomSharpness((1.0, 1.0))(np.full((3, 3), 7, np.uint8)).tolist()
        [[7, 7, 7], [7, 7, 7], [7, 7, 7]]
    """

    _tf_random = True

    def __init__(self, degrees: Sequence[float] = (0.1, 1.9)) -> None:
        super().__init__()
        self.degrees = _check_degrees_pair(degrees, "RandomSharpness")

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        _require_channels(image, type(self).__name__, (1, 3, 4))
        lo, hi = self.degrees
        alpha = tf.constant(lo, tf.float32) if lo == hi else self._uniform((), lo, hi)
        return _sharpness(image, alpha)


# ------------------------------------------------------------------------------------ random versions
class _RandomApplied(ImageTensorOperation):
    """Apply the deterministic transform `_inner` with probability `prob`."""

    _tf_random = True
    _inner: ImageTensorOperation

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        return tf.cond(self._bernoulli(self.prob), lambda: self._inner._apply(image),  # pylint: disable=W0212
                       lambda: tf.identity(image))


class RandomEqualize(_RandomApplied):
    """:class:`Equalize` with probability `prob` (default 0.5)."""

    def __init__(self, prob: float = 0.5) -> None:
        super().__init__()
        self.prob = c.check_float_range(prob, "prob", "RandomEqualize", 0.0, 1.0)
        self._inner = Equalize()


class RandomInvert(_RandomApplied):
    """:class:`Invert` with probability `prob` (default 0.5)."""

    def __init__(self, prob: float = 0.5) -> None:
        super().__init__()
        self.prob = c.check_float_range(prob, "prob", "RandomInvert", 0.0, 1.0)
        self._inner = Invert()


class RandomAutoContrast(_RandomApplied):
    """:class:`AutoContrast` with `cutoff` and `ignore`, with probability `prob` (default 0.5)."""

    def __init__(self, cutoff: float = 0.0, ignore: Optional[Union[int, List[int]]] = None, prob: float = 0.5) -> None:
        super().__init__()
        self._inner = AutoContrast(cutoff, ignore)
        self.cutoff, self.ignore = self._inner.cutoff, self._inner.ignore
        self.prob = c.check_float_range(prob, "prob", "RandomAutoContrast", 0.0, 1.0)


class RandomAdjustSharpness(_RandomApplied):
    """:class:`AdjustSharpness` by `degree` with probability `prob` (default 0.5)."""

    def __init__(self, degree: float, prob: float = 0.5) -> None:
        super().__init__()
        self._inner = AdjustSharpness(degree)
        self.degree = self._inner.sharpness_factor
        self.prob = c.check_float_range(prob, "prob", "RandomAdjustSharpness", 0.0, 1.0)


# ------------------------------------------------------------------------------------ grayscale
class RandomGrayscale(ImageTensorOperation):
    """Convert an RGB image to gray (kept as 3 equal channels) with probability `prob`.

    The gray level is Pillow's ``L`` conversion (``(R*19595 + G*38470 + B*7471 + 2^15) >> 16``),
    as MindSpore runs this transform through Pillow. Gray (1-channel) images pass unchanged.

    Args:
        prob: Probability in [0, 1]; default 0.1.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.RandomGrayscale(1.0)(np.array([[[255, 0, 0]]], np.uint8)).tolist()
        [[[76, 76, 76]]]
    """

    _tf_random = True

    def __init__(self, prob: float = 0.1) -> None:
        super().__init__()
        self.prob = c.check_float_range(prob, "prob", "RandomGrayscale", 0.0, 1.0)

    @staticmethod
    def _gray(image: tf.Tensor) -> tf.Tensor:
        if image.dtype == tf.uint8:
            rgb = tf.cast(image[:, :, :3], tf.int32)
            y = rgb[:, :, 0] * 19595 + rgb[:, :, 1] * 38470 + rgb[:, :, 2] * 7471 + (1 << 15)
            gray = tf.cast(tf.bitwise.right_shift(y, 16), tf.uint8)[:, :, None]
        else:
            gray = ops.rgb_to_gray(image[:, :, :3])
        return tf.concat([gray, gray, gray], axis=2)

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        if image.shape.rank == 2 or (image.shape.rank == 3 and image.shape[2] == 1):
            return image
        if image.shape.rank != 3:
            raise RuntimeError(f"For 'RandomGrayscale', the input should be an <H,W,C> image, "
                               f"but got shape {image.shape.as_list()}.")
        return tf.cond(self._bernoulli(self.prob), lambda: tf.ensure_shape(self._gray(image), image.shape),
                       lambda: tf.identity(image))
