"""Helpers shared by the vision transforms: interpolation modes, rank checks, resizing, byte strings."""
from __future__ import annotations

from typing import Any, Sequence, Tuple

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as c
from tfspore.dataset.vision import _resize
from tfspore.dataset.vision.utils import Inter

__all__ = ["INTER_METHOD", "check_inter", "check_size", "check_fill_value", "parse_padding", "image_rank_check",
           "resize_image", "round_half_away", "encoded_array", "check_encoded_rank", "encoded_to_string"]

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


def check_size(size: Any, api: str, name: str = "size", high: int = c.FLOAT_MAX_INTEGER,
               pair_high: int | None = None) -> Tuple[int, ...]:
    """An int or a ``(h, w)`` pair of positive ints; returns a tuple of one or two ints.

    Raises:
        TypeError: ``For 'Resize', the 'size' must be int, list or tuple, but got '3' of type str.``
        ValueError: ``For 'Resize', the 'size[0]' must be in range [1, 2147483647], but got 0.``
    """
    c.check_type(size, (int, list, tuple), name, api)
    if isinstance(size, int):
        c.check_range(size, name, api, 1, high)
        return (int(size),)
    if len(size) != 2:
        raise c.type_error(size, name, api, "an int or a list/tuple (h, w) of length 2")
    for i, value in enumerate(size):
        c.check_type(value, (int,), f"{name}[{i}]", api)
        c.check_range(value, f"{name}[{i}]", api, 1, pair_high or high)
    return (int(size[0]), int(size[1]))


def check_fill_value(fill_value: Any, api: str) -> Tuple[int, ...]:
    """An int in [0, 255] or a 3-tuple of them; returns a 3-tuple."""
    if isinstance(fill_value, int) and not isinstance(fill_value, bool):
        c.check_range(fill_value, "fill_value", api, 0, c.UINT8_MAX)
        return (int(fill_value),) * 3
    if isinstance(fill_value, tuple) and len(fill_value) == 3:
        for i, value in enumerate(fill_value):
            c.check_type(value, (int,), f"fill_value[{i}]", api)
            c.check_range(value, f"fill_value[{i}]", api, 0, c.UINT8_MAX)
        return tuple(int(x) for x in fill_value)
    raise c.type_error(fill_value, "fill_value", api, "an int or a 3-tuple of ints")


def parse_padding(padding: Any, api: str) -> Tuple[int, int, int, int]:
    """MindSpore's padding: an int, (left/right, top/bottom) or (left, top, right, bottom).

    Returns:
        ``(left, top, right, bottom)``.
    """
    c.check_type(padding, (int, list, tuple), "padding", api)
    if isinstance(padding, int):
        c.check_range(padding, "padding", api, 0, c.INT32_MAX)
        return (padding,) * 4
    if len(padding) not in (2, 4):
        raise c.value_error(padding, "padding", api, "an int or a list/tuple of 2 or 4 ints")
    for i, value in enumerate(padding):
        c.check_type(value, (int,), f"padding[{i}]", api)
        c.check_range(value, f"padding[{i}]", api, 0, c.INT32_MAX)
    if len(padding) == 2:
        return (padding[0], padding[1], padding[0], padding[1])
    return tuple(int(p) for p in padding)  # type: ignore[return-value]


def image_rank_check(image: tf.Tensor, api: str, ranks: Sequence[int] = (2, 3)) -> None:
    """Raise RuntimeError when the image's static rank is known and not in `ranks`."""
    rank = image.shape.rank
    if rank is not None and rank not in ranks:
        raise RuntimeError(f"For '{api}', the input image should be in shape of <H,W> or <H,W,C>, "
                           f"but got an input of rank {rank} with shape {image.shape.as_list()}.")


def resize_image(image: tf.Tensor, size: Tuple[int, ...], interpolation: Inter) -> tf.Tensor:
    """Resize to ``(h, w)``, or the shorter side to ``size[0]`` keeping the ratio (floor)."""
    shape = tf.shape(image)
    known_h, known_w = image.shape[0], image.shape[1]
    if len(size) == 2:
        out_h, out_w = size
    elif known_h is not None and known_w is not None:  # the output size is known while tracing
        s = size[0]
        out_h, out_w = (s, (known_w * s) // known_h) if known_h <= known_w else ((known_h * s) // known_w, s)
        size = (out_h, out_w)
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


def encoded_array(img: Any) -> Any:
    """An encoded image given as ``bytes`` as a 1-D uint8 array; anything else as it is."""
    return np.frombuffer(bytes(img), dtype=np.uint8) if isinstance(img, (bytes, bytearray)) else img


def check_encoded_rank(data: tf.Tensor, api: str) -> None:
    """Raise MindSpore's RuntimeError when ``data`` is not a 1-D array of encoded bytes (or a string)."""
    if data.shape.rank is not None and data.dtype != tf.string and data.shape.rank != 1:
        raise RuntimeError(f"For '{api}', the input should be a 1-D array of encoded bytes, "
                           f"but got shape {data.shape.as_list()}.")


def encoded_to_string(data: tf.Tensor) -> tf.Tensor:
    """The bytes of a 1-D uint8 tensor (or a string scalar) as a string scalar.

    A serialized TensorProto of a uint8 tensor ends with its raw content, so the last
    ``size`` bytes are the data (one copy, no per-byte ops).
    """
    if data.dtype == tf.string:
        return tf.reshape(data, [])
    op = getattr(data, "op", None)
    if (op is not None and not tf.executing_eagerly() and op.type == "DecodeRaw" and data.dtype == tf.uint8
            and op.inputs[0].shape.rank == 0):
        return op.inputs[0]  # the file's bytes, read in the same function (ImageFolderDataset): no round trip
    data = tf.reshape(tf.cast(data, tf.uint8), [-1])
    proto = tf.io.serialize_tensor(data)
    size = tf.size(data)
    return tf.strings.substr(proto, tf.strings.length(proto) - size, size)
