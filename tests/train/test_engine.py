"""The step engine (tfspore/train/_engine.py): its three ways to run a step, and who uses them.

A non-sink GRAPH_MODE step fetches its batch inside the compiled call when the batches have
static shapes and no callback can read the batch at step begin; otherwise each batch is fetched
eagerly before step_begin. Both paths must train the same, call the callbacks the same, and hand
the same batch to step_end. N steps in one compiled loop (sink) must equal N single steps, and
nothing may be traced again per epoch or per train call.
"""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
import tfspore.dataset as ds
from tfspore import nn
from tfspore.train import Model
from tfspore.train import _engine
from tfspore.train.callback import Callback, LossMonitor, TimeMonitor


class _Recorder(Callback):
    """Records the loss and the batch at every step end (does not define a step-begin hook)."""

    def __init__(self):
        super().__init__()
        self.steps = []

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        self.steps.append((cb.cur_epoch_num, cb.cur_step_num, float(cb.net_outputs.asnumpy()),
                           cb.train_dataset_element[0].asnumpy().copy()))


class _ReadsAtBegin(Callback):
    """Reads the batch at step begin: forces the eager fetch."""

    def __init__(self):
        super().__init__()
        self.firsts = []

    def on_train_step_begin(self, run_context):
        self.firsts.append(float(run_context.original_args().train_dataset_element[0].asnumpy()[0, 0]))


def _data(n_batches=5, batch=4):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n_batches * batch, 3)).astype(np.float32)
    y = rng.integers(0, 2, n_batches * batch).astype(np.int32)
    return ds.NumpySlicesDataset((x, y), column_names=["data", "label"], shuffle=False).batch(batch, True)


def _train(callbacks, data=None, epochs=2):
    ms.set_seed(1)
    net = nn.Dense(3, 2, weight_init="normal")
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.1, 0.9))
    model.train(epochs, _data() if data is None else data, callbacks=callbacks)
    return model, [p.asnumpy() for p in net.trainable_params()]


@pytest.fixture()
def count_fetching(monkeypatch):
    calls = []
    original = _engine.StepEngine.step_on_iterator

    def counted(self, iterator):
        calls.append(1)
        return original(self, iterator)

    monkeypatch.setattr(_engine.StepEngine, "step_on_iterator", counted)
    return calls


def test_fetching_and_eager_paths_train_the_same(count_fetching):
    ms.set_context(mode=ms.GRAPH_MODE)
    fast = _Recorder()
    _, fast_weights = _train([fast])
    assert len(count_fetching) == 10  # 2 epochs x 5 batches, each fetched in the compiled step
    count_fetching.clear()
    slow, begin = _Recorder(), _ReadsAtBegin()
    _, slow_weights = _train([slow, begin])
    assert not count_fetching
    assert [s[:2] for s in fast.steps] == [s[:2] for s in slow.steps] == [(e, k) for e in (1, 2)
                                                                            for k in range(5 * e - 4, 5 * e + 1)]
    np.testing.assert_allclose([s[2] for s in fast.steps], [s[2] for s in slow.steps], rtol=1e-6)
    for a, b in zip(fast.steps, slow.steps):  # step_end sees the batch the step trained on
        np.testing.assert_array_equal(a[3], b[3])
    assert begin.firsts == [float(s[3][0, 0]) for s in slow.steps]
    for a, b in zip(fast_weights, slow_weights):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_builtin_callbacks_keep_the_fetching_path(count_fetching, capsys):
    ms.set_context(mode=ms.GRAPH_MODE)
    _train([LossMonitor(), TimeMonitor()])
    assert len(count_fetching) == 10
    assert capsys.readouterr().out.count("loss is") == 10
    assert _engine.step_begin_reads_batch([TimeMonitor(data_time=True)])
    assert not _engine.step_begin_reads_batch([TimeMonitor(), LossMonitor()])


def test_pynative_and_dynamic_shapes_fetch_eagerly(count_fetching):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    _train([_Recorder()])
    ms.set_context(mode=ms.GRAPH_MODE)
    rng = np.random.default_rng(0)
    partial = ds.NumpySlicesDataset((rng.standard_normal((10, 3)).astype(np.float32),
                                     np.zeros(10, np.int32)), column_names=["data", "label"], shuffle=False).batch(4)
    rec = _Recorder()
    _train([rec], data=partial, epochs=1)
    assert not count_fetching
    assert [s[3].shape[0] for s in rec.steps] == [4, 4, 2]


