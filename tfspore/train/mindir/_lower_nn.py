"""Lowering rules of the neural-network ops: variables, convolution, pooling, matmul, normalization,
softmax and gathers.

MindSpore's ``Conv2D``, ``MaxPool`` and ``AvgPool`` take NCHW data and OIHW weights. tfspore's
CPU kernels run channels-last between transposes, so a rule on NHWC data transposes to NCHW
and back; :meth:`MsGraph.transpose` drops the pairs that cancel (between consecutive layers, and
the weight's own ``OIHW -> HWIO`` transpose), so the written graph is channels-first throughout.
"""
from __future__ import annotations

import numpy as np
import tensorflow as tf

from tfspore.train.mindir._lowering import Lowering, registrar, tf_attr
from tfspore.train.mindir._ms_graph import Value

__all__ = ["RULES"]

RULES: dict = {}
rule = registrar(RULES)

_TO_NCHW = (0, 3, 1, 2)
_TO_NHWC = (0, 2, 3, 1)


def _fmt(op: tf.Operation) -> str:
    fmt = tf_attr(op, "data_format", b"NHWC")
    return fmt.decode() if isinstance(fmt, bytes) else str(fmt)


# ------------------------------------------------------------------------------ variables
@rule("ReadVariableOp")
def _read_variable(lw: Lowering, op: tf.Operation) -> list:
    return [_resource(lw, op, op.inputs[0])]


def _resource(lw: Lowering, op: tf.Operation, handle: tf.Tensor) -> Value:
    found = lw.traced.params.get(handle.name)
    if found is not None:
        name, param = found
        return lw.graph.param(name, np.asarray(param.asnumpy()))
    const = lw.static(handle)
    if const is not None:
        return lw.graph.const(const)
    raise lw.unsupported(op, "it reads a TensorFlow variable that is not a Parameter of the network")


@rule("ResourceGather")
def _resource_gather(lw: Lowering, op: tf.Operation) -> list:
    table = _resource(lw, op, op.inputs[0])
    batch_dims = int(tf_attr(op, "batch_dims", 0))
    return [lw.emit("Gather", [table, lw.input(op, 1), batch_dims, batch_dims], op)]


@rule("GatherV2")
def _gather(lw: Lowering, op: tf.Operation) -> list:
    axis = int(lw.need_static(op, 2, "axis"))
    batch_dims = int(tf_attr(op, "batch_dims", 0))
    return [lw.emit("Gather", [lw.input(op, 0), lw.input(op, 1), axis, batch_dims], op)]


@rule("GatherNd")
def _gather_nd(lw: Lowering, op: tf.Operation) -> list:
    return [lw.emit("GatherNd", [lw.input(op, 0), lw.input(op, 1)], op)]


@rule("TopKV2")
def _top_k(lw: Lowering, op: tf.Operation) -> list:
    """MindSpore's ``TopK`` (a classic primitive: ``sorted`` is an attribute, ``k`` an operand);
    its indices are int32, cast to TensorFlow's index type when that differs."""
    k = int(lw.need_static(op, 1, "k"))
    sort = bool(tf_attr(op, "sorted", True))
    values, indices = lw.graph.emit_multi(
        "TopK", [lw.input(op, 0), k], [(lw.out_shape(op, 0), lw.out_dtype(op, 0)), (lw.out_shape(op, 1), np.int32)],
        {"sorted": sort})
    return [values, lw.graph.cast(indices, lw.out_dtype(op, 1))]


# ---------------------------------------------------------------------------- convolution
def _pads(op: tf.Operation, fmt: str) -> tuple[str, tuple]:
    padding = tf_attr(op, "padding").decode()
    if padding == "EXPLICIT":
        flat = list(tf_attr(op, "explicit_paddings"))
        pairs = [flat[i:i + 2] for i in range(0, len(flat), 2)]
        hw = pairs[1:3] if fmt == "NHWC" else pairs[2:4]
        return "pad", (hw[0][0], hw[0][1], hw[1][0], hw[1][1])
    return padding.lower(), (0, 0, 0, 0)


def _spatial(values, fmt: str) -> tuple:
    values = list(values)
    return tuple(values[1:3]) if fmt == "NHWC" else tuple(values[2:4])


def _to_nchw(lw: Lowering, x: Value, fmt: str) -> Value:
    return lw.graph.transpose(x, _TO_NCHW) if fmt == "NHWC" else x


