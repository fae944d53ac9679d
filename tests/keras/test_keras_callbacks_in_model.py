"""Every built-in keras.callbacks class in tfspore's Model.train / fit (through the callback bridge)."""
import csv
import os
import warnings

import numpy as np
import pytest

keras = pytest.importorskip("keras")

import tfspore as ms  # noqa: E402
import tfspore.dataset as ds  # noqa: E402
from tfspore import nn  # noqa: E402
from tfspore.train import Model  # noqa: E402
from tfspore.train.callback import Callback  # noqa: E402

X = np.random.RandomState(0).randn(12, 4).astype(np.float32)
Y = (np.arange(12) % 3).astype(np.int32)
INIT = {"weight": np.random.RandomState(1).randn(3, 4).astype(np.float32) * 0.5, "bias": np.zeros(3, np.float32)}


def _model(lr=0.1, metrics=None):
    net = nn.Dense(4, 3)
    net.weight.set_data(ms.Tensor(INIT["weight"]))
    net.bias.set_data(ms.Tensor(INIT["bias"]))
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    return Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt, metrics=metrics), net, opt


def _data():
    return ds.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False).batch(4)


class EpochLog(Callback):
    def __init__(self):
        super().__init__()
        self.epochs, self.steps = [], []

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        self.epochs.append(cb.cur_epoch_num)
        self.steps.append(cb.cur_step_num)


class CrashAt(Callback):
    def __init__(self, epoch):
        super().__init__()
        self.epoch = epoch

    def on_train_epoch_begin(self, run_context):
        if run_context.original_args().cur_epoch_num == self.epoch:
            raise RuntimeError("killed")


