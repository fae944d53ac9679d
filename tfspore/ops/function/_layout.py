"""Which TensorFlow kernels take NCHW data on this machine.

GPUs run NCHW convolution and pooling natively. CPU kernels do so only in builds with oneDNN
enabled (the default x86 Linux wheels, unless ``TF_ENABLE_ONEDNN_OPTS=0``); elsewhere the ops
transpose to NHWC and back. Each kernel kind is probed once, eagerly, with a tiny input.
"""
from __future__ import annotations

import os

import tensorflow as tf

__all__ = []

_CACHE: dict = {}


def _probe(kind: str) -> bool:
    x = tf.zeros([1, 1, 2, 2])
    if kind == "conv":
        tf.nn.conv2d(x, tf.zeros([1, 1, 1, 1]), 1, "VALID", data_format="NCHW")
    elif kind == "maxpool":
        tf.nn.max_pool2d(x, 1, 1, "VALID", data_format="NCHW")
    elif kind == "avgpool":
        tf.nn.avg_pool2d(x, 1, 1, "VALID", data_format="NCHW")
    else:
        return False
    return True


def nchw_supported(kind: str) -> bool:
    """Whether ``kind`` ('conv', 'maxpool', 'avgpool') runs with ``data_format='NCHW'`` here."""
    res = _CACHE.get(kind)
    if res is None:
        forced = os.environ.get("TFSPORE_NCHW")
        if forced is not None:
            res = forced not in ("0", "false", "False")
        elif tf.config.list_logical_devices("GPU"):
            res = True
        else:
            try:
                with tf.init_scope():
                    res = _probe(kind)
            except (tf.errors.OpError, ValueError, TypeError):
                res = False
        _CACHE[kind] = res
    return res
