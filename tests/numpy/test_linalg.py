"""Unit tests of tfspore.numpy's products, polynomials, statistics and binning functions."""
import numpy as np
import pytest

import tfspore as ms
import tfspore.numpy as mnp

rng = np.random.default_rng(0)
A = rng.standard_normal((2, 3, 4)).astype(np.float32)
B = rng.standard_normal((4, 5)).astype(np.float32)
V = np.array([1.0, -2.0, 0.5], np.float32)
W = np.array([3.0, 1.0, 2.0, -1.0], np.float32)


def t(x):
    return ms.Tensor(x)


def test_products_match_numpy():
    np.testing.assert_allclose(mnp.dot(t(A), t(B)).asnumpy(), np.dot(A, B), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(mnp.matmul(t(A), t(B)).asnumpy(), np.matmul(A, B), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(mnp.inner(t(A), t(W)).asnumpy(), np.inner(A, W), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(mnp.tensordot(t(A), t(B), 1).asnumpy(), np.tensordot(A, B, 1), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(mnp.kron(t(V), t(B[:2, :2])).asnumpy(), np.kron(V, B[:2, :2]), rtol=1e-6)
    np.testing.assert_allclose(mnp.cross(t(A[..., :3]), t(V)).asnumpy(), np.cross(A[..., :3], V), rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(mnp.multi_dot([t(W), t(B), t(B.T), t(W)]).asnumpy(),
                               np.linalg.multi_dot([W, B, B.T, W]), rtol=1e-4)
    m = B[:4, :4]
    np.testing.assert_allclose(mnp.matrix_power(t(m), 3).asnumpy(), np.linalg.matrix_power(m, 3), rtol=1e-4,
                               atol=1e-4)
    with pytest.raises(ValueError, match="aligned"):
        mnp.dot(t(B), t(A))
    with pytest.raises(ValueError, match="square"):
        mnp.matrix_power(t(B), 2)


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_convolve_correlate_match_numpy(mode):
    np.testing.assert_allclose(mnp.convolve(t(W), t(V), mode).asnumpy(), np.convolve(W, V, mode), rtol=1e-5)
    np.testing.assert_allclose(mnp.correlate(t(W), t(V), mode).asnumpy(), np.correlate(W, V, mode), rtol=1e-5)


def test_polynomials_match_numpy():
    np.testing.assert_allclose(mnp.polyval(t(V), t(W)).asnumpy(), np.polyval(V, W), rtol=1e-5)
    np.testing.assert_allclose(mnp.polyadd(t(V), t(W)).asnumpy(), np.polyadd(V, W))
    np.testing.assert_allclose(mnp.polymul(t(V), t(W)).asnumpy(), np.polymul(V, W), rtol=1e-5)
    np.testing.assert_allclose(mnp.polyder(t(W), 2).asnumpy(), np.polyder(W, 2))
    np.testing.assert_allclose(mnp.polyint(t(V), 2, [1.0, 2.0]).asnumpy(), np.polyint(V, 2, [1.0, 2.0]), rtol=1e-6)


def test_cov_corrcoef_match_numpy():
    x = B
    np.testing.assert_allclose(mnp.cov(t(x)).asnumpy(), np.cov(x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(mnp.cov(t(x), rowvar=False, ddof=0).asnumpy(), np.cov(x, rowvar=False, ddof=0),
                               rtol=1e-5, atol=1e-6)
    fw = np.array([1, 2, 1, 1, 3], np.int32)
    aw = np.array([0.5, 1.0, 2.0, 1.0, 0.5], np.float32)
    np.testing.assert_allclose(mnp.cov(t(x), fweights=t(fw), aweights=t(aw)).asnumpy(),
                               np.cov(x, fweights=fw, aweights=aw), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(mnp.corrcoef(t(x)).asnumpy(), np.corrcoef(x), rtol=1e-5, atol=1e-6)


def test_search_and_binning_match_numpy():
    edges = np.array([0.0, 1.0, 2.5, 4.0], np.float32)
    x = np.array([-1.0, 0.0, 1.0, 3.0, 5.0], np.float32)
    np.testing.assert_array_equal(mnp.searchsorted(t(edges), t(x), "right").asnumpy(),
                                  np.searchsorted(edges, x, "right"))
    np.testing.assert_array_equal(mnp.digitize(t(x), t(edges[::-1].copy())).asnumpy(), np.digitize(x, edges[::-1]))
    np.testing.assert_allclose(mnp.interp(t(x), t(edges), t(edges * 2)).asnumpy(), np.interp(x, edges, edges * 2))
    counts, e = mnp.histogram(t(x), 3)
    ec, ee = np.histogram(x, 3)
    np.testing.assert_array_equal(counts.asnumpy(), ec)
    np.testing.assert_allclose(e.asnumpy(), ee, rtol=1e-6)
    h, xe, ye = mnp.histogram2d(t(x), t(x[::-1].copy()), 2)
    eh, exe, eye = np.histogram2d(x, x[::-1], 2)
    np.testing.assert_array_equal(h.asnumpy(), eh)
    np.testing.assert_array_equal(mnp.bincount(t(np.array([0, 3, 3], np.int32)), minlength=5).asnumpy(),
                                  np.bincount([0, 3, 3], minlength=5))
    idx = np.array([[0, 2], [1, 3]], np.int32)
    np.testing.assert_array_equal(mnp.ravel_multi_index(t(idx), (3, 4), order="F").asnumpy(),
                                  np.ravel_multi_index(idx, (3, 4), order="F"))
    p = np.array([0.0, 3.0, 6.5, 1.0, -4.0], np.float32)
    np.testing.assert_allclose(mnp.unwrap(t(p)).asnumpy(), np.unwrap(p), rtol=1e-5)
