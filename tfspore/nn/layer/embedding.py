"""``Embedding`` and ``EmbeddingLookup``: lookup tables of ``vocab_size`` vectors (MindSpore's ``nn.Embedding``,
``nn.EmbeddingLookup``).

``EmbeddingLookup``'s ``target`` / ``slice_mode`` / ``manual_shapes`` choose where MindSpore places and
how it shards the table in auto-parallel modes; they are validated and kept, and the lookup is one
gather (under ``tf.distribute`` the table is a mirrored variable). Ids outside ``[0, vocab_size)``
look up zeros, as MindSpore's CPU ``EmbeddingLookup`` kernel does.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> nn.Embedding(10, 3)(Tensor(np.array([[1, 2]], np.int32))).shape
    (1, 2, 3)
"""
from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from tfspore.common import dtype as mstype
from tfspore.common.initializer import initializer
from tfspore.common.parameter import Parameter
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore._internal import runtime_check, validator
from tfspore.nn.layer._utils import compute_dtype, read_param, to_tf
from tfspore.nn.layer.clip import clip_by_norm_tf

__all__ = ["Embedding", "EmbeddingLookup"]

_NUMBER_TYPES = (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8, mstype.uint16, mstype.uint32,
                 mstype.uint64, mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


class Embedding(Cell):
    """Map integer ids to rows of the trainable table ``embedding_table`` of shape ``(vocab_size, embedding_size)``.

    Args:
        vocab_size: the number of rows.
        embedding_size: the row length.
        use_one_hot: look up through a one-hot matrix product instead of a gather (same values).
        embedding_table: the table's initializer. Default: ``'normal'`` (N(0, 0.01)).
        dtype: the dtype of the one-hot values (a number type).
        padding_idx: a row in ``[0, vocab_size)`` initialised to zeros, or None.

    Inputs:
        ids: an int Tensor of any shape ``(*)``.

    Outputs:
        A Tensor of shape ``(*, embedding_size)``.

    Raises:
        TypeError: when ``vocab_size``/``embedding_size`` is not an int, ``use_one_hot`` not a bool or
            ``dtype`` not a number type.
        ValueError: when ``padding_idx`` is out of range or a size is not positive.
        RuntimeError: at call time, for an id outside ``[-vocab_size, vocab_size)`` (negative ids
            count from the end, as MindSpore's CPU Gather); in GRAPH_MODE when the step runs.

    Example:
        >>> Embedding(10, 3).embedding_table.shape
        (10, 3)
    """

    def __init__(self, vocab_size: int, embedding_size: int, use_one_hot: bool = False, embedding_table: Any = "normal",
                 dtype: Any = mstype.float32, padding_idx: int | None = None) -> None:
        super().__init__()
        self.vocab_size = validator.check_type(vocab_size, [int], "vocab_size", self.cls_name)
        self.embedding_size = validator.check_type(embedding_size, [int], "embedding_size", self.cls_name)
        validator.check_type(use_one_hot, [bool], "use_one_hot", self.cls_name)
        if dtype not in _NUMBER_TYPES:
            raise TypeError(f"For '{self.cls_name}', the 'dtype' must be a number type, but got {dtype}.")
        for arg, value in (("vocab_size", vocab_size), ("embedding_size", embedding_size)):
            if value <= 0:
                raise ValueError(f"For '{self.cls_name}', the '{arg}' must be a positive int, but got {value}.")
        self.use_one_hot = use_one_hot
        self.dtype = dtype
        init_tensor = initializer(embedding_table, [vocab_size, embedding_size])
        self.padding_idx = padding_idx
        if padding_idx is not None:
            validator.check_int(padding_idx, "padding_idx", self.cls_name)
            if not 0 <= padding_idx < vocab_size:
                raise ValueError(f"For '{self.cls_name}', the 'padding_idx' must be in range of [0, {vocab_size}), "
                                 f"but got {padding_idx}.")
            if isinstance(init_tensor, Tensor) and getattr(init_tensor, "init", None) is not None:
                init_tensor = init_tensor.init_data()
            arr = np.array(init_tensor.asnumpy())
            arr[padding_idx] = 0
            init_tensor = Tensor(arr, init_tensor.dtype)
        self.embedding_table = Parameter(init_tensor, name="embedding_table")

    def construct(self, ids: Any) -> Tensor:
        v = to_tf(ids)
        if not v.dtype.is_integer:
            raise TypeError(f"For '{self.cls_name}', the 'ids' must be an int Tensor, but got {v.dtype.name}.")
        table = read_param(self.embedding_table)
        if self._mixed_precision_type is not None:
            table = tf.cast(table, compute_dtype(self, table))
        flat = runtime_check.wrap_indices(tf.reshape(v, [-1]), self.vocab_size, self.cls_name)
        if self.use_one_hot:
            one_hot = tf.one_hot(flat, self.vocab_size, dtype=self.dtype.tf_dtype)
            out = tf.matmul(tf.cast(one_hot, table.dtype), table)
        else:
            out = tf.gather(table, flat, axis=0)
        return _wrap(tf.reshape(out, tf.concat([tf.shape(v), [self.embedding_size]], 0)))

    def extend_repr(self) -> str:
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, use_one_hot={self.use_one_hot}, "
                f"embedding_table={self.embedding_table}, dtype={self.dtype}, padding_idx={self.padding_idx}")


