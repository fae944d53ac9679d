"""tfspore.amp mixed-precision levels: errors, auto, bfloat16, custom lists, Model(amp_level=...)."""
import logging

import numpy as np
import pytest

import tfspore as ms
import tfspore.dataset as ds
from tfspore import amp, nn, ops
from tfspore.common import dtype as mstype
from tfspore.train import Model
from tfspore.train import amp as train_amp


class SmallCNN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, pad_mode="valid", has_bias=True)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.flat = nn.Flatten()
        self.fc = nn.Dense(4 * 4 * 4, 3)

    def construct(self, x):
        return self.fc(self.flat(self.relu(self.bn(self.conv(x)))))


def _record(net):
    """Record each named sub-cell's output dtype (first call) through forward hooks."""
    record = {}

    def recorder(name):
        def hook(cell, inputs, output):
            record.setdefault(name, str(output.dtype))
        return hook
    for name, cell in net.cells_and_names():
        if name:
            cell.register_forward_hook(recorder(name))
    return record


def _batch(n=8, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 1, 6, 6)).astype(np.float32)
    y = (rng.standard_normal((n,)) > 0).astype(np.int32) + (x.mean(axis=(1, 2, 3)) > 0).astype(np.int32)
    return x, y


def _parts(net=None):
    net = net or SmallCNN()
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    return net, opt, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def _is_fp16_valued(t):
    v = t.asnumpy().astype(np.float32)
    return np.array_equal(v.astype(np.float16).astype(np.float32), v)


# ----------------------------------------------------------------------------------------- errors
@pytest.mark.parametrize("kwargs,exc,msg", [
    (dict(level="O4"), ValueError, r"The 'level' should be in : \['O0', 'O1', 'O2', 'O3', 'auto'\], but got O4\."),
    (dict(level="o2"), ValueError, r"but got o2\."),
    (dict(level=2), TypeError, r"The argument `level` must be a string in .*but got type <class 'int'>"),
    (dict(boost_level="O3"), ValueError, r"The 'boost_level' should be in : \['O0', 'O1', 'O2'\], but got O3\."),
    (dict(keep_batchnorm_fp32="yes"), TypeError, r"'keep_batchnorm_fp32' should be 'bool', but got type 'str'"),
    (dict(cast_model_type=mstype.int32), TypeError, r"'cast_model_type' should be one of .*but got 'Int32'"),
    (dict(loss_scale_manager=1), TypeError, r"'loss_scale_manager' should be one of .*but got type 'int'"),
    (dict(foo=1), ValueError, r"Unsupported arg 'foo'"),
])
def test_build_train_network_errors(kwargs, exc, msg):
    net, opt, loss = _parts()
    with pytest.raises(exc, match=msg):
        amp.build_train_network(net, opt, loss, **kwargs)


def test_build_train_network_optimizer_must_be_optimizer():
    net, _, loss = _parts()
    with pytest.raises(TypeError, match=r"The type of 'optimizer' should be one of .*but got type 'Dense'"):
        amp.build_train_network(net, nn.Dense(2, 2), loss)


def test_model_amp_errors():
    net, opt, loss = _parts()
    with pytest.raises(ValueError, match="the 'amp_level' must be one of .*but got 'O4'"):
        Model(net, loss, opt, amp_level="O4")
    with pytest.raises(TypeError, match="'keep_batchnorm_fp32' should be 'bool', but got type 'int'"):
        Model(net, loss, opt, amp_level="O2", keep_batchnorm_fp32=1)
    with pytest.raises(TypeError, match="'loss_scale_manager' should be one of"):
        Model(net, loss, opt, loss_scale_manager="dynamic")
    # Without an optimizer MindSpore refuses amp (it checks this before the level).
    with pytest.raises(ValueError, match="Auto mixed precision will not work because 'optimizer' is None"):
        Model(net, loss, amp_level="O4")
    with pytest.raises(ValueError, match="'optimizer' can not be None when set 'loss_scale_manager'"):
        Model(net, loss, loss_scale_manager=amp.FixedLossScaleManager())


