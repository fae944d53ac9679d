"""Non-sink GRAPH_MODE steps that fetch their batch inside the compiled call (tfspore/train/_fetch_step.py).

Model takes that path when the batches have static shapes and no callback can read the batch at
step begin; otherwise each batch is fetched eagerly before step_begin. Both paths must train
the same, call the callbacks the same, and hand the same batch to step_end.
"""
import numpy as np
import pytest

import tfspore as ms
import tfspore.dataset as ds
from tfspore import nn
from tfspore.train import Model
from tfspore.train import _fetch_step
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
    original = _fetch_step.FetchingStep.__call__

    def counted(self, iterator):
        calls.append(1)
        return original(self, iterator)

    monkeypatch.setattr(_fetch_step.FetchingStep, "__call__", counted)
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
    assert _fetch_step.step_begin_reads_batch([TimeMonitor(data_time=True)])
    assert not _fetch_step.step_begin_reads_batch([TimeMonitor(), LossMonitor()])


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
    fetching = next(iter(model._fetching_steps.values()))
    model.train(2, _data())
    assert len(model._fetching_steps) == 1 and len(fetching._fns) == 1


def test_which_callbacks_may_read_the_batch_at_step_begin(tmp_path):
    from tfspore.train.callback import LambdaCallback, ModelCheckpoint

    class Instance(Callback):
        pass

    inst = Instance()
    inst.step_begin = lambda run_context: None
    reads = _fetch_step.step_begin_reads_batch
    assert reads([LambdaCallback(on_train_step_begin=lambda rc: None)])
    assert reads([LambdaCallback(step_begin=lambda rc: None)])
    assert not reads([LambdaCallback(on_train_step_end=lambda rc: None), ModelCheckpoint(directory=str(tmp_path))])
    assert reads([inst]) and reads([_ReadsAtBegin()]) and not reads([Instance(), _Recorder()])
