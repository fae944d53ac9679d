"""Vision transforms on whole batches (a leading batch dimension), for the engine's batch-level maps.

When a ``map`` comes right before ``batch`` and its rows have static shapes, the dataset engine
batches first and runs the transforms once per batch (see ``TensorOperation._batch_ok``). The
functions here give every row what the per-image transform gives it: resampling treats the
batch as extra channels (every channel is resampled on its own, so the numbers are the same),
crops and flips gather per-row windows.
"""
from __future__ import annotations

import threading
from typing import Any, Dict, Optional, Sequence, Tuple

import tensorflow as tf

from tfspore.dataset.vision import _resize

__all__ = ["static_hw", "resize_batch", "resize_is_integer", "crop_batch", "flip_batch", "random_crop_geometry"]


def static_hw(shape: tf.TensorShape) -> Optional[Tuple[int, int]]:
    """``(H, W)`` of a fully known HW or HWC row shape, else None."""
    if shape.rank not in (2, 3) or not shape.is_fully_defined():
        return None
    return int(shape[0]), int(shape[1])


def _as_bhwc(batch: tf.Tensor) -> Tuple[tf.Tensor, bool]:
    if batch.shape.rank == 3:
        return batch[..., None], True
    return batch, False


def resize_batch(batch: tf.Tensor, out_h: int, out_w: int, method: str) -> tf.Tensor:
    """Resize every image of a ``[B, H, W(, C)]`` batch to ``(out_h, out_w)`` with :func:`_resize.resize`.

    The batch and channel axes are folded into one channel axis, ``[H, W, B*C]``: each channel is
    resampled independently, so every image gets exactly the per-image result.
    """
    x, was_2d = _as_bhwc(batch)
    h, w, c = int(x.shape[1]), int(x.shape[2]), int(x.shape[3])
    folded = tf.reshape(tf.transpose(x, [1, 2, 0, 3]), [h, w, -1])
    if resize_is_integer((h, w), (out_h, out_w), folded.dtype, method):
        out = _compiled_resize(out_h, out_w, method)(folded)  # integer arithmetic only: exact under XLA
    else:
        out = _resize.resize(folded, out_h, out_w, method)
    out = tf.transpose(tf.reshape(out, [out_h, out_w, -1, c]), [2, 0, 1, 3])
    return out[..., 0] if was_2d else out


def resize_is_integer(hw: Tuple[int, int], out_hw: Tuple[int, int], dtype: tf.DType, method: str) -> bool:
    """Whether :func:`resize_batch` resizes `hw` to `out_hw` in integer arithmetic only (uint8,
    LINEAR or NEAREST, not OpenCV's floating-point area path for an exact halving)."""
    halving = hw[0] == 2 * out_hw[0] and hw[1] == 2 * out_hw[1]
    return dtype == tf.uint8 and method in (_resize.LINEAR, _resize.NEAREST) and not halving


_COMPILED: Dict[Tuple[int, int, str], Any] = {}
_COMPILED_LOCK = threading.Lock()


def _compiled_resize(out_h: int, out_w: int, method: str) -> Any:
    """:func:`_resize.resize` to a fixed size, compiled with XLA: its many small element-wise passes
    (gathers, fixed-point products and shifts) fuse into a few loops. Integer arithmetic, so the
    result is exactly the uncompiled one."""
    key = (out_h, out_w, method)
    with _COMPILED_LOCK:
        fn = _COMPILED.get(key)
        if fn is None:
            fn = _COMPILED[key] = tf.function(lambda image: _resize.resize(image, out_h, out_w, method),
                                              jit_compile=True, autograph=False)
    return fn


def crop_batch(batch: tf.Tensor, top: tf.Tensor, left: tf.Tensor, height: int, width: int) -> tf.Tensor:
    """Per-row windows ``[top_i:top_i+height, left_i:left_i+width]`` of a ``[B, H, W(, C)]`` batch."""
    rows = top[:, None] + tf.range(height, dtype=top.dtype)[None, :]
    cols = left[:, None] + tf.range(width, dtype=left.dtype)[None, :]
    out = tf.gather(batch, rows, axis=1, batch_dims=1)
    return tf.gather(out, cols, axis=2, batch_dims=1)


def flip_batch(batch: tf.Tensor, flip: tf.Tensor, axis: int) -> tf.Tensor:
    """Reverse the rows of `batch` where `flip` ([B] bool) is true, along the per-row `axis`."""
    mask = tf.reshape(flip, [-1] + [1] * (batch.shape.rank - 1))
    return tf.where(mask, tf.reverse(batch, axis=[axis + 1]), batch)


def random_crop_geometry(shape: tf.TensorShape, size: Sequence[int], padding: Sequence[int],
                         pad_if_needed: bool) -> Optional[Tuple[int, int, int, int, int, int]]:
    """Static padding of RandomCrop for one row shape: ``(top, bottom, left, right, H, W)`` after
    padding, or None when the crop does not fit (the per-row path then reports it)."""
    hw = static_hw(shape)
    if hw is None:
        return None
    left, top, right, bottom = padding
    h, w = hw[0] + top + bottom, hw[1] + left + right
    if pad_if_needed:
        ph, pw = max(size[0] - h, 0), max(size[1] - w, 0)
        top, bottom, left, right = top + ph, bottom + ph, left + pw, right + pw
        h, w = h + 2 * ph, w + 2 * pw
    if h < size[0] or w < size[1]:
        return None
    return top, bottom, left, right, h, w