@pytest.mark.parametrize("claimed", [3, 7])
def test_a_dataset_size_that_is_wrong_still_trains_every_batch(count_fetching, claimed):
    """5 batches per epoch whatever get_dataset_size says: the batches past it take the eager path, and
    a size past the data ends the epoch at the data's end."""
    ms.set_context(mode=ms.GRAPH_MODE)
    data = _data()
    data.get_dataset_size = lambda: claimed
    rec = _Recorder()
    _, weights = _train([rec], data=data)
    _, reference = _train([_Recorder()])
    assert [s[:2] for s in rec.steps] == [(e, k) for e in (1, 2) for k in range(5 * e - 4, 5 * e + 1)]
    assert len(count_fetching) == 10 + 2 * min(claimed, 5) + (2 if claimed > 5 else 0)
    for a, b in zip(weights, reference):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_one_trace_across_epochs_and_train_calls():
    ms.set_context(mode=ms.GRAPH_MODE)
    model, _ = _train([], epochs=3)
    engine = model._engines[id(model.train_network)]
    (compiled, _), = engine._on_iterator.values()
    model.train(2, _data())
    assert list(model._engines) == [id(model.train_network)] and len(engine._on_iterator) == 1
    assert compiled.experimental_get_tracing_count() == 1


def test_which_callbacks_may_read_the_batch_at_step_begin(tmp_path):
    from tfspore.train.callback import LambdaCallback, ModelCheckpoint

    class Instance(Callback):
        pass

    inst = Instance()
    inst.step_begin = lambda run_context: None
    reads = _engine.step_begin_reads_batch
    assert reads([LambdaCallback(on_train_step_begin=lambda rc: None)])
    assert reads([LambdaCallback(step_begin=lambda rc: None)])
    assert not reads([LambdaCallback(on_train_step_end=lambda rc: None), ModelCheckpoint(directory=str(tmp_path))])
    assert reads([inst]) and reads([_ReadsAtBegin()]) and not reads([Instance(), _Recorder()])


def test_sink_loop_traces_once_across_epochs_and_train_calls():
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)
    net = nn.Dense(3, 2, weight_init="normal")
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.1, 0.9))
    data = _data()
    model.train(3, data, dataset_sink_mode=True, sink_size=2)
    sink_engine = model._sink_helper._connected._step_engine
    (loop,) = sink_engine._loops.values()
    model.train(2, data, dataset_sink_mode=True, sink_size=2)
    assert sink_engine._loops == {next(iter(sink_engine._loops)): loop}
    assert loop.experimental_get_tracing_count() == 1


@pytest.mark.parametrize("graph", [True, False])
def test_n_steps_on_an_iterator_equal_n_steps_on_data(graph):
    """steps_on_iterator(it, 3) trains as three step_on_data calls on the same batches, returning the last loss."""
    ms.set_context(mode=ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE)

    def build():
        ms.set_seed(1)
        net = nn.Dense(3, 2, weight_init="normal")
        train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                                          reduction="mean")),
                                    nn.Momentum(net.trainable_params(), 0.1, 0.9))
        train.set_train(True)
        return net, _engine.StepEngine(train)

    pipeline = _data().to_tf_dataset()
    net_a, engine_a = build()
    last = engine_a.steps_on_iterator(iter(pipeline), 3) if graph else None
    net_b, engine_b = build()
    losses = [engine_b.step_on_data(_engine.as_batch(e)) for e, _ in zip(pipeline, range(3))]
    if graph:
        np.testing.assert_allclose(last.asnumpy(), losses[-1].asnumpy(), rtol=1e-6)
        np.testing.assert_allclose(net_a.weight.asnumpy(), net_b.weight.asnumpy(), rtol=1e-6)
    assert len(losses) == 3 and losses[0].asnumpy() != losses[2].asnumpy()


def test_outputs_of_one_replica_are_not_reduced():
    outputs = (ms.Tensor(np.float32(1.0)),)
    assert _engine.reduce_outputs(tf.distribute.get_strategy(), outputs) is outputs
    assert _engine.distributed_strategy() is None
