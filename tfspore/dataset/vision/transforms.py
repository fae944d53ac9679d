"""Image transforms (``mindspore.dataset.vision``) as TensorFlow ops.

Each transform runs inside a ``tf.data`` map when given to ``Dataset.map`` and eagerly on numpy
arrays when called (``Resize((32, 32))(img)``). Images are HWC (HW for grayscale) arrays;
resampling, color and rounding follow OpenCV as MindSpore's CPU transforms do.

Example:
    >>> import numpy as np
    >>> from tfspore.dataset import vision
    >>> img = np.zeros((28, 28, 1), np.uint8)
    >>> vision.HWC2CHW()(vision.Rescale(1 / 255, 0)(vision.Resize((32, 32))(img))).shape
    (1, 32, 32)
"""
from __future__ import annotations

import numbers
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as c
from tfspore.dataset.vision._common import check_fill_value, check_size, parse_padding
from tfspore.dataset.transforms._base import ImageTensorOperation, TensorOperation, _is_pil, to_np_dtype, \
    to_tf_dtype
from tfspore.dataset.transforms.transforms import TypeCast
from tfspore.dataset.vision import _batched
from tfspore.dataset.vision import _image_ops as ops
from tfspore.dataset.vision._adjust import (AdjustSharpness, AutoContrast, Equalize, Invert, Posterize,
                                            RandomAdjustSharpness, RandomAutoContrast, RandomColor, RandomEqualize,
                                            RandomGrayscale, RandomInvert, RandomPosterize, RandomSharpness,
                                            RandomSolarize, Solarize)
from tfspore.dataset.vision._affine import Affine, RandomAffine
from tfspore.dataset.vision._auto_augment import RandomSelectSubpolicy, UniformAugment
from tfspore.dataset.vision._batch_mix import MixUpBatch
from tfspore.dataset.vision._common import INTER_METHOD, check_inter, encoded_to_string, image_rank_check, \
    resize_image
from tfspore.dataset.vision._erase import CutOut, RandomErasing
from tfspore.dataset.vision._resized_crop import RandomCropDecodeResize, RandomResize, RandomResizedCrop
from tfspore.dataset.vision.utils import Border, ConvertMode, Inter

__all__ = ["Decode", "Resize", "Rescale", "Normalize", "HWC2CHW", "CenterCrop", "RandomCrop", "RandomResizedCrop",
           "RandomHorizontalFlip", "RandomVerticalFlip", "HorizontalFlip", "VerticalFlip", "RandomRotation",
           "Rotate", "RandomColorAdjust", "Pad", "ToTensor", "ToType", "ConvertColor", "Crop", "Grayscale",
           "ToPIL", "ToNumpy",
           # defined in the private modules beside this one (the AutoAugment family, erasing, affine)
           "AdjustSharpness", "Affine", "AutoContrast", "CutOut", "Equalize", "Invert", "Posterize",
           "RandomAdjustSharpness", "RandomAffine", "RandomAutoContrast", "RandomColor", "RandomCropDecodeResize",
           "RandomEqualize", "RandomErasing", "RandomGrayscale", "RandomInvert", "RandomPosterize",
           "RandomSelectSubpolicy", "RandomSharpness", "RandomSolarize", "Solarize", "UniformAugment", "MixUpBatch", "RandomResize"]

# ------------------------------------------------------------------------------------ decode
class Decode(ImageTensorOperation):
    """Decode an encoded image (JPEG, PNG, BMP, GIF) into an HWC uint8 RGB array.

    Args:
        to_pil: Return a PIL image when called eagerly (in a pipeline the result is an array).

    Raises:
        TypeError: If `to_pil` is not a bool, or (eagerly) if the input is not a 1-D uint8 array or bytes.
        RuntimeError: If the data is not a supported image.

    Example:
        >>> import io, numpy as np
        >>> from PIL import Image
        >>> from tfspore.dataset import vision
        >>> buf = io.BytesIO(); Image.new("RGB", (6, 4)).save(buf, format="PNG")
        >>> vision.Decode()(np.frombuffer(buf.getvalue(), np.uint8)).shape
        (4, 6, 3)
    """

    def __init__(self, to_pil: bool = False) -> None:
        super().__init__()
        c.check_type(to_pil, (bool,), "to_pil", "Decode")
        self.to_pil = to_pil

    def __call__(self, img: Any) -> Any:
        if isinstance(img, (bytes, bytearray)):
            img = np.frombuffer(bytes(img), dtype=np.uint8)
        if not isinstance(img, np.ndarray):
            raise TypeError(f"For 'Decode', the type of the encoded image should be {np.ndarray}, "
                            f"but got {type(img)}.")
        if img.dtype.type is np.str_:
            raise TypeError(f"For 'Decode', the data type of the encoded image can not be {img.dtype.type}.")
        if img.ndim != 1:
            raise TypeError(f"For 'Decode', the number of array dimensions of the encoded image should be 1, "
                            f"but got {img.ndim}.")
        out = super().__call__(img)
        if self.to_pil:
            from PIL import Image  # pylint: disable=import-outside-toplevel
            return Image.fromarray(out)
        return out

    def _apply(self, data: tf.Tensor) -> tf.Tensor:
        if data.shape.rank is not None and data.dtype != tf.string and data.shape.rank != 1:
            raise RuntimeError(f"For 'Decode', the input should be a 1-D array of encoded bytes, "
                               f"but got shape {data.shape.as_list()}.")
        return ops.decode_image(encoded_to_string(data))


