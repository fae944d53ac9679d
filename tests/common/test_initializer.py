"""Tests for tfspore.common.initializer and tfspore.common.seed."""
import math
import random

import numpy as np
import pytest

from tfspore.common import dtype as mstype
from tfspore.common import initializer as init_mod
from tfspore.common import seed as seed_mod
from tfspore.common.initializer import (
    Constant, Dirac, HeNormal, HeUniform, Identity, Initializer, Normal, One, Orthogonal, Sparse,
    TruncatedNormal, Uniform, VarianceScaling, XavierNormal, XavierUniform, Zero, _init_to_numpy,
    initializer)
from tfspore.common.tensor import Tensor

BIG = (400, 250)  # 100k samples: sample std error ~0.3 %


@pytest.fixture(autouse=True)
def _seeded():
    seed_mod.set_seed(1234)
    yield
    seed_mod._GLOBAL_SEED = None  # pylint: disable=protected-access


def fill(init, shape=BIG, dtype=np.float32):
    return _init_to_numpy(init, shape, dtype)


def _phi(x):
    return math.exp(-0.5 * x * x) / math.sqrt(2 * math.pi) if math.isfinite(x) else 0.0


def _cdf(x):
    return 0.5 * math.erfc(-x / math.sqrt(2))


def truncnorm_moments(mean, sigma, a, b):
    """Mean and std of N(mean, sigma^2) restricted to [a, b]."""
    al, be = (a - mean) / sigma, (b - mean) / sigma
    z = _cdf(be) - _cdf(al)
    m = (_phi(al) - _phi(be)) / z
    var = 1 + (al * _phi(al) - be * _phi(be)) / z - m * m
    return mean + sigma * m, sigma * math.sqrt(var)


# ----------------------------------------------------------------------------- constants

def test_zero_one_constant_fill():
    assert np.array_equal(fill(Zero(), (3, 4)), np.zeros((3, 4), np.float32))
    assert np.array_equal(fill(One(), (3, 4)), np.ones((3, 4), np.float32))
    assert np.array_equal(fill(Constant(2.5), (2, 3)), np.full((2, 3), 2.5, np.float32))
    assert np.array_equal(fill(Constant(np.array([1., 2., 3.])), (2, 3)), np.array([[1, 2, 3], [1, 2, 3]], np.float32))
    assert fill(Constant(7), ()).shape == ()
    assert float(fill(Constant(7), ())) == 7.0


def test_call_fills_in_place():
    arr = np.zeros((2, 2), np.float64)
    assert One()(arr) is None
    assert np.array_equal(arr, np.ones((2, 2)))
    arr = np.zeros((5, 5), np.float32)
    Normal(sigma=1.0)(arr)
    assert arr.std() > 0


def test_int_dtype_truncates_like_numpy_assignment():
    out = fill(Constant(2.5), (2, 2), np.int32)
    assert out.dtype == np.int32 and np.array_equal(out, np.full((2, 2), 2, np.int32))
    out = fill(Uniform(scale=0.5), (10, 10), np.int64)
    assert out.dtype == np.int64 and np.array_equal(out, np.zeros((10, 10), np.int64))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_float_dtypes(dtype):
    out = fill(Normal(sigma=1.0), (20, 30), dtype)
    assert out.dtype == dtype and out.shape == (20, 30)


def test_bfloat16_produces_float32():
    out = fill(One(), (2, 3), mstype.bfloat16.np_dtype)
    assert out.dtype == np.float32 and np.array_equal(out, np.ones((2, 3), np.float32))


def test_init_to_numpy_accepts_alias_and_number():
    assert np.array_equal(fill('ones', (2,)), np.ones(2, np.float32))
    assert np.array_equal(fill(3, (2,)), np.full(2, 3, np.float32))


def test_identity_exact():
    assert np.array_equal(fill(Identity(), (2, 3)), np.eye(2, 3, dtype=np.float32))
    assert np.array_equal(fill(Identity(), (4, 4)), np.eye(4, dtype=np.float32))
    with pytest.raises(ValueError, match="Identity.*2.*but got 3"):
        fill(Identity(), (2, 2, 2))


