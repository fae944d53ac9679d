"""``NormalizePad``: ``Normalize`` followed by one extra channel of zeros (a 4-channel layout)."""
from __future__ import annotations

from typing import Sequence

import tensorflow as tf

from tfspore.dataset.vision.transforms import Normalize

__all__ = ["NormalizePad"]


class NormalizePad(Normalize):
    """Normalize per channel, then append a channel of zeros, as `dtype` (``"float32"`` or ``"float16"``).

    Args:
        mean: Per-channel means (each in [0, 255]).
        std: Per-channel standard deviations (each in (0, 255]).
        dtype: ``"float32"`` (default) or ``"float16"``.
        is_hwc: True for HWC input, False for CHW.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.NormalizePad([100.0] * 3, [50.0] * 3)(np.zeros((2, 2, 3), np.uint8)).shape
        (2, 2, 4)
    """

    def __init__(self, mean: Sequence[float], std: Sequence[float], dtype: str = "float32",
                 is_hwc: bool = True) -> None:
        super().__init__(mean, std, is_hwc)
        if not isinstance(dtype, str):
            raise TypeError(f"For 'NormalizePad', dtype should be string, but got {dtype!r}.")
        if dtype not in ("float32", "float16"):
            raise ValueError(f"For 'NormalizePad', dtype only supports float32 or float16, but got {dtype!r}.")
        self.dtype = dtype

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        out = super()._apply(image)
        if out.shape.rank == 2:
            out = out[:, :, None]
        axis = 2 if self.is_hwc or image.shape.rank == 2 else 0
        pad = [[0, 0], [0, 0], [0, 0]]
        pad[axis] = [0, 1]
        return tf.cast(tf.pad(out, pad), tf.as_dtype(self.dtype))

    def _batch_ok(self, shapes, dtypes) -> bool:
        return False  # per image only (Normalize's batch form would drop the extra channel)
