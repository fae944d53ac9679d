"""Lowering rules of the element-wise, reduction and shape ops.

Shapes are static in an exported graph, so every shape op that only rearranges data
(``Reshape``, ``Squeeze``, ``ExpandDims``, ``Pack``/``Unpack``, ``Split``) becomes a MindSpore
``Reshape`` / ``StridedSlice`` / ``Concat`` with the traced shapes written in, and ops that
only need a shape (``ZerosLike``, ``Fill`` of a constant) become constants.
"""
from __future__ import annotations

import numpy as np
import tensorflow as tf

from tfspore.train.mindir._lowering import Lowering, registrar, tf_attr
from tfspore.train.mindir._ms_graph import DType, Value

__all__ = ["RULES"]

RULES: dict = {}
rule = registrar(RULES)


# ------------------------------------------------------------------------------ pass-through
@rule("Identity", "StopGradient", "Snapshot", "PreventGradient", "EnsureShape", "CheckNumerics")
def _identity(lw: Lowering, op: tf.Operation) -> list:
    return [lw.input(op, 0)]


@rule("IdentityN")
def _identity_n(lw: Lowering, op: tf.Operation) -> list:
    return [lw.value(t) for t in op.inputs]


# ------------------------------------------------------------------------------- element-wise
_UNARY = {"Relu": "ReLU", "Relu6": "ReLU6", "Sigmoid": "Sigmoid", "Tanh": "Tanh", "Erf": "Erf", "Exp": "Exp",
          "Log": "Log", "Sqrt": "Sqrt", "Rsqrt": "Rsqrt", "Abs": "Abs", "Neg": "Neg", "Square": "Square",
          "Floor": "Floor", "Ceil": "Ceil", "Sin": "Sin", "Cos": "Cos", "Reciprocal": "Reciprocal",
          "Inv": "Reciprocal", "Sign": "Sign", "LogicalNot": "LogicalNot", "Softplus": "Softplus",
          "Expm1": "Expm1", "Log1p": "Log1p", "Erfc": "Erfc", "Round": "Round"}

_BINARY = {"AddV2": "Add", "Add": "Add", "Sub": "Sub", "Mul": "Mul", "RealDiv": "RealDiv", "Maximum": "Maximum",
           "Minimum": "Minimum", "Pow": "Pow", "FloorDiv": "FloorDiv", "FloorMod": "FloorMod", "Equal": "Equal",
           "NotEqual": "NotEqual", "Greater": "Greater", "GreaterEqual": "GreaterEqual", "Less": "Less",
           "LessEqual": "LessEqual", "LogicalAnd": "LogicalAnd", "LogicalOr": "LogicalOr",
           "SquaredDifference": None, "DivNoNan": None, "Div": None}


@rule(*_UNARY)
def _unary(lw: Lowering, op: tf.Operation) -> list:
    inputs = [lw.input(op, 0)]
    if op.type == "Round":
        inputs.append(0)
    return [lw.emit(_UNARY[op.type], inputs, op)]


@rule("Elu")
def _elu(lw: Lowering, op: tf.Operation) -> list:
    return [lw.emit("Elu", [lw.input(op, 0), 1.0], op)]


@rule("LeakyRelu")
def _leaky_relu(lw: Lowering, op: tf.Operation) -> list:
    x = lw.input(op, 0)
    alpha = lw.graph.const(np.array(float(tf_attr(op, "alpha", 0.2)), x.dtype))
    scaled = lw.graph.emit("Mul", [x, alpha], x.shape, x.dtype)
    prim = "Maximum" if float(tf_attr(op, "alpha", 0.2)) <= 1 else "Minimum"
    return [lw.emit(prim, [x, scaled], op)]


@rule(*_BINARY)
def _binary(lw: Lowering, op: tf.Operation) -> list:
    a, b = lw.input(op, 0), lw.input(op, 1)
    g = lw.graph
    if op.type == "SquaredDifference":
        diff = g.emit("Sub", [a, b], lw.out_shape(op), lw.out_dtype(op))
        return [lw.emit("Square", [diff], op)]
    if op.type == "Div":
        prim = "RealDiv" if np.issubdtype(lw.out_dtype(op), np.floating) else "FloorDiv"
        return [lw.emit(prim, [a, b], op)]
    if op.type == "DivNoNan":
        return [lw.emit("DivNoNan", [a, b], op)]
    return [lw.emit(_BINARY[op.type], [a, b], op)]


@rule("AddN")
def _add_n(lw: Lowering, op: tf.Operation) -> list:
    acc = lw.input(op, 0)
    for i in range(1, len(op.inputs)):
        acc = lw.emit("Add", [acc, lw.input(op, i)], op)
    return [acc]


