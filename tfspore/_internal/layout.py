"""Which TensorFlow kernels take NCHW data on this machine.

GPUs run NCHW convolution and pooling natively. On CPUs it depends on the build and the op:
with oneDNN (the default x86 Linux wheels, unless ``TF_ENABLE_ONEDNN_OPTS=0``) convolution
and its gradients take NCHW when the padding is 'VALID' or 'SAME' (explicit padding falls back
to an NHWC-only kernel, so the ops pad first), while the pooling gradients are NHWC-only.
Each kernel kind is probed once, eagerly, forward and backward, on a tiny input; where the
probe fails the ops transpose to NHWC and back. ``TFSPORE_NCHW=0`` / ``1`` forces the choice.

The helpers here are shared by ``ops`` (convolution, pooling, concat), ``nn`` (layers that keep
convolution outputs in NHWC between layers) and ``common`` (element-wise Tensor operators).
"""
from __future__ import annotations

import os

from typing import Any

import tensorflow as tf

__all__ = ["TO_NCHW", "TO_NHWC", "binary_through_nchw", "concat_through_nchw", "elementwise_through_nchw",
           "gpu_visible", "nchw_supported", "to_nhwc", "transposed_from"]

_CACHE: dict = {}


def _probe(kind: str, dtype: tf.DType = tf.float32) -> bool:
    """Run the forward and gradient kernels of ``kind`` in NCHW (raw ops: tapes are paused in init_scope)."""
    raw = tf.raw_ops
    x = tf.ones([1, 2, 4, 4], dtype)
    w = tf.ones([2, 2, 2, 2], dtype)
    nchw = dict(data_format="NCHW")
    if kind in ("conv", "conv_transpose"):
        y = raw.Conv2D(input=x, filter=w, strides=[1, 1, 2, 2], padding="SAME", **nchw)
        raw.Conv2DBackpropInput(input_sizes=[1, 2, 4, 4], filter=w, out_backprop=y, strides=[1, 1, 2, 2],
                                padding="SAME", **nchw)
        raw.Conv2DBackpropFilter(input=x, filter_sizes=[2, 2, 2, 2], out_backprop=y, strides=[1, 1, 2, 2],
                                 padding="SAME", **nchw)
        raw.Conv2DBackpropInput(input_sizes=[1, 2, 5, 5], filter=w, out_backprop=x, strides=[1, 1, 1, 1],
                                padding="VALID", **nchw)
    elif kind == "maxpool":
        y = raw.MaxPool(input=x, ksize=[1, 1, 2, 2], strides=[1, 1, 2, 2], padding="VALID", **nchw)
        raw.MaxPoolGrad(orig_input=x, orig_output=y, grad=y, ksize=[1, 1, 2, 2], strides=[1, 1, 2, 2],
                        padding="VALID", **nchw)
    elif kind == "avgpool":
        y = raw.AvgPool(value=x, ksize=[1, 1, 2, 2], strides=[1, 1, 2, 2], padding="VALID", **nchw)
        raw.AvgPoolGrad(orig_input_shape=[1, 2, 4, 4], grad=y, ksize=[1, 1, 2, 2], strides=[1, 1, 2, 2],
                        padding="VALID", **nchw)
    else:
        return False
    return True


def gpu_visible() -> bool:
    """Whether TensorFlow sees a GPU."""
    res = _CACHE.get("gpu")
    if res is None:
        res = _CACHE["gpu"] = bool(tf.config.list_logical_devices("GPU"))
    return res


def nchw_supported(kind: str, dtype: tf.DType = tf.float32) -> bool:
    """Whether ``kind`` ('conv', 'conv_transpose', 'maxpool', 'avgpool') runs with ``data_format='NCHW'`` here,
    for ``dtype`` data (oneDNN's CPU kernels cover some float types only, e.g. no float16 average pooling)."""
    key = kind if dtype == tf.float32 else (kind, dtype.name)
    res = _CACHE.get(key)
    if res is None:
        forced = os.environ.get("TFSPORE_NCHW")
        if forced is not None:
            res = forced not in ("0", "false", "False")
        elif gpu_visible():
            res = True
        else:
            try:
                with tf.init_scope():
                    res = _probe(kind, dtype)
            except (tf.errors.OpError, ValueError, TypeError):
                res = False
        _CACHE[key] = res
    return res


