"""Tensor element-wise math, comparisons, dtype casts, creation helpers and in-place updates.
"""
from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore.common import dtype as mstype
from tfspore.common._tensor_method_base import MethodBase, _float_input, _tf_dt
from tfspore.common._tensor_promote import binary, is_ms_tensor, kind_of, promote, to_tf


class MathMethods(MethodBase):
    """Element-wise math, casts and in-place updates."""

    __slots__ = ()

    # ----------------------------------------------------------------- element-wise math
    def abs(self) -> Any:
        """Element-wise absolute value (Bool and unsigned tensors are returned as they are)."""
        v = self._v()
        if v.dtype == tf.bool or v.dtype.is_unsigned:
            return self._wrap_tf(tf.identity(v))
        return self._wrap_tf(tf.abs(v))

    absolute = abs

    def neg(self) -> Any:
        """Element-wise negation."""
        return -self

    negative = neg

    def _unary_float(self, fn: Any) -> Any:
        return self._wrap_tf(fn(_float_input(self._v())))

    def sqrt(self) -> Any:
        """Element-wise square root (Float32 for integer inputs)."""
        return self._unary_float(tf.sqrt)

    def rsqrt(self) -> Any:
        """Element-wise ``1 / sqrt(x)``."""
        return self._unary_float(tf.math.rsqrt)

    def exp(self) -> Any:
        """Element-wise exponential."""
        return self._unary_float(tf.exp)

    def expm1(self) -> Any:
        """Element-wise ``exp(x) - 1``."""
        return self._unary_float(tf.math.expm1)

    def log(self) -> Any:
        """Element-wise natural logarithm."""
        return self._unary_float(tf.math.log)

    def log1p(self) -> Any:
        """Element-wise ``log(1 + x)``."""
        return self._unary_float(tf.math.log1p)

    def log2(self) -> Any:
        """Element-wise base-2 logarithm."""
        return self._unary_float(lambda v: tf.math.log(v) / tf.cast(math.log(2.0), v.dtype))

    def log10(self) -> Any:
        """Element-wise base-10 logarithm."""
        return self._unary_float(lambda v: tf.math.log(v) / tf.cast(math.log(10.0), v.dtype))

    def sin(self) -> Any:
        """Element-wise sine."""
        return self._unary_float(tf.sin)

    def cos(self) -> Any:
        """Element-wise cosine."""
        return self._unary_float(tf.cos)

    def tan(self) -> Any:
        """Element-wise tangent."""
        return self._unary_float(tf.tan)

    def tanh(self) -> Any:
        """Element-wise hyperbolic tangent."""
        return self._unary_float(tf.tanh)

    def sigmoid(self) -> Any:
        """Element-wise logistic sigmoid."""
        return self._unary_float(tf.sigmoid)

    def erf(self) -> Any:
        """Element-wise error function."""
        return self._unary_float(tf.math.erf)

    def reciprocal(self) -> Any:
        """Element-wise ``1 / x`` (Float32 for integer inputs)."""
        return self._unary_float(tf.math.reciprocal)

    def square(self) -> Any:
        """Element-wise square."""
        return self._wrap_tf(tf.square(self._v()))

    def sign(self) -> Any:
        """Element-wise sign (-1, 0 or 1)."""
        return self._wrap_tf(tf.sign(self._v()))

    def _rounding(self, fn: Any) -> Any:
        v = self._v()
        return self._wrap_tf(tf.identity(v) if kind_of(v.dtype) < 2 else fn(v))

    def floor(self) -> Any:
        """Element-wise floor."""
        return self._rounding(tf.floor)

    def ceil(self) -> Any:
        """Element-wise ceiling."""
        return self._rounding(tf.math.ceil)

    def trunc(self) -> Any:
        """Element-wise rounding toward zero."""
        return self._rounding(lambda v: tf.where(v < 0, tf.math.ceil(v), tf.floor(v)))

    def round(self, decimals: int = 0) -> Any:
        """Element-wise rounding half to even, to ``decimals`` places."""
        if decimals == 0:
            return self._rounding(tf.round)
        scale = 10.0 ** int(decimals)
        return self._rounding(lambda v: tf.round(v * scale) / scale)

    def __round__(self, ndigits: Any = None) -> Any:
        return self.round(ndigits or 0)

    def _float_test(self, fn: Any, non_float: bool) -> Any:
        """``fn`` of a float tensor; ``non_float`` everywhere for other dtypes."""
        v = self._v()
        if v.dtype.is_floating:
            return self._wrap_tf(fn(v))
        return self._wrap_tf(tf.ones_like(v, tf.bool) if non_float else tf.zeros_like(v, tf.bool))

    def isnan(self) -> Any:
        """Element-wise NaN test (a Bool tensor)."""
        return self._float_test(tf.math.is_nan, False)

    def isinf(self) -> Any:
        """Element-wise infinity test."""
        return self._float_test(tf.math.is_inf, False)

    def isfinite(self) -> Any:
        """Element-wise finiteness test."""
        return self._float_test(tf.math.is_finite, True)

    def nan_to_num(self, nan: float = 0.0, posinf: Any = None, neginf: Any = None) -> Any:
        """Replace NaN with ``nan`` and infinities with ``posinf``/``neginf`` (the dtype's limits by default)."""
        v = self._v()
        if not v.dtype.is_floating:
            return self._wrap_tf(tf.identity(v))
        big = v.dtype.max if posinf is None else posinf
        small = v.dtype.min if neginf is None else neginf
        v = tf.where(tf.math.is_nan(v), tf.cast(nan, v.dtype), v)
        v = tf.where(tf.math.is_inf(v) & (v > 0), tf.cast(big, v.dtype), v)
        return self._wrap_tf(tf.where(tf.math.is_inf(v) & (v < 0), tf.cast(small, v.dtype), v))

    def clip(self, min: Any = None, max: Any = None) -> Any:  # noqa: A002
        """Clip values to ``[min, max]`` (either may be None), with MindSpore's promotion.

        Raises:
            ValueError: when both bounds are None.
        """
        if min is None and max is None:
            raise ValueError("For 'Tensor.clip', at least one of 'min' or 'max' must not be None.")
        out: Any = self
        if min is not None:
            a, b = promote(out, min)
            out = tf.maximum(a, b)
        if max is not None:
            a, b = promote(out, max)
            out = tf.minimum(a, b)
        return self._wrap_tf(out)

    clamp = clip

    def pow(self, exponent: Any) -> Any:
        """Element-wise power."""
        return self._wrap_tf(binary("pow", self, exponent))

    def float_power(self, exponent: Any) -> Any:
        """Element-wise power computed in Float64."""
        a, b = promote(self, exponent)
        return self._wrap_tf(tf.pow(tf.cast(a, tf.float64), tf.cast(b, tf.float64)))

    def add(self, other: Any, *, alpha: Any = 1) -> Any:
        """``self + alpha * other``."""
        return self._wrap_tf(binary("add", self, other if alpha == 1 else binary("mul", other, alpha)))

    def sub(self, other: Any, *, alpha: Any = 1) -> Any:
        """``self - alpha * other``."""
        return self._wrap_tf(binary("sub", self, other if alpha == 1 else binary("mul", other, alpha)))

    subtract = sub

    def mul(self, other: Any) -> Any:
        """``self * other``."""
        return self._wrap_tf(binary("mul", self, other))

    multiply = mul

    def div(self, other: Any, *, rounding_mode: Any = None) -> Any:
        """``self / other``; ``rounding_mode`` 'floor' or 'trunc' rounds the quotient (keeping integer dtypes)."""
        if rounding_mode is None:
            return self._wrap_tf(binary("truediv", self, other))
        if rounding_mode == "floor":
            return self._wrap_tf(binary("floordiv", self, other))
        if rounding_mode == "trunc":
            a, b = promote(self, other)
            if kind_of(a.dtype) == 1:
                return self._wrap_tf(tf.truncatediv(a, b))
            q = a / b
            return self._wrap_tf(tf.where(q < 0, tf.math.ceil(q), tf.floor(q)))
        raise ValueError(f"For 'Tensor.div', the 'rounding_mode' must be None, 'floor' or 'trunc', but got "
                         f"{rounding_mode!r}.")

    divide = div

    def true_divide(self, other: Any) -> Any:
        """``self / other`` (Float32 for integers)."""
        return self._wrap_tf(binary("truediv", self, other))

    def floor_divide(self, other: Any) -> Any:
        """``self // other``."""
        return self._wrap_tf(binary("floordiv", self, other))

    def remainder(self, other: Any) -> Any:
        """``self % other`` (the sign of ``other``)."""
        return self._wrap_tf(binary("mod", self, other))

    def fmod(self, other: Any) -> Any:
        """Remainder with the sign of ``self``."""
        a, b = promote(self, other)
        return self._wrap_tf(tf.truncatemod(a, b))

    def maximum(self, other: Any) -> Any:
        """Element-wise maximum."""
        return self._wrap_tf(binary("maximum", self, other))

    def minimum(self, other: Any) -> Any:
        """Element-wise minimum."""
        return self._wrap_tf(binary("minimum", self, other))

    def lerp(self, end: Any, weight: Any) -> Any:
        """``self + weight * (end - self)``."""
        return self + weight * (end - self)

    def matmul(self, tensor2: Any) -> Any:
        """Matrix product with numpy's rules for 1-D operands."""
        return self._wrap_tf(binary("matmul", self, tensor2))

    mm = matmul
    bmm = matmul

    def dot(self, other: Any) -> Any:
        """Dot product of two 1-D tensors (matrix product otherwise)."""
        return self.matmul(other)

    def outer(self, vec2: Any) -> Any:
        """Outer product of two 1-D tensors."""
        a, b = promote(self, vec2)
        return self._wrap_tf(a[:, tf.newaxis] * b[tf.newaxis, :])

    def _cmp(self, op: str, other: Any) -> Any:
        return self._wrap_tf(binary(op, self, other))

    def eq(self, other: Any) -> Any:
        """Element-wise ``==`` (a Bool tensor)."""
        return self._cmp("eq", other)

    equal = eq

    def ne(self, other: Any) -> Any:
        """Element-wise ``!=``."""
        return self._cmp("ne", other)

    not_equal = ne

    def gt(self, other: Any) -> Any:
        """Element-wise ``>``."""
        return self._cmp("gt", other)

    greater = gt

    def ge(self, other: Any) -> Any:
        """Element-wise ``>=``."""
        return self._cmp("ge", other)

    greater_equal = ge

    def lt(self, other: Any) -> Any:
        """Element-wise ``<``."""
        return self._cmp("lt", other)

    less = lt

    def le(self, other: Any) -> Any:
        """Element-wise ``<=``."""
        return self._cmp("le", other)

    less_equal = le

    def isclose(self, x2: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Any:
        """Element-wise ``|self - x2| <= atol + rtol * |x2|``."""
        a, b = promote(self, x2)
        a, b = _float_input(a), _float_input(b)
        close = tf.abs(a - b) <= atol + rtol * tf.abs(b)
        if equal_nan:
            close = close | (tf.math.is_nan(a) & tf.math.is_nan(b))
        return self._wrap_tf(close)

    def allclose(self, other: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
        """Whether all elements are close (a python bool)."""
        return bool(tf.reduce_all(self.isclose(other, rtol, atol, equal_nan)._v()))

    def logical_not(self) -> Any:
        """Element-wise logical NOT."""
        return self._wrap_tf(tf.logical_not(tf.cast(self._v(), tf.bool)))

    def _logical(self, fn: Any, other: Any) -> Any:
        return self._wrap_tf(fn(tf.cast(self._v(), tf.bool), tf.cast(to_tf(other), tf.bool)))

    def logical_and(self, other: Any) -> Any:
        """Element-wise logical AND."""
        return self._logical(tf.logical_and, other)

    def logical_or(self, other: Any) -> Any:
        """Element-wise logical OR."""
        return self._logical(tf.logical_or, other)

    def logical_xor(self, other: Any) -> Any:
        """Element-wise logical XOR."""
        return self._logical(tf.math.logical_xor, other)

    # ----------------------------------------------------------------- dtypes and creation
    def astype(self, dtype: Any, copy: bool = True) -> Any:
        """Return the tensor cast to ``dtype`` (a MindSpore, numpy or python type, or a name like 'float16')."""
        tdt = mstype.as_ms_dtype(dtype, "Tensor.astype", "dtype").tf_dtype
        v = self._v()
        return self._wrap_tf(tf.cast(v, tdt) if v.dtype != tdt else tf.identity(v))

    def to(self, dtype: Any) -> Any:
        """Cast to ``dtype``."""
        return self.astype(dtype)

    def float(self) -> Any:
        """Cast to Float32."""
        return self.astype(mstype.float32)

    def half(self) -> Any:
        """Cast to Float16."""
        return self.astype(mstype.float16)

    def double(self) -> Any:
        """Cast to Float64."""
        return self.astype(mstype.float64)

    def bfloat16(self) -> Any:
        """Cast to BFloat16."""
        return self.astype(mstype.bfloat16)

    def int(self) -> Any:
        """Cast to Int32."""
        return self.astype(mstype.int32)

    def long(self) -> Any:
        """Cast to Int64."""
        return self.astype(mstype.int64)

    def short(self) -> Any:
        """Cast to Int16."""
        return self.astype(mstype.int16)

    def byte(self) -> Any:
        """Cast to UInt8."""
        return self.astype(mstype.uint8)

    def bool(self) -> Any:
        """Cast to Bool."""
        return self.astype(mstype.bool_)

    def type(self, dtype: Any = None) -> Any:
        """The dtype name (``'Float32'``) when ``dtype`` is None, else the tensor cast to ``dtype``."""
        if dtype is None:
            return str(self.dtype)
        return self.astype(dtype)

    def type_as(self, other: Any) -> Any:
        """Cast to ``other``'s dtype."""
        return self.astype(other.dtype)

    def is_floating_point(self) -> bool:
        """Whether the dtype is floating point."""
        return self.dtype.is_floating_point

    def is_complex(self) -> bool:
        """Whether the dtype is complex."""
        return self.dtype.is_complex

    def is_signed(self) -> bool:
        """Whether the dtype is signed."""
        return self.dtype.is_signed

    def _new_full(self, size: Any, fill: Any, dtype: Any, api: str) -> Any:
        if isinstance(size, (numbers.Integral, np.integer)):
            size = (int(size),)
        tdt = self._v().dtype if dtype is None else _tf_dt(dtype, api)
        return self._wrap_tf(tf.fill([int(s) for s in size], tf.cast(fill, tdt)))

    def new_zeros(self, size: Any, *, dtype: Any = None) -> Any:
        """A zero tensor of ``size`` with this dtype (or ``dtype``)."""
        return self._new_full(size, 0, dtype, "Tensor.new_zeros")

    def new_ones(self, size: Any, *, dtype: Any = None) -> Any:
        """A tensor of ones of ``size`` with this dtype (or ``dtype``)."""
        return self._new_full(size, 1, dtype, "Tensor.new_ones")

    def new_full(self, size: Any, fill_value: Any, *, dtype: Any = None) -> Any:
        """A tensor of ``size`` filled with ``fill_value``."""
        return self._new_full(size, fill_value, dtype, "Tensor.new_full")

    def new_empty(self, size: Any, *, dtype: Any = None) -> Any:
        """A tensor of ``size`` (filled with zeros)."""
        return self._new_full(size, 0, dtype, "Tensor.new_empty")

    def fill(self, value: Any) -> Any:
        """A tensor of the same shape and dtype filled with ``value``."""
        v = self._v()
        return self._wrap_tf(tf.fill(tf.shape(v), tf.cast(to_tf(value) if is_ms_tensor(value) else value, v.dtype)))

    # ----------------------------------------------------------------- in-place updates
    def _inplace(self, new: Any) -> Any:
        v = self._v()
        new = to_tf(new) if is_ms_tensor(new) else new
        self._set_value(tf.broadcast_to(tf.cast(new, v.dtype), tf.shape(v)))
        return self

    def fill_(self, value: Any) -> Any:
        """Fill in place with ``value`` and return self."""
        return self._inplace(value)

    def zero_(self) -> Any:
        """Fill in place with zeros and return self."""
        return self._inplace(0)

    def copy_(self, src: Any, non_blocking: bool = False) -> Any:
        """Copy ``src`` (broadcast and cast) into self and return self."""
        return self._inplace(to_tf(src) if is_ms_tensor(src) else src)

    def add_(self, other: Any, *, alpha: Any = 1) -> Any:
        """In-place :meth:`add`."""
        return self._inplace(self.add(other, alpha=alpha))

    def sub_(self, other: Any, *, alpha: Any = 1) -> Any:
        """In-place :meth:`sub`."""
        return self._inplace(self.sub(other, alpha=alpha))

    def mul_(self, other: Any) -> Any:
        """In-place :meth:`mul`."""
        return self._inplace(self.mul(other))

    def div_(self, other: Any) -> Any:
        """In-place :meth:`div`."""
        return self._inplace(self.div(other))

    def clamp_(self, min: Any = None, max: Any = None) -> Any:  # noqa: A002
        """In-place :meth:`clip`."""
        return self._inplace(self.clip(min, max))


