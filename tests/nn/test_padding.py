"""Padding layers (tfspore/nn/layer/padding.py), against numpy's ``np.pad``."""
import numpy as np
import pytest

from tfspore import Tensor, nn


def _x(*shape):
    return np.random.default_rng(0).standard_normal(shape).astype(np.float32)


def _np_spec(padding, rank):
    spec = [(0, 0)] * rank
    for i in range(len(padding) // 2):
        spec[rank - 1 - i] = (padding[2 * i], padding[2 * i + 1])
    return spec


@pytest.mark.parametrize("cls,padding,np_mode", [
    (nn.ReflectionPad1d, (2, 1), "reflect"), (nn.ReflectionPad2d, (1, 2, 3, 0), "reflect"),
    (nn.ReflectionPad3d, (1, 1, 0, 2, 1, 0), "reflect"), (nn.ReplicationPad1d, (2, 1), "edge"),
    (nn.ReplicationPad2d, (1, 2, 3, 0), "edge"), (nn.ReplicationPad3d, (1, 0, 2, 1, 1, 1), "edge"),
])
def test_mode_padding(mode, cls, padding, np_mode):
    x = _x(2, 3, 4, 5)[0] if cls is nn.ReplicationPad1d else _x(2, 3, 4, 5)
    out = cls(padding)(Tensor(x)).asnumpy()
    np.testing.assert_array_equal(out, np.pad(x, _np_spec(padding, x.ndim), mode=np_mode))


def test_constant_padding_and_cropping(mode):
    x = _x(2, 3, 4, 5)
    np.testing.assert_array_equal(nn.ConstantPad1d((1, 2), 0.5)(Tensor(x)).asnumpy(),
                                  np.pad(x, _np_spec((1, 2), 4), constant_values=0.5))
    np.testing.assert_array_equal(nn.ZeroPad2d(2)(Tensor(x)).asnumpy(), np.pad(x, _np_spec((2,) * 4, 4)))
    cropped = nn.ConstantPad2d((1, -1, 2, 0), 1.0)(Tensor(x)).asnumpy()
    np.testing.assert_array_equal(cropped, np.pad(x[..., :-1], _np_spec((1, 0, 2, 0), 4), constant_values=1.0))
    assert nn.ConstantPad3d(1, 0.0)(Tensor(x)).shape == (2, 5, 6, 7)
    assert repr(nn.ZeroPad2d(1)) == "ZeroPad2d()"


def test_errors():
    with pytest.raises(ValueError, match="must equal to 2"):
        nn.ConstantPad1d((1, 1, 1, 1), 0.0)
    with pytest.raises(ValueError, match="must no more than 4"):
        nn.ZeroPad2d((1,) * 6)
    with pytest.raises(TypeError, match="'value' must be in \\[int, float\\]"):
        nn.ConstantPad2d(1, "a")
    with pytest.raises(TypeError, match="must be an integer or tuple"):
        nn.ReflectionPad2d([1, 1])
    with pytest.raises(ValueError, match="must be >= 0"):
        nn.ReflectionPad1d((-1, 1))
    with pytest.raises(ValueError, match="divisible by 2"):
        nn.ReplicationPad2d((1, 1, 1))
    with pytest.raises(ValueError, match="must be equal to 2 or 3, but got 4"):
        nn.ReplicationPad1d(1)(Tensor(_x(2, 3, 4, 5)))
