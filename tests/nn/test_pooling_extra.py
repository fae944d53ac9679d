"""``LPPool1d/2d``, ``AdaptiveAvgPool3d``, ``AdaptiveMaxPool3d`` and ``MaxUnpool1d/2d/3d``
(tfspore/nn/layer/pooling_extra.py), against numpy loops."""
import math

import numpy as np
import pytest

from tfspore import Tensor, nn


def _x(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def test_lp_pool(mode):
    x = np.abs(_x(2, 3, 9))
    got = nn.LPPool1d(1.5, 3, 2, ceil_mode=True)(Tensor(x)).asnumpy()
    want = []
    for o in range(4):
        win = x[..., 2 * o:2 * o + 3]
        want.append((np.mean(win ** 1.5, -1) * 3) ** (1 / 1.5))  # a partial last window is scaled to 3
    np.testing.assert_allclose(got, np.stack(want, -1), rtol=1e-5)
    x4 = _x(2, 3, 6, 6)
    got = nn.LPPool2d(2, 2)(Tensor(x4)).asnumpy()
    want = np.sqrt((x4.reshape(2, 3, 3, 2, 3, 2) ** 2).sum((3, 5)))
    np.testing.assert_allclose(got, want, rtol=1e-5)
    with pytest.raises(ValueError, match="'norm_type' must be a positive number"):
        nn.LPPool1d(0, 2)


def test_adaptive_pool3d(mode):
    x = _x(2, 3, 5, 6, 7)
    avg = nn.AdaptiveAvgPool3d((2, None, 3))(Tensor(x)).asnumpy()
    mx, idx = nn.AdaptiveMaxPool3d((2, 3, 3), return_indices=True)(Tensor(x))
    assert avg.shape == (2, 3, 2, 6, 3) and mx.shape == (2, 3, 2, 3, 3)

    def bins(n, out):
        return [(math.floor(i * n / out), math.ceil((i + 1) * n / out)) for i in range(out)]

    for i, (d0, d1) in enumerate(bins(5, 2)):
        for k, (w0, w1) in enumerate(bins(7, 3)):
            np.testing.assert_allclose(avg[:, :, i, :, k], x[:, :, d0:d1, :, w0:w1].mean((2, 4)), rtol=1e-5)
        for j, (h0, h1) in enumerate(bins(6, 3)):
            for k, (w0, w1) in enumerate(bins(7, 3)):
                win = x[:, :, d0:d1, h0:h1, w0:w1]
                np.testing.assert_array_equal(mx.asnumpy()[:, :, i, j, k], win.max((2, 3, 4)))
    flat = x.reshape(2, 3, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, idx.asnumpy().reshape(2, 3, -1), -1),
                                  mx.asnumpy().reshape(2, 3, -1))


@pytest.mark.parametrize("pool,unpool,shape", [
    (lambda: nn.MaxPool1d(2, 2, pad_mode="pad", return_indices=True), lambda: nn.MaxUnpool1d(2), (2, 3, 8)),
    (lambda: nn.MaxPool2d(2, 2, pad_mode="pad", return_indices=True), lambda: nn.MaxUnpool2d(2), (2, 3, 6, 8)),
    (lambda: nn.MaxPool3d(2, 2, pad_mode="pad", return_indices=True), lambda: nn.MaxUnpool3d(2), (1, 2, 4, 4, 6)),
])
def test_max_unpool_inverts_pooling(mode, pool, unpool, shape):
    x = _x(*shape)
    values, indices = pool()(Tensor(x))
    out = unpool()(values, indices).asnumpy()
    assert out.shape == x.shape
    kept = out != 0
    np.testing.assert_array_equal(out[kept], x[kept])
    assert kept.sum() == values.asnumpy().size
    bigger = unpool()(values, indices, output_size=tuple(s + 1 for s in shape)).asnumpy()
    assert bigger.shape[-1] == shape[-1] + 1
