"""MindSpore operators of a MindIR graph as TensorFlow ops: operator name + attributes -> a callable.

MindSpore's exporter stores each operator as its primitive name with the primitive's attributes
*after* its ``__init__`` (``Conv2D``'s ``stride`` is ``(1, 1, s, s)``, ``pad_mode`` may be an enum
number, ``MaxPool``'s ``kernel_size`` has four entries). :func:`build` maps them back to the
arguments of tfspore's own primitives, so a loaded graph computes what the same network computes
in tfspore (and what MindSpore computes, which the parity tests check); element-wise operators
map to TensorFlow ops directly.

The kernels run while the graph's ``tf.function`` is traced, never per step.

Example:
    >>> relu = build("ReLU", {}, where="node 'relu'")
    >>> relu(tf.constant([-1.0, 2.0])).numpy()
    array([0., 2.], dtype=float32)
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import tensorflow as tf

from tfspore.ops import operations as P
from tfspore.train.mindir._kernel_args import (dtype_of as _dtype, inputs_or_attrs as _inputs_or_attrs,
                                               ints as _ints, tensor as _tf)
from tfspore.train.mindir._array_kernels import ARRAY_KERNELS
from tfspore.train.mindir._reader import MONAD

__all__ = ["STRUCTURAL", "PrimitiveValue", "build", "has_kernel", "supported"]


class PrimitiveValue:
    """An operator used as a value (an argument of ``Partial`` or a call)."""

    def __init__(self, op_type: str, attrs: dict):
        self.op_type = op_type
        self.attrs = attrs


# MindSpore's enum numbers for attributes stored as numbers (mindapi/base/types.h).
_PAD_MODES = {0: "pad", 1: "same", 2: "valid"}
_FORMATS = {0: "NCHW", 1: "NHWC"}


def _pad_mode(v: Any) -> str:
    if isinstance(v, str):
        return v.lower()
    return _PAD_MODES[int(v)]


def _format(attrs: dict) -> str:
    v = attrs.get("format", attrs.get("data_format", "NCHW"))
    if isinstance(v, str):
        return v
    return _FORMATS[int(v)]


def _pair_tail(v: Any) -> tuple:
    """The spatial part of a stride / kernel attribute (the last two of four)."""
    t = _ints(v)
    return t[-2:] if len(t) >= 2 else t * 2


# ---------------------------------------------------------------------------- structure
STRUCTURAL: dict = {
    "MakeTuple": lambda a: tuple(a),
    "make_tuple": lambda a: tuple(a),
    "MakeList": lambda a: list(a),
    "make_list": lambda a: list(a),
    "TupleGetItem": lambda a: a[0][int(_ints(a[1])[0])],
    "tuple_getitem": lambda a: a[0][int(_ints(a[1])[0])],
    "ListGetItem": lambda a: a[0][int(_ints(a[1])[0])],
    "list_getitem": lambda a: a[0][int(_ints(a[1])[0])],
    "Depend": lambda a: a[0],
    "UpdateState": lambda a: MONAD,
    "Load": lambda a: a[0],
    "StopGradient": lambda a: a[0],
    "stop_gradient": lambda a: a[0],
}


# ---------------------------------------------------------------------------- kernels
def _conv2d(attrs: dict) -> Callable:
    pad = _ints(attrs.get("pad", 0))
    mode = _pad_mode(attrs.get("pad_mode", "valid"))
    op = P.Conv2D(out_channel=int(attrs["out_channel"]), kernel_size=_pair_tail(attrs["kernel_size"]),
                  pad_mode=mode, pad=pad if mode == "pad" else 0, stride=_pair_tail(attrs.get("stride", 1)),
                  dilation=_pair_tail(attrs.get("dilation", 1)),
                  group=int(attrs.get("group", attrs.get("groups", 1))), data_format=_format(attrs))
    return lambda x, w: op(x, w)


def _pool(cls: type) -> Callable:
    def make(attrs: dict) -> Callable:
        def run(x: Any, *rest: Any) -> Any:
            ks, st, pm, fmt = _inputs_or_attrs(attrs, ("kernel_size", "strides", "pad_mode", "format"),
                                               (1, 1, "valid", attrs.get("data_format", "NCHW")), rest)
            return cls(kernel_size=_pair_tail(ks), strides=_pair_tail(st), pad_mode=_pad_mode(pm),
                       data_format=_format({"format": fmt}))(x)
        return run
    return make


def _batch_norm(attrs: dict) -> Callable:
    ops: dict = {}

    def run(x: Any, scale: Any, bias: Any, mean: Any, var: Any, *rest: Any) -> tuple:
        training, eps, momentum, fmt = _inputs_or_attrs(
            attrs, ("is_training", "epsilon", "momentum", "format"), (False, 1e-5, 0.1, "NCHW"),
            tuple(r for r in rest if r is not MONAD))
        key = (bool(training), float(eps), float(momentum), _format({"format": fmt}))
        if key not in ops:
            ops[key] = P.BatchNorm(is_training=key[0], epsilon=key[1], momentum=key[2], data_format=key[3])
        return ops[key](x, scale, bias, mean, var)
    return run


def _layer_norm(attrs: dict) -> Callable:
    def run(x: Any, gamma: Any, beta: Any, *rest: Any) -> tuple:
        norm_axis, params_axis, eps = _inputs_or_attrs(
            attrs, ("begin_norm_axis", "begin_params_axis", "epsilon"), (1, 1, 1e-7), rest)
        op = P.LayerNorm(begin_norm_axis=int(norm_axis), begin_params_axis=int(params_axis), epsilon=float(eps))
        return op(x, gamma, beta)
    return run


def _matmul(cls: type) -> Callable:
    def make(attrs: dict) -> Callable:
        def run(a: Any, b: Any, *rest: Any) -> Any:
            ta, tb = _inputs_or_attrs(attrs, ("transpose_a", "transpose_b"), (False, False), rest)
            return cls(transpose_a=bool(ta), transpose_b=bool(tb))(a, b)
        return run
    return make


def _bias_add(attrs: dict) -> Callable:
    def run(x: Any, b: Any, *rest: Any) -> Any:
        fmt, = _inputs_or_attrs(attrs, ("format",), (attrs.get("data_format", "NCHW"),), rest)
        return P.BiasAdd(data_format=_format({"format": fmt}))(x, b)
    return run


def _softmax(fn: Callable) -> Callable:
    def make(attrs: dict) -> Callable:
        axes = _ints(attrs.get("axis", -1))

        def run(x: Any, *rest: Any) -> tf.Tensor:
            ax = _ints(rest[0]) if rest else axes
            return fn(_tf(x), axis=ax[0])
        return run
    return make


def _reduce(fn: Callable) -> Callable:
    def make(attrs: dict) -> Callable:
        keep = bool(attrs.get("keep_dims", False))

        def run(x: Any, axis: Any = (), *rest: Any) -> tf.Tensor:
            keep_dims = bool(rest[0]) if rest else keep
            ax = _ints(axis) if axis is not None else ()
            t = _tf(x)
            return fn(t, axis=list(ax) if ax else None, keepdims=keep_dims)
        return run
    return make


def _sum_ext(attrs: dict) -> Callable:
    def run(x: Any, dim: Any = None, keepdim: Any = False, dtype: Any = None, *_: Any) -> tf.Tensor:
        t = _tf(x)
        if dtype is not None:
            t = tf.cast(t, _dtype(dtype))
        elif t.dtype == tf.bool or t.dtype.is_integer and t.dtype.size < 8:
            t = tf.cast(t, tf.int64)  # integer sums widen to int64, as in MindSpore
        axis = list(_ints(dim)) if dim is not None and _ints(dim) else None
        return tf.reduce_sum(t, axis=axis, keepdims=bool(keepdim))
    return run


# MindSpore's TypeId numbers of the tensor dtypes (a dtype passed as an int input, e.g. Cast's).
def _cast(attrs: dict) -> Callable:
    return lambda x, dtype, *_: tf.cast(_tf(x), _dtype(dtype))


def _gelu(attrs: dict) -> Callable:
    return lambda x, *_: tf.nn.gelu(_tf(x), approximate=True)


def _conv2d_transpose(attrs: dict) -> Callable:
    mode = _pad_mode(attrs.get("pad_mode", "valid"))
    op = P.Conv2DTranspose(out_channel=int(attrs["out_channel"]), kernel_size=_pair_tail(attrs["kernel_size"]),
                           pad_mode=mode, pad=_ints(attrs.get("pad", 0)) if mode == "pad" else 0,
                           stride=_pair_tail(attrs.get("stride", 1)), dilation=_pair_tail(attrs.get("dilation", 1)),
                           group=int(attrs.get("group", attrs.get("groups", 1))), data_format=_format(attrs))
    return lambda dout, w, input_size: op(dout, w, _ints(input_size))


def _resize(kind: str) -> Callable:
    def make(attrs: dict) -> Callable:
        def run(x: Any, *rest: Any) -> Any:
            size, align, half = _inputs_or_attrs(attrs, ("size", "align_corners", "half_pixel_centers"),
                                                 (None, False, False), rest)
            size = _ints(size)[-2:]
            if kind == "bilinear":
                return P.ResizeBilinearV2(align_corners=bool(align), half_pixel_centers=bool(half))(x, size)
            return P.ResizeNearestNeighbor(size, align_corners=bool(align), half_pixel_centers=bool(half))(x)
        return run
    return make


def _prelu(attrs: dict) -> Callable:
    def run(x: Any, w: Any) -> tf.Tensor:
        t, wt = _tf(x), _tf(w)
        if t.shape.rank is not None and t.shape.rank > 1 and wt.shape.rank == 1:
            wt = tf.reshape(wt, [-1] + [1] * (t.shape.rank - 2))  # one slope per channel (axis 1)
        return tf.where(t >= 0, t, t * wt)
    return run


def _elu(attrs: dict) -> Callable:
    def run(x: Any, *rest: Any) -> tf.Tensor:
        alpha, = _inputs_or_attrs(attrs, ("alpha",), (1.0,), rest)
        t = _tf(x)
        return tf.where(t > 0, t, float(alpha) * tf.math.expm1(t))
    return run


def _adaptive_avg_pool(attrs: dict) -> Callable:
    def run(x: Any, *rest: Any) -> Any:
        size, = _inputs_or_attrs(attrs, ("output_size",), (None,), rest)
        size = tuple(None if s is None or int(s) <= 0 else int(s) for s in (size if isinstance(size, (tuple, list))
                                                                                 else (size, size)))
        return P.AdaptiveAvgPool2D(size)(x)
    return run


def _l2_normalize(attrs: dict) -> Callable:
    def run(x: Any, *rest: Any) -> Any:
        axis, eps = _inputs_or_attrs(attrs, ("axis", "epsilon"), (0, 1e-4), rest)
        axis = _ints(axis)
        return P.L2Normalize(axis=axis[0] if len(axis) == 1 else axis, epsilon=float(eps))(x)
    return run


def _unary(fn: Callable) -> Callable:
    return lambda attrs: (lambda x, *_: fn(_tf(x)))


def _binary(fn: Callable) -> Callable:
    def make(attrs: dict) -> Callable:
        def run(a: Any, b: Any) -> Any:
            ta, tb = _tf(a), _tf(b)
            if ta.dtype != tb.dtype:  # a Python-scalar operand takes the tensor's dtype
                if isinstance(b, (int, float, np.generic)) or tb.shape.rank == 0 and ta.shape.rank:
                    tb = tf.cast(tb, ta.dtype)
                else:
                    ta = tf.cast(ta, tb.dtype)
            return fn(ta, tb)
        return run
    return make


def _div(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
    return tf.math.truediv(a, b) if a.dtype.is_floating else tf.math.floordiv(a, b)


_KERNELS: dict = {
    **ARRAY_KERNELS,
    "Conv2D": _conv2d,
    "MaxPool": _pool(P.MaxPool),
    "AvgPool": _pool(P.AvgPool),
    "BatchNorm": _batch_norm,
    "LayerNorm": _layer_norm,
    "MatMul": _matmul(P.MatMul),
    "BatchMatMul": _matmul(P.BatchMatMul),
    "BiasAdd": _bias_add,
    "Softmax": _softmax(tf.nn.softmax),
    "LogSoftmax": _softmax(tf.nn.log_softmax),
    "ReduceMean": _reduce(tf.reduce_mean),
    "ReduceSum": _reduce(tf.reduce_sum),
    "ReduceMax": _reduce(tf.reduce_max),
    "ReduceMin": _reduce(tf.reduce_min),
    "ReduceProd": _reduce(tf.reduce_prod),
    "SumExt": _sum_ext,
    "ReduceAll": _reduce(tf.reduce_all),
    "ReduceAny": _reduce(tf.reduce_any),
    "Cast": _cast,
    "GeLU": _gelu,
    "Conv2DTranspose": _conv2d_transpose,
    "Conv2DBackpropInput": _conv2d_transpose,
    "ResizeBilinearV2": _resize("bilinear"),
    "ResizeNearestNeighbor": _resize("nearest"),
    "PReLU": _prelu,
    "Elu": _elu,
    "AdaptiveAvgPool2D": _adaptive_avg_pool,
    "L2Normalize": _l2_normalize,
    "Softplus": _unary(tf.math.softplus),
    "Reciprocal": _unary(tf.math.reciprocal),
    "Sin": _unary(tf.sin),
    "Cos": _unary(tf.cos),
    "Floor": _unary(tf.floor),
    "Ceil": _unary(tf.math.ceil),
    "Round": _unary(tf.round),
    "Sign": _unary(tf.sign),
    "Log1p": _unary(tf.math.log1p),
    "Expm1": _unary(tf.math.expm1),
    "Erfc": _unary(tf.math.erfc),
    "LogicalNot": _unary(tf.logical_not),
    "ReLU": _unary(tf.nn.relu),
    "ReLU6": _unary(tf.nn.relu6),
    "Sigmoid": _unary(tf.sigmoid),
    "Tanh": _unary(tf.tanh),
    "Erf": _unary(tf.math.erf),
    "HSwish": _unary(lambda x: x * tf.nn.relu6(x + 3.0) / 6.0),
    "HSigmoid": _unary(lambda x: tf.nn.relu6(x + 3.0) / 6.0),
    "Exp": _unary(tf.exp),
    "Log": _unary(tf.math.log),
    "Sqrt": _unary(tf.sqrt),
    "Rsqrt": _unary(tf.math.rsqrt),
    "Square": _unary(tf.square),
    "Neg": _unary(tf.negative),
    "Abs": _unary(tf.abs),
    "OnesLike": _unary(tf.ones_like),
    "ZerosLike": _unary(tf.zeros_like),
    "Add": _binary(tf.add),
    "Sub": _binary(tf.subtract),
    "Mul": _binary(tf.multiply),
    "Muls": _binary(tf.multiply),
    "RealDiv": _binary(tf.math.truediv),
    "Div": _binary(_div),
    "Maximum": _binary(tf.maximum),
    "Minimum": _binary(tf.minimum),
    "Pow": _binary(tf.pow),
    "Equal": _binary(tf.equal),
    "Less": _binary(tf.less),
    "Greater": _binary(tf.greater),
    "GreaterEqual": _binary(tf.greater_equal),
    "LessEqual": _binary(tf.less_equal),
    "NotEqual": _binary(tf.not_equal),
    "LogicalAnd": _binary(tf.logical_and),
    "LogicalOr": _binary(tf.logical_or),
    "FloorDiv": _binary(tf.math.floordiv),
    "FloorMod": _binary(tf.math.floormod),
    "DivNoNan": _binary(tf.math.divide_no_nan),
}


def has_kernel(op: str) -> bool:
    """Whether operator ``op`` can run."""
    return op in _KERNELS


def supported() -> list:
    """The names of every operator that can run (structural ones included)."""
    return sorted(set(_KERNELS) | set(STRUCTURAL) | {"Partial", "Switch"})


def build(op: str, attrs: dict, where: str) -> Callable:
    """The callable computing operator ``op`` with MindIR attributes ``attrs``.

    Args:
        op: the MindSpore primitive name.
        attrs: its attributes as read from the file.
        where: the node and file, for error messages.

    Raises:
        RuntimeError: when ``op`` has no kernel or its attributes do not fit it.
    """
    make = _KERNELS.get(op)
    if make is None:
        raise RuntimeError(f"For 'load', the operator '{op}' at {where} is not supported by tfspore.")
    try:
        return make(attrs)
    except (KeyError, ValueError, TypeError) as e:
        raise RuntimeError(f"For 'load', the operator '{op}' at {where} has attributes tfspore cannot read "
                           f"({type(e).__name__}: {e}); attributes: {attrs}.") from e
