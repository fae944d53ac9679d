"""Generic data transforms (``mindspore.dataset.transforms``).

Each transform runs as TensorFlow ops inside ``Dataset.map`` and eagerly on numpy arrays.

Example:
    >>> import numpy as np
    >>> import tfspore as ms
    >>> import tfspore.dataset.transforms as transforms
    >>> transforms.TypeCast(ms.int32)(np.array([1], np.uint32)).dtype
    dtype('int32')
"""
from tfspore.dataset.transforms import transforms  # noqa: F401  (MindSpore exposes the submodule)
from tfspore.dataset.transforms._base import PyTensorOperation, TensorOperation
from tfspore.dataset.transforms.transforms import (Compose, Concatenate, Duplicate, Fill, OneHot, RandomApply,
                                                   RandomChoice, TypeCast, not_random)
from tfspore.dataset.transforms._tensor_ops import Mask, PadEnd, Relational, Slice

__all__ = ["Compose", "Concatenate", "Duplicate", "Fill", "OneHot", "RandomApply", "RandomChoice", "TypeCast",
           "not_random", "Mask", "PadEnd", "Relational", "Slice", "TensorOperation", "PyTensorOperation"]