def test_auto_mixed_precision_errors():
    with pytest.raises(ValueError, match="The amp level O4 is not supported"):
        amp.auto_mixed_precision(SmallCNN(), "O4")
    with pytest.raises(TypeError, match="For amp_level 'O1', the network type should be Cell, but got int"):
        amp.auto_mixed_precision(1, "O1")
    with pytest.raises(TypeError, match="For amp_level 'auto', the network type should be Cell or function"):
        amp.auto_mixed_precision(1, "auto")
    with pytest.raises(ValueError, match=r"The dtype should be one of \(mstype.float16, mstype.bfloat16\), but got "
                                         "Float32"):
        amp.auto_mixed_precision(SmallCNN(), "O1", mstype.float32)


def test_custom_mixed_precision_errors():
    net = SmallCNN()
    with pytest.raises(ValueError, match="one of white_list and black_list must be provided"):
        amp.custom_mixed_precision(net)
    with pytest.raises(ValueError, match="cannot be provided at the same time"):
        amp.custom_mixed_precision(net, white_list=[], black_list=[])
    with pytest.raises(TypeError, match="The type of white_list should be list, but got <class 'tuple'>"):
        amp.custom_mixed_precision(net, white_list=(nn.Dense,))
    with pytest.raises(TypeError, match="The element in white_list should be a class, but got 1"):
        amp.custom_mixed_precision(net, white_list=[1])
    with pytest.raises(TypeError, match="should be one of 'Cell' and 'Primitive', but got <class 'int'>"):
        amp.custom_mixed_precision(net, white_list=[int])
    with pytest.raises(TypeError, match="The subclass of element in black_list should be one of 'Cell'"):
        amp.custom_mixed_precision(net, black_list=[ops.ReLU])
    with pytest.raises(ValueError, match="The dtype should be one of"):
        amp.custom_mixed_precision(net, white_list=[nn.Dense], dtype=mstype.float32)
    with pytest.raises(TypeError, match="The network type should be Cell"):
        amp.custom_mixed_precision(lambda x: x, white_list=[nn.Dense])


# ------------------------------------------------------------------------------------------ lists
def test_white_and_black_lists_are_copies():
    wl, bl = amp.get_white_list(), amp.get_black_list()
    assert wl[:2] == [nn.Conv1d, nn.Conv2d] and nn.Dense in wl and ops.MatMul in wl and ops.ReLU in wl
    assert bl == [nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d, nn.LayerNorm]
    wl.append(nn.Flatten)
    bl.clear()
    assert nn.Flatten not in amp.get_white_list() and len(amp.get_black_list()) == 4


def test_import_paths():
    import tfspore.train as train
    assert train.build_train_network is amp.build_train_network is train_amp.build_train_network
    assert ms.amp is amp
    assert amp.DynamicLossScaleManager is train.DynamicLossScaleManager


# ----------------------------------------------------------------------------------------- levels
def _layer_dtypes(level, **kwargs):
    net, opt, loss = _parts()
    record = _record(net)
    train = amp.build_train_network(net, opt, loss, level=level, **kwargs)
    x, y = _batch()
    out = train(ms.Tensor(x), ms.Tensor(y))
    return net, train, record, out


def test_levels_layer_and_parameter_dtypes(mode):
    expected = {
        "O0": dict(conv="Float32", bn="Float32", relu="Float32", flat="Float32", fc="Float32"),
        "O1": dict(conv="Float32", bn="Float32", relu="Float32", flat="Float32", fc="Float32"),
        "O2": dict(conv="Float16", bn="Float32", relu="Float16", flat="Float16", fc="Float16"),
        "O3": dict(conv="Float16", bn="Float16", relu="Float16", flat="Float16", fc="Float16"),
    }
    for level, dtypes in expected.items():
        net, train, record, loss = _layer_dtypes(level)
        assert record == dtypes, (level, record)
        loss = loss[0] if isinstance(loss, tuple) else loss
        assert str(loss.dtype) == "Float32"
        assert {str(p.dtype) for p in net.get_parameters()} == {"Float32"}
        assert type(train.network).__name__ == "WithLossCell"
    assert getattr(net, "_amp_level", None) is None  # build_train_network O2/O3 only cast (as MindSpore)


