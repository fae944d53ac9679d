"""Legacy module path ``mindspore.dataset.transforms.c_transforms``: the same transforms.

Example:
    >>> import tfspore.dataset.transforms.c_transforms as C
    >>> op = C.TypeCast("int32")
"""
from tfspore.dataset.transforms.transforms import (Compose, Concatenate, Duplicate, Fill, OneHot, RandomApply,
                                                   RandomChoice, TypeCast, not_random)
from tfspore.dataset.transforms._tensor_ops import Mask, PadEnd, Relational, Slice

__all__ = ["Compose", "Concatenate", "Duplicate", "Fill", "OneHot", "RandomApply", "RandomChoice", "TypeCast",
           "not_random", "Mask", "PadEnd", "Relational", "Slice"]
