"""tfspore.numpy inside GRAPH_MODE (a Cell compiled to a tf.function) and inside tf.function directly."""
import numpy as np
import tensorflow as tf

import tfspore as ms
import tfspore.numpy as mnp
from tfspore import nn


class _Net(nn.Cell):
    def construct(self, x, y):
        pos = mnp.where(x > 0, x, mnp.zeros_like(x))
        s = mnp.sum(pos, axis=1) + mnp.mean(y)
        c = mnp.concatenate((x, y), axis=0)
        n = mnp.tile(mnp.expand_dims(mnp.norm(c, axis=1), 0), (2, 1))
        grid = mnp.arange(3, dtype=mnp.float32) * x[0]
        padded = mnp.split(mnp.pad(x, ((1, 1), (0, 0)), mode="edge"), 2)[0]
        return s, n, grid, padded, mnp.clip(x, -0.5, 0.5), mnp.matmul(x, mnp.triu(mnp.ones((3, 3))))


def _expected(x, y):
    c = np.concatenate((x, y))
    return (np.where(x > 0, x, 0).sum(1) + y.mean(), np.tile(np.linalg.norm(c, axis=1)[None], (2, 1)),
            np.arange(3) * x[0], np.split(np.pad(x, ((1, 1), (0, 0)), mode="edge"), 2)[0], np.clip(x, -0.5, 0.5),
            x @ np.triu(np.ones((3, 3))))


def test_cell_using_numpy_functions_in_graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    x = np.arange(6, dtype=np.float32).reshape(2, 3) / 2 - 1
    y = np.ones((2, 3), np.float32)
    net = _Net()
    outs = net(ms.Tensor(x), ms.Tensor(y))
    for got, exp in zip(outs, _expected(x, y)):
        assert isinstance(got, ms.Tensor)
        np.testing.assert_allclose(got.asnumpy(), exp, rtol=1e-6)
    outs2 = net(ms.Tensor(x + 1), ms.Tensor(y))  # same signature: the compiled function is reused
    np.testing.assert_allclose(outs2[0].asnumpy(), _expected(x + 1, y)[0], rtol=1e-6)


def test_functions_trace_inside_tf_function():
    @tf.function
    def f(a):
        t = ms.Tensor(a)
        out = mnp.cumsum(t, axis=0)
        return tf.convert_to_tensor(mnp.amax(mnp.abs(out)) + mnp.std(t))

    a = np.array([1.0, -4.0, 2.0], np.float32)
    np.testing.assert_allclose(f(a).numpy(), np.abs(np.cumsum(a)).max() + a.std(), rtol=1e-6)
    conc = f.get_concrete_function(tf.TensorSpec([3], tf.float32))
    assert not any(op.type == "PyFunc" for op in conc.graph.get_operations())


def test_unknown_batch_dimension_traces():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        t = ms.Tensor(x)
        out = (mnp.zeros_like(t) + mnp.where(t > 0, t, 0.0) + mnp.heaviside(t, 0.5) + mnp.dot(t, mnp.ones((3, 3)))
               + mnp.take_along_axis(t, mnp.zeros_like(t, dtype=mnp.int32), 1) + mnp.kron(t, mnp.ones((1, 1)))
               + mnp.select([t > 1], [t]) + mnp.piecewise(t, [t > 0], [1.0, 2.0]) + mnp.isclose(t, t)
               + mnp.array([t[0], t[1]]).sum())
        return tf.convert_to_tensor(out)

    x = np.array([[1.0, -2.0, 3.0], [0.5, 0.0, -1.0]], np.float32)
    expected = (np.where(x > 0, x, 0) + np.heaviside(x, 0.5) + x @ np.ones((3, 3)) + x[:, :1] + x
                + np.select([x > 1], [x]) + np.piecewise(x, [x > 0], [1.0, 2.0]) + 1 + x[:2].sum())
    np.testing.assert_allclose(f(x).numpy(), expected, rtol=1e-6)
