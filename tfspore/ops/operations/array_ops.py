"""Array primitives: creation, shape manipulation, indexing, scatter, sorting.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> ops.Concat(axis=1)((Tensor(np.ones((2, 1))), Tensor(np.zeros((2, 2))))).shape
    (2, 3)
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal import validator as V
from tfspore.common import dtype as mstype
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function import array_func as A
from tfspore.ops.function import math_func as M
from tfspore.ops.function._utils import norm_axis, tf_dtype, to_tf
from tfspore.ops.operations._helpers import simple_prim
from tfspore.ops.primitive import Primitive, prim_attr_register
from tfspore.ops.operations._scatter_ops import (Gather, GatherV2, GatherD, GatherNd, ScatterNd,  # noqa: F401
                                                 TensorScatterUpdate, TensorScatterAdd, TensorScatterSub,
                                                 TensorScatterMax, TensorScatterMin, TensorScatterElements,
                                                 _param_var, ScatterNdUpdate, ScatterNdAdd, ScatterUpdate,
                                                 ScatterAdd, UnsortedSegmentSum)
from tfspore.ops.operations._array_layout_ops import (Padding, ResizeNearestNeighbor, Im2Col, SpaceToDepth,  # noqa: F401
                                                      DepthToSpace, ReverseSequence)

_M = __name__

__all__ = [
    "Reshape", "Transpose", "Fill", "FillV2", "DType", "Shape", "TensorShape", "DynamicShape", "Cast", "Concat",
    "Stack", "Unstack", "Split", "Squeeze", "ExpandDims", "OneHot", "Zeros", "Ones", "ZerosLike", "OnesLike",
    "Argmax", "Argmin", "ArgMaxWithValue", "ArgMinWithValue", "Select", "Tile", "Gather", "GatherV2", "GatherD",
    "GatherNd", "ScatterNd", "TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub", "TensorScatterMax",
    "TensorScatterMin", "TensorScatterElements", "ScatterNdUpdate", "ScatterUpdate", "ScatterAdd", "ScatterNdAdd",
    "Slice", "StridedSlice", "Range", "Identity", "TopK", "Sort", "Unique", "TupleToArray", "ScalarToTensor", "Eye",
    "BroadcastTo", "Size", "Rank", "ReverseV2", "MaskedFill", "MaskedSelect", "Meshgrid", "Tril", "Triu",
    "InvertPermutation", "Padding", "ResizeNearestNeighbor", "UnsortedSegmentSum", "NonZero", "SearchSorted",
    "Im2Col", "SpaceToDepth", "DepthToSpace", "ReverseSequence", "Flatten",
]


class Reshape(Primitive):
    """Reshape a tensor: ``Reshape()(x, shape)`` (one dimension of ``shape`` may be -1)."""

    @prim_attr_register
    def __init__(self) -> None:
        pass

    def __call__(self, input_x: Any, input_shape: Any) -> Tensor:
        return A.reshape(input_x, input_shape)


Transpose = simple_prim("Transpose", A.transpose, "Permute dimensions: ``Transpose()(x, perm)``.", _M)


class Fill(Primitive):
    """A tensor filled with one value: ``Fill()(dtype, shape, value)``."""

    @prim_attr_register
    def __init__(self) -> None:
        pass

    def __call__(self, type: Any, shape: Any, value: Any) -> Tensor:  # noqa: A002
        return A.fill(type, shape, value)


class FillV2(Primitive):
    """A tensor of ``shape`` filled with the 0-d tensor ``value``: ``FillV2()(shape, value)``."""

    @prim_attr_register
    def __init__(self) -> None:
        pass

    def __call__(self, shape: Any, value: Any) -> Tensor:
        v = to_tf(value, "FillV2", "value")
        return A.fill(mstype.from_tf_dtype(v.dtype), shape, value)


DType = simple_prim("DType", A.dtype, "The MindSpore dtype of a tensor.", _M)
Shape = simple_prim("Shape", A.shape, "The shape of a tensor as a tuple.", _M)
Rank = simple_prim("Rank", A.rank, "The number of dimensions.", _M)
Size = simple_prim("Size", A.size, "The number of elements.", _M)


class TensorShape(Primitive):
    """The shape of a tensor as a 1-D int64 Tensor (dynamic dimensions included)."""

    @prim_attr_register
    def __init__(self) -> None:
        pass

    def __call__(self, input_x: Any) -> Tensor:
        return _wrap(tf.shape(to_tf(input_x, "TensorShape", "input_x"), out_type=tf.int64))


class DynamicShape(TensorShape):
    """The shape of a tensor as a 1-D Tensor (deprecated alias of TensorShape).

    Args:
        dtype: accepted for compatibility.
    """

    @prim_attr_register
    def __init__(self, dtype: int = 9) -> None:
        pass


class Cast(Primitive):
    """Cast to a dtype: ``Cast()(x, mstype.float16)``."""

    @prim_attr_register
    def __init__(self) -> None:
        pass

    def __call__(self, input_x: Any, dtype: Any) -> Tensor:
        return A.cast(input_x, dtype)


class Concat(Primitive):
    """Concatenate a tuple of tensors along ``axis``.

    Args:
        axis: the axis.
    """

    @prim_attr_register
    def __init__(self, axis: int = 0) -> None:
        V.check_int(axis, "axis", "Concat")

    def __call__(self, input_x: Any) -> Tensor:
        return A.concat(input_x, self.axis)


class Stack(Primitive):
    """Stack a tuple of tensors along a new ``axis``.

    Args:
        axis: the new axis.
    """

    @prim_attr_register
    def __init__(self, axis: int = 0) -> None:
        V.check_int(axis, "axis", "Stack")

    def __call__(self, input_x: Any) -> Tensor:
        return A.stack(input_x, self.axis)


class Unstack(Primitive):
    """Split a tensor along ``axis`` into a tuple of tensors of one rank less.

    Args:
        axis: the axis.
        num: the number of outputs (checked when given).
    """

    @prim_attr_register
    def __init__(self, axis: int = 0, num: int | None = None) -> None:
        V.check_int(axis, "axis", "Unstack")

    def __call__(self, x: Any) -> tuple:
        out = A.unstack(x, self.axis)
        if self.num is not None and len(out) != self.num:
            raise ValueError(f"For 'Unstack', the 'num' must equal the size {len(out)} of axis {self.axis}, but got "
                             f"{self.num}.")
        return out


class Split(Primitive):
    """Split a tensor into ``output_num`` equal parts along ``axis``.

    Args:
        axis: the axis.
        output_num: the number of parts (must divide the dimension).
    """

    @prim_attr_register
    def __init__(self, axis: int = 0, output_num: int = 1) -> None:
        V.check_int(axis, "axis", "Split")
        V.check_positive_int(output_num, "output_num", "Split")

    def __call__(self, x: Any) -> tuple:
        t = to_tf(x, "Split", "input_x")
        a = V.check_axis(self.axis, "axis", "Split", t.shape.rank)
        n = t.shape[a]
        if n is not None and n % self.output_num:
            raise ValueError(f"For 'Split', the 'output_num' must divide the size {n} of axis {self.axis}, but got "
                             f"{self.output_num}.")
        return tuple(_wrap(p) for p in tf.split(t, self.output_num, axis=a))


class Squeeze(Primitive):
    """Remove dimensions of length 1 (those of ``axis``, which must have length 1, when given).

    Args:
        axis: an int or a tuple of ints; ``()`` removes every length-1 dimension.
    """

    @prim_attr_register
    def __init__(self, axis: Any = ()) -> None:
        if isinstance(axis, int):
            self.add_prim_attr("axis", (axis,))
        else:
            self.add_prim_attr("axis", V.check_int_tuple(axis, "axis", "Squeeze"))

    def __call__(self, input_x: Any) -> Tensor:
        t = to_tf(input_x, "Squeeze", "input_x")
        if not self.axis:
            return _wrap(tf.squeeze(t))
        ax = norm_axis("Squeeze", "axis", self.axis, t.shape.rank)
        for a in ax:
            d = t.shape[a]
            if d is not None and d != 1:
                raise ValueError(f"For 'Squeeze', the shape of 'input_x' at axis {a} must be 1, but got shape "
                                 f"{tuple(t.shape.as_list())}.")
        return _wrap(tf.squeeze(t, list(ax)))


ExpandDims = simple_prim("ExpandDims", A.expand_dims, "Insert a length-1 dimension: ``ExpandDims()(x, axis)``.", _M)


class OneHot(Primitive):
    """One-hot encoding: ``OneHot(axis)(indices, depth, on_value, off_value)``.

    Args:
        axis: where the new dimension goes.
    """

    @prim_attr_register
    def __init__(self, axis: int = -1) -> None:
        V.check_int(axis, "axis", "OneHot")

    def __call__(self, indices: Any, depth: Any, on_value: Any, off_value: Any) -> Tensor:
        return A.one_hot(indices, depth, on_value, off_value, self.axis)


class Zeros(Primitive):
    """A tensor of zeros: ``Zeros()(shape, dtype)``."""

    @prim_attr_register
    def __init__(self) -> None:
        pass

    def __call__(self, size: Any, type: Any = None) -> Tensor:  # noqa: A002
        return A.zeros(size, type)


class Ones(Primitive):
    """A tensor of ones: ``Ones()(shape, dtype)``."""

    @prim_attr_register
    def __init__(self) -> None:
        pass

    def __call__(self, shape: Any, type: Any = None) -> Tensor:  # noqa: A002
        return A.ones(shape, type)


ZerosLike = simple_prim("ZerosLike", lambda x: A.zeros_like(x), "Zeros shaped like the input.", _M)
OnesLike = simple_prim("OnesLike", lambda x: A.ones_like(x), "Ones shaped like the input.", _M)


class Argmax(Primitive):
    """Indices of the maxima along ``axis``.

    Args:
        axis: the axis.
        output_type: int32 (default) or int64.
    """

    _is_max = True

    @prim_attr_register
    def __init__(self, axis: int = -1, output_type: Any = mstype.int32) -> None:
        V.check_int(axis, "axis", self.name)
        dt = mstype.as_ms_dtype(output_type, self.name, "output_type")
        if dt not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{self.name}', the 'output_type' must be int32 or int64, but got {dt}.")

    def __call__(self, x: Any) -> Tensor:
        t = to_tf(x, self.name, "input_x")
        a = V.check_axis(self.axis, "axis", self.name, t.shape.rank)
        dt = mstype.as_tf_dtype(self.output_type)
        return _wrap(tf.argmax(t, a, output_type=dt) if self._is_max else tf.argmin(t, a, output_type=dt))


class Argmin(Argmax):
    """Indices of the minima along ``axis``.

    Args:
        axis: the axis.
        output_type: int32 (default) or int64.
    """

    _is_max = False


class ArgMaxWithValue(Primitive):
    """Indices and values of the maxima along ``axis``: returns ``(index, value)`` (index int64).

    Args:
        axis: the axis.
        keep_dims: keep the reduced axis.
    """

    _is_max = True

    @prim_attr_register
    def __init__(self, axis: int = 0, keep_dims: bool = False) -> None:
        V.check_int(axis, "axis", self.name)
        V.check_bool(keep_dims, "keep_dims", self.name)

    def __call__(self, x: Any) -> tuple:
        val, idx = M._arg_with_value(self.name, x, self.axis, self.keep_dims, self._is_max)
        return _wrap(idx), _wrap(val)


class ArgMinWithValue(ArgMaxWithValue):
    """Indices and values of the minima along ``axis``: returns ``(index, value)``.

    Args:
        axis: the axis.
        keep_dims: keep the reduced axis.
    """

    _is_max = False


Select = simple_prim("Select", A.select, "``Select()(cond, x, y)``: ``x`` where ``cond`` else ``y``.", _M)
Tile = simple_prim("Tile", A.tile, "Repeat a tensor: ``Tile()(x, multiples)``.", _M)


Slice = simple_prim("Slice", A.slice, "``Slice()(x, begin, size)`` (size -1: to the end).", _M)


class StridedSlice(Primitive):
    """``StridedSlice(masks...)(x, begin, end, strides)`` with TensorFlow's mask semantics.

    Args:
        begin_mask: bits whose begin is ignored.
        end_mask: bits whose end is ignored.
        ellipsis_mask: the bit of an ellipsis.
        new_axis_mask: bits that insert a new axis.
        shrink_axis_mask: bits that remove an axis.
    """

    @prim_attr_register
    def __init__(self, begin_mask: int = 0, end_mask: int = 0, ellipsis_mask: int = 0, new_axis_mask: int = 0,
                 shrink_axis_mask: int = 0) -> None:
        for k in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"):
            V.check_non_negative_int(getattr(self, k), k, "StridedSlice")

    def __call__(self, input_x: Any, begin: Any, end: Any, strides: Any) -> Tensor:
        return A.strided_slice(input_x, begin, end, strides, self.begin_mask, self.end_mask, self.ellipsis_mask,
                               self.new_axis_mask, self.shrink_axis_mask)


class Range(Primitive):
    """``Range()(start, limit, delta)``: values from ``start`` up to ``limit``.

    Args:
        maxlen: the maximum output length (checked eagerly).
    """

    @prim_attr_register
    def __init__(self, maxlen: int = 1000000) -> None:
        V.check_positive_int(maxlen, "maxlen", "Range")

    def __call__(self, start: Any, limit: Any, delta: Any) -> Tensor:
        return A.range(start, limit, delta, self.maxlen)


Identity = simple_prim("Identity", A.identity, "A copy of the input.", _M)


class TopK(Primitive):
    """The ``k`` largest values along the last axis and their int32 indices: ``TopK()(x, k)``.

    Args:
        sorted: accepted for compatibility (results are sorted).
    """

    @prim_attr_register
    def __init__(self, sorted: bool = True) -> None:  # noqa: A002
        V.check_bool(sorted, "sorted", "TopK")

    def __call__(self, input_x: Any, k: Any) -> tuple:
        return A.topk(input_x, k)


class Sort(Primitive):
    """Sort along ``axis``; returns ``(values, int32 indices)``.

    Args:
        axis: the axis.
        descending: sort in descending order.
    """

    @prim_attr_register
    def __init__(self, axis: int = -1, descending: bool = False) -> None:
        V.check_int(axis, "axis", "Sort")
        V.check_bool(descending, "descending", "Sort")

    def __call__(self, x: Any) -> tuple:
        return A.sort(x, self.axis, self.descending)


Unique = simple_prim("Unique", A.unique, "Unique elements of a 1-D tensor and the index of each element.", _M)
TupleToArray = simple_prim("TupleToArray", A.tuple_to_array, "A Tensor from a tuple of numbers.", _M)


class ScalarToTensor(Primitive):
    """A 0-d Tensor from a scalar: ``ScalarToTensor()(x, dtype=float32)``."""

    @prim_attr_register
    def __init__(self) -> None:
        pass

    def __call__(self, input_x: Any, dtype: Any = mstype.float32) -> Tensor:
        return A.scalar_to_tensor(input_x, dtype)


class Eye(Primitive):
    """An identity matrix: ``Eye()(n, m, dtype)``."""

    @prim_attr_register
    def __init__(self) -> None:
        pass

    def __call__(self, n: int, m: int, t: Any) -> Tensor:
        return A.eye(n, m, t)


class BroadcastTo(Primitive):
    """Broadcast to a fixed shape.

    Args:
        shape: the target shape (-1 keeps the input's dimension).
    """

    @prim_attr_register
    def __init__(self, shape: Any) -> None:
        V.check_int_tuple(shape, "shape", "BroadcastTo")

    def __call__(self, input_x: Any) -> Tensor:
        return A.broadcast_to(input_x, self.shape)


class ReverseV2(Primitive):
    """Reverse along the given axes.

    Args:
        axis: a tuple of axes.
    """

    @prim_attr_register
    def __init__(self, axis: Any) -> None:
        V.check_int_tuple(axis, "axis", "ReverseV2")

    def __call__(self, input_x: Any) -> Tensor:
        return A.flip(input_x, self.axis)


MaskedFill = simple_prim("MaskedFill", A.masked_fill, "``MaskedFill()(x, mask, value)``.", _M)
MaskedSelect = simple_prim("MaskedSelect", A.masked_select, "Elements of ``x`` where ``mask`` is True.", _M)
NonZero = simple_prim("NonZero", lambda x: A.nonzero(x), "Indices of the non-zero elements, ``(n, rank)`` int64.", _M)


class Meshgrid(Primitive):
    """Coordinate grids from a tuple of 1-D tensors.

    Args:
        indexing: 'xy' or 'ij'.
    """

    @prim_attr_register
    def __init__(self, indexing: str = "xy") -> None:
        V.check_string(indexing, ("xy", "ij"), "indexing", "Meshgrid")

    def __call__(self, inputs: Any) -> tuple:
        return A.meshgrid(*inputs, indexing=self.indexing)


class Tril(Primitive):
    """Lower triangle of a matrix.

    Args:
        diagonal: the diagonal offset.
    """

    @prim_attr_register
    def __init__(self, diagonal: int = 0) -> None:
        V.check_int(diagonal, "diagonal", "Tril")

    def __call__(self, x: Any) -> Tensor:
        return A.tril(x, self.diagonal)


class Triu(Tril):
    """Upper triangle of a matrix.

    Args:
        diagonal: the diagonal offset.
    """

    def __call__(self, x: Any) -> Tensor:
        return A.triu(x, self.diagonal)


InvertPermutation = simple_prim("InvertPermutation",
                                lambda x: tuple(int(i) for i in tf.math.invert_permutation(list(x)).numpy()),
                                "The inverse of a permutation tuple.", _M)


class SearchSorted(Primitive):
    """Insertion indices of ``values`` into the sorted last dimension of ``sorted_sequence``.

    Args:
        dtype: int32 or int64 output.
        right: use the right insertion point.
    """

    @prim_attr_register
    def __init__(self, dtype: Any = mstype.int64, right: bool = False) -> None:
        pass

    def __call__(self, sorted_sequence: Any, values: Any) -> Tensor:
        return A.searchsorted(sorted_sequence, values, out_int32=tf_dtype(self.dtype, "SearchSorted") == tf.int32,
                              right=self.right)


class Flatten(Primitive):
    """Flatten all but the first dimension: ``(N, ...) -> (N, -1)``."""

    @prim_attr_register
    def __init__(self) -> None:
        pass

    def __call__(self, input_x: Any) -> Tensor:
        t = to_tf(input_x, "Flatten", "input_x")
        if t.shape.rank is not None and t.shape.rank < 1:
            raise ValueError("For 'Flatten', the rank of 'input_x' must be at least 1, but got 0.")
        if t.shape.rank == 1:
            return _wrap(tf.reshape(t, [-1, 1]))
        return A.flatten(Tensor._from_tf(t))


