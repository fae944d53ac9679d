"""``nn.Rprop`` (tfspore/nn/optim/rprop.py): the update rule step by step, in both modes."""
import numpy as np
import pytest

import tfspore as ms
from tfspore import Tensor, nn


def _reference(w, grads, lr, etas, sizes):
    prev, step = np.zeros_like(w), np.zeros_like(w)
    for i, g in enumerate(grads):
        if i == 0:
            step = np.full_like(w, lr)
        s = np.sign(g * prev)
        factor = np.where(s > 0, etas[1], np.where(s < 0, etas[0], 1.0))
        step = np.clip(step * factor, *sizes)
        g2 = np.where(factor == etas[0], 0.0, g)
        w = w - np.sign(g2) * step
        prev = g2
    return w, prev, step


def test_rprop_matches_the_rule(mode):
    rng = np.random.default_rng(0)
    w0 = rng.standard_normal((3, 2)).astype(np.float32)
    grads = [rng.standard_normal((3, 2)).astype(np.float32) for _ in range(4)]
    grads[2] = grads[1] * 2
    net = nn.Dense(2, 3, has_bias=False)
    net.weight.set_data(Tensor(w0))
    opt = nn.Rprop(net.trainable_params(), learning_rate=0.05, etas=(0.4, 1.5), step_sizes=(1e-3, 0.2))

    class Step(nn.Cell):
        def __init__(self):
            super().__init__()
            self.opt = opt

        def construct(self, g):
            return self.opt((g,))

    step = Step()
    for g in grads:
        step(Tensor(g))
    w, prev, size = _reference(w0.astype(np.float64), grads, 0.05, (0.4, 1.5), (1e-3, 0.2))
    np.testing.assert_allclose(net.weight.asnumpy(), w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(opt.prev[0].asnumpy(), prev, rtol=1e-6)
    np.testing.assert_allclose(opt.step_size[0].asnumpy(), size, rtol=1e-5)
    assert int(opt.global_step.asnumpy()[0]) == 4


def test_rprop_arguments():
    params = nn.Dense(2, 2).trainable_params()
    with pytest.raises(TypeError, match="etas must be a tuple"):
        nn.Rprop(params, etas=[0.5, 1.2])
    with pytest.raises(ValueError, match="etaplus must be greater than 1.0"):
        nn.Rprop(params, etas=(0.5, 1.0))
    with pytest.raises(ValueError, match="maximal step size should not be less than minimal step size"):
        nn.Rprop(params, step_sizes=(1.0, 0.1))
    assert ms.nn.Rprop(params).etaminus == 0.5
