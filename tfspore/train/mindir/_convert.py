"""A MindIR file to TensorFlow's formats, without the network's Python code.

A TensorFlow user handed a ``.mindir`` (written by MindSpore or by tfspore) gets a SavedModel, a
TFLite model or an ONNX model of it: the file is loaded as ``load`` does (a graph of TensorFlow
ops over the file's weights) and written by the same writers as ``export(..., 'SAVEDMODEL' /
'TFLITE' / 'ONNX')`` (:mod:`tfspore.train.tf_export`). The inputs keep the MindIR's names
``input_0``, ``input_1``, ... order and shapes; the outputs are ``output_0``, ...

``tfspore convert model.mindir --to savedmodel|tflite|onnx OUT`` calls these functions.

Example:
    >>> mindir_to_savedmodel("lenet.mindir", "lenet_savedmodel")  # doctest: +SKIP
    '/abs/lenet_savedmodel'
"""
from __future__ import annotations

import os
from typing import Any, Optional

from tfspore.train import tf_export
from tfspore.train.mindir._load import load_graph_cell

__all__ = ["mindir_to_savedmodel", "mindir_to_tflite", "mindir_to_onnx"]


def mindir_to_savedmodel(mindir_path: str, out_dir: str, dec_key: Optional[bytes] = None,
                         dec_mode: Any = "AES-GCM") -> str:
    """Convert a MindIR file to a SavedModel directory with a ``serving_default`` signature.

    Args:
        mindir_path: the ``.mindir`` file.
        out_dir: the SavedModel directory; an existing one is replaced only once the new one is
            complete. Its parent must exist.
        dec_key: the key of an encrypted MindIR.
        dec_mode: its decryption mode ('AES-GCM', 'AES-CBC', 'SM4-CBC' or a callable).

    Returns:
        str: the absolute path of the SavedModel.

    Raises:
        ValueError: for a bad ``mindir_path`` (``load``'s checks) or ``out_dir``.
        RuntimeError: when the file cannot be read or uses an operator tfspore cannot run.
    """
    cell = load_graph_cell(mindir_path, dec_key, dec_mode, api="mindir_to_savedmodel")
    tf_export.export_savedmodel(cell, cell.graph.input_specs, out_dir)
    return os.path.abspath(out_dir)


def mindir_to_tflite(mindir_path: str, file_name: str, dec_key: Optional[bytes] = None,
                     dec_mode: Any = "AES-GCM") -> str:
    """Convert a MindIR file to a TFLite model (``file_name``, ``.tflite`` added if missing).

    Args:
        mindir_path: the ``.mindir`` file.
        file_name: the output file, replaced atomically.
        dec_key: the key of an encrypted MindIR.
        dec_mode: its decryption mode.

    Returns:
        str: the absolute path written.

    Raises:
        ValueError: for a bad ``mindir_path``.
        RuntimeError: when the file cannot be read or uses an operator tfspore cannot run.
    """
    cell = load_graph_cell(mindir_path, dec_key, dec_mode, api="mindir_to_tflite")
    return tf_export.export_tflite(cell, cell.graph.input_specs, file_name)


def mindir_to_onnx(mindir_path: str, file_name: str, dec_key: Optional[bytes] = None,
                   dec_mode: Any = "AES-GCM") -> str:
    """Convert a MindIR file to an ONNX model through ``tf2onnx`` (``.onnx`` added if missing).

    Args:
        mindir_path: the ``.mindir`` file.
        file_name: the output file, replaced atomically.
        dec_key: the key of an encrypted MindIR.
        dec_mode: its decryption mode.

    Returns:
        str: the absolute path written.

    Raises:
        ImportError: without ``tf2onnx`` (``pip install 'tfspore[onnx]'``).
        ValueError: for a bad ``mindir_path``.
        RuntimeError: when the file cannot be read or uses an operator tfspore cannot run.
    """
    cell = load_graph_cell(mindir_path, dec_key, dec_mode, api="mindir_to_onnx")
    return tf_export.export_onnx(cell, cell.graph.input_specs, file_name)
