"""Legacy module path ``mindspore.dataset.transforms.c_transforms``: the same transforms.

Example:
    >>> import tfspore.dataset.transforms.c_transforms as C
    >>> op = C.TypeCast("int32")
"""
from tfspore.dataset.transforms.transforms import (Compose, Concatenate, Duplicate, Fill, OneHot, RandomApply,
                                                   RandomChoice, TypeCast, not_random)

__all__ = ["Compose", "Concatenate", "Duplicate", "Fill", "OneHot", "RandomApply", "RandomChoice", "TypeCast",
           "not_random"]
