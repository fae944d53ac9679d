"""MindSpore's type promotion for Tensor operators, and the binary operators built on it.

Rules (checked against MindSpore 2.10):

- tensor with tensor: bool < integer < floating < complex; the higher kind wins. Within a
  kind the wider type wins, with ``UInt8 + Int8 -> Int16`` and ``Float16 + BFloat16 ->
  Float32``.
- tensor with a python (or numpy) scalar, list or tuple: the scalar is "weak". It keeps the
  tensor's dtype when its kind is not higher (``Int32 + 2 -> Int32``, ``Float16 + 2.5 ->
  Float16``); otherwise it gives MindSpore's default dtype of the scalar (``Int32 + 2.5 ->
  Float32``, ``Bool + 2 -> Int64``).
- ``/`` on integers or bools gives Float32.

Values here are ``tf.Tensor``s; MindSpore Tensors are recognised by their ``_ms_tensor`` flag.
"""
from __future__ import annotations

import numbers
from typing import Any, Callable

import numpy as np
import tensorflow as tf

from tfspore._internal.layout import binary_through_nchw


def kind_of(dt: tf.DType) -> int:
    """0 for bool, 1 for integers, 2 for floating point, 3 for complex."""
    if dt == tf.bool:
        return 0
    if dt.is_complex:
        return 3
    if dt.is_floating:
        return 2
    return 1


def is_ms_tensor(x: Any) -> bool:
    """Whether ``x`` is a tfspore Tensor (or Parameter)."""
    return getattr(x, "_ms_tensor", False)


def result_dtype(a: tf.DType, b: tf.DType) -> tf.DType:
    """The dtype of ``tensor(a) <op> tensor(b)``."""
    if a == b:
        return a
    ka, kb = kind_of(a), kind_of(b)
    if ka != kb:
        hi, lo = (a, b) if ka > kb else (b, a)
        if hi.is_complex and lo == tf.float64:
            return tf.complex128
        return hi
    if ka == 1:
        if a.is_unsigned == b.is_unsigned:
            return a if a.size >= b.size else b
        s, u = (b, a) if a.is_unsigned else (a, b)
        if s.size > u.size:
            return s
        return {1: tf.int16, 2: tf.int32}.get(u.size, tf.int64)
    if ka == 2 and {a, b} == {tf.float16, tf.bfloat16}:
        return tf.float32
    return a if a.size >= b.size else b


def _scalar_kind(x: Any) -> int | None:
    """The kind of a python or numpy scalar, or None when ``x`` is not one."""
    if isinstance(x, (bool, np.bool_)):
        return 0
    if isinstance(x, (numbers.Integral, np.integer)):
        return 1
    if isinstance(x, (numbers.Real, np.floating)):
        return 2
    if isinstance(x, (numbers.Complex, np.complexfloating)):
        return 3
    return None


_DEFAULT_OF_KIND = {0: tf.bool, 1: tf.int64, 2: tf.float32, 3: tf.complex64}


def weak_dtype(kind: int, tensor_dtype: tf.DType) -> tf.DType:
    """The dtype of ``tensor <op> weak value`` whose kind is ``kind``."""
    tk = kind_of(tensor_dtype)
    if kind <= tk:
        return tensor_dtype
    if kind == 3 and tensor_dtype == tf.float64:
        return tf.complex128
    return _DEFAULT_OF_KIND[kind]


def _seq_array(x: Any) -> np.ndarray:
    items = [np.asarray(v) if is_ms_tensor(v) else v for v in x]
    arr = np.array(items)
    if arr.dtype == object or arr.dtype.kind not in "biufc":
        raise TypeError(f"For Tensor operators, the operand {x!r} contains unsupported elements.")
    return arr


def to_tf(x: Any) -> tf.Tensor:
    """The tf.Tensor behind a tfspore Tensor, tf.Tensor, tf.Variable or numpy array."""
    if is_ms_tensor(x):
        v = x._value()
        return v if isinstance(v, tf.Tensor) else tf.convert_to_tensor(v)
    if isinstance(x, tf.Tensor):
        return x
    return tf.convert_to_tensor(x)


def _is_strong(x: Any) -> bool:
    return is_ms_tensor(x) or isinstance(x, (tf.Tensor, tf.Variable, np.ndarray))