def test_o2_default_uses_dynamic_loss_scale_and_keeps_batchnorm_fp32():
    net, opt, loss = _parts()
    train = amp.build_train_network(net, opt, loss, level="O2")
    assert type(train).__name__ == "TrainOneStepWithLossScaleCell"
    assert type(net.bn).__name__ == "_OutputTo16"
    assert net.bn._backbone._mixed_precision_type == mstype.float32
    assert net.conv._mixed_precision_type == mstype.float16
    assert [p.name for p in net.get_parameters()] == ["conv.weight", "conv.bias", "bn.moving_mean",
                                                      "bn.moving_variance", "bn.gamma", "bn.beta", "fc.weight",
                                                      "fc.bias"]
    # keep_batchnorm_fp32=False: BatchNorm in float16 too.
    net2, opt2, loss2 = _parts()
    record = _record(net2)
    train2 = amp.build_train_network(net2, opt2, loss2, level="O2", keep_batchnorm_fp32=False,
                                     loss_scale_manager=None)
    assert type(train2).__name__ == "TrainOneStepCell"
    x, y = _batch()
    train2(ms.Tensor(x), ms.Tensor(y))
    assert record["bn"] == "Float16"


def test_cast_model_type_overrides_level():
    net, opt, loss = _parts()
    record = _record(net)
    amp.build_train_network(net, opt, loss, level="O0", cast_model_type=mstype.float16)(*map(ms.Tensor, _batch()))
    assert record["fc"] == "Float16" and record["bn"] == "Float16"
    net, opt, loss = _parts()
    record = _record(net)
    amp.build_train_network(net, opt, loss, level="O3", cast_model_type=mstype.float32)(*map(ms.Tensor, _batch()))
    assert set(record.values()) == {"Float32"}


def test_fixed_loss_scale_without_drop_uses_sens():
    net, opt, loss = _parts()
    train = amp.build_train_network(net, opt, loss, level="O2",
                                    loss_scale_manager=amp.FixedLossScaleManager(64.0, drop_overflow_update=False))
    assert type(train).__name__ == "TrainOneStepCell" and train.sens == 64.0


def test_o1_white_list_cells_compute_in_fp16(mode):
    net = amp.auto_mixed_precision(SmallCNN(), "O1")
    assert net._amp_level == "O1"
    x = ms.Tensor(_batch()[0])
    out = net(x)
    assert str(out.dtype) == "Float32" and _is_fp16_valued(out)
    plain = SmallCNN()
    for p, q in zip(plain.get_parameters(), net.get_parameters()):
        p.set_data(q)
    ref = plain(x)
    assert not _is_fp16_valued(ref)
    np.testing.assert_allclose(out.asnumpy(), ref.asnumpy(), rtol=5e-3, atol=5e-3)


def test_o1_skips_cells_whose_precision_the_user_set():
    net = SmallCNN()
    net.fc.to_float(mstype.float32)
    net = amp.auto_mixed_precision(net, "O1")
    out = net(ms.Tensor(_batch()[0]))
    assert str(out.dtype) == "Float32" and not _is_fp16_valued(out)


def test_o2_o3_direct_calls_wrap_output_to_fp32(caplog):
    for level in ("O2", "O3"):
        net = amp.auto_mixed_precision(SmallCNN(), level)
        assert type(net).__name__ == "_OutputTo32" and net._amp_level == level
        out = net(ms.Tensor(_batch()[0]))
        assert str(out.dtype) == "Float32" and _is_fp16_valued(out)
        with caplog.at_level(logging.WARNING, logger="tfspore"):
            amp.auto_mixed_precision(net, "O1")
        assert f"adjusted from {level} to O1" in caplog.text


def test_bfloat16(mode):
    net = SmallCNN()
    record = _record(net)
    out = amp.auto_mixed_precision(net, "O3", dtype=mstype.bfloat16)(ms.Tensor(_batch()[0]))
    assert str(out.dtype) == "Float32"
    assert set(record.values()) == {"BFloat16"}
    net = SmallCNN()
    record = _record(net)
    amp.auto_mixed_precision(net, "O2", dtype=mstype.bfloat16)(ms.Tensor(_batch()[0]))
    assert record["bn"] == "Float32" and record["fc"] == "BFloat16"
    net = amp.auto_mixed_precision(SmallCNN(), "O1", dtype=mstype.bfloat16)
    out = net(ms.Tensor(_batch()[0])).asnumpy()
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out.astype(ms.dtype_to_nptype(mstype.bfloat16)).astype(np.float32), out)


