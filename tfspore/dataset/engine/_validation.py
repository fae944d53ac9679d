"""Argument checks of the dataset API.

Errors name the API (the dataset class or ``Class.method``), the argument and the value,
in MindSpore's phrasing plus the value received.
"""
from __future__ import annotations

import numbers
from typing import Any, List, Optional, Sequence

INT32_MAX = 2147483647
INT64_MAX = 9223372036854775807


def is_int(value: Any) -> bool:
    """True for Python and numpy ints, False for bools."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_type(value: Any, types: tuple, name: str, api: str) -> None:
    """Raise TypeError unless `value` is an instance of `types` (bools never count as ints)."""
    if isinstance(value, bool) and bool not in types:
        ok = False
    else:
        ok = isinstance(value, types)
    if not ok:
        names = ", ".join(t.__name__ for t in types)
        raise TypeError(f"For '{api}', the argument '{name}' must be of type [{names}], but got {value!r} "
                        f"with type {type(value).__name__}.")


def check_int_range(value: Any, name: str, api: str, low: int, high: int, *, left_open: bool = False) -> int:
    """Check an int lies in ``[low, high]`` (or ``(low, high]``) and return it as a Python int."""
    if not is_int(value):
        raise TypeError(f"For '{api}', the argument '{name}' must be of type int, but got {value!r} "
                        f"with type {type(value).__name__}.")
    value = int(value)
    bad = value <= low if left_open else value < low
    if bad or value > high:
        bracket = "(" if left_open else "["
        raise ValueError(f"For '{api}', input {name} is not within the required interval of "
                         f"{bracket}{low}, {high}], but got {value}.")
    return value


def check_pos_int32(value: Any, name: str, api: str) -> int:
    """Check ``1 <= value <= 2**31 - 1``."""
    return check_int_range(value, name, api, 1, INT32_MAX)


def check_bool(value: Any, name: str, api: str) -> bool:
    """Check `value` is a bool."""
    if not isinstance(value, bool):
        raise TypeError(f"For '{api}', the argument '{name}' must be of type bool, but got {value!r} "
                        f"with type {type(value).__name__}.")
    return value


def check_num_samples(value: Any, api: str) -> Optional[int]:
    """None, or an int in ``[0, INT64_MAX]``."""
    if value is None:
        return None
    if not is_int(value):
        raise TypeError(f"For '{api}', the argument 'num_samples' must be of type int, but got {value!r} "
                        f"with type {type(value).__name__}.")
    if value < 0 or value > INT64_MAX:
        raise ValueError(f"For '{api}', num_samples exceeds the boundary between 0 and {INT64_MAX}(INT64_MAX), "
                         f"but got {value}.")
    return int(value)


def check_num_parallel_workers(value: Any, api: str) -> Optional[int]:
    """None, or a positive int (tf.data decides the real parallelism)."""
    if value is None:
        return None
    return check_int_range(value, "num_parallel_workers", api, 1, INT32_MAX)


def check_shard_options(api: str, num_samples: Any, shuffle: Any, sampler: Any, num_shards: Any,
                        shard_id: Any) -> None:
    """MindSpore's checks of num_samples / shuffle / sampler / num_shards / shard_id."""
    check_num_samples(num_samples, api)
    if (num_shards is None) != (shard_id is None):
        raise ValueError(f"For '{api}', num_shards and shard_id need to be passed in together, "
                         f"but got num_shards={num_shards!r} and shard_id={shard_id!r}.")
    if num_shards is not None:
        check_pos_int32(num_shards, "num_shards", api)
        if not is_int(shard_id):
            raise TypeError(f"For '{api}', the argument 'shard_id' must be of type int, but got {shard_id!r} "
                            f"with type {type(shard_id).__name__}.")
        if shard_id < 0:
            raise ValueError(f"For '{api}', input shard_id is not within the required interval of "
                             f"[0, {num_shards - 1}], but got {shard_id}.")
        if shard_id >= num_shards:
            raise ValueError(f"For '{api}', shard_id should be less than num_shards, but got shard_id={shard_id} "
                             f"and num_shards={num_shards}.")
    if shuffle is not None and not isinstance(shuffle, bool):
        from tfspore.dataset.engine.samplers import Shuffle  # pylint: disable=import-outside-toplevel
        if not isinstance(shuffle, Shuffle):
            raise TypeError(f"For '{api}', the argument 'shuffle' must be of type [bool, Shuffle], but got "
                            f"{shuffle!r} with type {type(shuffle).__name__}.")
    if sampler is not None:
        if shuffle is not None:
            raise RuntimeError(f"For '{api}', sampler and shuffle cannot be specified at the same time, "
                               f"but got shuffle={shuffle!r}.")
        if num_shards is not None:
            raise RuntimeError(f"For '{api}', sampler and sharding cannot be specified at the same time, "
                               f"but got num_shards={num_shards!r}.")
        if num_samples is not None:
            raise RuntimeError(f"For '{api}', sampler and num_samples cannot be specified at the same time, "
                               f"but got num_samples={num_samples!r}.")


def check_columns(columns: Any, name: str, api: str, *, allow_none: bool = False) -> Optional[List[str]]:
    """A str or a non-empty list of non-empty, distinct str; returned as a list."""
    if columns is None and allow_none:
        return None
    if isinstance(columns, str):
        columns = [columns]
    elif isinstance(columns, tuple):
        columns = list(columns)
    if not isinstance(columns, list):
        raise TypeError(f"For '{api}', the argument '{name}' must be of type [list, str], but got {columns!r} "
                        f"with type {type(columns).__name__}.")
    if not columns:
        raise ValueError(f"For '{api}', {name} should not be empty, but got {columns!r}.")
    for i, col in enumerate(columns):
        if not isinstance(col, str):
            raise TypeError(f"For '{api}', the argument '{name}[{i}]' must be of type str, but got {col!r} "
                            f"with type {type(col).__name__}.")
        if not col:
            raise ValueError(f"For '{api}', {name}[{i}] should not be empty, but got {columns!r}.")
    dup = sorted({c for c in columns if columns.count(c) > 1})
    if dup:
        raise ValueError(f"For '{api}', every column name in {name} should not be duplicated, "
                         f"but got {columns!r} (duplicated: {dup}).")
    return columns


def check_known_columns(columns: Sequence[str], available: Sequence[str], name: str, api: str) -> None:
    """Raise RuntimeError (MindSpore reports these at execution) for a column that does not exist."""
    for col in columns:
        if col not in available:
            raise RuntimeError(f"For '{api}', the column '{col}' in '{name}' does not exist in the dataset; "
                               f"{name}={list(columns)!r}, available columns: {list(available)!r}.")
