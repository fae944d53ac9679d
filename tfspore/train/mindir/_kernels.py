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
from tfspore.train.mindir._reader import MONAD, DType

__all__ = ["STRUCTURAL", "PrimitiveValue", "build", "has_kernel", "supported"]


class PrimitiveValue:
    """An operator used as a value (an argument of ``Partial`` or a call)."""

    def __init__(self, op_type: str, attrs: dict):
        self.op_type = op_type
        self.attrs = attrs


def _tf(x: Any) -> tf.Tensor:
    if isinstance(x, DType):
        raise TypeError(f"a data type {x.np_dtype} where a tensor is expected")
    return tf.convert_to_tensor(x)


def _ints(v: Any) -> tuple:
    if isinstance(v, (tuple, list)):
        return tuple(int(i) for i in v)
    if isinstance(v, np.ndarray):
        return tuple(int(i) for i in v.reshape(-1))
    if isinstance(v, (tf.Tensor, tf.Variable)):
        return tuple(int(i) for i in tf.get_static_value(v).reshape(-1))
    return (int(v),)


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


def _inputs_or_attrs(attrs: dict, names: tuple, defaults: tuple, rest: tuple) -> list:
    """The operator arguments ``names``: MindSpore 2.x passes them as node inputs (``rest``, in
    order), older writers as primitive attributes."""
    out = []
    for i, (name, default) in enumerate(zip(names, defaults)):
        out.append(rest[i] if i < len(rest) else attrs.get(name, default))
    return out


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


def _reshape(attrs: dict) -> Callable:
    return lambda x, shape: tf.reshape(_tf(x), _ints(shape))


def _flatten(attrs: dict) -> Callable:
    def run(x: Any) -> tf.Tensor:
        t = _tf(x)
        return tf.reshape(t, [tf.shape(t)[0] if t.shape[0] is None else t.shape[0], -1])
    return run


def _transpose(attrs: dict) -> Callable:
    return lambda x, perm: tf.transpose(_tf(x), _ints(perm))


def _expand_dims(attrs: dict) -> Callable:
    return lambda x, axis: tf.expand_dims(_tf(x), _ints(axis)[0])


def _squeeze(attrs: dict) -> Callable:
    def run(x: Any, *rest: Any) -> tf.Tensor:
        axis, = _inputs_or_attrs(attrs, ("axis",), ((),), rest)
        axis = _ints(axis) if axis is not None else ()
        return tf.squeeze(_tf(x), list(axis) if axis else None)
    return run


def _tile(attrs: dict) -> Callable:
    return lambda x, multiples: tf.tile(_tf(x), _ints(multiples))


def _concat(attrs: dict) -> Callable:
    default = int(attrs.get("axis", 0))

    def run(values: Any, *rest: Any) -> tf.Tensor:
        axis = _ints(rest[0])[0] if rest else default
        return tf.concat([_tf(v) for v in values], axis)
    return run


# MindSpore's TypeId numbers of the tensor dtypes (a dtype passed as an int input, e.g. Cast's).
_TYPE_IDS = {30: tf.bool, 32: tf.int8, 33: tf.int16, 34: tf.int32, 35: tf.int64, 37: tf.uint8, 38: tf.uint16,
             39: tf.uint32, 40: tf.uint64, 42: tf.float16, 43: tf.float32, 44: tf.float64, 45: tf.bfloat16,
             46: tf.float64, 51: tf.complex64, 52: tf.complex128}


def _dtype(value: Any) -> tf.DType:
    if isinstance(value, DType):
        return value.tf_dtype
    if isinstance(value, (int, np.integer)):
        if int(value) not in _TYPE_IDS:
            raise ValueError(f"unknown MindSpore type id {value}")
        return _TYPE_IDS[int(value)]
    return tf.as_dtype(value)


def _cast(attrs: dict) -> Callable:
    return lambda x, dtype, *_: tf.cast(_tf(x), _dtype(dtype))


def _gather(attrs: dict) -> Callable:
    def run(params: Any, indices: Any, axis: Any = 0, *rest: Any) -> tf.Tensor:
        batch_dims = int(_ints(rest[0])[0]) if rest else int(attrs.get("batch_dims", 0))
        return tf.gather(_tf(params), _tf(indices), axis=_ints(axis)[0], batch_dims=batch_dims)
    return run


def _strided_slice(attrs: dict) -> Callable:
    masks = {k: int(attrs.get(k, 0)) for k in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                               "shrink_axis_mask")}

    def run(x: Any, begin: Any, end: Any, strides: Any, *rest: Any) -> tf.Tensor:
        m = dict(masks)
        if rest:  # the masks as inputs
            for k, v in zip(("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"), rest):
                m[k] = int(_ints(v)[0])
        return tf.strided_slice(_tf(x), _ints(begin), _ints(end), _ints(strides), **m)
    return run


def _pad(attrs: dict) -> Callable:
    paddings = attrs.get("paddings")

    def run(x: Any, *rest: Any) -> tf.Tensor:
        pads = rest[0] if rest else paddings
        return tf.pad(_tf(x), [list(_ints(p)) for p in pads])
    return run


