"""Enums of the vision transforms (``mindspore.dataset.vision.utils``).

Example:
    >>> from tfspore.dataset.vision import Inter
    >>> Inter.LINEAR is Inter.BILINEAR
    True
"""
from __future__ import annotations

from enum import Enum, IntEnum

__all__ = ["Inter", "Border", "ImageBatchFormat", "ConvertMode", "SliceMode", "AutoAugmentPolicy",
           "ImageReadMode"]


class Inter(IntEnum):
    """Interpolation methods.

    ``NEAREST``, ``LINEAR`` (alias ``BILINEAR``), ``CUBIC`` (alias ``BICUBIC``) and ``AREA``
    follow OpenCV, ``PILCUBIC`` follows Pillow's bicubic; ``ANTIALIAS`` is Pillow's antialiased
    filter (PIL input only in MindSpore).
    """

    NEAREST = 0
    ANTIALIAS = 1
    BILINEAR = LINEAR = 2
    BICUBIC = CUBIC = 3
    AREA = 4
    PILCUBIC = 5


class Border(str, Enum):
    """Padding modes.

    ``CONSTANT`` fills with a value, ``EDGE`` repeats the edge pixel, ``REFLECT`` mirrors
    without repeating the edge (``[3,2,1,2,3,4,3,2]``), ``SYMMETRIC`` mirrors repeating it
    (``[2,1,1,2,3,4,4,3]``).
    """

    CONSTANT: str = "constant"
    EDGE: str = "edge"
    REFLECT: str = "reflect"
    SYMMETRIC: str = "symmetric"


class ImageBatchFormat(IntEnum):
    """Layout of a batch of images: ``NHWC`` or ``NCHW``."""

    NHWC = 0
    NCHW = 1


class ConvertMode(IntEnum):
    """Color conversions of :class:`~tfspore.dataset.vision.ConvertColor` (OpenCV's codes)."""

    COLOR_BGR2BGRA = 0
    COLOR_RGB2RGBA = COLOR_BGR2BGRA
    COLOR_BGRA2BGR = 1
    COLOR_RGBA2RGB = COLOR_BGRA2BGR
    COLOR_BGR2RGBA = 2
    COLOR_RGB2BGRA = COLOR_BGR2RGBA
    COLOR_RGBA2BGR = 3
    COLOR_BGRA2RGB = COLOR_RGBA2BGR
    COLOR_BGR2RGB = 4
    COLOR_RGB2BGR = COLOR_BGR2RGB
    COLOR_BGRA2RGBA = 5
    COLOR_RGBA2BGRA = COLOR_BGRA2RGBA
    COLOR_BGR2GRAY = 6
    COLOR_RGB2GRAY = 7
    COLOR_GRAY2BGR = 8
    COLOR_GRAY2RGB = COLOR_GRAY2BGR
    COLOR_GRAY2BGRA = 9
    COLOR_GRAY2RGBA = COLOR_GRAY2BGRA
    COLOR_BGRA2GRAY = 10
    COLOR_RGBA2GRAY = 11


class SliceMode(IntEnum):
    """Slicing modes of SlicePatches: ``PAD`` or ``DROP``."""

    PAD = 0
    DROP = 1


class AutoAugmentPolicy(str, Enum):
    """AutoAugment policies."""

    IMAGENET: str = "imagenet"
    CIFAR10: str = "cifar10"
    SVHN: str = "svhn"


class ImageReadMode(IntEnum):
    """Image read modes: ``UNCHANGED``, ``GRAYSCALE`` or ``COLOR``."""

    UNCHANGED = 0
    GRAYSCALE = 1
    COLOR = 2
