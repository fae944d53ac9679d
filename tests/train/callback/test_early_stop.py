"""EarlyStopping: patience, min_delta, mode, baseline, restored weights and validation."""
import logging
import re

import numpy as np
import pytest

import tfspore as ms
from tfspore.train.callback import Callback, EarlyStopping, RunContext
from tfspore.train.callback._callback_base import _InternalCallbackParam

from tests.train.callback_loop import fake_train, loss_steps
from tests.train.callback._common import API, LOSSES, epoch_losses, net_and_opt, printed_lines


def test_early_stopping_default_patience_waits_for_no_improvement(capsys):
    es = EarlyStopping(monitor="loss", verbose=True)
    log = []
    fake_train(API, [es], 5, 1, epoch_losses([3.0, 2.0, 2.5, 1.0, 0.5]), log=log)
    assert [s for s in log if s[0] == "epoch_end"] == [("epoch_end", 1), ("epoch_end", 2), ("epoch_end", 3)]
    assert es.stopped_epoch == 3
    assert printed_lines(capsys) == ["Epoch 00003: early stopping"]


def test_early_stopping_patience_and_min_delta():
    es = EarlyStopping(monitor="loss", patience=2, min_delta=-0.5)
    assert es.min_delta == 0.5
    cb = fake_train(API, [es], 6, 1, epoch_losses([3.0, 2.8, 2.7, 2.6, 1.0, 0.5]))
    assert cb.cur_epoch_num == 3 and es.stopped_epoch == 3


def test_early_stopping_on_fit_metrics_and_mode():
    accs = iter([0.5, 0.6, 0.6, 0.55, 0.7])

    class Acc(Callback):  # validation result changes every epoch
        def on_eval_end(self, run_context):
            cb = run_context.original_args()
            value = next(accs)
            cb.metrics = {"acc": value}
            cb.eval_results = {"acc": value, "eval_loss": 1.0}
    es = EarlyStopping(monitor="acc", patience=2)
    cb = fake_train(API, [es, Acc()], 5, 1, loss_steps(API, LOSSES), valid={"steps": 1, "metrics": {}})
    assert cb.cur_epoch_num == 4
    es_min = EarlyStopping(monitor="acc", mode="min")
    assert es_min.best == np.inf


def test_early_stopping_zero_value_counts_and_missing_value_warns(caplog):
    es = EarlyStopping(monitor="loss", patience=1)
    cb = fake_train(API, [es], 3, 1, epoch_losses([0.0, 0.0, 0.0]))
    assert cb.cur_epoch_num == 2 and es.best == 0.0
    es2 = EarlyStopping()
    with caplog.at_level(logging.WARNING, logger="tfspore"):
        cb = fake_train(API, [es2], 3, 1, loss_steps(API, LOSSES))
    assert cb.cur_epoch_num == 3
    assert "Early stopping is conditioned on eval_loss, which is not available. Available choices are: {'loss'}" \
        in caplog.text


def test_early_stopping_baseline():
    es = EarlyStopping(monitor="loss", patience=1, baseline=1.0)
    assert es.baseline == 1.0
    cb = fake_train(API, [es], 5, 1, epoch_losses([3.0, 2.0, 0.5, 0.4, 0.3]))
    assert cb.cur_epoch_num == 1  # improved, but never past the baseline: patience ran out
    es0 = EarlyStopping(monitor="loss", baseline=0)
    assert es0.baseline == 0


def test_early_stopping_restores_best_weights(capsys):
    net, _ = net_and_opt()
    weight = net.weight

    def step(cb):
        weight.assign_value(np.full(weight.shape, cb.cur_epoch_num, np.float32))
        return ms.Tensor(np.float32([2.0, 1.0, 1.5, 1.6][cb.cur_epoch_num - 1]))
    es = EarlyStopping(monitor="loss", restore_best_weights=True, verbose=True)
    fake_train(API, [es], 4, 1, step, train_network=net)
    assert np.all(weight.asnumpy() == 2.0)
    assert printed_lines(capsys) == ["Restoring model weights from the end of the best epoch.",
                                     "Epoch 00003: early stopping"]


@pytest.mark.parametrize("kwargs, exc, msg", [
    ({"monitor": 1}, TypeError, "For 'EarlyStopping', the 'monitor' must be str, but got 1 of type int."),
    ({"min_delta": "a"}, TypeError,
     "For 'EarlyStopping', the 'min_delta' must be float or int, but got 'a' of type str."),
    ({"patience": -1}, ValueError, "For 'EarlyStopping', the 'patience' must be a non-negative int, but got -1."),
    ({"verbose": 1}, TypeError, "For 'EarlyStopping', the 'verbose' must be a bool, but got 1 of type int."),
    ({"mode": "best"}, ValueError,
     "For 'EarlyStopping', the 'mode' must be one of ['auto', 'min', 'max'], but got 'best'."),
    ({"restore_best_weights": None}, TypeError,
     "the 'restore_best_weights' must be a bool, but got None of type NoneType."),
])
def test_early_stopping_validation(kwargs, exc, msg):
    with pytest.raises(exc, match=re.escape(msg)):
        EarlyStopping(**kwargs)


def test_early_stopping_non_scalar_monitor():
    class Vec(Callback):
        def on_train_epoch_end(self, run_context):
            pass
    es = EarlyStopping(monitor="acc")
    cb = _InternalCallbackParam(eval_results={"acc": np.array([1.0, 2.0])}, cur_epoch_num=1)
    with pytest.raises(ValueError, match="EarlyStopping only supports scalar monitor now"):
        es.on_train_epoch_end(RunContext(cb))
