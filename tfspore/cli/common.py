"""What the ``tfspore ckpt|export|convert`` commands share: their error type, checkpoint reading,
name maps, layouts and the argument parser that reports a bad argument in one line.

A command's bad input (a missing file, a wrong input shape, a checkpoint that does not match the
network) raises :class:`ToolError` with a message naming the command, the argument and the value;
:func:`run_tool` prints it as one line on stderr and returns exit status 2, with no traceback.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import Any, Callable, Iterable, NoReturn, Optional, Sequence

import numpy as np

from tfspore.train.serialization import load_checkpoint, save_checkpoint

__all__ = ["ToolError", "ArgumentParser", "run_tool", "parse_key", "checkpoint_format", "read_checkpoint",
           "write_checkpoint", "load_name_map", "load_name_list", "to_keras_layout", "from_keras_layout",
           "select", "check_output_dir", "first_line", "ENC_MODES"]

ENC_MODES = ("AES-GCM", "AES-CBC", "SM4-CBC")


class ToolError(Exception):
    """A bad argument or input file; the message names the command, the argument and the value."""


class ArgumentParser(argparse.ArgumentParser):
    """``argparse`` whose usage errors are one line (``PROG: error: ...; see --help``) and exit 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message} (see {self.prog} --help)\n")
        sys.exit(2)