def _from_nchw(lw: Lowering, y: Value, fmt: str) -> Value:
    return lw.graph.transpose(y, _TO_NHWC) if fmt == "NHWC" else y


def _nchw_shape(shape: tuple, fmt: str) -> tuple:
    return tuple(shape[p] for p in _TO_NCHW) if fmt == "NHWC" else shape


def _conv(lw: Lowering, op: tf.Operation, x: Value, weight: Value, group: int) -> Value:
    """``Conv2D`` on NCHW ``x`` with OIHW ``weight``; returns the output in ``op``'s layout."""
    fmt = _fmt(op)
    pad_mode, pad = _pads(op, fmt)
    stride = _spatial(tf_attr(op, "strides"), fmt)
    dilation = _spatial(tf_attr(op, "dilations", [1, 1, 1, 1]), fmt)
    out_channel, _, kh, kw = weight.shape
    attrs = {"kernel_size": (kh, kw), "mode": 1, "out_channel": out_channel, "pad_mode": pad_mode,
             "pad": pad, "stride": (1, 1) + stride, "dilation": (1, 1) + dilation, "group": group,
             "groups": group, "format": "NCHW", "pad_list": pad}
    shape = _nchw_shape(lw.out_shape(op), fmt)
    x = _to_nchw(lw, x, fmt)
    if pad_mode == "valid":
        unpadded, spatial = _zero_spatial_pad(lw, x)
        if unpadded is not None:  # the explicit padding tfspore's kernels add: Conv2D's own 'pad' mode
            x = unpadded
            attrs.update(pad_mode="pad", pad=spatial, pad_list=spatial)
    y = lw.graph.emit("Conv2D", [x, weight], shape, lw.out_dtype(op), attrs)
    return _from_nchw(lw, y, fmt)


def _zero_spatial_pad(lw: Lowering, x: Value) -> tuple:
    """``(source, (top, bottom, left, right))`` when NCHW ``x`` is a zero ``PadV3`` of H and W only (possibly
    seen through the NHWC -> NCHW transpose), else ``(None, None)``."""
    through = x.kind == "node" and x.node.prim == "Transpose" and tuple(x.node.inputs[1]) == _TO_NCHW
    pad = x.node.inputs[0] if through else x
    if pad.kind != "node" or pad.node.prim != "PadV3" or pad.node.attrs.get("mode") != "constant":
        return None, None
    src, flat, value = pad.node.inputs
    if len(src.shape) != 4 or value.kind != "const" or np.any(value.data != 0):
        return None, None
    rows = [flat[i:i + 2] for i in range(0, len(flat), 2)][::-1]  # back to first-dimension-first
    rows += [(0, 0)] * (4 - len(rows))
    h, w = (rows[1], rows[2]) if through else (rows[2], rows[3])
    other = (rows[0], rows[3]) if through else (rows[0], rows[1])
    if any(tuple(r) != (0, 0) for r in other):
        return None, None
    spatial = (int(h[0]), int(h[1]), int(w[0]), int(w[1]))
    return (lw.graph.transpose(src, _TO_NCHW) if through else src), spatial


@rule("Conv2D")
def _conv2d(lw: Lowering, op: tf.Operation) -> list:
    fmt = _fmt(op)
    x = lw.input(op, 0)
    weight = lw.graph.transpose(lw.input(op, 1), (3, 2, 0, 1))  # HWIO -> OIHW
    in_channels = _nchw_shape(x.shape, fmt)[1]
    group = in_channels // weight.shape[1]
    return [_conv(lw, op, x, weight, group)]


@rule("DepthwiseConv2dNative")
def _depthwise(lw: Lowering, op: tf.Operation) -> list:
    x = lw.input(op, 0)
    filt = lw.input(op, 1)  # (kh, kw, in, multiplier)
    kh, kw, cin, mult = filt.shape
    weight = lw.graph.reshape(lw.graph.transpose(filt, (2, 3, 0, 1)), (cin * mult, 1, kh, kw))
    return [_conv(lw, op, x, weight, cin)]


