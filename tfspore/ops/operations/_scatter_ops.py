"""The gather and scatter Primitives of ``mindspore.ops.operations.array_ops`` (``Gather`` ... ``ScatterAdd``).

MindSpore's import path for them is ``tfspore.ops.operations.array_ops`` (and ``tfspore.ops``).
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal import validator as V
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.ops.function import array_func as A
from tfspore.ops.function._utils import to_tf
from tfspore.ops.operations._helpers import simple_prim
from tfspore.ops.primitive import Primitive, prim_attr_register

_M = "tfspore.ops.operations.array_ops"  # the module the simple Primitives below report: MindSpore's


class Gather(Primitive):
    """Gather slices: ``Gather()(params, indices, axis)``.

    Args:
        batch_dims: the number of leading batch dimensions.
    """

    @prim_attr_register
    def __init__(self, batch_dims: int = 0) -> None:
        V.check_int(batch_dims, "batch_dims", "Gather")

    def __call__(self, input_params: Any, input_indices: Any, axis: Any) -> Tensor:
        return A.gather(input_params, input_indices, axis, self.batch_dims)


GatherV2 = Gather


GatherD = simple_prim("GatherD", A.gather_d, "``GatherD()(x, dim, index)``: take ``index`` along ``dim``.", _M)


GatherNd = simple_prim("GatherNd", A.gather_nd, "Gather slices at N-d coordinates: ``GatherNd()(x, indices)``.", _M)


ScatterNd = simple_prim("ScatterNd", A.scatter_nd, "``ScatterNd()(indices, updates, shape)`` (duplicates add).", _M)


TensorScatterUpdate = simple_prim("TensorScatterUpdate", A.tensor_scatter_update,
                                  "Replace entries of ``x`` at ``indices`` with ``updates``.", _M)


TensorScatterAdd = simple_prim("TensorScatterAdd", A.tensor_scatter_add, "Add ``updates`` at ``indices``.", _M)


TensorScatterSub = simple_prim("TensorScatterSub", A.tensor_scatter_sub, "Subtract ``updates`` at ``indices``.", _M)


TensorScatterMax = simple_prim("TensorScatterMax", A.tensor_scatter_max, "Maximum with ``updates`` at ``indices``.",
                               _M)


TensorScatterMin = simple_prim("TensorScatterMin", A.tensor_scatter_min, "Minimum with ``updates`` at ``indices``.",
                               _M)


class TensorScatterElements(Primitive):
    """Write ``updates`` at ``indices`` along ``axis``: ``TensorScatterElements(axis)(x, indices, updates)``.

    Args:
        axis: the axis.
        reduction: 'none' or 'add'.
    """

    @prim_attr_register
    def __init__(self, axis: int = 0, reduction: str = "none") -> None:
        V.check_string(reduction, ("none", "add"), "reduction", "TensorScatterElements")

    def __call__(self, data: Any, indices: Any, updates: Any) -> Tensor:
        return A.tensor_scatter_elements(data, indices, updates, self.axis, self.reduction)


def _param_var(op: str, x: Any) -> tf.Variable:
    if not isinstance(x, Parameter):
        raise TypeError(f"For '{op}', the 'input_x' must be a Parameter, but got {type(x).__name__}.")
    return x._var


class ScatterNdUpdate(Primitive):
    """Update a Parameter in place at N-d ``indices``; returns the new value.

    Args:
        use_locking: accepted for compatibility.
    """

    _add = False  # add ``updates`` (True) or write them (False)
    _rows = False  # ``indices`` address first-axis rows (True) or N-d positions (False)

    @prim_attr_register
    def __init__(self, use_locking: bool = True) -> None:
        self.__dict__["_update_parameter"] = True

    def __call__(self, input_x: Any, indices: Any, updates: Any) -> Tensor:
        var = _param_var(self.name, input_x)
        i = to_tf(indices, self.name, "indices")
        u = to_tf(updates, self.name, "updates", var.dtype)
        return _wrap(tf.convert_to_tensor(self._apply(var, i, u)))

    def _apply(self, var: tf.Variable, i: tf.Tensor, u: tf.Tensor) -> Any:
        if self._rows:
            i = tf.expand_dims(i, -1)
        return var.scatter_nd_add(i, u) if self._add else var.scatter_nd_update(i, u)


class ScatterNdAdd(ScatterNdUpdate):
    """Add ``updates`` to a Parameter in place at N-d ``indices``; returns the new value.

    Args:
        use_locking: accepted for compatibility.
    """

    _add = True

    @prim_attr_register
    def __init__(self, use_locking: bool = False) -> None:
        self.__dict__["_update_parameter"] = True


class ScatterUpdate(ScatterNdUpdate):
    """Replace rows of a Parameter in place at first-axis ``indices``; returns the new value.

    Args:
        use_locking: accepted for compatibility.
    """

    _rows = True


class ScatterAdd(ScatterNdAdd):
    """Add ``updates`` to rows of a Parameter in place at first-axis ``indices``; returns the new value.

    Args:
        use_locking: accepted for compatibility.
    """

    _rows = True


class UnsortedSegmentSum(Primitive):
    """Sum the rows of ``x`` into ``num_segments`` segments by ``segment_ids``."""

    @prim_attr_register
    def __init__(self) -> None:
        pass

    def __call__(self, input_x: Any, segment_ids: Any, num_segments: Any) -> Tensor:
        n = int(num_segments) if not isinstance(num_segments, Tensor) else to_tf(num_segments)
        return _wrap(tf.math.unsorted_segment_sum(to_tf(input_x, "UnsortedSegmentSum", "input_x"),
                                                  to_tf(segment_ids, "UnsortedSegmentSum", "segment_ids"), n))
