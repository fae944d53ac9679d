"""Argument validators shared by the ops, with MindSpore's error phrasing plus the value received."""
from __future__ import annotations

import numbers
from typing import Any, Iterable, Sequence

import numpy as np
import tensorflow as tf

from tfspore.common import dtype as mstype
from tfspore.common.tensor import Tensor

__all__ = []

_TENSOR_LIKE = (Tensor, tf.Tensor, tf.Variable, np.ndarray, np.generic, numbers.Number, list, tuple)


def _type_name(x: Any) -> str:
    return type(x).__name__


def check_tensor_like(op: str, arg: str, x: Any) -> None:
    """Raise TypeError when ``x`` cannot be an op input (a Tensor, number, list or array)."""
    if not isinstance(x, _TENSOR_LIKE) or isinstance(x, str):
        raise TypeError(f"For '{op}', the '{arg}' must be a Tensor, but got {_type_name(x)}: {x!r}.")


def check_tensor(op: str, arg: str, x: Any) -> None:
    """Raise TypeError when ``x`` is not a Tensor (or a TF tensor)."""
    if not isinstance(x, (Tensor, tf.Tensor, tf.Variable)):
        raise TypeError(f"For '{op}', the '{arg}' must be a Tensor, but got {_type_name(x)}: {x!r}.")


def check_bool(op: str, arg: str, x: Any) -> bool:
    """Return ``x`` when it is a bool, else raise TypeError."""
    if not isinstance(x, (bool, np.bool_)):
        raise TypeError(f"For '{op}', the '{arg}' must be a bool, but got {_type_name(x)}: {x!r}.")
    return bool(x)


def check_int(op: str, arg: str, x: Any) -> int:
    """Return ``x`` as an int when it is an int (not a bool), else raise TypeError."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (numbers.Integral,)):
        raise TypeError(f"For '{op}', the '{arg}' must be an int, but got {_type_name(x)}: {x!r}.")
    return int(x)


def check_positive_int(op: str, arg: str, x: Any) -> int:
    """Return ``x`` when it is an int > 0."""
    x = check_int(op, arg, x)
    if x <= 0:
        raise ValueError(f"For '{op}', the '{arg}' must be a positive int, but got {x}.")
    return x


def check_non_negative_int(op: str, arg: str, x: Any) -> int:
    """Return ``x`` when it is an int >= 0."""
    x = check_int(op, arg, x)
    if x < 0:
        raise ValueError(f"For '{op}', the '{arg}' must be a non-negative int, but got {x}.")
    return x


def check_number(op: str, arg: str, x: Any) -> float:
    """Return ``x`` when it is an int or float (not a bool)."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        raise TypeError(f"For '{op}', the '{arg}' must be an int or float, but got {_type_name(x)}: {x!r}.")
    return x


def check_float_range(op: str, arg: str, x: Any, lo: float, hi: float, inc_lo: bool = True,
                      inc_hi: bool = True) -> float:
    """Return ``x`` when it is a number in the given range."""
    check_number(op, arg, x)
    ok = (x >= lo if inc_lo else x > lo) and (x <= hi if inc_hi else x < hi)
    if not ok:
        left, right = "[" if inc_lo else "(", "]" if inc_hi else ")"
        raise ValueError(f"For '{op}', the '{arg}' must be in range {left}{lo}, {hi}{right}, but got {x}.")
    return x


def check_string(op: str, arg: str, x: Any, valid: Sequence[str], lower: bool = False) -> str:
    """Return ``x`` when it is one of ``valid`` (compared in lower case when ``lower``)."""
    if not isinstance(x, str):
        raise TypeError(f"For '{op}', the '{arg}' must be a str, but got {_type_name(x)}: {x!r}.")
    key = x.lower() if lower else x
    if key not in valid:
        raise ValueError(f"For '{op}', the '{arg}' must be one of {list(valid)}, but got '{x}'.")
    return key


def check_reduction(op: str, reduction: Any) -> str:
    """Return ``reduction`` when it is 'none', 'mean' or 'sum'."""
    return check_string(op, "reduction", reduction, ("none", "mean", "sum"))


def check_int_tuple(op: str, arg: str, x: Any, allow_int: bool = True) -> tuple:
    """Return ``x`` as a tuple of ints (an int becomes a 1-tuple when ``allow_int``)."""
    if allow_int and isinstance(x, numbers.Integral) and not isinstance(x, bool):
        return (int(x),)
    if isinstance(x, (list, tuple)):
        out = []
        for v in x:
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Integral):
                raise TypeError(f"For '{op}', the elements of '{arg}' must be int, but got {x!r}.")
            out.append(int(v))
        return tuple(out)
    raise TypeError(f"For '{op}', the '{arg}' must be an int or a tuple of ints, but got {_type_name(x)}: {x!r}.")


def check_axis(op: str, arg: str, axis: int, rank: int | None) -> int:
    """Check ``axis`` lies in [-rank, rank) and return it normalised to [0, rank)."""
    axis = check_int(op, arg, axis)
    if rank is None:
        return axis
    r = max(rank, 1)
    if axis < -r or axis >= r:
        raise ValueError(f"For '{op}', the '{arg}' must be in range [{-r}, {r}), but got {axis}.")
    return axis % r


def check_axes(op: str, arg: str, axes: Iterable[int], rank: int | None) -> tuple:
    """Check each axis lies in [-rank, rank) and that none repeats; return them normalised."""
    out = tuple(check_axis(op, arg, a, rank) for a in axes)
    if rank is not None and len(set(out)) != len(out):
        raise ValueError(f"For '{op}', the '{arg}' must not contain duplicate axes, but got {tuple(axes)}.")
    return out


def check_dtype(op: str, arg: str, dtype: Any) -> mstype.Type:
    """Return the MindSpore dtype for ``dtype``, raising TypeError for unknown values."""
    try:
        return mstype.as_ms_dtype(dtype, op, arg)
    except (TypeError, ValueError, KeyError):
        raise TypeError(f"For '{op}', the '{arg}' must be a mindspore dtype, but got {dtype!r}.") from None


def check_float_tensor(op: str, arg: str, dtype: tf.DType) -> None:
    """Raise TypeError when a tensor's dtype is not floating-point."""
    if not dtype.is_floating:
        raise TypeError(f"For '{op}', the dtype of '{arg}' must be float16, float32 or float64, but got "
                        f"{mstype.from_tf_dtype(dtype)}.")