# -------------------------------------------------------------------------------- pooling
@rule("MaxPool", "AvgPool")
def _pool(lw: Lowering, op: tf.Operation) -> list:
    fmt = _fmt(op)
    padding = tf_attr(op, "padding").decode()
    if padding not in ("VALID", "SAME"):
        raise lw.unsupported(op, f"padding {padding!r}")
    ksize = _spatial(tf_attr(op, "ksize"), fmt)
    strides = _spatial(tf_attr(op, "strides"), fmt)
    x = _to_nchw(lw, lw.input(op, 0), fmt)
    shape = _nchw_shape(lw.out_shape(op), fmt)
    if op.type == "MaxPool":
        attrs = {"kernel_size": (1, 1) + ksize, "strides": (1, 1) + strides, "pad_mode": padding, "format": "NCHW"}
        y = lw.graph.emit("MaxPool", [x], shape, lw.out_dtype(op), attrs)
    else:  # a PRIMITIVE_FUNCTION: kernel, strides, pad mode (MindSpore's enum: SAME 1, VALID 2), format (NCHW 0)
        # SAME leaves the padding out of the divisor in both frameworks
        low = x.dtype
        x = lw.graph.cast(x, np.float32) if low == np.float16 else x  # TensorFlow sums float16 in float32
        y = lw.graph.emit("AvgPool", [x, ksize, strides, 1 if padding == "SAME" else 2, 0], shape, x.dtype)
        y = lw.graph.cast(y, low)
    return [_from_nchw(lw, y, fmt)]


# --------------------------------------------------------------------------------- matmul
@rule("MatMul")
def _matmul(lw: Lowering, op: tf.Operation) -> list:
    ta, tb = bool(tf_attr(op, "transpose_a", False)), bool(tf_attr(op, "transpose_b", False))
    return [lw.emit("MatMul", [lw.input(op, 0), lw.input(op, 1), ta, tb], op)]


@rule("BatchMatMulV2", "BatchMatMulV3", "BatchMatMul")
def _batch_matmul(lw: Lowering, op: tf.Operation) -> list:
    a, b = lw.input(op, 0), lw.input(op, 1)
    ta, tb = bool(tf_attr(op, "adj_x", False)), bool(tf_attr(op, "adj_y", False))
    if len(a.shape) != len(b.shape) or a.shape[:-2] != b.shape[:-2]:
        out = lw.out_shape(op)
        a = lw.broadcast(a, out[:-2] + a.shape[-2:])
        b = lw.broadcast(b, out[:-2] + b.shape[-2:])
    return [lw.emit("BatchMatMul", [a, b, ta, tb], op)]


@rule("BiasAdd", "BiasAddV1")
def _bias_add(lw: Lowering, op: tf.Operation) -> list:
    x, bias = lw.input(op, 0), lw.input(op, 1)
    if _fmt(op) == "NCHW" and len(x.shape) > 2:
        bias = lw.graph.reshape(bias, (bias.shape[0],) + (1,) * (len(x.shape) - 2))
    return [lw.emit("Add", [x, bias], op)]


# -------------------------------------------------------------------------- normalization
@rule("FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3")
def _fused_batch_norm(lw: Lowering, op: tf.Operation) -> list:
    if tf_attr(op, "is_training", True):
        raise lw.unsupported(op, "batch normalization with batch statistics (training mode): call "
                                 "net.set_train(False) before exporting")
    fmt = _fmt(op)
    x, scale, offset, mean, var = (lw.input(op, i) for i in range(5))
    eps = float(tf_attr(op, "epsilon", 1e-3))
    rank = len(x.shape)
    bshape = [1] * rank
    channel = rank - 1 if fmt.endswith("C") else 1
    bshape[channel] = x.shape[channel]
    g = lw.graph
    dt = x.dtype
    inv = g.emit("Rsqrt", [g.emit("Add", [var, g.const(np.array(eps, scale.dtype))], var.shape, var.dtype)],
                 var.shape, var.dtype)
    factor = g.emit("Mul", [inv, scale], scale.shape, scale.dtype)
    shift = g.emit("Sub", [offset, g.emit("Mul", [mean, factor], mean.shape, mean.dtype)], offset.shape,
                   offset.dtype)
    y = g.emit("Mul", [x, g.reshape(g.cast(factor, dt), bshape)], x.shape, dt)
    y = g.emit("Add", [y, g.reshape(g.cast(shift, dt), bshape)], x.shape, dt)
    return [y] + [None] * (len(op.outputs) - 1)


# ---------------------------------------------------------------------------------- softmax
@rule("Softmax", "LogSoftmax")
def _softmax(lw: Lowering, op: tf.Operation) -> list:
    axis = (-1,) if op.type == "Softmax" else -1  # Softmax takes a tuple of axes, LogSoftmax one axis
    return [lw.emit(op.type, [lw.input(op, 0), axis], op)]
