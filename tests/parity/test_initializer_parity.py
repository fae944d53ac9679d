"""Parity of tfspore.common.initializer with MindSpore's mindspore.common.initializer."""
import math

import numpy as np
import pytest

mindspore = pytest.importorskip("mindspore")
msi = pytest.importorskip("mindspore.common.initializer")

from tfspore.common import initializer as tsi  # noqa: E402
from tfspore.common import seed as seed_mod  # noqa: E402

BIG = (500, 200)  # 100k samples


@pytest.fixture(autouse=True)
def _seeded():
    seed_mod.set_seed(0)
    np.random.seed(0)  # MindSpore's initializers draw their seeds from numpy's global generator
    yield
    seed_mod._GLOBAL_SEED = None  # pylint: disable=protected-access


def both(name, *args, shape=BIG, dtype=np.float32, **kwargs):
    """Fill an array of `shape` with MindSpore's and tfspore's `name` initializer."""
    ms_arr = np.zeros(shape, dtype)
    getattr(msi, name)(*args, **kwargs)(ms_arr)
    ts_arr = np.zeros(shape, dtype)
    getattr(tsi, name)(*args, **kwargs)(ts_arr)
    return ms_arr, ts_arr


def test_alias_table_matches():
    assert set(tsi._INITIALIZER_ALIAS) == set(msi._INITIALIZER_ALIAS)
    for key, cls in msi._INITIALIZER_ALIAS.items():
        assert tsi._INITIALIZER_ALIAS[key].__name__ == cls.__name__


def test_all_matches():
    assert sorted(tsi.__all__) == sorted(msi.__all__)


@pytest.mark.parametrize("shape", [(3, 4), (32, 64), (16, 3, 5, 5), (8, 4, 3), (2, 3, 2, 2, 2), (1, 1, 1)])
def test_fan_in_and_fan_out(shape):
    assert tsi._calculate_fan_in_and_fan_out(shape) == msi._calculate_fan_in_and_fan_out(shape)
    for mode in ('fan_in', 'fan_out', 'FAN_IN'):
        assert tsi._calculate_correct_fan(shape, mode) == msi._calculate_correct_fan(shape, mode)


def test_fan_errors_match():
    for fn in (msi._calculate_fan_in_and_fan_out, tsi._calculate_fan_in_and_fan_out):
        with pytest.raises(ValueError, match="fewer than 2 dimensions, but got dimensions 1"):
            fn((4,))


@pytest.mark.parametrize("nonlinearity,param", [
    ('linear', None), ('conv2d', None), ('sigmoid', None), ('tanh', None), ('relu', None),
    ('leaky_relu', None), ('leaky_relu', 0), ('leaky_relu', math.sqrt(5)), ('leaky_relu', 0.2),
    ('conv_transpose3d', None)])
def test_gain(nonlinearity, param):
    assert tsi._calculate_gain(nonlinearity, param) == pytest.approx(msi._calculate_gain(nonlinearity, param),
                                                                     rel=1e-12)


@pytest.mark.parametrize("nonlinearity,param", [('selu', None), ('leaky_relu', True), ('leaky_relu', 'x')])
def test_gain_errors(nonlinearity, param):
    with pytest.raises(ValueError):
        msi._calculate_gain(nonlinearity, param)
    with pytest.raises(ValueError):
        tsi._calculate_gain(nonlinearity, param)


@pytest.mark.parametrize("name,args,shape", [
    ('Zero', (), (3, 4)), ('One', (), (3, 4)), ('Constant', (2.5,), (2, 3)), ('Constant', (-1,), ()),
    ('Identity', (), (3, 5)), ('Identity', (), (4, 4)),
    ('Dirac', (), (4, 3, 3, 3)), ('Dirac', (2,), (6, 4, 3, 3)), ('Dirac', (3,), (6, 2, 5)),
    ('Dirac', (1,), (2, 2, 3, 3, 3))])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_deterministic_exact(name, args, shape, dtype):
    ms_arr, ts_arr = both(name, *args, shape=shape, dtype=dtype)
    assert np.array_equal(ms_arr, ts_arr)


def _stats_match(ms_arr, ts_arr, bounded=False):
    std = float(ms_arr.std())
    assert ts_arr.std() == pytest.approx(std, rel=0.02)
    assert ts_arr.mean() == pytest.approx(float(ms_arr.mean()), abs=0.02 * std)
    if bounded:
        assert ts_arr.min() == pytest.approx(float(ms_arr.min()), abs=0.01 * std)
        assert ts_arr.max() == pytest.approx(float(ms_arr.max()), abs=0.01 * std)