def test_backup_and_restore_resumes_weights_optimizer_state_and_epoch(tmp_path):
    reference, ref_net, ref_opt = _model()
    reference.train(4, _data())

    backup = str(tmp_path / "backup")
    model, _, _ = _model()
    with pytest.raises(RuntimeError, match="killed"):
        model.train(4, _data(), callbacks=[keras.callbacks.BackupAndRestore(backup), CrashAt(3)])
    assert sorted(os.listdir(backup)) == ["latest.weights.h5", "training_metadata.json"]

    model, net, opt = _model()  # a fresh process would start from the initial weights too
    log = EpochLog()
    model.train(4, _data(), callbacks=[keras.callbacks.BackupAndRestore(backup), log])
    assert log.epochs == [3, 4] and log.steps == [9, 12]  # epochs 1-2 restored, not run again
    np.testing.assert_allclose(net.weight.asnumpy(), ref_net.weight.asnumpy(), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(opt.moments[0].asnumpy(), ref_opt.moments[0].asnumpy(), rtol=1e-6, atol=1e-7)
    assert not os.path.exists(backup)  # deleted at the end, as in Keras


def test_csv_logger_has_no_phantom_validation_columns(tmp_path):
    path = tmp_path / "train.csv"
    model, _, _ = _model()
    model.train(2, _data(), callbacks=[keras.callbacks.CSVLogger(str(path))])
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["epoch", "loss"] and [r[0] for r in rows[1:]] == ["0", "1"]
    assert "NA" not in sum(rows, [])
    path_fit = tmp_path / "fit.csv"
    model, _, _ = _model(metrics={"acc"})
    model.fit(2, _data(), _data(), valid_frequency=2, callbacks=[keras.callbacks.CSVLogger(str(path_fit))])
    with open(path_fit, newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["epoch", "loss", "val_loss"] and rows[1][2] == "NA" and rows[2][2] != "NA"


def test_early_stopping():
    model, _, _ = _model()
    log = EpochLog()
    model.train(6, _data(), callbacks=[keras.callbacks.EarlyStopping(monitor="loss", min_delta=100.0, patience=1),
                                       log])
    assert log.epochs == [1, 2]


def test_reduce_lr_on_plateau(capsys):
    model, _, opt = _model()
    model.train(3, _data(), callbacks=[keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1,
                                                                         min_delta=100.0, verbose=1)])
    assert float(opt.learning_rate.asnumpy()) == pytest.approx(0.025)  # reduced after epochs 2 and 3
    assert "ReduceLROnPlateau reducing learning rate to 0.05" in capsys.readouterr().out


def test_tensorboard(tmp_path):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    from tensorboard.util import tensor_util
    model, _, _ = _model()
    model.train(2, _data(), callbacks=[keras.callbacks.TensorBoard(str(tmp_path), histogram_freq=1)])
    acc = EventAccumulator(str(tmp_path / "train"), size_guidance={"tensors": 0})
    acc.Reload()
    losses = [(e.step, float(tensor_util.make_ndarray(e.tensor_proto))) for e in acc.Tensors("epoch_loss")]
    assert [s for s, _ in losses] == [0, 1] and losses[1][1] < losses[0][1]
    assert any(tag.endswith("/histogram") for tag in acc.Tags()["tensors"])


def test_progbar_logger(capsys):
    model, _, _ = _model()
    model.train(2, _data(), callbacks=[keras.callbacks.ProgbarLogger()])
    out = capsys.readouterr().out
    assert "Epoch 1/2" in out and "Epoch 2/2" in out and "3/3" in out and "loss:" in out


def test_model_checkpoint_weights_only_and_full_model(tmp_path):
    model, net, _ = _model()
    path = str(tmp_path / "w-{epoch}.weights.h5")
    model.train(2, _data(), callbacks=[keras.callbacks.ModelCheckpoint(path, save_weights_only=True)])
    assert sorted(os.listdir(tmp_path)) == ["w-1.weights.h5", "w-2.weights.h5"]
    import h5py
    with h5py.File(str(tmp_path / "w-2.weights.h5"), "r") as h5:
        saved = {d.attrs["name"]: d[()] for d in h5["tfspore_parameters"].values()}
    np.testing.assert_array_equal(saved["weight"], net.weight.asnumpy())
    assert "moments.weight" in saved  # the optimizer state too
    model, _, _ = _model()
    with pytest.raises(NotImplementedError, match="ModelCheckpoint tried to save a .keras model"):
        model.train(1, _data(), callbacks=[keras.callbacks.ModelCheckpoint(str(tmp_path / "m.keras"))])


def test_terminate_on_nan():
    model, net, _ = _model()
    net.weight.set_data(ms.Tensor(np.full((3, 4), np.nan, np.float32)))
    log = EpochLog()
    model.train(3, _data(), callbacks=[keras.callbacks.TerminateOnNaN(), log])
    assert log.steps == [1]


def test_lambda_callback():
    seen = []
    model, _, _ = _model()
    model.train(2, _data(), callbacks=[keras.callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: seen.append((epoch, round(logs["loss"], 3) > 0)))])
    assert seen == [(0, True), (1, True)]


def test_learning_rate_scheduler():
    model, _, opt = _model()
    model.train(3, _data(), callbacks=[keras.callbacks.LearningRateScheduler(lambda epoch, lr: 0.1 / (epoch + 1))])
    assert float(opt.learning_rate.asnumpy()) == pytest.approx(0.1 / 3)


def test_history():
    history = keras.callbacks.History()
    model, _, _ = _model()
    model.train(2, _data(), callbacks=[history])
    assert history.epoch == [0, 1] and len(history.history["loss"]) == 2


def test_remote_monitor_posts_each_epoch():
    model, _, _ = _model()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.train(1, _data(), callbacks=[keras.callbacks.RemoteMonitor(root="http://127.0.0.1:9")])
    assert any("Could not reach RemoteMonitor root server" in str(w.message) for w in caught)


def test_swap_ema_weights_says_it_needs_a_keras_ema_optimizer():
    model, _, _ = _model()
    with pytest.raises(ValueError, match="use_ema"):
        model.train(1, _data(), callbacks=[keras.callbacks.SwapEMAWeights()])
