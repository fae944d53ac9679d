"""The deprecated tensor-function Cells (tfspore/nn/layer/tensor_cells.py), against numpy / math."""
import math

import numpy as np
import pytest

from tfspore import Tensor, nn


def _x(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def test_structural_cells(mode):
    x = _x(2, 3, 4)
    np.testing.assert_array_equal(nn.Tril()(Tensor(x), 1).asnumpy(), np.tril(x, 1))
    np.testing.assert_array_equal(nn.Triu()(Tensor(x), -1).asnumpy(), np.triu(x, -1))
    np.testing.assert_array_equal(nn.Roll((1, -2), (0, 2))(Tensor(x)).asnumpy(), np.roll(x, (1, -2), (0, 2)))
    diag = nn.MatrixDiag()(Tensor(x)).asnumpy()
    assert diag.shape == (2, 3, 4, 4)
    np.testing.assert_array_equal(np.diagonal(diag, axis1=-2, axis2=-1), x)
    np.testing.assert_array_equal(nn.MatrixDiagPart()(Tensor(x)).asnumpy(), np.diagonal(x, axis1=-2, axis2=-1))
    new = nn.MatrixSetDiag()(Tensor(x), Tensor(np.zeros((2, 3), np.float32))).asnumpy()
    np.testing.assert_array_equal(np.diagonal(new, axis1=-2, axis2=-1), 0)
    hot = nn.OneHot(axis=0, depth=3, on_value=2.0, off_value=-1.0)(Tensor(np.array([0, 2], np.int32))).asnumpy()
    np.testing.assert_array_equal(hot, [[2, -1], [-1, -1], [-1, 2]])
    np.testing.assert_array_equal(nn.Range(1, 7, 2)().asnumpy(), [1, 3, 5])
    assert nn.Range(0.5, 2.0, 0.5)().dtype == nn.Range(0.0, 1.0, 0.5)().dtype
    with pytest.raises(ValueError, match="'delta' can not be zero"):
        nn.Range(0, 3, 0)
    with pytest.raises(ValueError, match="shape of 'shift' and the shape of 'axis' must be the same"):
        nn.Roll((1, 2), 0)


def test_reductions_and_linear_algebra(mode):
    x = _x(2, 3, 4)
    mean, var = nn.Moments(axis=(0, 2))(Tensor(x))
    np.testing.assert_allclose(mean.asnumpy(), x.mean((0, 2)), rtol=1e-5)
    np.testing.assert_allclose(var.asnumpy(), x.var((0, 2)), rtol=1e-5)
    assert nn.Moments(axis=1, keep_dims=True)(Tensor(x))[1].shape == (2, 1, 4)
    np.testing.assert_allclose(nn.ReduceLogSumExp(1)(Tensor(x)).asnumpy(), np.log(np.exp(x).sum(1)), rtol=1e-5)
    np.testing.assert_allclose(float(nn.L1Regularizer(0.3)(Tensor(x))), 0.3 * np.abs(x).sum(), rtol=1e-5)
    a = _x(2, 3, 3)
    spd = (a @ a.transpose(0, 2, 1) + 3 * np.eye(3)).astype(np.float32)
    np.testing.assert_allclose(nn.MatDet()(Tensor(spd)).asnumpy(), np.linalg.det(spd), rtol=1e-4)
    np.testing.assert_allclose(nn.MatInverse()(Tensor(spd)).asnumpy(), np.linalg.inv(spd), rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="'scale' must be greater than 0"):
        nn.L1Regularizer(0)
    with pytest.raises(TypeError, match="Float16, Float32"):
        nn.Moments()(Tensor(np.ones(3, np.int32)))


def test_special_functions(mode):
    pos = np.abs(_x(5)) + 0.5
    np.testing.assert_allclose(nn.LGamma()(Tensor(pos)).asnumpy(), [math.lgamma(v) for v in pos], rtol=1e-5)
    # digamma(x + 1) - digamma(x) = 1 / x
    dg = nn.DiGamma()
    np.testing.assert_allclose(dg(Tensor(pos + 1)).asnumpy() - dg(Tensor(pos)).asnumpy(), 1 / pos, rtol=1e-4)
    # P(1, x) = 1 - exp(-x)
    np.testing.assert_allclose(nn.IGamma()(Tensor(np.ones(5, np.float32)), Tensor(pos)).asnumpy(), 1 - np.exp(-pos),
                               rtol=1e-5)
    want = [math.lgamma(v) + math.lgamma(v + 1) - math.lgamma(2 * v + 1) for v in pos]
    np.testing.assert_allclose(nn.LBeta()(Tensor(pos), Tensor(pos + 1)).asnumpy(), want, rtol=1e-5, atol=1e-6)