@rule("ClipByValue")
def _clip(lw: Lowering, op: tf.Operation) -> list:
    x = lw.input(op, 0)
    low = lw.emit("Maximum", [x, lw.input(op, 1)], op)
    return [lw.emit("Minimum", [low, lw.input(op, 2)], op)]


@rule("Select", "SelectV2")
def _select(lw: Lowering, op: tf.Operation) -> list:
    shape = lw.out_shape(op)
    cond, a, b = (lw.broadcast(lw.input(op, i), shape) for i in range(3))
    return [lw.emit("Select", [cond, a, b], op)]


@rule("Cast")
def _cast(lw: Lowering, op: tf.Operation) -> list:
    return [lw.graph.cast(lw.input(op, 0), lw.out_dtype(op))]


# -------------------------------------------------------------------------------- reductions
_REDUCE = {"Mean": "ReduceMean", "Sum": "ReduceSum", "Max": "ReduceMax", "Min": "ReduceMin", "Prod": "ReduceProd",
           "All": "ReduceAll", "Any": "ReduceAny"}


@rule(*_REDUCE)
def _reduce(lw: Lowering, op: tf.Operation) -> list:
    x = lw.input(op, 0)
    axis = np.atleast_1d(lw.need_static(op, 1, "axis")).astype(np.int64)
    axis = tuple(int(a) % max(len(x.shape), 1) for a in axis)
    if not axis:  # TensorFlow reduces nothing over no axes; MindSpore's empty tuple means every axis
        return [x]
    keep = bool(tf_attr(op, "keep_dims", False))
    if op.type in ("Mean", "Sum", "Prod") and x.dtype == np.float16:
        # TensorFlow's CPU kernels accumulate float16 in float32; MindSpore's would in float16
        x = lw.graph.cast(x, np.float32)
    inputs = [x, axis, keep]
    if op.type == "Sum":
        inputs.append(False)
    out = lw.graph.emit(_REDUCE[op.type], inputs, lw.out_shape(op), x.dtype)
    return [lw.graph.cast(out, lw.out_dtype(op))]


@rule("ArgMax", "ArgMin")
def _argmax(lw: Lowering, op: tf.Operation) -> list:
    axis = int(lw.need_static(op, 1, "axis"))
    prim = "Argmax" if op.type == "ArgMax" else "Argmin"
    out = lw.emit(prim, [lw.input(op, 0), axis, DType(np.dtype(np.int32))], op)
    out.dtype = np.dtype(np.int32)
    return [lw.graph.cast(out, lw.out_dtype(op))]


@rule("Cumsum")
def _cumsum(lw: Lowering, op: tf.Operation) -> list:
    axis = int(lw.need_static(op, 1, "axis"))
    exclusive, reverse = bool(tf_attr(op, "exclusive", False)), bool(tf_attr(op, "reverse", False))
    return [lw.emit("CumSum", [lw.input(op, 0), axis, exclusive, reverse], op)]


# ------------------------------------------------------------------------------------ shapes
@rule("Reshape", "Squeeze", "ExpandDims")
def _reshape(lw: Lowering, op: tf.Operation) -> list:
    return [lw.graph.reshape(lw.input(op, 0), lw.out_shape(op))]


@rule("Transpose")
def _transpose(lw: Lowering, op: tf.Operation) -> list:
    perm = lw.need_static(op, 1, "permutation")
    return [lw.graph.transpose(lw.input(op, 0), tuple(int(p) for p in perm))]


@rule("ConcatV2")
def _concat(lw: Lowering, op: tf.Operation) -> list:
    n = len(op.inputs) - 1
    axis = int(lw.need_static(op, n, "axis"))
    parts = [lw.input(op, i) for i in range(n)]
    if len(parts) == 1:
        return parts
    return [lw.emit("Concat", [tuple(parts), axis], op)]


@rule("Pack")
def _pack(lw: Lowering, op: tf.Operation) -> list:
    axis = int(tf_attr(op, "axis", 0))
    out = lw.out_shape(op)
    axis %= len(out)
    expanded = out[:axis] + (1,) + out[axis + 1:]
    parts = [lw.graph.reshape(lw.input(op, i), expanded) for i in range(len(op.inputs))]
    if len(parts) == 1:
        return parts
    return [lw.emit("Concat", [tuple(parts), axis], op)]


