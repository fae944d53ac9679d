"""Argument checks for the optimizers and learning-rate schedules, in MindSpore's phrasing.

Every message names the API (when given), the argument and the value received, e.g.
``For 'Adam', the 'beta1' must be in range of (0.0, 1.0), but got 1.0 with type 'float'.``
"""
from __future__ import annotations

import numbers
from typing import Any, Iterable

INC_NEITHER = "INC_NEITHER"
INC_BOTH = "INC_BOTH"
LE = "<="
GE = ">="


def _prefix(prim_name: str | None) -> str:
    return f"For '{prim_name}', the" if prim_name else "The"


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_positive_int(value: Any, arg_name: str, prim_name: str | None = None) -> int:
    """Return ``value`` if it is an int greater than 0.

    Raises:
        TypeError: when it is not an int.
        ValueError: when it is not positive.
    """
    if isinstance(value, bool):
        raise TypeError(f"{_prefix(prim_name)} '{arg_name}' must be int and must > 0, but got '{value}' with type "
                        "'bool'.")
    if not _is_int(value):
        raise TypeError(f"{_prefix(prim_name)} '{arg_name}' must be int, but got '{type(value).__name__}'")
    if value <= 0:
        raise ValueError(f"{_prefix(prim_name)} '{arg_name}' must be int and must > 0, but got '{value}' with type "
                         f"'{type(value).__name__}'.")
    return int(value)


def _check_float_type(value: Any, arg_name: str, prim_name: str | None) -> None:
    if not isinstance(value, float):
        raise TypeError(f"{_prefix(prim_name)} '{arg_name}' must be float, but got '{type(value).__name__}'")


def check_positive_float(value: Any, arg_name: str, prim_name: str | None = None) -> float:
    """Return ``value`` if it is a float greater than 0 (an int is rejected, as in MindSpore).

    Raises:
        TypeError: when it is not a float.
        ValueError: when it is not positive.
    """
    _check_float_type(value, arg_name, prim_name)
    if not value > 0:
        raise ValueError(f"{_prefix(prim_name)} '{arg_name}' must be float and must > 0, but got '{value}' with type "
                         "'float'.")
    return value


def check_non_negative_float(value: Any, arg_name: str, prim_name: str | None = None) -> float:
    """Return ``value`` if it is a float >= 0.

    Raises:
        TypeError: when it is not a float.
        ValueError: when it is negative.
    """
    _check_float_type(value, arg_name, prim_name)
    if not value >= 0:
        raise ValueError(f"{_prefix(prim_name)} '{arg_name}' must be float and must >= 0, but got '{value}' with "
                         "type 'float'.")
    return value


def check_is_float(value: Any, arg_name: str, prim_name: str | None = None) -> float:
    """Return ``value`` if it is a float.

    Raises:
        TypeError: otherwise.
    """
    if not isinstance(value, float):
        raise TypeError(f"{_prefix(prim_name)} type of '{arg_name}' must be 'float', but got "
                        f"'{type(value).__name__}'.")
    return value


def check_value_type(arg_name: str, value: Any, valid_types: Iterable[type] | type,
                     prim_name: str | None = None) -> Any:
    """Return ``value`` if it is an instance of ``valid_types`` (a bool is not an int or a float here).

    Raises:
        TypeError: otherwise.
    """
    types = tuple(valid_types) if isinstance(valid_types, (list, tuple)) else (valid_types,)
    bad = not isinstance(value, types) or (isinstance(value, bool) and bool not in types)
    if bad:
        names = [t.__name__ for t in types]
        kind = f"'{names[0]}'" if len(names) == 1 else f"one of '{names}'"
        raise TypeError(f"{_prefix(prim_name)} type of '{arg_name}' should be {kind}, but got type "
                        f"'{type(value).__name__}'.")
    return value


def check_bool(value: Any, arg_name: str, prim_name: str | None = None) -> bool:
    """Return ``value`` if it is a bool.

    Raises:
        TypeError: otherwise.
    """
    return check_value_type(arg_name, value, [bool], prim_name)


def check_float_range(value: Any, lower: float, upper: float, rel: str, arg_name: str,
                      prim_name: str | None = None) -> float:
    """Return ``value`` if it is a float in ``(lower, upper)`` (``INC_NEITHER``) or ``[lower, upper]``.

    Raises:
        TypeError: when it is not a float.
        ValueError: when it is out of range.
    """
    if not isinstance(value, float):
        raise TypeError(f"{_prefix(prim_name)} '{arg_name}' must be 'float', but got '{type(value).__name__}'.")
    if rel == INC_NEITHER:
        ok, text = lower < value < upper, f"({lower}, {upper})"
    else:
        ok, text = lower <= value <= upper, f"[{lower}, {upper}]"
    if not ok:
        raise ValueError(f"{_prefix(prim_name)} '{arg_name}' must be in range of {text}, but got {value} with type "
                         "'float'.")
    return value


def check_number(arg_name: str, value: Any, bound: float, rel: str, prim_name: str | None = None) -> Any:
    """Return ``value`` if ``value <= bound`` (``LE``) or ``value >= bound`` (``GE``).

    Raises:
        ValueError: otherwise.
    """
    ok = value <= bound if rel == LE else value >= bound
    if not ok:
        prefix = f"For '{prim_name}', the argument" if prim_name else "The argument"
        raise ValueError(f"{prefix} '{arg_name}' must {rel} {bound}, but got {value}.")
    return value
