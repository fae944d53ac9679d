"""Explicit padding (``pad_mode='pad'``) between traced convolution layers pads the NHWC tensor."""
import numpy as np
import tensorflow as tf

import tfspore as ms
from tfspore import nn


class _Chain(nn.Cell):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, stride=1, pad_mode="pad", padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.relu = nn.ReLU()
        self.c2 = nn.Conv2d(8, 4, 3, stride=2, pad_mode="pad", padding=(1, 0, 2, 1))

    def construct(self, x):
        return self.c2(self.relu(self.bn(self.c1(x))))


def test_traced_pad_conv_chain_matches_eager_and_pads_channels_last():
    net = _Chain()
    net.set_train(True)  # training BatchNorm runs channels-last on the convolution output
    x = ms.Tensor(np.random.default_rng(0).standard_normal((2, 3, 9, 10)).astype(np.float32))
    eager = np.asarray(net(x))
    fn = tf.function(lambda a: net(a))
    np.testing.assert_allclose(np.asarray(fn(x)), eager, rtol=1e-5, atol=1e-5)
    assert eager.shape == (2, 4, 4, 6)
    graph = fn.get_concrete_function(tf.TensorSpec(x.shape, tf.float32)).graph
    pads = [op for op in graph.get_operations() if op.type == "Pad"]
    assert len(pads) == 2
    # The second convolution's padding runs on the first block's channels-last output (8 channels
    # last), not on an NCHW transpose of it.
    assert any(op.inputs[0].shape[-1] == 8 and op.inputs[0].op.type == "Relu" for op in pads)
