"""Behaviour of the optimizers: state names and shapes, learning rates, update math, both modes."""
import numpy as np
import pytest

import tfspore as ms
from tfspore import Parameter, Tensor, nn


def _param(value, name):
    return Parameter(Tensor(np.asarray(value, np.float32)), name=name)


def _grads(*values):
    return tuple(Tensor(np.asarray(v, np.float32)) for v in values)


class _Schedule(nn.Cell):
    """A learning-rate schedule: 0.1 / (1 + step)."""

    def construct(self, global_step):
        return 0.1 / (1.0 + global_step.astype(ms.float32))


def test_state_names_shapes_and_repr():
    net = nn.Dense(3, 2)
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    assert [(p.name, p.shape, p.dtype) for p in opt.get_parameters()] == [
        ("global_step", (1,), ms.int32), ("learning_rate", (), ms.float32), ("weight", (2, 3), ms.float32),
        ("bias", (2,), ms.float32), ("momentum", (), ms.float32), ("moments.weight", (2, 3), ms.float32),
        ("moments.bias", (2,), ms.float32)]
    assert repr(opt) == "Momentum()"
    assert isinstance(opt.parameters, ms.ParameterTuple) and opt.parameters[0] is net.weight
    assert float(opt.get_lr().asnumpy()) == pytest.approx(0.01)
    assert opt.get_lr_parameter(net.weight) is opt.learning_rate
    assert opt.get_lr_parameter([net.weight, net.bias]) == [opt.learning_rate, opt.learning_rate]
    np.testing.assert_array_equal(opt.moments[0].asnumpy(), 0)
    sgd = nn.SGD(net.trainable_params(), momentum=0.9)
    assert [p.name for p in sgd.get_parameters()][4:] == ["momentum", "accum.weight", "accum.bias", "stat.weight",
                                                        "stat.bias"]
    np.testing.assert_array_equal(sgd.stat[0].asnumpy(), 1)
    assert repr(sgd) == "SGD()"


def test_momentum_math_and_global_step(mode):
    w = _param([1.0, 2.0], "w")
    gamma = _param([1.0], "bn.gamma")
    opt = nn.Momentum([w, gamma], 0.1, 0.9, weight_decay=0.5)
    accum = np.zeros(2)
    ref = np.array([1.0, 2.0])
    for g in ([0.5, -1.0], [0.25, 0.5]):
        res = opt(_grads(g, [1.0]))
        assert len(res) == 2 and all(bool(r) for r in res)
        g_eff = np.array(g) + 0.5 * ref
        accum = 0.9 * accum + g_eff
        ref = ref - 0.1 * accum
    np.testing.assert_allclose(w.asnumpy(), ref, rtol=1e-6)
    np.testing.assert_allclose(gamma.asnumpy(), [1 - 0.1 - 0.1 * 1.9], rtol=1e-6)  # no decay on gamma
    np.testing.assert_array_equal(opt.global_step.asnumpy(), [2])


def test_momentum_nesterov_follows_documentation():
    w = _param([1.0], "w")
    opt = nn.Momentum([w], 0.1, 0.9, use_nesterov=True)
    opt(_grads([1.0]))
    # p -= grad * lr + v * u * lr with v = 1
    np.testing.assert_allclose(w.asnumpy(), [1 - 0.1 - 0.09], rtol=1e-6)


def test_loss_scale_divides_gradients():
    w = _param([1.0], "w")
    opt = nn.Momentum([w], 0.1, 0.0, loss_scale=4.0)
    opt(_grads([2.0]))
    np.testing.assert_allclose(w.asnumpy(), [0.95], rtol=1e-6)


def test_sgd_math(mode):
    w = _param([1.0, 2.0], "w")
    opt = nn.SGD([w], 0.1, momentum=0.9, dampening=0.1, weight_decay=0.01)
    ref, accum = np.array([1.0, 2.0]), None
    for g in ([0.5, -1.0], [0.25, 0.5], [1.0, 1.0]):
        opt(_grads(g))
        g_eff = np.array(g) + 0.01 * ref
        accum = g_eff if accum is None else 0.9 * accum + 0.9 * g_eff
        ref = ref - 0.1 * accum
    np.testing.assert_allclose(w.asnumpy(), ref, rtol=1e-5)
    np.testing.assert_array_equal(opt.stat[0].asnumpy(), [0, 0])
    plain = nn.SGD([_param([1.0], "v")], 0.5)
    plain(_grads([1.0]))
    np.testing.assert_allclose(plain.parameters[0].asnumpy(), [0.5])
    np.testing.assert_array_equal(plain.stat[0].asnumpy(), [1])


def test_list_learning_rate(mode):
    w = _param([0.0], "w")
    opt = nn.Momentum([w], [0.1, 0.01, 0.001], 0.0)
    assert [(n, p.name, p.shape) for n, p in opt.parameters_and_names()][-1] == (
        "learning_rate.learning_rate", "learning_rate", (3,))
    assert opt.dynamic_lr
    for _ in range(3):
        opt(_grads([1.0]))
    np.testing.assert_allclose(w.asnumpy(), [-0.111], rtol=1e-6)
    assert opt.get_lr_parameter(w) is opt.learning_rate.learning_rate


