"""float16 convolutions and matrix products on CPU give MindSpore 2.10's numbers.

MindSpore's CPU build computes a float16 convolution or matrix product in float32 and rounds the
result to float16; tfspore does the same off GPU (``tfspore/ops/function/kernel_dtype.py``).
Both sides run float32 kernels whose accumulation order may differ, so a value may land one float16
ulp apart; measured, they agree exactly on these shapes.
"""
import numpy as np
import pytest

import tfspore as ts
from tfspore import nn as tnn
from tfspore import ops as tops

ms = pytest.importorskip("mindspore")
from mindspore import nn as mnn  # noqa: E402
from mindspore import ops as mops  # noqa: E402
from tests.parity._ms_helpers import _warm_mindspore  # noqa: E402,F401  (autouse fixture)

ULP = 2.0 ** -10  # float16's relative spacing


def _close16(a, b):
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    np.testing.assert_allclose(a, b, rtol=ULP, atol=ULP * np.max(np.abs(b)) * 1e-2)


def _data(seed, *shapes):
    rng = np.random.default_rng(seed)
    return [(rng.standard_normal(s) * 0.5).astype(np.float16) for s in shapes]


def test_conv2d_float16_forward_and_gradients_match_mindspore():
    x, w = _data(0, (2, 6, 10, 10), (8, 6, 3, 3))

    def ms_loss(a, b):
        y = mops.conv2d(a, b, pad_mode="pad", padding=1, stride=2)
        return (y * y).sum()

    def ts_loss(a, b):
        y = tops.conv2d(a, b, pad_mode="pad", padding=1, stride=2)
        return (y * y).sum()

    ym = mops.conv2d(ms.Tensor(x), ms.Tensor(w), pad_mode="pad", padding=1, stride=2)
    yt = tops.conv2d(ts.Tensor(x), ts.Tensor(w), pad_mode="pad", padding=1, stride=2)
    assert str(ym.dtype) == str(yt.dtype) == "Float16"
    _close16(yt.asnumpy(), ym.asnumpy())
    gm = ms.grad(ms_loss, (0, 1))(ms.Tensor(x), ms.Tensor(w))
    gt = ts.grad(ts_loss, (0, 1))(ts.Tensor(x), ts.Tensor(w))
    for a, b in zip(gt, gm):
        assert str(a.dtype) == str(b.dtype) == "Float16"
        # the loss sums float16 squares: allow the gradients a few float16 ulps of the largest one
        np.testing.assert_allclose(a.asnumpy().astype(np.float32), b.asnumpy().astype(np.float32), rtol=0,
                                   atol=4 * ULP * float(np.max(np.abs(b.asnumpy()))))


def test_dense_and_matmul_float16_match_mindspore():
    x, w, b = _data(1, (4, 40), (24, 40), (24,))
    dm = mnn.Dense(40, 24, weight_init=ms.Tensor(w.astype(np.float32)), bias_init=ms.Tensor(b.astype(np.float32)))
    dt = tnn.Dense(40, 24, weight_init=ts.Tensor(w.astype(np.float32)), bias_init=ts.Tensor(b.astype(np.float32)))
    dm.to_float(ms.float16)
    dt.to_float(ts.float16)
    ym, yt = dm(ms.Tensor(x)), dt(ts.Tensor(x))
    assert str(ym.dtype) == str(yt.dtype) == "Float16"
    _close16(yt.asnumpy(), ym.asnumpy())
    mm = mops.matmul(ms.Tensor(x), ms.Tensor(w.T.copy()))
    mt = tops.matmul(ts.Tensor(x), ts.Tensor(w.T.copy()))
    _close16(mt.asnumpy(), mm.asnumpy())


# The composite activations MindSpore's CPU build computes in float32 for float16 data (its results
# are the rounded float32 ones); tfspore does the same (``kernel_dtype.float32_for_half``). Its
# erf GELU and FastGeLU are not (they are up to 4% and 0.1% off in float16), so they are left out.
_HALF_ACTIVATIONS = {
    "GeLU": (lambda: mops.GeLU(), lambda: tops.operations.GeLU()),
    "gelu_tanh": (lambda: (lambda t: mops.gelu(t, approximate="tanh")),
                  lambda: (lambda t: tops.gelu(t, approximate="tanh"))),
    "nn.GELU": (lambda: mnn.GELU(), lambda: tnn.GELU()),
    "LogSoftmax": (lambda: mops.LogSoftmax(), lambda: tops.operations.LogSoftmax()),
    "nn.LogSoftmax": (lambda: mnn.LogSoftmax(), lambda: tnn.LogSoftmax()),
    "softplus": (lambda: mops.softplus, lambda: tops.softplus),
}


@pytest.mark.parametrize("name", sorted(_HALF_ACTIVATIONS))
def test_float16_activations_match_mindspore(name):
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((16, 64)) * 3).astype(np.float16)
    x[0, :6] = np.array([-3.6, -3.5, -3.1, -2.0, 0.0, 2.5], np.float16)  # where float16 GELU cancels
    make_ms, make_ts = _HALF_ACTIVATIONS[name]
    ym, yt = make_ms()(ms.Tensor(x)), make_ts()(ts.Tensor(x))
    assert str(ym.dtype) == str(yt.dtype) == "Float16"
    # Both round a float32 result: a value may land one or two float16 ulps apart (tanh near -1 in
    # the float32 kernels), or differ by a float16 subnormal where the GELU is about -1e-6.
    np.testing.assert_allclose(yt.asnumpy().astype(np.float32), ym.asnumpy().astype(np.float32),
                               rtol=2 * ULP, atol=1e-6)