# ------------------------------------------------------------------------------------ geometry
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
        top_off = self._uniform((), 0, shape[0] - crop_h + 1, dtype=tf.int32)
        left_off = self._uniform((), 0, shape[1] - crop_w + 1, dtype=tf.int32)
        out = ops.crop(img, top_off, left_off, crop_h, crop_w)
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


class HorizontalFlip(ImageTensorOperation):
    """Flip an image left to right.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.HorizontalFlip()(np.array([[1, 2, 3]], np.uint8)).tolist()
        [[3, 2, 1]]
    """

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        return tf.reverse(image, axis=[1])

    def _batch_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return shapes[0].rank in (2, 3)

    def _batch_xla_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return True  # a reverse

    def _apply_batch(self, batch: tf.Tensor) -> tf.Tensor:
        return tf.reverse(batch, axis=[2])


class VerticalFlip(ImageTensorOperation):
    """Flip an image upside down.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.VerticalFlip()(np.array([[1], [2]], np.uint8)).tolist()
        [[2], [1]]
    """

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        return tf.reverse(image, axis=[0])

    def _batch_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return shapes[0].rank in (2, 3)

    def _batch_xla_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return True  # a reverse

    def _apply_batch(self, batch: tf.Tensor) -> tf.Tensor:
        return tf.reverse(batch, axis=[1])


class RandomHorizontalFlip(ImageTensorOperation):
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

    _axis = 1

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        flip = self._bernoulli(self.prob)
        return tf.cond(flip, lambda: tf.reverse(image, axis=[self._axis]), lambda: image)

    def _batch_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return shapes[0].rank in (2, 3)

    def _batch_xla_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return True  # a draw, a reverse and a select

    def _apply_batch(self, batch: tf.Tensor) -> tf.Tensor:
        if self.prob <= 0.0:
            return batch
        if self.prob >= 1.0:
            return tf.reverse(batch, axis=[self._axis + 1])
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


# ------------------------------------------------------------------------------------ values
class Rescale(ImageTensorOperation):
    """``image * rescale + shift`` as float32.

    Args:
        rescale: The scale factor.
        shift: The offset.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.Rescale(1 / 255, 0)(np.full((1, 1), 255, np.uint8)).tolist()
        [[1.0]]
    """

    def __init__(self, rescale: float, shift: float) -> None:
        super().__init__()
        self.rescale = c.check_float_range(rescale, "rescale", "Rescale", -c.FLOAT32_MAX, c.FLOAT32_MAX)
        self.shift = c.check_float_range(shift, "shift", "Rescale", -c.FLOAT32_MAX, c.FLOAT32_MAX)

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        if image.dtype == tf.float64:
            return tf.cast(image * self.rescale + self.shift, tf.float32)
        x = tf.cast(image, tf.float32)
        return x * np.float32(self.rescale) + np.float32(self.shift)

    def _batch_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return True  # element-wise

    def _table_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return True  # element-wise

    def _apply_batch(self, batch: tf.Tensor) -> tf.Tensor:
        return self._apply(batch)


