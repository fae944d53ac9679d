"""Image transforms (``mindspore.dataset.vision``).

Each transform runs as TensorFlow ops inside ``Dataset.map`` (no Python per sample) and
eagerly on numpy arrays; numerics follow OpenCV, as MindSpore's CPU transforms do.

Example:
    >>> import numpy as np
    >>> import tfspore.dataset.vision as vision
    >>> from tfspore.dataset.vision import Inter
    >>> vision.Resize((32, 32), Inter.LINEAR)(np.zeros((28, 28, 1), np.uint8)).shape
    (32, 32, 1)
"""
from tfspore.dataset.vision import transforms, utils  # noqa: F401  (MindSpore exposes the submodules)
from tfspore.dataset.vision.transforms import (CenterCrop, ConvertColor, Crop, Decode, Grayscale, HorizontalFlip,
                                               HWC2CHW, Normalize, Pad, RandomColorAdjust, RandomCrop,
                                               RandomHorizontalFlip, RandomResizedCrop, RandomRotation,
                                               RandomVerticalFlip, Rescale, Resize, Rotate, ToNumpy, ToPIL,
                                               ToTensor, ToType, VerticalFlip)
from tfspore.dataset.vision.utils import (AutoAugmentPolicy, Border, ConvertMode, ImageBatchFormat, ImageReadMode,
                                          Inter, SliceMode)
from tfspore.dataset.vision._adjust import (AdjustSharpness, AutoContrast, Equalize, Invert, Posterize,
                                            RandomAdjustSharpness, RandomAutoContrast, RandomColor, RandomEqualize,
                                            RandomGrayscale, RandomInvert, RandomPosterize, RandomSharpness,
                                            RandomSolarize, Solarize)
from tfspore.dataset.vision._affine import Affine, RandomAffine
from tfspore.dataset.vision._auto_augment import RandomSelectSubpolicy, UniformAugment
from tfspore.dataset.vision._augment_policies import AutoAugment, RandAugment, TrivialAugmentWide
from tfspore.dataset.vision._batch_mix import MixUpBatch
from tfspore.dataset.vision._normalize_pad import NormalizePad
from tfspore.dataset.vision._resized_crop import RandomCropDecodeResize, RandomResize
from tfspore.dataset.vision._erase import CutOut, RandomErasing

__all__ = ["CenterCrop", "ConvertColor", "Crop", "Decode", "Grayscale", "HorizontalFlip", "HWC2CHW", "Normalize",
           "Pad", "RandomColorAdjust", "RandomCrop", "RandomHorizontalFlip", "RandomResizedCrop", "RandomRotation",
           "RandomVerticalFlip", "Rescale", "Resize", "Rotate", "ToNumpy", "ToPIL", "ToTensor", "ToType",
           "VerticalFlip", "AutoAugmentPolicy", "Border", "ConvertMode", "ImageBatchFormat", "ImageReadMode",
           "Inter", "SliceMode", "AdjustSharpness", "Affine", "AutoContrast", "CutOut", "Equalize", "Invert",
           "Posterize", "RandomAdjustSharpness", "RandomAffine", "RandomAutoContrast", "RandomColor",
           "RandomCropDecodeResize", "RandomEqualize", "RandomErasing", "RandomGrayscale", "RandomInvert",
           "RandomPosterize", "RandomSelectSubpolicy", "RandomSharpness", "RandomSolarize", "Solarize",
           "UniformAugment", "MixUpBatch", "NormalizePad", "RandomResize", "AutoAugment", "RandAugment",
           "TrivialAugmentWide"]
