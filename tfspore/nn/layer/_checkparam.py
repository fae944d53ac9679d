"""Argument validation for the ``nn`` layers, losses, optimizers and wrappers.

Errors follow MindSpore's phrasing and always include the value received, e.g.
``For 'Dense', the 'in_channels' must be a positive int, but got 0.``
"""
from __future__ import annotations

import numbers
from typing import Any, Iterable, Sequence


def _prefix(prim_name: str | None) -> str:
    return f"For '{prim_name}', the" if prim_name else "The"


def check_int(value: Any, arg_name: str, prim_name: str | None = None) -> int:
    """Return ``value`` if it is an int (not a bool).

    Raises:
        TypeError: otherwise.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{_prefix(prim_name)} '{arg_name}' must be int, but got {value!r} of type "
                        f"{type(value).__name__}.")
    return int(value)


def check_positive_int(value: Any, arg_name: str, prim_name: str | None = None) -> int:
    """Return ``value`` if it is an int greater than 0.

    Raises:
        TypeError: when it is not an int.
        ValueError: when it is not positive.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{_prefix(prim_name)} '{arg_name}' must be a positive int, but got {value!r} of type "
                        f"{type(value).__name__}.")
    if value <= 0:
        raise ValueError(f"{_prefix(prim_name)} '{arg_name}' must be a positive int, but got {value}.")
    return int(value)


def check_non_negative_int(value: Any, arg_name: str, prim_name: str | None = None) -> int:
    """Return ``value`` if it is an int >= 0.

    Raises:
        TypeError: when it is not an int.
        ValueError: when it is negative.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{_prefix(prim_name)} '{arg_name}' must be a non-negative int, but got {value!r} of type "
                        f"{type(value).__name__}.")
    if value < 0:
        raise ValueError(f"{_prefix(prim_name)} '{arg_name}' must be a non-negative int, but got {value}.")
    return int(value)


def check_bool(value: Any, arg_name: str, prim_name: str | None = None) -> bool:
    """Return ``value`` if it is a bool.

    Raises:
        TypeError: otherwise.
    """
    if not isinstance(value, bool):
        raise TypeError(f"{_prefix(prim_name)} '{arg_name}' must be a bool, but got {value!r} of type "
                        f"{type(value).__name__}.")
    return value


def check_float(value: Any, arg_name: str, prim_name: str | None = None, allow_int: bool = True) -> float:
    """Return ``value`` as a float (ints accepted when ``allow_int``).

    Raises:
        TypeError: for another type.
    """
    ok = isinstance(value, float) or (allow_int and isinstance(value, numbers.Integral)
                                      and not isinstance(value, bool))
    if not ok:
        kind = "float or int" if allow_int else "float"
        raise TypeError(f"{_prefix(prim_name)} '{arg_name}' must be {kind}, but got {value!r} of type "
                        f"{type(value).__name__}.")
    return float(value)


def check_non_negative_float(value: Any, arg_name: str, prim_name: str | None = None) -> float:
    """Return ``value`` as a float >= 0.

    Raises:
        TypeError: when it is not a number.
        ValueError: when it is negative.
    """
    value = check_float(value, arg_name, prim_name)
    if value < 0:
        raise ValueError(f"{_prefix(prim_name)} '{arg_name}' must be a non-negative float, but got {value}.")
    return value


def check_positive_float(value: Any, arg_name: str, prim_name: str | None = None) -> float:
    """Return ``value`` as a float > 0.

    Raises:
        TypeError: when it is not a number.
        ValueError: when it is not positive.
    """
    value = check_float(value, arg_name, prim_name)
    if value <= 0:
        raise ValueError(f"{_prefix(prim_name)} '{arg_name}' must be a positive float, but got {value}.")
    return value


def check_string(value: Any, valid: Sequence[str], arg_name: str, prim_name: str | None = None) -> str:
    """Return ``value`` if it is one of ``valid``.

    Raises:
        ValueError: otherwise.
    """
    if not isinstance(value, str) or value not in valid:
        raise ValueError(f"{_prefix(prim_name)} '{arg_name}' must be str and must be in '{list(valid)}', but got "
                         f"{value!r}.")
    return value


def check_value_type(value: Any, valid_types: Iterable[type], arg_name: str, prim_name: str | None = None) -> Any:
    """Return ``value`` if it is an instance of one of ``valid_types`` (bool is not an int here).

    Raises:
        TypeError: otherwise.
    """
    valid_types = tuple(valid_types)
    bad = (isinstance(value, bool) and bool not in valid_types) or not isinstance(value, valid_types)
    if bad:
        names = [t.__name__ for t in valid_types]
        kind = f"one of {names}" if len(names) > 1 else f"'{names[0]}'"
        raise TypeError(f"{_prefix(prim_name)} type of '{arg_name}' should be {kind}, but got {value!r} of type "
                        f"'{type(value).__name__}'.")
    return value


def twice(value: Any, arg_name: str, prim_name: str | None = None, allow_zero: bool = False) -> tuple[int, int]:
    """Normalise an int or a pair of ints to a pair of positive (or, with ``allow_zero``, non-negative) ints.

    Raises:
        TypeError: when it is not an int or tuple of ints.
        ValueError: for a wrong length or a value out of range.
    """
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, tuple, list)):
        raise TypeError(f"{_prefix(prim_name)} '{arg_name}' must be an int or a tuple of two ints, but got "
                        f"{value!r} of type {type(value).__name__}.")
    pair = (value, value) if isinstance(value, numbers.Integral) else tuple(value)
    if len(pair) != 2:
        raise ValueError(f"{_prefix(prim_name)} '{arg_name}' must be an int or a tuple of two ints, but got "
                         f"{value!r}.")
    for item in pair:
        if isinstance(item, bool) or not isinstance(item, numbers.Integral) or item < (0 if allow_zero else 1):
            kind = "non-negative" if allow_zero else "positive"
            raise ValueError(f"{_prefix(prim_name)} '{arg_name}' must be a {kind} int or a tuple of two {kind} "
                             f"ints, but got {value!r}.")
    return int(pair[0]), int(pair[1])
