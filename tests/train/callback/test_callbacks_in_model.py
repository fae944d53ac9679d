"""The built-in callbacks end to end in Model.train, Model.fit and Model.eval."""
import re

import numpy as np
import pytest

import tfspore as ms
from tfspore import nn
from tfspore.train.callback import (Callback, EarlyStopping, History, LambdaCallback, LearningRateScheduler,
                                    LossMonitor, TimeMonitor)

from tests.train.callback._common import Recorder, Spy, TIME_LINE, printed_lines


def _model_and_data(metrics=None):
    import tensorflow as tf
    net = nn.Dense(4, 3)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    x = np.random.RandomState(0).randn(10, 4).astype(np.float32)
    y = (np.arange(10) % 3).astype(np.int32)
    data = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
    return ms.train.Model(net, loss, opt, metrics=metrics), data, opt


def test_model_train_with_builtin_callbacks(capsys):
    model, data, opt = _model_and_data()
    hist, rec = History(), Recorder()
    model.train(2, data, callbacks=[LossMonitor(), TimeMonitor(), hist, rec,
                                    LearningRateScheduler(lambda lr, step: lr * 0.5 if step == 3 else lr)])
    lines = printed_lines(capsys)
    assert [line.split(",")[0] for line in lines if line.startswith("epoch")] == [
        "epoch: 1 step: 1", "epoch: 1 step: 2", "epoch: 1 step: 3", "epoch: 2 step: 1", "epoch: 2 step: 2",
        "epoch: 2 step: 3"]
    assert all(re.fullmatch(r"epoch: \d step: \d, loss is \d+\.\d+(e-?\d+)?", line) for line in lines
               if line.startswith("epoch"))
    assert len([line for line in lines if re.fullmatch(TIME_LINE, line)]) == 2
    assert hist.epoch == {"epoch": [1, 2]} and len(hist.history["net_output"]) == 2
    assert rec.calls[0] == ("on_train_begin", 0) and rec.calls[-1] == ("on_train_end", 6)
    assert float(opt.learning_rate.asnumpy()) == pytest.approx(0.05)


def test_model_fit_and_eval_with_callbacks(capsys):
    model, data, _ = _model_and_data(metrics={"acc"})
    lam_seen = []
    model.fit(2, data, data, callbacks=[LossMonitor(3), TimeMonitor(),
                                        LambdaCallback(on_eval_end=lambda rc: lam_seen.append(1))])
    lines = printed_lines(capsys)
    assert re.fullmatch(r"Eval result: epoch 1, metrics: \{'acc': [0-9.]+\}", lines[2])
    assert [line.split()[0] for line in lines if "epoch time" in line] == ["Eval", "Train", "Eval", "Train"]
    assert lam_seen == []  # LambdaCallback is left out of fit's validation
    with pytest.raises(ValueError, match="For Spy callback"):
        model.fit(1, data, data, callbacks=[Spy()])
    model.eval(data, callbacks=[LossMonitor()])
    assert [line.split(",")[0] for line in printed_lines(capsys)] == ["epoch: 1 step: 1", "epoch: 1 step: 2",
                                                                "epoch: 1 step: 3"]


def test_model_train_stops_on_nan_and_early_stopping():
    model, data, _ = _model_and_data()
    es = EarlyStopping(monitor="loss", patience=5)
    model.train(2, data, callbacks=[es])
    assert es.stopped_epoch == 0

    class Stop(Callback):
        def on_train_step_end(self, run_context):
            run_context.request_stop()
    rec = Recorder()
    model.train(3, data, callbacks=[Stop(), rec])
    assert [c[0] for c in rec.calls].count("on_train_step_end") == 1
