"""Shared helpers of the checkpoint tools: reading a ``.ckpt`` to numpy and the layout maps."""
from __future__ import annotations

import json
import os
import re
import sys
from typing import Iterable

import numpy as np

# The tools run as plain scripts too: make the repository importable.
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)


class ToolError(Exception):
    """A bad argument or input file; the message names the tool, the argument and the value."""


def parse_key(tool: str, key: str | None) -> bytes | None:
    """Turn a hex string (``--dec_key`` / ``--enc_key``) into bytes."""
    if key is None:
        return None
    try:
        raw = bytes.fromhex(key)
    except ValueError:
        raise ToolError(f"{tool}: the argument 'key' must be a hex string of 16, 24 or 32 bytes, "
                        f"but got {key!r}.") from None
    if len(raw) not in (16, 24, 32):
        raise ToolError(f"{tool}: the argument 'key' must be 16, 24 or 32 bytes long, but got "
                        f"{len(raw)} bytes.")
    return raw


def read_ckpt(tool: str, path: str, dec_key: bytes | None = None, dec_mode: str = "AES-GCM") -> dict:
    """Read a MindSpore ``.ckpt`` file into ``{name: numpy array or str}``, in file order."""
    from tfspore.train.serialization import load_checkpoint
    if not os.path.isfile(path):
        raise ToolError(f"{tool}: the argument 'ckpt' must be an existing .ckpt file, but got {path!r}.")
    try:
        params = load_checkpoint(path, dec_key=dec_key, dec_mode=dec_mode)
    except (ValueError, TypeError) as e:
        raise ToolError(f"{tool}: cannot read the checkpoint {path!r}: {e}") from e
    out = {}
    for name, value in params.items():
        out[name] = value if isinstance(value, str) else np.asarray(
            value.asnumpy() if hasattr(value, "asnumpy") else value)
    return out


def load_name_map(tool: str, path: str | None) -> dict:
    """Read a JSON ``{old name: new name}`` file (``--name_map``)."""
    if path is None:
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            mapping = json.load(f)
    except (OSError, ValueError) as e:
        raise ToolError(f"{tool}: the argument 'name_map' must be a JSON file of {{old: new}} names, but "
                        f"reading {path!r} failed: {e}") from e
    if not isinstance(mapping, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                for k, v in mapping.items()):
        raise ToolError(f"{tool}: the argument 'name_map' must hold a JSON object of str to str, but "
                        f"{path!r} holds {type(mapping).__name__}.")
    return mapping


def to_keras_layout(name: str, value: np.ndarray) -> np.ndarray:
    """MindSpore layout to Keras layout: Conv ``(O, I/g, *k)`` to ``(*k, I/g, O)``, Dense ``(O, I)`` to ``(I, O)``.

    Only ``*.weight`` entries change; BatchNorm and bias vectors are the same in both.
    """
    if not name.endswith("weight") or value.ndim < 2:
        return value
    if value.ndim == 2:
        return value.T
    return np.transpose(value, tuple(range(2, value.ndim)) + (1, 0))


def from_keras_layout(name: str, value: np.ndarray) -> np.ndarray:
    """The inverse of :func:`to_keras_layout`."""
    if not name.endswith("weight") or value.ndim < 2:
        return value
    if value.ndim == 2:
        return value.T
    k = value.ndim - 2
    return np.transpose(value, (k + 1, k) + tuple(range(k)))


def select(names: Iterable[str], include: str | None) -> list:
    """Names matching the ``--include`` regex (all when it is None)."""
    if include is None:
        return list(names)
    try:
        pattern = re.compile(include)
    except re.error as e:
        raise ToolError(f"The argument 'include' must be a regular expression, but got {include!r}: {e}") from e
    return [n for n in names if pattern.search(n)]


def check_output_dir(tool: str, path: str, create: bool = False) -> str:
    """Check that the directory of an output path exists (or create it) and is writable."""
    directory = os.path.dirname(os.path.abspath(path))
    if create:
        try:
            os.makedirs(directory, exist_ok=True)
        except OSError as e:
            raise ToolError(f"{tool}: cannot create the directory of the argument 'output' ({path!r}): {e}") from e
    if not os.path.isdir(directory):
        raise ToolError(f"{tool}: the directory of the argument 'output' must exist, but got {path!r}.")
    if not os.access(directory, os.W_OK):
        raise ToolError(f"{tool}: the directory of the argument 'output' must be writable, but got {path!r}.")
    return path


def main_wrapper(fn, argv=None) -> int:
    """Run a tool's ``main``; a :class:`ToolError` prints its message and exits with 2."""
    try:
        fn(argv)
    except ToolError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0
