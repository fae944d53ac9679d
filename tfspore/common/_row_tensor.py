"""``RowTensor``: MindSpore's row-sliced sparse tensor (``dense[indices[i], ...] = values[i, ...]``).

It holds TensorFlow tensors and converts to a dense tensor with :meth:`RowTensor.to_dense` (or
``tf.convert_to_tensor``), through ``tf.IndexedSlices``: rows named twice are summed, as
gradients of a gather are. tfspore's gradients are dense, so a RowTensor appears only where a
script builds one itself (the zoo's grad-scale and all-reduce helpers register implementations for it).
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore.common.tensor import Tensor

__all__ = ["RowTensor", "RowTensorInner"]


def _tf(x: Any) -> tf.Tensor:
    return tf.convert_to_tensor(x._value() if isinstance(x, Tensor) else x)  # pylint: disable=protected-access


class RowTensorInner:
    """A sparse tensor given by rows: ``indices`` (1-D ints), ``values`` (rows) and the dense ``shape``.

    Args:
        indices: 1-D integer tensor of shape ``(d0,)``, the rows of the dense tensor.
        values: tensor of shape ``(d0, d1, ..., dn)``, the rows' values.
        shape: the dense shape, a tuple of ints whose tail matches ``values.shape[1:]``.
        row_tensor: another RowTensor to copy (then the other arguments must be None).

    Raises:
        TypeError: for a ``row_tensor`` that is not a RowTensor, or one given with other arguments.

    Example:
        >>> rt = RowTensor(Tensor([0]), Tensor([[1., 2.]]), (3, 2))
        >>> rt.to_dense().asnumpy().tolist()
        [[1.0, 2.0], [0.0, 0.0], [0.0, 0.0]]
    """

    def __init__(self, indices: Any = None, values: Any = None, shape: Any = None, row_tensor: Any = None,
                 dense_shape: Any = None) -> None:
        if shape is None:
            shape = dense_shape
        if row_tensor is not None:
            if not isinstance(row_tensor, RowTensorInner):
                raise TypeError(f"Expect input `row_tensor` to be a RowTensor, but got {type(row_tensor)}")
            if not (indices is None and values is None and shape is None):
                raise TypeError("If input `row_tensor` is provided, `indices`, `values`, `shapes` should all be "
                                "`None`")
            indices, values, shape = row_tensor.indices, row_tensor.values, row_tensor.dense_shape
        self._indices = _tf(indices)
        self._values = _tf(values)
        self._shape = tuple(int(d) for d in shape)

    @property
    def indices(self) -> Tensor:
        """The row indices."""
        return Tensor(self._indices)

    @property
    def values(self) -> Tensor:
        """The rows' values."""
        return Tensor(self._values)

    @property
    def dense_shape(self) -> tuple:
        """The dense tensor's shape."""
        return self._shape

    @property
    def dtype(self) -> Any:
        """The values' dtype."""
        return self.values.dtype

    def to_dense(self) -> Tensor:
        """The dense tensor (rows named several times are summed)."""
        return Tensor(self.__tf_tensor__())

    def __tf_tensor__(self, dtype: Any = None, name: Any = None) -> tf.Tensor:
        dense = tf.convert_to_tensor(tf.IndexedSlices(self._values, self._indices,
                                                      tf.constant(self._shape, tf.int64)))
        return dense if dtype is None else tf.cast(dense, dtype, name=name)

    def __repr__(self) -> str:
        return f"RowTensor(indices={self.indices}, values={self.values}, dense_shape={self._shape})"


class RowTensor(RowTensorInner):
    """MindSpore's public ``RowTensor`` (see :class:`RowTensorInner`)."""


tf.register_tensor_conversion_function(RowTensorInner, lambda value, dtype=None, name=None, as_ref=False:
                                       value.__tf_tensor__(dtype, name))
