"""Argument validation for the whole package: one message template, MindSpore's exception types.

Every check raises with the same sentence::

    For '{api}', the '{name}' must be {requirement}, but got {value!r}.

for example ``For 'Model.train', the 'epoch' must be a positive int, but got 0.``; a ``TypeError``
adds the type received: ``..., but got '3' of type str.``. Without an API
name the sentence starts ``The '{name}' ...``. As in MindSpore, a value of the wrong *type* raises
``TypeError`` and a value of the right type outside its allowed set raises ``ValueError``.

Conventions, shared by every function here:

- Arguments come in the order ``(value, [what it is checked against], name, api)``; options after
  ``api`` are keyword-only where they are not obvious.
- ``bool`` is never an int (``True`` fails :func:`check_int`) unless ``bool`` is named explicitly in
  :func:`check_type`; numpy integers are ints and numpy floats are floats.
- Range checks fail for NaN (every comparison with NaN is false).
- The checked value is returned, converted where the check says so (``check_int`` returns a Python
  ``int``), so a call can be used inline: ``self.epochs = check_positive_int(epochs, "epochs", api)``.

Local rules that only one API has (a layer's shape rule, say) build their message with
:func:`type_error` / :func:`value_error` so that they read like the rest.

This module imports nothing from other tfspore packages: every package can use it.
"""
from __future__ import annotations

import math
import numbers
from typing import Any, Iterable, Optional, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

__all__ = [
    "UINT8_MAX", "INT32_MIN", "INT32_MAX", "INT64_MAX", "FLOAT_MAX_INTEGER", "FLOAT32_MAX",
    "format_value", "message", "type_error", "value_error",
    "is_int", "is_float", "is_tensor",
    "check_type", "check_isinstance", "check_int", "check_positive_int", "check_non_negative_int",
    "check_int_range", "check_float", "check_positive_float", "check_non_negative_float",
    "check_float_range", "check_range", "check_number", "check_finite", "check_compare", "check_bool", "check_string",
    "check_int_tuple", "check_int_pair", "check_sequence", "check_unique_names", "check_min_max",
    "check_axis", "check_axes", "check_shape", "check_tensor", "check_tensor_like", "check_float_dtype",
]

UINT8_MAX = 255
INT32_MIN = -2147483648
INT32_MAX = 2147483647
INT64_MAX = 9223372036854775807
FLOAT_MAX_INTEGER = 16777216  # the largest int a float32 holds exactly
FLOAT32_MAX = 3.4028234663852886e38

_MAX_REPR = 120
_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


# ----------------------------------------------------------------------------------------- messages
def _is_array_like(value: Any) -> bool:
    if isinstance(value, (np.ndarray, tf.Tensor, tf.Variable)):
        return bool(getattr(value, "ndim", 0))
    return hasattr(type(value), "asnumpy") and bool(getattr(value, "shape", None))  # a tfspore Tensor, not 0-d


def _repr(value: Any) -> str:
    if _is_array_like(value):  # shape and dtype, not the numbers
        shape = tuple(value.shape) if value.shape is not None else None
        dtype = value.dtype.name if isinstance(value.dtype, tf.DType) else value.dtype
        return f"{type(value).__name__}(shape={shape}, dtype={dtype})"
    if isinstance(value, (list, tuple)) and any(_is_array_like(v) for v in value):
        items = ", ".join(_repr(v) for v in value)
        return f"[{items}]" if isinstance(value, list) else f"({items}{',' if len(value) == 1 else ''})"
    try:
        text = repr(value)
    except Exception:  # pylint: disable=broad-except
        return f"<{type(value).__name__}>"
    return " ".join(text.split()) if "\n" in text else text  # one line


def format_value(value: Any) -> str:
    """``repr(value)`` on one line, shortened to about 120 characters; a Tensor or array shows shape and dtype."""
    text = _repr(value)
    if len(text) > _MAX_REPR:
        text = text[:_MAX_REPR - 3] + "..."
    return text


def _subject(name: str, api: Optional[str]) -> str:
    # A name with a space or a quote is a phrase ("dtype of 'x'") and is used as it is.
    shown = name if (" " in name or "'" in name) else f"'{name}'"
    return f"For '{api}', the {shown}" if api else f"The {shown}"