def _slice(lw: Lowering, x: Value, begin: list, end: list, shape: tuple) -> Value:
    """``StridedSlice`` of ``x`` from ``begin`` to ``end`` (unit strides, static bounds)."""
    if list(begin) == [0] * len(begin) and tuple(end) == x.shape:
        return x
    if x.kind == "const":
        return lw.graph.const(x.data[tuple(slice(b, e) for b, e in zip(begin, end))])
    strides = (1,) * len(begin)
    return lw.graph.emit("StridedSlice", [x, tuple(int(b) for b in begin), tuple(int(e) for e in end), strides,
                                          0, 0, 0, 0, 0], shape, x.dtype)


@rule("Unpack")
def _unpack(lw: Lowering, op: tf.Operation) -> list:
    x = lw.input(op, 0)
    axis = int(tf_attr(op, "axis", 0)) % len(x.shape)
    outs = []
    for i in range(len(op.outputs)):
        begin = [0] * len(x.shape)
        end = list(x.shape)
        begin[axis], end[axis] = i, i + 1
        piece = _slice(lw, x, begin, end, tuple(end[:axis]) + (1,) + tuple(end[axis + 1:]))
        outs.append(lw.graph.reshape(piece, lw.out_shape(op, i)))
    return outs


@rule("Split", "SplitV")
def _split(lw: Lowering, op: tf.Operation) -> list:
    if op.type == "Split":
        x = lw.input(op, 1)
        axis = int(lw.need_static(op, 0, "axis"))
    else:
        x = lw.input(op, 0)
        axis = int(lw.need_static(op, 2, "axis"))
    axis %= len(x.shape)
    outs, start = [], 0
    for i in range(len(op.outputs)):
        shape = lw.out_shape(op, i)
        begin = [0] * len(x.shape)
        end = list(x.shape)
        begin[axis], end[axis] = start, start + shape[axis]
        outs.append(_slice(lw, x, begin, end, shape))
        start += shape[axis]
    return outs


@rule("Slice")
def _slice_op(lw: Lowering, op: tf.Operation) -> list:
    x = lw.input(op, 0)
    begin = [int(b) for b in lw.need_static(op, 1, "begin")]
    shape = lw.out_shape(op)
    return [_slice(lw, x, begin, [b + s for b, s in zip(begin, shape)], shape)]


@rule("StridedSlice")
def _strided_slice(lw: Lowering, op: tf.Operation) -> list:
    x = lw.input(op, 0)
    begin, end, strides = (tuple(int(v) for v in lw.need_static(op, i, what))
                           for i, what in ((1, "begin"), (2, "end"), (3, "strides")))
    masks = [int(tf_attr(op, m, 0)) for m in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                             "shrink_axis_mask")]
    return [lw.emit("StridedSlice", [x, begin, end, strides] + masks, op)]


@rule("Tile")
def _tile(lw: Lowering, op: tf.Operation) -> list:
    multiples = tuple(int(m) for m in lw.need_static(op, 1, "multiples"))
    return [lw.emit("Tile", [lw.input(op, 0), multiples], op)]


@rule("BroadcastTo")
def _broadcast_to(lw: Lowering, op: tf.Operation) -> list:
    return [lw.broadcast(lw.input(op, 0), lw.out_shape(op))]


@rule("Pad", "PadV2")
def _pad(lw: Lowering, op: tf.Operation) -> list:
    x = lw.input(op, 0)
    pads = [tuple(int(p) for p in row) for row in lw.need_static(op, 1, "paddings")]
    value = lw.need_static(op, 2, "constant value") if op.type == "PadV2" else np.zeros((), x.dtype)
    # PadV3's contiguous paddings run from the last dimension backwards: (before, after) each
    flat = tuple(v for row in reversed(pads) for v in row)
    attrs = {"mode": "constant", "paddings_contiguous": True}
    return [lw.emit("PadV3", [x, flat, lw.graph.const(np.asarray(value, x.dtype))], op, attrs)]


@rule("ZerosLike", "OnesLike")
def _fill_like(lw: Lowering, op: tf.Operation) -> list:
    fill = np.zeros if op.type == "ZerosLike" else np.ones
    return [lw.graph.const(fill(lw.out_shape(op), lw.out_dtype(op)))]


@rule("Fill")
def _fill(lw: Lowering, op: tf.Operation) -> list:
    value = lw.need_static(op, 1, "value")
    return [lw.graph.const(np.full(lw.out_shape(op), value, lw.out_dtype(op)))]


@rule("OneHot")
def _one_hot(lw: Lowering, op: tf.Operation) -> list:
    depth = int(lw.need_static(op, 1, "depth"))
    axis = int(tf_attr(op, "axis", -1))
    return [lw.emit("OneHot", [lw.input(op, 0), depth, lw.input(op, 2), lw.input(op, 3), axis], op)]
