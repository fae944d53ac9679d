"""Unit tests of tfspore.numpy's array creation functions (values checked against numpy)."""
import numpy as np
import pytest

import tfspore as ms
import tfspore.numpy as mnp


def test_python_data_gets_32_bit_dtypes():
    assert mnp.array([1, 2]).dtype == ms.int32
    assert mnp.array([1.0, 2]).dtype == ms.float32
    assert mnp.array(True).dtype == ms.bool_
    assert mnp.asarray(3).dtype == ms.int32


def test_numpy_arrays_keep_their_dtype():
    out = mnp.asarray(np.arange(3, dtype=np.float64))
    assert out.dtype == ms.float64
    np.testing.assert_array_equal(out.asnumpy(), [0.0, 1.0, 2.0])


def test_asarray_returns_same_tensor_and_array_copies():
    t = ms.Tensor(np.ones(3, np.float32))
    assert mnp.asarray(t) is t
    assert mnp.array(t) is not t
    assert mnp.array(t, ndmin=3).shape == (1, 1, 3)


def test_dtype_names_and_python_types_are_accepted():
    assert mnp.ones(2, "int64").dtype == ms.int64
    assert mnp.zeros(2, int).dtype == ms.int32
    assert mnp.zeros(2, float).dtype == ms.float32
    assert mnp.full((2,), 1, np.float16).dtype == ms.float16
    with pytest.raises(TypeError, match="allowed for dtype"):
        mnp.ones(2, "complex")


def test_bad_shapes_raise():
    with pytest.raises(ValueError, match="no less than 0"):
        mnp.zeros((2, -1))
    with pytest.raises(TypeError, match="shape"):
        mnp.ones(2.5)


@pytest.mark.parametrize("args", [(5,), (1, 7, 2), (0, 1, 0.1), (2.5,), (-3, 3, 1.5), (5, 1, -1)])
def test_arange_matches_numpy(args):
    np.testing.assert_allclose(mnp.arange(*args).asnumpy(), np.arange(*args).astype(np.float32), rtol=1e-6)


def test_arange_zero_step_raises():
    with pytest.raises(ValueError, match="step"):
        mnp.arange(0, 3, 0)


def test_linspace_logspace_geomspace():
    np.testing.assert_allclose(mnp.linspace(1, 2, 7).asnumpy(), np.linspace(1, 2, 7), rtol=1e-6)
    out, step = mnp.linspace(0, 1, 5, retstep=True)
    assert float(step) == pytest.approx(0.25)
    np.testing.assert_allclose(mnp.logspace(0, 3, 4, base=2.0).asnumpy(), np.logspace(0, 3, 4, base=2.0), rtol=1e-6)
    np.testing.assert_allclose(mnp.geomspace(2, 256, 8).asnumpy(), np.geomspace(2, 256, 8), rtol=1e-5)
    with pytest.raises(TypeError, match="num"):
        mnp.linspace(0, 1, 2.0)


def test_eye_tri_and_triangles():
    np.testing.assert_array_equal(mnp.eye(3, 4, -1).asnumpy(), np.eye(3, 4, -1))
    np.testing.assert_array_equal(mnp.tri(3, 3, 1).asnumpy(), np.tri(3, 3, 1))
    m = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal(mnp.tril(ms.Tensor(m), 1).asnumpy(), np.tril(m, 1))
    np.testing.assert_array_equal(mnp.triu(ms.Tensor(m), -1).asnumpy(), np.triu(m, -1))
    with pytest.raises(TypeError):
        mnp.eye(2.0)


def test_diagonal_trace_diag():
    c = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    np.testing.assert_array_equal(mnp.diagonal(ms.Tensor(c), 1, 1, 2).asnumpy(), np.diagonal(c, 1, 1, 2))
    np.testing.assert_array_equal(mnp.trace(ms.Tensor(c), -1, 0, 2).asnumpy(), np.trace(c, -1, 0, 2))
    v = np.array([1.0, 2.0, 3.0], np.float32)
    np.testing.assert_array_equal(mnp.diag(ms.Tensor(v), 2).asnumpy(), np.diag(v, 2))
    with pytest.raises(ValueError, match="1- or 2-d"):
        mnp.diag(ms.Tensor(c))


def test_meshgrid_mgrid_ogrid_indices():
    x, y = np.arange(3.0, dtype=np.float32), np.arange(2.0, dtype=np.float32)
    for idx in ("xy", "ij"):
        got = mnp.meshgrid(ms.Tensor(x), ms.Tensor(y), indexing=idx)
        for g, e in zip(got, np.meshgrid(x, y, indexing=idx)):
            np.testing.assert_array_equal(g.asnumpy(), e)
    np.testing.assert_array_equal(mnp.mgrid[0:2, 0:3].asnumpy(), np.mgrid[0:2, 0:3])
    np.testing.assert_allclose(mnp.mgrid[0:1:5j].asnumpy(), np.mgrid[0:1:5j], rtol=1e-6)
    assert [o.shape for o in mnp.ogrid[0:2, 0:3]] == [(2, 1), (1, 3)]
    assert len(mnp.indices((2, 3))) == 2
    with pytest.raises(TypeError, match="indexing"):
        mnp.meshgrid(ms.Tensor(x), indexing="yx")


def test_windows_match_numpy():
    for name in ("hamming", "hanning", "bartlett", "blackman"):
        np.testing.assert_allclose(getattr(mnp, name)(6).asnumpy(), getattr(np, name)(6), atol=1e-6)


def test_tri_indices_and_vander():
    r, c = mnp.triu_indices(4, 1)
    er, ec = np.triu_indices(4, 1)
    np.testing.assert_array_equal(r.asnumpy(), er)
    np.testing.assert_array_equal(c.asnumpy(), ec)
    v = np.array([1.0, 2.0, 3.0], np.float32)
    np.testing.assert_allclose(mnp.vander(ms.Tensor(v), 4).asnumpy(), np.vander(v, 4))


def test_random_functions_shapes_dtypes_and_ranges():
    ms.set_seed(3)
    assert mnp.rand(2, 3).shape == (2, 3)
    assert mnp.randn((4,), dtype=ms.float16).dtype == ms.float16
    r = mnp.randint(2, 5, (100,)).asnumpy()
    assert r.min() >= 2 and r.max() < 5
    assert mnp.randint(3).dtype == ms.int32
    with pytest.raises(ValueError, match="minval"):
        mnp.randint(5, 2)
