"""The window checks of the pooling layers accept inputs whose batch size is unknown while a graph is traced.

A tfspore Tensor traced with an unknown dimension reports it as a scalar Tensor (as MindSpore's
dynamic shapes); the checks must treat it as unknown rather than compare it with zero
(``Tensor.__bool__`` raises while tracing). DS-CNN's ``AvgPool2d`` over its whole feature map met
this when its dataset was not sunk.
"""
import numpy as np
import tensorflow as tf

import tfspore as ms
from tfspore import nn


def _traced(layer, shape):
    @tf.function(input_signature=[tf.TensorSpec([None] + list(shape[1:]), tf.float32)])
    def run(x):
        return layer(ms.Tensor(x))._t

    return run


def test_avgpool2d_unknown_batch_traces_and_matches_eager():
    x = np.arange(2 * 3 * 6 * 4, dtype=np.float32).reshape(2, 3, 6, 4)
    layer = nn.AvgPool2d(kernel_size=(6, 4))
    got = _traced(layer, x.shape)(tf.constant(x)).numpy()
    np.testing.assert_allclose(got, x.mean(axis=(2, 3), keepdims=True), rtol=1e-6)


def test_maxpool2d_unknown_batch_traces_and_matches_eager():
    x = np.random.default_rng(0).standard_normal((3, 2, 4, 4)).astype(np.float32)
    layer = nn.MaxPool2d(kernel_size=2, stride=2)
    got = _traced(layer, x.shape)(tf.constant(x)).numpy()
    np.testing.assert_allclose(got, x.reshape(3, 2, 2, 2, 2, 2).max(axis=(3, 5)), rtol=1e-6)
