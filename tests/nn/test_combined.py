"""``nn.Conv2dBnAct`` and ``nn.DenseBnAct`` (tfspore/nn/layer/combined.py)."""
import numpy as np
import pytest

import tfspore as ms
from tfspore import Tensor, nn, ops


def _x(*shape):
    return Tensor(np.random.default_rng(0).standard_normal(shape).astype(np.float32))


def test_conv2d_bn_act_names_and_forward(mode):
    net = nn.Conv2dBnAct(3, 4, 3, has_bn=True, activation="relu")
    assert [p.name for p in net.get_parameters()] == [
        "conv.weight", "batchnorm.moving_mean", "batchnorm.moving_variance", "batchnorm.gamma", "batchnorm.beta"]
    assert net.batchnorm.moving_mean.name == "batchnorm.moving_mean"
    assert abs((1.0 - net.batchnorm.momentum) - 0.997) < 1e-12
    x = _x(2, 3, 6, 6)
    want = np.maximum(net.batchnorm(net.conv(x)).asnumpy(), 0)
    np.testing.assert_allclose(net(x).asnumpy(), want, rtol=1e-6)
    assert repr(net).startswith("Conv2dBnAct(\n  (conv): Conv2d(") and "(activation): ReLU()" in repr(net)


def test_conv2d_bn_act_plain_conv_and_leakyrelu(mode):
    plain = nn.Conv2dBnAct(2, 3, 1, has_bias=True)
    assert [p.name for p in plain.get_parameters()] == ["conv.weight", "conv.bias"]
    assert plain.activation is None and not plain.has_bn and not plain.has_act
    x = _x(1, 2, 4, 4)
    np.testing.assert_allclose(plain(x).asnumpy(), plain.conv(x).asnumpy())
    leaky = nn.Conv2dBnAct(2, 3, 1, activation="leakyrelu", alpha=0.1)
    y = leaky.conv(x).asnumpy()
    np.testing.assert_allclose(leaky(x).asnumpy(), np.where(y > 0, y, 0.1 * y), rtol=1e-6)
    # a Primitive works as the activation too
    prim = nn.Conv2dBnAct(2, 3, 1, activation=ops.ReLU())
    np.testing.assert_allclose(prim(x).asnumpy(), np.maximum(prim.conv(x).asnumpy(), 0))


def test_dense_bn_act_training_updates_batchnorm(mode):
    net = nn.DenseBnAct(4, 3, has_bn=True, activation="sigmoid")
    assert [p.name for p in net.get_parameters()] == [
        "dense.weight", "dense.bias", "batchnorm.moving_mean", "batchnorm.moving_variance", "batchnorm.gamma",
        "batchnorm.beta"]
    x = _x(8, 4)
    net.set_train()
    out = net(x).asnumpy()
    h = net.dense(x).asnumpy()
    norm = (h - h.mean(0)) / np.sqrt(h.var(0) + 1e-5)
    np.testing.assert_allclose(out, 1 / (1 + np.exp(-norm)), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(net.batchnorm.moving_mean.asnumpy(), 0.1 * h.mean(0), rtol=1e-4, atol=1e-6)


def test_bn_act_errors():
    with pytest.raises(TypeError, match="'activation' must be str or Cell or Primitive, but got int"):
        nn.Conv2dBnAct(2, 3, 1, activation=3)
    with pytest.raises(TypeError, match="has_bn"):
        nn.DenseBnAct(2, 3, has_bn=1)
    with pytest.raises(TypeError, match="after_fake"):
        nn.DenseBnAct(2, 3, after_fake="yes")
    with pytest.raises(KeyError):
        nn.DenseBnAct(2, 3, activation="nope")
    assert ms.nn.Conv2dBnAct(2, 3, 1).after_fake is True
