"""Directories written by the callbacks (checkpoints, summaries, landscapes, exit snapshots)."""
from __future__ import annotations

import os
from typing import Any, Optional

from tfspore._internal import validator

MAX_PATH_LENGTH = 4096


def make_directory(path: Any, arg_name: str = "path", api: Optional[str] = None) -> str:
    """Return the real path of ``path``, creating the directory (mode 0o700) when it is missing.

    With ``api``, a path that is not a str raises the validator's message naming ``api`` and
    ``arg_name``.

    Raises:
        TypeError: when ``path`` is not a str.
        ValueError: for a blank or too long path.
        NotADirectoryError: when ``path`` names a file.
    """
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str) and api is not None:
        raise validator.type_error(path, arg_name, api, "a str")
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
