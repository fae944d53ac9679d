"""Unit tests of tfspore.numpy's reductions and scans (tfspore/numpy/_reductions.py)."""
import numpy as np
import pytest

import tfspore as ms
import tfspore.numpy as mnp

X = np.array([[1.5, -2.0, 3.0, 0.5], [4.0, 0.25, -1.0, 2.0], [0.0, 1.0, 5.0, -3.0]], np.float32)


def t(x):
    return ms.Tensor(x)


@pytest.mark.parametrize("name,kw", [("sum", {}), ("sum", {"axis": 0}), ("mean", {"axis": (0, 1)}),
                                     ("std", {"axis": 1, "ddof": 1}), ("var", {"keepdims": True}),
                                     ("amax", {"axis": -1}), ("amin", {}), ("ptp", {"axis": 0}),
                                     ("cumsum", {"axis": 1}), ("cumprod", {"axis": 0}), ("argmax", {"axis": 1}),
                                     ("argmin", {}), ("count_nonzero", {"axis": 0})])
def test_reductions_match_numpy(name, kw):
    np.testing.assert_allclose(getattr(mnp, name)(t(X), **kw).asnumpy(), getattr(np, name)(X, **kw), rtol=1e-5)


def test_result_dtypes_follow_mindspore():
    i = t(np.array([1, 2, 4], np.int32))
    assert mnp.sum(i).dtype == ms.int64
    assert mnp.mean(i).dtype == ms.int32 and int(mnp.mean(i)) == 2
    assert mnp.cumsum(t(np.array([1, 2], np.int8))).dtype == ms.int32
    assert mnp.argmax(i).dtype == ms.int64 and mnp.argmin(i).dtype == ms.int32
    assert mnp.std(i).dtype == ms.float32


def test_initial_and_where():
    assert float(mnp.amax(t(X), initial=10.0)) == 10.0
    np.testing.assert_allclose(mnp.amin(t(X), axis=0, initial=0.0, where=t(X > 0)).asnumpy(),
                               np.min(X, axis=0, initial=0.0, where=X > 0))
    with pytest.raises(ValueError, match="initial"):
        mnp.amax(t(X), where=t(X > 0))
    with pytest.raises(TypeError, match="scalar"):
        mnp.sum(t(X), initial=[1])


def test_nan_functions():
    a = np.array([[1.0, np.nan], [3.0, 4.0]], np.float32)
    for name in ("nansum", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin", "nancumsum"):
        np.testing.assert_allclose(getattr(mnp, name)(t(a), axis=0).asnumpy(), getattr(np, name)(a, axis=0),
                                   rtol=1e-6)


@pytest.mark.parametrize("ord_,axis", [(None, None), (1, 0), (2, 1), (np.inf, 1), (-np.inf, 0), (0, 1), (3, 0),
                                       ("fro", None), ("nuc", None), (1, None), (np.inf, None), (2, None),
                                       (-2, (0, 1))])
def test_norm_matches_numpy(ord_, axis):
    np.testing.assert_allclose(mnp.norm(t(X), ord_, axis).asnumpy(), np.linalg.norm(X, ord_, axis), rtol=1e-5)


def test_norm_errors():
    with pytest.raises(ValueError, match="ord"):
        mnp.norm(t(X), "bogus")
    with pytest.raises(ValueError, match="vector or a 2-D"):
        mnp.norm(t(np.ones((2, 2, 2), np.float32)), 1)


def test_average_diff_gradient_trapz():
    w = np.array([1.0, 2.0, 0.0, 1.0], np.float32)
    np.testing.assert_allclose(mnp.average(t(X), 1, t(w)).asnumpy(), np.average(X, 1, w), rtol=1e-6)
    np.testing.assert_allclose(mnp.diff(t(X), 2, 1).asnumpy(), np.diff(X, 2, 1))
    np.testing.assert_allclose(mnp.gradient(t(X[0]), 0.5).asnumpy(), np.gradient(X[0], 0.5))
    np.testing.assert_allclose(mnp.gradient(t(X[0]), edge_order=2).asnumpy(), np.gradient(X[0], edge_order=2))
    np.testing.assert_allclose(mnp.trapz(t(X), dx=0.5, axis=0).asnumpy(), np.trapezoid(X, dx=0.5, axis=0), rtol=1e-6)
    with pytest.raises(ValueError, match="bigger"):
        mnp.diff(t(X), 4)
