"""Which TensorFlow kernels take NCHW data on this machine.

GPUs run NCHW convolution and pooling natively. On CPUs it depends on the build and the op:
with oneDNN (the default x86 Linux wheels, unless ``TF_ENABLE_ONEDNN_OPTS=0``) convolution
and its gradients take NCHW when the padding is 'VALID' or 'SAME' (explicit padding falls back
to an NHWC-only kernel, so the ops pad first), while the pooling gradients are NHWC-only.
Each kernel kind is probed once, eagerly, forward and backward, on a tiny input; where the
probe fails the ops transpose to NHWC and back. ``TFSPORE_NCHW=0`` / ``1`` forces the choice.
"""
from __future__ import annotations

import os

import tensorflow as tf

__all__ = []

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
