"""Transforms whose MindSpore 1.x ``py_transforms`` versions differ from the ``c_transforms`` ones.

``py_transforms.Normalize`` normalizes the CHW float image that ``py_transforms.ToTensor`` makes,
so its layout default is CHW; everything else in ``py_transforms`` is the common transform.
"""
from __future__ import annotations

from typing import Sequence

from tfspore.dataset.vision.transforms import Normalize as _HWCNormalize

__all__ = ["Normalize"]


class Normalize(_HWCNormalize):
    """``(image - mean) / std`` per channel of a CHW image (as after ``ToTensor``), as float32.

    Args:
        mean: Per-channel means, on the input's scale (``[0, 1]`` after ``ToTensor``).
        std: Per-channel standard deviations.
        is_hwc: False (default) for CHW input, True for HWC.

    Example:
        >>> import numpy as np
        >>> import tfspore.dataset.vision.py_transforms as py_vision
        >>> py_vision.Normalize([0.5] * 3, [0.5] * 3)(np.ones((3, 1, 1), np.float32)).ravel().tolist()
        [1.0, 1.0, 1.0]
    """

    def __init__(self, mean: Sequence[float], std: Sequence[float], is_hwc: bool = False) -> None:
        super().__init__(mean, std, is_hwc)
