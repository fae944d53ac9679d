"""Shapes of TensorFlow tensors whose dimensions may be known only when the graph runs.

``ops``, ``numpy`` and ``nn`` reshape with the static dimensions where TensorFlow knows them
(so that traced functions keep static shapes) and with ``tf.shape`` entries elsewhere; the one
function here does that for all of them.
"""
from __future__ import annotations

import tensorflow as tf

__all__ = ["dims"]


def dims(t: tf.Tensor) -> list:
    """Dimensions as python ints where known statically, scalar tensors otherwise.

    Example:
        >>> dims(tf.zeros((2, 3)))
        [2, 3]
    """
    shp = t.shape.as_list()
    if all(d is not None for d in shp):
        return shp
    dyn = tf.shape(t)
    return [d if d is not None else dyn[i] for i, d in enumerate(shp)]