def test_dirac_exact():
    out = fill(Dirac(), (4, 3, 3, 3))
    expected = np.zeros((4, 3, 3, 3), np.float32)
    for i in range(3):
        expected[i, i, 1, 1] = 1
    assert np.array_equal(out, expected)
    out = fill(Dirac(groups=2), (6, 4, 5))
    expected = np.zeros((6, 4, 5), np.float32)
    for g in range(2):
        for d in range(3):
            expected[g * 3 + d, d, 2] = 1
    assert np.array_equal(out, expected)
    out = fill(Dirac(), (2, 2, 1, 3, 4))
    assert out[0, 0, 0, 1, 2] == 1 and out[1, 1, 0, 1, 2] == 1 and out.sum() == 2
    with pytest.raises(ValueError, match="dimension of 3, 4 or 5, but got 2"):
        fill(Dirac(), (2, 2))
    with pytest.raises(ValueError, match="divisible by groups.*3.*2"):
        fill(Dirac(groups=2), (3, 2, 3))


# ----------------------------------------------------------------------------- fans and gain

@pytest.mark.parametrize("shape,expected", [
    ((32, 64), (64, 32)),
    ((16, 3, 5, 5), (75, 400)),
    ((8, 4, 3), (12, 24)),
    ((2, 3, 2, 2, 2), (24, 16)),
])
def test_fan_in_and_fan_out(shape, expected):
    assert init_mod._calculate_fan_in_and_fan_out(shape) == expected


def test_fan_errors_and_modes():
    with pytest.raises(ValueError, match="fewer than 2 dimensions, but got dimensions 1"):
        init_mod._calculate_fan_in_and_fan_out((5,))
    assert init_mod._calculate_correct_fan((3, 7), 'FAN_OUT') == 3
    with pytest.raises(ValueError, match="'mode' fan_avg not supported"):
        init_mod._calculate_correct_fan((3, 7), 'fan_avg')


def test_gain():
    g = init_mod._calculate_gain
    assert g('linear') == 1 and g('conv2d') == 1 and g('sigmoid') == 1
    assert g('tanh') == pytest.approx(5 / 3)
    assert g('relu') == pytest.approx(math.sqrt(2))
    assert g('leaky_relu') == pytest.approx(math.sqrt(2 / (1 + 0.01 ** 2)))
    assert g('leaky_relu', 0) == pytest.approx(math.sqrt(2))
    assert g('leaky_relu', math.sqrt(5)) == pytest.approx(math.sqrt(1 / 3))
    with pytest.raises(ValueError, match="negative_slope"):
        g('leaky_relu', True)
    with pytest.raises(ValueError, match="nonlinearity.*but got selu"):
        g('selu')


# ----------------------------------------------------------------------------- distributions

def test_uniform():
    out = fill(Uniform())
    assert out.min() >= -0.07 and out.max() <= 0.07
    assert out.min() < -0.069 and out.max() > 0.069
    assert abs(out.mean()) < 0.001
    assert out.std() == pytest.approx(0.07 / math.sqrt(3), rel=0.01)


@pytest.mark.parametrize("sigma,mean", [(0.01, 0.0), (2.0, -3.0)])
def test_normal(sigma, mean):
    out = fill(Normal(sigma=sigma, mean=mean))
    assert out.mean() == pytest.approx(mean, abs=0.01 * sigma)
    assert out.std() == pytest.approx(sigma, rel=0.01)


def test_normal_negative_sigma():
    with pytest.raises(ValueError, match="sigma"):
        fill(Normal(sigma=-1.0), (2, 2))


@pytest.mark.parametrize("sigma,mean,a,b", [
    (0.01, 0.0, -2.0, 2.0),      # the default: bounds far outside, no visible truncation
    (1.0, 0.5, -0.5, 2.0),       # a two-sided cut
    (1.0, 0.0, 3.0, 4.0),        # a tail interval
    (1.0, 0.0, 5.0, 5.05),       # a narrow tail interval
    (1.0, 0.0, -6.0, -3.0),      # the left tail
    (1.0, 0.0, -0.05, 0.1),      # a narrow interval around the mean
])
def test_truncated_normal(sigma, mean, a, b):
    out = fill(TruncatedNormal(sigma=sigma, mean=mean, a=a, b=b))
    assert out.min() >= a and out.max() <= b
    exp_mean, exp_std = truncnorm_moments(mean, sigma, a, b)
    assert out.mean() == pytest.approx(exp_mean, abs=0.01 * exp_std + 1e-6)
    assert out.std() == pytest.approx(exp_std, rel=0.02)


def test_truncated_normal_defaults():
    t = TruncatedNormal()
    assert (t.sigma, t.mean, t.a, t.b) == (0.01, 0.0, -2.0, 2.0)
    out = fill(TruncatedNormal(sigma=0.0, mean=5.0, a=-1.0, b=1.0), (3,))
    assert np.array_equal(out, np.ones(3, np.float32))
    with pytest.raises(ValueError, match="a 2.0 and b 1.0"):
        fill(TruncatedNormal(a=2.0, b=1.0), (2,))


