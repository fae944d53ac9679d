"""``nn.MaxPool3d`` and ``nn.AvgPool3d`` (tfspore/nn/layer/pooling3d.py), against a direct numpy loop."""
import numpy as np
import pytest

from tfspore import Tensor, nn


def _x(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _windows(x, k, s, lo, outs, d=(1, 1, 1)):
    """Yield (output index, list of (flat input index, value)) for every window; padding is left out."""
    dims = x.shape[2:]
    for o in np.ndindex(*outs):
        cells = []
        for off in np.ndindex(*k):
            pos = [o[i] * s[i] - lo[i] + off[i] * d[i] for i in range(3)]
            if all(0 <= pos[i] < dims[i] for i in range(3)):
                cells.append(((pos[0] * dims[1] + pos[1]) * dims[2] + pos[2], x[:, :, pos[0], pos[1], pos[2]]))
        yield o, cells


def _max_ref(x, k, s, lo, outs, d=(1, 1, 1)):
    y = np.full(x.shape[:2] + tuple(outs), -np.inf, np.float32)
    idx = np.zeros(y.shape, np.int64)
    for o, cells in _windows(x, k, s, lo, outs, d):
        for flat, v in cells:
            better = v > y[(slice(None), slice(None)) + o]
            y[(slice(None), slice(None)) + o] = np.where(better, v, y[(slice(None), slice(None)) + o])
            idx[(slice(None), slice(None)) + o] = np.where(better, flat, idx[(slice(None), slice(None)) + o])
    return y, idx


@pytest.mark.parametrize("kwargs,lo,outs,d", [
    (dict(kernel_size=2, stride=2), (0, 0, 0), (3, 3, 4), (1, 1, 1)),
    (dict(kernel_size=3, stride=2, pad_mode="same"), (1, 0, 1), (4, 3, 5), (1, 1, 1)),
    (dict(kernel_size=3, stride=2, pad_mode="pad", padding=1), (1, 1, 1), (4, 3, 5), (1, 1, 1)),
    (dict(kernel_size=2, stride=2, pad_mode="pad", ceil_mode=True), (0, 0, 0), (4, 3, 5), (1, 1, 1)),
    (dict(kernel_size=3, stride=2, pad_mode="pad", padding=1, dilation=2, return_indices=True), (1, 1, 1),
     (3, 2, 4), (2, 2, 2)),
])
def test_max_pool(mode, kwargs, lo, outs, d):
    x = _x(2, 3, 7, 6, 9)
    out = nn.MaxPool3d(**kwargs)(Tensor(x))
    want, idx = _max_ref(x, (kwargs["kernel_size"],) * 3, (kwargs["stride"],) * 3, lo, outs, d)
    if kwargs.get("return_indices"):
        out, got_idx = out
        np.testing.assert_array_equal(got_idx.asnumpy(), idx)
    np.testing.assert_array_equal(out.asnumpy(), want)


@pytest.mark.parametrize("kwargs,lohi,outs,include", [
    (dict(kernel_size=2, stride=2), ((0, 0),) * 3, (3, 3, 4), True),
    (dict(kernel_size=3, stride=2, pad_mode="same"), ((1, 1), (0, 1), (1, 1)), (4, 3, 5), True),
    (dict(kernel_size=3, stride=2, pad_mode="pad", padding=1), ((1, 1),) * 3, (4, 3, 5), True),
    (dict(kernel_size=3, stride=2, pad_mode="pad", padding=(1, 0, 1), count_include_pad=False),
     ((1, 1), (0, 0), (1, 1)), (4, 2, 5), False),
    (dict(kernel_size=3, stride=2, pad_mode="pad", padding=1, ceil_mode=True), ((1, 1),) * 3, (4, 4, 5), True),
])
def test_avg_pool(mode, kwargs, lohi, outs, include):
    x = _x(2, 3, 7, 6, 9)
    out = nn.AvgPool3d(**kwargs)(Tensor(x)).asnumpy()
    k, s = kwargs["kernel_size"], kwargs["stride"]
    want = np.zeros(x.shape[:2] + outs, np.float64)
    lo = [p[0] for p in lohi]
    for o, cells in _windows(x, (k,) * 3, (s,) * 3, lo, outs):
        total = sum(v for _, v in cells)
        if include:  # window size within the padded input
            count = 1
            for i in range(3):
                start = o[i] * s - lo[i]
                count *= min(start + k, x.shape[2 + i] + lohi[i][1]) - max(start, -lo[i])
        else:
            count = len(cells)
        want[(slice(None), slice(None)) + o] = total / count
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-6)
    override = nn.AvgPool3d(kernel_size=2, stride=2, divisor_override=3)(Tensor(x)).asnumpy()
    np.testing.assert_allclose(override, nn.AvgPool3d(2, 2)(Tensor(x)).asnumpy() * 8 / 3, rtol=1e-5)


def test_unbatched_input_and_repr():
    x = _x(3, 4, 4, 4)
    assert nn.MaxPool3d(2, 2)(Tensor(x)).shape == (3, 2, 2, 2)
    assert nn.AvgPool3d(2, 2)(Tensor(x)).shape == (3, 2, 2, 2)
    assert repr(nn.MaxPool3d(2, 2)) == "MaxPool3d(kernel_size=2, stride=2, pad_mode=VALID)"


def test_errors():
    with pytest.raises(ValueError, match="pad_mode must be 'pad' when dilation is not 1 or return_indices"):
        nn.MaxPool3d(2, 2, dilation=2)
    with pytest.raises(ValueError, match="'kernel_size' must be an positive int number or a tuple"):
        nn.AvgPool3d(0)
    with pytest.raises(ValueError, match="'divisor_override' must be > 0, but got 0"):
        nn.AvgPool3d(2, divisor_override=0)
    with pytest.raises(ValueError, match="'pad' must be zero"):
        nn.AvgPool3d(2, padding=1)
    with pytest.raises(ValueError, match="4-D or 5-D tensor"):
        nn.MaxPool3d(2)(Tensor(_x(2, 3, 4)))


def test_window_checks_shared_with_2d_pooling():
    # MindSpore's _PoolNd checks both, in the same words (no trailing period)
    for make, shown in ((lambda: nn.MaxPool3d(0), "0"), (lambda: nn.MaxPool2d((2, 0)), "(2, 0)")):
        with pytest.raises(ValueError) as err:
            make()
        assert str(err.value).endswith(f"the 'kernel_size' must be an positive int number or a tuple, but got {shown}")
    with pytest.raises(ValueError, match="'stride' must be an int or a tuple of 3 ints, but got \\(2, 2\\)"):
        nn.AvgPool3d(2, stride=(2, 2))
    pool = nn.AvgPool3d((2,), 1)
    assert pool.kernel_size == 2 and pool.format == "NCHW"