def promote(a: Any, b: Any) -> tuple[tf.Tensor, tf.Tensor]:
    """Convert two operands to ``tf.Tensor``s of one dtype with MindSpore's rules.

    Args:
        a: a Tensor, tf value, numpy array, python/numpy scalar, list or tuple.
        b: likewise.

    Returns:
        tuple: the two converted operands.

    Raises:
        TypeError: for an operand that is none of these (e.g. None or a str).
    """
    sa, sb = _is_strong(a), _is_strong(b)
    if sa and sb:
        ta, tb = to_tf(a), to_tf(b)
        if ta.dtype != tb.dtype:
            dt = result_dtype(ta.dtype, tb.dtype)
            ta = ta if ta.dtype == dt else tf.cast(ta, dt)
            tb = tb if tb.dtype == dt else tf.cast(tb, dt)
        return ta, tb
    if sa:
        ta = to_tf(a)
        tb = _weak_to_tf(b, ta.dtype)
        return (ta if ta.dtype == tb.dtype else tf.cast(ta, tb.dtype)), tb
    if sb:
        tb = to_tf(b)
        ta = _weak_to_tf(a, tb.dtype)
        return ta, (tb if tb.dtype == ta.dtype else tf.cast(tb, ta.dtype))
    ka, kb = _weak_kind(a), _weak_kind(b)
    npdt = _DEFAULT_OF_KIND[max(ka, kb)].as_numpy_dtype
    return tf.constant(np.asarray(_weak_array(a)).astype(npdt)), tf.constant(np.asarray(_weak_array(b)).astype(npdt))


def _weak_kind(x: Any) -> int:
    k = _scalar_kind(x)
    if k is not None:
        return k
    if isinstance(x, (list, tuple)):
        arr = _seq_array(x)
        return {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}[arr.dtype.kind]
    raise TypeError(f"For Tensor operators, the operand must be a Tensor, number, bool, list or tuple, but got "
                    f"{type(x).__name__}: {x!r}.")


def _weak_array(x: Any) -> Any:
    return _seq_array(x) if isinstance(x, (list, tuple)) else x


def _weak_to_tf(x: Any, tensor_dtype: tf.DType) -> tf.Tensor:
    dt = weak_dtype(_weak_kind(x), tensor_dtype)
    return tf.constant(np.asarray(_weak_array(x)).astype(dt.as_numpy_dtype))