class Normalize(ImageTensorOperation):
    """``(image - mean) / std`` per channel, as float32.

    Args:
        mean: Per-channel means, on the input's scale (each in [0, 255]).
        std: Per-channel standard deviations (each in (0, 255]).
        is_hwc: True for HWC input, False for CHW.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.Normalize([127.5] * 3, [127.5] * 3)(np.zeros((1, 1, 3), np.uint8)).tolist()
        [[[-1.0, -1.0, -1.0]]]
    """

    def __init__(self, mean: Sequence[float], std: Sequence[float], is_hwc: bool = True) -> None:
        super().__init__()
        api = "Normalize"
        c.check_type(mean, (list, tuple), "mean", api)
        c.check_type(std, (list, tuple), "std", api)
        if len(mean) != len(std):
            raise ValueError(f"For '{api}', length of mean and std must be equal, but got {len(mean)} and {len(std)}.")
        for i, value in enumerate(mean):
            c.check_type(value, (int, float), f"mean[{i}]", api)
            c.check_range(value, f"mean[{i}]", api, 0, 255)
        for i, value in enumerate(std):
            c.check_type(value, (int, float), f"std[{i}]", api)
            c.check_range(value, f"std[{i}]", api, 0, 255, inc_low=False)
        c.check_type(is_hwc, (bool,), "is_hwc", api)
        self.mean = list(mean)
        self.std = list(std)
        self.is_hwc = is_hwc

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        x = tf.cast(image, tf.float32)
        mean = tf.constant(self.mean, tf.float32)
        std = tf.constant(self.std, tf.float32)
        if image.shape.rank == 2:
            return (x - mean[0]) / std[0]
        if self.is_hwc:
            message = f"For 'Normalize', the number of channels does not match the length of mean {self.mean}"
            known = image.shape[-1]
            if known is not None:  # checked while tracing: no assert per image
                if known != len(self.mean) and len(self.mean) != 1:
                    raise RuntimeError(f"{message}: got {known} channels.")
            elif len(self.mean) != 1:
                tf.debugging.assert_equal(tf.shape(x)[-1], len(self.mean), message=message)
            return (x - mean) / std
        return (x - mean[:, None, None]) / std[:, None, None]

    def _batch_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        shape = shapes[0]
        if shape.rank == 2:
            return True
        if shape.rank != 3:
            return False
        channels = shape[2] if self.is_hwc else shape[0]
        return len(self.mean) == 1 or channels == len(self.mean)

    def _batch_xla_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return True  # a cast, a subtraction and a division (by a captured tensor, see _apply_batch)

    def _table_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return shapes[0].rank == 2 or (shapes[0].rank == 3 and self.is_hwc and self._batch_ok(shapes, dtypes))

    def _apply_batch(self, batch: tf.Tensor) -> tf.Tensor:
        x = tf.cast(batch, tf.float32)
        # Eager tensors, captured (not constants): XLA and Grappler turn a division by a constant
        # into a product with its reciprocal, which rounds differently from the per-image division.
        consts = getattr(self, "_batch_consts", None)
        if consts is None:
            with tf.init_scope(), tf.device("/CPU:0"):
                consts = self._batch_consts = (tf.constant(self.mean, tf.float32), tf.constant(self.std, tf.float32))
        mean, std = consts
        if batch.shape.rank == 3:
            return (x - mean[0]) / std[0]
        if self.is_hwc:
            return (x - mean) / std
        return (x - mean[:, None, None]) / std[:, None, None]


class HWC2CHW(ImageTensorOperation):
    """Transpose an HWC image to CHW (HW input is returned unchanged).

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.HWC2CHW()(np.zeros((4, 6, 3), np.uint8)).shape
        (3, 4, 6)
    """

    def __init__(self) -> None:
        super().__init__()

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        if image.shape.rank == 2:
            return image
        if image.shape.rank != 3:
            raise RuntimeError(f"For 'HWC2CHW', the input should be in shape of <H,W> or <H,W,C>, "
                               f"but got shape {image.shape.as_list()}.")
        return tf.transpose(image, [2, 0, 1])

    def _batch_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return shapes[0].rank in (2, 3)

    def _batch_xla_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return True  # a transpose

    def _apply_batch(self, batch: tf.Tensor) -> tf.Tensor:
        return batch if batch.shape.rank == 3 else tf.transpose(batch, [0, 3, 1, 2])


