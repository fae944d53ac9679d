"""LossMonitor: validation, printed losses, NaN/Inf checks, fit metrics and sink mode."""
import re

import numpy as np
import pytest

import tfspore as ms
from tfspore.train.callback import LossMonitor

from tests.train.callback_loop import fake_train, loss_steps, model_eval
from tests.train.callback._common import API, LOSSES, printed_lines


@pytest.mark.parametrize("value, exc, msg", [
    (-1, ValueError, "For 'LossMonitor', the 'per_print_times' must be a non-negative int, but got -1."),
    (1.5, TypeError, "For 'LossMonitor', the 'per_print_times' must be a non-negative int, but got 1.5 of type float."),
    (True, TypeError,
     "For 'LossMonitor', the 'per_print_times' must be a non-negative int, but got True of type bool."),
])
def test_loss_monitor_validation(value, exc, msg):
    with pytest.raises(exc, match=re.escape(msg)):
        LossMonitor(value)


def test_loss_monitor_prints_float_losses(capsys):
    fake_train(API, LossMonitor(), 1, 3, loss_steps(API, LOSSES))
    assert printed_lines(capsys) == ["epoch: 1 step: 1, loss is 1.3855382204055786",
                              "epoch: 1 step: 2, loss is 1.5140371322631836",
                              "epoch: 1 step: 3, loss is 1.4326097965240479"]


def test_loss_monitor_counts_global_steps(capsys):
    fake_train(API, [LossMonitor(2)], 3, 3, loss_steps(API, LOSSES))
    assert [line.split(",")[0] for line in printed_lines(capsys)] == ["epoch: 1 step: 2", "epoch: 2 step: 1",
                                                                "epoch: 2 step: 3", "epoch: 3 step: 2"]
    fake_train(API, [LossMonitor(2)], 3, 3, loss_steps(API, LOSSES), initial_epoch=1)
    assert [line.split(",")[0] for line in printed_lines(capsys)] == ["epoch: 2 step: 2", "epoch: 3 step: 1",
                                                                "epoch: 3 step: 3"]


def test_loss_monitor_zero_never_prints_but_checks_nan(capsys):
    fake_train(API, [LossMonitor(0)], 2, 3, loss_steps(API, LOSSES))
    assert printed_lines(capsys) == []
    with pytest.raises(ValueError, match=re.escape("In epoch: 1 step: 2, loss is NAN or INF, training process "
                                                   "cannot continue, terminating training.")):
        fake_train(API, [LossMonitor(0)], 2, 3, loss_steps(API, [1.0, float("nan"), 1.0]))


def test_loss_monitor_inf_raises_and_tuple_output_prints_tensor(capsys):
    with pytest.raises(ValueError, match="In epoch: 1 step: 1, loss is NAN or INF"):
        fake_train(API, [LossMonitor()], 1, 1, loss_steps(API, [float("inf")]))
    capsys.readouterr()

    def tuple_step(cb):
        return (ms.Tensor(np.float32(np.inf if cb.cur_step_num == 2 else 1.3855382)), ms.Tensor(False),
                ms.Tensor(np.float32(1024.0)))
    fake_train(API, [LossMonitor()], 1, 2, tuple_step)
    assert printed_lines(capsys) == ["epoch: 1 step: 1, loss is 1.3855382", "epoch: 1 step: 2, loss is inf"]


def test_loss_monitor_vector_loss_prints_mean(capsys):
    fake_train(API, [LossMonitor()], 1, 1, lambda cb: ms.Tensor(np.array([1.0, 2.0], np.float32)))
    assert printed_lines(capsys) == ["epoch: 1 step: 1, loss is 1.5"]


def test_loss_monitor_prints_fit_metrics_and_runs_in_eval(capsys):
    valid = {"steps": 2, "frequency": 2, "metrics": {"acc": np.float64(1 / 3), "loss": np.float64(1.0457732677459717)}}
    fake_train(API, [LossMonitor(3)], 2, 3, loss_steps(API, LOSSES), valid=valid)
    assert printed_lines(capsys) == ["epoch: 1 step: 3, loss is 1.4326097965240479",
                              "epoch: 2 step: 3, loss is 1.4326097965240479",
                              "Eval result: epoch 2, metrics: {'acc': 0.3333333333333333, 'loss': 1.0457732677459717}"]
    model_eval(API, [LossMonitor()], 2, lambda cb: ms.Tensor(np.float32(0.5)), {"acc": 1.0})
    assert printed_lines(capsys) == ["epoch: 1 step: 1, loss is 0.5", "epoch: 1 step: 2, loss is 0.5"]


def test_loss_monitor_rollback_and_sink(capsys):
    lm = LossMonitor(2)
    lm._last_print_time = 10  # e.g. after a fault-recovery rollback
    fake_train(API, [lm], 1, 3, loss_steps(API, LOSSES))
    assert [line.split(",")[0] for line in printed_lines(capsys)] == ["epoch: 1 step: 2"]
    fake_train(API, [LossMonitor()], 2, 4, loss_steps(API, LOSSES), sink_size=4)
    assert [line.split(",")[0] for line in printed_lines(capsys)] == ["epoch: 1 step: 4", "epoch: 2 step: 4"]
