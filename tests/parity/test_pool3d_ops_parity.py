"""MaxPool3D, AvgPool3D, MaxPoolWithArgmax and ops.max_pool3d / avg_pool3d against MindSpore 2.10's CPU kernels."""
import numpy as np
import pytest

import tfspore as ts
from tests.parity._ms_helpers import _warm_mindspore  # noqa: F401  (autouse fixture)

ms = pytest.importorskip("mindspore")

R = np.random.RandomState(3)
X = R.standard_normal((2, 3, 5, 6, 7)).astype(np.float32)


def _cmp(m, t):
    assert str(m.dtype) == str(t.dtype) and m.shape == t.shape
    np.testing.assert_allclose(t.asnumpy(), m.asnumpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kw", [
    dict(kernel_size=2, strides=2),
    dict(kernel_size=3, strides=2, pad_mode="same"),
    dict(kernel_size=(3, 2, 3), strides=(2, 1, 2), pad_mode="pad", pad_list=1, ceil_mode=True),
    dict(kernel_size=3, strides=2, pad_mode="pad", pad_list=(1, 0, 1, 1, 0, 1)),
])
def test_max_pool3d(kw):
    _cmp(ms.ops.MaxPool3D(**kw)(ms.Tensor(X)), ts.ops.MaxPool3D(**kw)(ts.Tensor(X)))


@pytest.mark.parametrize("kw", [
    dict(kernel_size=2, strides=2),
    dict(kernel_size=3, strides=2, pad_mode="same"),
    dict(kernel_size=3, strides=2, pad_mode="same", count_include_pad=False),
    dict(kernel_size=3, strides=2, pad_mode="pad", pad=1, ceil_mode=True),
    dict(kernel_size=3, strides=2, pad_mode="pad", pad=(1, 0, 1, 1, 0, 1), count_include_pad=False),
    dict(kernel_size=3, strides=2, pad_mode="pad", pad=1, ceil_mode=True, count_include_pad=False),
    dict(kernel_size=2, strides=1, divisor_override=3),
])
def test_avg_pool3d(kw):
    _cmp(ms.ops.AvgPool3D(**kw)(ms.Tensor(X)), ts.ops.AvgPool3D(**kw)(ts.Tensor(X)))


def test_functional_pool3d():
    _cmp(ms.ops.max_pool3d(ms.Tensor(X), 3, 2, 1, ceil_mode=True), ts.ops.max_pool3d(ts.Tensor(X), 3, 2, 1,
                                                                                       ceil_mode=True))
    _cmp(ms.ops.avg_pool3d(ms.Tensor(X), 3, 2, 1, count_include_pad=False),
         ts.ops.avg_pool3d(ts.Tensor(X), 3, 2, 1, count_include_pad=False))


@pytest.mark.parametrize("pad_mode", ["valid"])  # 'same': MindSpore's CPU kernel pads only bottom/right
def test_max_pool_with_argmax(pad_mode):
    x = R.standard_normal((2, 3, 7, 6)).astype(np.float32)
    mo, mm = ms.ops.MaxPoolWithArgmax(kernel_size=3, strides=2, pad_mode=pad_mode)(ms.Tensor(x))
    to, tm = ts.ops.MaxPoolWithArgmax(kernel_size=3, strides=2, pad_mode=pad_mode)(ts.Tensor(x))
    _cmp(mo, to)
    assert str(tm.dtype) == str(mm.dtype)
    np.testing.assert_array_equal(tm.asnumpy(), mm.asnumpy())
