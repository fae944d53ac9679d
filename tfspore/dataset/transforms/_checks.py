"""Argument checks of the transforms.

Errors name the transform, the argument and the value, in MindSpore's phrasing plus the value:
``For 'Resize', input size at dim 0 is not within the required interval of [1, 2147483647], but got 0.``
"""
from __future__ import annotations

import numbers
from typing import Any, Optional, Sequence, Tuple

UINT8_MAX = 255
INT32_MAX = 2147483647
INT32_MIN = -2147483648
FLOAT_MAX_INTEGER = 16777216
FLOAT32_MAX = 3.4028234663852886e38


def _type_names(types: tuple) -> str:
    return ", ".join(t.__name__ for t in types)


def check_type(value: Any, types: tuple, name: str, api: str) -> None:
    """Raise TypeError unless `value` is an instance of `types` (a bool is not an int)."""
    ok = isinstance(value, types)
    if isinstance(value, bool) and bool not in types:
        ok = False
    if not ok:
        raise TypeError(f"For '{api}', the argument '{name}' must be of type [{_type_names(types)}], "
                        f"but got {value!r} with type {type(value).__name__}.")


def check_value(value: Any, low: float, high: float, name: str, api: str, *, left_open: bool = False,
                right_open: bool = False) -> None:
    """Raise ValueError unless ``low <= value <= high`` (with optional open ends)."""
    bad_low = value <= low if left_open else value < low
    bad_high = value >= high if right_open else value > high
    if bad_low or bad_high:
        left = "(" if left_open else "["
        right = ")" if right_open else "]"
        raise ValueError(f"For '{api}', input {name} is not within the required interval of "
                         f"{left}{low}, {high}{right}, but got {value!r}.")


def check_int(value: Any, low: int, high: int, name: str, api: str) -> int:
    """An int in ``[low, high]``."""
    check_type(value, (int,), name, api)
    check_value(value, low, high, name, api)
    return int(value)


def check_number(value: Any, name: str, api: str, low: float = -FLOAT32_MAX, high: float = FLOAT32_MAX) -> float:
    """A real number (not a bool) in ``[low, high]``."""
    check_type(value, (numbers.Real,), name, api)
    check_value(value, low, high, name, api)
    return float(value)


def check_prob(prob: Any, api: str) -> float:
    """A probability in ``[0, 1]``."""
    check_type(prob, (float, int), "prob", api)
    check_value(prob, 0.0, 1.0, "prob", api)
    return float(prob)


def check_size(size: Any, api: str, name: str = "size", high: int = FLOAT_MAX_INTEGER,
               pair_high: Optional[int] = None) -> Tuple[int, ...]:
    """An int or a ``(h, w)`` pair of positive ints; returns a tuple of one or two ints."""
    check_type(size, (int, list, tuple), name, api)
    if isinstance(size, int):
        check_value(size, 1, high, name, api)
        return (int(size),)
    if len(size) != 2:
        raise TypeError(f"For '{api}', the argument '{name}' should be a single integer or a list/tuple (h, w) "
                        f"of length 2, but got {size!r}.")
    for i, value in enumerate(size):
        check_type(value, (int,), f"{name} at dim {i}", api)
        check_value(value, 1, pair_high or high, f"{name} at dim {i}", api)
    return (int(size[0]), int(size[1]))


def check_fill_value(fill_value: Any, api: str) -> Tuple[int, ...]:
    """An int in [0, 255] or a 3-tuple of them; returns a 3-tuple."""
    if isinstance(fill_value, int) and not isinstance(fill_value, bool):
        check_value(fill_value, 0, UINT8_MAX, "fill_value", api)
        return (int(fill_value),) * 3
    if isinstance(fill_value, tuple) and len(fill_value) == 3:
        for i, value in enumerate(fill_value):
            check_type(value, (int,), f"fill_value[{i}]", api)
            check_value(value, 0, UINT8_MAX, f"fill_value[{i}]", api)
        return tuple(int(x) for x in fill_value)
    raise TypeError(f"For '{api}', the argument 'fill_value' should be a single integer or a 3-tuple, "
                    f"but got {fill_value!r}.")


def parse_padding(padding: Any, api: str) -> Tuple[int, int, int, int]:
    """MindSpore's padding: an int, (left/right, top/bottom) or (left, top, right, bottom).

    Returns:
        ``(left, top, right, bottom)``.
    """
    check_type(padding, (int, list, tuple), "padding", api)
    if isinstance(padding, int):
        check_value(padding, 0, INT32_MAX, "padding", api)
        return (padding,) * 4
    if len(padding) not in (2, 4):
        raise ValueError(f"For '{api}', the size of the padding list or tuple should be 2 or 4, "
                         f"but got {padding!r}.")
    for i, value in enumerate(padding):
        check_type(value, (int,), f"padding[{i}]", api)
        check_value(value, 0, INT32_MAX, f"padding[{i}]", api)
    if len(padding) == 2:
        return (padding[0], padding[1], padding[0], padding[1])
    return tuple(int(p) for p in padding)  # type: ignore[return-value]


def check_range_pair(value: Any, name: str, api: str, low: float = 0.0, high: float = FLOAT_MAX_INTEGER
                     ) -> Tuple[float, float]:
    """A ``(min, max)`` pair of numbers with ``low <= min <= max <= high``."""
    check_type(value, (list, tuple), name, api)
    if len(value) != 2:
        raise TypeError(f"For '{api}', the argument '{name}' should be a list/tuple of length 2, but got {value!r}.")
    for i, item in enumerate(value):
        check_type(item, (int, float), f"{name}[{i}]", api)
    if value[0] > value[1]:
        raise ValueError(f"For '{api}', {name} should be in (min,max) format, but got {tuple(value)!r}.")
    if not low <= value[0] <= value[1] <= high:
        raise ValueError(f"For '{api}', input {name} is not within the required interval of [{low}, {high}], "
                         f"but got {tuple(value)!r}.")
    return (float(value[0]), float(value[1]))


def check_transforms_list(transforms: Any, api: str) -> Sequence[Any]:
    """A non-empty list of transforms or callables."""
    check_type(transforms, (list,), "transforms", api)
    if not transforms:
        raise ValueError(f"For '{api}', the transforms list can not be empty, but got {transforms!r}.")
    for i, op in enumerate(transforms):
        if isinstance(op, type):
            raise ValueError(f"For '{api}', transforms[{i}] should be a dataset processing operation instance, "
                             f"but got: {op}. It may be missing parentheses for instantiation.")
        if not callable(op) and not hasattr(op, "_tf_apply"):
            raise TypeError(f"For '{api}', transforms[{i}] is neither a transform nor a Python callable, "
                            f"but got {op!r} with type {type(op).__name__}.")
    return transforms
