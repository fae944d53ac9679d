"""Keras callbacks in tfspore's loop (the bridge) and tfspore callbacks in keras.Model.fit."""
import csv
import os

import numpy as np
import pytest

keras = pytest.importorskip("keras")

import tfspore as ms  # noqa: E402
from tfspore import nn  # noqa: E402
from tfspore.train.callback import (Callback, EarlyStopping, History, LearningRateScheduler, LossMonitor,  # noqa: E402
                                    ModelCheckpoint, TimeMonitor, as_keras_callback)
from tfspore.train.callback._callback import (_CallbackManager, _check_old_style_callbacks,  # noqa: E402
                                              _eval_callbacks_in_fit)
from tfspore.train.callback._keras_bridge import KerasCallbackBridge  # noqa: E402

from tests.train.callback_loop import fake_train, loss_steps, model_eval, tfspore_api  # noqa: E402

API = tfspore_api()
LOSSES = [1.0, 2.0, 3.0]
VALID = {"steps": 2, "metrics": {"acc": np.float64(0.5)}, "eval_loss": 0.75}


def _net_opt(lr=0.1):
    net = nn.Dense(4, 3)
    return net, nn.Momentum(net.trainable_params(), lr, 0.9)


def _train(cbs, epochs=2, steps=3, losses=LOSSES, **kw):
    net, opt = _net_opt()
    kw.setdefault("optimizer", opt)
    kw.setdefault("network", net)
    kw.setdefault("train_network", net)
    return fake_train(API, cbs, epochs, steps, loss_steps(API, losses), **kw), net, opt


class KerasRecorder(keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.calls = []

    def _rec(name):  # noqa: N805
        def hook(self, *args, logs=None):
            self.calls.append((name, *args, dict(logs or {})))
        return hook

    on_train_begin = _rec("train_begin")
    on_epoch_begin = _rec("epoch_begin")
    on_train_batch_begin = _rec("batch_begin")
    on_train_batch_end = _rec("batch_end")
    on_epoch_end = _rec("epoch_end")
    on_train_end = _rec("train_end")
    on_test_begin = _rec("test_begin")
    on_test_batch_begin = _rec("test_batch_begin")
    on_test_batch_end = _rec("test_batch_end")
    on_test_end = _rec("test_end")


# --------------------------------------------------------------------------- hook translation
def test_manager_wraps_keras_callbacks_once():
    kcb = keras.callbacks.TerminateOnNaN()
    mgr = _CallbackManager([LossMonitor(), kcb])
    bridge = mgr.callbacks[1]
    assert isinstance(bridge, KerasCallbackBridge) and bridge.keras_callback is kcb
    assert _CallbackManager(kcb).callbacks[0] is bridge
    assert _eval_callbacks_in_fit([kcb, keras.callbacks.EarlyStopping()])[0] is kcb
    _check_old_style_callbacks([kcb], fit=True)


def test_keras_hooks_arguments_and_logs():
    rec = KerasRecorder()
    _train([rec], valid=VALID, initial_epoch=1, epochs=3)
    assert rec.params == {"verbose": 1, "epochs": 3, "steps": 3}
    calls = [c for c in rec.calls if c[0] != "batch_begin" and c[0] != "test_batch_begin"]
    assert calls[:6] == [("train_begin", {}), ("epoch_begin", 1, {}), ("batch_end", 0, {"loss": 1.0}),
                         ("batch_end", 1, {"loss": 1.5}), ("batch_end", 2, {"loss": 2.0}), ("test_begin", {})]
    assert calls[6:9] == [("test_batch_end", 0, {"loss": 1.0}), ("test_batch_end", 1, {"loss": 1.5}),
                          ("test_end", {"loss": 1.5, "acc": 0.5})]
    assert calls[9] == ("epoch_end", 1, {"loss": 2.0, "val_acc": 0.5, "val_loss": 0.75})
    assert calls[-1] == ("train_end", {"loss": 2.0, "val_acc": 0.5, "val_loss": 0.75})


def test_keras_callbacks_in_model_eval():
    rec = KerasRecorder()
    model_eval(API, [rec], 2, lambda cb: (ms.Tensor(np.float32(0.5)), None, None), {"acc": 1.0, "loss": 0.4})
    assert rec.params == {"verbose": 1, "epochs": 1, "steps": 2}
    assert [c for c in rec.calls if c[0] == "test_end"] == [("test_end", {"loss": 0.4, "acc": 1.0})]


# ----------------------------------------------------------------------------- Keras callbacks
def test_csv_logger(tmp_path):
    path = tmp_path / "log.csv"
    _train([keras.callbacks.CSVLogger(str(path))], valid=VALID)
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    assert rows == [["epoch", "loss", "val_acc", "val_loss"], ["0", "2.0", "0.5", "0.75"], ["1", "2.0", "0.5", "0.75"]]


def test_terminate_on_nan_stops(capsys):
    log = []
    _train([keras.callbacks.TerminateOnNaN()], epochs=3, losses=[1.0, float("nan"), 1.0], log=log)
    assert log == [("step", 1), ("step", 2), ("epoch_end", 2)]
    assert "Batch 1: Invalid loss, terminating training" in capsys.readouterr().out


def test_progbar_logger(capsys):
    _train([keras.callbacks.ProgbarLogger()], valid=VALID)
    out = capsys.readouterr().out
    assert "Epoch 1/2" in out and "Epoch 2/2" in out
    assert "3/3" in out and "loss: 2.0000" in out and "val_acc: 0.5000" in out


def test_keras_early_stopping(capsys):
    es = keras.callbacks.EarlyStopping(monitor="loss", patience=1, verbose=1)
    cb, _, _ = _train([es], epochs=5, steps=1,
                      losses=[3.0, 2.0, 2.5, 2.6, 1.0])
    assert cb.cur_epoch_num == 3
    assert "Epoch 3: early stopping" in capsys.readouterr().out


def test_keras_early_stopping_restores_weights():
    es = keras.callbacks.EarlyStopping(monitor="val_loss", patience=1, restore_best_weights=True)
    net, opt = _net_opt()
    losses = iter([0.5, 0.4, 0.6, 0.7])

    def step(cb):
        net.weight.assign_value(np.full(net.weight.shape, cb.cur_epoch_num, np.float32))
        return ms.Tensor(np.float32(1.0))

    class ValLoss(Callback):
        def on_eval_end(self, run_context):
            run_context.original_args().eval_results = {"eval_loss": next(losses)}
    fake_train(API, [ValLoss(), es], 4, 1, step, network=net, train_network=net, optimizer=opt,
               valid={"steps": 1, "metrics": {}})
    assert np.all(net.weight.asnumpy() == 2.0)


def test_keras_lambda_callback():
    seen = []
    lam = keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append((epoch, logs["loss"])),
                                         on_train_batch_end=lambda batch, logs: seen.append(batch))
    _train([lam])
    assert seen == [0, 1, 2, (0, 2.0), 0, 1, 2, (1, 2.0)]