def test_xavier_uniform_and_normal():
    shape = (16, 8, 3, 3)
    fan_in, fan_out = 72, 144
    bound = 2.0 * math.sqrt(6.0 / (fan_in + fan_out))
    out = fill(XavierUniform(gain=2.0), shape)
    assert out.min() >= -bound and out.max() <= bound and out.max() > 0.99 * bound
    out = fill(XavierNormal(), BIG)
    assert out.std() == pytest.approx(math.sqrt(2.0 / (400 + 250)), rel=0.01)


def test_dense_default_he_uniform_bound():
    # nn.Dense(64, 32) weight: HeUniform(negative_slope=sqrt(5)) on (32, 64) -> U(+-1/sqrt(64)).
    out = fill(HeUniform(negative_slope=math.sqrt(5)), (32, 64))
    bound = 1 / math.sqrt(64)
    assert out.min() >= -bound and out.max() <= bound
    assert out.min() < -0.95 * bound and out.max() > 0.95 * bound
    # Conv2d(3, 16, 5) weight (16, 3, 5, 5): bound 1/sqrt(75).
    out = fill(HeUniform(negative_slope=math.sqrt(5)), (16, 3, 5, 5))
    assert np.abs(out).max() <= 1 / math.sqrt(75)


def test_he_uniform_and_normal_defaults():
    out = fill(HeUniform())  # gain sqrt(2): bound sqrt(6 / fan_in)
    bound = math.sqrt(6.0 / 250)
    assert np.abs(out).max() <= bound and np.abs(out).max() > 0.99 * bound
    out = fill(HeUniform(mode='fan_out', nonlinearity='relu'))
    assert np.abs(out).max() <= math.sqrt(6.0 / 400)
    out = fill(HeNormal())
    assert out.std() == pytest.approx(math.sqrt(2.0 / 250), rel=0.01)
    out = fill(HeNormal(nonlinearity='tanh', mode='fan_out'))
    assert out.std() == pytest.approx(5 / 3 / math.sqrt(400), rel=0.01)
    with pytest.raises(ValueError, match="'mode' bad not supported"):
        fill(HeNormal(mode='bad'), (2, 2))


@pytest.mark.parametrize("shape", [(6, 6), (4, 10), (10, 4), (4, 2, 3)])
def test_orthogonal(shape):
    out = fill(Orthogonal(gain=2.0), shape).reshape(shape[0], -1).astype(np.float64)
    rows, cols = out.shape
    if rows <= cols:
        np.testing.assert_allclose(out @ out.T, 4 * np.eye(rows), atol=1e-5)
    else:
        np.testing.assert_allclose(out.T @ out, 4 * np.eye(cols), atol=1e-5)
    with pytest.raises(ValueError, match="no less than 2, but got 1"):
        fill(Orthogonal(), (5,))


def test_sparse():
    out = fill(Sparse(sparsity=0.3, sigma=2.0), (100, 50))
    zeros_per_col = (out == 0).sum(axis=0)
    assert np.all(zeros_per_col == 30)
    nz = out[out != 0]
    assert nz.std() == pytest.approx(2.0, rel=0.05)
    with pytest.raises(ValueError, match="Sparse.*but got 3"):
        fill(Sparse(0.1), (2, 2, 2))


@pytest.mark.parametrize("mode,n", [("fan_in", 250), ("fan_out", 400), ("fan_avg", 325)])
def test_variance_scaling(mode, n):
    scale = 2.0
    out = fill(VarianceScaling(scale=scale, mode=mode, distribution='uniform'))
    limit = math.sqrt(3 * scale / n)
    assert np.abs(out).max() <= limit and np.abs(out).max() > 0.99 * limit
    out = fill(VarianceScaling(scale=scale, mode=mode, distribution='untruncated_normal'))
    assert out.std() == pytest.approx(math.sqrt(scale / n), rel=0.01)
    out = fill(VarianceScaling(scale=scale, mode=mode))  # truncated_normal
    assert out.std() == pytest.approx(math.sqrt(scale / n), rel=0.01)
    stddev = math.sqrt(scale / n) / 0.87962566103423978
    assert np.abs(out).max() <= 2 * stddev * (1 + 1e-6)


def test_variance_scaling_errors():
    with pytest.raises(ValueError, match="'scale' must be greater than 0, but got 0"):
        VarianceScaling(scale=0)
    with pytest.raises(ValueError, match="'mode'.*but got fan"):
        VarianceScaling(mode='fan')
    with pytest.raises(ValueError, match="'distribution'.*but got normal"):
        VarianceScaling(distribution='normal')


