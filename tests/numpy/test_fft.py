"""Unit tests of tfspore.numpy.fft against numpy.fft."""
import numpy as np
import pytest

import tfspore as ms
import tfspore.numpy as mnp

X = np.arange(12, dtype=np.float32).reshape(3, 4) * 0.7 - 2


@pytest.mark.parametrize("name", ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
                                  "rfftn", "irfftn", "hfft", "ihfft"])
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_transforms_match_numpy(name, norm):
    got = getattr(mnp.fft, name)(ms.Tensor(X), norm=norm).asnumpy()
    np.testing.assert_allclose(got, getattr(np.fft, name)(X, norm=norm), rtol=1e-4, atol=1e-4)


def test_lengths_axes_and_dtypes():
    assert mnp.fft.fft(ms.Tensor(X), 6, 0).shape == (6, 4)
    assert mnp.fft.irfft(ms.Tensor(X), 5).shape == (3, 5)
    assert mnp.fft.fft(ms.Tensor(X)).dtype == ms.complex64
    assert mnp.fft.rfft(ms.Tensor(X.astype(np.float64))).dtype == ms.complex128
    np.testing.assert_allclose(mnp.fft.fftn(ms.Tensor(X), (2, 5), (1, 0)).asnumpy(), np.fft.fftn(X, (2, 5), (1, 0)),
                               rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match="norm"):
        mnp.fft.fft(ms.Tensor(X), norm="bogus")


def test_shift_and_frequencies():
    np.testing.assert_array_equal(mnp.fft.fftshift(ms.Tensor(X)).asnumpy(), np.fft.fftshift(X))
    np.testing.assert_array_equal(mnp.fft.ifftshift(ms.Tensor(X), 1).asnumpy(), np.fft.ifftshift(X, 1))
    np.testing.assert_allclose(mnp.fft.fftfreq(7, 0.1).asnumpy(), np.fft.fftfreq(7, 0.1), rtol=1e-6)
    np.testing.assert_allclose(mnp.fft.rfftfreq(8).asnumpy(), np.fft.rfftfreq(8), rtol=1e-6)
