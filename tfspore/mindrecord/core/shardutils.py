"""MindRecord constants, status values and file-name checks (``mindspore.mindrecord.core.shardutils``)."""
from __future__ import annotations

import os
from typing import Any

from tfspore.mindrecord.common.exceptions import ParamValueError

__all__ = ["SUCCESS", "FAILED", "MIN_HEADER_SIZE", "MAX_HEADER_SIZE", "MIN_PAGE_SIZE", "MAX_PAGE_SIZE",
           "MIN_SHARD_COUNT", "MAX_SHARD_COUNT", "MIN_CONSUMER_COUNT", "DEFAULT_HEADER_SIZE", "DEFAULT_PAGE_SIZE",
           "VALUE_TYPE_MAP", "VALID_ATTRIBUTES", "VALID_ARRAY_ATTRIBUTES", "check_filename", "max_consumer_count"]

SUCCESS = 0
FAILED = 1

MIN_HEADER_SIZE = 16 * 1024
MAX_HEADER_SIZE = 128 * 1024 * 1024
MIN_PAGE_SIZE = 32 * 1024
MAX_PAGE_SIZE = 256 * 1024 * 1024
DEFAULT_HEADER_SIZE = 16 * 1024 * 1024
DEFAULT_PAGE_SIZE = 32 * 1024 * 1024
MIN_SHARD_COUNT = 1
MAX_SHARD_COUNT = 1000
MIN_CONSUMER_COUNT = 1

# Python value type name -> schema types it may fill.
VALUE_TYPE_MAP = {"int": ("int32", "int64"), "float": ("float32", "float64"), "str": ("string",),
                  "bytes": ("bytes",), "int32": ("int32",), "int64": ("int64",), "float32": ("float32",),
                  "float64": ("float64",), "ndarray": ("int32", "int64", "float32", "float64")}
VALID_ATTRIBUTES = ("int32", "int64", "float32", "float64", "string", "bytes")
VALID_ARRAY_ATTRIBUTES = ("int32", "int64", "float32", "float64")


def max_consumer_count() -> int:
    """The largest `num_consumer` a reader accepts (the machine's CPU count)."""
    return os.cpu_count() or 1


def check_filename(path: Any, arg_name: str = "") -> bool:
    """Check a MindRecord file path as MindSpore does.

    Args:
        path: The path.
        arg_name: The argument's name for the message.

    Returns:
        True.

    Raises:
        ParamValueError: If the path is empty, not a str, ends with '/', or its name has a
            forbidden character or starts/ends with a space.
    """
    label = f"'{arg_name}'" if arg_name else "File path"
    if not path:
        raise ParamValueError(f"{label} is not allowed None or empty!")
    if not isinstance(path, str):
        raise ParamValueError(f"File path: {path} is not string.")
    if path.endswith("/"):
        raise ParamValueError("File path can not end with '/'")
    name = os.path.basename(path)
    if set(name) & set(r'\/:*?"<>|`&\';'):
        raise ParamValueError(r"File name should not contains \/:*?\"<>|`&;\'" + f", but got {path!r}.")
    if name.startswith(" ") or name.endswith(" "):
        raise ParamValueError(f"File name should not start/end with space, but got {path!r}.")
    return True
