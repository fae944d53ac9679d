"""``nn.probability.distribution`` (tfspore/nn/probability/distribution/)."""
import math

import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import Tensor, nn
from tfspore.nn.probability import distribution as msd


def test_normal_math_and_per_call_parameters():
    d = msd.Normal(0.5, 2.0, seed=3)
    x = np.array([-0.5, 0.3, 1.2], np.float32)
    want = -0.5 * np.log(2 * np.pi) - np.log(2.0) - (x - 0.5) ** 2 / 8
    np.testing.assert_allclose(d.log_prob(Tensor(x)).asnumpy(), want, rtol=1e-6)
    np.testing.assert_allclose(d.prob(Tensor(x)).asnumpy(), np.exp(want), rtol=1e-6)
    cdf = np.array([0.5 * (1 + math.erf((v - 0.5) / (2 * math.sqrt(2)))) for v in x])
    np.testing.assert_allclose(d.cdf(Tensor(x)).asnumpy(), cdf, rtol=1e-6)
    np.testing.assert_allclose(d.survival_function(Tensor(x)).asnumpy(), 1 - cdf, rtol=1e-5)
    assert float(d.mean()) == 0.5 and float(d.sd()) == 2.0 and float(d.var()) == 4.0
    np.testing.assert_allclose(float(d.entropy()), 0.5 * np.log(2 * np.pi * np.e * 4), rtol=1e-6)
    # KL(N(0.5, 2) || N(0, 1)) = log(1/2) + (4 + 0.25) / 2 - 0.5
    np.testing.assert_allclose(float(d.kl_loss("Normal", Tensor(0.0), Tensor(1.0))), np.log(0.5) + 2.125 - 0.5,
                               rtol=1e-6)
    # parameters given at call time override the defaults and broadcast
    std = msd.Normal()
    out = std.log_prob(Tensor(x), Tensor(np.zeros(3, np.float32)), Tensor(1.0)).asnumpy()
    np.testing.assert_allclose(out, -0.5 * np.log(2 * np.pi) - x ** 2 / 2, rtol=1e-6)
    with pytest.raises(ValueError, match="the value of mean cannot be None"):
        std.mean()
    assert repr(d) == "Normal(mean = 0.5, standard deviation = 2.0)"


def test_sampling_shapes_statistics_and_seed():
    n = msd.Normal(np.array([0.0, 10.0], np.float32), 2.0, seed=5)
    s = n.sample((4000,)).asnumpy()
    assert s.shape == (4000, 2) and s.dtype == np.float32
    np.testing.assert_allclose(s.mean(0), [0.0, 10.0], atol=0.15)
    np.testing.assert_allclose(s.std(0), [2.0, 2.0], rtol=0.05)
    u = msd.Uniform(-1.0, 3.0).sample((5000,)).asnumpy()
    assert u.min() >= -1 and u.max() < 3 and abs(u.mean() - 1.0) < 0.06
    b = msd.Bernoulli(0.3).sample((5000,)).asnumpy()
    assert b.dtype == np.int32 and set(np.unique(b)) <= {0, 1} and abs(b.mean() - 0.3) < 0.03
    e = msd.Exponential(2.0).sample((5000,)).asnumpy()
    assert e.min() >= 0 and abs(e.mean() - 0.5) < 0.03


def test_categorical_mode_and_masked_sampling(mode):
    class Policy(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dist = msd.Categorical()

        def construct(self, q, mask):
            return self.dist.mode(q), self.dist.sample((), mask), self.dist("mode", q)

    q = np.array([[1.0, 5.0, 2.0], [0.0, 1.0, 3.0]], np.float32)
    mask = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]], np.float32)
    best, drawn, again = Policy()(Tensor(q), Tensor(mask))
    np.testing.assert_array_equal(best.asnumpy(), [1, 2])
    np.testing.assert_array_equal(again.asnumpy(), [1, 2])
    assert drawn.asnumpy()[0] in (0, 2) and drawn.asnumpy()[1] == 1 and drawn.dtype == ms.int32


def test_categorical_and_bernoulli_math():
    c = msd.Categorical([0.2, 0.5, 0.3])
    np.testing.assert_allclose(c.prob(Tensor(np.array([0, 2, 1], np.int32))).asnumpy(), [0.2, 0.3, 0.5], rtol=1e-6)
    np.testing.assert_allclose(c.cdf(Tensor(np.array([0, 1, 2], np.int32))).asnumpy(), [0.2, 0.7, 1.0], rtol=1e-6)
    np.testing.assert_allclose(float(c.mean()), 1.1, rtol=1e-6)
    np.testing.assert_allclose(float(c.entropy()), -(0.2 * np.log(0.2) + 0.5 * np.log(0.5) + 0.3 * np.log(0.3)),
                               rtol=1e-6)
    bern = msd.Bernoulli(0.25)
    np.testing.assert_allclose(bern.prob(Tensor(np.array([0, 1], np.int32))).asnumpy(), [0.75, 0.25], rtol=1e-6)
    assert int(bern.mode()) == 0 and float(bern.var()) == pytest.approx(0.1875)
    with pytest.raises(ValueError, match="must sum to one"):
        msd.Categorical([0.2, 0.2])
    with pytest.raises(ValueError, match="within \\[0, 1\\]"):
        msd.Bernoulli(1.5)
    with pytest.raises(ValueError, match="Standard deviation must be greater than zero"):
        msd.Normal(0.0, 0.0)
    with pytest.raises(ValueError, match="low must be less than high"):
        msd.Uniform(1.0, 1.0)
    with pytest.raises(ValueError, match="'dist' must be 'Normal'"):
        msd.Normal(0.0, 1.0).kl_loss("Uniform", Tensor(0.0), Tensor(1.0))
    with pytest.raises(NotImplementedError, match="mode is not implemented for Uniform"):
        msd.Uniform(0.0, 1.0).mode()


def test_gradients_reach_parameters():
    mean = tf.Variable(0.3)
    d = msd.Normal()
    with tf.GradientTape() as tape:
        lp = tf.convert_to_tensor(d.log_prob(Tensor(np.float32(1.0)), Tensor(mean), Tensor(np.float32(1.0))))
    np.testing.assert_allclose(tape.gradient(lp, mean).numpy(), 0.7, rtol=1e-6)


def test_repr_and_parameters_of_every_distribution():
    assert repr(msd.Uniform(0.0, 2.0)) == "Uniform(low = 0.0, high = 2.0)"
    assert repr(msd.Exponential(2.0)) == "Exponential(rate = 2.0)"
    assert repr(msd.Bernoulli(0.3)) == "Bernoulli(probs = 0.3)"
    assert repr(msd.Categorical([0.2, 0.8])) == "Categorical(probs = [0.2 0.8])"
    assert repr(msd.Normal()) == "Normal(mean = None, standard deviation = None)"
    assert repr(msd.Normal(np.zeros(2, np.float32), 1.0)) == "Normal(batch_shape = (2,))"
    assert repr(msd.Categorical(np.full((3, 2), 0.5, np.float32))) == "Categorical(batch_shape = (3,))"
    u = msd.Uniform(0.0, 2.0, seed=4, name="u")
    assert u.parameters == {"low": 0.0, "high": 2.0, "seed": 4, "dtype": ms.float32, "name": "u",
                            "param_dict": {"low": 0.0, "high": 2.0}}
    assert u.parameter_names == ["low", "high"] and [float(v) for v in u.default_parameters] == [0.0, 2.0]
