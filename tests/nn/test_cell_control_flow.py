"""Python control flow on Tensors inside construct (``if``/``while``/``and``/``not`` on a Tensor).

In GRAPH_MODE such statements become graph control flow (one trace serves both branches); in
PYNATIVE_MODE they run as Python. Both modes give the same numbers. Python conditions (flags,
``self.training``, ``range(n)`` loops) stay Python: no control-flow op enters the graph.
"""
import numpy as np
import pytest

import tfspore as ms
from tfspore import Parameter, Tensor, nn, ops

_CONTROL_FLOW_OPS = {"If", "StatelessIf", "While", "StatelessWhile"}


def _op_types(cell, *args):
    """The op types of the graph GRAPH_MODE compiles for ``cell`` (functions included)."""
    graph = cell.compile(*args).graph
    types = {op.type for op in graph.get_operations()}
    for fn in graph.as_graph_def().library.function:
        types.update(node.op for node in fn.node_def)
    return types


class _IfElse(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            y = x * 2
        else:
            y = x - 1
        return y


class _WhileTensor(nn.Cell):
    def construct(self, x):
        i = Tensor(0, ms.int32)
        while x.sum() < 20:
            x = x * 2
            i = i + 1
        return x, i


class _Logic(nn.Cell):
    def construct(self, x, flag):
        small = x.max() < 10
        if not flag and small:
            out = x + 1
        elif flag or x.min() > 100:
            out = x - 1
        else:
            out = x * 0
        scale = 3.0 if x.sum() > 0 else -3.0
        return out * scale


class _Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.up = Parameter(Tensor(0.0, ms.float32), name="up")
        self.down = Parameter(Tensor(0.0, ms.float32), name="down")

    def construct(self, x):
        if x.sum() > 0:
            ops.assign_add(self.up, Tensor(1.0, ms.float32))
        else:
            ops.assign_add(self.down, Tensor(1.0, ms.float32))
        return x


class _PythonFlags(nn.Cell):
    def __init__(self, use_bias):
        super().__init__()
        self.dense = nn.Dense(3, 3)
        self.use_bias = use_bias

    def construct(self, x):
        for _ in range(3):
            x = self.dense(x)
        if self.training:
            x = x * 2
        if self.use_bias and x.shape[0] > 1:
            x = x + 1
        return x


def _x(sign, n=3):
    return Tensor(sign * np.arange(1, n + 1, dtype=np.float32))


def test_if_else_on_tensor(mode):
    net = _IfElse()
    np.testing.assert_allclose(net(_x(1)).asnumpy(), [2, 4, 6])
    np.testing.assert_allclose(net(_x(-1)).asnumpy(), [-2, -3, -4])
    assert isinstance(net(_x(1)), Tensor)


def test_if_else_is_one_graph_branch():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _IfElse()
    assert _op_types(net, _x(1)) & {"If", "StatelessIf"}
    net(_x(1))
    net(_x(-1))  # same signature: the traced cond serves both branches
    assert net.compiled_construct(None).experimental_get_tracing_count() == 1


def test_while_on_tensor(mode):
    out, steps = _WhileTensor()(Tensor(np.array([1.0, 2.0], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [8.0, 16.0])
    assert int(steps) == 3 and isinstance(steps, Tensor) and steps.dtype == ms.int32


class _BreakOnTensor(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scales = (1.0, 2.0, 3.0)

    def construct(self, x):
        for i in range(3):
            x = x * self.scales[i] + 1
            if x.sum() > 10:
                break
        return x


@pytest.mark.parametrize("start, expected", [(0.5, 13.0), (3.0, 9.0), (0.01, 10.06)])
def test_break_on_tensor_in_python_loop(mode, start, expected):
    out = _BreakOnTensor()(Tensor(np.full(2, start, np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [expected, expected], rtol=1e-5)


def test_not_and_or_and_conditional_expression(mode):
    net = _Logic()
    x = Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_allclose(net(x, Tensor(False)).asnumpy(), [6.0, 9.0])
    np.testing.assert_allclose(net(x, Tensor(True)).asnumpy(), [0.0, 3.0])
    np.testing.assert_allclose(net(-x, Tensor(False)).asnumpy(), [0.0, 3.0])
    np.testing.assert_allclose(net(x * 50, Tensor(False)).asnumpy(), [0.0, 0.0])


def test_branches_update_parameters(mode):
    net = _Counter()
    for sign in (1, -1, 1, 1):
        net(_x(sign))
    assert float(net.up.asnumpy()) == 3.0 and float(net.down.asnumpy()) == 1.0


def test_condition_with_several_elements_is_an_error():
    ms.set_context(mode=ms.GRAPH_MODE)

    class Bad(nn.Cell):
        def construct(self, x):
            if x > 0:
                return x
            return -x

    with pytest.raises(ValueError, match="only one element, but got 3"):
        Bad()(_x(1))


def test_python_conditions_stay_python():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _PythonFlags(use_bias=True)
    net.set_train(True)
    x = Tensor(np.ones((2, 3), np.float32))
    types = _op_types(net, x)
    assert not types & _CONTROL_FLOW_OPS
    w, b = net.dense.weight.asnumpy(), net.dense.bias.asnumpy()
    expected = x.asnumpy()
    for _ in range(3):
        expected = expected @ w.T + b
    np.testing.assert_allclose(net(x).asnumpy(), expected * 2 + 1, rtol=1e-5)
    net.set_train(False)
    np.testing.assert_allclose(net(x).asnumpy(), expected + 1, rtol=1e-5)


def test_jit_function_with_tensor_condition():
    @ms.jit
    def clip_or_negate(x):
        if x.max() > 2:
            return ops.clip_by_value(x, -2.0, 2.0)
        return -x

    np.testing.assert_allclose(clip_or_negate(_x(1)).asnumpy(), [1, 2, 2])
    np.testing.assert_allclose(clip_or_negate(_x(1) / 2).asnumpy(), [-0.5, -1, -1.5])


# ------------------------------------------------ a model-zoo style loss-scale training cell
_grad_scale = ops.MultitypeFuncGraph("grad_scale")


@_grad_scale.register("Tensor", "Tensor")
def _tensor_grad_scale(scale, grad):
    return grad * ops.Reciprocal()(scale)


class _ZooTrainOneStep(nn.TrainOneStepWithLossScaleCell):
    """The zoo's TrainOneStepWithLossScaleCell: ``if not overflow: self.optimizer(grads)``."""

    def __init__(self, network, optimizer, scale_update_cell):
        super().__init__(network, optimizer, scale_update_cell)
        self.cast = ops.Cast()
        self.grad = ops.GradOperation(get_by_list=True, sens_param=True)

    def construct(self, x, y, sens=None):
        weights = self.weights
        loss = self.network(x, y)
        scaling_sens = self.scale_sense if sens is None else sens
        status, scaling_sens = self.start_overflow_check(loss, scaling_sens)
        grads = self.grad(self.network, weights)(x, y, self.cast(scaling_sens, ms.float32))
        grads = self.hyper_map(ops.partial(_grad_scale, scaling_sens), grads)
        cond = self.get_overflow_status(status, grads)
        overflow = self.process_loss_scale(cond)
        if not overflow:
            self.optimizer(grads)
        return loss, cond, scaling_sens


def _train_zoo_cell(inf_step):
    net = nn.Dense(3, 2)
    net.weight.set_data(Tensor(np.array([[0.2, -0.1, 0.4], [0.3, 0.05, -0.2]], np.float32)))
    net.bias.set_data(Tensor(np.zeros(2, np.float32)))
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    update = nn.DynamicLossScaleUpdateCell(loss_scale_value=2.0 ** 10, scale_factor=2, scale_window=1000)
    cell = _ZooTrainOneStep(loss_net, nn.Momentum(net.trainable_params(), 0.1, 0.9), update)
    rng = np.random.default_rng(0)
    weights, overflows, scales = [net.weight.asnumpy().copy()], [], []
    for step in range(4):
        x = rng.standard_normal((4, 3)).astype(np.float32)
        if step == inf_step:
            x[0, 1] = np.inf
        y = rng.standard_normal((4, 2)).astype(np.float32)
        _, cond, _ = cell(Tensor(x), Tensor(y))
        overflows.append(bool(cond.asnumpy()))
        scales.append(float(cell.scale_sense.asnumpy()))
        weights.append(net.weight.asnumpy().copy())
    return weights, overflows, scales


def test_zoo_loss_scale_cell_skips_the_overflow_step():
    ms.set_context(mode=ms.GRAPH_MODE)
    weights, overflows, scales = _train_zoo_cell(inf_step=2)
    assert overflows == [False, False, True, False]
    assert scales == [1024.0, 1024.0, 512.0, 512.0]
    for step, overflow in enumerate(overflows):
        moved = not np.array_equal(weights[step], weights[step + 1])
        assert moved != overflow, f"step {step}"
    ms.set_context(mode=ms.PYNATIVE_MODE)
    weights_py, overflows_py, scales_py = _train_zoo_cell(inf_step=2)
    assert overflows_py == overflows and scales_py == scales
    for a, b in zip(weights, weights_py):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


class _UserNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2)
        self.fc.weight.set_data(Tensor(np.array([[0.2, -0.1, 0.4], [0.3, 0.05, -0.2]], np.float32)))
        self.fc.bias.set_data(Tensor(np.zeros(2, np.float32)))

    def construct(self, x):
        return self.fc(x) * 2.0


def _train_builtin_cell():
    net = _UserNet()
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    update = nn.DynamicLossScaleUpdateCell(loss_scale_value=2.0 ** 10, scale_factor=2, scale_window=1000)
    cell = nn.TrainOneStepWithLossScaleCell(loss_net, nn.Momentum(net.trainable_params(), 0.1, 0.9), update)
    rng = np.random.default_rng(1)
    losses = []
    for _ in range(3):
        x, y = rng.standard_normal((4, 3)).astype(np.float32), rng.standard_normal((4, 2)).astype(np.float32)
        losses.append(float(cell(Tensor(x), Tensor(y))[0].asnumpy()))
    return losses, net.fc.weight.asnumpy()


def test_converted_user_network_inside_builtin_loss_scale_cell():
    """A user network (converted) under tfspore's own loss-scale cell: the optimizer's branch still runs."""
    ms.set_context(mode=ms.GRAPH_MODE)
    losses, weight = _train_builtin_cell()
    assert len(set(losses)) == 3
    ms.set_context(mode=ms.PYNATIVE_MODE)
    losses_py, weight_py = _train_builtin_cell()
    np.testing.assert_allclose(losses, losses_py, rtol=1e-6)
    np.testing.assert_allclose(weight, weight_py, rtol=1e-6)
