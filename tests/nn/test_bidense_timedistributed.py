"""``nn.BiDense`` (layer/bidense.py), ``nn.TimeDistributed`` (layer/timedistributed.py), ``nn.ParameterUpdate``
(wrap/cell_wrapper.py) and ``nn.utils.no_init_parameters``."""
import numpy as np
import pytest

import tfspore as ms
from tfspore import Tensor, nn


def _x(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def test_bidense(mode):
    net = nn.BiDense(3, 4, 2)
    assert [p.name for p in net.get_parameters()] == ["weight", "bias"] and net.weight.shape == (2, 3, 4)
    a, b = _x(2, 5, 3), _x(2, 5, 4, seed=1)
    w, bias = net.weight.asnumpy(), net.bias.asnumpy()
    want = np.einsum("nti,oij,ntj->nto", a, w, b) + bias
    np.testing.assert_allclose(net(Tensor(a), Tensor(b)).asnumpy(), want, rtol=1e-5, atol=1e-6)
    assert repr(nn.BiDense(3, 4, 2, has_bias=False)) == "BiDense(in1_channels=3, in2_channels=4, output_channels=2)"
    with pytest.raises(ValueError, match="last dimension of 'input2' must be equal to 4"):
        net(Tensor(a), Tensor(a))
    with pytest.raises(ValueError, match="weight init shape error"):
        nn.BiDense(3, 4, 2, weight_init=Tensor(np.zeros((2, 4, 3), np.float32)))


@pytest.mark.parametrize("kwargs", [dict(time_axis=1), dict(time_axis=0), dict(time_axis=1, reshape_with_axis=0),
                                    dict(time_axis=-2, reshape_with_axis=0)])
def test_time_distributed(mode, kwargs):
    dense = nn.Dense(3, 2)
    x = _x(4, 5, 3)
    out = nn.TimeDistributed(dense, **kwargs)(Tensor(x)).asnumpy()
    np.testing.assert_allclose(out, x @ dense.weight.asnumpy().T + dense.bias.asnumpy(), rtol=1e-5, atol=1e-6)


def test_time_distributed_errors():
    with pytest.raises(TypeError, match="'layer' must be Cell or Primitive"):
        nn.TimeDistributed(lambda x: x, 0)
    with pytest.raises(ValueError, match="inputs shape must be at least 3D"):
        nn.TimeDistributed(nn.ReLU(), 0)(Tensor(_x(2, 3)))


def test_parameter_update_and_no_init_parameters(mode):
    p = ms.Parameter(Tensor(np.zeros(3, np.float32)), name="p")
    update = nn.ParameterUpdate(p)
    assert [q.name for q in update.get_parameters()] == ["p"]
    out = update(Tensor(np.array([1.0, 2.0, 3.0], np.float32)))
    np.testing.assert_array_equal(p.asnumpy(), [1, 2, 3])
    np.testing.assert_array_equal(out.asnumpy(), [1, 2, 3])
    with pytest.raises(TypeError, match="'param' must be 'Parameter'"):
        nn.ParameterUpdate(Tensor(1.0))
    with nn.utils.no_init_parameters():
        assert ms.Parameter.init_param is False
        dense = nn.Dense(3, 2)
    assert ms.Parameter.init_param is True and dense.weight.shape == (2, 3)