def test_custom_white_list_with_primitive_and_cell():
    class Block(nn.Cell):
        def __init__(self):
            super().__init__()
            self.add = ops.Add()
            self.mul = ops.Mul()
            self.flat = nn.Flatten()

        def construct(self, x):
            return self.add(x, x), self.mul(x, x), self.flat(x)
    x = ms.Tensor(np.array([[1.0001, 2.3456789, -0.333333]], np.float32))
    add, mul, flat = amp.custom_mixed_precision(Block(), white_list=[ops.Add])(x)
    assert str(add.dtype) == "Float32" and _is_fp16_valued(add)  # computed in float16, cast back
    assert not _is_fp16_valued(mul) and not _is_fp16_valued(flat)
    _, _, flat = amp.custom_mixed_precision(Block(), white_list=[nn.Flatten])(x)
    assert str(flat.dtype) == "Float32" and _is_fp16_valued(flat)


def test_custom_black_list(caplog):
    net = SmallCNN()
    record = _record(net)
    with caplog.at_level(logging.WARNING, logger="tfspore"):
        wrapped = amp.custom_mixed_precision(net, black_list=[nn.Dense])
    assert "is removed from internal black list" in caplog.text
    out = wrapped(ms.Tensor(_batch()[0]))
    assert str(out.dtype) == "Float32"
    assert record == dict(conv="Float16", bn="Float16", relu="Float16", flat="Float16", fc="Float32")


# ------------------------------------------------------------------------------------------- auto
def test_auto_on_cpu_is_the_operator_strategy(mode):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(3, 4, has_bias=False)
            self.fcb = nn.Dense(3, 4)
            self.bn = nn.BatchNorm1d(4)
            self.mm = ops.MatMul(transpose_b=True)
            self.softmax = ops.Softmax()
            self.relu = nn.ReLU()

        def construct(self, x):
            a = self.fc(x)
            m = self.mm(x, x)
            return a, self.fcb(x), self.bn(a), m, self.softmax(m), self.relu(a)
    net = amp.auto_mixed_precision(Net(), "auto")
    assert net._amp_level == "auto"
    outs = net(ms.Tensor(np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)))
    assert [str(o.dtype) for o in outs] == ["Float16", "Float32", "Float32", "Float16", "Float32", "Float16"]


def test_auto_function_on_cpu():
    fn = amp.auto_mixed_precision(lambda x: (ops.MatMul()(x, x), ops.Exp()(x)), "auto")
    a, e = fn(ms.Tensor(np.eye(2, dtype=np.float16)))
    assert str(a.dtype) == "Float16" and str(e.dtype) == "Float32"


def test_auto_follows_the_device(monkeypatch):
    monkeypatch.setattr(train_amp, "_device", lambda: "GPU")
    net, opt, loss = _parts()
    record = _record(net)
    train = amp.build_train_network(net, opt, loss, level="auto")
    assert type(train).__name__ == "TrainOneStepWithLossScaleCell"  # O2: dynamic loss scaling
    assert net._amp_level == "auto"
    train(*map(ms.Tensor, _batch()))
    assert record == dict(conv="Float16", bn="Float32", relu="Float16", flat="Float16", fc="Float16")
    monkeypatch.setattr(train_amp, "_device", lambda: "TPU")
    net, opt, loss = _parts()
    record = _record(net)
    train = amp.build_train_network(net, opt, loss, level="auto")
    assert type(train).__name__ == "TrainOneStepCell"
    train(*map(ms.Tensor, _batch()))
    assert set(record.values()) == {"BFloat16"}


# ------------------------------------------------------------------------------------------ Model
def _dataset(n=32, batch=8):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((n, 1, 6, 6)).astype(np.float32)
    y = (x[:, 0, 2:4, 2:4].mean(axis=(1, 2)) > 0).astype(np.int32)
    return ds.NumpySlicesDataset((x, y), column_names=["data", "label"], shuffle=False).batch(batch)