class EmbeddingLookup(Cell):
    """Look ids up in the trainable table ``embedding_table`` of shape ``(vocab_size, embedding_size)``.

    Args:
        vocab_size: the number of rows.
        embedding_size: the row length.
        param_init: the table's initializer. Default: ``'normal'``.
        target: ``'CPU'`` or ``'DEVICE'`` (where MindSpore runs the lookup).
        slice_mode: ``'batch_slice'``, ``'field_slice'``, ``'table_row_slice'`` or ``'table_column_slice'``
            (MindSpore's auto-parallel sharding; the class constants name them).
        manual_shapes: the row split for ``'field_slice'``.
        max_norm: when set, each looked-up vector is clipped to this L2 norm.
        sparse: whether MindSpore uses a sparse gather (must be True with ``target='CPU'``).
        dtype: the table dtype.

    Inputs:
        input_indices: an int Tensor of any shape ``(*)``.

    Outputs:
        A Tensor of shape ``(*, embedding_size)``.

    Raises:
        TypeError: when ``sparse`` is not a bool or a size is not an int.
        ValueError: for a bad ``target``, a non-positive size or ``max_norm``, or ``sparse=False`` with
            ``target='CPU'``.

    Example:
        >>> EmbeddingLookup(10, 3).embedding_table.shape
        (10, 3)
    """

    BATCH_SLICE = "batch_slice"
    FIELD_SLICE = "field_slice"
    TABLE_ROW_SLICE = "table_row_slice"
    TABLE_COLUMN_SLICE = "table_column_slice"

    def __init__(self, vocab_size: int, embedding_size: int, param_init: Any = "normal", target: str = "CPU",
                 slice_mode: str = "batch_slice", manual_shapes: Any = None, max_norm: float | None = None,
                 sparse: bool = True, dtype: Any = mstype.float32) -> None:
        super().__init__()
        name = self.cls_name
        validator.check_type(sparse, [bool], "sparse", name)
        self.vocab_size = validator.check_positive_int(vocab_size, "vocab_size")
        self.target = target
        self.sparse = sparse
        self.forward_unique = False
        validator.check_string(target, ["CPU", "DEVICE"], "target", name)
        if not sparse and target == "CPU":
            raise ValueError(f"For '{name}', 'sparse' must be True when 'target' is \"CPU\", but got 'sparse': "
                             f"{sparse} and 'target': {target}")
        self.embedding_size = validator.check_positive_int(embedding_size, "embedding_size", name)
        self.slice_mode = slice_mode
        self.manual_shapes = manual_shapes
        self.embedding_table = Parameter(initializer(param_init, [self.vocab_size, self.embedding_size], dtype=dtype),
                                         name="embedding_table")
        self.max_norm = None if max_norm is None else validator.check_positive_float(max_norm, "max_norm", name)

    def construct(self, input_indices: Any) -> Tensor:
        ids = to_tf(input_indices)
        if not ids.dtype.is_integer:
            raise TypeError(f"For '{self.cls_name}', the 'input_indices' must be an int Tensor, but got "
                            f"{ids.dtype.name}.")
        table = read_param(self.embedding_table)
        if self._mixed_precision_type is not None:
            table = tf.cast(table, compute_dtype(self, table))
        valid = tf.logical_and(ids >= 0, ids < self.vocab_size)
        out = tf.gather(table, tf.where(valid, ids, tf.zeros_like(ids)), axis=0)
        out = out * tf.cast(valid, out.dtype)[..., None]
        if self.max_norm is not None:
            out = clip_by_norm_tf(out, tf.constant(self.max_norm, tf.float32), (-1,))
        return _wrap(out)
