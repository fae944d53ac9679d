"""Helpers shared by the layer implementations: value conversion, compute dtypes, data layouts."""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore.common.initializer import Initializer
from tfspore._internal.tensor_wrap import unwrap_nest as _unwrap_nest
from tfspore.common.tensor import Tensor


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


def check_same_float(cell: Any, x: tf.Tensor, weight_dtype: tf.DType, primitive: str) -> None:
    """MindSpore's TypeError for a float64 input to a layer whose weight is not float64, where the
    layer has no ``to_float`` type (MindSpore's ``MatMul`` and ``Conv2D`` do not promote: a
    float64 input to a float32 ``Dense`` or ``Conv2d`` is refused; numpy's default float64 is the
    usual way to get there). A float16 or bfloat16 input is computed in its own dtype, because
    tfspore's amp levels pass such inputs between layers (docs/differences.md).

    Args:
        cell: The layer.
        x: Its input.
        weight_dtype: The dtype of its weight.
        primitive: MindSpore's primitive the layer runs ('MatMul', 'Conv2D', ...), for the message.

    Raises:
        TypeError: when ``x`` is float64, the weight is not, and the layer has no mixed-precision
            type.
    """
    if x.dtype == tf.float64 and weight_dtype != tf.float64 and getattr(cell, "_mixed_precision_type", None) is None:
        raise TypeError(f"For '{primitive}', the type of the input should be same as the weight's, but got input "
                        f"with type Tensor[{x.dtype.name}] and weight with type Tensor[{weight_dtype.name}]. "
                        f"('{type(cell).__name__}' has no to_float type: cast the input to {weight_dtype.name}, or "
                        f"call {type(cell).__name__}.to_float(...).)")


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
