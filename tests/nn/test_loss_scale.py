"""Loss scaling: managers, update cells, TrainOneStepWithLossScaleCell, functional loss scalers.

Numbers are compared with real MindSpore in tests/parity/test_loss_scale_parity.py; here: errors,
GRAPH and PYNATIVE behaviour, one trace for every step, Model's host-side manager update, and a
two-replica MirroredStrategy (the overflow status is summed over the replicas).
"""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
import tfspore.dataset as ds
from tfspore import amp, nn
from tfspore.train import Model

W0 = np.array([[0.2, -0.1, 0.4], [0.3, 0.05, -0.2]], np.float32)


def _net():
    net = nn.Dense(3, 2)
    net.weight.set_data(ms.Tensor(W0.copy()))
    net.bias.set_data(ms.Tensor(np.zeros(2, np.float32)))
    return net


def _data(n=5, inf_at=None, seed=0):
    rng = np.random.default_rng(seed)
    xs = [rng.standard_normal((4, 3)).astype(np.float32) for _ in range(n)]
    ys = [rng.standard_normal((4, 2)).astype(np.float32) for _ in range(n)]
    if inf_at is not None:
        xs[inf_at][0, 1] = np.inf
    return xs, ys


# ----------------------------------------------------------------- errors
@pytest.mark.parametrize("build, err, text", [
    (lambda: amp.FixedLossScaleManager(0.5), ValueError, "'loss_scale' must be >= 1, but got 0.5"),
    (lambda: amp.DynamicLossScaleManager(init_loss_scale=0), ValueError, "'init_loss_scale' must be > 1, but got 0"),
    (lambda: amp.DynamicLossScaleManager(scale_window=0), ValueError,
     "For 'DynamicLossScaleManager', the 'scale_window' must be a positive int, but got 0."),
    (lambda: amp.DynamicLossScaleManager(scale_window=2.5), TypeError,
     "For 'DynamicLossScaleManager', the 'scale_window' must be a positive int, but got 2.5 of type float."),
    (lambda: amp.DynamicLossScaleManager(scale_window=False), TypeError,
     "'scale_window' must be a positive int, but got False of type bool."),
    (lambda: amp.DynamicLossScaleManager(scale_factor=-2), ValueError, "'scale_factor' must be > 0, but got -2"),
    (lambda: amp.StaticLossScaler(0), ValueError, "'scale_value' must be > 1, but got 0"),
    (lambda: amp.StaticLossScaler("2"), TypeError,
     "'scale_value' should be one of '['float', 'int']', but got type 'str'"),
    (lambda: amp.DynamicLossScaler(8, 0, 2), ValueError,
     "For 'DynamicLossScaler', the 'scale_factor' must be a positive int, but got 0."),
    (lambda: amp.DynamicLossScaler(8, 2, 1.0), TypeError,
     "For 'DynamicLossScaler', the 'scale_window' must be a positive int, but got 1.0 of type float."),
    (lambda: amp.all_finite(ms.Tensor([1.0])), TypeError, "For 'all_finite', the 'inputs' must be a tuple or list"),
])
def test_argument_errors(build, err, text):
    with pytest.raises(err) as e:
        build()
    assert text in str(e.value)


@pytest.mark.parametrize("scale_sense, err, text", [
    (1024.0, TypeError, "the 'scale_sense' must be Cell or Tensor, but got 'scale_sense' type: <class 'float'>"),
    ([2.0], TypeError, "but got 'scale_sense' type: <class 'list'>"),
    (np.array(2.0, np.float32), TypeError, "<class 'numpy.ndarray'>"),
    (ms.Tensor(np.ones((2,), np.float32)), ValueError,
     "For 'TrainOneStepWithLossScaleCell', the shape of 'scale_sense' must be (1,) or (), but got (2,)."),
    (ms.Tensor(np.ones((1, 1), np.float32)), ValueError, "must be (1,) or (), but got (1, 1)."),
])
def test_scale_sense_errors(scale_sense, err, text):
    net = _net()
    with pytest.raises(err) as e:
        nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()),
                                         nn.Momentum(net.trainable_params(), 0.1, 0.9), scale_sense)
    assert text in str(e.value)


