"""``tfspore.ops.functional`` (usually ``F``): the functional API plus MindSpore's ``F`` names.

``F`` holds every function of :mod:`tfspore.ops.function` and the primitive instances and
helpers that MindSpore scripts reach through ``F`` (``F.depend``, ``F.tensor_add``,
``F.reduce_sum``, ``F.partial``, ``F.scalar_to_tensor``, ...).

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, dtype as mstype
    >>> from tfspore.ops import functional as F
    >>> F.cast(Tensor(np.array([1.5], np.float32)), mstype.int32)
    Tensor(shape=[1], dtype=Int32, value= [1])
"""
from tfspore.ops.function import *  # noqa: F401,F403
from tfspore.ops.function import __all__ as _function_all
from tfspore.ops.function.other_func import (hastype, isconstant, make_tuple, partial, scalar_cast,  # noqa: F401
                                             scalar_to_array, shape_mul, tuple_len, typeof, make_range)
from tfspore.ops.function.math_func import sqrt, square  # noqa: F401
from tfspore.ops.function.array_func import cast as _cast
from tfspore.ops.composite.base import HyperMap as _HyperMap, Map as _Map
from tfspore.ops.operations import array_ops as _array_ops, math_ops as _math_ops, other_ops as _other_ops

dtype = _array_ops.DType()
depend = _other_ops.Depend()
identity = _other_ops.identity()
tensor_add = _math_ops.Add()
tensor_sub = _math_ops.Sub()
tensor_mul = _math_ops.Mul()
tensor_div = _math_ops.RealDiv()
tensor_pow = _math_ops.Pow()
pows = tensor_pow
tensor_mod = _math_ops.FloorMod()
tensor_floordiv = _math_ops.FloorDiv()
tensor_gt = _math_ops.Greater()
tensor_ge = _math_ops.GreaterEqual()
tensor_lt = _math_ops.Less()
tensor_le = _math_ops.LessEqual()
tensor_exp = _math_ops.Exp()
reduce_sum = _math_ops.ReduceSum()
reduce_max = _math_ops.ReduceMax()
reduce_min = _math_ops.ReduceMin()
reduce_mean = _math_ops.ReduceMean()
tensor_range = _array_ops.Range()
scatter_nd_update = _array_ops.ScatterNdUpdate()
hyper_map = _HyperMap()
map_ = _Map()
tuple_getitem = lambda data, index: data[index]  # noqa: E731
list_getitem = tuple_getitem
tuple_setitem = lambda data, index, value: data[:index] + (value,) + data[index + 1:]  # noqa: E731
array_to_scalar = lambda x: x.asnumpy().item() if hasattr(x, "asnumpy") else x  # noqa: E731
bool_not = lambda x: not x  # noqa: E731
bool_and = lambda x, y: x and y  # noqa: E731
bool_or = lambda x, y: x or y  # noqa: E731
is_ = lambda x, y: x is y  # noqa: E731
is_not = lambda x, y: x is not y  # noqa: E731
in_dict = lambda key, d: key in d  # noqa: E731
not_in_dict = lambda key, d: key not in d  # noqa: E731
mixed_precision_cast = lambda dst_type, x: _cast(x, dst_type) if hasattr(x, "dtype") and x.dtype.is_floating_point else x  # noqa: E501,E731

__all__ = sorted(set(_function_all) | {
    "dtype", "depend", "identity", "tensor_add", "tensor_sub", "tensor_mul", "tensor_div", "tensor_pow", "tensor_mod",
    "tensor_floordiv", "tensor_gt", "tensor_ge", "tensor_lt", "tensor_le", "tensor_exp", "reduce_sum", "reduce_max",
    "reduce_min", "reduce_mean", "tensor_range", "scatter_nd_update", "hyper_map", "tuple_getitem", "list_getitem",
    "tuple_setitem", "array_to_scalar", "bool_not", "bool_and", "bool_or", "is_", "is_not", "in_dict", "not_in_dict",
    "mixed_precision_cast", "hastype", "isconstant", "make_tuple", "partial", "scalar_cast", "scalar_to_array",
    "shape_mul", "tuple_len", "typeof", "sqrt", "square", "make_range", "pows"})