def message(value: Any, name: str, api: Optional[str], requirement: str) -> str:
    """The one message template: ``For '{api}', the '{name}' must be {requirement}, but got {value!r}.``"""
    return f"{_subject(name, api)} must be {requirement}, but got {format_value(value)}."


def type_error(value: Any, name: str, api: Optional[str], requirement: str) -> TypeError:
    """A ``TypeError`` with :func:`message` and the value's type; use as ``raise type_error(...)``.

    ``For 'Dense', the 'has_bias' must be a bool, but got 1 of type int.``
    """
    text = message(value, name, api, requirement)
    return TypeError(f"{text[:-1]} of type {type(value).__name__}.")


def value_error(value: Any, name: str, api: Optional[str], requirement: str) -> ValueError:
    """A ``ValueError`` with :func:`message`; use as ``raise value_error(...)``."""
    return ValueError(message(value, name, api, requirement))


def _interval(low: Any, high: Any, inc_low: bool, inc_high: bool) -> str:
    return f"{'[' if inc_low else '('}{low}, {high}{']' if inc_high else ')'}"


def _in_interval(value: Any, low: Any, high: Any, inc_low: bool, inc_high: bool) -> bool:
    above = (low is None) or (value >= low if inc_low else value > low)
    below = (high is None) or (value <= high if inc_high else value < high)
    return bool(above and below)


def _type_names(types: Tuple[type, ...]) -> str:
    names = ["None" if t is type(None) else getattr(t, "__name__", str(t)) for t in types]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


# ------------------------------------------------------------------------------------- predicates
def is_int(value: Any) -> bool:
    """True for Python and numpy integers, False for bools (``True`` is not an int here)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def is_float(value: Any, allow_int: bool = False) -> bool:
    """True for Python and numpy floats (and ints when ``allow_int``), never for bools."""
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, (float, np.floating)):
        return True
    return allow_int and isinstance(value, numbers.Integral)


def is_tensor(value: Any) -> bool:
    """True for a tfspore Tensor or Parameter (anything with ``asnumpy``) and TensorFlow tensors."""
    return isinstance(value, (tf.Tensor, tf.Variable)) or hasattr(type(value), "asnumpy")


# ----------------------------------------------------------------------------------------- types
def check_type(value: Any, types: Union[type, Iterable[type]], name: str, api: Optional[str] = None,
               requirement: Optional[str] = None) -> Any:
    """Return ``value`` if it is an instance of ``types`` (a bool only when ``bool`` is listed).

    Raises:
        TypeError: ``For 'Dense', the 'has_bias' must be bool, but got 1 of type int.``
    """
    types = tuple(types) if isinstance(types, (list, tuple, set)) else (types,)
    ok = isinstance(value, types)
    if ok and isinstance(value, bool) and bool not in types:
        ok = False
    if not ok:
        raise type_error(value, name, api, requirement or _type_names(types))
    return value


def check_isinstance(value: Any, types: Union[type, Iterable[type]], name: str,
                     api: Optional[str] = None) -> Any:
    """MindSpore's ``check_isinstance``: like :func:`check_type` but raising ``ValueError``."""
    try:
        return check_type(value, types, name, api)
    except TypeError as err:
        raise ValueError(str(err)) from None


def check_bool(value: Any, name: str, api: Optional[str] = None) -> bool:
    """Return ``value`` if it is a bool (a numpy bool is accepted and returned as ``bool``).

    Raises:
        TypeError: ``For 'Dense', the 'has_bias' must be a bool, but got 1 of type int.``
    """
    if not isinstance(value, (bool, np.bool_)):
        raise type_error(value, name, api, "a bool")
    return bool(value)


def check_string(value: Any, valid: Sequence[str], name: str, api: Optional[str] = None, *,
                 lower: bool = False) -> str:
    """Return ``value`` if it is one of the strings ``valid`` (compared in lower case when ``lower``).

    MindSpore raises ``ValueError`` here, also for a value that is not a str.

    Raises:
        ValueError: ``For 'Conv2d', the 'pad_mode' must be one of ['same', 'valid', 'pad'], but got 'x'.``
    """
    key = value.lower() if (lower and isinstance(value, str)) else value
    if not isinstance(value, str) or key not in valid:
        raise value_error(value, name, api, f"one of {list(valid)}")
    return key