def test_set_sense_scale():
    net = _net()
    train = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()),
                                             nn.Momentum(net.trainable_params(), 0.1, 0.9),
                                             ms.Tensor([1024.0], ms.float32))
    assert train.scale_sense.name == "scale_sense" and train.scale_sense.shape == (1,)
    train.set_sense_scale(ms.Tensor([8.0], ms.float32))
    np.testing.assert_array_equal(train.scale_sense.asnumpy(), [8.0])
    with pytest.raises(TypeError, match="the type of 'sens' must be Tensor, but got <class 'float'>"):
        train.set_sense_scale(2.0)


def test_parameters_and_names():
    net = _net()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    train = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), opt,
                                             amp.DynamicLossScaleManager(16, 2, 3).get_update_cell())
    assert [p.name for p in train.get_parameters()] == [
        "weight", "bias", "scale_sense", "global_step", "learning_rate", "momentum", "moments.weight",
        "moments.bias", "current_iterator_step", "last_overflow_iterator_step"]
    assert train.scale_sense.dtype == ms.float32 and float(train.scale_sense.asnumpy()) == 16.0
    int_scale = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), opt, ms.Tensor(8, ms.int32))
    assert int_scale.scale_sense.dtype == ms.int32  # a Tensor scale keeps its dtype, as in MindSpore


def test_checkpoint_round_trip_restores_scale_state(tmp_path):
    xs, ys = _data(n=2, inf_at=1)
    net = _net()
    train = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()),
                                             nn.Momentum(net.trainable_params(), 0.1, 0.9),
                                             nn.DynamicLossScaleUpdateCell(16.0, 2, 3))
    for x, y in zip(xs, ys):
        train(ms.Tensor(x), ms.Tensor(y))
    ms.save_checkpoint(train, str(tmp_path / "ls.ckpt"))
    saved = ms.load_checkpoint(str(tmp_path / "ls.ckpt"))
    assert float(saved["scale_sense"].asnumpy()) == 8.0
    assert int(saved["current_iterator_step"].asnumpy()) == 3 and int(saved["last_overflow_iterator_step"].asnumpy()) == 2
    net2 = _net()
    train2 = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net2, nn.MSELoss()),
                                              nn.Momentum(net2.trainable_params(), 0.1, 0.9),
                                              nn.DynamicLossScaleUpdateCell(16.0, 2, 3))
    ms.load_param_into_net(train2, saved)
    assert float(train2.scale_sense.asnumpy()) == 8.0 and int(train2.loss_scaling_manager.cur_iter.asnumpy()) == 3


# ----------------------------------------------------------------- behaviour in both modes
def test_finite_steps_match_unscaled_training(mode):
    """With finite gradients, scaling the loss and dividing the gradients back changes nothing."""
    xs, ys = _data()
    net_a, net_b = _net(), _net()
    scaled = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net_a, nn.MSELoss()),
                                              nn.Momentum(net_a.trainable_params(), 0.1, 0.9),
                                              nn.DynamicLossScaleUpdateCell(2.0 ** 12, 2, 2))
    plain = nn.TrainOneStepCell(nn.WithLossCell(net_b, nn.MSELoss()), nn.Momentum(net_b.trainable_params(), 0.1, 0.9))
    scales = []
    for x, y in zip(xs, ys):
        loss, overflow, scale = scaled(ms.Tensor(x), ms.Tensor(y))
        ref = plain(ms.Tensor(x), ms.Tensor(y))
        assert overflow.dtype == ms.bool_ and overflow.shape == () and not bool(overflow.asnumpy())
        np.testing.assert_allclose(loss.asnumpy(), ref.asnumpy(), rtol=1e-6)
        scales.append(float(scale.asnumpy()))
    np.testing.assert_allclose(net_a.weight.asnumpy(), net_b.weight.asnumpy(), rtol=1e-6, atol=1e-7)
    assert scales == [4096.0, 8192.0, 8192.0, 16384.0, 16384.0]  # x2 every scale_window=2 good steps