def _pad_v3(attrs: dict) -> Callable:
    """MindSpore's PadV3: ``paddings`` from the last dimension backwards, ``(before, after)`` per
    dimension when ``paddings_contiguous`` (else all befores, then all afters)."""
    modes = {"constant": "CONSTANT", "reflect": "REFLECT"}

    def run(x: Any, paddings: Any, value: Any = 0, *rest: Any) -> tf.Tensor:
        t = _tf(x)
        flat = _ints(paddings)
        half = len(flat) // 2
        pairs = ([(flat[2 * i], flat[2 * i + 1]) for i in range(half)] if attrs.get("paddings_contiguous", True)
                 else [(flat[i], flat[half + i]) for i in range(half)])
        rank = t.shape.rank
        pads = [[0, 0] for _ in range(rank)]
        for i, (before, after) in enumerate(pairs):
            pads[rank - 1 - i] = [before, after]
        mode = str(attrs.get("mode", "constant")).lower()
        if mode not in modes:
            raise ValueError(f"PadV3 mode {mode!r} is not supported (constant, reflect)")
        if mode == "constant":
            return tf.pad(t, pads, constant_values=tf.reshape(tf.cast(_tf(value), t.dtype), []))
        return tf.pad(t, pads, mode=modes[mode])
    return run


def _gelu(attrs: dict) -> Callable:
    return lambda x, *_: tf.nn.gelu(_tf(x), approximate=True)


def _shape(attrs: dict) -> Callable:
    def run(x: Any) -> Any:
        t = _tf(x)
        if t.shape.is_fully_defined():
            return tuple(int(d) for d in t.shape)
        return tf.shape(t)
    return run


def _range(attrs: dict) -> Callable:
    def run(start: Any, limit: Any, delta: Any, *rest: Any) -> tf.Tensor:
        dtype = _dtype(rest[0]) if rest else None
        out = tf.range(_tf(start), _tf(limit), _tf(delta))
        return tf.cast(out, dtype) if dtype is not None else out
    return run


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


def _select(attrs: dict) -> Callable:
    return lambda cond, a, b: tf.where(tf.cast(_tf(cond), tf.bool), _tf(a), _tf(b))


def _broadcast_to(attrs: dict) -> Callable:
    def run(x: Any, *rest: Any) -> tf.Tensor:
        shape, = _inputs_or_attrs(attrs, ("shape",), (None,), rest)
        t = _tf(x)
        dims = [int(t.shape[i - len(_ints(shape)) + t.shape.rank]) if d == -1 else d
                for i, d in enumerate(_ints(shape))]
        return tf.broadcast_to(t, dims)
    return run


def _cumsum(attrs: dict) -> Callable:
    def run(x: Any, axis: Any, *rest: Any) -> tf.Tensor:
        exclusive, reverse = _inputs_or_attrs(attrs, ("exclusive", "reverse"), (False, False), rest)
        return tf.cumsum(_tf(x), _ints(axis)[0], exclusive=bool(exclusive), reverse=bool(reverse))
    return run


def _argmax(fn: Callable) -> Callable:
    def make(attrs: dict) -> Callable:
        def run(x: Any, *rest: Any) -> tf.Tensor:
            axis, out_type = _inputs_or_attrs(attrs, ("axis", "output_type"), (-1, 34), rest)
            return fn(_tf(x), axis=_ints(axis)[0], output_type=_dtype(out_type))
        return run
    return make


def _onehot(attrs: dict) -> Callable:
    def run(indices: Any, depth: Any, on: Any, off: Any, *rest: Any) -> tf.Tensor:
        axis, = _inputs_or_attrs(attrs, ("axis",), (-1,), rest)
        on_t, off_t = _tf(on), _tf(off)
        return tf.one_hot(_tf(indices), _ints(depth)[0], on_t, off_t, axis=_ints(axis)[0], dtype=on_t.dtype)
    return run


def _split(attrs: dict) -> Callable:
    def run(x: Any, *rest: Any) -> tuple:
        axis, num = _inputs_or_attrs(attrs, ("axis", "output_num"), (0, 1), rest)
        return tuple(tf.split(_tf(x), _ints(num)[0], axis=_ints(axis)[0]))
    return run


def _slice(attrs: dict) -> Callable:
    return lambda x, begin, size: tf.slice(_tf(x), _ints(begin), _ints(size))


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
    "Reshape": _reshape,
    "Flatten": _flatten,
    "Transpose": _transpose,
    "ExpandDims": _expand_dims,
    "Squeeze": _squeeze,
    "Tile": _tile,
    "Concat": _concat,
    "Cast": _cast,
    "Gather": _gather,
    "StridedSlice": _strided_slice,
    "Pad": _pad,
    "PadV3": _pad_v3,
    "GeLU": _gelu,
    "Shape": _shape,
    "Range": _range,
    "Conv2DTranspose": _conv2d_transpose,
    "Conv2DBackpropInput": _conv2d_transpose,
    "ResizeBilinearV2": _resize("bilinear"),
    "ResizeNearestNeighbor": _resize("nearest"),
    "PReLU": _prelu,
    "Elu": _elu,
    "AdaptiveAvgPool2D": _adaptive_avg_pool,
    "L2Normalize": _l2_normalize,
    "Select": _select,
    "BroadcastTo": _broadcast_to,
    "CumSum": _cumsum,
    "Argmax": _argmax(tf.argmax),
    "Argmin": _argmax(tf.argmin),
    "OneHot": _onehot,
    "Split": _split,
    "Slice": _slice,
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
