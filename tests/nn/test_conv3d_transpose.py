"""``nn.Conv3dTranspose`` (tfspore/nn/layer/conv3d_transpose.py)."""
import numpy as np
import pytest
import tensorflow as tf

from tfspore import Tensor, nn


def _x(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _ref(x, w, stride, dilation, pads, out_shape):
    """The transposed convolution by scattering every input element, then cropping the front pads."""
    n, cin, d, h, wd = x.shape
    _, cout, kd, kh, kw = w.shape
    full = [(s - 1) * st + (k - 1) * dl + 1 for s, st, k, dl in zip((d, h, wd), stride, (kd, kh, kw), dilation)]
    big = [max(f, o + p) for f, o, p in zip(full, out_shape, pads)]
    y = np.zeros((n, cout, *big), np.float64)
    for i, j, k in np.ndindex(d, h, wd):
        for a, b, c in np.ndindex(kd, kh, kw):
            y[:, :, i * stride[0] + a * dilation[0], j * stride[1] + b * dilation[1], k * stride[2] + c * dilation[2]] \
                += np.einsum("ni,io->no", x[:, :, i, j, k], w[:, :, a, b, c])
    return y[:, :, pads[0]:pads[0] + out_shape[0], pads[1]:pads[1] + out_shape[1], pads[2]:pads[2] + out_shape[2]]


@pytest.mark.parametrize("kwargs,front,want", [
    (dict(kernel_size=3, stride=2), (0, 0, 0), (6, 8, 10)),
    (dict(kernel_size=3, stride=2, pad_mode="valid"), (0, 0, 0), (7, 9, 11)),
    (dict(kernel_size=1, stride=2, pad_mode="valid"), (0, 0, 0), (6, 8, 10)),
    (dict(kernel_size=4, pad_mode="same"), (1, 1, 1), (3, 4, 5)),
    (dict(kernel_size=3, stride=2, pad_mode="pad", padding=1, output_padding=1), (1, 1, 1), (6, 8, 10)),
    (dict(kernel_size=3, dilation=(1, 2, 2), pad_mode="pad", padding=(1, 0, 2, 1, 0, 1)), (1, 2, 0), (4, 5, 8)),
])
def test_output_matches_scatter_reference(mode, kwargs, front, want):
    x = _x(2, 4, 3, 4, 5)
    net = nn.Conv3dTranspose(4, 6, **kwargs)
    w = _x(*net.weight.shape, seed=1)
    net.weight.set_data(Tensor(w))
    out = net(Tensor(x)).asnumpy()
    assert out.shape == (2, 6, *want)
    ref = _ref(x, w, net.stride, net.dilation, front, want)
    np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-4)


def test_groups_bias_and_gradient():
    x = tf.Variable(_x(1, 4, 2, 3, 3))
    net = nn.Conv3dTranspose(4, 6, 2, stride=2, group=2, has_bias=True)
    assert [p.name for p in net.get_parameters()] == ["weight", "bias"] and net.weight.shape == (4, 3, 2, 2, 2)
    w = net.weight.asnumpy()
    b = net.bias.asnumpy()
    out = net(Tensor(x)).asnumpy()
    # group g maps input channels 2g..2g+1 to output channels 3g..3g+2
    for g in range(2):
        ref = _ref(x.numpy()[:, 2 * g:2 * g + 2], w[2 * g:2 * g + 2], (2, 2, 2), (1, 1, 1), (0, 0, 0), (4, 6, 6))
        np.testing.assert_allclose(out[:, 3 * g:3 * g + 3], ref + b[3 * g:3 * g + 3, None, None, None], rtol=1e-4,
                                   atol=1e-5)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.convert_to_tensor(net(Tensor(x))))
    grads = tape.gradient(loss, [x, net.weight._var])
    assert all(g is not None and np.isfinite(g.numpy()).all() for g in grads)


def test_errors():
    with pytest.raises(ValueError, match="depth of parameter 'dilation' must be 1, but got 2"):
        nn.Conv3dTranspose(2, 2, 3, dilation=2)
    with pytest.raises(ValueError, match="'output_padding' must be zero"):
        nn.Conv3dTranspose(2, 2, 3, output_padding=1)
    with pytest.raises(ValueError, match="'pad' must be zero"):
        nn.Conv3dTranspose(2, 2, 3, padding=1)
    with pytest.raises(ValueError, match="output_padding_d"):
        nn.Conv3dTranspose(2, 2, 3, pad_mode="pad", output_padding=1)
    with pytest.raises(ValueError, match="'group' should be divisible"):
        nn.Conv3dTranspose(3, 2, 3, group=2)
    with pytest.raises(ValueError, match="'padding size' must be equal to 6, but got 3"):
        nn.Conv3dTranspose(2, 2, 3, pad_mode="pad", padding=(1, 1, 1))
    with pytest.raises(ValueError, match="input must be a 5-D tensor"):
        nn.Conv3dTranspose(2, 2, 3)(Tensor(_x(2, 2, 3, 3)))
