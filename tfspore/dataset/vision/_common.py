"""Helpers shared by the vision transforms: interpolation modes, rank checks, resizing, byte strings."""
from __future__ import annotations

from typing import Any, Sequence, Tuple

import tensorflow as tf

from tfspore.dataset.transforms import _checks as c
from tfspore.dataset.vision import _resize
from tfspore.dataset.vision.utils import Inter

__all__ = ["INTER_METHOD", "check_inter", "image_rank_check", "resize_image", "round_half_away",
           "encoded_to_string"]

INTER_METHOD = {Inter.NEAREST: _resize.NEAREST, Inter.LINEAR: _resize.LINEAR, Inter.CUBIC: _resize.CUBIC,
                Inter.AREA: _resize.AREA, Inter.PILCUBIC: _resize.PILCUBIC, Inter.ANTIALIAS: _resize.PILLANCZOS}


def check_inter(value: Any, name: str, api: str, allowed: Sequence[Inter] = tuple(INTER_METHOD)) -> Inter:
    """An :class:`Inter` mode among `allowed` (MindSpore's KeyError for None, TypeError otherwise)."""
    if value is None:
        raise KeyError(f"For '{api}', the '{name}' should not be None.")
    c.check_type(value, (Inter,), name, api)
    if value not in allowed:
        names = ", ".join(m.name for m in allowed)
        raise TypeError(f"For '{api}', the '{name}' {value!r} is not supported for NumPy (tensor) input; "
                        f"supported: {names}.")
    return value


def image_rank_check(image: tf.Tensor, api: str, ranks: Sequence[int] = (2, 3)) -> None:
    """Raise RuntimeError when the image's static rank is known and not in `ranks`."""
    rank = image.shape.rank
    if rank is not None and rank not in ranks:
        raise RuntimeError(f"For '{api}', the input image should be in shape of <H,W> or <H,W,C>, "
                           f"but got an input of rank {rank} with shape {image.shape.as_list()}.")


def resize_image(image: tf.Tensor, size: Tuple[int, ...], interpolation: Inter) -> tf.Tensor:
    """Resize to ``(h, w)``, or the shorter side to ``size[0]`` keeping the ratio (floor)."""
    shape = tf.shape(image)
    if len(size) == 2:
        out_h, out_w = size
    else:
        h = tf.cast(shape[0], tf.int64)
        w = tf.cast(shape[1], tf.int64)
        s = tf.constant(size[0], tf.int64)
        out_h = tf.cast(tf.where(h <= w, s, (h * s) // w), tf.int32)
        out_w = tf.cast(tf.where(h <= w, (w * s) // h, s), tf.int32)
    out = _resize.resize(image, out_h, out_w, INTER_METHOD[interpolation])
    if len(size) == 2:
        static = [size[0], size[1]] + ([image.shape[2]] if image.shape.rank == 3 else [])
        out = tf.ensure_shape(out, static)
    return out


def round_half_away(x: tf.Tensor) -> tf.Tensor:
    """``std::round``: to the nearest integer, halves away from zero."""
    return tf.sign(x) * tf.floor(tf.abs(x) + 0.5)


def encoded_to_string(data: tf.Tensor) -> tf.Tensor:
    """The bytes of a 1-D uint8 tensor (or a string scalar) as a string scalar.

    A serialized TensorProto of a uint8 tensor ends with its raw content, so the last
    ``size`` bytes are the data (one copy, no per-byte ops).
    """
    if data.dtype == tf.string:
        return tf.reshape(data, [])
    data = tf.reshape(tf.cast(data, tf.uint8), [-1])
    proto = tf.io.serialize_tensor(data)
    size = tf.size(data)
    return tf.strings.substr(proto, tf.strings.length(proto) - size, size)
