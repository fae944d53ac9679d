"""Parametrized activations of ``tfspore/nn/layer/activation.py``: argument checks and values."""
import numpy as np
import pytest

from tfspore import Tensor, nn

X = np.array([-1.0, -0.3, 0.0, 0.2, 0.8], np.float32)


def _soft(x, lam):
    return np.where(x > lam, x - lam, np.where(x < -lam, x + lam, 0.0))


def test_shrink_values():
    np.testing.assert_allclose(nn.SoftShrink(0.25)(Tensor(X)).asnumpy(), _soft(X, 0.25), rtol=1e-6)
    np.testing.assert_array_equal(nn.HShrink(0.25)(Tensor(X)).asnumpy(), np.where(np.abs(X) > 0.25, X, 0.0))
    assert nn.HShrink().lambd == 0.5 and nn.SoftShrink().lambd == 0.5


def test_shrink_takes_any_number_as_mindspore():
    # MindSpore 2.10 accepts a bool, an int or a float threshold
    np.testing.assert_allclose(nn.SoftShrink(1)(Tensor(X)).asnumpy(), _soft(X, 1.0))
    np.testing.assert_array_equal(nn.HShrink(True)(Tensor(X)).asnumpy(), np.zeros_like(X))
    np.testing.assert_array_equal(nn.HShrink(-0.5)(Tensor(X)).asnumpy(), X)
    for cls in (nn.SoftShrink, nn.HShrink):
        with pytest.raises(TypeError, match=f"For '{cls.__name__}', the 'lambd' must be bool, int or float"):
            cls("a")


def test_softshrink_negative_lambd_fails_at_call_time():
    layer = nn.SoftShrink(-0.1)
    with pytest.raises(RuntimeError, match=r"For 'SoftShrink', the values for lambd should be greater or equal to 0, "
                                           r"but found to be \[-0.1\]"):
        layer(Tensor(X))