class _Losses(ms.Callback):
    def __init__(self):
        self.losses = []

    def on_train_step_end(self, run_context):
        out = run_context.original_args().net_outputs
        out = out[0] if isinstance(out, (tuple, list)) else out
        self.losses.append(float(out.asnumpy()))


@pytest.mark.parametrize("level", ["O1", "O2", "O3"])
def test_model_amp_level_trains(mode, level):
    ms.set_seed(1)
    net, opt, loss = _parts()
    kwargs = {"loss_scale_manager": amp.DynamicLossScaleManager(2 ** 10, 2, 50)} if level == "O2" else {}
    model = Model(net, loss, opt, metrics={"acc"}, amp_level=level, **kwargs)
    assert type(model.train_network).__name__ == ("TrainOneStepWithLossScaleCell" if level == "O2"
                                                   else "TrainOneStepCell")
    rec = _Losses()
    model.train(6, _dataset(), callbacks=[rec], dataset_sink_mode=False)
    assert np.mean(rec.losses[-4:]) < np.mean(rec.losses[:4])
    assert {str(p.dtype) for p in net.get_parameters()} == {"Float32"}
    assert model.eval_network.add_cast_fp32 is (level in ("O2", "O3"))
    res = model.eval(_dataset(), dataset_sink_mode=False)
    assert 0.0 <= res["acc"] <= 1.0


def test_model_o2_default_scale_trains_to_lower_loss():
    """O2 with its default DynamicLossScaleManager (2**24): overflowed steps are skipped and the scale
    falls until float16 gradients are finite, then the loss goes down."""
    ms.set_context(mode=ms.GRAPH_MODE)
    net, opt, loss = _parts()
    model = Model(net, loss, opt, amp_level="O2")
    rec = _Losses()
    model.train(10, _dataset(), callbacks=[rec], dataset_sink_mode=False)
    scale = float(model.train_network.scale_sense.asnumpy())
    assert scale < 2 ** 24
    assert np.mean(rec.losses[-4:]) < np.mean(rec.losses[:4]) - 0.05


def test_model_explicit_none_manager_overrides_o2_default():
    net, opt, loss = _parts()
    model = Model(net, loss, opt, amp_level="O2", loss_scale_manager=None)
    assert type(model.train_network).__name__ == "TrainOneStepCell"


def test_boost_level_compiles_with_xla():
    net, opt, loss = _parts()
    train = amp.build_train_network(net, opt, loss, level="O3", boost_level="O1")
    assert train._jit_compile() is True
    ms.set_context(mode=ms.GRAPH_MODE)
    x, y = map(ms.Tensor, _batch())
    losses = [float(train(x, y).asnumpy()) for _ in range(3)]
    assert losses[-1] < losses[0]
    train = amp.build_train_network(SmallCNN(), nn.Momentum(SmallCNN().trainable_params(), 0.1, 0.9), loss)
    assert train._jit_compile() is not True
    model = Model(SmallCNN(), loss, nn.Momentum(SmallCNN().trainable_params(), 0.1, 0.9), boost_level="O2")
    assert model.train_network._jit_compile() is True


def test_graph_mode_o1_traces_once():
    ms.set_context(mode=ms.GRAPH_MODE)
    net, opt, loss = _parts()
    train = amp.build_train_network(net, opt, loss, level="O1")
    x, y = map(ms.Tensor, _batch())
    first = train(x, y)
    for _ in range(3):
        last = train(x, y)
    assert len(train._compiled) == 1
    assert float(last.asnumpy()) < float(first.asnumpy())


def test_cell_cast_helpers_follow_to_float():
    dense = nn.Dense(2, 3).to_float(mstype.float16)
    w = dense.cast_param(dense.weight)
    assert str(w.dtype) == "Float16" and str(dense.weight.dtype) == "Float32"
    x = ms.Tensor(np.ones((1, 2), np.float32))
    cast_x, n = dense.auto_cast_inputs((x, 3))
    assert str(cast_x.dtype) == "Float16" and n == 3
    (bx,) = dense.cast_inputs((x,), mstype.bfloat16)
    assert str(bx.dtype) == "BFloat16"
    plain = nn.Dense(2, 3)
    assert plain.cast_param(plain.weight) is plain.weight
    assert plain.auto_cast_inputs((x,))[0] is x
    assert str(dense(x).dtype) == "Float16"


