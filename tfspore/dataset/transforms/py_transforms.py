"""Legacy module path ``mindspore.dataset.transforms.py_transforms``: the same transforms.

Example:
    >>> import tfspore.dataset.transforms.py_transforms as P
    >>> op = P.OneHot(10)
"""
from tfspore.dataset.transforms._base import PyTensorOperation
from tfspore.dataset.transforms.transforms import (Compose, Concatenate, Duplicate, Fill, OneHot, RandomApply,
                                                   RandomChoice, TypeCast, not_random)
from tfspore.dataset.transforms._tensor_ops import Mask, PadEnd, Relational, Slice

__all__ = ["Compose", "Concatenate", "Duplicate", "Fill", "OneHot", "RandomApply", "RandomChoice", "TypeCast",
           "not_random", "Mask", "PadEnd", "Relational", "Slice", "PyTensorOperation"]