# ------------------------------------------------------------------------------------------ ints
def check_int(value: Any, name: str, api: Optional[str] = None) -> int:
    """Return ``value`` as a Python int if it is an int (not a bool).

    Raises:
        TypeError: ``For 'Flatten', the 'start_dim' must be an int, but got 1.5 of type float.``
    """
    if not is_int(value):
        raise type_error(value, name, api, "an int")
    return int(value)


def check_positive_int(value: Any, name: str, api: Optional[str] = None) -> int:
    """Return ``value`` as an int if it is an int greater than 0.

    Raises:
        TypeError: when it is not an int.
        ValueError: ``For 'Model.train', the 'epoch' must be a positive int, but got 0.``
    """
    if not is_int(value):
        raise type_error(value, name, api, "a positive int")
    if value <= 0:
        raise value_error(value, name, api, "a positive int")
    return int(value)


def check_non_negative_int(value: Any, name: str, api: Optional[str] = None) -> int:
    """Return ``value`` as an int if it is an int >= 0.

    Raises:
        TypeError: when it is not an int.
        ValueError: ``For 'LossMonitor', the 'per_print_times' must be a non-negative int, but got -1.``
    """
    if not is_int(value):
        raise type_error(value, name, api, "a non-negative int")
    if value < 0:
        raise value_error(value, name, api, "a non-negative int")
    return int(value)


def check_int_range(value: Any, name: str, api: Optional[str], low: Optional[int], high: Optional[int], *,
                    inc_low: bool = True, inc_high: bool = True) -> int:
    """Return ``value`` as an int if it is an int in the interval (``None`` leaves an end open).

    Raises:
        TypeError: when it is not an int.
        ValueError: ``For 'Batch', the 'batch_size' must be an int in range [1, 2147483647], but got 0.``
    """
    requirement = f"an int in range {_interval(low, high, inc_low, inc_high)}"
    if low is None or high is None:
        requirement = _one_sided("an int", low, high, inc_low, inc_high)
    if not is_int(value):
        raise type_error(value, name, api, requirement)
    if not _in_interval(value, low, high, inc_low, inc_high):
        raise value_error(value, name, api, requirement)
    return int(value)


def _one_sided(kind: str, low: Any, high: Any, inc_low: bool, inc_high: bool) -> str:
    if low is not None:
        return f"{kind} {'>=' if inc_low else '>'} {low}"
    if high is not None:
        return f"{kind} {'<=' if inc_high else '<'} {high}"
    return kind


# ---------------------------------------------------------------------------------------- floats
def _float_kind(allow_int: bool) -> str:
    return "a float or int" if allow_int else "a float"


def check_float(value: Any, name: str, api: Optional[str] = None, *, allow_int: bool = True) -> float:
    """Return ``value`` as a Python float if it is a float (or an int when ``allow_int``); never a bool.

    Raises:
        TypeError: ``For 'Dropout', the 'p' must be a float or int, but got '0.5' of type str.``
    """
    if not is_float(value, allow_int):
        raise type_error(value, name, api, _float_kind(allow_int))
    return float(value)


def check_positive_float(value: Any, name: str, api: Optional[str] = None, *, allow_int: bool = True) -> float:
    """Return ``value`` as a float if it is a number greater than 0 (NaN fails).

    Raises:
        TypeError: when it is not a number (an int too, unless ``allow_int``).
        ValueError: ``For 'Adam', the 'eps' must be a positive float, but got 0.0.``
    """
    if not is_float(value, allow_int):
        raise type_error(value, name, api, "a positive float")
    if not value > 0:
        raise value_error(value, name, api, "a positive float")
    return float(value)


def check_non_negative_float(value: Any, name: str, api: Optional[str] = None, *,
                             allow_int: bool = True) -> float:
    """Return ``value`` as a float if it is a number >= 0 (NaN fails).

    Raises:
        TypeError: when it is not a number (an int too, unless ``allow_int``).
        ValueError: ``For 'SGD', the 'weight_decay' must be a non-negative float, but got -0.1.``
    """
    if not is_float(value, allow_int):
        raise type_error(value, name, api, "a non-negative float")
    if not value >= 0:
        raise value_error(value, name, api, "a non-negative float")
    return float(value)


