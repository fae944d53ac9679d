"""Ascend's float-status trio (NPUAllocFloatStatus / NPUClearFloatStatus / NPUGetFloatStatus).

The model zoo's loss-scale cells (BERT, Transformer, GPT, MELGAN, PVNet, ...) clear the status
before the gradient computation and read it after; a status summing to 1 or more means overflow,
and the step is skipped. On TensorFlow the status reflects inf/NaN in the outputs and gradients
of the differentiations run since the clear. These cells follow the zoo's two forms: the status
read from ``get_status``'s result through ``F.depend``, and read from the buffer updated in place.
"""
import numpy as np
import pytest

import tfspore as ms
from tfspore import Parameter, Tensor, nn, ops
from tfspore.ops import composite as C
from tfspore.ops import functional as F
from tfspore.ops import operations as P

_grad_scale = C.MultitypeFuncGraph("grad_scale")


@_grad_scale.register("Tensor", "Tensor")
def _tensor_grad_scale(scale, grad):
    return grad * F.cast(P.Reciprocal()(scale), F.dtype(grad))


class _AscendLossScaleCell(nn.Cell):
    """A zoo-style training cell taking the Ascend branch: clear, gradients, get, skip on overflow."""

    def __init__(self, network, optimizer, in_place):
        super().__init__(auto_prefix=False)
        self.network = network
        self.weights = optimizer.parameters
        self.optimizer = optimizer
        self.grad = C.GradOperation(get_by_list=True, sens_param=True)
        self.hyper_map = C.HyperMap()
        self.alloc_status = P.NPUAllocFloatStatus()
        self.get_status = P.NPUGetFloatStatus()
        self.clear_status = P.NPUClearFloatStatus()
        self.reduce_sum = P.ReduceSum(keep_dims=False)
        self.base = Tensor(1, ms.float32)
        self.less_equal = P.LessEqual()
        self.in_place = in_place

    def construct(self, x, y, sens):
        loss = self.network(x, y)
        init = self.alloc_status()
        init = F.depend(init, loss)
        clear_status = self.clear_status(init)
        sens = F.depend(sens, clear_status)
        grads = self.grad(self.network, self.weights)(x, y, sens)
        grads = self.hyper_map(F.partial(_grad_scale, sens), grads)
        init = F.depend(init, grads)
        if self.in_place:
            self.get_status(init)  # the buffer itself holds the status afterwards
        else:
            get_status = self.get_status(init)
            init = F.depend(init, get_status)
        flag_sum = self.reduce_sum(init, (0,))
        overflow = self.less_equal(self.base, flag_sum)
        if not overflow:
            self.optimizer(grads)
        return loss, overflow


def _train(in_place, sens_values):
    net = nn.WithLossCell(nn.Dense(2, 1, weight_init="ones", bias_init="zeros"), nn.MSELoss())
    opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
    cell = _AscendLossScaleCell(net, opt, in_place)
    x = Tensor(np.array([[1.0, 2.0]], np.float32))
    y = Tensor(np.array([[1.0]], np.float32))
    flags, weights = [], []
    for sens in sens_values:
        _, overflow = cell(x, y, Tensor(sens, ms.float32))
        flags.append(bool(overflow.asnumpy()))
        weights.append(opt.parameters[0].asnumpy().copy())
    return flags, weights


@pytest.mark.parametrize("in_place", [False, True], ids=["depend", "in_place"])
def test_zoo_loss_scale_cell_detects_gradient_overflow(mode, in_place):
    # sens 3e38: the loss gradient times sens overflows float32; that step must be skipped
    flags, weights = _train(in_place, [1024.0, 3e38, 1024.0])
    assert flags == [False, True, False]
    # step 1: w - 0.1 * dL/dw with dL/dw = 2 * (3 - 1) * [1, 2] = [4, 8]
    np.testing.assert_allclose(weights[0], [[0.6, 0.2]], rtol=1e-5)
    np.testing.assert_array_equal(weights[1], weights[0])  # the overflow step left the weights
    assert not np.array_equal(weights[2], weights[1])


def test_status_is_zero_without_differentiation(run):
    def fn(x):
        init = P.NPUAllocFloatStatus()()
        init = P.NPUClearFloatStatus()(init)
        y = x * np.float32(np.inf)  # not a differentiation: not part of the status
        return P.NPUGetFloatStatus()(F.depend(init, y)), y

    status, _ = run(fn, Tensor(np.ones(2, np.float32)))
    np.testing.assert_array_equal(status.asnumpy(), np.zeros(8, np.float32))


def test_clear_forgets_earlier_overflow(run):
    def fn(x):
        init = P.NPUClearFloatStatus()(P.NPUAllocFloatStatus()())
        ops.grad(lambda v: (v * v).sum())(x)  # x holds an inf: the gradient overflows
        first = P.NPUGetFloatStatus()(init)
        second = P.NPUGetFloatStatus()(P.NPUClearFloatStatus()(init))
        return first, second

    first, second = run(fn, Tensor(np.array([1.0, np.inf], np.float32)))
    np.testing.assert_array_equal(first.asnumpy(), [1, 0, 0, 0, 0, 0, 0, 0])
    np.testing.assert_array_equal(second.asnumpy(), np.zeros(8, np.float32))


def test_status_buffer_dtype():
    with pytest.raises(TypeError, match="For 'NPUGetFloatStatus', the 'x' must be a Tensor of float16 or float32, "
                                        "but got int32"):
        P.NPUGetFloatStatus()(Tensor(np.zeros(8, np.int32)))
    assert P.NPUAllocFloatStatus()().shape == (8,)
    status = P.NPUClearFloatStatus()(Tensor(np.ones(8, np.float16)))
    assert status.dtype == ms.float16 and not status.asnumpy().any()


def test_parameter_buffer_is_not_rebound():
    buf = Parameter(Tensor(np.zeros(8, np.float32)), name="status_buf")
    P.NPUClearFloatStatus()(buf)
    ops.grad(lambda v: (v * v).sum())(Tensor(np.array([np.nan], np.float32)))
    out = P.NPUGetFloatStatus()(buf)
    assert out.asnumpy()[0] == 1 and isinstance(buf, Parameter) and not buf.asnumpy().any()