@pytest.mark.parametrize("bad", [np.inf, np.nan, -np.inf])
def test_overflow_skips_update_and_halves_scale(mode, bad):
    xs, ys = _data()
    xs[1][2, 0] = bad
    net = _net()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    update = nn.DynamicLossScaleUpdateCell(1024.0, 2, 1000)
    train = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), opt, update)
    train(ms.Tensor(xs[0]), ms.Tensor(ys[0]))
    state = {p.name: p.asnumpy().copy() for p in train.get_parameters()}
    loss, overflow, scale = train(ms.Tensor(xs[1]), ms.Tensor(ys[1]))
    assert bool(overflow.asnumpy()) and not np.isfinite(loss.asnumpy())
    assert float(scale.asnumpy()) == 512.0 == float(train.scale_sense.asnumpy())
    after = {p.name: p.asnumpy() for p in train.get_parameters()}
    for name in ("weight", "bias", "moments.weight", "moments.bias", "global_step"):
        np.testing.assert_array_equal(after[name], state[name], err_msg=name)
    assert int(after["current_iterator_step"]) == 3 and int(after["last_overflow_iterator_step"]) == 2
    _, overflow, _ = train(ms.Tensor(xs[2]), ms.Tensor(ys[2]))
    assert not bool(overflow.asnumpy()) and int(opt.global_step.asnumpy()[0]) == 2
    assert np.isfinite(net.weight.asnumpy()).all()


def test_tensor_scale_sense_overflow_keeps_scale(mode):
    xs, ys = _data(inf_at=1)
    net = _net()
    train = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()),
                                             nn.Momentum(net.trainable_params(), 0.1, 0.9), ms.Tensor(256.0))
    flags = []
    for x, y in zip(xs, ys):
        _, overflow, scale = train(ms.Tensor(x), ms.Tensor(y))
        flags.append(bool(overflow.asnumpy()))
        assert float(scale.asnumpy()) == 256.0
    assert flags == [False, True, False, False, False]
    assert np.isfinite(net.weight.asnumpy()).all()


def test_update_cell_called_directly(mode):
    cell = nn.DynamicLossScaleUpdateCell(8.0, 2, 2)
    scale = ms.Parameter(ms.Tensor(8.0, ms.float32), name="loss_scale")
    seen = []
    for overflow in (False, False, True, True, True, True, False, False):
        out = cell(scale, ms.Tensor(overflow))
        assert bool(out.asnumpy()) is overflow
        seen.append(float(scale.asnumpy()))
    assert seen == [8.0, 16.0, 8.0, 4.0, 2.0, 1.0, 1.0, 2.0]
    assert int(cell.cur_iter.asnumpy()) == 9 and int(cell.last_overflow_iter.asnumpy()) == 8
    fixed = nn.FixedLossScaleUpdateCell(4.0)
    assert bool(fixed(scale, ms.Tensor(True)).asnumpy()) and float(scale.asnumpy()) == 2.0


def test_graph_mode_traces_once():
    ms.set_context(mode=ms.GRAPH_MODE)
    xs, ys = _data(n=6, inf_at=2)
    net = _net()
    train = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()),
                                             nn.Momentum(net.trainable_params(), 0.1, 0.9),
                                             nn.DynamicLossScaleUpdateCell(64.0, 2, 2))
    flags = []
    for i, (x, y) in enumerate(zip(xs, ys)):
        flags.append(bool(train(ms.Tensor(x), ms.Tensor(y))[1].asnumpy()))
    assert flags == [False, False, True, False, False, False]
    assert len(train._compiled) == 1
    fn = next(iter(train._compiled.values()))
    assert fn.experimental_get_tracing_count() == 1
    assert float(train.scale_sense.asnumpy()) == 128.0  # 64, 128 (step 2), 64 (overflow), 64, 128, 128


def test_set_sense_scale_in_graph_mode_reuses_the_trace():
    ms.set_context(mode=ms.GRAPH_MODE)
    xs, ys = _data(n=3)
    net_a, net_b = _net(), _net()
    train = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net_a, nn.MSELoss()),
                                             nn.SGD(net_a.trainable_params(), 0.1), ms.Tensor([4.0], ms.float32))
    plain = nn.TrainOneStepCell(nn.WithLossCell(net_b, nn.MSELoss()), nn.SGD(net_b.trainable_params(), 0.1))
    scales = []
    for value, x, y in zip((4.0, 2.0 ** 20, 1.0), xs, ys):
        train.set_sense_scale(ms.Tensor([value], ms.float32))
        _, overflow, scale = train(ms.Tensor(x), ms.Tensor(y))
        plain(ms.Tensor(x), ms.Tensor(y))
        assert not bool(overflow.asnumpy())
        scales.append(scale.asnumpy().tolist())
    assert scales == [[4.0], [2.0 ** 20], [1.0]]
    np.testing.assert_allclose(net_a.weight.asnumpy(), net_b.weight.asnumpy(), rtol=1e-5, atol=1e-7)
    assert [f.experimental_get_tracing_count() for f in train._compiled.values()] == [1]