# ----------------------------------------------------------------------------- operators
def _bool_as(fn_bool: Callable, fn: Callable) -> Callable:
    def op(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
        return fn_bool(a, b) if a.dtype == tf.bool else fn(a, b)
    return op


def _no_bool(name: str, fn: Callable) -> Callable:
    def op(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
        if a.dtype == tf.bool:
            raise TypeError(f"For '{name}', the inputs must not both be Bool tensors.")
        return fn(a, b)
    return op


def _truediv(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
    if kind_of(a.dtype) < 2:
        a, b = tf.cast(a, tf.float32), tf.cast(b, tf.float32)
    return tf.math.truediv(a, b)


def _floordiv(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
    if a.dtype == tf.bool:
        return tf.cast(tf.math.floordiv(tf.cast(a, tf.int8), tf.cast(b, tf.int8)), tf.bool)
    return tf.math.floordiv(a, b)


def _int_pow(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
    """Integer power; negative exponents give 1 for base 1, +-1 for base -1 and 0 otherwise."""
    if a.dtype.is_unsigned:
        return tf.cast(tf.pow(tf.cast(a, tf.int64), tf.cast(b, tf.int64)), a.dtype)
    neg = b < 0
    safe = tf.pow(a, tf.where(neg, tf.zeros_like(b), b))
    one = tf.ones_like(a)
    odd = tf.math.floormod(b, 2) == 1
    at_neg = tf.where(a == 1, one, tf.where(a == -1, tf.where(odd, -one, one), tf.zeros_like(a)))
    return tf.where(neg, at_neg, safe)


def _pow(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
    if a.dtype == tf.bool:
        raise TypeError("For 'Pow', the inputs must not both be Bool tensors.")
    if kind_of(a.dtype) == 1:
        return _int_pow(a, b)
    return tf.pow(a, b)


def matmul(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
    """``numpy.matmul`` semantics: 1-D operands are promoted to matrices and squeezed back."""
    if a.dtype == tf.bool:
        raise TypeError("For 'MatMul', Bool tensors are not supported.")
    ra, rb = a.shape.rank, b.shape.rank
    if ra == 0 or rb == 0:
        raise ValueError("For 'MatMul', the inputs must have at least one dimension, but got a scalar.")
    if ra == 1 and rb == 1:
        return tf.reduce_sum(a * b)
    if ra == 1:
        return tf.squeeze(tf.linalg.matmul(a[tf.newaxis, :], b), -2)
    if rb == 1:
        return tf.squeeze(tf.linalg.matmul(a, b[:, tf.newaxis]), -1)
    return tf.linalg.matmul(a, b)


def _bitwise(name: str, logical: Callable, bitwise: Callable) -> Callable:
    def op(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
        if a.dtype == tf.bool:
            return logical(a, b)
        if kind_of(a.dtype) != 1:
            raise TypeError(f"For '{name}', the inputs must be Bool or integer tensors, but got "
                            f"{a.dtype.name}.")
        return bitwise(a, b)
    return op


def _ordered(fn: Callable) -> Callable:
    def op(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
        if a.dtype == tf.bool:
            a, b = tf.cast(a, tf.int8), tf.cast(b, tf.int8)
        return fn(a, b)
    return op


BINARY_OPS: dict[str, Callable] = {
    "add": _bool_as(tf.logical_or, tf.add),
    "sub": _bool_as(tf.math.logical_xor, tf.subtract),
    "mul": _bool_as(tf.logical_and, tf.multiply),
    "truediv": _truediv,
    "floordiv": _floordiv,
    "mod": _no_bool("FloorMod", tf.math.floormod),
    "pow": _pow,
    "matmul": matmul,
    "and": _bitwise("BitwiseAnd", tf.logical_and, tf.bitwise.bitwise_and),
    "or": _bitwise("BitwiseOr", tf.logical_or, tf.bitwise.bitwise_or),
    "xor": _bitwise("BitwiseXor", tf.math.logical_xor, tf.bitwise.bitwise_xor),
    "eq": tf.equal,
    "ne": tf.not_equal,
    "lt": _ordered(tf.less),
    "le": _ordered(tf.less_equal),
    "gt": _ordered(tf.greater),
    "ge": _ordered(tf.greater_equal),
    "maximum": _ordered(tf.maximum),
    "minimum": _ordered(tf.minimum),
}


# element-wise and shape-preserving for equal shapes: traced with NHWC operands when both are NCHW transposes
_LAYOUT_FREE = frozenset(("add", "sub", "mul", "truediv", "maximum", "minimum"))

# MindSpore's primitive behind each element-wise operator (named in shape errors)
_PRIMITIVE_NAMES = {
    "add": "Add", "sub": "Sub", "mul": "Mul", "truediv": "Div", "floordiv": "FloorDiv", "mod": "FloorMod",
    "pow": "Pow", "and": "BitwiseAnd", "or": "BitwiseOr", "xor": "BitwiseXor", "eq": "Equal", "ne": "NotEqual",
    "lt": "Less", "le": "LessEqual", "gt": "Greater", "ge": "GreaterEqual", "maximum": "Maximum",
    "minimum": "Minimum",
}


def check_broadcast(op: str, a: tf.Tensor, b: tf.Tensor, names: tuple[str, str] = ("input1", "input2")) -> None:
    """Raise MindSpore's ValueError when the static shapes of ``a`` and ``b`` cannot broadcast.

    Checked at trace time from static shapes (no per-step cost); unknown dimensions pass, and
    TensorFlow checks them when the op runs.
    """
    sa, sb = a.shape, b.shape
    if sa.rank is None or sb.rank is None:
        return
    la, lb = sa.as_list(), sb.as_list()
    for k in range(1, min(len(la), len(lb)) + 1):
        x, y = la[-k], lb[-k]
        if x is not None and y is not None and x != y and x != 1 and y != 1:
            n1, n2 = names
            raise ValueError(f"For '{op}', {n1}.shape and {n2}.shape need to broadcast. The value of {n1}.shape[{-k}] "
                             f"or {n2}.shape[{-k}] must be 1 or -1 when they are not the same, but got {n1}.shape = "
                             f"{tuple(la)} and {n2}.shape = {tuple(lb)}.")


def binary(op: str, a: Any, b: Any) -> tf.Tensor:
    """Apply the named operator to two operands after MindSpore's promotion."""
    ta, tb = promote(a, b)
    if op in _PRIMITIVE_NAMES:
        check_broadcast(_PRIMITIVE_NAMES[op], ta, tb)
    if op in _LAYOUT_FREE and not tf.executing_eagerly():
        out = binary_through_nchw(BINARY_OPS[op], ta, tb)
    else:
        out = BINARY_OPS[op](ta, tb)
    if op in ("maximum", "minimum") and ta.dtype == tf.bool:
        out = tf.cast(out, tf.bool)
    return out
