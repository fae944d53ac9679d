"""Channel concatenation between traced convolution layers concatenates the channels-last tensors.

An Inception / Fire / DenseNet block concatenates its branches along NCHW's channel axis. Each
convolution runs channels-last between transposes on a CPU; when every branch is such a transpose,
``Concat`` joins the channels-last tensors and one transpose follows, which the next convolution
cancels, instead of transposing every branch to NCHW and the result back.
"""
import numpy as np
import tensorflow as tf

import tfspore as ms
from tfspore import nn, ops
from tfspore.ops.function._layout import concat_through_nchw


class _Fire(nn.Cell):
    def __init__(self):
        super().__init__()
        self.squeeze = nn.Conv2d(3, 4, 1, has_bias=True)
        self.e1 = nn.Conv2d(4, 5, 1, has_bias=True)
        self.e3 = nn.Conv2d(4, 6, 3, pad_mode="same", has_bias=True)
        self.relu = nn.ReLU()
        self.concat = ops.Concat(axis=1)
        self.out = nn.Conv2d(11, 2, 3, pad_mode="same")

    def construct(self, x):
        x = self.relu(self.squeeze(x))
        return self.out(self.concat((self.relu(self.e1(x)), self.relu(self.e3(x)))))


def _transposes(fn, x):
    graph = fn.get_concrete_function(tf.TensorSpec(x.shape, tf.float32)).graph
    return [op for op in graph.get_operations() if op.type == "Transpose"]


def test_traced_fire_block_matches_eager_and_concats_channels_last():
    net = _Fire()
    x = ms.Tensor(np.random.default_rng(0).standard_normal((2, 3, 7, 6)).astype(np.float32))
    eager = np.asarray(net(x))
    fn = tf.function(lambda a: net(a))
    np.testing.assert_allclose(np.asarray(fn(x)), eager, rtol=1e-5, atol=1e-5)
    assert eager.shape == (2, 2, 7, 6)
    concats = [op for op in fn.get_concrete_function(tf.TensorSpec(x.shape, tf.float32)).graph.get_operations()
               if op.type == "ConcatV2"]
    # The branches are joined channels-last: 11 channels on the last axis.
    assert len(concats) == 1 and concats[0].outputs[0].shape.as_list() == [2, 7, 6, 11]


def test_concat_through_nchw_moves_one_transpose_after_the_concat():
    rng = np.random.default_rng(1)
    a = tf.constant(rng.standard_normal((2, 3, 4, 5)).astype(np.float32))  # NHWC
    b = tf.constant(rng.standard_normal((2, 3, 4, 2)).astype(np.float32))

    @tf.function
    def joined(a, b):
        return concat_through_nchw([tf.transpose(a, (0, 3, 1, 2)), tf.transpose(b, (0, 3, 1, 2))], 1)

    want = tf.concat([tf.transpose(a, (0, 3, 1, 2)), tf.transpose(b, (0, 3, 1, 2))], 1).numpy()
    np.testing.assert_array_equal(joined(a, b).numpy(), want)
    graph = joined.get_concrete_function(a, b).graph
    live = [op for op in graph.get_operations() if op.type == "Transpose" and op.outputs[0].consumers()]
    assert len(live) == 1 and live[0].inputs[0].op.type == "ConcatV2"
    # Other axes map too (NCHW height is NHWC axis 1); a plain tensor among the values falls back.
    c = tf.constant(rng.standard_normal((2, 5, 3, 4)).astype(np.float32))

    @tf.function
    def by_height(a):
        t = tf.transpose(a, (0, 3, 1, 2))
        return concat_through_nchw([t, t], -2), concat_through_nchw([t, c], 2)

    h, mixed = by_height(a)
    t = tf.transpose(a, (0, 3, 1, 2))
    np.testing.assert_array_equal(h.numpy(), tf.concat([t, t], 2).numpy())
    np.testing.assert_array_equal(mixed.numpy(), tf.concat([t, c], 2).numpy())
