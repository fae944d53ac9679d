"""Where the summary operators leave their values for ``SummaryRecord``: the cache and its switch.

``ops.ScalarSummary`` / ``ImageSummary`` / ``TensorSummary`` / ``HistogramSummary``
(``tfspore/ops/operations/_summary_ops.py``) write here, and
``tfspore.train.summary.SummaryRecord`` turns collection on while it is open and takes the values
at each ``record(step)``. Values come in two forms:

* PYNATIVE_MODE: ``[op_name, tag, value]`` entries in :data:`SUMMARY_TENSOR_CACHE`, checked when
  taken (:func:`check_summary_param`).
* GRAPH_MODE: ``{(op_name, tag): numpy value}`` in :data:`GRAPH_CACHE`, written by a host callback
  of the compiled step (the last value per tag and operator) and checked when traced.

A compiled step tests one boolean variable (:func:`flag`) to know whether anything is collecting.

This module stands one step above the others of ``tfspore._internal``: it reads
``tfspore.common.tensor`` (which does not import it).

Example:
    >>> set_active(True)
    >>> cache_summary_data("ScalarSummary", "loss", 1.0)
    >>> take_cache()
    ([['ScalarSummary', 'loss', 1.0]], [])
    >>> set_active(False)
"""
from __future__ import annotations

import threading
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore.common.tensor import Tensor

__all__ = ["SUMMARY_TENSOR_CACHE", "GRAPH_CACHE", "STATE", "cache_summary_data", "cache_graph_data", "take_cache",
           "clear_cache", "flag", "set_active", "is_active", "check_summary_param"]

#: ``[op_name, tag, value]`` entries of PYNATIVE calls since the last ``SummaryRecord.record``.
SUMMARY_TENSOR_CACHE: list = []
#: ``{(op_name, tag): numpy value}`` of the compiled operators since the last record.
GRAPH_CACHE: dict = {}
#: ``active``: the number of open SummaryRecords; ``flag``: the variable compiled ops test (made on first use).
STATE: dict = {"active": 0, "flag": None}
_LOCK = threading.Lock()


def cache_summary_data(op_name: str, tag: Any, value: Any) -> None:
    """Keep one PYNATIVE summary op call for the next record."""
    with _LOCK:
        SUMMARY_TENSOR_CACHE.append([op_name, tag, value])


def cache_graph_data(op_name: str, tag: str, array: np.ndarray) -> None:
    """Keep the value a compiled summary op handed to the host (replacing the previous one of its tag)."""
    with _LOCK:
        GRAPH_CACHE[(op_name, tag)] = array


def take_cache() -> tuple[list, list]:
    """Remove and return the cached entries: the PYNATIVE ``[op_name, tag, value]`` entries (to be checked),
    and the compiled operators' ``[op_name, tag, numpy value]`` entries (already checked)."""
    with _LOCK:
        entries = list(SUMMARY_TENSOR_CACHE)
        SUMMARY_TENSOR_CACHE.clear()
        compiled = [[op_name, tag, value] for (op_name, tag), value in GRAPH_CACHE.items()]
        GRAPH_CACHE.clear()
    return entries, compiled


def clear_cache() -> None:
    """Drop the cached entries."""
    with _LOCK:
        SUMMARY_TENSOR_CACHE.clear()
        GRAPH_CACHE.clear()


def flag() -> tf.Variable:
    """The variable compiled summary ops test; created outside any function on first use."""
    if STATE["flag"] is None:
        with tf.init_scope():
            STATE["flag"] = tf.Variable(STATE["active"] > 0, trainable=False, dtype=tf.bool, name="summary_active")
    return STATE["flag"]


def set_active(active: bool) -> None:
    """Turn collection on (a SummaryRecord opened) or off (it closed)."""
    STATE["active"] = max(0, STATE["active"] + (1 if active else -1))
    if STATE["flag"] is not None:
        with tf.init_scope():
            STATE["flag"].assign(STATE["active"] > 0)
    if not STATE["active"]:
        clear_cache()


def is_active() -> bool:
    """Whether a SummaryRecord is open."""
    return STATE["active"] > 0


def check_summary_param(op_name: str, tag: Any, value: Any) -> None:
    """Check one PYNATIVE summary op call at ``record``, as MindSpore does: the tag and the value's type
    (``SummaryRecord`` then checks the value's rank under the operator's name).

    Raises:
        TypeError: the tag is not a non-empty str, or the value is not a Tensor.
    """
    if not isinstance(tag, str) or not tag:
        raise TypeError(f'For "{op_name}", the name must be valid string, but got "{tag}".')
    if not isinstance(value, (Tensor, tf.Tensor, tf.Variable)):
        raise TypeError(f'For "{op_name}", the parameter "value" expect to be Tensor, but got {type(value).__name__}')