def check_float_range(value: Any, name: str, api: Optional[str], low: Optional[float], high: Optional[float], *,
                      inc_low: bool = True, inc_high: bool = True, allow_int: bool = True) -> float:
    """Return ``value`` as a float if it is a number in the interval (NaN fails; ``None`` leaves an end open).

    Raises:
        TypeError: when it is not a number (an int too, unless ``allow_int``).
        ValueError: ``For 'Adam', the 'beta1' must be a float in range (0.0, 1.0), but got 1.0.``
    """
    requirement = f"a float in range {_interval(low, high, inc_low, inc_high)}"
    if low is None or high is None:
        requirement = _one_sided("a float", low, high, inc_low, inc_high)
    if not is_float(value, allow_int):
        raise type_error(value, name, api, requirement)
    if not _in_interval(value, low, high, inc_low, inc_high):
        raise value_error(value, name, api, requirement)
    return float(value)


def check_range(value: Any, name: str, api: Optional[str], low: Any, high: Any, *, inc_low: bool = True,
                inc_high: bool = True) -> Any:
    """Return ``value`` unchanged if it lies in the interval (its type is checked elsewhere; NaN fails).

    Raises:
        ValueError: ``For 'Resize', the 'size[0]' must be in range [1, 16777216], but got 0.``
    """
    if not _in_interval(value, low, high, inc_low, inc_high):
        raise value_error(value, name, api, f"in range {_interval(low, high, inc_low, inc_high)}")
    return value