@pytest.mark.parametrize("name,kwargs,bounded", [
    ('Uniform', {}, True),
    ('Uniform', {'scale': 3.0}, True),
    ('Normal', {}, False),
    ('Normal', {'sigma': 2.0, 'mean': 1.0}, False),
    ('TruncatedNormal', {}, False),
    ('TruncatedNormal', {'sigma': 1.0, 'mean': 0.5, 'a': -0.5, 'b': 2.0}, True),
    ('TruncatedNormal', {'sigma': 1.0, 'a': -1.0, 'b': 1.0}, True),
    ('XavierUniform', {}, True),
    ('XavierUniform', {'gain': 2.0}, True),
    ('XavierNormal', {'gain': 0.5}, False),
    ('HeUniform', {}, True),
    ('HeUniform', {'negative_slope': math.sqrt(5)}, True),
    ('HeUniform', {'mode': 'fan_out', 'nonlinearity': 'relu'}, True),
    ('HeNormal', {}, False),
    ('HeNormal', {'mode': 'fan_out', 'nonlinearity': 'tanh'}, False),
    ('VarianceScaling', {'scale': 2.0, 'mode': 'fan_avg', 'distribution': 'uniform'}, True),
    ('VarianceScaling', {'mode': 'fan_out', 'distribution': 'untruncated_normal'}, False),
    ('Sparse', {'sparsity': 0.2, 'sigma': 1.5}, False),
])
def test_distribution_stats(name, kwargs, bounded):
    ms_arr, ts_arr = both(name, **kwargs)
    _stats_match(ms_arr, ts_arr, bounded)


def test_conv_weight_he_uniform_bound():
    ms_arr, ts_arr = both('HeUniform', negative_slope=math.sqrt(5), shape=(64, 16, 5, 5))
    bound = 1 / math.sqrt(16 * 25)
    assert np.abs(ms_arr).max() <= bound and np.abs(ts_arr).max() <= bound
    _stats_match(ms_arr, ts_arr, bounded=True)


def test_variance_scaling_default_std():
    # MindSpore 2.10 samples its default ('truncated_normal') from a uniform distribution
    # (docs/differences.md); both have the documented standard deviation sqrt(scale / fan_in).
    ms_arr, ts_arr = both('VarianceScaling', scale=3.0)
    assert ts_arr.std() == pytest.approx(float(ms_arr.std()), rel=0.02)
    assert ts_arr.std() == pytest.approx(math.sqrt(3.0 / 200), rel=0.02)


def test_sparse_zero_counts():
    ms_arr, ts_arr = both('Sparse', 0.3, shape=(50, 40))
    assert np.array_equal((ms_arr == 0).sum(axis=0), (ts_arr == 0).sum(axis=0))


@pytest.mark.parametrize("shape", [(8, 8), (4, 12), (12, 4), (6, 2, 3)])
def test_orthogonal(shape):
    ms_arr, ts_arr = both('Orthogonal', gain=1.5, shape=shape)
    for arr in (ms_arr, ts_arr):
        m = arr.reshape(shape[0], -1).astype(np.float64)
        gram = m @ m.T if m.shape[0] <= m.shape[1] else m.T @ m
        np.testing.assert_allclose(gram, 2.25 * np.eye(gram.shape[0]), atol=1e-5)


def test_int_dtype_matches():
    ms_arr, ts_arr = both('Constant', 2.7, shape=(3,), dtype=np.int32)
    assert np.array_equal(ms_arr, ts_arr)
    ms_arr, ts_arr = both('Uniform', 0.5, shape=(3, 3), dtype=np.int64)
    assert np.array_equal(ms_arr, ts_arr)


@pytest.mark.parametrize("name,shape", [('Identity', (2, 2, 2)), ('Dirac', (2, 2)), ('Orthogonal', (3,)),
                                        ('XavierUniform', (3,)), ('HeNormal', (3,))])
def test_shape_errors_match(name, shape):
    for mod in (msi, tsi):
        with pytest.raises(ValueError):
            getattr(mod, name)()(np.zeros(shape, np.float32))


def test_variance_scaling_argument_errors_match():
    for kwargs in ({'scale': 0}, {'mode': 'avg'}, {'distribution': 'normal'}):
        for mod in (msi, tsi):
            with pytest.raises(ValueError):
                mod.VarianceScaling(**kwargs)


@pytest.mark.parametrize("init,shape", [('foo', (2, 2)), ('ones', (2, -1)), ('ones', (2, 0)), ('ones', 0),
                                        ('normal', (2.0, 3))])
def test_initializer_error_messages_match(init, shape):
    with pytest.raises(ValueError) as ms_err:
        msi.initializer(init, shape, mindspore.float32)
    with pytest.raises(ValueError) as ts_err:
        tsi.initializer(init, shape)
    assert str(ts_err.value) == str(ms_err.value)


def test_initializer_tensor_shape_mismatch():
    from tfspore.common.tensor import Tensor
    with pytest.raises(ValueError, match="'init' shape"):
        msi.initializer(mindspore.Tensor(np.zeros((2, 3), np.float32)), (3, 2), mindspore.float32)
    with pytest.raises(ValueError, match="'init' shape"):
        tsi.initializer(Tensor(np.zeros((2, 3), np.float32)), (3, 2))


@pytest.mark.parametrize("init,shape", [('ones', (2, 3)), (2.5, 4), ('identity', [3, 3]), ('zeros', ())])
def test_initializer_values_match(init, shape):
    ms_val = msi.initializer(init, shape, mindspore.float32).init_data().asnumpy()
    ts_val = tsi.initializer(init, shape).init_data().asnumpy()
    assert ts_val.shape == ms_val.shape and ts_val.dtype == ms_val.dtype
    assert np.array_equal(ts_val, ms_val)


@pytest.mark.parametrize("bad,exc", [(-1, ValueError), (1.0, TypeError), ('3', TypeError)])
def test_set_seed_error_types_match(bad, exc):
    with pytest.raises(exc):
        mindspore.set_seed(bad)
    with pytest.raises(exc):
        seed_mod.set_seed(bad)
