"""Pixel-value transforms: Rescale, Normalize, HWC2CHW, ToTensor, ToType, colour conversion and jitter.

Part of ``mindspore.dataset.vision`` (re-exported by :mod:`tfspore.dataset.vision.transforms`).
The element-wise ones declare ``_table_ok``: on uint8 rows at batch level a chain of them is one
exact table lookup (see ``tfspore/dataset/engine/_table_lookup.py``).
"""
from __future__ import annotations

import numbers
from typing import Any, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as c
from tfspore.dataset.transforms._base import ImageTensorOperation, _is_pil, to_np_dtype, to_tf_dtype
from tfspore.dataset.transforms.transforms import TypeCast
from tfspore.dataset.vision import _image_ops as ops
from tfspore.dataset.vision.utils import ConvertMode

__all__ = ["Rescale", "Normalize", "HWC2CHW", "ToTensor", "ToType", "ConvertColor", "Grayscale", "RandomColorAdjust"]


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
        for bounds, identity, adjust in ((self.brightness, 1.0, ops.adjust_brightness),
                                         (self.contrast, 1.0, ops.adjust_contrast),
                                         (self.saturation, 1.0, ops.adjust_saturation),
                                         (self.hue, 0.0, ops.adjust_hue)):
            if bounds != (identity, identity):  # the factors are drawn in this order
                f = self._factor(bounds)
                steps.append(lambda x, f=f, adjust=adjust: adjust(x, f))
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
