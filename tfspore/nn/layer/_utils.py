"""Helpers shared by the layer implementations: value conversion, compute dtypes, data layouts."""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore.common.initializer import Initializer
from tfspore.common.tensor import Tensor, _unwrap_nest


def to_tf(x: Any) -> tf.Tensor:
    """Return the ``tf.Tensor`` behind ``x`` (Tensor, Parameter, tf value, numpy array or number)."""
    if isinstance(x, tf.Tensor):
        return x
    return tf.convert_to_tensor(_unwrap_nest(x))


def compute_dtype(cell: Any, x: tf.Tensor, fallback: tf.DType = tf.float32) -> tf.DType:
    """The dtype a layer computes in: the cell's ``to_float`` type, else the input's floating dtype."""
    mp = getattr(cell, "_mixed_precision_type", None)
    if mp is not None:
        return mp.tf_dtype
    return x.dtype if x.dtype.is_floating else fallback


def cast_to(x: tf.Tensor, dtype: tf.DType) -> tf.Tensor:
    """Cast ``x`` to ``dtype`` when it differs."""
    return x if x.dtype == dtype else tf.cast(x, dtype)


def read_param(param: Any, dtype: tf.DType | None = None) -> tf.Tensor:
    """Read a Parameter's value (recorded by tapes that watch its variable), cast to ``dtype``."""
    v = tf.convert_to_tensor(param)
    return v if dtype is None or v.dtype == dtype else tf.cast(v, dtype)


def init_repr(init: Any) -> str:
    """Format an initializer argument as MindSpore prints it in a layer's ``extend_repr``.

    Initializer objects print as Python's default object repr under MindSpore's module path
    (``<mindspore.common.initializer.HeUniform object at 0x...>``); names, numbers and Tensors print
    as ``str`` does.
    """
    if isinstance(init, Initializer):
        cls = type(init)
        module = cls.__module__
        if module == "tfspore" or module.startswith("tfspore."):
            module = "mindspore" + module[len("tfspore"):]
        return f"<{module}.{cls.__qualname__} object at {hex(id(init))}>"
    if isinstance(init, Tensor):
        return str(init)
    return f"{init}"
