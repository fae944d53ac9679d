"""``nn.SSIM``, ``nn.MSSSIM`` and ``nn.PSNR`` (tfspore/nn/layer/image.py)."""
import numpy as np
import pytest

from tfspore import Tensor, nn


def _imgs(shape=(2, 3, 16, 16), seed=0, noise=0.1):
    rng = np.random.default_rng(seed)
    a = rng.random(shape).astype(np.float32)
    b = np.clip(a + rng.normal(0, noise, shape), 0, 1).astype(np.float32)
    return a, b


def _ssim_ref(a, b, size=11, sigma=1.5, max_val=1.0, k1=0.01, k2=0.03):
    """Straightforward per-channel SSIM with a Gaussian window over the valid region."""
    g = np.exp(-(np.arange(size) - size // 2) ** 2 / (2 * sigma ** 2))
    win = np.outer(g, g) / np.outer(g, g).sum()
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    n, c, h, w = a.shape
    out = np.zeros((n, c))
    for i in range(n):
        for j in range(c):
            vals = []
            for y in range(h - size + 1):
                for x in range(w - size + 1):
                    pa, pb = a[i, j, y:y + size, x:x + size], b[i, j, y:y + size, x:x + size]
                    ma, mb = (win * pa).sum(), (win * pb).sum()
                    va, vb = (win * pa * pa).sum() - ma ** 2, (win * pb * pb).sum() - mb ** 2
                    cov = (win * pa * pb).sum() - ma * mb
                    vals.append((2 * ma * mb + c1) * (2 * cov + c2) / ((ma ** 2 + mb ** 2 + c1) * (va + vb + c2)))
            out[i, j] = np.mean(vals)
    return out.mean(-1)


def test_ssim_matches_reference_and_is_one_for_equal_images(mode):
    a, b = _imgs((2, 2, 14, 13))
    ssim = nn.SSIM()
    np.testing.assert_allclose(ssim(Tensor(a), Tensor(b)).asnumpy(), _ssim_ref(a, b), rtol=1e-4)
    np.testing.assert_allclose(ssim(Tensor(a), Tensor(a)).asnumpy(), [1.0, 1.0], rtol=1e-5)
    small = nn.SSIM(max_val=2.0, filter_size=5, filter_sigma=1.0, k1=0.02)
    np.testing.assert_allclose(small(Tensor(a), Tensor(b)).asnumpy(),
                               _ssim_ref(a, b, 5, 1.0, 2.0, 0.02), rtol=1e-4)
    assert [(p.name, p.requires_grad) for p in ssim.get_parameters()] == [("conv.weight", False)]


def test_psnr_formula(mode):
    a, b = _imgs()
    mse = ((a - b) ** 2).mean(axis=(1, 2, 3))
    np.testing.assert_allclose(nn.PSNR()(Tensor(a), Tensor(b)).asnumpy(), 10 * np.log10(1 / mse), rtol=1e-5)
    np.testing.assert_allclose(nn.PSNR(2.0)(Tensor(a), Tensor(b)).asnumpy(), 10 * np.log10(4 / mse), rtol=1e-5)
    # uint8 images are scaled by 1/255 together with max_val
    ua, ub = (a * 255).astype(np.uint8), (b * 255).astype(np.uint8)
    umse = ((ua / 255.0 - ub / 255.0) ** 2).mean(axis=(1, 2, 3))
    np.testing.assert_allclose(nn.PSNR(255)(Tensor(ua), Tensor(ub)).asnumpy(), 10 * np.log10(1 / umse), rtol=1e-4)


def test_msssim_scales(mode):
    a, b = _imgs((1, 1, 48, 48), seed=1)
    net = nn.MSSSIM(filter_size=3, power_factors=(0.5, 0.5))
    assert [p.name for p in net.get_parameters()] == ["multi_convs_list.0.weight", "multi_convs_list.1.weight"]
    got = float(net(Tensor(a), Tensor(b)).asnumpy()[0])
    assert 0.5 < got < 1.0
    np.testing.assert_allclose(net(Tensor(a), Tensor(a)).asnumpy(), [1.0], rtol=1e-5)


def test_errors():
    a, _ = _imgs((1, 1, 8, 8))
    with pytest.raises(ValueError, match="img1 shape\\[2\\] should be >= filter_size: 11, but got 8"):
        nn.SSIM()(Tensor(a), Tensor(a))
    with pytest.raises(ValueError, match="dimension of 'img1' must be 4d, but got 3"):
        nn.PSNR()(Tensor(a[0]), Tensor(a[0]))
    with pytest.raises(TypeError, match="'img1' should be one of \\[mindspore.float32, mindspore.float16\\]"):
        nn.SSIM(filter_size=3)(Tensor(a.astype(np.int32)), Tensor(a.astype(np.int32)))
    with pytest.raises(ValueError, match="x shape should be = y shape"):
        nn.PSNR()(Tensor(a), Tensor(a[:, :, :7]))
    with pytest.raises(ValueError, match="'max_val' must > 0.0, but got 0"):
        nn.SSIM(max_val=0)
    with pytest.raises(TypeError, match="type of 'k1' should be 'float', but got type 'int'"):
        nn.SSIM(k1=1)
    with pytest.raises(ValueError, match="'filter_size' must be int and must >= 1"):
        nn.MSSSIM(filter_size=0)
    with pytest.raises(TypeError, match="'filter_sigma' must be float"):
        nn.SSIM(filter_sigma=1)
