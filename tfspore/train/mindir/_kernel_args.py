"""What MindIR kernels share: a node's arguments as tensors, ints and dtypes.

MindSpore's exporter stores an operator's arguments either as node inputs (MindSpore 2.x) or as
primitive attributes (older writers), and data types as MindSpore type ids; the kernels of
``_kernels.py`` and ``_array_kernels.py`` read them through these functions.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from tfspore.train.mindir._reader import DType

__all__ = ["tensor", "ints", "inputs_or_attrs", "dtype_of", "TYPE_IDS"]


def tensor(x: Any) -> tf.Tensor:
    """A node's argument as a tensor (a data type is refused)."""
    if isinstance(x, DType):
        raise TypeError(f"a data type {x.np_dtype} where a tensor is expected")
    return tf.convert_to_tensor(x)


def ints(v: Any) -> tuple:
    """A node's argument (an int, a tuple, an array or a constant tensor) as a tuple of ints."""
    if isinstance(v, (tuple, list)):
        return tuple(int(i) for i in v)
    if isinstance(v, np.ndarray):
        return tuple(int(i) for i in v.reshape(-1))
    if isinstance(v, (tf.Tensor, tf.Variable)):
        return tuple(int(i) for i in tf.get_static_value(v).reshape(-1))
    return (int(v),)


def inputs_or_attrs(attrs: dict, names: tuple, defaults: tuple, rest: tuple) -> list:
    """The operator arguments ``names``: MindSpore 2.x passes them as node inputs (``rest``, in
    order), older writers as primitive attributes."""
    out = []
    for i, (name, default) in enumerate(zip(names, defaults)):
        out.append(rest[i] if i < len(rest) else attrs.get(name, default))
    return out


# MindSpore's TypeId numbers (mindapi/base/type_id.h).
TYPE_IDS = {30: tf.bool, 32: tf.int8, 33: tf.int16, 34: tf.int32, 35: tf.int64, 37: tf.uint8, 38: tf.uint16,
             39: tf.uint32, 40: tf.uint64, 42: tf.float16, 43: tf.float32, 44: tf.float64, 45: tf.bfloat16,
             46: tf.float64, 51: tf.complex64, 52: tf.complex128}


def dtype_of(value: Any) -> tf.DType:
    """A data type given as a MindSpore type id, a read ``DType`` or anything ``tf.as_dtype`` takes."""
    if isinstance(value, DType):
        return value.tf_dtype
    if isinstance(value, (int, np.integer)):
        if int(value) not in TYPE_IDS:
            raise ValueError(f"unknown MindSpore type id {value}")
        return TYPE_IDS[int(value)]
    return tf.as_dtype(value)
