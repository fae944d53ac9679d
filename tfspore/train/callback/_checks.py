"""Argument checks for the callbacks, with MindSpore's messages plus the value received.

MindSpore's callbacks validate through its generic validator, whose messages name "the input
value" rather than the argument (``The input value must be int and must >= 0, but got '-1' with
type 'int'.``). Users' scripts and logs match those texts, so they are kept; where MindSpore's
text leaves the value out, it is added as ``with value ...``.
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np

MAX_PATH_LENGTH = 4096


def _subject(arg_name: str | None) -> str:
    return f"The '{arg_name}'" if arg_name else "The input value"


def check_int_rel(value: Any, bound: int, rel: str, arg_name: str | None = None) -> int:
    """Check that ``value`` is an int with ``value <rel> bound`` (``rel`` is ``">="`` or ``">"``).

    Raises:
        TypeError: for a non-int (a bool is not an int here).
        ValueError: when the relation does not hold.
    """
    subject = _subject(arg_name)
    if not isinstance(value, int):
        raise TypeError(f"{subject} must be int, but got '{type(value).__name__}' with value {value!r}.")
    ok = value >= bound if rel == ">=" else value > bound
    if isinstance(value, bool) or not ok:
        msg = f"{subject} must be int and must {rel} {bound}, but got '{value}' with type '{type(value).__name__}'."
        raise TypeError(msg) if isinstance(value, bool) else ValueError(msg)
    return value


def check_non_negative_int(value: Any, arg_name: str | None = None) -> int:
    """Check that ``value`` is an int >= 0 (MindSpore's ``Validator.check_non_negative_int``)."""
    return check_int_rel(value, 0, ">=", arg_name)


def check_positive_int(value: Any, arg_name: str | None = None) -> int:
    """Check that ``value`` is an int > 0 (MindSpore's ``Validator.check_positive_int``)."""
    return check_int_rel(value, 0, ">", arg_name)


def check_bool(value: Any, arg_name: str | None = None) -> bool:
    """Check that ``value`` is a bool.

    Raises:
        TypeError: ``The 'x' must be a bool, but got int with value 1.``
    """
    if not isinstance(value, bool):
        raise TypeError(f"{_subject(arg_name)} must be a bool, but got {type(value).__name__} with value {value!r}.")
    return value


def check_isinstance(arg_name: str, value: Any, classes: Any) -> Any:
    """MindSpore's ``check_isinstance``: a ValueError naming the classes and the value."""
    if not isinstance(value, classes):
        raise ValueError(f"The parameter '{arg_name}' must be isinstance of {classes}, but got {value}.")
    return value


def check_value_type(arg_name: str, value: Any, valid_types: Any) -> Any:
    """MindSpore's ``check_value_type``: bool is not accepted as an int.

    Raises:
        TypeError: ``The type of 'monitor' should be 'str', but got type 'int' with value 1.``
    """
    valid_types = tuple(valid_types) if isinstance(valid_types, (list, tuple)) else (valid_types,)
    bad = (isinstance(value, bool) and bool not in valid_types) or not isinstance(value, valid_types)
    if bad:
        names = [t.__name__ for t in valid_types]
        kind = f"one of '{names}'" if len(names) > 1 else f"'{names[0]}'"
        raise TypeError(f"The type of '{arg_name}' should be {kind}, but got type '{type(value).__name__}' with "
                        f"value {value!r}.")
    return value


def check_open_float_range(value: Any, low: float, high: float, arg_name: str | None = None) -> Any:
    """Check ``low < value < high`` for a float (MindSpore's ``check_float_range`` with INC_NEITHER)."""
    subject = _subject(arg_name)
    if isinstance(value, bool) or not isinstance(value, (float, np.floating, np.ndarray)):
        raise TypeError(f"{subject} must be 'float',  but got '{type(value).__name__}' with value {value!r}.")
    if not low < value < high:
        raise ValueError(f"{subject} must be in range of ({low}, {high}), but got {value} with type "
                         f"'{type(value).__name__}'.")
    return value


def make_directory(path: Any, arg_name: str = "path") -> str:
    """Return the real path of ``path``, creating the directory (mode 0o700) when it is missing.

    Raises:
        TypeError: when ``path`` is not a str.
        ValueError: for a blank or too long path.
        NotADirectoryError: when ``path`` names a file.
    """
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str):
        raise TypeError(f"The {arg_name} is invalid, the type should be string, but got {path!r} of type "
                        f"{type(path).__name__}.")
    if path.strip() == "":
        raise ValueError(f"The {arg_name} is invalid, it should be non-blank, but got {path!r}.")
    path = os.path.realpath(path)
    if len(path) > MAX_PATH_LENGTH:
        raise ValueError(f"The {arg_name} length is too long, it should be limited in {MAX_PATH_LENGTH}, but got "
                         f"{len(path)}.")
    if os.path.exists(path):
        if not os.path.isdir(path):
            raise NotADirectoryError(f"The path({path}) is a file path, it should be a directory path.")
        return path
    os.makedirs(path, mode=0o700, exist_ok=True)
    return path
