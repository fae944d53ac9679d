"""Parity of ``amp.build_train_network`` levels O1, O2 and O3 with real MindSpore 2.10 on CPU.

A small CNN with BatchNorm (Conv2d -> BatchNorm2d -> ReLU -> Flatten -> Dense) starts from the
same numpy weights in both frameworks and trains for a few steps on the same batch through
``build_train_network`` (MindSpore's ``Model`` needs ``mindspore.dataset``, which fails under
numpy 2; ``build_train_network`` does not). Compared: the dtype of every layer's output (forward
hooks, first step; with the dtype of the input the hook sees), the loss dtype, the parameters' dtypes (float32 master weights), the class of
the training cell, and the loss trajectory.

O2 runs with ``loss_scale_manager=None`` and with ``FixedLossScaleManager(128, drop_overflow_update=False)``
plus ``Momentum(loss_scale=128)``: the two settings MindSpore's CPU build accepts for O2.

Tolerance: both frameworks round the low-precision layers' results to float16, but their float16
kernels (MindSpore's CPU convolution and matmul versus TensorFlow's) may accumulate in a different
order, so a result can differ by a float16 ulp (2**-11 relative). Measured on this network the
losses agree to 6e-6 relative over the steps; the bound RTOL_LOW = 5e-5 leaves room for a few ulps
of drift and stays well below the gap between float16 and float32 compute (2.6e-4 relative here,
asserted too), so a level that silently computed in float32 fails.
"""
import numpy as np
import pytest

import tfspore as ts
from tfspore import amp as tamp
from tfspore import nn as tnn

ms = pytest.importorskip("mindspore")
from mindspore import amp as mamp  # noqa: E402
from mindspore import nn as mnn  # noqa: E402
from mindspore import ops as mops  # noqa: E402
from tfspore import ops as tops  # noqa: E402
from tests.parity._ms_helpers import _warm_mindspore  # noqa: E402,F401  (autouse fixture)

RTOL_LOW = 5e-5
STEPS = 4
LAYERS = ["conv", "bn", "relu", "flat", "fc"]


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    """MindSpore's O1 source rewrite writes its generated modules under the working directory."""
    monkeypatch.chdir(tmp_path)


class MsSmallCNN(mnn.Cell):
    """Defined at module level: MindSpore's O1 rewrite reads the class source."""

    def __init__(self):
        super().__init__()
        self.conv = mnn.Conv2d(2, 4, 3, pad_mode="valid", has_bias=True)
        self.bn = mnn.BatchNorm2d(4)
        self.relu = mnn.ReLU()
        self.flat = mnn.Flatten()
        self.fc = mnn.Dense(4 * 4 * 4, 3)

    def construct(self, x):
        x = self.conv(x)
        x = self.bn(x)
        x = self.relu(x)
        x = self.flat(x)
        return self.fc(x)