class ToTensor(ImageTensorOperation):
    """HWC image (uint8 0..255) to a CHW array divided by 255, of `output_type`.

    Args:
        output_type: A numpy dtype or MindSpore dtype; default float32.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> out = vision.ToTensor()(np.full((2, 2, 3), 255, np.uint8))
        >>> out.shape, out.dtype, float(out.max())
        ((3, 2, 2), dtype('float32'), 1.0)
    """

    def __init__(self, output_type: Any = np.float32) -> None:
        super().__init__()
        self.output_type = to_np_dtype(output_type, "ToTensor", "output_type")

    def __call__(self, img: Any) -> Any:
        if _is_pil(img):
            img = np.asarray(img)
        return super().__call__(img)

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        img, _ = ops.as_hwc(image)
        x = tf.cast(img, tf.float32) / 255.0
        return tf.cast(tf.transpose(x, [2, 0, 1]), to_tf_dtype(self.output_type))


class ToType(TypeCast):
    """Cast to a numpy or MindSpore dtype (the vision alias of ``TypeCast``)."""


class ConvertColor(ImageTensorOperation):
    """Convert between RGB, BGR, RGBA, BGRA and gray (OpenCV's conversions).

    Args:
        convert_mode: A :class:`ConvertMode`.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> out = vision.ConvertColor(vision.ConvertMode.COLOR_RGB2GRAY)(np.zeros((4, 6, 3), np.uint8))
        >>> out.shape
        (4, 6)
    """

    def __init__(self, convert_mode: ConvertMode) -> None:
        super().__init__()
        c.check_type(convert_mode, (ConvertMode,), "convert_mode", "ConvertColor")
        self.convert_mode = convert_mode

    @staticmethod
    def _alpha(image: tf.Tensor) -> tf.Tensor:
        value = 1.0 if image.dtype.is_floating else 255
        return tf.fill(tf.shape(image[:, :, :1]), tf.cast(value, image.dtype))

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        m = ConvertMode(self.convert_mode)
        img = image
        if m in (ConvertMode.COLOR_GRAY2BGR, ConvertMode.COLOR_GRAY2BGRA):
            g, _ = ops.as_hwc(img)
            g = g[:, :, :1]
            rgb = tf.concat([g, g, g], axis=2)
            return rgb if m == ConvertMode.COLOR_GRAY2BGR else tf.concat([rgb, self._alpha(rgb)], axis=2)
        if img.shape.rank != 3:
            raise RuntimeError(f"For 'ConvertColor', mode {m.name} needs an <H,W,C> image, "
                               f"but got shape {img.shape.as_list()}.")
        if m in (ConvertMode.COLOR_BGR2GRAY, ConvertMode.COLOR_BGRA2GRAY):
            return ops.rgb_to_gray(img, bgr=True)[:, :, 0]
        if m in (ConvertMode.COLOR_RGB2GRAY, ConvertMode.COLOR_RGBA2GRAY):
            return ops.rgb_to_gray(img, bgr=False)[:, :, 0]
        swap = img[:, :, 2::-1]
        if m == ConvertMode.COLOR_BGR2BGRA:
            return tf.concat([img[:, :, :3], self._alpha(img)], axis=2)
        if m == ConvertMode.COLOR_BGRA2BGR:
            return img[:, :, :3]
        if m == ConvertMode.COLOR_BGR2RGBA:
            return tf.concat([swap, self._alpha(img)], axis=2)
        if m == ConvertMode.COLOR_RGBA2BGR:
            return swap
        if m == ConvertMode.COLOR_BGR2RGB:
            return swap
        if m == ConvertMode.COLOR_BGRA2RGBA:
            return tf.concat([swap, img[:, :, 3:4]], axis=2)
        raise RuntimeError(f"For 'ConvertColor', unsupported convert_mode {self.convert_mode!r}.")


class Grayscale(ImageTensorOperation):
    """RGB to gray with `num_output_channels` (1 or 3) channels.

    Args:
        num_output_channels: 1 or 3.
    """

    def __init__(self, num_output_channels: int = 1) -> None:
        super().__init__()
        c.check_type(num_output_channels, (int,), "num_output_channels", "Grayscale")
        if num_output_channels not in (1, 3):
            raise ValueError(f"For 'Grayscale', num_output_channels should be 1 or 3, but got {num_output_channels}.")
        self.num_output_channels = num_output_channels

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        gray = ops.rgb_to_gray(image)
        return tf.concat([gray] * 3, axis=2) if self.num_output_channels == 3 else gray


