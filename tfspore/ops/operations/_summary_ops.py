"""Summary primitives: ``ScalarSummary``, ``ImageSummary``, ``TensorSummary``, ``HistogramSummary``.

Called inside ``construct`` as ``self.summary("loss", loss)``, they hand the value to the active
:class:`~tfspore.train.summary.SummaryRecord`, which writes it at its next ``record(step)``
under the tag ``"loss"`` (``SummaryRecord`` sees it as ``"loss[:Scalar]"`` and keeps the last
value per tag and type, as MindSpore does).

* PYNATIVE_MODE: the call appends ``[op_name, tag, value]`` to :data:`SUMMARY_TENSOR_CACHE`
  (only while a SummaryRecord is open); the value is checked at ``record``.
* GRAPH_MODE (inside the compiled ``tf.function``): the tag and the value's static rank are
  checked when the function is traced (a scalar's element count at ``record``), and the op
  becomes a ``tf.cond`` on one boolean variable (true while a SummaryRecord is open) around a
  ``tf.numpy_function`` that keeps a copy of the value on the host, the last one per tag and
  operator (memory stays bounded however many steps run between two records). With no
  SummaryRecord open, a step pays for one variable read and an untaken branch. Inside an
  XLA-compiled function (``jit_compile``) host callbacks cannot run: the op is left out, with a
  warning.

Example:
    >>> from tfspore import nn, ops
    >>> class Net(nn.Cell):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.summary = ops.ScalarSummary()
    ...     def construct(self, x):
    ...         self.summary("x", x)
    ...         return x * 2
"""
from __future__ import annotations

import logging
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore._internal import summary_cache
from tfspore._internal.summary_cache import SUMMARY_TENSOR_CACHE  # noqa: F401  (MindSpore's name in debug_ops)
from tfspore.ops.primitive import Primitive, prim_attr_register

_logger = logging.getLogger("tfspore")

__all__ = ["ScalarSummary", "ImageSummary", "TensorSummary", "HistogramSummary"]

# ``xla_warned``: the warning that compiled summary ops are left out of XLA functions was given.
_STATE = {"xla_warned": False}


def _in_xla() -> bool:
    try:
        from tensorflow.python.ops import control_flow_util
        return bool(control_flow_util.GraphOrParentsInXlaContext(tf.compat.v1.get_default_graph()))
    except (ImportError, AttributeError):
        return False


def _check_traced(op_name: str, tag: Any, value: Any) -> None:
    """Check a summary op call when GRAPH_MODE traces it, as MindSpore's compiler does (the tag, the value's
    rank; a scalar's element count is checked at ``record``)."""
    from tfspore.common.tensor import Tensor

    prim = f"For primitive[{op_name}],"
    if not isinstance(tag, str):
        raise TypeError(f"{prim} the input argument[name] must be a str, but got {type(tag).__name__}.")
    if not tag:
        raise ValueError(f"{prim} the input argument[name] cannot be an empty string.")
    if not isinstance(value, (Tensor, tf.Tensor, tf.Variable)):
        raise TypeError(f"{prim} the input argument[value] must be a Tensor, but got {type(value).__name__}.")
    rank = tf.TensorShape(getattr(value, "shape", None)).rank
    if rank is None:
        return
    if op_name == "ScalarSummary" and rank > 1:
        raise ValueError(f"{prim} the v rank must be less than or equal to 1, but got {rank}.")
    if op_name == "ImageSummary" and rank != 4:
        raise ValueError(f"{prim} the v rank must be equal to 4, but got {rank}.")
    if op_name in ("TensorSummary", "HistogramSummary") and rank < 1:
        raise ValueError(f"{prim} the v rank must be greater than or equal to 1, but got {rank}.")


def _symbolic(value: Any) -> bool:
    target = value._value() if hasattr(value, "_value") else value
    return isinstance(target, tf.Tensor) and not hasattr(target, "numpy")