def test_functional_loss_scaler_in_graph():
    scaler = amp.DynamicLossScaler(1024, 2, 2)

    @tf.function(autograph=False)
    def step(g):
        grads = scaler.unscale((ms.Tensor(g),))
        finite = amp.all_finite(grads)
        scaler.adjust(finite)
        return tf.convert_to_tensor(grads[0])

    out = step(tf.constant([2048.0, 1024.0]))
    np.testing.assert_array_equal(out.numpy(), [2.0, 1.0])
    step(tf.constant([1.0, 1.0]))
    assert float(scaler.scale_value.asnumpy()) == 2048.0 and int(scaler.counter.asnumpy()) == 0
    step(tf.constant([np.inf, 1.0]))
    assert float(scaler.scale_value.asnumpy()) == 1024.0
    assert step.experimental_get_tracing_count() == 1


# ----------------------------------------------------------------- Model
class _Record(ms.Callback):
    def __init__(self, mgr):
        self.mgr = mgr
        self.rows = []

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        loss, overflow, scale = cb.net_outputs
        self.rows.append((bool(overflow.asnumpy()), float(scale.asnumpy()), self.mgr.get_loss_scale(),
                          self.mgr.cur_iter))


def _dataset(inf_at):
    xs, ys = _data(n=5, inf_at=inf_at)
    return ds.NumpySlicesDataset((np.concatenate(xs), np.concatenate(ys)), column_names=["x", "y"],
                                 shuffle=False).batch(4)


def test_model_updates_manager_on_host(mode):
    mgr = amp.DynamicLossScaleManager(init_loss_scale=32, scale_factor=2, scale_window=2)
    net = _net()
    model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9), loss_scale_manager=mgr)
    assert type(model.train_network).__name__ == "TrainOneStepWithLossScaleCell"
    rec = _Record(mgr)
    model.train(1, _dataset(inf_at=2), callbacks=[rec], dataset_sink_mode=False)
    # the in-graph update cell and the host-side manager follow the same rule from the same start
    assert [r[0] for r in rec.rows] == [False, False, True, False, False]
    assert [r[1] for r in rec.rows] == [32.0, 64.0, 32.0, 32.0, 64.0]
    assert [r[2] for r in rec.rows] == [32, 64, 32.0, 32.0, 64.0]
    assert [r[3] for r in rec.rows] == [2, 3, 4, 5, 6]


def test_model_fixed_manager_without_drop_does_not_update_on_host():
    mgr = amp.FixedLossScaleManager(64.0, drop_overflow_update=False)
    net = _net()
    model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9, loss_scale=64.0),
                  loss_scale_manager=mgr)
    assert type(model.train_network).__name__ == "TrainOneStepCell"
    ref = _net()
    plain = nn.TrainOneStepCell(nn.WithLossCell(ref, nn.MSELoss()), nn.Momentum(ref.trainable_params(), 0.1, 0.9))
    model.train(1, _dataset(inf_at=None), dataset_sink_mode=False)
    for x, y in zip(*_data(n=5)):
        plain(ms.Tensor(x), ms.Tensor(y))
    np.testing.assert_allclose(net.weight.asnumpy(), ref.weight.asnumpy(), rtol=1e-5, atol=1e-6)


def test_model_sink_mode_leaves_manager_alone():
    mgr = amp.DynamicLossScaleManager(init_loss_scale=32, scale_factor=2, scale_window=2)
    net = _net()
    model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9), loss_scale_manager=mgr)
    model.train(1, _dataset(inf_at=2), dataset_sink_mode=True)
    assert mgr.cur_iter == 1 and mgr.get_loss_scale() == 32
    assert float(model.train_network.scale_sense.asnumpy()) == 64.0