def test_keras_layers_inside_a_cell_follow_the_level():
    import keras

    class Holder(nn.Cell):
        def __init__(self):
            super().__init__()
            self.k = keras.layers.Dense(2)
            self.fc = nn.Dense(2, 2)

        def construct(self, x):
            return self.fc(x)
    net = Holder()
    amp.auto_mixed_precision(net, "O3")
    assert net.k.dtype_policy.name == "mixed_float16"
    net = Holder()
    amp.auto_mixed_precision(net, "O2", dtype=mstype.bfloat16)
    assert net.k.dtype_policy.name == "mixed_bfloat16"


def _train_distributed(strategy, level):
    import contextlib
    rng = np.random.default_rng(0)
    x = rng.standard_normal((32, 4)).astype(np.float32)
    y = rng.integers(0, 3, 32).astype(np.int32)
    w0 = rng.standard_normal((3, 4)).astype(np.float32) * 0.3
    rec = _Losses()
    with strategy.scope() if strategy is not None else contextlib.nullcontext():
        net = nn.Dense(4, 3)
        net.weight.set_data(ms.Tensor(w0))
        net.bias.set_data(ms.Tensor(np.zeros(3, np.float32)))
        model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                      nn.Momentum(net.trainable_params(), 0.1, 0.9), amp_level=level)
        data = ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(16, True)
        model.train(2, data, callbacks=[rec], dataset_sink_mode=False)
    return net.weight.asnumpy(), np.array(rec.losses)


def test_amp_levels_under_mirrored_strategy(mirrored_strategy):
    """The marks and the primitive scope work inside the replicas' threads: each level trains as on one device."""
    ms.set_auto_parallel_context(gradients_mean=True)
    try:
        ref_w, ref_losses = _train_distributed(None, "O0")
        for level in ("O1", "O3"):
            w, losses = _train_distributed(mirrored_strategy, level)
            single_w, single_losses = _train_distributed(None, level)
            np.testing.assert_allclose(losses, single_losses, rtol=1e-4)
            # The weight gradients are float16 matmuls too: summed over half batches per replica they
            # round differently from the whole batch on one device (a few float16 ulps, 2**-11 each).
            np.testing.assert_allclose(w, single_w, rtol=2e-3, atol=1e-4)
            assert np.max(np.abs(losses - ref_losses)) > 1e-5  # float16 compute: not the float32 run
    finally:
        ms.reset_auto_parallel_context()


@pytest.mark.parametrize("make,shape", [
    (lambda: nn.Conv1d(2, 3, 3), (2, 2, 8)),
    (lambda: nn.Conv2d(2, 3, 3), (2, 2, 6, 6)),
    (lambda: nn.Conv2dTranspose(2, 3, 3), (2, 2, 6, 6)),
    (lambda: nn.Dense(4, 3), (2, 4)),
    (lambda: nn.BatchNorm1d(4), (2, 4)),
    (lambda: nn.BatchNorm2d(2), (2, 2, 4, 4)),
    (lambda: nn.LayerNorm((4,)), (2, 4)),
    (lambda: nn.GroupNorm(2, 4), (2, 4, 3, 3)),
    (lambda: nn.PReLU(), (2, 4)),
    (lambda: nn.MaxPool2d(2, 2), (2, 2, 4, 4)),
    (lambda: nn.AvgPool2d(2, 2), (2, 2, 4, 4)),
])
def test_layers_compute_in_the_to_float_type(make, shape):
    """Every layer reads its float32 parameters cast to the compute type (cast_param) and returns it."""
    for dtype, name in ((mstype.float16, "Float16"), (mstype.bfloat16, "BFloat16")):
        layer = make().to_float(dtype)
        x = ms.Tensor(np.random.default_rng(0).standard_normal(shape).astype(np.float32))
        out = layer(x)
        out = out[0] if isinstance(out, tuple) else out
        assert str(out.dtype) == name
        assert {str(p.dtype) for p in layer.get_parameters()} <= {"Float32"}
