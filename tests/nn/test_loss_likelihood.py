"""The losses of tfspore/nn/loss/_likelihood.py against direct numpy formulas."""
import math

import numpy as np
import pytest

from tfspore import Tensor, nn


def _x(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _log_softmax(x, axis):
    return x - np.log(np.exp(x).sum(axis, keepdims=True))


def test_focal_loss(mode):
    x = _x(4, 5)
    idx = np.array([1, 0, 4, 2], np.int32)
    lp = _log_softmax(x, 1)[np.arange(4), idx]
    want = np.mean(-(1 - np.exp(lp)) ** 2 * lp)
    np.testing.assert_allclose(nn.FocalLoss()(Tensor(x), Tensor(idx[:, None])).asnumpy(), want, rtol=1e-5)
    onehot = np.eye(5, dtype=np.float32)[idx]
    lpa = _log_softmax(x, 1)
    # one-hot labels: the mean runs over the (size-1) spatial axis, leaving (N, C)
    want = -(1 - np.exp(lpa)) ** 1.5 * onehot * lpa
    got = nn.FocalLoss(gamma=1.5, reduction="none")(Tensor(x), Tensor(onehot)).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)
    with pytest.raises(TypeError, match="For 'FocalLoss', the 'gamma' must be float, but got 2 of type int"):
        nn.FocalLoss(gamma=2)


def test_margin_losses(mode):
    x = _x(4, 5)
    t = np.array([1, 0, 4, 2], np.int64)
    w = np.linspace(0.5, 1.5, 5).astype(np.float32)
    hinge = np.maximum(0.5 - x[np.arange(4), t][:, None] + x, 0) ** 2 * w[t][:, None]
    hinge[np.arange(4), t] = 0
    got = nn.MultiMarginLoss(p=2, margin=0.5, reduction="none", weight=Tensor(w))(Tensor(x), Tensor(t))
    np.testing.assert_allclose(got.asnumpy(), hinge.sum(1) / 5, rtol=1e-5)
    y = np.sign(x)
    want = np.where(y == 1, x, np.maximum(1.5 - x, 0)).mean()
    np.testing.assert_allclose(nn.HingeEmbeddingLoss(1.5)(Tensor(x), Tensor(y)).asnumpy(), want, rtol=1e-5)
    a, p, n = x, x * 0.5 + 0.1, x[::-1].copy()

    def dist(u, v, order):
        return (np.abs(u - v + 1e-6) ** order).sum(-1) ** (1 / order)

    d_an = np.minimum(dist(a, n, 1), dist(p, n, 1))
    want = np.maximum(dist(a, p, 1) - d_an + 0.7, 0)
    got = nn.TripletMarginLoss(p=1, swap=True, margin=0.7, reduction="none")(Tensor(a), Tensor(p), Tensor(n))
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5)
    ml = (x > 0).astype(np.float32)
    sig = 1 / (1 + np.exp(-x))
    want = (-(ml * np.log(sig) + (1 - ml) * np.log(1 - sig)) * w).mean(-1).sum()
    got = nn.MultiLabelSoftMarginLoss(weight=Tensor(w), reduction="sum")(Tensor(x), Tensor(ml))
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5)


def test_likelihood_losses(mode):
    x = _x(4, 5)
    y = np.abs(x) * 3
    np.testing.assert_allclose(nn.PoissonNLLLoss()(Tensor(x), Tensor(y)).asnumpy(), (np.exp(x) - y * x).mean(),
                               rtol=1e-5)
    rate = np.abs(x)
    stirling = np.where(y > 1, (y + 0.5) * np.log(np.maximum(y, 1e-8)) - y + 0.5 * math.log(2 * math.pi), 0)
    want = (rate - y * np.log(rate + 1e-8) + stirling).sum()
    got = nn.PoissonNLLLoss(log_input=False, full=True, reduction="sum")(Tensor(rate), Tensor(y))
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5)
    var = np.abs(x[:, :1]) + 0.1
    want = 0.5 * (np.log(var) + (x - 0.3 * x) ** 2 / var) + 0.5 * math.log(2 * math.pi)
    got = nn.GaussianNLLLoss(full=True, reduction="none")(Tensor(x), Tensor(0.3 * x), Tensor(var))
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5)
    with pytest.raises(ValueError, match="'eps' must be in range of \\(0, inf\\)"):
        nn.GaussianNLLLoss(eps=0.0)
    with pytest.raises(ValueError, match="'p' must be 1 or 2"):
        nn.MultiMarginLoss(p=3)


def test_triplet_margin_with_distance_loss(mode):
    a, p, n = _x(4, 5), _x(4, 5, seed=1), _x(4, 5, seed=2)
    d = lambda u, v: np.linalg.norm(u - v, axis=1)  # noqa: E731
    want = np.maximum(d(a, p) - np.minimum(d(a, n), d(p, n)) + 0.5, 0)
    loss = nn.TripletMarginWithDistanceLoss(swap=True, margin=0.5, reduction="none")
    np.testing.assert_allclose(loss(Tensor(a), Tensor(p), Tensor(n)).asnumpy(), want, rtol=1e-5)
    l1 = nn.TripletMarginWithDistanceLoss(distance_function=lambda u, v: (u - v).abs().sum(1), reduction="sum")
    want = np.maximum(np.abs(a - p).sum(1) - np.abs(a - n).sum(1) + 1.0, 0).sum()
    np.testing.assert_allclose(l1(Tensor(a), Tensor(p), Tensor(n)).asnumpy(), want, rtol=1e-5)
    with pytest.raises(TypeError, match="'margin' must be float"):
        nn.TripletMarginWithDistanceLoss(margin=1)
