"""Math primitives: element-wise arithmetic and comparisons, reductions, matrix products.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> ops.ReduceSum(keep_dims=True)(Tensor(np.ones((2, 3), np.float32)), 1).shape
    (2, 1)
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal import validator as V
from tfspore.common.parameter import Parameter
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops import _float_status
from tfspore.ops.function import math_func as M
from tfspore.ops.function._utils import binary, norm_axis, to_float, to_tf
from tfspore.ops.operations._helpers import simple_prim
from tfspore.ops.primitive import Primitive, prim_attr_register

_M = __name__

__all__ = [
    "Add", "Sub", "Mul", "Div", "RealDiv", "FloorDiv", "FloorMod", "Mod", "TruncateDiv", "TruncateMod", "Pow",
    "Maximum", "Minimum", "Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual", "LogicalAnd",
    "LogicalOr", "LogicalNot", "LogicalXor", "Sqrt", "Rsqrt", "Square", "SquaredDifference", "Exp", "Expm1", "Log",
    "Log1p", "Abs", "Neg", "Reciprocal", "Erf", "Erfc", "Sin", "Cos", "Tan", "Asin", "ACos", "Atan", "Atan2",
    "Sinh", "Cosh", "Asinh", "Acosh", "Atanh", "Floor", "Ceil", "Round", "Sign", "IsNan", "IsInf", "IsFinite",
    "AddN", "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceAll", "ReduceAny", "MatMul",
    "BatchMatMul", "CumSum", "CumProd", "LinSpace", "DivNoNan", "MulNoNan", "Xdivy", "Inv", "Invert", "Trunc",
    "BitwiseAnd", "BitwiseOr", "BitwiseXor", "ReduceStd", "Cdist", "Einsum", "TensorAdd",
    "ApproximateEqual", "NPUAllocFloatStatus", "NPUGetFloatStatus", "NPUClearFloatStatus", "FloatStatus",
]




Add = simple_prim("Add", M.add, "Element-wise ``x + y`` with MindSpore's type promotion.", _M)
TensorAdd = Add
Sub = simple_prim("Sub", M.sub, "Element-wise ``x - y``.", _M)
Mul = simple_prim("Mul", M.mul, "Element-wise ``x * y``.", _M)
Div = simple_prim("Div", M.div, "Element-wise true division (integers give float32).", _M)
RealDiv = simple_prim("RealDiv", M.div, "Element-wise true division.", _M)
FloorDiv = simple_prim("FloorDiv", M.floor_div, "Element-wise division rounded down.", _M)
FloorMod = simple_prim("FloorMod", M.floor_mod, "Element-wise remainder with the sign of the divisor.", _M)
Mod = simple_prim("Mod", M.fmod, "Element-wise remainder with the sign of the dividend (C fmod).", _M)
TruncateMod = simple_prim("TruncateMod", M.fmod, "Element-wise remainder with the sign of the dividend.", _M)
TruncateDiv = simple_prim("TruncateDiv", lambda x, y: M.div(x, y, rounding_mode="trunc"),
                          "Element-wise division rounded toward zero.", _M)
Pow = simple_prim("Pow", M.pow, "Element-wise ``x ** y``.", _M)
Maximum = simple_prim("Maximum", M.maximum, "Element-wise maximum.", _M)
Minimum = simple_prim("Minimum", M.minimum, "Element-wise minimum.", _M)
Equal = simple_prim("Equal", M.equal, "Element-wise ``x == y``.", _M)
NotEqual = simple_prim("NotEqual", M.not_equal, "Element-wise ``x != y``.", _M)
Greater = simple_prim("Greater", M.greater, "Element-wise ``x > y``.", _M)
GreaterEqual = simple_prim("GreaterEqual", M.greater_equal, "Element-wise ``x >= y``.", _M)
Less = simple_prim("Less", M.less, "Element-wise ``x < y``.", _M)
LessEqual = simple_prim("LessEqual", M.less_equal, "Element-wise ``x <= y``.", _M)
LogicalAnd = simple_prim("LogicalAnd", M.logical_and, "Element-wise logical AND.", _M)
LogicalOr = simple_prim("LogicalOr", M.logical_or, "Element-wise logical OR.", _M)
LogicalXor = simple_prim("LogicalXor", M.logical_xor, "Element-wise logical XOR.", _M)
LogicalNot = simple_prim("LogicalNot", M.logical_not, "Element-wise logical NOT.", _M)
Sqrt = simple_prim("Sqrt", M.sqrt, "Element-wise square root.", _M)
Rsqrt = simple_prim("Rsqrt", M.rsqrt, "Element-wise reciprocal square root.", _M)
Square = simple_prim("Square", M.square, "Element-wise square.", _M)
SquaredDifference = simple_prim("SquaredDifference", M.squared_difference, "Element-wise ``(x - y) ** 2``.", _M)
Exp = simple_prim("Exp", M.exp, "Element-wise exponential.", _M)
Expm1 = simple_prim("Expm1", M.expm1, "Element-wise ``exp(x) - 1``.", _M)
Log = simple_prim("Log", M.log, "Element-wise natural logarithm.", _M)
Log1p = simple_prim("Log1p", M.log1p, "Element-wise ``log(1 + x)``.", _M)
Abs = simple_prim("Abs", M.abs, "Element-wise absolute value.", _M)
Neg = simple_prim("Neg", M.neg, "Element-wise negation.", _M)
Reciprocal = simple_prim("Reciprocal", M.reciprocal, "Element-wise ``1 / x``.", _M)
Inv = simple_prim("Inv", M.reciprocal, "Element-wise ``1 / x``.", _M)
Erf = simple_prim("Erf", M.erf, "Element-wise error function.", _M)
Erfc = simple_prim("Erfc", M.erfc, "Element-wise complementary error function.", _M)
Sin = simple_prim("Sin", M.sin, "Element-wise sine.", _M)
Cos = simple_prim("Cos", M.cos, "Element-wise cosine.", _M)
Tan = simple_prim("Tan", M.tan, "Element-wise tangent.", _M)
Asin = simple_prim("Asin", M.asin, "Element-wise arcsine.", _M)
ACos = simple_prim("ACos", M.acos, "Element-wise arccosine.", _M)
Atan = simple_prim("Atan", M.atan, "Element-wise arctangent.", _M)
Atan2 = simple_prim("Atan2", M.atan2, "Element-wise ``atan(x / y)`` with the quadrant.", _M)
Sinh = simple_prim("Sinh", M.sinh, "Element-wise hyperbolic sine.", _M)
Cosh = simple_prim("Cosh", M.cosh, "Element-wise hyperbolic cosine.", _M)
Asinh = simple_prim("Asinh", M.asinh, "Element-wise inverse hyperbolic sine.", _M)
Acosh = simple_prim("Acosh", M.acosh, "Element-wise inverse hyperbolic cosine.", _M)
Atanh = simple_prim("Atanh", M.atanh, "Element-wise inverse hyperbolic tangent.", _M)
Floor = simple_prim("Floor", M.floor, "Element-wise floor.", _M)
Ceil = simple_prim("Ceil", M.ceil, "Element-wise ceiling.", _M)
Trunc = simple_prim("Trunc", M.trunc, "Element-wise rounding toward zero.", _M)
Round = simple_prim("Round", lambda x: M.round(x), "Element-wise rounding half to even.", _M)
Sign = simple_prim("Sign", M.sign, "Element-wise sign (-1, 0, 1).", _M)
IsNan = simple_prim("IsNan", M.isnan, "Element-wise NaN test.", _M)
IsInf = simple_prim("IsInf", M.isinf, "Element-wise infinity test.", _M)
IsFinite = simple_prim("IsFinite", M.isfinite, "Element-wise finiteness test.", _M)
AddN = simple_prim("AddN", M.addn, "Sum of a tuple or list of tensors of one shape and dtype.", _M)


def _bitwise(name: str, fn) -> type:
    def impl(x: Any, y: Any) -> Tensor:
        a, b = binary(name, x, y)
        if not (a.dtype.is_integer or a.dtype == tf.bool):
            raise TypeError(f"For '{name}', the inputs must be int or bool tensors, but got {a.dtype.name}.")
        return _wrap(fn(a, b) if a.dtype != tf.bool else
                     {"BitwiseAnd": tf.logical_and, "BitwiseOr": tf.logical_or,
                      "BitwiseXor": tf.math.logical_xor}[name](a, b))
    return simple_prim(name, impl, f"Element-wise ``{name}`` of int tensors.", _M)


BitwiseAnd = _bitwise("BitwiseAnd", tf.bitwise.bitwise_and)
BitwiseOr = _bitwise("BitwiseOr", tf.bitwise.bitwise_or)
BitwiseXor = _bitwise("BitwiseXor", tf.bitwise.bitwise_xor)
Invert = simple_prim("Invert", lambda x: _wrap(tf.bitwise.invert(to_tf(x, "Invert", "x"))),
                     "Element-wise bitwise NOT.", _M)


def _div_no_nan(x: Any, y: Any) -> Tensor:
    a, b = binary("DivNoNan", x, y)
    a, b = to_float(a), to_float(b)
    return _wrap(tf.math.divide_no_nan(a, b))


def _mul_no_nan(x: Any, y: Any) -> Tensor:
    a, b = binary("MulNoNan", x, y)
    return _wrap(tf.math.multiply_no_nan(a, b) if a.dtype.is_floating else a * b)


def _xdivy(x: Any, y: Any) -> Tensor:
    a, b = binary("Xdivy", x, y)
    return _wrap(tf.math.xdivy(to_float(a), to_float(b)))


DivNoNan = simple_prim("DivNoNan", _div_no_nan, "``x / y``, 0 where ``y`` is 0.", _M)
MulNoNan = simple_prim("MulNoNan", _mul_no_nan, "``x * y``, 0 where ``y`` is 0 (even if ``x`` is inf or NaN).", _M)
Xdivy = simple_prim("Xdivy", _xdivy, "``x / y``, 0 where ``x`` is 0.", _M)


def _approx_eq_impl(self: Any, x: Any, y: Any) -> Tensor:
    a, b = binary("ApproximateEqual", x, y)
    return _wrap(tf.abs(a - b) < tf.cast(self.tolerance, a.dtype))


class ApproximateEqual(Primitive):
    """Element-wise ``|x - y| < tolerance``.

    Args:
        tolerance: the tolerance.
    """

    @prim_attr_register
    def __init__(self, tolerance: float = 1e-05) -> None:
        V.check_number(tolerance, "tolerance", "ApproximateEqual")

    def __call__(self, x: Any, y: Any) -> Tensor:
        return _approx_eq_impl(self, x, y)


# ---------------------------------------------------------------------------- reductions
class _Reduce(Primitive):
    # Each subclass names its TF reduction and, where MindSpore's differs for bool input,
    # the reduction used on bool tensors (``None``: the input is reduced as it is).
    _tf_reduce: Any = None
    _bool_reduce: Any = None

    @prim_attr_register
    def __init__(self, keep_dims: bool = False) -> None:
        V.check_bool(keep_dims, "keep_dims", self.name)

    def __call__(self, x: Any, axis: Any = ()) -> Tensor:
        t = to_tf(x, self.name, "x")
        ax = norm_axis(self.name, "axis", axis, t.shape.rank)
        ax = None if not ax else list(ax)
        return _wrap(self._reduce(t, ax))

    def _reduce(self, t: tf.Tensor, ax: Any) -> tf.Tensor:
        fn = self._bool_reduce if t.dtype == tf.bool and self._bool_reduce is not None else self._tf_reduce
        return fn(t, ax, keepdims=self.keep_dims)


class ReduceMean(_Reduce):
    """Mean over ``axis`` (all axes for ``()``); integer inputs keep their dtype.

    Args:
        keep_dims: keep reduced dimensions with length 1.

    Example:
        >>> ReduceMean(keep_dims=True)
        Prim[ReduceMean]<keep_dims=True>
    """

    def _reduce(self, t: tf.Tensor, ax: Any) -> tf.Tensor:
        if t.dtype == tf.bool:
            t = tf.cast(t, tf.float32)
        return tf.reduce_mean(t, ax, keepdims=self.keep_dims)


class ReduceSum(_Reduce):
    """Sum over ``axis`` (all axes for ``()``; the input itself when ``skip_mode`` and ``axis`` is empty).

    Args:
        keep_dims: keep reduced dimensions with length 1.
        skip_mode: skip the reduction for an empty ``axis``.
    """

    _tf_reduce = staticmethod(tf.reduce_sum)
    _bool_reduce = staticmethod(tf.reduce_any)

    @prim_attr_register
    def __init__(self, keep_dims: bool = False, skip_mode: bool = False) -> None:
        V.check_bool(keep_dims, "keep_dims", "ReduceSum")
        V.check_bool(skip_mode, "skip_mode", "ReduceSum")

    def __call__(self, x: Any, axis: Any = ()) -> Tensor:
        if self.skip_mode and (axis == () or axis == [] or axis is None):
            return _wrap(to_tf(x, "ReduceSum", "x"))
        return super().__call__(x, axis)


class ReduceMax(_Reduce):
    """Maximum over ``axis`` (all axes for ``()``).

    Args:
        keep_dims: keep reduced dimensions with length 1.
    """

    _tf_reduce = staticmethod(tf.reduce_max)
    _bool_reduce = staticmethod(tf.reduce_any)


class ReduceMin(_Reduce):
    """Minimum over ``axis`` (all axes for ``()``).

    Args:
        keep_dims: keep reduced dimensions with length 1.
    """

    _tf_reduce = staticmethod(tf.reduce_min)
    _bool_reduce = staticmethod(tf.reduce_all)


class ReduceProd(_Reduce):
    """Product over ``axis`` (all axes for ``()``).

    Args:
        keep_dims: keep reduced dimensions with length 1.
    """

    _tf_reduce = staticmethod(tf.reduce_prod)
    _bool_reduce = staticmethod(tf.reduce_all)


class ReduceAll(_Reduce):
    """Logical AND over ``axis`` (all axes for ``()``).

    Args:
        keep_dims: keep reduced dimensions with length 1.
    """

    _tf_reduce = staticmethod(tf.reduce_all)

    def _reduce(self, t: tf.Tensor, ax: Any) -> tf.Tensor:
        return super()._reduce(tf.cast(t, tf.bool), ax)


class ReduceAny(_Reduce):
    """Logical OR over ``axis`` (all axes for ``()``).

    Args:
        keep_dims: keep reduced dimensions with length 1.
    """

    _tf_reduce = staticmethod(tf.reduce_any)

    def _reduce(self, t: tf.Tensor, ax: Any) -> tf.Tensor:
        return super()._reduce(tf.cast(t, tf.bool), ax)


class ReduceStd(Primitive):
    """Standard deviation and mean over ``axis``.

    Args:
        axis: the axes (() for all).
        unbiased: use Bessel's correction.
        keep_dims: keep reduced dimensions.
    """

    @prim_attr_register
    def __init__(self, axis: Any = (), unbiased: bool = True, keep_dims: bool = False) -> None:
        pass

    def __call__(self, x: Any) -> tuple:
        ax = None if self.axis in ((), []) else self.axis
        std = M.std(x, ax, 1 if self.unbiased else 0, self.keep_dims)
        return std, M.mean(x, ax, self.keep_dims)


# ---------------------------------------------------------------------------- matmul
class MatMul(Primitive):
    """Matrix product of 2-D tensors, optionally transposing either input.

    Args:
        transpose_a: transpose the first input.
        transpose_b: transpose the second input.

    Raises:
        ValueError: when the contracted dimensions differ.
    """

    @prim_attr_register
    def __init__(self, transpose_a: bool = False, transpose_b: bool = False) -> None:
        V.check_bool(transpose_a, "transpose_a", "MatMul")
        V.check_bool(transpose_b, "transpose_b", "MatMul")

    def __call__(self, x: Any, y: Any) -> Tensor:
        if isinstance(x, Tensor) and isinstance(y, Tensor):
            tx, ty = to_tf(x), to_tf(y)
            if tx.dtype.is_floating != ty.dtype.is_floating:  # MindSpore's MatMul does not promote int to float
                raise TypeError(f"For '{self.name}', the type of 'x2' should be same as 'x1', but got 'x1' with type "
                                f"Tensor[{x.dtype}] and 'x2' with type Tensor[{y.dtype}].")
        a, b = binary(self.name, x, y)
        for arg, t in (("x", a), ("y", b)):
            if t.shape.rank is not None and t.shape.rank < 2:
                raise ValueError(f"For '{self.name}', the input '{arg}' must be at least 2-D, but got shape "
                                 f"{tuple(t.shape.as_list())}.")
        ka = a.shape[-2] if self.transpose_a else a.shape[-1]
        kb = b.shape[-1] if self.transpose_b else b.shape[-2]
        if ka is not None and kb is not None and ka != kb:
            raise ValueError(f"For '{self.name}' the input dimensions must be equal, but got 'x1_col': {ka} and "
                             f"'x2_row': {kb}.")
        return _wrap(M._mm(a, b, self.transpose_a, self.transpose_b))


class BatchMatMul(MatMul):
    """Batched matrix product of ``(..., n, m)`` tensors (batch dimensions broadcast).

    Args:
        transpose_a: transpose the last two dimensions of the first input.
        transpose_b: transpose the last two dimensions of the second input.
    """

    @prim_attr_register
    def __init__(self, transpose_a: bool = False, transpose_b: bool = False) -> None:
        V.check_bool(transpose_a, "transpose_a", "BatchMatMul")
        V.check_bool(transpose_b, "transpose_b", "BatchMatMul")


class CumSum(Primitive):
    """Cumulative sum along ``axis``.

    Args:
        exclusive: exclude the current element.
        reverse: accumulate from the end.
    """

    @prim_attr_register
    def __init__(self, exclusive: bool = False, reverse: bool = False) -> None:
        V.check_bool(exclusive, "exclusive", "CumSum")
        V.check_bool(reverse, "reverse", "CumSum")

    def __call__(self, x: Any, axis: Any) -> Tensor:
        t = to_tf(x, "CumSum", "x")
        if t.dtype == tf.bool:
            raise TypeError("For 'CumSum', the input argument[x] must be a numeric Tensor, but got Tensor[Bool].")
        a = V.check_axis(int(axis) if isinstance(axis, Tensor) else axis, "axis", "CumSum", t.shape.rank)
        return _wrap(tf.cumsum(t, a, exclusive=self.exclusive, reverse=self.reverse))


class CumProd(Primitive):
    """Cumulative product along ``axis``.

    Args:
        exclusive: exclude the current element.
        reverse: accumulate from the end.
    """

    @prim_attr_register
    def __init__(self, exclusive: bool = False, reverse: bool = False) -> None:
        V.check_bool(exclusive, "exclusive", "CumProd")
        V.check_bool(reverse, "reverse", "CumProd")

    def __call__(self, x: Any, axis: Any) -> Tensor:
        t = to_tf(x, "CumProd", "x")
        a = V.check_axis(int(axis) if isinstance(axis, Tensor) else axis, "axis", "CumProd", t.shape.rank)
        return _wrap(tf.math.cumprod(t, a, exclusive=self.exclusive, reverse=self.reverse))


LinSpace = simple_prim("LinSpace", M.linspace, "``num`` evenly spaced values from ``start`` to ``stop``.", _M)


class Einsum(Primitive):
    """Einstein summation.

    Args:
        equation: the einsum equation, e.g. ``'ij,jk->ik'``.
    """

    @prim_attr_register
    def __init__(self, equation: str) -> None:
        if not isinstance(equation, str):
            raise TypeError(f"For 'Einsum', the 'equation' must be a str, but got {type(equation).__name__}.")

    def __call__(self, x: Any) -> Tensor:
        ts = [to_tf(t, "Einsum", "x") for t in (x if isinstance(x, (list, tuple)) else (x,))]
        return _wrap(tf.einsum(self.equation, *ts))


class Cdist(Primitive):
    """Pairwise p-norm distances between the rows of two batched matrices.

    Args:
        p: the norm order.
    """

    @prim_attr_register
    def __init__(self, p: float = 2.0) -> None:
        V.check_number(p, "p", "Cdist")

    def __call__(self, input_x: Any, input_y: Any) -> Tensor:
        a, b = binary("Cdist", input_x, input_y)
        d = tf.abs(a[..., :, None, :] - b[..., None, :, :])
        if self.p == 2.0:
            return _wrap(tf.sqrt(tf.reduce_sum(d * d, -1)))
        return _wrap(tf.pow(tf.reduce_sum(tf.pow(d, self.p), -1), 1.0 / self.p))


class FloatStatus(Primitive):
    """1.0 when ``x`` holds an inf or NaN, else 0.0 (shape ``(1,)``)."""

    @prim_attr_register
    def __init__(self) -> None:
        pass

    def __call__(self, x: Any) -> Tensor:
        t = to_tf(x, "FloatStatus", "x")
        bad = tf.logical_not(tf.reduce_all(tf.math.is_finite(t)))
        return _wrap(tf.reshape(tf.cast(bad, t.dtype), [1]))


class NPUAllocFloatStatus(Primitive):
    """Allocate a float-status buffer (zeros of shape ``(8,)``), for loss-scale code written for Ascend."""

    @prim_attr_register
    def __init__(self) -> None:
        pass

    def __call__(self) -> Tensor:
        return _wrap(tf.zeros([8], tf.float32))


def _status_buffer(x: Any, name: str) -> tf.Tensor:
    t = to_tf(x, name, "x")
    if t.dtype not in (tf.float16, tf.float32):
        raise TypeError(f"For '{name}', the 'x' must be a Tensor of float16 or float32, but got "
                        f"{t.dtype.name}.")
    return t


def _write_status(x: Any, value: tf.Tensor) -> Tensor:
    """``value`` as the result; it is also written into ``x``, as Ascend updates the buffer in place."""
    if isinstance(x, Tensor) and not isinstance(x, Parameter):
        x.assign_value(value)
    return _wrap(value)


class NPUGetFloatStatus(Primitive):
    """Read the float status opened by :class:`NPUClearFloatStatus` into the buffer ``x``.

    Ascend reads its overflow register. On TensorFlow the status is 1 in the first element when
    an output or gradient of a differentiation (``GradOperation``, ``grad``, ``value_and_grad``)
    run since the clear holds an inf or NaN, else 0; ``x`` is updated too, as on Ascend.
    """

    @prim_attr_register
    def __init__(self) -> None:
        pass

    def __call__(self, x: Any) -> Tensor:
        t = _status_buffer(x, "NPUGetFloatStatus")
        return _write_status(x, _float_status.status(t))


class NPUClearFloatStatus(NPUGetFloatStatus):
    """Clear the float status: the differentiations that follow are checked for inf or NaN.

    Returns the cleared buffer (zeros shaped as ``x``), also written into ``x``.
    """

    def __call__(self, x: Any) -> Tensor:
        t = _status_buffer(x, "NPUClearFloatStatus")
        _float_status.clear()
        return _write_status(x, tf.zeros_like(t))