# ----------------------------------------------------------------------------- seeding

@pytest.mark.parametrize("make", [Normal, Uniform, TruncatedNormal, XavierUniform, HeNormal, Orthogonal,
                                  lambda: Sparse(0.5), VarianceScaling])
def test_set_seed_reproducible(make):
    seed_mod.set_seed(7)
    a1, a2 = fill(make(), (8, 6)), fill(make(), (8, 6))
    seed_mod.set_seed(7)
    b1, b2 = fill(make(), (8, 6)), fill(make(), (8, 6))
    assert np.array_equal(a1, b1) and np.array_equal(a2, b2)
    assert not np.array_equal(a1, a2)
    seed_mod.set_seed(8)
    assert not np.array_equal(fill(make(), (8, 6)), a1)


def test_set_seed_seeds_python_numpy_and_tf():
    import tensorflow as tf
    seed_mod.set_seed(3)
    r1, n1, t1 = random.random(), np.random.rand(), float(tf.random.uniform(()))
    seed_mod.set_seed(3)
    assert random.random() == r1 and np.random.rand() == n1 and float(tf.random.uniform(())) == t1
    assert seed_mod.get_seed() == 3


def test_unseeded_generators_differ():
    seed_mod._GLOBAL_SEED = None  # pylint: disable=protected-access
    assert seed_mod.get_seed() is None
    assert not np.array_equal(fill(Normal(), (4, 4)), fill(Normal(), (4, 4)))
    assert seed_mod._get_op_seed() != seed_mod._get_op_seed()


def test_op_seed_sequence():
    seed_mod.set_seed(5)
    first = [seed_mod._get_op_seed() for _ in range(3)]
    seed_mod.set_seed(5)
    assert [seed_mod._get_op_seed() for _ in range(3)] == first
    assert len(set(first)) == 3
    for s, s2 in first:
        assert 0 <= s < 2**31 - 1 and 0 <= s2 < 2**31 - 1


def test_initializer_seed_attribute():
    init = Normal(sigma=1.0)
    assert init.seed == (1234, 0)
    init.seed = 10
    assert init.seed == (11, 0)
    assert np.array_equal(fill(init, (3, 3)), fill(init, (3, 3)))


@pytest.mark.parametrize("bad,exc", [(-1, ValueError), (2**32, ValueError), (1.0, TypeError),
                                     ("1", TypeError), (True, TypeError)])
def test_set_seed_errors(bad, exc):
    with pytest.raises(exc, match=r"set_seed.*'seed'.*" + repr(bad).replace("'", "'?").replace(".", r"\.")):
        seed_mod.set_seed(bad)


# ----------------------------------------------------------------------------- aliases and initializer()

def test_alias_table():
    alias = init_mod._INITIALIZER_ALIAS
    assert set(alias) == {
        'zero', 'zeros', 'one', 'ones', 'xaviernormal', 'xavier_normal', 'xavieruniform', 'xavier_uniform',
        'heuniform', 'he_uniform', 'henormal', 'he_normal', 'identity', 'sparse', 'dirac', 'orthogonal',
        'variancescaling', 'uniform', 'normal', 'truncatednormal'}
    assert alias['zeros'] is Zero and alias['ones'] is One and alias['he_uniform'] is HeUniform
    assert alias['truncatednormal'] is TruncatedNormal and alias['xavier_normal'] is XavierNormal
    assert 'constant' not in alias


def test_all_names():
    assert set(init_mod.__all__) == {
        'Initializer', 'initializer', 'TruncatedNormal', 'Normal', 'Uniform', 'HeUniform', 'HeNormal',
        'XavierUniform', 'XavierNormal', 'One', 'Zero', 'Constant', 'Identity', 'Sparse', 'Dirac',
        'Orthogonal', 'VarianceScaling'}
    for name in init_mod.__all__:
        assert hasattr(init_mod, name)


def test_defaults_and_repr():
    assert (Normal().sigma, Normal().mean) == (0.01, 0.0)
    assert Uniform().scale == 0.07
    assert (HeUniform().negative_slope, HeUniform().mode, HeUniform().nonlinearity) == (0, 'fan_in', 'leaky_relu')
    assert (VarianceScaling().scale, VarianceScaling().mode, VarianceScaling().distribution) == \
        (1.0, 'fan_in', 'truncated_normal')
    assert Dirac().groups == 1 and Orthogonal().gain == 1.0 and XavierUniform().gain == 1
    assert repr(Normal(sigma=0.5)) == "Normal(sigma=0.5, mean=0.0)"