# ----------------------------------------------------------------- tf.distribute
def test_mirrored_overflow_on_one_replica_skips_every_replica(mirrored_strategy):
    strategy = mirrored_strategy
    ms.set_context(mode=ms.GRAPH_MODE)
    xs, ys = _data(n=4, seed=2)
    xs[1][0, 0] = np.inf  # row 0 goes to the first replica only
    with strategy.scope():
        net = _net()
        opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
        train = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), opt,
                                                 nn.DynamicLossScaleUpdateCell(16.0, 2, 2))
        fn = train.compiled_construct()
        rows = []
        for step, (x, y) in enumerate(zip(xs, ys)):
            data = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(4))
            before = [v.numpy().copy() for v in net.weight._var.values]
            loss, overflow, scale = strategy.run(fn, args=next(iter(data)))
            flags = [bool(t.numpy()) for t in strategy.experimental_local_results(overflow)]
            replicas = [v.numpy() for v in net.weight._var.values]
            np.testing.assert_array_equal(replicas[0], replicas[1])
            rows.append((flags, float(strategy.experimental_local_results(scale)[0].numpy()),
                         int(opt.global_step.asnumpy()[0]), bool((replicas[0] == before[0]).all())))
    assert rows[1][0] == [True, True]  # the finite replica sees the other's overflow
    assert [r[0] for r in rows] == [[False, False], [True, True], [False, False], [False, False]]
    assert [r[1] for r in rows] == [16.0, 8.0, 8.0, 16.0]
    assert [r[2] for r in rows] == [1, 1, 2, 3]
    assert [r[3] for r in rows] == [False, True, False, False]


def test_mirrored_model_with_loss_scale_manager(mirrored_strategy):
    strategy = mirrored_strategy
    mgr = amp.DynamicLossScaleManager(init_loss_scale=32, scale_factor=2, scale_window=2)
    with strategy.scope():
        net = _net()
        model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9), loss_scale_manager=mgr)
        rec = _Record(mgr)
        model.train(1, _dataset(inf_at=2), callbacks=[rec], dataset_sink_mode=False)
    assert [r[0] for r in rec.rows] == [False, False, True, False, False]
    assert [r[1] for r in rec.rows] == [32.0, 64.0, 32.0, 32.0, 64.0]
    assert [r[2] for r in rec.rows] == [32, 64, 32.0, 32.0, 64.0]
    replicas = [v.numpy() for v in net.weight._var.values]
    np.testing.assert_array_equal(replicas[0], replicas[1])
    assert np.isfinite(replicas[0]).all()
    assert int(model.train_network.optimizer.global_step.asnumpy()[0]) == 4


def test_operator_attributes_subclasses_call():
    # Model-zoo subclasses (Transformer's, BERT's) call MindSpore's operator attributes of the cell.
    net = nn.Dense(3, 2)
    cell = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()),
                                            nn.Momentum(net.trainable_params(), 0.1, 0.9),
                                            scale_sense=ms.Tensor([8.0], ms.float32))
    a = ms.Tensor(np.array([1.0, -2.0, 3.0], np.float32))
    b = ms.Tensor(np.array([1.0, 2.0, 1.0], np.float32))
    doubled = cell.hyper_map(lambda g: g * 2, (a, b))
    np.testing.assert_allclose(doubled[0].asnumpy(), [2.0, -4.0, 6.0])
    np.testing.assert_allclose(doubled[1].asnumpy(), [2.0, 4.0, 2.0])
    assert float(cell.reduce_sum(a).asnumpy()) == 2.0
    assert cell.reduce_all(ms.Tensor(np.array([True, False]))).asnumpy().item() is False
    np.testing.assert_array_equal(cell.less_equal(a, b).asnumpy(), [True, True, False])
    np.testing.assert_array_equal(cell.equal(a, b).asnumpy(), [True, False, False])
    np.testing.assert_array_equal(cell.logic_not(cell.equal(a, b)).asnumpy(), [False, True, True])
    np.testing.assert_allclose(cell.allreduce(a).asnumpy(), a.asnumpy())  # one device: the value itself
