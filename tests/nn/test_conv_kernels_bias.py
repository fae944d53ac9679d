"""A convolution bias between traced convolution layers is added to the channels-last tensor.

Each 2-D convolution runs channels-last between transposes on a CPU; adding the bias in NCHW
materialised the transpose pair between consecutive layers (every SqueezeNet convolution has a
bias). ``add_bias`` adds it to the channels-last output, so the pair cancels.
"""
import numpy as np
import tensorflow as tf

import tfspore as ms
from tfspore import nn


class _Chain(nn.Cell):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, has_bias=True, bias_init="normal")
        self.relu = nn.ReLU()
        self.c2 = nn.Conv2d(8, 4, 1, has_bias=True, bias_init="normal")

    def construct(self, x):
        return self.c2(self.relu(self.c1(x)))


def _layout_transposes(graph):
    out = []
    for op in graph.get_operations():
        if op.type == "Transpose" and op.outputs[0].consumers():
            perm = tuple(int(i) for i in tf.get_static_value(op.inputs[1]))
            if perm in ((0, 2, 3, 1), (0, 3, 1, 2)):
                out.append(op)
    return out


def test_biased_conv_chain_matches_eager_with_one_transpose_each_way():
    net = _Chain()
    x = ms.Tensor(np.random.default_rng(0).standard_normal((2, 3, 6, 5)).astype(np.float32))
    eager = np.asarray(net(x))
    fn = tf.function(lambda a: net(a))
    np.testing.assert_allclose(np.asarray(fn(x)), eager, rtol=1e-5, atol=1e-5)
    graph = fn.get_concrete_function(tf.TensorSpec(x.shape, tf.float32)).graph
    # The input to channels-last, the output back: none between the layers.
    assert len(_layout_transposes(graph)) == 2
    assert [op.type for op in graph.get_operations()].count("BiasAdd") == 2


class _Relu6Chain(nn.Cell):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3)
        self.bn = nn.BatchNorm2d(8)
        self.act = nn.ReLU6()
        self.c2 = nn.Conv2d(8, 4, 1)

    def construct(self, x):
        return self.c2(self.act(self.bn(self.c1(x))))


def test_relu6_between_convolutions_keeps_the_transposes_cancelled():
    # MobileNet's conv-BN-ReLU6 blocks: ReLU6 runs on the channels-last tensor, as ReLU does.
    net = _Relu6Chain()
    net.set_train(True)
    x = ms.Tensor(4 * np.random.default_rng(1).standard_normal((2, 3, 6, 5)).astype(np.float32))
    eager = np.asarray(net(x))
    fn = tf.function(lambda a: net(a))
    np.testing.assert_allclose(np.asarray(fn(x)), eager, rtol=1e-5, atol=1e-5)
    assert len(_layout_transposes(fn.get_concrete_function(tf.TensorSpec(x.shape, tf.float32)).graph)) == 2
