"""``TimeDistributed``: apply a layer to every time step of a sequence (MindSpore's ``nn.TimeDistributed``).

Without ``reshape_with_axis`` the input is split along ``time_axis``, the layer runs on each step
and the results are stacked back at ``time_axis``. With it, the time axis is merged into
``reshape_with_axis`` (one call of the layer on the merged batch) and split again afterwards.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> nn.TimeDistributed(nn.Dense(3, 2), time_axis=1)(Tensor(np.ones((4, 5, 3), np.float32))).shape
    (4, 5, 2)
"""
from __future__ import annotations

import numbers
from typing import Any

import tensorflow as tf

from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import to_tf
from tfspore.ops.primitive import Primitive

__all__ = ["TimeDistributed"]


def _is_int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


class TimeDistributed(Cell):
    """Apply ``layer`` to each slice of the input along ``time_axis``.

    Args:
        layer: a Cell or Primitive.
        time_axis: the time axis of the input.
        reshape_with_axis: optionally, the axis the time axis is merged into for one call of the layer.

    Inputs:
        inputs: a Tensor of rank 3 or more.

    Outputs:
        The layer's outputs stacked along ``time_axis``.

    Raises:
        TypeError: when ``layer`` is not a Cell or Primitive or an axis is not an int.
        ValueError: for an input of rank below 3.

    Example:
        >>> TimeDistributed(nn.ReLU(), time_axis=0).time_axis  # doctest: +SKIP
        0
    """

    def __init__(self, layer: Any, time_axis: int, reshape_with_axis: int | None = None) -> None:
        if not isinstance(layer, (Cell, Primitive)):
            raise TypeError(f"For '{type(self).__name__}', the 'layer' must be Cell or Primitive instance, but got "
                            f"type: {type(layer).__name__}.")
        super().__init__()
        for arg, value in (("time_axis", time_axis), ("reshape_with_axis", reshape_with_axis)):
            if value is not None and not _is_int(value):
                raise TypeError(f"For '{self.cls_name}', the '{arg}' must be int, but got {type(value).__name__}.")
        self.layer = layer
        self.time_axis = time_axis
        self.reshape_with_axis = reshape_with_axis

    def construct(self, inputs: Any) -> Tensor:
        v = to_tf(inputs)
        rank = v.shape.rank
        if rank is None or rank < 3:
            raise ValueError(f"For '{self.cls_name}', the inputs shape must be at least 3D, but got {rank}.")
        t_axis = self.time_axis % rank
        if self.reshape_with_axis is None:
            steps = tf.unstack(v, axis=t_axis)
            outs = [to_tf(self.layer(_wrap(s))) for s in steps]
            return _wrap(tf.stack(outs, axis=t_axis))
        r_axis = self.reshape_with_axis % rank
        # move the time axis next to (just after) the merge axis, merge them, run, and split again
        perm = [i for i in range(rank) if i != t_axis]
        pos = perm.index(r_axis) + 1
        perm.insert(pos, t_axis)
        moved = tf.transpose(v, perm)
        shape = tf.shape(moved)
        merged = tf.reshape(moved, tf.concat([shape[:pos - 1], [-1], shape[pos + 1:]], 0))
        out = to_tf(self.layer(_wrap(merged)))
        out_shape = tf.shape(out)
        split = tf.reshape(out, tf.concat([out_shape[:pos - 1], [shape[pos - 1], shape[pos]], out_shape[pos:]], 0))
        inverse = [0] * rank
        for i, p in enumerate(perm):
            inverse[p] = i
        if split.shape.rank == rank:
            return _wrap(tf.transpose(split, inverse))
        return _wrap(split)
