"""Python and numpy data to the numpy array a Tensor is built from, with MindSpore's default dtypes (python
floats give Float32, ints Int64, lists narrow float64 and widen int32), and the checks and text of
``Tensor(...)``'s arguments and repr. Imports nothing of ``tensor.py``, which builds on it.
"""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from tfspore.common import dtype as mstype
from tfspore.common._tensor_format import format_scalar, format_value
from tfspore.common._tensor_promote import is_ms_tensor


_INPUT_TYPES = "['Tensor', 'ndarray', 'list', 'tuple', 'float', 'int', 'bool', 'complex']"


def _seq_to_numpy(data: Any) -> np.ndarray:
    items = [d.asnumpy() if is_ms_tensor(d) else d for d in data]
    try:
        arr = np.array(items)
    except (ValueError, TypeError):
        arr = None
    if arr is None or arr.dtype == object or arr.dtype.kind not in "biufc":
        raise TypeError(f"For Tensor, the input_data is {data!r} that contain unsupported element.")
    return arr


def _default_np(data: Any, dtype: mstype.Type | None = None) -> np.ndarray:
    """Convert python data to numpy with MindSpore's default dtypes.

    Python floats (and lists of them) give float32, python ints int64, bools bool, complex
    numbers complex128; numpy arrays and scalars keep their dtype.

    Raises:
        TypeError: for data that is not numeric.
    """
    if isinstance(data, np.generic):
        arr = np.array(data)
    elif isinstance(data, np.ndarray):
        arr = data
        if arr.dtype.kind not in "biufc" and arr.dtype != mstype.bfloat16.np_dtype:
            raise TypeError(f"initializing tensor by numpy array failed, numpy array: {data}, data type: "
                            f"{data.dtype}.")
    elif isinstance(data, (bool, numbers.Number)):
        try:
            arr = np.array(data)
        except OverflowError:
            raise ValueError(f"For 'Tensor', the value {data} is out of the range of int64 and uint64.") from None
        if arr.dtype == object:
            raise ValueError(f"For 'Tensor', the value {data} is out of the range of int64 and uint64.")
        if isinstance(data, float) and arr.dtype == np.float64:
            arr = arr.astype(np.float32)
        elif arr.dtype in (np.int32, np.int64):
            arr = arr.astype(np.int64)
    elif isinstance(data, (list, tuple)):
        arr = _seq_to_numpy(data)
        if arr.dtype == np.float64:
            arr = arr.astype(np.float32)
        elif arr.dtype == np.int32:
            arr = arr.astype(np.int64)
    else:
        raise TypeError(f"For 'Tensor', the type of 'input_data' should be one of {_INPUT_TYPES}, but got type "
                        f"'{type(data).__name__}'.")
    if dtype is not None and arr.dtype != dtype.np_dtype:
        arr = arr.astype(dtype.np_dtype)
    return arr


def _kind_name(dt: mstype.Type) -> str:
    if dt is mstype.bfloat16:
        return "bfloat"
    return {"bool": "bool", "int": "int", "uint": "int", "float": "float", "complex": "complex"}.get(dt._kind, "int")


def _shape_text(shape: tuple) -> str:
    return "[" + ", ".join(str(d if isinstance(d, int) else -1) for d in shape) + "]"


def _format_repr(arr: np.ndarray, dt: mstype.Type) -> str:
    if arr.ndim == 0:
        return " " + format_scalar(arr.item() if dt is not mstype.bfloat16 else float(arr), _kind_name(dt))
    if dt is mstype.bfloat16:
        arr = arr.astype(np.float32)
    return format_value(arr, _kind_name(dt), dt is mstype.float16)


def _check_dtype(dtype: Any) -> mstype.Type:
    if isinstance(dtype, str):
        raise TypeError(f"For 'Tensor', the 'dtype' should be a mindspore dtype such as mindspore.float32, but got "
                        f"{dtype!r}.")
    return mstype.as_ms_dtype(dtype, "Tensor", "dtype")


def _norm_shape(shape: Any) -> tuple:
    if isinstance(shape, (numbers.Integral, np.integer)) and not isinstance(shape, bool):
        return (int(shape),)
    if not isinstance(shape, (list, tuple)):
        raise TypeError(f"For 'Tensor', the 'shape' must be an int, list or tuple, but got {shape!r}.")
    out = []
    for s in shape:
        if s is None:
            out.append(-1)
        elif isinstance(s, (numbers.Integral, np.integer)) and not isinstance(s, bool) and s >= -1:
            out.append(int(s))
        else:
            raise ValueError(f"For 'Tensor', each dimension of 'shape' must be a non-negative int or None, but got "
                             f"{shape!r}.")
    return tuple(out)
