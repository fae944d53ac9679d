"""``nn.Unfold``, ``nn.PixelShuffle``, ``nn.PixelUnshuffle``, ``nn.ChannelShuffle`` (tfspore/nn/layer/rearrange.py),
and ``nn.Linear``, ``nn.CentralCrop``, ``nn.ImageGradients``."""
import numpy as np
import pytest

from tfspore import Tensor, nn


def _x(*shape):
    return np.random.default_rng(0).standard_normal(shape).astype(np.float32)


def test_unfold_matches_a_patch_loop(mode):
    x = _x(2, 3, 6, 7)
    out = nn.Unfold([1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 2, 1])(Tensor(x)).asnumpy()
    kh, kw, sh, sw, rh, rw = 2, 3, 2, 1, 1, 2
    oh, ow = (6 - ((kh - 1) * rh + 1)) // sh + 1, (7 - ((kw - 1) * rw + 1)) // sw + 1
    assert out.shape == (2, 3 * kh * kw, oh, ow)
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i * sh:i * sh + (kh - 1) * rh + 1:rh, j * sw:j * sw + (kw - 1) * rw + 1:rw]  # N,C,kh,kw
            np.testing.assert_array_equal(out[:, :, i, j], patch.transpose(0, 2, 3, 1).reshape(2, -1))
    assert nn.Unfold([1, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "same")(Tensor(x)).shape == (2, 27, 3, 4)
    with pytest.raises(ValueError, match="must be \\[1, ksize_row, ksize_col, 1\\]"):
        nn.Unfold([2, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1])


def test_pixel_shuffles_invert_each_other(mode):
    x = _x(2, 8, 3, 5)
    up = nn.PixelShuffle(2)(Tensor(x)).asnumpy()
    assert up.shape == (2, 2, 6, 10)
    # out[n, c, h*r + i, w*r + j] = in[n, c*r*r + i*r + j, h, w]
    np.testing.assert_array_equal(up[1, 1, 3, 4], x[1, 1 * 4 + 1 * 2 + 0, 1, 2])
    np.testing.assert_array_equal(nn.PixelUnshuffle(2)(Tensor(up)).asnumpy(), x)
    assert nn.PixelShuffle(2)(Tensor(x[0])).shape == (2, 6, 10)
    with pytest.raises(ValueError, match="divisible by upscale_factor"):
        nn.PixelShuffle(3)(Tensor(x))
    with pytest.raises(ValueError, match="must be a positive int"):
        nn.PixelUnshuffle(0)


def test_channel_shuffle(mode):
    x = _x(2, 6, 2, 2)
    out = nn.ChannelShuffle(3)(Tensor(x)).asnumpy()
    np.testing.assert_array_equal(out, x.reshape(2, 3, 2, 2, 2).transpose(0, 2, 1, 3, 4).reshape(x.shape))
    with pytest.raises(TypeError, match="`groups` must be int"):
        nn.ChannelShuffle(2.0)


def test_linear_central_crop_image_gradients(mode):
    lin = nn.Linear(4, 3, bias=False)
    assert [p.name for p in lin.get_parameters()] == ["weight"] and repr(lin) == \
        "Linear(input_features=4, output_features=3)"
    x = _x(5, 4)
    np.testing.assert_allclose(lin(Tensor(x)).asnumpy(), x @ lin.weight.asnumpy().T, rtol=1e-5)
    img = _x(2, 3, 8, 7)
    np.testing.assert_array_equal(nn.CentralCrop(0.5)(Tensor(img)).asnumpy(), img[:, :, 2:6, 1:6])
    with pytest.raises(ValueError, match="'central_fraction' must be in range of \\(0.0, 1.0\\]"):
        nn.CentralCrop(0.0)
    dy, dx = nn.ImageGradients()(Tensor(img))
    np.testing.assert_array_equal(dy.asnumpy()[:, :, :-1], img[:, :, 1:] - img[:, :, :-1])
    np.testing.assert_array_equal(dx.asnumpy()[..., -1], 0)