def test_schedule_and_tensor_learning_rates(mode):
    w = _param([0.0], "w")
    opt = nn.Momentum([w], _Schedule(), 0.0)
    assert "learning_rate" not in [p.name for p in opt.get_parameters()]
    opt(_grads([1.0]))
    opt(_grads([1.0]))
    np.testing.assert_allclose(w.asnumpy(), [-0.15], rtol=1e-6)
    opt2 = nn.Momentum([_param([0.0], "v")], Tensor(0.5, ms.float32), 0.0)
    assert opt2.learning_rate.shape == () and not opt2.dynamic_lr


def test_group_params():
    w, b = _param([1.0], "w"), _param([1.0], "b")
    opt = nn.Momentum([{"params": [w], "lr": 0.5, "weight_decay": 1.0}, {"params": [b]}, {"order_params": [b, w]}],
                      0.1, 0.0)
    assert [p.name for p in opt.get_parameters()] == ["global_step", "learning_rate", "learning_rate_group_0", "b",
                                                      "w", "momentum", "moments.b", "moments.w"]
    assert opt.get_lr_parameter(w).name == "learning_rate_group_0"
    opt(_grads([1.0], [1.0]))  # ordered as b, w
    np.testing.assert_allclose(b.asnumpy(), [0.9], rtol=1e-6)
    np.testing.assert_allclose(w.asnumpy(), [0.0], atol=1e-6)  # 1 - 0.5 * (1 + 1 * 1)
    with pytest.raises(KeyError, match="must be one of"):
        nn.Momentum([{"params": [w], "bad": 1}], 0.1, 0.9)


def test_validation():
    p = [_param([1.0], "w")]
    with pytest.raises(TypeError, match=r"For 'Momentum', the type of 'momentum' should be 'float', but got type"):
        nn.Momentum(p, 0.1, 1)
    with pytest.raises(ValueError, match="at least 0.0, but got -0.5"):
        nn.Momentum(p, 0.1, -0.5)
    with pytest.raises(ValueError, match=r"For 'Momentum', the argument parameters \('params'\) must not be empty"):
        nn.Momentum([], 0.1, 0.9)
    with pytest.raises(ValueError, match="loss_scale.*but got 0.0"):
        nn.Momentum(p, 0.1, 0.9, loss_scale=0.0)
    with pytest.raises(ValueError, match="weight_decay.*but got -1.0"):
        nn.Momentum(p, 0.1, 0.9, weight_decay=-1)
    with pytest.raises(TypeError, match="learning_rate"):
        nn.Momentum(p, "0.1", 0.9)
    with pytest.raises(ValueError, match="For 'Momentum', the 'learning_rate' must be .*but got -0.1"):
        nn.Momentum(p, -0.1, 0.9)
    with pytest.raises(TypeError, match="'Parameter' or 'dict'"):
        nn.Momentum([1.0], 0.1, 0.9)
    with pytest.raises(ValueError, match="nesterov"):
        nn.SGD(p, nesterov=True)
    with pytest.raises(ValueError, match="not in optimizer"):
        nn.Momentum(p, 0.1, 0.9).get_lr_parameter(_param([1.0], "other"))


def test_custom_optimizer_subclass(mode):
    class PlainSGD(nn.Optimizer):
        def __init__(self, params, learning_rate):
            super().__init__(learning_rate, params)

        def construct(self, gradients):
            lr = self.get_lr()
            for p, g in zip(self.parameters, gradients):
                p.assign_value(p - lr * g)
            return True

    w = _param([1.0, 1.0], "w")
    PlainSGD([w], 0.5)(_grads([1.0, 2.0]))
    np.testing.assert_allclose(w.asnumpy(), [0.5, 0.0])


def test_grouped_dynamic_learning_rate_cells():
    w, w2 = _param([1.0], "w"), _param([1.0], "w2")
    opt = nn.Momentum([{"params": [w], "lr": [0.5, 0.4]}, {"params": [w2]}], 0.1, 0.9)
    assert [(n, p.name) for n, p in opt.parameters_and_names()] == [
        ("global_step", "global_step"), ("w", "w"), ("w2", "w2"), ("momentum", "momentum"),
        ("moments.w", "moments.w"), ("moments.w2", "moments.w2"),
        ("learning_rate.0.learning_rate", "learning_rate_group_0"), ("learning_rate.1.learning_rate", "learning_rate")]
    assert repr(opt) == ("Momentum(\n  (learning_rate): CellList(\n    (0): _IteratorLearningRate()\n"
                         "    (1): _ConvertToCell()\n  )\n)")
    for _ in range(2):
        opt(_grads([1.0], [1.0]))
    np.testing.assert_allclose(w.asnumpy(), [-0.26], rtol=1e-5)
    np.testing.assert_allclose(w2.asnumpy(), [0.71], rtol=1e-5)
