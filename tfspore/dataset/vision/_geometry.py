"""Geometric image transforms: Resize, crops, Pad, flips and rotations.

Part of ``mindspore.dataset.vision`` (re-exported by :mod:`tfspore.dataset.vision.transforms`):
resampling and rounding follow OpenCV as MindSpore's CPU transforms do; the crops and flips
also run on whole batches (``_apply_batch``) when they come right before ``batch``.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple, Union

import tensorflow as tf

from tfspore._internal import validator as c
from tfspore.dataset.transforms._base import ImageTensorOperation
from tfspore.dataset.vision import _batched
from tfspore.dataset.vision import _image_ops as ops
from tfspore.dataset.vision._common import (INTER_METHOD, check_fill_value, check_inter, check_size, image_rank_check,
                                            parse_padding, resize_image)
from tfspore.dataset.vision.utils import Border, Inter

__all__ = ["Resize", "Crop", "CenterCrop", "Pad", "RandomCrop", "HorizontalFlip", "VerticalFlip",
           "RandomHorizontalFlip", "RandomVerticalFlip", "Rotate", "RandomRotation"]


class Resize(ImageTensorOperation):
    """Resize an image with OpenCV's numerics (bit-exact with MindSpore on uint8).

    Args:
        size: ``(height, width)``, or an int: the shorter side becomes `size`, the other side
            ``floor(long * size / short)``.
        interpolation: An :class:`Inter` mode; default ``Inter.LINEAR`` (bilinear).

    Raises:
        TypeError: If `size` or `interpolation` has a wrong type.
        ValueError: If `size` is out of range.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.Resize(2)(np.zeros((4, 6, 3), np.uint8)).shape
        (2, 3, 3)
    """

    def __init__(self, size: Union[int, Sequence[int]], interpolation: Inter = Inter.LINEAR) -> None:
        super().__init__()
        if interpolation is None:
            raise KeyError("For 'Resize', the 'interpolation' should not be None.")
        if isinstance(size, (list, tuple)):
            self.size = check_size(size, "Resize", pair_high=c.INT32_MAX)
        else:
            self.size = check_size(size, "Resize")
        self.interpolation = check_inter(interpolation, "interpolation", "Resize")
        self.py_size = size
        self.c_size = self.size

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        image_rank_check(image, "Resize")
        return resize_image(image, self.size, self.interpolation)

    def _out_size(self, shape: tf.TensorShape) -> Optional[Tuple[int, int]]:
        hw = _batched.static_hw(shape)
        if hw is None:
            return None
        if len(self.size) == 2:
            return self.size[0], self.size[1]
        h, w, s = hw[0], hw[1], self.size[0]
        return (s, (w * s) // h) if h <= w else ((h * s) // w, s)

    def _batch_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return self._out_size(shapes[0]) is not None

    def _batch_xla_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        out = self._out_size(shapes[0])
        hw = _batched.static_hw(shapes[0])
        return out is not None and _batched.resize_is_integer(hw, out, dtypes[0], INTER_METHOD[self.interpolation])

    def _apply_batch(self, batch: tf.Tensor) -> tf.Tensor:
        out_h, out_w = self._out_size(batch.shape[1:])
        return _batched.resize_batch(batch, out_h, out_w, INTER_METHOD[self.interpolation])


class Crop(ImageTensorOperation):
    """Crop the window at ``coordinates`` (top, left) of ``size``.

    Args:
        coordinates: ``(top, left)``.
        size: An int or ``(height, width)``.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.Crop((1, 2), (2, 3))(np.zeros((4, 6, 3), np.uint8)).shape
        (2, 3, 3)
    """

    def __init__(self, coordinates: Sequence[int], size: Union[int, Sequence[int]]) -> None:
        super().__init__()
        c.check_type(coordinates, (list, tuple), "coordinates", "Crop")
        if len(coordinates) != 2:
            raise TypeError(f"For 'Crop', coordinates should be a list/tuple (y, x) of length 2, "
                            f"but got {coordinates!r}.")
        for i, value in enumerate(coordinates):
            c.check_int_range(value, f"coordinates[{i}]", "Crop", 0, c.INT32_MAX)
        size = check_size(size, "Crop")
        self.coordinates = tuple(coordinates)
        self.size = size * 2 if len(size) == 1 else size

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        img, was_2d = ops.as_hwc(image)
        shape = tf.shape(img)
        top, left = self.coordinates
        h, w = self.size
        tf.debugging.assert_less_equal(tf.constant([top + h, left + w]), shape[:2],
                                       message=f"For 'Crop', the crop window {self.coordinates}+{self.size} "
                                               f"exceeds the image")
        return ops.restore(ops.crop(img, top, left, h, w), was_2d)


class CenterCrop(ImageTensorOperation):
    """Crop the centre of an image; a side smaller than the crop is zero-padded first.

    The window starts at ``floor((H - h) / 2), floor((W - w) / 2)`` as in MindSpore.

    Args:
        size: An int (square) or ``(height, width)``.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.CenterCrop(2)(np.zeros((4, 6, 3), np.uint8)).shape
        (2, 2, 3)
    """

    def __init__(self, size: Union[int, Sequence[int]]) -> None:
        super().__init__()
        size = check_size(size, "CenterCrop")
        self.size = size * 2 if len(size) == 1 else size

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        image_rank_check(image, "CenterCrop")
        img, was_2d = ops.as_hwc(image)
        return ops.restore(ops.center_crop(img, *self.size), was_2d)

    def _batch_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        hw = _batched.static_hw(shapes[0])
        return hw is not None and hw[0] >= self.size[0] and hw[1] >= self.size[1]

    def _batch_xla_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return True  # a slice

    def _apply_batch(self, batch: tf.Tensor) -> tf.Tensor:
        top = (int(batch.shape[1]) - self.size[0]) // 2
        left = (int(batch.shape[2]) - self.size[1]) // 2
        return batch[:, top:top + self.size[0], left:left + self.size[1]]


class Pad(ImageTensorOperation):
    """Pad the borders of an image.

    Args:
        padding: An int (all sides), ``(left/right, top/bottom)`` or ``(left, top, right, bottom)``.
        fill_value: For ``Border.CONSTANT``: an int in [0, 255] or an RGB 3-tuple.
        padding_mode: A :class:`Border` mode.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.Pad((1, 2))(np.zeros((5, 7, 3), np.uint8)).shape
        (9, 9, 3)
    """

    def __init__(self, padding: Union[int, Sequence[int]], fill_value: Union[int, Tuple[int, int, int]] = 0,
                 padding_mode: Border = Border.CONSTANT) -> None:
        super().__init__()
        self.padding = parse_padding(padding, "Pad")
        self.fill_value = check_fill_value(fill_value, "Pad")
        c.check_type(padding_mode, (Border,), "padding_mode", "Pad")
        self.padding_mode = padding_mode

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        image_rank_check(image, "Pad")
        img, was_2d = ops.as_hwc(image)
        left, top, right, bottom = self.padding
        return ops.restore(ops.pad(img, left, top, right, bottom, self.padding_mode, self.fill_value), was_2d)


class RandomCrop(ImageTensorOperation):
    """Crop a random window, after optional padding.

    Args:
        size: An int or ``(height, width)``.
        padding: Padding applied first (see :class:`Pad`); None for none.
        pad_if_needed: Pad sides smaller than the crop (by the shortfall on both sides).
        fill_value: The constant fill.
        padding_mode: A :class:`Border` mode.

    Raises:
        RuntimeError: (when run) If the padded image is smaller than `size` and `pad_if_needed` is False.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.RandomCrop(4, padding=2)(np.zeros((4, 6, 3), np.uint8)).shape
        (4, 4, 3)
    """

    _tf_random = True

    def __init__(self, size: Union[int, Sequence[int]], padding: Optional[Union[int, Sequence[int]]] = None,
                 pad_if_needed: bool = False, fill_value: Union[int, Tuple[int, int, int]] = 0,
                 padding_mode: Border = Border.CONSTANT) -> None:
        super().__init__()
        size = check_size(size, "RandomCrop")
        self.size = size * 2 if len(size) == 1 else size
        self.padding = (0, 0, 0, 0) if padding is None else parse_padding(padding, "RandomCrop")
        c.check_type(pad_if_needed, (bool,), "pad_if_needed", "RandomCrop")
        self.pad_if_needed = pad_if_needed
        self.fill_value = check_fill_value(fill_value, "RandomCrop")
        c.check_type(padding_mode, (Border,), "padding_mode", "RandomCrop")
        self.padding_mode = padding_mode

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        image_rank_check(image, "RandomCrop")
        img, was_2d = ops.as_hwc(image)
        left, top, right, bottom = self.padding
        if any(self.padding):
            img = ops.pad(img, left, top, right, bottom, self.padding_mode, self.fill_value)
        crop_h, crop_w = self.size
        if self.pad_if_needed:
            shape = tf.shape(img)
            ph = tf.maximum(crop_h - shape[0], 0)
            pw = tf.maximum(crop_w - shape[1], 0)
            img = ops.pad(img, pw, ph, pw, ph, self.padding_mode, self.fill_value)
        shape = tf.shape(img)
        message = (f"For 'RandomCrop', the crop size {self.size} is larger than the (padded) image; "
                   f"set pad_if_needed=True or a larger padding")
        known = img.shape[:2]
        if known.is_fully_defined():  # checked while tracing: no assert per image
            if known[0] < crop_h or known[1] < crop_w:
                raise RuntimeError(f"{message}: got an image of {known.as_list()} after padding.")
        else:
            tf.debugging.assert_greater_equal(shape[:2], tf.constant([crop_h, crop_w]), message=message)
        # one draw for both offsets (a random op costs more than the arithmetic, per row)
        spans = tf.cast(shape[:2] - tf.constant([crop_h, crop_w]) + 1, tf.float32)
        offsets = tf.cast(tf.floor(self._uniform([2]) * spans), tf.int32)
        out = ops.crop(img, offsets[0], offsets[1], crop_h, crop_w)
        out = tf.ensure_shape(out, [crop_h, crop_w, image.shape[2] if not was_2d else 1])
        return ops.restore(out, was_2d)

    def _batch_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        if self.padding_mode != Border.CONSTANT or len(set(self.fill_value)) != 1:
            return False
        return _batched.random_crop_geometry(shapes[0], self.size, self.padding, self.pad_if_needed) is not None

    def _batch_xla_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return True  # a pad, integer draws and gathers

    def _apply_batch(self, batch: tf.Tensor) -> tf.Tensor:
        top, bottom, left, right, h, w = _batched.random_crop_geometry(batch.shape[1:], self.size, self.padding,
                                                                      self.pad_if_needed)
        if top or bottom or left or right:
            pads = [[0, 0], [top, bottom], [left, right]] + [[0, 0]] * (batch.shape.rank - 3)
            fill = ops.saturate(tf.constant(float(self.fill_value[0]), tf.float64), batch.dtype)
            batch = tf.pad(batch, pads, constant_values=fill)
        n = tf.shape(batch)[0]
        top_off = self._uniform([n], 0, h - self.size[0] + 1, dtype=tf.int32)
        left_off = self._uniform([n], 0, w - self.size[1] + 1, dtype=tf.int32)
        return _batched.crop_batch(batch, top_off, left_off, self.size[0], self.size[1])


class _Flip(ImageTensorOperation):
    """Reverses image axis ``_axis`` (1: left to right, 0: upside down); batches of HW or HWC images."""

    _axis = 1

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        return tf.reverse(image, axis=[self._axis])

    def _batch_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return shapes[0].rank in (2, 3)

    def _batch_xla_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return True  # a reverse (the random flips add a draw and a select)

    def _apply_batch(self, batch: tf.Tensor) -> tf.Tensor:
        return tf.reverse(batch, axis=[self._axis + 1])


class HorizontalFlip(_Flip):
    """Flip an image left to right.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.HorizontalFlip()(np.array([[1, 2, 3]], np.uint8)).tolist()
        [[3, 2, 1]]
    """


class VerticalFlip(_Flip):
    """Flip an image upside down.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.VerticalFlip()(np.array([[1], [2]], np.uint8)).tolist()
        [[2], [1]]
    """

    _axis = 0


class RandomHorizontalFlip(_Flip):
    """Flip an image left to right with probability `prob`.

    Args:
        prob: Probability in [0, 1].

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.RandomHorizontalFlip(1.0)(np.array([[1, 2, 3]], np.uint8)).tolist()
        [[3, 2, 1]]
    """

    _tf_random = True

    def __init__(self, prob: float = 0.5) -> None:
        super().__init__()
        self.prob = c.check_float_range(prob, "prob", type(self).__name__, 0.0, 1.0)

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        flip = self._bernoulli(self.prob)
        return tf.cond(flip, lambda: tf.reverse(image, axis=[self._axis]), lambda: image)

    def _apply_batch(self, batch: tf.Tensor) -> tf.Tensor:
        if self.prob <= 0.0:
            return batch
        if self.prob >= 1.0:
            return super()._apply_batch(batch)
        flip = self._uniform([tf.shape(batch)[0]]) < self.prob
        return _batched.flip_batch(batch, flip, self._axis)


class RandomVerticalFlip(RandomHorizontalFlip):
    """Flip an image upside down with probability `prob`.

    Args:
        prob: Probability in [0, 1].

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.RandomVerticalFlip(1.0)(np.array([[1], [2]], np.uint8)).tolist()
        [[2], [1]]
    """

    _axis = 0


def _parse_degrees(degrees: Any, api: str) -> Tuple[float, float]:
    c.check_type(degrees, (int, float, list, tuple), "degrees", api)
    if isinstance(degrees, (int, float)):
        c.check_range(degrees, "degrees", api, 0, c.FLOAT32_MAX)
        d = degrees % 360
        return (-d, d)
    if len(degrees) != 2:
        raise TypeError(f"For '{api}', if degrees is a sequence, the length must be 2, but got {degrees!r}.")
    for i, value in enumerate(degrees):
        c.check_type(value, (int, float), f"degrees[{i}]", api)
    if degrees[0] > degrees[1]:
        raise ValueError(f"For '{api}', degrees should be in (min,max) format, but got {tuple(degrees)!r}.")
    if degrees[1] - degrees[0] >= 360:
        return (-180.0, 180.0)
    lo, hi = degrees[0] % 360, degrees[1] % 360
    if lo > hi:
        hi += 360
    return (float(lo), float(hi))


class Rotate(ImageTensorOperation):
    """Rotate an image counter-clockwise by a fixed angle.

    Args:
        degrees: The angle in degrees.
        resample: ``Inter.NEAREST``, ``Inter.BILINEAR`` or ``Inter.AREA`` (bilinear).
        expand: Grow the output to hold the whole image.
        center: ``(x, y)`` centre; None for the image centre.
        fill_value: Fill of the uncovered area.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.Rotate(90, expand=True)(np.zeros((5, 7, 3), np.uint8)).shape
        (7, 5, 3)

    The warp reproduces OpenCV's ``warpAffine`` (fixed-point coordinates and weights), so uint8
    results equal MindSpore's. ``fill_value`` fills R, G, B in that order, as documented
    (MindSpore 2.10 fills them reversed).
    """

    def __init__(self, degrees: float, resample: Inter = Inter.NEAREST, expand: bool = False,
                 center: Optional[Sequence[float]] = None, fill_value: Union[int, Tuple[int, int, int]] = 0) -> None:
        super().__init__()
        api = type(self).__name__
        c.check_type(degrees, (int, float), "degrees", api)
        self.degrees = float(degrees)
        self._init_common(resample, expand, center, fill_value, api)

    def _init_common(self, resample, expand, center, fill_value, api):
        self.resample = check_inter(resample, "resample", api, (Inter.NEAREST, Inter.BILINEAR, Inter.AREA))
        c.check_type(expand, (bool,), "expand", api)
        self.expand = expand
        if center is not None:
            if not (isinstance(center, tuple) and len(center) == 2):
                raise TypeError(f"For '{api}', the argument 'center' should be a tuple of length 2, "
                                f"but got {center!r}.")
            for value in center:
                c.check_type(value, (int, float), "center", api)
        self.center = center
        self.fill_value = check_fill_value(fill_value, api)

    def _angle(self) -> tf.Tensor:
        return tf.constant(self.degrees, tf.float32)

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        image_rank_check(image, type(self).__name__)
        img, was_2d = ops.as_hwc(image)
        method = "NEAREST" if self.resample == Inter.NEAREST else "BILINEAR"  # OpenCV warps AREA as bilinear
        out = ops.rotate(img, self._angle(), method, self.expand, self.center, self.fill_value)
        return ops.restore(out, was_2d)


class RandomRotation(Rotate):
    """Rotate an image by a random angle.

    Args:
        degrees: A number ``d`` (the range ``[-d, d]``) or a ``(min, max)`` range, in degrees.
        resample: ``Inter.NEAREST`` (default), ``Inter.BILINEAR`` or ``Inter.AREA`` (bilinear, as OpenCV
            warps it); ``Inter.BICUBIC`` is not supported.
        expand: Grow the output to hold the whole image.
        center: ``(x, y)`` centre; None for the image centre.
        fill_value: Fill of the uncovered area.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.RandomRotation((90, 90))(np.zeros((5, 7, 3), np.uint8)).shape
        (5, 7, 3)
    """

    _tf_random = True

    def __init__(self, degrees: Union[float, Sequence[float]], resample: Inter = Inter.NEAREST,
                 expand: bool = False, center: Optional[Sequence[float]] = None,
                 fill_value: Union[int, Tuple[int, int, int]] = 0) -> None:
        ImageTensorOperation.__init__(self)
        self.degrees = _parse_degrees(degrees, "RandomRotation")
        self._init_common(resample, expand, center, fill_value, "RandomRotation")

    def _angle(self) -> tf.Tensor:
        lo, hi = self.degrees
        if lo == hi:
            return tf.constant(lo, tf.float32)
        return self._uniform((), lo, hi)
