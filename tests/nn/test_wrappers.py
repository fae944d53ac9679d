"""Behaviour of the training wrappers: names, order, reprs, one-step training in both modes."""
import numpy as np
import pytest

import tfspore as ms
from tfspore import Tensor, nn
from tfspore.ops import GradOperation


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 4 * 4, 3)

    def construct(self, x):
        return self.fc(self.flatten(self.pool(self.relu(self.bn(self.conv1(x))))))


class _Counting(nn.Cell):
    """Counts how often its construct runs (once per trace in GRAPH_MODE)."""

    def __init__(self, inner):
        super().__init__(auto_prefix=False)
        self.inner = inner
        self.calls = 0

    def construct(self, x, y):
        self.calls += 1
        return self.inner(x, y)


@pytest.fixture()
def data():
    rng = np.random.default_rng(0)
    return (Tensor(rng.standard_normal((6, 1, 8, 8)).astype(np.float32)),
            Tensor(np.array([0, 1, 2, 0, 1, 2], np.int32)))


def _train_net(net, **kwargs):
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    return nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt, **kwargs)


def test_module_paths():
    from tfspore.nn.wrap import cell_wrapper
    assert cell_wrapper.TrainOneStepCell is nn.TrainOneStepCell
    assert cell_wrapper.WithLossCell is nn.WithLossCell


def test_with_loss_cell():
    net = _Net()
    names = [p.name for p in net.get_parameters()]
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    assert [p.name for p in loss_net.get_parameters()] == names
    assert loss_net.backbone_network is net and not loss_net._auto_prefix
    assert list(loss_net.name_cells()) == ["_backbone", "_loss_fn"]
    assert repr(loss_net).endswith("  (_loss_fn): MSELoss()\n)")


def test_train_one_step_names_order_and_repr():
    net = _Net()
    train = _train_net(net)
    assert [p.name for p in train.get_parameters()] == [
        "conv1.weight", "bn.gamma", "bn.beta", "fc.weight", "fc.bias", "bn.moving_mean", "bn.moving_variance",
        "global_step", "learning_rate", "momentum", "moments.conv1.weight", "moments.bn.gamma", "moments.bn.beta",
        "moments.fc.weight", "moments.fc.bias"]
    assert [n for n, _ in train.parameters_and_names()][5:8] == [
        "network._backbone.bn.moving_mean", "network._backbone.bn.moving_variance", "optimizer.global_step"]
    assert train.weights is train.optimizer.parameters
    assert train.network.requires_grad and not net.requires_grad
    text = repr(train)
    assert text.startswith("TrainOneStepCell(\n  (network): WithLossCell(\n    (_backbone): _Net(\n")
    assert text.endswith("    (_loss_fn): SoftmaxCrossEntropyWithLogits()\n  )\n  (optimizer): Momentum()\n"
                         "  (grad_reducer): Identity()\n)")


def test_training_reduces_loss_single_trace(mode, data):
    x, y = data
    ms.set_seed(2)
    net = _Net()
    train = _train_net(net)
    counting = _Counting(train.network)
    train.network = counting
    train.set_train()
    before = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))(x, y)
    losses = [float(train(x, y).asnumpy()) for _ in range(8)]
    assert losses[0] == pytest.approx(float(before.asnumpy()), rel=1e-5)
    assert losses[-1] < losses[0] * 0.7
    assert int(train.optimizer.global_step.asnumpy()[0]) == 8
    assert counting.calls == (1 if mode == ms.GRAPH_MODE else 8)


def test_sens_and_return_grad(mode, data):
    x, y = data
    ms.set_seed(3)
    net_a, net_b = _Net(), _Net()
    for pa, pb in zip(net_a.get_parameters(), net_b.get_parameters()):
        pb.set_data(pa.value())
    train_a = _train_net(net_a)
    train_b = _train_net(net_b, sens=2.0, return_grad=True)
    train_a.set_train()
    train_b.set_train()
    loss_a = train_a(x, y)
    loss_b, grads = train_b(x, y)
    np.testing.assert_allclose(loss_a.asnumpy(), loss_b.asnumpy(), rtol=1e-6)
    assert list(grads) == [p.name for p in net_b.trainable_params()]
    mom_a = train_a.optimizer.moments[-1].asnumpy()
    mom_b = train_b.optimizer.moments[-1].asnumpy()
    np.testing.assert_allclose(mom_b, 2 * mom_a, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(grads["fc.bias"].asnumpy(), mom_b, rtol=1e-6)
    with pytest.raises(ValueError, match="'sens' can not be 0"):
        _train_net(_Net(), sens=0)


def test_with_eval_cell(mode, data):
    x, _ = data
    net = nn.Dense(4, 2)
    inp = Tensor(np.ones((3, 4), np.float32))
    label = Tensor(np.zeros((3, 2), np.float16))
    loss, out, lab = nn.WithEvalCell(net, nn.MSELoss())(inp, Tensor(np.zeros((3, 2), np.float32)))
    assert loss.shape == () and out.shape == (3, 2) and lab.shape == (3, 2)
    _, out2, lab2 = nn.WithEvalCell(net.to_float(ms.float16), nn.MSELoss(), add_cast_fp32=True)(inp, label)
    assert out2.dtype == ms.float32 and lab2.dtype == ms.float32
    with pytest.raises(TypeError, match="add_cast_fp32"):
        nn.WithEvalCell(net, nn.MSELoss(), add_cast_fp32=1)
    assert list(nn.WithEvalCell(net, nn.MSELoss()).name_cells()) == ["_network", "_loss_fn"]


def test_forward_value_and_grad(mode):
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    x = Tensor(np.array([[1.0, 2.0, 3.0]], np.float32))
    weights = net.trainable_params()
    out, grads = nn.ForwardValueAndGrad(net, weights, get_by_list=True)(x)
    np.testing.assert_allclose(out.asnumpy(), [[6, 6]])
    np.testing.assert_allclose(grads[0].asnumpy(), [[1, 2, 3], [1, 2, 3]])
    np.testing.assert_allclose(grads[1].asnumpy(), [1, 1])
    out, (in_grads, w_grads) = nn.ForwardValueAndGrad(net, weights, get_all=True, get_by_list=True,
                                                      sens_param=True)(x, Tensor(np.array([[2.0, 0.0]], np.float32)))
    np.testing.assert_allclose(in_grads[0].asnumpy(), [[2, 2, 2]])
    np.testing.assert_allclose(w_grads[1].asnumpy(), [2, 0])
    _, gx = nn.ForwardValueAndGrad(net)(x)
    np.testing.assert_allclose(gx.asnumpy(), GradOperation()(net)(x).asnumpy())
    with pytest.raises(TypeError, match="'weights' must be Parameters array"):
        nn.ForwardValueAndGrad(net, get_by_list=True)
    with pytest.raises(TypeError, match="'network' must be cell"):
        nn.ForwardValueAndGrad(3)


def test_with_grad_cell(mode):
    net = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
    x = Tensor(np.array([[1.0, 2.0, 3.0]], np.float32))
    label = Tensor(np.array([[5.0]], np.float32))
    grads = nn.WithGradCell(net, nn.MSELoss())(x, label)
    np.testing.assert_allclose(grads[0].asnumpy(), [[2, 4, 6]])  # d/dw (w.x - 5)^2 = 2 * 1 * x
    np.testing.assert_allclose(grads[1].asnumpy(), [2])
    assert [p.name for p in nn.WithGradCell(net, nn.MSELoss()).get_parameters()] == ["weight", "bias"]