def test_keras_learning_rate_scheduler_sets_parameter(capsys):
    sched = keras.callbacks.LearningRateScheduler(lambda epoch, lr: 0.1 / (epoch + 1), verbose=1)
    _, _, opt = _train([sched], epochs=3)
    assert float(opt.learning_rate.asnumpy()) == pytest.approx(0.1 / 3)
    assert "Epoch 3: LearningRateScheduler setting learning rate to 0.03333333333333333." in capsys.readouterr().out


def test_tensorboard_scalars(tmp_path):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    tb = keras.callbacks.TensorBoard(str(tmp_path), update_freq="batch", histogram_freq=1)
    _train([tb], valid=VALID)

    def value(proto):
        return float(proto.float_val[0]) if proto.float_val else float(np.frombuffer(proto.tensor_content,
                                                                                      np.float32)[0])

    def scalars(sub, tag):
        acc = EventAccumulator(str(tmp_path / sub), size_guidance={"tensors": 0})
        acc.Reload()
        return [(e.step, round(value(e.tensor_proto), 6)) for e in acc.Tensors(tag)], acc.Tags()["tensors"]
    epoch_loss, train_tags = scalars("train", "epoch_loss")
    assert epoch_loss == [(0, 2.0), (1, 2.0)]
    batch_loss, _ = scalars("train", "batch_loss")
    assert batch_loss == [(1, 1.0), (2, 1.5), (3, 2.0), (4, 1.0), (5, 1.5), (6, 2.0)]
    assert any(tag.endswith("/histogram") for tag in train_tags)
    val_acc, val_tags = scalars("validation", "epoch_acc")
    assert val_acc == [(0, 0.5), (1, 0.5)] and "epoch_loss" in val_tags
    eval_iter, _ = scalars("validation", "evaluation_loss_vs_iterations")
    assert [s for s, _ in eval_iter] == [3, 6]


