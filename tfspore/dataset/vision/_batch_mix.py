"""``MixUpBatch``: blend each image and one-hot label of a batch with those of a shuffled copy."""
from __future__ import annotations

from typing import Tuple

import tensorflow as tf

from tfspore._internal import validator as c
from tfspore.dataset.transforms._base import ImageTensorOperation
from tfspore.dataset.vision import _image_ops as ops

__all__ = ["MixUpBatch"]


class MixUpBatch(ImageTensorOperation):
    """MixUp on a batch: ``lam * x + (1 - lam) * x[perm]`` for images and one-hot labels.

    One ``lam ~ Beta(alpha, alpha)`` per batch (drawn as ``g1 / (g1 + g2)`` of two Gamma(alpha)
    draws, as MindSpore does) and one random permutation of the batch. Apply it after ``batch``
    to the image and label columns together.

    Args:
        alpha: Positive parameter of the Beta distribution.

    Raises:
        TypeError: If `alpha` is not a number.
        ValueError: If `alpha` is not positive.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> images, labels = np.zeros((4, 8, 8, 3), np.uint8), np.eye(4, dtype=np.int32)
        >>> out_images, out_labels = vision.MixUpBatch(1.0)(images, labels)
        >>> out_images.shape, out_labels.dtype
        ((4, 8, 8, 3), dtype('float32'))
    """

    _tf_random = True

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        c.check_type(alpha, (int, float), "alpha", "MixUpBatch")
        c.check_range(alpha, "alpha", "MixUpBatch", 0.0, c.FLOAT32_MAX, inc_low=False)
        self.alpha = float(alpha)

    def _apply(self, images: tf.Tensor, labels: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor]:
        if images.shape.rank != 4:
            raise RuntimeError(f"For 'MixUpBatch', please make sure images are HWC or CHW and batched before "
                               f"calling MixUpBatch, but got images of shape {images.shape.as_list()}.")
        if labels.shape.rank not in (2, 3):
            raise RuntimeError(f"For 'MixUpBatch', wrong labels shape: the labels must have a shape of NC or NLC "
                               f"(one-hot, batched), but got {labels.shape.as_list()}.")
        if not labels.dtype.is_integer:
            raise RuntimeError(f"For 'MixUpBatch', wrong labels type: the labels must be of an int type, "
                               f"but got {labels.dtype.name}.")
        gammas = tf.random.stateless_gamma([2], seed=self._seed(), alpha=self.alpha)
        lam = gammas[0] / (gammas[0] + gammas[1])
        n = tf.shape(images)[0]
        perm = tf.argsort(tf.random.stateless_uniform(tf.reshape(n, [1]), seed=self._seed()))
        work = ops.work_dtype(images.dtype)
        lam_w = tf.cast(lam, work)
        x = tf.cast(images, work)
        mixed = ops.saturate(lam_w * x + (1.0 - lam_w) * tf.gather(x, perm), images.dtype)
        y = tf.cast(labels, tf.float32)
        mixed_labels = lam * y + (1.0 - lam) * tf.gather(y, perm)
        return mixed, mixed_labels