def first_line(error: BaseException) -> str:
    """The first non-empty line of an exception's message, prefixed by its type."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}".rstrip(": ")


def run_tool(main: Callable[[Optional[Sequence[str]]], Any], argv: Optional[Sequence[str]] = None) -> int:
    """Run a command's ``main``; a :class:`ToolError` prints ``error: <message>`` and gives 2.

    Args:
        main: the command's entry point, taking the argument list.
        argv: the arguments (None: ``sys.argv[1:]``).

    Returns:
        int: 0 on success, 2 for a bad argument, else the ``SystemExit`` code of ``main``.
    """
    try:
        main(None if argv is None else list(argv))
    except ToolError as e:
        sys.stderr.write(f"error: {e}\n")
        return 2
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    return 0


def parse_key(tool: str, key: Optional[str], name: str = "key") -> Optional[bytes]:
    """Turn a hex string (``--dec_key`` / ``--enc_key``) into bytes of 16, 24 or 32."""
    if key is None:
        return None
    try:
        raw = bytes.fromhex(key)
    except ValueError:
        raise ToolError(f"{tool}: the argument '{name}' must be a hex string of 16, 24 or 32 bytes, "
                        f"but got {key!r}.") from None
    if len(raw) not in (16, 24, 32):
        raise ToolError(f"{tool}: the argument '{name}' must be 16, 24 or 32 bytes long, but got "
                        f"{len(raw)} bytes.")
    return raw


def checkpoint_format(path: str) -> str:
    """``'safetensors'`` for a ``.safetensors`` path, else ``'ckpt'``."""
    return "safetensors" if path.endswith(".safetensors") else "ckpt"


def read_checkpoint(tool: str, path: str, dec_key: Optional[bytes] = None, dec_mode: str = "AES-GCM",
                    arg: str = "ckpt") -> dict:
    """Read a ``.ckpt`` or ``.safetensors`` file into ``{name: numpy array or str}``, in file order.

    Args:
        tool: the command named in errors.
        path: the checkpoint file; ``.safetensors`` files are read as safetensors.
        dec_key, dec_mode: decryption of an encrypted ``.ckpt``.
        arg: the argument named in errors.

    Raises:
        ToolError: for a missing or unreadable file.
    """
    if not os.path.isfile(path):
        raise ToolError(f"{tool}: the argument '{arg}' must be an existing .ckpt file (or .safetensors "
                        f"file), but got {path!r}.")
    fmt = checkpoint_format(path)
    if fmt == "safetensors" and dec_key is not None:
        raise ToolError(f"{tool}: the argument 'dec_key' is for encrypted .ckpt files; a .safetensors file "
                        f"is never encrypted, but got {path!r}.")
    try:
        if fmt == "safetensors":
            params = load_checkpoint(path, format="safetensors")
        else:
            params = load_checkpoint(path, dec_key=dec_key, dec_mode=dec_mode)
    except (ValueError, TypeError, RuntimeError, OSError) as e:
        raise ToolError(f"{tool}: cannot read the checkpoint {path!r} (argument '{arg}'): "
                        f"{first_line(e)}") from e
    out = {}
    for name, value in params.items():
        out[name] = value if isinstance(value, str) else np.asarray(
            value.asnumpy() if hasattr(value, "asnumpy") else value)
    return out


def write_checkpoint(tool: str, entries: dict, output: str, enc_key: Optional[bytes] = None,
                     enc_mode: str = "AES-GCM", crc_check: bool = False) -> str:
    """Write ``{name: array or str}`` as a ``.ckpt`` (or, for a ``.safetensors`` path, safetensors) file.

    The file is written atomically by ``save_checkpoint``. Returns the path written.
    """
    fmt = checkpoint_format(output)
    if fmt == "safetensors":
        if enc_key is not None:
            raise ToolError(f"{tool}: the argument 'enc_key' cannot encrypt a .safetensors file "
                            f"({output!r}); write a .ckpt file instead.")
        strings = [n for n, v in entries.items() if isinstance(v, str)]
        if strings:
            raise ToolError(f"{tool}: a .safetensors file holds no str values, but {strings[0]!r} is one "
                            f"(argument 'output' {output!r}); leave it out with --include or write a .ckpt file.")
        save_checkpoint(entries, output, format="safetensors")
        return output
    save_checkpoint(entries, output, enc_key=enc_key, enc_mode=enc_mode, crc_check=crc_check)
    return output if output.endswith(".ckpt") else output + ".ckpt"


def load_name_map(tool: str, path: Optional[str], arg: str = "name_map") -> dict:
    """Read a JSON object ``{name: new name}`` (``--name_map``)."""
    if path is None:
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            mapping = json.load(f)
    except (OSError, ValueError) as e:
        raise ToolError(f"{tool}: the argument '{arg}' must be a JSON file of {{old: new}} names, but "
                        f"reading {path!r} failed: {first_line(e)}") from e
    if not isinstance(mapping, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                for k, v in mapping.items()):
        raise ToolError(f"{tool}: the argument '{arg}' must hold a JSON object of str to str, but "
                        f"{path!r} holds {type(mapping).__name__}.")
    return mapping


def load_name_list(tool: str, path: Optional[str], arg: str = "transpose") -> list:
    """Read a list of names: a JSON list, or a text file with one name a line (``#`` starts a comment)."""
    if path is None:
        return []
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ToolError(f"{tool}: the argument '{arg}' must be a file of names, but reading {path!r} "
                        f"failed: {first_line(e)}") from e
    if text.lstrip().startswith("["):
        try:
            names = json.loads(text)
        except ValueError as e:
            raise ToolError(f"{tool}: the argument '{arg}' ({path!r}) is not a valid JSON list: "
                            f"{first_line(e)}") from e
        if not all(isinstance(n, str) for n in names):
            raise ToolError(f"{tool}: the argument '{arg}' ({path!r}) must list str names only.")
        return names
    return [line.split("#", 1)[0].strip() for line in text.splitlines() if line.split("#", 1)[0].strip()]


def to_keras_layout(name: str, value: np.ndarray) -> np.ndarray:
    """MindSpore layout to Keras layout: Conv ``(O, I/g, *k)`` to ``(*k, I/g, O)``, Dense ``(O, I)`` to ``(I, O)``.

    Only ``*weight`` entries of rank 2 or more change; BatchNorm and bias vectors are the same in both.
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


def select(names: Iterable[str], include: Optional[str], tool: str = "") -> list:
    """Names matching the ``--include`` regular expression (all when it is None)."""
    if include is None:
        return list(names)
    try:
        pattern = re.compile(include)
    except re.error as e:
        where = f"{tool}: the" if tool else "The"
        raise ToolError(f"{where} argument 'include' must be a regular expression, but got {include!r}: {e}") from e
    return [n for n in names if pattern.search(n)]


def check_output_dir(tool: str, path: str, create: bool = False, arg: str = "output") -> str:
    """Check that the directory of an output path exists (or create it) and is writable."""
    directory = os.path.dirname(os.path.abspath(path))
    if create:
        try:
            os.makedirs(directory, exist_ok=True)
        except OSError as e:
            raise ToolError(f"{tool}: cannot create the directory of the argument '{arg}' ({path!r}): {e}") from e
    if not os.path.isdir(directory):
        raise ToolError(f"{tool}: the directory of the argument '{arg}' must exist, but got {path!r}.")
    if not os.access(directory, os.W_OK):
        raise ToolError(f"{tool}: the directory of the argument '{arg}' must be writable, but got {path!r}.")
    return path
