"""The float-status register of Ascend's ``NPUClearFloatStatus`` / ``NPUGetFloatStatus``, on TensorFlow.

On Ascend, clearing the status register and reading it after the gradient computation tells
whether any float operation in between overflowed (the status sums to more than 0). TensorFlow
has no such register: instead, while a status is open (from ``NPUClearFloatStatus`` until the
next one), every differentiation (``GradOperation``, ``grad``, ``value_and_grad``) records
whether its outputs or gradients hold an inf or NaN, and ``NPUGetFloatStatus`` reads those
flags. This is the check the zoo's GPU branch does on the same gradients (``FloatStatus``).

The flags live per thread (each ``tf.distribute`` replica runs in its own thread) and are
scalar bool tensors of the graph being traced (GRAPH_MODE) or eager values (PYNATIVE_MODE);
``status`` reads only the flags usable where it is called.
"""
from __future__ import annotations

import threading
from typing import Sequence

import tensorflow as tf

__all__ = ["clear", "record", "status"]

_local = threading.local()


def clear() -> None:
    """Open a new status: forget the flags recorded so far and record the following ones."""
    _local.flags = []


def record(tensors: Sequence[tf.Tensor]) -> None:
    """Record whether ``tensors`` (a differentiation's outputs and gradients) hold an inf or NaN.

    Does nothing while no status is open, so differentiation outside the Ascend loss-scale
    pattern costs nothing.
    """
    flags = getattr(_local, "flags", None)
    if flags is None:
        return
    bad = [tf.logical_not(tf.reduce_all(tf.math.is_finite(t))) for t in tensors
           if isinstance(t, (tf.Tensor, tf.Variable)) and (t.dtype.is_floating or t.dtype.is_complex)]
    if bad:
        flags.append(tf.reduce_any(tf.stack(bad)) if len(bad) > 1 else bad[0])


def _usable(flag: tf.Tensor) -> bool:
    """Whether ``flag`` can be read here: an eager value eagerly, or a tensor of this graph or an outer one."""
    if tf.executing_eagerly():
        return not tf.is_symbolic_tensor(flag)
    if not tf.is_symbolic_tensor(flag):
        return False
    graph = tf.compat.v1.get_default_graph()
    while graph is not None:
        if flag.graph is graph:
            return True
        graph = getattr(graph, "outer_graph", None)
    return False


def status(like: tf.Tensor) -> tf.Tensor:
    """The status buffer: shaped and typed as ``like``, 1 in its first element after an overflow, else 0."""
    flags = [f for f in getattr(_local, "flags", None) or () if _usable(f)]
    overflow = tf.reduce_any(tf.stack(flags)) if flags else tf.constant(False)
    n = like.shape.num_elements()
    size = n if n is not None else tf.size(like)
    return tf.reshape(tf.one_hot(0, size, dtype=like.dtype) * tf.cast(overflow, like.dtype), tf.shape(like))
