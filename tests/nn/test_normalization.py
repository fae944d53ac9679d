"""Training BatchNorm's statistics (tfspore/nn/layer/normalization.py).

4-D float32 inputs run TensorFlow's fused kernel by default (float32 sums, ~1e-5 relative on large
maps); ``TFSPORE_PRECISE_BATCHNORM=1`` and every other input take staged sums, precise against
float64 on large feature maps, with gradients equal to float64 automatic differentiation. The
precision tests set the opt-in (``precise`` fixture)."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import Tensor, nn, ops


@pytest.fixture
def precise(monkeypatch):
    """Staged statistics on 4-D float32 inputs too (the opt-in)."""
    monkeypatch.setenv("TFSPORE_PRECISE_BATCHNORM", "1")


def _data(shape, seed=0):
    """Conv-output-like values: an offset mean and a third of them zero (as after a ReLU)."""
    rng = np.random.default_rng(seed)
    x = 3 + 2 * rng.standard_normal(shape)
    return np.where(rng.random(shape) < 0.3, 0.0, x).astype(np.float32)


def _reference(x, gamma, beta, dy, eps=1e-5):
    """Batch normalization over every axis but 1 in float64: y, mean, biased variance, dx, dgamma, dbeta."""
    axes = [i for i in range(x.ndim) if i != 1]
    bshape = [1] * x.ndim
    bshape[1] = -1
    xt, gt, bt = (tf.constant(np.asarray(a, np.float64)) for a in (x, gamma, beta))
    with tf.GradientTape() as tape:
        tape.watch([xt, gt, bt])
        mean, var = tf.nn.moments(xt, axes, keepdims=True)
        y = (xt - mean) * tf.math.rsqrt(var + eps) * tf.reshape(gt, bshape) + tf.reshape(bt, bshape)
        loss = tf.reduce_sum(y * dy.astype(np.float64))
    grads = tape.gradient(loss, [xt, gt, bt])
    return [y.numpy(), tf.reshape(mean, [-1]).numpy(), tf.reshape(var, [-1]).numpy()] + [g.numpy() for g in grads]


def _rel(got, want):
    """The largest error relative to the largest magnitude of ``want``."""
    return float(np.max(np.abs(np.asarray(got, np.float64) - want)) / np.max(np.abs(want)))


class _ConvBN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, stride=2, pad_mode="valid", weight_init="normal")
        self.bn = nn.BatchNorm2d(4, momentum=0.0)

    def construct(self, x):
        return self.bn(self.conv(x))


def test_large_feature_map_statistics_match_float64(mode, precise):
    """2 x 149 x 149 values per channel: the fused float32 kernel's statistics are off by ~1e-5."""
    x = _data((2, 4, 149, 149))
    bn = nn.BatchNorm2d(4, momentum=0.0)  # the moving statistics take the batch's
    bn.set_train()
    y = bn(Tensor(x)).asnumpy()
    ref_y, ref_mean, ref_var = _reference(x, np.ones(4), np.zeros(4), np.zeros_like(x))[:3]
    n = x.size / 4
    assert np.max(np.abs(bn.moving_mean.asnumpy() - ref_mean) / np.abs(ref_mean)) < 1e-6
    assert np.max(np.abs(bn.moving_variance.asnumpy() - ref_var * n / (n - 1)) / ref_var) < 1e-6
    assert _rel(y, ref_y) < 1e-6


def test_statistics_of_a_convolution_output_match_float64(mode, precise):
    """The convolution's NHWC output is normalized in NHWC: the same precision there."""
    x = np.random.default_rng(1).standard_normal((2, 3, 299, 299)).astype(np.float32)
    ms.set_seed(3)
    net = _ConvBN()
    net.set_train()
    y = net(Tensor(x)).asnumpy()
    c = net.conv(Tensor(x)).asnumpy()
    ref_y, ref_mean, ref_var = _reference(c, np.ones(4), np.zeros(4), np.zeros_like(c))[:3]
    n = c.size / 4
    assert np.max(np.abs(net.bn.moving_mean.asnumpy() - ref_mean) / np.abs(ref_mean).max()) < 1e-6
    assert np.max(np.abs(net.bn.moving_variance.asnumpy() - ref_var * n / (n - 1)) / ref_var) < 1e-6
    assert _rel(y, ref_y) < 1e-6