class TsSmallCNN(tnn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = tnn.Conv2d(2, 4, 3, pad_mode="valid", has_bias=True)
        self.bn = tnn.BatchNorm2d(4)
        self.relu = tnn.ReLU()
        self.flat = tnn.Flatten()
        self.fc = tnn.Dense(4 * 4 * 4, 3)

    def construct(self, x):
        x = self.conv(x)
        x = self.bn(x)
        x = self.relu(x)
        x = self.flat(x)
        return self.fc(x)


def _data():
    rng = np.random.default_rng(7)
    weights = {
        "conv.weight": rng.standard_normal((4, 2, 3, 3)).astype(np.float32) * 0.4,
        "conv.bias": rng.standard_normal((4,)).astype(np.float32) * 0.1,
        "bn.gamma": (1 + 0.1 * rng.standard_normal((4,))).astype(np.float32),
        "bn.beta": (0.1 * rng.standard_normal((4,))).astype(np.float32),
        "fc.weight": rng.standard_normal((3, 64)).astype(np.float32) * 0.2,
        "fc.bias": rng.standard_normal((3,)).astype(np.float32) * 0.1,
    }
    x = rng.standard_normal((8, 2, 6, 6)).astype(np.float32)
    y = rng.integers(0, 3, (8,)).astype(np.int32)
    return weights, x, y


def _run(fw, nn_mod, amp_mod, net_cls, level, fixed_scale):
    weights, x, y = _data()
    net = net_cls()
    for p in net.get_parameters():
        if p.name in weights:
            p.set_data(fw.Tensor(weights[p.name]))
    record = {}

    def recorder(name):
        def hook(cell, inputs, output):
            record.setdefault(name, (str(inputs[0].dtype), str(output.dtype)))
        return hook
    for name, cell in net.cells_and_names():
        if name:
            cell.register_forward_hook(recorder(name))
    kw = {}
    if level == "O2":
        kw["loss_scale_manager"] = (amp_mod.FixedLossScaleManager(fixed_scale, drop_overflow_update=False)
                                    if fixed_scale else None)
    opt = nn_mod.Momentum(net.trainable_params(), 0.05, 0.9, loss_scale=float(fixed_scale or 1.0))
    loss_fn = nn_mod.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = amp_mod.build_train_network(net, opt, loss_fn, level=level, **kw)
    losses, loss_dtypes = [], set()
    for _ in range(STEPS):
        loss = train(fw.Tensor(x), fw.Tensor(y))
        losses.append(float(loss.asnumpy()))
        loss_dtypes.add(str(loss.dtype))
    params = {p.name: str(p.dtype) for p in net.get_parameters()}
    fc_w = net.fc.weight.asnumpy() if hasattr(net, "fc") else None
    return dict(cls=type(train).__name__, record=record, losses=np.array(losses), loss_dtypes=loss_dtypes,
                params=params, fc_w=fc_w)


@pytest.mark.parametrize("level,fixed_scale", [("O0", None), ("O1", None), ("O2", None), ("O2", 128.0),
                                               ("O3", None)])
def test_build_train_network_levels_match_mindspore(level, fixed_scale):
    m = _run(ms, mnn, mamp, MsSmallCNN, level, fixed_scale)
    t = _run(ts, tnn, tamp, TsSmallCNN, level, fixed_scale)
    assert t["cls"] == m["cls"] == "TrainOneStepCell"
    # Output dtypes: all layers. Input dtypes (what a forward hook sees): all but the first layer.
    # MindSpore casts inside each operator, so a hook on the first layer of a to_float network sees
    # the caller's float32 input; tfspore casts at the entry of the to_float network, so its first
    # layer already gets float16 (docs/differences.md).
    assert {k: v[1] for k, v in t["record"].items()} == {k: v[1] for k, v in m["record"].items()}
    assert ({k: v[0] for k, v in t["record"].items() if k != "conv"}
            == {k: v[0] for k, v in m["record"].items() if k != "conv"}), (t["record"], m["record"])
    assert set(t["record"]) == set(LAYERS)
    assert t["loss_dtypes"] == m["loss_dtypes"] == {"Float32"}
    assert t["params"] == m["params"]
    assert set(t["params"].values()) == {"Float32"}
    rtol = 1e-5 if level == "O0" else RTOL_LOW
    np.testing.assert_allclose(t["losses"], m["losses"], rtol=rtol, atol=1e-6)
    np.testing.assert_allclose(t["fc_w"], m["fc_w"], rtol=rtol, atol=rtol * 0.2)
    assert t["losses"][-1] < t["losses"][0]
    if level != "O0":
        fp32 = _run(ts, tnn, tamp, TsSmallCNN, "O0", None)["losses"]
        assert np.max(np.abs(t["losses"] - fp32) / fp32) > 4 * RTOL_LOW


def test_layer_dtypes_per_level_are_mindspores():
    """The recorded dtypes, spelled out: what each level computes in (forward hooks see the outputs)."""
    expected = {
        "O1": dict(conv="Float32", bn="Float32", relu="Float32", flat="Float32", fc="Float32"),
        "O2": dict(conv="Float16", bn="Float32", relu="Float16", flat="Float16", fc="Float16"),
        "O3": dict(conv="Float16", bn="Float16", relu="Float16", flat="Float16", fc="Float16"),
    }
    for level, dtypes in expected.items():
        kw = {"fixed_scale": None}
        m = _run(ms, mnn, mamp, MsSmallCNN, level, **kw)
        t = _run(ts, tnn, tamp, TsSmallCNN, level, **kw)
        assert {k: v[1] for k, v in m["record"].items()} == dtypes, (level, m["record"])
        assert {k: v[1] for k, v in t["record"].items()} == dtypes, (level, t["record"])


_W = np.linspace(-1, 1, 12).reshape(3, 4).astype(np.float32)


class MsBlock(mnn.Cell):
    def __init__(self):
        super().__init__()
        self.mm = mops.MatMul(transpose_b=True)
        self.w = ms.Parameter(ms.Tensor(_W), name="w")
        self.add = mops.Add()

    def construct(self, x):
        y = self.mm(x, self.w)
        return y, self.add(y, y)


class TsBlock(tnn.Cell):
    def __init__(self):
        super().__init__()
        self.mm = tops.MatMul(transpose_b=True)
        self.w = ts.Parameter(ts.Tensor(_W), name="w")
        self.add = tops.Add()

    def construct(self, x):
        y = self.mm(x, self.w)
        return y, self.add(y, y)


def test_o1_white_list_primitives_inside_custom_cell_match_mindspore():
    """O1 casts white-list primitives called in a construct (MatMul) and keeps other primitives in float32."""
    x = np.array([[0.1234567, 1.7654321, -2.3456789, 3.0001]], np.float32)
    mo = mamp.auto_mixed_precision(MsBlock(), "O1")(ms.Tensor(x))
    to = tamp.auto_mixed_precision(TsBlock(), "O1")(ts.Tensor(x))
    assert [str(o.dtype) for o in to] == [str(o.dtype) for o in mo] == ["Float32", "Float32"]
    # The MatMul ran in float16: its result is a float16 value (exactly representable in float16).
    for o in (mo[0], to[0]):
        v = o.asnumpy()
        np.testing.assert_array_equal(v.astype(np.float16).astype(np.float32), v)
    np.testing.assert_allclose(to[0].asnumpy(), mo[0].asnumpy(), rtol=2e-3)
    np.testing.assert_allclose(to[1].asnumpy(), mo[1].asnumpy(), rtol=2e-3)


def test_o2_default_loss_scale_mindspore_cpu_refuses_tfspore_follows_gpu():
    """MindSpore's CPU build refuses update cells (O2's default DynamicLossScaleManager); tfspore follows
    MindSpore's GPU behaviour on every device and builds a TrainOneStepWithLossScaleCell (docs/differences.md)."""
    m_net = MsSmallCNN()
    with pytest.raises(ValueError, match="are supported on device `CPU`"):
        mamp.build_train_network(m_net, mnn.Momentum(m_net.trainable_params(), 0.1, 0.9),
                                 mnn.SoftmaxCrossEntropyWithLogits(sparse=True), level="O2")
    t_net = TsSmallCNN()
    train = tamp.build_train_network(t_net, tnn.Momentum(t_net.trainable_params(), 0.1, 0.9),
                                     tnn.SoftmaxCrossEntropyWithLogits(sparse=True), level="O2")
    assert type(train).__name__ == "TrainOneStepWithLossScaleCell"
    assert float(train.scale_sense.asnumpy()) == 2.0 ** 24


_W34 = np.linspace(-1, 1, 12).reshape(4, 3).astype(np.float32)


def _auto_net_class(nn_mod, ops_mod):
    class AutoNet(nn_mod.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn_mod.Dense(3, 4, weight_init=_ms_or_ts(nn_mod).Tensor(_W34), has_bias=False)
            self.fcb = nn_mod.Dense(3, 4, weight_init=_ms_or_ts(nn_mod).Tensor(_W34), bias_init="ones")
            self.bn = nn_mod.BatchNorm1d(4)
            self.mm = ops_mod.MatMul(transpose_b=True)
            self.softmax = ops_mod.Softmax()
            self.relu = nn_mod.ReLU()

        def construct(self, x):
            a = self.fc(x)
            m = self.mm(x, x)
            return a, self.fcb(x), self.bn(a), m, self.softmax(m), self.relu(a)
    return AutoNet


def _ms_or_ts(nn_mod):
    return ms if nn_mod is mnn else ts


def test_auto_level_on_cpu_matches_mindspore_operator_strategy():
    """'auto' on CPU: white-list operators (MatMul, Dense's MatMul) give float16, a float32 bias
    promotes to float32, BatchNorm and Softmax run in float32, ReLU keeps its input type."""
    x = np.array([[0.1234567, 1.7654321, -2.3456789], [0.5, -0.25, 3.0001]], np.float32)
    mo = mamp.auto_mixed_precision(_auto_net_class(mnn, mops)(), "auto")(ms.Tensor(x))
    to = tamp.auto_mixed_precision(_auto_net_class(tnn, tops)(), "auto")(ts.Tensor(x))
    assert [str(o.dtype) for o in to] == [str(o.dtype) for o in mo]
    assert [str(o.dtype) for o in to] == ["Float16", "Float32", "Float32", "Float16", "Float32", "Float16"]
    for t, m in zip(to, mo):
        # float16 results: one float16 ulp (2**-11 relative); the biased Dense adds its bias in float16
        # in tfspore (float32 in MindSpore), one more rounding.
        np.testing.assert_allclose(t.asnumpy().astype(np.float32), m.asnumpy().astype(np.float32), rtol=2e-3,
                                   atol=2e-3)
