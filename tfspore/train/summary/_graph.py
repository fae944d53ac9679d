"""The TensorFlow graph of a compiled Cell, for TensorBoard's Graphs dashboard.

Example:
    >>> from tfspore.train.summary._graph import graph_def_bytes
    >>> graph_def_bytes(net)  # None until net has run (or been compiled) in GRAPH_MODE
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf
from tensorboard.compat.proto import graph_pb2

__all__ = ["graph_def_bytes", "to_graph_def_bytes"]


def _concrete_functions(fn: Any) -> list:
    for name in ("_list_all_concrete_functions", "_list_all_concrete_functions_for_serialization"):
        lister = getattr(fn, name, None)
        if lister is not None:
            try:
                return list(lister())
            except (TypeError, ValueError, AttributeError):
                continue
    return []


def graph_def_bytes(cell: Any) -> bytes | None:
    """The serialized ``GraphDef`` of the cell's most recently compiled construct, or None if it never ran
    compiled (PYNATIVE_MODE)."""
    compiled = getattr(cell, "__dict__", {}).get("_compiled") or {}
    for fn in reversed(list(compiled.values())):
        functions = _concrete_functions(fn)
        if functions:
            return functions[-1].graph.as_graph_def().SerializeToString()
    return None


def to_graph_def_bytes(value: Any) -> bytes:
    """The serialized ``GraphDef`` of an ``add_value('graph', ...)`` value.

    Args:
        value: a ``GraphDef`` (TensorFlow's or TensorBoard's), its serialized bytes, a ``tf.Graph``,
            a concrete function (``Cell.compile(...)``), or a Cell that has run in GRAPH_MODE.

    Raises:
        TypeError: any other value, or a Cell that was never compiled.
        google.protobuf.message.DecodeError: bytes that are not a ``GraphDef``.
    """
    if isinstance(value, (bytes, bytearray)):
        graph_pb2.GraphDef.FromString(bytes(value))  # parsed now, so a bad value fails at add_value
        return bytes(value)
    if isinstance(value, tf.Graph):
        return value.as_graph_def().SerializeToString()
    graph = getattr(value, "graph", None)
    if isinstance(graph, tf.Graph):
        return graph.as_graph_def().SerializeToString()
    if type(value).__name__ == "GraphDef" and hasattr(value, "SerializeToString"):
        return value.SerializeToString()
    if hasattr(value, "cells_and_names"):
        data = graph_def_bytes(value)
        if data is not None:
            return data
        raise TypeError(f"Plugin 'graph' expects a GraphDef value, but the Cell '{type(value).__name__}' has no "
                        "compiled graph: run it once in GRAPH_MODE first.")
    raise TypeError(f"Plugin 'graph' expects a GraphDef value, but got {type(value).__name__}.")