def test_keras_model_view_weights():
    rec = KerasRecorder()
    _, net, _ = _train([rec], epochs=1)
    view = rec.model
    weights = view.get_weights()
    assert [w.shape for w in weights] == [(3, 4), (3,)]
    view.set_weights([np.zeros((3, 4), np.float32), np.ones(3, np.float32)])
    assert np.all(net.bias.asnumpy() == 1.0)
    assert view.optimizer.iterations == 3 and view.optimizer.learning_rate == pytest.approx(0.1)
    with pytest.raises(NotImplementedError):
        view.save("x.keras")


# ---------------------------------------------------------------- tfspore callbacks in keras
def _keras_model():
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)])
    model.compile(optimizer=keras.optimizers.SGD(0.1),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x = np.random.RandomState(0).randn(12, 4).astype(np.float32)
    y = (np.arange(12) % 3).astype(np.int32)
    return model, x, y


def test_as_keras_callback_loss_monitor_history_and_time(capsys):
    model, x, y = _keras_model()
    hist = History()
    model.fit(x, y, batch_size=4, epochs=2, verbose=0, validation_data=(x, y),
              callbacks=[as_keras_callback(LossMonitor(3)), as_keras_callback(hist),
                         as_keras_callback(TimeMonitor())])
    lines = [line for line in capsys.readouterr().out.splitlines() if line]
    assert [line.split(",")[0] for line in lines if line.startswith("epoch")] == ["epoch: 1 step: 3",
                                                                                   "epoch: 2 step: 3"]
    assert [line.split()[0] for line in lines if "epoch time" in line] == ["Eval", "Train", "Eval", "Train"]
    assert any(line.startswith("Eval result: epoch 1, metrics: {'loss':") for line in lines)
    assert hist.epoch == {"epoch": [1, 2]} and len(hist.history["loss"]) == 2


def test_as_keras_callback_stop_lr_and_checkpoint(tmp_path):
    model, x, y = _keras_model()

    class StopAt(Callback):
        def on_train_step_end(self, run_context):
            if run_context.original_args().cur_step_num == 4:
                run_context.request_stop()
    sched = LearningRateScheduler(lambda lr, step: 0.05 if step == 2 else lr)
    ckpt = ModelCheckpoint("k", str(tmp_path))
    history = model.fit(x, y, batch_size=4, epochs=5, verbose=0,
                        callbacks=[as_keras_callback(c) for c in (StopAt(), sched, ckpt)])
    assert len(history.epoch) == 2
    assert float(model.optimizer.learning_rate.numpy()) == pytest.approx(0.05)
    assert sorted(os.listdir(tmp_path))[-1] == "k-2_1.ckpt"
    with pytest.raises(TypeError, match="must be a tfspore Callback"):
        as_keras_callback(keras.callbacks.History())


def test_as_keras_callback_in_evaluate_and_early_stopping(capsys):
    model, x, y = _keras_model()
    model.evaluate(x, y, batch_size=4, verbose=0, callbacks=[as_keras_callback(LossMonitor())])
    assert [line.split(",")[0] for line in capsys.readouterr().out.splitlines()] == [
        "epoch: 1 step: 1", "epoch: 1 step: 2", "epoch: 1 step: 3"]
    es = EarlyStopping(monitor="eval_loss", patience=0)
    model.compile(optimizer=keras.optimizers.SGD(0.0), loss=keras.losses.SparseCategoricalCrossentropy(True))
    history = model.fit(x, y, batch_size=4, epochs=4, verbose=0, validation_data=(x, y),
                        callbacks=[as_keras_callback(es)])
    assert len(history.epoch) == 2  # no improvement with lr 0 in epoch 2


# ------------------------------------------------------------------- end to end with Model.fit
def test_model_fit_with_keras_callbacks(tmp_path, capsys):
    import tensorflow as tf
    net = nn.Dense(4, 3)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    model = ms.train.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt,
                           metrics={"acc"})
    x = np.random.RandomState(0).randn(10, 4).astype(np.float32)
    data = tf.data.Dataset.from_tensor_slices((x, (np.arange(10) % 3).astype(np.int32))).batch(4)
    path = tmp_path / "log.csv"
    model.fit(2, data, data, callbacks=[LossMonitor(), keras.callbacks.CSVLogger(str(path)),
                                        keras.callbacks.LearningRateScheduler(lambda e, lr: 0.1 / (e + 1))])
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["epoch", "loss", "val_acc", "val_loss"] and [r[0] for r in rows[1:]] == ["0", "1"]
    assert float(opt.learning_rate.asnumpy()) == pytest.approx(0.05)
    assert "epoch: 2 step: 3" in capsys.readouterr().out