def check_number(value: Any, name: str, api: Optional[str] = None) -> Any:
    """Return ``value`` unchanged if it is a real number (an int or a float, not a bool).

    Raises:
        TypeError: ``For 'ops.clamp', the 'min' must be an int or float, but got 'a' of type str.``
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise type_error(value, name, api, "an int or float")
    return value


def check_finite(value: Any, name: str, api: Optional[str] = None) -> float:
    """Return ``value`` as a float if it is a finite real number (not NaN or infinity).

    Raises:
        TypeError: when it is not a number.
        ValueError: ``For 'Adam', the 'learning_rate' must be a finite number, but got nan.``
    """
    check_number(value, name, api)
    if not math.isfinite(value):
        raise value_error(value, name, api, "a finite number")
    return float(value)


def check_compare(value: Any, rel: str, bound: Any, name: str, api: Optional[str] = None) -> Any:
    """Return ``value`` if ``value <rel> bound`` holds (``rel`` one of ``<``, ``<=``, ``>``, ``>=``, ``==``, ``!=``).

    Raises:
        ValueError: ``For 'SGD', the 'momentum' must be >= 0.0, but got -1.0.``
    """
    ops = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
           ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}
    if rel not in ops:
        raise ValueError(f"check_compare: unknown relation {rel!r}")
    if not ops[rel](value, bound):
        raise value_error(value, name, api, f"{rel} {bound}")
    return value


# ------------------------------------------------------------------------------------- sequences
def _sign_word(min_value: Optional[int]) -> str:
    return {1: "positive ", 0: "non-negative "}.get(min_value, "")


def check_int_tuple(value: Any, name: str, api: Optional[str] = None, *, length: Optional[int] = None,
                    allow_int: bool = True, min_value: Optional[int] = None) -> Tuple[int, ...]:
    """Return ``value`` as a tuple of Python ints.

    An int is accepted when ``allow_int`` and becomes ``length`` copies of itself (a 1-tuple without
    ``length``); a list or tuple must hold ints (not bools), ``length`` of them when given, each
    ``>= min_value`` when given.

    Raises:
        TypeError: for another type or an element that is not an int.
        ValueError: for a wrong length or an element below ``min_value``.
    """
    sign = _sign_word(min_value)
    many = _NUMBER_WORDS.get(length, str(length)) if length is not None else ""
    tuple_text = f"a tuple of {many + ' ' if many else ''}{sign}ints"
    requirement = (f"{'an' if sign == '' else 'a'} {sign}int or {tuple_text}" if allow_int else tuple_text)
    if allow_int and is_int(value):
        items: Tuple[Any, ...] = (value,) * (length or 1)
    elif isinstance(value, (list, tuple)):
        items = tuple(value)
        if not all(is_int(v) for v in items):
            raise type_error(value, name, api, requirement)
    else:
        raise type_error(value, name, api, requirement)
    if length is not None and len(items) != length:
        raise value_error(value, name, api, requirement)
    if min_value is not None and any(v < min_value for v in items):
        raise value_error(value, name, api, requirement)
    return tuple(int(v) for v in items)


def check_int_pair(value: Any, name: str, api: Optional[str] = None, *, allow_zero: bool = False
                   ) -> Tuple[int, int]:
    """An int or a pair of ints, returned as a pair of positive (or, with ``allow_zero``, non-negative) ints.

    Raises:
        TypeError: ``For 'MaxPool2d', the 'kernel_size' must be a positive int or a tuple of two positive
            ints, but got 'a' of type str.``
        ValueError: for a wrong length or a value out of range.
    """
    pair = check_int_tuple(value, name, api, length=2, min_value=0 if allow_zero else 1)
    return pair[0], pair[1]


def check_sequence(value: Any, item_types: Union[type, Iterable[type]], name: str, api: Optional[str] = None, *,
                   length: Optional[int] = None, non_empty: bool = False) -> list:
    """Return ``value`` as a list if it is a list or tuple of ``item_types`` instances.

    Raises:
        TypeError: for another type or a wrong element type.
        ValueError: for a wrong length, or an empty sequence when ``non_empty``.
    """
    types = tuple(item_types) if isinstance(item_types, (list, tuple, set)) else (item_types,)
    count = f"{length} " if length is not None else ("non-empty " if non_empty else "")
    requirement = f"a {count}list or tuple of {_type_names(types)}"
    if not isinstance(value, (list, tuple)):
        raise type_error(value, name, api, requirement)
    for item in value:
        if not isinstance(item, types) or (isinstance(item, bool) and bool not in types):
            raise type_error(value, name, api, requirement)
    if (length is not None and len(value) != length) or (non_empty and not value):
        raise value_error(value, name, api, requirement)
    return list(value)


def check_unique_names(value: Any, name: str, api: Optional[str] = None, *,
                       allow_none: bool = False) -> Optional[list]:
    """A str or a non-empty list/tuple of distinct non-empty strs (column names), returned as a list.

    Raises:
        TypeError: for another type or a non-str element.
        ValueError: for an empty list, an empty name or a repeated name.
    """
    if value is None and allow_none:
        return None
    requirement = "a str or a non-empty list of distinct non-empty strs"
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, (list, tuple)) or not all(isinstance(v, str) for v in names):
        raise type_error(value, name, api, requirement)
    names = list(names)
    if not names or not all(names) or len(set(names)) != len(names):
        raise value_error(value, name, api, requirement)
    return names


def check_min_max(value: Any, name: str, api: Optional[str] = None, low: Optional[float] = None,
                  high: Optional[float] = None) -> Tuple[float, float]:
    """A ``(min, max)`` pair of numbers with ``low <= min <= max <= high``, returned as two floats.

    Raises:
        TypeError: for another type or a non-number element.
        ValueError: for a wrong length, ``min > max`` or a bound outside ``[low, high]``.
    """
    requirement = "a (min, max) pair of numbers"
    if low is not None or high is not None:
        requirement += f" in [{low if low is not None else '-inf'}, {high if high is not None else 'inf'}]"
    if not isinstance(value, (list, tuple)) or not all(is_float(v, allow_int=True) for v in value):
        raise type_error(value, name, api, requirement)
    if len(value) != 2 or not value[0] <= value[1] or not _in_interval(value[0], low, None, True, True) \
            or not _in_interval(value[1], None, high, True, True):
        raise value_error(value, name, api, requirement)
    return float(value[0]), float(value[1])


# ------------------------------------------------------------------------------------ axes, shapes
def check_axis(value: Any, name: str, api: Optional[str], rank: Optional[int]) -> int:
    """Return ``value`` normalised to ``[0, rank)`` if it is an int in ``[-rank, rank)`` (a scalar counts as rank 1).

    Raises:
        TypeError: when it is not an int.
        ValueError: ``For 'ops.sum', the 'axis' must be in range [-2, 2), but got 2.``
    """
    value = check_int(value, name, api)
    if rank is None:
        return value
    r = max(int(rank), 1)
    if not -r <= value < r:
        raise value_error(value, name, api, f"in range [{-r}, {r})")
    return value % r


def check_axes(value: Iterable[Any], name: str, api: Optional[str], rank: Optional[int]) -> Tuple[int, ...]:
    """Check each axis with :func:`check_axis` and that none repeats; return them normalised.

    Raises:
        TypeError: for an axis that is not an int.
        ValueError: for an axis out of range or a repeated axis.
    """
    value = tuple(value)
    out = tuple(check_axis(a, name, api, rank) for a in value)
    if rank is not None and len(set(out)) != len(out):
        raise value_error(value, name, api, "axes without repeats")
    return out


def check_shape(value: Any, name: str, api: Optional[str] = None, *, allow_unknown: bool = False
                ) -> Tuple[int, ...]:
    """Return ``value`` as a tuple of ints >= 0 (or -1 for an unknown dimension when ``allow_unknown``).

    An int is a 1-D shape.

    Raises:
        TypeError: for another type or a non-int dimension.
        ValueError: for a negative dimension.
    """
    requirement = "a shape (a tuple of non-negative ints" + (" or -1)" if allow_unknown else ")")
    dims = (value,) if is_int(value) else value
    if not isinstance(dims, (list, tuple)) or not all(is_int(d) for d in dims):
        raise type_error(value, name, api, requirement)
    if any(d < 0 and not (allow_unknown and d == -1) for d in dims):
        raise value_error(value, name, api, requirement)
    return tuple(int(d) for d in dims)


# ---------------------------------------------------------------------------------------- tensors
_TENSOR_LIKE = (tf.Tensor, tf.Variable, np.ndarray, np.generic, numbers.Number, list, tuple)


def check_tensor(value: Any, name: str, api: Optional[str] = None) -> Any:
    """Return ``value`` if it is a Tensor (tfspore or TensorFlow).

    Raises:
        TypeError: ``For 'ops.abs', the 'input' must be a Tensor, but got [1, 2] of type list.``
    """
    if not is_tensor(value):
        raise type_error(value, name, api, "a Tensor")
    return value


def check_tensor_like(value: Any, name: str, api: Optional[str] = None) -> Any:
    """Return ``value`` if it can be an op input: a Tensor, a number, a numpy array or a list/tuple.

    Raises:
        TypeError: ``For 'ops.add', the 'input' must be a Tensor, but got 'a' of type str.``
    """
    if isinstance(value, str) or not (is_tensor(value) or isinstance(value, _TENSOR_LIKE)):
        raise type_error(value, name, api, "a Tensor")
    return value


def _dtype_text(dtype: Any) -> str:
    if not hasattr(dtype, "name"):
        try:
            dtype = tf.as_dtype(dtype)
        except TypeError:
            return str(dtype)
    text = str(dtype.name)
    if text.startswith("uint"):
        return "UInt" + text[4:]
    if text.startswith("bfloat"):
        return "BFloat" + text[6:]
    return text[:1].upper() + text[1:]


def check_float_dtype(dtype: Any, name: str, api: Optional[str] = None) -> Any:
    """Return ``dtype`` (a ``tf.DType`` or anything with ``is_floating``) if it is a floating-point dtype.

    Raises:
        TypeError: ``For 'ops.dropout', the dtype of 'input' must be float16, float32 or float64, but got Int32.``
    """
    floating = getattr(dtype, "is_floating", None)
    if floating is None:
        floating = tf.as_dtype(dtype).is_floating
    if not floating:
        # the template, with the dtype shown as MindSpore names it (Int32) rather than as a repr
        raise TypeError(f"{_subject(f'dtype of {name!r}', api)} must be float16, float32 or float64, but got "
                        f"{_dtype_text(dtype)}.")
    return dtype
