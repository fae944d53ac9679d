"""Checks on tensor *values* that MindSpore's kernels make when they run (index ranges).

A value check cannot be done at trace time: in PYNATIVE mode (eager) it is made in Python and
raises at once; inside a compiled graph it is a ``tf.debugging.Assert`` whose message carries a
tag, so that the caller of the compiled function can turn TensorFlow's ``InvalidArgumentError``
back into MindSpore's ``RuntimeError`` with :func:`raise_runtime_error`. The graph check costs
two reductions over the indices (min and max) and one scalar copy to the host per call; it does
not hold back the op it guards (the assert runs beside it, as every stateful op of a
``tf.function`` does), and the indices handed on are clipped into range so that the op never
fails first with TensorFlow's own error.

This matters beyond the message on GPU, where ``tf.gather`` returns zeros for an index out of range
without an error.

This module imports nothing from other tfspore packages.
"""
from __future__ import annotations

import tensorflow as tf

__all__ = ["RUNTIME_TAG", "wrap_indices", "raise_runtime_error", "tagged_line"]

# The prefix of the messages of graph checks, by which :func:`raise_runtime_error` knows them
RUNTIME_TAG = "MindSporeRuntimeError: "


def _range_message(api: str, arg: str, size: int | str, bad: int | str) -> str:
    return f"For '{api}', the '{arg}' should be in the range [-{size}, {size}), but got {bad}."


def wrap_indices(indices: tf.Tensor, size: int | tf.Tensor, api: str, arg: str = "input_indices") -> tf.Tensor:
    """Check that every index lies in ``[-size, size)`` and map negative ones to ``index + size``.

    MindSpore's CPU ``Gather`` takes a negative index from the end and fails for one outside the
    range; TensorFlow's gather fails on CPU for a negative index and returns zeros on GPU for any
    index out of range.

    Args:
        indices: an integer tensor.
        size: the length of the gathered axis (an int, or a scalar tensor for a dynamic shape).
        api: the primitive or layer named in the error.
        arg: the argument named in the error.

    Returns:
        ``indices`` with negative entries wrapped, same shape and dtype (int64 for unsigned or 8-bit
        indices, which TensorFlow's gather does not take).

    Raises:
        RuntimeError: in PYNATIVE mode (eager), for an index outside the range. Inside a graph the
            assert fails when the graph runs; :func:`raise_runtime_error` turns that error into
            this RuntimeError.
    """
    if indices.dtype not in (tf.int16, tf.int32, tf.int64):
        indices = tf.cast(indices, tf.int64)
    if tf.executing_eagerly():
        n = int(size)
        values = indices.numpy()
        if values.size:
            bad = values[(values < -n) | (values >= n)]
            if bad.size:
                raise RuntimeError(_range_message(api, arg, n, int(bad.reshape(-1)[0])))
            if (values < 0).any():
                return tf.where(indices < 0, indices + tf.cast(n, indices.dtype), indices)
        return indices
    n = tf.cast(size, indices.dtype)
    lo, hi = tf.reduce_min(indices), tf.reduce_max(indices)  # the identities of an empty tensor pass
    tf.debugging.Assert((lo >= -n) & (hi < n),
                        [tf.constant(RUNTIME_TAG + _range_message(api, arg, "{size}", "{value}")), n, lo, hi])
    # clipped, so that the guarded op itself never fails first with TensorFlow's own error
    return tf.clip_by_value(tf.where(indices < 0, indices + n, indices), tf.zeros([], indices.dtype),
                            tf.maximum(n - 1, 0))


def tagged_line(error: BaseException, tag: str) -> str | None:
    """The rest of the line after ``tag`` in the message of a failed graph assertion (an
    ``InvalidArgumentError``), or None for another error or a message without ``tag``."""
    if not isinstance(error, tf.errors.InvalidArgumentError):
        return None
    text = error.message
    start = text.find(tag)
    if start < 0:
        return None
    return text[start + len(tag):].split("\n", 1)[0]


def raise_runtime_error(error: Exception) -> None:
    """Raise ``RuntimeError`` when ``error`` is a failed graph check of this module.

    Returns without raising for any other error.

    Args:
        error: the error a compiled function raised.

    Raises:
        RuntimeError: MindSpore's error for the failed check, with the offending value.
    """
    line = tagged_line(error, RUNTIME_TAG)
    if line is None:
        return
    # TensorFlow prints "assertion failed: [message] [size] [min] [max]" and then its own context
    parts = [p.strip() for p in line.split("] [")]
    message = parts[0].removesuffix("]").replace("\\'", "'")
    try:
        size, lo, hi = (int(p.strip("[] ")) for p in parts[1:4])
    except ValueError:  # not the values this module passes: keep the placeholders
        raise RuntimeError(message) from None
    raise RuntimeError(message.replace("{size}", str(size)).replace("{value}", str(hi if hi >= size else lo))) from None

