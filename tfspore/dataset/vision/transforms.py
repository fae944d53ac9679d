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

from typing import Any

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as c
from tfspore.dataset.transforms._base import ImageTensorOperation, TensorOperation, _is_pil
from tfspore.dataset.vision import _image_ops as ops
from tfspore.dataset.vision._adjust import (AdjustSharpness, AutoContrast, Equalize, Invert, Posterize,
                                            RandomAdjustSharpness, RandomAutoContrast, RandomColor, RandomEqualize,
                                            RandomGrayscale, RandomInvert, RandomPosterize, RandomSharpness,
                                            RandomSolarize, Solarize)
from tfspore.dataset.vision._affine import Affine, RandomAffine
from tfspore.dataset.vision._auto_augment import RandomSelectSubpolicy, UniformAugment
from tfspore.dataset.vision._batch_mix import MixUpBatch
from tfspore.dataset.vision._common import check_encoded_rank, encoded_array, encoded_to_string
from tfspore.dataset.vision._erase import CutOut, RandomErasing
from tfspore.dataset.vision._geometry import (Resize, Crop, CenterCrop, Pad, RandomCrop, HorizontalFlip, VerticalFlip,
                                              RandomHorizontalFlip, RandomVerticalFlip, Rotate, RandomRotation)
from tfspore.dataset.vision._resized_crop import RandomCropDecodeResize, RandomResize, RandomResizedCrop
from tfspore.dataset.vision._values import (Rescale, Normalize, HWC2CHW, ToTensor, ToType, ConvertColor, Grayscale,
                                            RandomColorAdjust)

__all__ = ["Decode", "Resize", "Rescale", "Normalize", "HWC2CHW", "CenterCrop", "RandomCrop", "RandomResizedCrop",
           "RandomHorizontalFlip", "RandomVerticalFlip", "HorizontalFlip", "VerticalFlip", "RandomRotation",
           "Rotate", "RandomColorAdjust", "Pad", "ToTensor", "ToType", "ConvertColor", "Crop", "Grayscale",
           "ToPIL", "ToNumpy",
           # defined in the private modules beside this one (the AutoAugment family, erasing, affine)
           "AdjustSharpness", "Affine", "AutoContrast", "CutOut", "Equalize", "Invert", "Posterize",
           "RandomAdjustSharpness", "RandomAffine", "RandomAutoContrast", "RandomColor", "RandomCropDecodeResize",
           "RandomEqualize", "RandomErasing", "RandomGrayscale", "RandomInvert", "RandomPosterize",
           "RandomSelectSubpolicy", "RandomSharpness", "RandomSolarize", "Solarize", "UniformAugment", "MixUpBatch",
           "RandomResize"]


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
        img = encoded_array(img)
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
        check_encoded_rank(data, "Decode")
        return ops.decode_image(encoded_to_string(data))


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