def _record_in_graph(op_name: str, tag: Any, value: Any) -> None:
    """The compiled form of a summary op call (see the module docstring)."""
    _check_traced(op_name, tag, value)
    if _in_xla():
        if not _STATE["xla_warned"]:
            _logger.warning("For '%s', summary operators are not collected inside an XLA-compiled (jit_compile) "
                            "function: the tag %r is left out.", op_name, tag)
            _STATE["xla_warned"] = True
        return
    x = tf.convert_to_tensor(value)

    def host(array: np.ndarray) -> np.int32:
        if summary_cache.STATE["active"]:
            summary_cache.cache_graph_data(op_name, tag, np.array(array, copy=True))
        return np.int32(0)

    def collect() -> tf.Tensor:
        return tf.numpy_function(host, [x], tf.int32, stateful=True, name=f"{op_name}_to_host")

    tf.cond(summary_cache.flag(), collect, lambda: tf.constant(0, tf.int32))


class _SummaryOp(Primitive):
    """The shared construction and call of the four summary primitives (``_channel_name`` per subclass)."""

    _channel_name = ""

    @prim_attr_register
    def __init__(self) -> None:
        self.add_prim_attr("side_effect_io", True)
        self.add_prim_attr("channel_name", self._channel_name)

    def __call__(self, *args: Any) -> None:
        if len(args) != 2:
            raise TypeError(f"For '{self.name}', the number of inputs must be 2 (name, value), but got {len(args)}.")
        tag, value = args
        if not tf.executing_eagerly() or _symbolic(value):
            _record_in_graph(self.name, tag, value)
        elif summary_cache.STATE["active"]:
            summary_cache.cache_summary_data(self.name, tag, value)
        return None


class ScalarSummary(_SummaryOp):
    """Record a scalar (a Tensor of one element) for the active SummaryRecord.

    Inputs:
        - **name** (str) - the tag, a non-empty string.
        - **value** (Tensor) - the scalar; at most one element.

    Raises:
        TypeError: `name` is not a non-empty str, or `value` is not a Tensor.
        ValueError: `value` has more than one element.

    Example:
        >>> self.summary = ops.ScalarSummary()   # in __init__
        >>> self.summary("loss", loss)            # in construct
    """

    _channel_name = "ms_scalar_summary"


class ImageSummary(_SummaryOp):
    """Record an NCHW image batch (a 4-D Tensor, 1 or 3 channels) for the active SummaryRecord.

    Inputs:
        - **name** (str) - the tag, a non-empty string.
        - **value** (Tensor) - the images, 4-D NCHW.

    Raises:
        TypeError: `name` is not a non-empty str, or `value` is not a Tensor.
        ValueError: `value` is not 4-D.

    Example:
        >>> self.summary = ops.ImageSummary()     # in __init__
        >>> self.summary("image", x)              # in construct
    """

    _channel_name = "ms_image_summary"


class TensorSummary(_SummaryOp):
    """Record a Tensor (at least 1-D) for the active SummaryRecord.

    Inputs:
        - **name** (str) - the tag, a non-empty string.
        - **value** (Tensor) - the tensor; not 0-d.

    Raises:
        TypeError: `name` is not a non-empty str, or `value` is not a Tensor.
        ValueError: `value` is 0-d.

    Example:
        >>> self.summary = ops.TensorSummary()    # in __init__
        >>> self.summary("x", x)                  # in construct
    """

    _channel_name = "ms_tensor_summary"


class HistogramSummary(_SummaryOp):
    """Record the histogram of a Tensor (at least 1-D) for the active SummaryRecord.

    Inputs:
        - **name** (str) - the tag, a non-empty string.
        - **value** (Tensor) - the tensor; not 0-d.

    Raises:
        TypeError: `name` is not a non-empty str, or `value` is not a Tensor.
        ValueError: `value` is 0-d.

    Example:
        >>> self.summary = ops.HistogramSummary() # in __init__
        >>> self.summary("weight", self.weight)   # in construct
    """

    _channel_name = "ms_histogram_summary"
