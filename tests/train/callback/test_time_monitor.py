"""TimeMonitor: printed epoch and step times, data time, data_size and sink mode."""
import re
import types

import numpy as np
import pytest

import tfspore as ms
from tfspore.train import callback as cbmod
from tfspore.train.callback import RunContext, TimeMonitor
from tfspore.train.callback._callback_base import _InternalCallbackParam

from tests.train.callback_loop import fake_train, loss_steps, model_eval
from tests.train.callback._common import API, LOSSES, TIME_LINE, printed_lines


def test_time_monitor_lines(capsys):
    fake_train(API, [TimeMonitor()], 2, 3, loss_steps(API, LOSSES), valid={"steps": 2, "metrics": {"acc": 1.0}})
    lines = printed_lines(capsys)
    assert len(lines) == 4 and all(re.fullmatch(TIME_LINE, line) for line in lines)
    assert [line.split()[0] for line in lines] == ["Eval", "Train", "Eval", "Train"]
    model_eval(API, [TimeMonitor()], 2, lambda cb: ms.Tensor(np.float32(0.5)), {})
    assert re.fullmatch(r"Eval epoch time: \d+\.\d{3} ms, per step time: \d+\.\d{3} ms", printed_lines(capsys)[0])


def test_time_monitor_data_time(capsys):
    fake_train(API, [TimeMonitor(data_time=True)], 1, 3, loss_steps(API, LOSSES))
    assert re.fullmatch(TIME_LINE + r" \(data time: \d+\.\d{3} ms\)", printed_lines(capsys)[0])


def test_time_monitor_per_step_uses_batch_num(capsys, monkeypatch):
    tm = TimeMonitor()
    times = iter([100.0, 100.3])
    monkeypatch.setattr(cbmod._time_monitor, "time", types.SimpleNamespace(time=lambda: next(times)))
    cb = _InternalCallbackParam(mode="train", batch_num=3)
    tm.epoch_begin(RunContext(cb))
    tm.epoch_end(RunContext(cb))
    assert printed_lines(capsys) == ["Train epoch time: 300.000 ms, per step time: 100.000 ms"]


def test_time_monitor_data_size_and_validation(capsys):
    with pytest.raises(TypeError, match=re.escape("For 'TimeMonitor', the 'data_time' must be a bool, but got 1 of "
                                                  "type int.")):
        TimeMonitor(data_time=1)
    TimeMonitor(data_size=0), TimeMonitor(data_size=-1), TimeMonitor(data_size=1.5)  # not checked here
    tm = TimeMonitor(data_size=4)
    cb = _InternalCallbackParam(mode="eval")
    tm.epoch_begin(RunContext(cb))
    tm.epoch_end(RunContext(cb))
    assert printed_lines(capsys)[0].startswith("Eval epoch time:")
    bad = TimeMonitor(data_size=0)
    with pytest.raises(ValueError, match=re.escape("For 'TimeMonitor', the 'step_size' must be a positive int, but "
                                                   "got 0.")):
        bad.epoch_end(RunContext(_InternalCallbackParam(batch_num=-1)))


def test_time_monitor_sink_data_time_from_helper(capsys):
    class Info:
        def epoch(self, epoch):
            return {"fetch_data_time": 1.25 * epoch}

    class Helper:
        def get_send_info(self, run_context):
            return Info()
    tm = TimeMonitor(data_time=True)
    cb = _InternalCallbackParam(mode="train", batch_num=2, dataset_sink_mode=True, dataset_helper=Helper(),
                                cur_epoch_num=2)
    tm.epoch_begin(RunContext(cb))
    tm.epoch_end(RunContext(cb))
    cb.dataset_helper = None
    tm.epoch_end(RunContext(cb))
    lines = printed_lines(capsys)
    assert lines[0].endswith(" (data time: 2.500 ms)") and re.fullmatch(TIME_LINE, lines[1])
