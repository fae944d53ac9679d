"""``nn.ASGD`` (tfspore/nn/optim/asgd.py): the update rule step by step, in both modes."""
import numpy as np
import pytest

from tfspore import Tensor, nn


def test_asgd_matches_the_rule(mode):
    rng = np.random.default_rng(1)
    w = rng.standard_normal((2, 3)).astype(np.float64)
    grads = [rng.standard_normal((2, 3)).astype(np.float32) for _ in range(5)]
    net = nn.Dense(3, 2, has_bias=False)
    net.weight.set_data(Tensor(w.astype(np.float32)))
    lr, lambd, alpha, t0 = 0.05, 0.01, 0.75, 2.0
    opt = nn.ASGD(net.trainable_params(), learning_rate=lr, lambd=lambd, alpha=alpha, t0=t0)
    assert [p.name for p in opt.get_parameters()][3:] == ["mu_weight", "eta_weight", "ax_.weight"]

    class Step(nn.Cell):
        def __init__(self):
            super().__init__()
            self.opt = opt

        def construct(self, g):
            return self.opt((g,))

    step = Step()
    mu, eta, ax = 1.0, 0.0, np.zeros_like(w)
    for t, g in enumerate(grads, start=1):
        step(Tensor(g))
        eta = lr if t == 1 else eta
        w = w * (1 - lambd * eta) - eta * g
        ax = w.copy() if mu == 1 else ax + (w - ax) * mu
        eta = lr / (1 + lambd * lr * t) ** alpha
        mu = 1 / max(1.0, t - t0)
    np.testing.assert_allclose(net.weight.asnumpy(), w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(opt.ax[0].asnumpy(), ax, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(float(opt.eta[0].asnumpy()), eta, rtol=1e-6)
    np.testing.assert_allclose(float(opt.mu[0].asnumpy()), mu, rtol=1e-6)
    with pytest.raises(TypeError, match="lambd"):
        nn.ASGD(net.trainable_params(), lambd=1)
