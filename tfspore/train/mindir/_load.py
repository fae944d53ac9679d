"""``load(file_name, dec_key=..., dec_mode=...)``: MindSpore's checks, then the MindIR as a TensorFlow graph.

``tfspore.load`` (in :mod:`tfspore.train._export`) and the converters of
:mod:`tfspore.train.mindir._convert` share these steps: check the arguments with MindSpore's
messages and exception types, read the file (:mod:`._reader`), and build the runnable graph
(:mod:`._graph`). Failures to read are MindSpore's ``RuntimeError`` ("Load MindIR failed ...")
with the reason and the file named.

Example:
    >>> graph = load_mindir("lenet.mindir")
    >>> cell = nn.GraphCell(graph)
"""
from __future__ import annotations

import os
from typing import Any, Optional

from tfspore._internal import validator
from tfspore.nn import GraphCell
from tfspore.train import _crypto
from tfspore.train.mindir._graph import MindIRGraph
from tfspore.train.mindir._reader import read_model

__all__ = ["check_file_name", "load_mindir", "load_graph_cell"]


def check_file_name(file_name: Any, api: str = "load") -> str:
    """MindSpore's checks of a MindIR ``file_name``; returns it.

    Raises:
        ValueError: when it is not a string, does not end with '.mindir' or does not exist.
    """
    if not isinstance(file_name, str):
        raise ValueError(f"For '{api}', the argument 'file_name' must be string, but got {type(file_name)}.")
    if not file_name.endswith(".mindir"):
        raise ValueError(f"For '{api}', the argument 'file_name'(MindIR file) should end with '.mindir', please input "
                         f"the correct 'file_name', but got {file_name!r}.")
    if not os.path.exists(file_name):
        raise ValueError(f"For '{api}', the argument 'file_name'(MindIR file) does not exist, please check whether "
                         f"the 'file_name' is correct, but got {file_name!r}.")
    return file_name


def _check_decryption(dec_key: Any, dec_mode: Any, api: str) -> tuple:
    if dec_key is None:
        return None, "AES-GCM"
    dec_key = validator.check_isinstance(dec_key, bytes, "dec_key", api)
    if callable(dec_mode):
        return dec_key, dec_mode
    dec_mode = validator.check_isinstance(dec_mode, str, "dec_mode", api)
    _crypto.check_key_and_mode(dec_key, dec_mode, api, "dec_key", "dec_mode")
    return dec_key, dec_mode


def load_mindir(file_name: Any, dec_key: Optional[bytes] = None, dec_mode: Any = "AES-GCM",
                api: str = "load") -> MindIRGraph:
    """Load a MindIR file as a :class:`MindIRGraph` (what ``nn.GraphCell`` takes).

    Args:
        file_name: the ``.mindir`` file.
        dec_key: the key of an encrypted file (16, 24 or 32 bytes), or None.
        dec_mode: 'AES-GCM' (default), 'AES-CBC', 'SM4-CBC', or a callable ``(data, key) -> bytes``.
        api: the API named in errors.

    Returns:
        MindIRGraph: the graph, callable with its inputs.

    Raises:
        ValueError: for a bad ``file_name``, ``dec_key`` or ``dec_mode``.
        RuntimeError: when the file cannot be read (not a MindIR, truncated, wrong key, missing
            weight file) or applies an operator tfspore cannot run.
    """
    file_name = check_file_name(file_name, api)
    dec_key, dec_mode = _check_decryption(dec_key, dec_mode, api)
    path = os.path.realpath(file_name)
    if os.path.isdir(path):
        raise RuntimeError(f"Load MindIR failed: {file_name!r} is a directory.")
    return MindIRGraph(read_model(path, dec_key, dec_mode))


def load_graph_cell(file_name: Any, dec_key: Optional[bytes] = None, dec_mode: Any = "AES-GCM",
                    api: str = "load") -> Any:
    """``nn.GraphCell(load_mindir(...))``, in inference mode."""
    cell = GraphCell(load_mindir(file_name, dec_key, dec_mode, api))
    cell.set_train(False)
    return cell
