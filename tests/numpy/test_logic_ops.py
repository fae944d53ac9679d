"""Unit tests of tfspore.numpy's comparisons and logic functions."""
import numpy as np
import pytest

import tfspore as ms
import tfspore.numpy as mnp

V = np.array([1.0, np.nan, np.inf, -np.inf, -2.0], np.float32)


def t(x):
    return ms.Tensor(x)


@pytest.mark.parametrize("name", ["isnan", "isinf", "isfinite", "isposinf", "isneginf", "signbit"])
def test_float_predicates_match_numpy(name):
    np.testing.assert_array_equal(getattr(mnp, name)(t(V)).asnumpy(), getattr(np, name)(V))


@pytest.mark.parametrize("name", ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
                                  "logical_and", "logical_or", "logical_xor"])
def test_comparisons_match_numpy(name):
    a, b = np.array([1, 0, 3], np.int32), np.array([1, 2, 0], np.int32)
    np.testing.assert_array_equal(getattr(mnp, name)(t(a), t(b)).asnumpy(), getattr(np, name)(a, b))


def test_not_equal_requires_tensors():
    with pytest.raises(TypeError, match="expect Tensor"):
        mnp.not_equal([1], t(np.ones(1, np.float32)))


def test_isclose_isin_setdiff():
    a = np.array([1.0, 2.0, np.nan], np.float32)
    b = np.array([1.0 + 1e-7, 2.1, np.nan], np.float32)
    np.testing.assert_array_equal(mnp.isclose(t(a), t(b)).asnumpy(), np.isclose(a, b))
    np.testing.assert_array_equal(mnp.isclose(t(a), t(b), equal_nan=True).asnumpy(), np.isclose(a, b, equal_nan=True))
    x = np.array([[1, 2], [3, 4]], np.int32)
    np.testing.assert_array_equal(mnp.isin(t(x), t(np.array([2, 3], np.int32))).asnumpy(), np.isin(x, [2, 3]))
    np.testing.assert_array_equal(mnp.setdiff1d(t(np.array([4, 1, 4, 2], np.int32)), t(np.array([2], np.int32)))
                                  .asnumpy(), [1, 4])


def test_array_equal_equiv_sometrue_isscalar():
    a = t(np.array([1.0, 2.0], np.float32))
    assert bool(mnp.array_equal(a, a)) and not bool(mnp.array_equal(a, t(np.ones(3, np.float32))))
    assert bool(mnp.array_equiv(a, t(np.array([[1.0, 2.0]] * 2, np.float32))))
    assert bool(mnp.sometrue(t(np.array([0, 0, 1], np.int32))))
    assert mnp.isscalar(3.0) and not mnp.isscalar(a)
    with pytest.raises(TypeError, match="equal_nan"):
        mnp.array_equal(a, a, equal_nan=1)