@pytest.mark.parametrize("shape", [(2, 4, 149, 149), (8, 16, 7, 7), (4, 3, 5), (64, 5), (4096, 3)])
def test_output_and_gradients_match_float64(mode, shape, precise):
    cls = nn.BatchNorm2d if len(shape) == 4 else nn.BatchNorm1d
    c = shape[1]
    rng = np.random.default_rng(2)
    x = _data(shape, seed=2)
    gamma = rng.uniform(0.5, 1.5, c).astype(np.float32)
    beta = rng.standard_normal(c).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    bn = cls(c, gamma_init=Tensor(gamma), beta_init=Tensor(beta))
    bn.set_train()
    params = [bn.gamma, bn.beta]
    grad = ops.GradOperation(get_all=True, get_by_list=True, sens_param=True)(bn, ms.ParameterTuple(params))
    (dx,), (dgamma, dbeta) = grad(Tensor(x), Tensor(dy))
    bn2 = cls(c, gamma_init=Tensor(gamma), beta_init=Tensor(beta))
    bn2.set_train()
    y = bn2(Tensor(x)).asnumpy()
    ref = _reference(x, gamma, beta, dy)
    for name, got, want in zip(["y", "dx", "dgamma", "dbeta"], [y, dx, dgamma, dbeta], ref[:1] + ref[3:]):
        assert _rel(got.asnumpy() if hasattr(got, "asnumpy") else got, want) < 1e-6, name


def test_eval_mode_uses_moving_statistics(mode, precise):
    x = _data((4, 3, 5, 5))
    bn = nn.BatchNorm2d(3, moving_mean_init=Tensor(np.array([1.0, 2.0, 3.0], np.float32)),
                        moving_var_init=Tensor(np.array([4.0, 1.0, 0.25], np.float32)))
    bn.set_train(False)
    want = (x - np.array([1.0, 2.0, 3.0]).reshape(1, 3, 1, 1)) / np.sqrt(
        np.array([4.0, 1.0, 0.25]).reshape(1, 3, 1, 1) + 1e-5)
    np.testing.assert_allclose(bn(Tensor(x)).asnumpy(), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), [1.0, 2.0, 3.0])


@pytest.mark.parametrize("graph", [False, True])
@pytest.mark.parametrize("shape", [(4, 3, 5, 5), (6, 3)])
def test_second_order_gradient_matches_float64(graph, shape, precise):
    """The gradient of a gradient (e.g. a gradient penalty) goes through the statistics too."""
    from tfspore.nn.layer.normalization import _batch_norm_train

    def penalty_grad(fn, x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                loss = tf.reduce_sum(fn(x) ** 3)
            penalty = tf.reduce_sum(inner.gradient(loss, x) ** 2)
        return outer.gradient(penalty, x)

    def reference(x):
        axes = [i for i in range(len(shape)) if i != 1]
        mean, var = tf.nn.moments(x, axes, keepdims=True)
        return (x - mean) * tf.math.rsqrt(var + 1e-5)

    def ours(x):
        return _batch_norm_train(x, tf.ones([3]), tf.zeros([3]), 1, 1e-5)[0]

    x = _data(shape, seed=4)
    run = tf.function(penalty_grad, reduce_retracing=True) if graph else penalty_grad
    want = penalty_grad(reference, tf.constant(x.astype(np.float64))).numpy()
    got = run(ours, tf.constant(x)).numpy()
    assert _rel(got, want) < 1e-5


def test_default_runs_the_fused_kernel_within_float32_sums(mode):
    """Without the opt-in a 4-D float32 input takes FusedBatchNormV3 (training) and its float32 sums."""
    x = _data((2, 4, 149, 149))
    bn = nn.BatchNorm2d(4, momentum=0.0)
    bn.set_train()
    y = bn(Tensor(x)).asnumpy()
    ref_y, ref_mean = _reference(x, np.ones(4), np.zeros(4), np.zeros_like(x))[:2]
    assert np.max(np.abs(bn.moving_mean.asnumpy() - ref_mean) / np.abs(ref_mean)) < 1e-4
    assert _rel(y, ref_y) < 1e-4

    @tf.function
    def step(t):
        return bn(Tensor(t))._value()

    graph_def = step.get_concrete_function(tf.TensorSpec(x.shape, tf.float32)).graph.as_graph_def()
    nodes = list(graph_def.node) + [n for f in graph_def.library.function for n in f.node_def]
    fused = [n for n in nodes if n.op == "FusedBatchNormV3"]
    assert fused and fused[0].attr["is_training"].b


def test_precise_batchnorm_setting_is_checked(monkeypatch):
    monkeypatch.setenv("TFSPORE_PRECISE_BATCHNORM", "yes")
    bn = nn.BatchNorm2d(2)
    bn.set_train()
    with pytest.raises(ValueError, match="TFSPORE_PRECISE_BATCHNORM"):
        bn(Tensor(np.ones((2, 2, 3, 3), np.float32)))
