"""MaxPool3D / AvgPool3D / MaxPoolWithArgmax and ops.max_pool3d / avg_pool3d: numpy references, both modes."""
import numpy as np
import pytest

import tfspore as ms
from tfspore import Tensor, ops

X = np.random.RandomState(4).standard_normal((1, 2, 4, 5, 6)).astype(np.float32)


def _pool_ref(x, k, s, pads, kind, ceil=False, include_pad=True):
    """Reference pooling over (D, H, W) with explicit pads (front, back, ...)."""
    n, c = x.shape[:2]
    outs, rng = [], []
    for i, size in enumerate(x.shape[2:]):
        lo, hi = pads[2 * i], pads[2 * i + 1]
        span = size + lo + hi - k[i]
        o = (-(-span // s[i]) if ceil else span // s[i]) + 1
        if ceil and (o - 1) * s[i] >= size + lo:
            o -= 1
        outs.append(o)
        rng.append((lo, hi, size))
    y = np.zeros((n, c, *outs), np.float64)
    for od in range(outs[0]):
        for oh in range(outs[1]):
            for ow in range(outs[2]):
                sl, cnt = [], 1
                for ax, o in enumerate((od, oh, ow)):
                    lo, hi, size = rng[ax]
                    a, b = o * s[ax] - lo, o * s[ax] - lo + k[ax]
                    sl.append(slice(max(a, 0), min(b, size)))
                    cnt *= (min(b, size + hi) - max(a, -lo)) if include_pad else (min(b, size) - max(a, 0))
                win = x[:, :, sl[0], sl[1], sl[2]]
                y[:, :, od, oh, ow] = win.max(axis=(2, 3, 4)) if kind == "max" else win.sum(axis=(2, 3, 4)) / cnt
    return y


def test_max_pool3d_pad_ceil(mode, run):
    op = ops.MaxPool3D(kernel_size=3, strides=2, pad_mode="pad", pad_list=1, ceil_mode=True)
    out = run(lambda x: op(x), Tensor(X))
    np.testing.assert_allclose(out.asnumpy(), _pool_ref(X, (3, 3, 3), (2, 2, 2), (1,) * 6, "max", True), rtol=1e-6)


@pytest.mark.parametrize("include_pad", [True, False])
def test_avg_pool3d_pad(mode, run, include_pad):
    pads = (1, 0, 1, 1, 0, 1)
    op = ops.AvgPool3D(kernel_size=(2, 3, 3), strides=(1, 2, 2), pad_mode="pad", pad=pads,
                       count_include_pad=include_pad)
    out = run(lambda x: op(x), Tensor(X))
    np.testing.assert_allclose(out.asnumpy(), _pool_ref(X, (2, 3, 3), (1, 2, 2), pads, "avg", False, include_pad),
                               rtol=1e-5)


def test_valid_modes_and_functional():
    out = ops.AvgPool3D(2, 2)(Tensor(X))
    np.testing.assert_allclose(out.asnumpy(), _pool_ref(X, (2,) * 3, (2,) * 3, (0,) * 6, "avg"), rtol=1e-5)
    np.testing.assert_allclose(ops.max_pool3d(Tensor(X), 2).asnumpy(),
                               _pool_ref(X, (2,) * 3, (2,) * 3, (0,) * 6, "max"), rtol=1e-6)
    np.testing.assert_allclose(ops.avg_pool3d(Tensor(X), 2, 1, divisor_override=2).asnumpy(),
                               _pool_ref(X, (2,) * 3, (1,) * 3, (0,) * 6, "avg") * 4, rtol=1e-5)
    assert ops.MaxPool3D(3, 1, "same")(Tensor(X)).shape == X.shape


def test_max_pool_with_argmax(mode, run):
    x = np.random.RandomState(2).standard_normal((2, 3, 5, 6)).astype(np.float32)
    out, mask = run(lambda t: ops.MaxPoolWithArgmax(kernel_size=2, strides=2)(t), Tensor(x))
    assert mask.dtype == ms.int32 and out.shape == mask.shape == (2, 3, 2, 3)
    flat = x.reshape(2, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, mask.asnumpy().reshape(2, -1), 1),
                                  out.asnumpy().reshape(2, -1))


def test_errors():
    with pytest.raises(ValueError, match="'ceil_mode' only supports 'None'"):
        ops.MaxPool3D(2, 2, "same", ceil_mode=True)
    with pytest.raises(ValueError, match="'pad_list' must be zero"):
        ops.MaxPool3D(2, 2, "valid", pad_list=1)
    with pytest.raises(ValueError, match="For 'AvgPool3D', the 'pad_mode' must be one of"):
        ops.AvgPool3D(2, 2, "full")
    with pytest.raises(ValueError, match="For 'AvgPool3D', the 'data_format' must be 'NCDHW'"):
        ops.AvgPool3D(2, 2, data_format="NDHWC")
    with pytest.raises(ValueError, match="must be a 5-D NCDHW Tensor"):
        ops.MaxPool3D(2, 2)(Tensor(X[0]))
    with pytest.raises(NotImplementedError, match="'return_indices'"):
        ops.max_pool3d(Tensor(X), 2, return_indices=True)