def test_initializer_lazy_tensor():
    t = initializer('ones', [2, 3], mstype.float16)
    assert isinstance(t, Tensor)
    assert t.shape == (2, 3) and t.dtype == mstype.float16
    assert isinstance(t.init, One)
    out = t.init_data().asnumpy()
    assert out.dtype == np.float16 and np.array_equal(out, np.ones((2, 3), np.float16))


@pytest.mark.parametrize("name,cls", [('Normal', Normal), ('ZEROS', Zero), ('He_Uniform', HeUniform),
                                      ('TruncatedNormal', TruncatedNormal), ('varianceScaling', VarianceScaling)])
def test_initializer_alias_case_insensitive(name, cls):
    assert type(initializer(name, (4, 4)).init) is cls


def test_initializer_number_and_shapes():
    t = initializer(3, 4, mstype.int32)
    assert t.shape == (4,) and t.dtype == mstype.int32
    assert np.array_equal(t.init_data().asnumpy(), np.full(4, 3, np.int32))
    t = initializer(0.5, (2, 2))
    assert t.dtype == mstype.float32 and isinstance(t.init, Constant)
    assert np.array_equal(t.init_data().asnumpy(), np.full((2, 2), 0.5, np.float32))
    assert initializer('ones', ()).init_data().asnumpy().shape == ()
    assert initializer('ones', (np.int64(2), 3)).shape == (2, 3)


def test_initializer_bfloat16():
    out = initializer(Normal(sigma=1.0), (64, 64), mstype.bfloat16).init_data()
    assert out.dtype == mstype.bfloat16
    assert float(np.std(out.asnumpy().astype(np.float32))) == pytest.approx(1.0, rel=0.05)


def test_initializer_seeded_tensor_values():
    seed_mod.set_seed(11)
    a = initializer('normal', (5, 5)).init_data().asnumpy()
    seed_mod.set_seed(11)
    b = initializer('normal', (5, 5)).init_data().asnumpy()
    assert np.array_equal(a, b)


def test_initializer_with_tensor_and_ndarray():
    data = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert initializer(data, [2, 3]) is data
    assert initializer(data) is data
    with pytest.raises(ValueError, match=r"'initializer'.*shape.*\[2, 3\].*\[3, 2\]"):
        initializer(data, (3, 2))
    t = initializer(np.ones((2, 2)), (2, 2))
    assert isinstance(t, Tensor) and t.dtype == mstype.float32
    assert np.array_equal(t.asnumpy(), np.ones((2, 2), np.float32))
    with pytest.raises(ValueError, match=r"'initializer'.*shape.*\[2, 2\].*\[4\]"):
        initializer(np.ones((2, 2)), 4)


def test_initializer_errors():
    with pytest.raises(ValueError, match="'initializer'.*'foo' was not found"):
        initializer('foo', (2, 2))
    with pytest.raises(ValueError, match=r"'initializer'.*'shape'.*positive integer.*\(2, -1\)"):
        initializer('ones', (2, -1))
    with pytest.raises(ValueError, match=r"'initializer'.*'shape'.*positive integer.*\(0,\)"):
        initializer('ones', 0)
    with pytest.raises(ValueError, match=r"'initializer'.*'shape'.*\(2\.0, 3\)"):
        initializer('ones', (2.0, 3))
    with pytest.raises(TypeError, match=r"'initializer'.*'shape'.*'23'.*str"):
        initializer('ones', '23')
    with pytest.raises(TypeError, match=r"'initializer'.*'shape'.*True"):
        initializer('ones', True)
    with pytest.raises(TypeError, match=r"'initializer'.*'init'.*\[1, 2\].*list"):
        initializer([1, 2], (2,))
    with pytest.raises(ValueError, match=r"'initializer'.*'shape'.*None"):
        initializer('ones')
    with pytest.raises(TypeError, match=r"'initializer'.*'sparse'.*Sparse\("):
        initializer('sparse', (2, 2))


def test_custom_initializer_subclass():
    class Twos(Initializer):
        def _initialize(self, arr):
            arr[:] = 2

    out = initializer(Twos(), (2, 2)).init_data().asnumpy()
    assert np.array_equal(out, np.full((2, 2), 2, np.float32))

    class UnitNormal(Normal):
        def __init__(self):  # pylint: disable=super-init-not-called
            self.sigma, self.mean = 1.0, 0.0

    assert fill(UnitNormal(), (100, 100)).std() == pytest.approx(1.0, rel=0.05)
    with pytest.raises(NotImplementedError):
        Initializer()(np.zeros(2))