TO_NHWC = (0, 2, 3, 1)
TO_NCHW = (0, 3, 1, 2)


def transposed_from(x: tf.Tensor, perm: tuple) -> tf.Tensor | None:
    """The tensor that ``x`` is ``tf.transpose(., perm)`` of, when ``x`` is such a graph tensor of the graph
    being built; else None. Used at trace time only (eager tensors have no producing op).

    A cast of such a transpose (mixed precision casts between layers) counts too: the cast moves
    before the transpose, ``cast(transpose(t)) == transpose(cast(t))``."""
    if not isinstance(x, tf.Tensor) or tf.executing_eagerly() or not hasattr(x, "op"):
        return None
    op = x.op
    if op.type == "Cast" and op.graph is tf.compat.v1.get_default_graph():
        src = transposed_from(op.inputs[0], perm)
        return None if src is None else tf.cast(src, x.dtype)
    if op.type != "Transpose" or op.graph is not tf.compat.v1.get_default_graph():
        return None
    p = tf.get_static_value(op.inputs[1])
    if p is None or tuple(int(i) for i in p) != perm:
        return None
    return op.inputs[0]


def to_nhwc(x: tf.Tensor) -> tf.Tensor:
    """An NCHW tensor as NHWC. When ``x`` is itself the NCHW transpose of an NHWC tensor (the output of
    the previous convolution or pooling layer, possibly through a ReLU), that tensor is used, so the
    transpose pair between two layers cancels when the step is traced."""
    src = transposed_from(x, TO_NCHW)
    return src if src is not None else tf.transpose(x, TO_NHWC)


def elementwise_through_nchw(fn: Any, x: tf.Tensor) -> tf.Tensor:
    """``fn(x)`` for an element-wise ``fn``; when ``x`` is the NCHW transpose of an NHWC tensor, ``fn`` runs
    on that tensor and the transpose moves after it (where the next layer's :func:`to_nhwc` cancels it)."""
    src = transposed_from(x, TO_NCHW)
    if src is None:
        return fn(x)
    return tf.transpose(fn(src), TO_NCHW)


def binary_through_nchw(fn: Any, a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
    """``fn(a, b)`` for an element-wise binary ``fn``; when the operands are NCHW transposes of NHWC
    tensors of one static shape (a residual addition between two convolution branches), or one is
    such a transpose and the other a scalar, ``fn`` runs on the NHWC tensors and the transpose
    moves after it."""
    src_a, src_b = transposed_from(a, TO_NCHW), transposed_from(b, TO_NCHW)
    if src_a is not None and src_b is not None:
        if not src_a.shape.is_fully_defined() or src_a.shape != src_b.shape:
            return fn(a, b)
        out = fn(src_a, src_b)
    elif src_a is not None and b.shape.rank == 0:
        out = fn(src_a, b)
    elif src_b is not None and a.shape.rank == 0:
        out = fn(a, src_b)
    else:
        return fn(a, b)
    return tf.transpose(out, TO_NCHW)


def concat_through_nchw(values: list, axis: int) -> tf.Tensor:
    """``tf.concat(values, axis)`` of rank-4 tensors; when every value is the NCHW transpose of an NHWC
    tensor (the branches of an Inception, Fire or DenseNet block), the NHWC tensors are concatenated along
    the matching axis and one transpose follows (where the next layer's :func:`to_nhwc` cancels it), instead
    of a transpose of every branch to NCHW and of the result back."""
    if len(values) < 2 or values[0].shape.rank != 4 or not -4 <= axis < 4:
        return tf.concat(values, axis)
    srcs = [transposed_from(v, TO_NCHW) for v in values]
    if any(s is None for s in srcs):
        return tf.concat(values, axis)
    return tf.transpose(tf.concat(srcs, TO_NCHW[axis % 4]), TO_NCHW)