class RandomColorAdjust(ImageTensorOperation):
    """Randomly change brightness, contrast, saturation and hue (RGB images).

    Each factor is drawn uniformly from its range; the adjustments are applied in a random
    order, as MindSpore does. Brightness scales the pixels, contrast blends with the mean
    gray level, saturation with the gray image, and hue rotates the hue (uint8 through
    OpenCV's 8-bit HSV).

    Args:
        brightness: A number ``b`` (range ``[max(0, 1-b), 1+b]``) or a ``(min, max)`` range.
        contrast: As `brightness`.
        saturation: As `brightness`.
        hue: A number ``h`` in [0, 0.5] (range ``[-h, h]``) or a range within [-0.5, 0.5].

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> op = vision.RandomColorAdjust(brightness=(2, 2))
        >>> op(np.full((1, 1, 3), 100, np.uint8)).tolist()
        [[[200, 200, 200]]]
    """

    _tf_random = True

    def __init__(self, brightness: Union[float, Sequence[float]] = (1, 1),
                 contrast: Union[float, Sequence[float]] = (1, 1),
                 saturation: Union[float, Sequence[float]] = (1, 1),
                 hue: Union[float, Sequence[float]] = (0, 0)) -> None:
        super().__init__()
        self.brightness = self._expand(brightness, "brightness")
        self.contrast = self._expand(contrast, "contrast")
        self.saturation = self._expand(saturation, "saturation")
        self.hue = self._expand(hue, "hue", center=0.0, bound=(-0.5, 0.5), non_negative=False)

    @staticmethod
    def _expand(value: Any, name: str, center: float = 1.0, bound: Tuple[float, float] = (0, c.FLOAT_MAX_INTEGER),
                non_negative: bool = True) -> Tuple[float, float]:
        api = "RandomColorAdjust"
        c.check_type(value, (numbers.Number, list, tuple), name, api)
        if isinstance(value, numbers.Number) and not isinstance(value, bool):
            if value < 0:
                raise ValueError(f"For '{api}', the input value of {name} cannot be negative, but got {value}.")
            pair = [center - value, center + value]
            if non_negative:
                pair[0] = max(0.0, pair[0])
            if not bound[0] <= pair[0] <= pair[1] <= bound[1]:
                raise ValueError(f"For '{api}', input {name} is not within the required interval of "
                                 f"[{bound[0]}, {bound[1]}], but got {value}.")
            return (float(pair[0]), float(pair[1]))
        return c.check_min_max(value, name, api, bound[0], bound[1])

    def _factor(self, bounds: Tuple[float, float]) -> tf.Tensor:
        if bounds[0] == bounds[1]:
            return tf.constant(bounds[0], tf.float32)
        return self._uniform((), bounds[0], bounds[1])

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        if image.shape.rank != 3:
            raise RuntimeError(f"For 'RandomColorAdjust', the input should be an <H,W,3> RGB image, "
                               f"but got shape {image.shape.as_list()}.")
        steps = []
        if self.brightness != (1.0, 1.0):
            f = self._factor(self.brightness)
            steps.append(lambda x, f=f: ops.adjust_brightness(x, f))
        if self.contrast != (1.0, 1.0):
            f = self._factor(self.contrast)
            steps.append(lambda x, f=f: ops.adjust_contrast(x, f))
        if self.saturation != (1.0, 1.0):
            f = self._factor(self.saturation)
            steps.append(lambda x, f=f: ops.adjust_saturation(x, f))
        if self.hue != (0.0, 0.0):
            f = self._factor(self.hue)
            steps.append(lambda x, f=f: ops.adjust_hue(x, f))
        if not steps:
            return image
        if len(steps) == 1:
            return steps[0](image)
        order = tf.argsort(self._uniform([len(steps)]))

        def body(i, x):
            y = tf.switch_case(order[i], [lambda s=s: s(x) for s in steps])
            return i + 1, tf.ensure_shape(y, image.shape)

        # a loop over the random order traces each adjustment once
        return tf.while_loop(lambda i, _: i < len(steps), body, (tf.constant(0), image),
                             shape_invariants=(tf.TensorShape([]), image.shape))[1]


# ------------------------------------------------------------------------------------ PIL helpers
class ToPIL(TensorOperation):
    """Convert a numpy HWC image to a PIL image (eager only).

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.ToPIL()(np.zeros((4, 6, 3), np.uint8)).size
        (6, 4)
    """

    def __call__(self, img: Any) -> Any:
        from PIL import Image  # pylint: disable=import-outside-toplevel
        if _is_pil(img):
            return img
        return Image.fromarray(np.asarray(img))

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        return image


class ToNumpy(TensorOperation):
    """Convert a PIL image to a numpy array (identity on arrays)."""

    def __call__(self, img: Any) -> Any:
        return np.asarray(img)

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        return image

