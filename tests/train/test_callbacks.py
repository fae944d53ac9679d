"""Callbacks: the base class, RunContext, the manager, and the built-in callbacks (except ModelCheckpoint)."""
import copy
import json
import logging
import os
import pickle
import re
import signal
import sys
import types

import numpy as np
import pytest

import tfspore as ms
from tfspore import nn
from tfspore.train import callback as cbmod
from tfspore.train.callback import (BackupAndRestore, Callback, EarlyStopping, History, LambdaCallback,
                                    LearningRateScheduler, LossMonitor, OnRequestExit, ReduceLROnPlateau, RunContext,
                                    TimeMonitor)
from tfspore.train.callback._callback import (_CallbackManager, _InternalCallbackParam, _check_old_style_callbacks,
                                              _eval_callbacks_in_fit, _handle_loss, _normalize_callbacks)

sys.path.insert(0, os.path.dirname(__file__))
from callback_loop import fake_train, loss_steps, model_eval, tfspore_api  # noqa: E402

API = tfspore_api()
LOSSES = [1.3855382204055786, 1.5140371322631836, 1.4326097965240479]
HOOKS = ["on_train_begin", "on_train_epoch_begin", "on_train_step_begin", "on_train_step_end",
         "on_train_epoch_end", "on_train_end", "on_eval_begin", "on_eval_epoch_begin", "on_eval_step_begin",
         "on_eval_step_end", "on_eval_epoch_end", "on_eval_end"]


def _lines(capsys):
    return [line for line in capsys.readouterr().out.splitlines() if line]


def _net_and_opt(lr=0.1):
    net = nn.Dense(4, 3)
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    return net, opt


class Recorder(Callback):
    """Records every new-name hook (and lets the old names forward)."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def __getattribute__(self, name):
        if name in HOOKS:
            calls = object.__getattribute__(self, "calls")
            base = object.__getattribute__(self, name)

            def hook(run_context):
                calls.append((name, run_context.original_args().get("cur_step_num")))
                return base(run_context)
            return hook
        return object.__getattribute__(self, name)


# ------------------------------------------------------------------------------------ base class
def test_new_hooks_forward_to_old_names():
    seen = []

    class Old(Callback):
        pass

    for old in ("begin", "epoch_begin", "step_begin", "step_end", "epoch_end", "end"):
        setattr(Old, old, lambda self, rc, _n=old: seen.append(_n))
    cb, rc = Old(), RunContext({})
    for new in HOOKS:
        getattr(cb, new)(rc)
    assert seen == ["begin", "epoch_begin", "step_begin", "step_end", "epoch_end", "end"] * 2


def test_callback_is_a_context_manager():
    cb = Callback()
    with cb as entered:
        assert entered is cb
    assert cb.__exit__(None, None, None) is None


def test_call_order_matches_mindspore_train():
    rec = Recorder()
    fake_train(API, [rec], 2, 3, loss_steps(API, LOSSES))
    assert rec.calls == [("on_train_begin", 0), ("on_train_epoch_begin", 0),
                         ("on_train_step_begin", 1), ("on_train_step_end", 1), ("on_train_step_begin", 2),
                         ("on_train_step_end", 2), ("on_train_step_begin", 3), ("on_train_step_end", 3),
                         ("on_train_epoch_end", 3), ("on_train_epoch_begin", 3),
                         ("on_train_step_begin", 4), ("on_train_step_end", 4), ("on_train_step_begin", 5),
                         ("on_train_step_end", 5), ("on_train_step_begin", 6), ("on_train_step_end", 6),
                         ("on_train_epoch_end", 6), ("on_train_end", 6)]


def test_stop_request_ends_epoch_then_training():
    class Stop(Callback):
        def on_train_step_end(self, run_context):
            if run_context.original_args().cur_step_num == 2:
                run_context.request_stop()
    log = []
    cb = fake_train(API, [Stop()], 3, 3, loss_steps(API, LOSSES), log=log)
    assert log == [("step", 1), ("step", 2), ("epoch_end", 2)]
    assert cb.cur_epoch_num == 1


# ----------------------------------------------------------------------- params and RunContext
def test_internal_callback_param_semantics():
    cb = _InternalCallbackParam()
    cb.cur_step_num = 3
    assert cb["cur_step_num"] == 3 and cb.get("missing") is None
    with pytest.raises(KeyError):
        _ = cb.cur_epoch_num
    with pytest.raises(KeyError):
        hasattr(cb, "cur_epoch_num")
    assert isinstance(cb, dict)
    assert copy.deepcopy(cb) == {"cur_step_num": 3}
    assert pickle.loads(pickle.dumps(cb)) == {"cur_step_num": 3}
    del cb.cur_step_num
    assert cb == {}


def test_run_context():
    args = {"a": 1}
    rc = RunContext(args)
    assert rc.original_args() is args and not rc.get_stop_requested()
    rc.request_stop()
    assert rc.get_stop_requested()
    with pytest.raises(TypeError, match=r"The argument 'original_args' of RunContext should be dict type, but got "
                                        r"<class 'list'>\."):
        RunContext([1])


def test_handle_loss():
    t = ms.Tensor(np.array([1.0, 3.0], np.float32))
    assert _handle_loss(t) == 2.0 and isinstance(_handle_loss(t), float)
    first = _handle_loss((ms.Tensor(np.float32(1.5)), ms.Tensor(False)))
    assert isinstance(first, ms.Tensor) and str(first) == "1.5"
    assert _handle_loss(2.5) == 2.5 and _handle_loss("x") == "x" and _handle_loss(()) == ()


# --------------------------------------------------------------------------------- the manager
def test_manager_accepts_none_single_list_tuple():
    a, b = Callback(), Callback()
    assert _CallbackManager(None).callbacks == []
    assert _CallbackManager(a).callbacks == [a]
    assert _CallbackManager([a, b]).callbacks == [a, b]
    assert _CallbackManager((a, b)).callbacks == [a, b]


def test_manager_rejects_non_callbacks():
    with pytest.raises(TypeError, match=r"When the 'callbacks' is a list, the elements in 'callbacks' must be "
                                        r"Callback functions, but got 3 of type int\."):
        _CallbackManager([Callback(), 3])
    with pytest.raises(TypeError, match="The 'callbacks' is not a Callback or a list of Callback, but got 'x'"):
        _CallbackManager("x")


def test_manager_enters_and_exits_in_stack_order_even_on_error():
    events = []

    class Ctx(Callback):
        def __init__(self, name):
            super().__init__()
            self.name = name

        def __enter__(self):
            events.append(("enter", self.name))
            return self

        def __exit__(self, *err):
            events.append(("exit", self.name, err[0].__name__ if err[0] else None))

    with pytest.raises(RuntimeError):
        with _CallbackManager([Ctx("a"), Ctx("b")]):
            raise RuntimeError("boom")
    assert events == [("enter", "a"), ("enter", "b"), ("exit", "b", "RuntimeError"), ("exit", "a", "RuntimeError")]


def test_manager_warns_when_enter_returns_no_callback(caplog):
    class Odd(Callback):
        def __enter__(self):
            return 42

    odd = Odd()
    with caplog.at_level(logging.WARNING, logger="tfspore"):
        with _CallbackManager([odd]) as mgr:
            assert mgr.callbacks == [odd]
    assert "Please return 'self' or a Callback as the enter target." in caplog.text


def test_manager_dispatches_old_and_new_names():
    rec = Recorder()
    mgr = _CallbackManager([rec])
    for name in HOOKS:
        getattr(mgr, name)(RunContext({"cur_step_num": 0}))
    assert [c[0] for c in rec.calls] == HOOKS
    seen = []

    class Old(Callback):
        def step_end(self, run_context):
            seen.append("step_end")
    _CallbackManager([Old()]).step_end(RunContext({}))
    assert seen == ["step_end"]


def test_normalize_callbacks():
    a = Callback()
    assert _normalize_callbacks(None) == [] and _normalize_callbacks(a) == [a]
    assert _normalize_callbacks((a,)) == [a] and _normalize_callbacks([a]) == [a]


# ------------------------------------------------------------------- old-name checks and filter
class Spy(Callback):
    def step_end(self, run_context):
        pass


def test_old_names_warn_in_train_and_fail_in_fit(caplog):
    with caplog.at_level(logging.WARNING, logger="tfspore"):
        _check_old_style_callbacks([Spy()], fit=False)
    assert "For Spy callback, {'step_end'} methods may not be supported in later version" in caplog.text
    with pytest.raises(ValueError, match=r"For Spy callback, \{'step_end'\} methods may not be supported in later "
                                         r"version, Use methods prefixed with 'on_train' or 'on_eval' instead when "
                                         r"using customized callbacks\."):
        _check_old_style_callbacks([Spy()], fit=True)
    cbmod._callback._check_methods_for_custom_callbacks(Spy(), "eval")  # a warning only


def test_builtins_and_new_name_callbacks_pass_the_fit_check():
    class Fine(Callback):
        def on_train_step_end(self, run_context):
            pass

    class MyLoss(LossMonitor):  # a subclass with another name defining an old name fails, as in MindSpore
        def step_end(self, run_context):
            pass
    _check_old_style_callbacks([LossMonitor(), TimeMonitor(), History(), Fine()], fit=True)
    with pytest.raises(ValueError):
        _check_old_style_callbacks([MyLoss()], fit=True)


def test_fit_validation_keeps_only_custom_callbacks_and_time_monitor():
    class Mine(Callback):
        pass
    lm, tm, hist, lam, mine = LossMonitor(), TimeMonitor(), History(), LambdaCallback(), Mine()
    assert _eval_callbacks_in_fit([lm, tm, hist, lam, mine]) == [tm, mine]
    assert _eval_callbacks_in_fit(_CallbackManager([lm, mine])) == [mine]


# ------------------------------------------------------------------------------------ LossMonitor
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
    assert _lines(capsys) == ["epoch: 1 step: 1, loss is 1.3855382204055786",
                              "epoch: 1 step: 2, loss is 1.5140371322631836",
                              "epoch: 1 step: 3, loss is 1.4326097965240479"]


def test_loss_monitor_counts_global_steps(capsys):
    fake_train(API, [LossMonitor(2)], 3, 3, loss_steps(API, LOSSES))
    assert [line.split(",")[0] for line in _lines(capsys)] == ["epoch: 1 step: 2", "epoch: 2 step: 1",
                                                                "epoch: 2 step: 3", "epoch: 3 step: 2"]
    fake_train(API, [LossMonitor(2)], 3, 3, loss_steps(API, LOSSES), initial_epoch=1)
    assert [line.split(",")[0] for line in _lines(capsys)] == ["epoch: 2 step: 2", "epoch: 3 step: 1",
                                                                "epoch: 3 step: 3"]


def test_loss_monitor_zero_never_prints_but_checks_nan(capsys):
    fake_train(API, [LossMonitor(0)], 2, 3, loss_steps(API, LOSSES))
    assert _lines(capsys) == []
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
    assert _lines(capsys) == ["epoch: 1 step: 1, loss is 1.3855382", "epoch: 1 step: 2, loss is inf"]


def test_loss_monitor_vector_loss_prints_mean(capsys):
    fake_train(API, [LossMonitor()], 1, 1, lambda cb: ms.Tensor(np.array([1.0, 2.0], np.float32)))
    assert _lines(capsys) == ["epoch: 1 step: 1, loss is 1.5"]


def test_loss_monitor_prints_fit_metrics_and_runs_in_eval(capsys):
    valid = {"steps": 2, "frequency": 2, "metrics": {"acc": np.float64(1 / 3), "loss": np.float64(1.0457732677459717)}}
    fake_train(API, [LossMonitor(3)], 2, 3, loss_steps(API, LOSSES), valid=valid)
    assert _lines(capsys) == ["epoch: 1 step: 3, loss is 1.4326097965240479",
                              "epoch: 2 step: 3, loss is 1.4326097965240479",
                              "Eval result: epoch 2, metrics: {'acc': 0.3333333333333333, 'loss': 1.0457732677459717}"]
    model_eval(API, [LossMonitor()], 2, lambda cb: ms.Tensor(np.float32(0.5)), {"acc": 1.0})
    assert _lines(capsys) == ["epoch: 1 step: 1, loss is 0.5", "epoch: 1 step: 2, loss is 0.5"]


def test_loss_monitor_rollback_and_sink(capsys):
    lm = LossMonitor(2)
    lm._last_print_time = 10  # e.g. after a fault-recovery rollback
    fake_train(API, [lm], 1, 3, loss_steps(API, LOSSES))
    assert [line.split(",")[0] for line in _lines(capsys)] == ["epoch: 1 step: 2"]
    fake_train(API, [LossMonitor()], 2, 4, loss_steps(API, LOSSES), sink_size=4)
    assert [line.split(",")[0] for line in _lines(capsys)] == ["epoch: 1 step: 4", "epoch: 2 step: 4"]


# ------------------------------------------------------------------------------------ TimeMonitor
TIME_LINE = r"(Train|Eval) epoch time: \d+\.\d{3} ms, per step time: \d+\.\d{3} ms"


def test_time_monitor_lines(capsys):
    fake_train(API, [TimeMonitor()], 2, 3, loss_steps(API, LOSSES), valid={"steps": 2, "metrics": {"acc": 1.0}})
    lines = _lines(capsys)
    assert len(lines) == 4 and all(re.fullmatch(TIME_LINE, line) for line in lines)
    assert [line.split()[0] for line in lines] == ["Eval", "Train", "Eval", "Train"]
    model_eval(API, [TimeMonitor()], 2, lambda cb: ms.Tensor(np.float32(0.5)), {})
    assert re.fullmatch(r"Eval epoch time: \d+\.\d{3} ms, per step time: \d+\.\d{3} ms", _lines(capsys)[0])


def test_time_monitor_data_time(capsys):
    fake_train(API, [TimeMonitor(data_time=True)], 1, 3, loss_steps(API, LOSSES))
    assert re.fullmatch(TIME_LINE + r" \(data time: \d+\.\d{3} ms\)", _lines(capsys)[0])


def test_time_monitor_per_step_uses_batch_num(capsys, monkeypatch):
    tm = TimeMonitor()
    times = iter([100.0, 100.3])
    monkeypatch.setattr(cbmod._time_monitor, "time", types.SimpleNamespace(time=lambda: next(times)))
    cb = _InternalCallbackParam(mode="train", batch_num=3)
    tm.epoch_begin(RunContext(cb))
    tm.epoch_end(RunContext(cb))
    assert _lines(capsys) == ["Train epoch time: 300.000 ms, per step time: 100.000 ms"]


def test_time_monitor_data_size_and_validation(capsys):
    with pytest.raises(TypeError, match=re.escape("For 'TimeMonitor', the 'data_time' must be a bool, but got 1 of "
                                                  "type int.")):
        TimeMonitor(data_time=1)
    TimeMonitor(data_size=0), TimeMonitor(data_size=-1), TimeMonitor(data_size=1.5)  # not checked here
    tm = TimeMonitor(data_size=4)
    cb = _InternalCallbackParam(mode="eval")
    tm.epoch_begin(RunContext(cb))
    tm.epoch_end(RunContext(cb))
    assert _lines(capsys)[0].startswith("Eval epoch time:")
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
    lines = _lines(capsys)
    assert lines[0].endswith(" (data time: 2.500 ms)") and re.fullmatch(TIME_LINE, lines[1])


# ---------------------------------------------------------------------------------------- History
def test_history_train_and_fit():
    hist = History()
    fake_train(API, [hist], 2, 3, loss_steps(API, LOSSES))
    assert hist.epoch == {"epoch": [1, 2]}
    assert hist.history["net_output"] == [np.float32(LOSSES[2])] * 2
    assert isinstance(hist.history["net_output"][0], np.float32)
    hist2 = History()
    fake_train(API, [hist2], 2, 3, loss_steps(API, LOSSES), valid={"steps": 1, "metrics": {"acc": 0.5}})
    assert hist2.history == {"net_output": [np.float32(LOSSES[2])] * 2, "acc": [0.5, 0.5]}


def test_history_tuple_output_and_eval():
    hist = History()
    fake_train(API, [hist], 1, 1, lambda cb: (ms.Tensor(np.array([1.0, 3.0], np.float32)), 1))
    assert hist.history["net_output"] == [2.0]
    model_eval(API, [hist], 1, lambda cb: ms.Tensor(np.float32(0.25)), {"acc": 1.0})
    assert hist.epoch == {"epoch": [1]} and "acc" not in hist.history  # eval metrics come after epoch_end


# --------------------------------------------------------------------------------- LambdaCallback
def test_lambda_callback_all_hooks_and_fit_filtering():
    seen = []
    kwargs = {name: (lambda rc, _n=name: seen.append(_n)) for name in HOOKS}
    lam = LambdaCallback(**kwargs)
    fake_train(API, [lam], 1, 1, loss_steps(API, LOSSES), valid={"steps": 1, "metrics": {"acc": 1.0}})
    assert seen == ["on_train_begin", "on_train_epoch_begin", "on_train_step_begin", "on_train_step_end",
                    "on_train_epoch_end", "on_train_end"]  # filtered out of fit's validation
    seen.clear()
    model_eval(API, [lam], 1, lambda cb: 0.5, {})
    assert seen == ["on_eval_begin", "on_eval_epoch_begin", "on_eval_step_begin", "on_eval_step_end",
                    "on_eval_epoch_end", "on_eval_end"]


def test_lambda_callback_old_keywords():
    seen = []
    lam = LambdaCallback(epoch_end=lambda rc: seen.append(rc.original_args().get("mode")))
    fake_train(API, [lam], 2, 1, loss_steps(API, LOSSES))
    model_eval(API, [lam], 1, lambda cb: 0.5, {})
    assert seen == ["train", "train", "eval"]
    with pytest.raises(TypeError, match="unexpected keyword argument 'foo'"):
        LambdaCallback(foo=print)


# -------------------------------------------------------------------------- LearningRateScheduler
def test_learning_rate_scheduler():
    net, opt = _net_and_opt(0.1)
    calls = []

    def fn(lr, step):
        calls.append((lr, step))
        return lr * 0.5 if step % 2 == 0 else lr
    fake_train(API, [LearningRateScheduler(fn)], 1, 3, loss_steps(API, LOSSES), optimizer=opt)
    assert calls == [(0.1, 1), (0.1, 2), (0.05, 3)]
    assert float(opt.learning_rate.asnumpy()) == pytest.approx(0.05)
    model_eval(API, [LearningRateScheduler(fn)], 1, lambda cb: 0.5, {})  # nothing to do in eval


# ---------------------------------------------------------------------------------- EarlyStopping
def _epoch_losses(values):
    """A step function whose loss is values[epoch - 1] on every step."""
    return lambda cb: ms.Tensor(np.float32(values[cb.cur_epoch_num - 1]))


def test_early_stopping_default_patience_waits_for_no_improvement(capsys):
    es = EarlyStopping(monitor="loss", verbose=True)
    log = []
    fake_train(API, [es], 5, 1, _epoch_losses([3.0, 2.0, 2.5, 1.0, 0.5]), log=log)
    assert [s for s in log if s[0] == "epoch_end"] == [("epoch_end", 1), ("epoch_end", 2), ("epoch_end", 3)]
    assert es.stopped_epoch == 3
    assert _lines(capsys) == ["Epoch 00003: early stopping"]


def test_early_stopping_patience_and_min_delta():
    es = EarlyStopping(monitor="loss", patience=2, min_delta=-0.5)
    assert es.min_delta == 0.5
    cb = fake_train(API, [es], 6, 1, _epoch_losses([3.0, 2.8, 2.7, 2.6, 1.0, 0.5]))
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
    cb = fake_train(API, [es], 3, 1, _epoch_losses([0.0, 0.0, 0.0]))
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
    cb = fake_train(API, [es], 5, 1, _epoch_losses([3.0, 2.0, 0.5, 0.4, 0.3]))
    assert cb.cur_epoch_num == 1  # improved, but never past the baseline: patience ran out
    es0 = EarlyStopping(monitor="loss", baseline=0)
    assert es0.baseline == 0


def test_early_stopping_restores_best_weights(capsys):
    net, _ = _net_and_opt()
    weight = net.weight

    def step(cb):
        weight.assign_value(np.full(weight.shape, cb.cur_epoch_num, np.float32))
        return ms.Tensor(np.float32([2.0, 1.0, 1.5, 1.6][cb.cur_epoch_num - 1]))
    es = EarlyStopping(monitor="loss", restore_best_weights=True, verbose=True)
    fake_train(API, [es], 4, 1, step, train_network=net)
    assert np.all(weight.asnumpy() == 2.0)
    assert _lines(capsys) == ["Restoring model weights from the end of the best epoch.", "Epoch 00003: early stopping"]


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


# ------------------------------------------------------------------------------ ReduceLROnPlateau
def test_reduce_lr_on_plateau_prints_and_reduces(capsys):
    _, opt = _net_and_opt(0.5)
    cb_ = ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0, verbose=True, min_delta=0.0)
    fake_train(API, [cb_], 3, 1, _epoch_losses([1.0, 1.0, 1.0]), optimizer=opt)
    assert _lines(capsys) == ["Epoch 00002: ReduceLROnPlateau reducing learning rate to 0.25.",
                              "Epoch 00003: ReduceLROnPlateau reducing learning rate to 0.125."]
    assert float(opt.learning_rate.asnumpy()) == 0.125


def test_reduce_lr_on_plateau_cooldown_and_min_lr(capsys):
    _, opt = _net_and_opt(0.1)
    cb_ = ReduceLROnPlateau(monitor="loss", factor=0.1, patience=1, cooldown=1, min_lr=0.005, verbose=True)
    fake_train(API, [cb_], 6, 1, _epoch_losses([1.0] * 6), optimizer=opt)
    assert _lines(capsys) == ["Epoch 00002: ReduceLROnPlateau reducing learning rate to 0.010000001.",
                              "Epoch 00003: ReduceLROnPlateau reducing learning rate to 0.005."]
    assert float(opt.learning_rate.asnumpy()) == pytest.approx(0.005)


def test_reduce_lr_on_plateau_errors():
    with pytest.raises(ValueError, match=re.escape("the 'factor' must be a float in range (0.0, 1.0), but got 1.5.")):
        ReduceLROnPlateau(factor=1.5)
    with pytest.raises(TypeError, match="the 'factor' must be a float in range .*, but got 1 of type int"):
        ReduceLROnPlateau(factor=1)
    with pytest.raises(TypeError, match="For 'ReduceLROnPlateau', the 'min_lr' must be float or int, but got '0'"):
        ReduceLROnPlateau(min_lr="0")
    net = nn.Dense(4, 3)
    opt = nn.Momentum(net.trainable_params(), ms.Tensor(np.array([0.1, 0.05], np.float32)), 0.9)
    with pytest.raises(ValueError, match="ReduceLROnPlateau does not support dynamic learning rate"):
        fake_train(API, [ReduceLROnPlateau(monitor="loss")], 1, 1, loss_steps(API, LOSSES), optimizer=opt)


# ---------------------------------------------------------------------------------- OnRequestExit
def test_on_request_exit_signal_saves_and_stops(tmp_path):
    net, opt = _net_and_opt()
    tn = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    cb_ = OnRequestExit(file_name="Net", directory=str(tmp_path))
    before = signal.getsignal(signal.SIGTERM)

    def step(cb):
        if cb.cur_step_num == 2:
            os.kill(os.getpid(), signal.SIGTERM)
        return ms.Tensor(np.float32(1.0))
    log = []
    fake_train(API, [cb_], 3, 3, step, train_network=tn, optimizer=opt, log=log)
    assert log == [("step", 1), ("step", 2), ("epoch_end", 2)]
    path = tmp_path / "rank_0" / "Net_train.ckpt"
    loaded = ms.load_checkpoint(str(path))
    assert int(loaded["step_num"].asnumpy()) == 2 and int(loaded["epoch_num"].asnumpy()) == 1
    assert int(loaded["batch_num"].asnumpy()) == 3 and "global_step" in loaded and "moments.weight" in loaded
    assert signal.getsignal(signal.SIGTERM) == before
    # the next run resumes from the saved checkpoint
    net.weight.assign_value(np.zeros(net.weight.shape, np.float32))
    fake_train(API, [OnRequestExit(directory=str(tmp_path))], 1, 1, lambda cb: 1.0, train_network=tn)
    np.testing.assert_array_equal(net.weight.asnumpy(), loaded["weight"].asnumpy())


def test_on_request_exit_config_file_and_eval(tmp_path):
    net, opt = _net_and_opt()
    config = tmp_path / "exit.json"
    cb_ = OnRequestExit(directory=str(tmp_path), config_file=str(config), save_mindir=False)

    def step(cb):
        if cb.cur_step_num == 1:
            config.write_text(json.dumps({"GracefulExit": 1}))
        return 1.0
    cb = fake_train(API, [cb_], 2, 3, step, train_network=net)
    assert cb.cur_step_num == 2 and (tmp_path / "rank_0" / "Net_train.ckpt").exists()
    ev = OnRequestExit(directory=str(tmp_path))
    ev.exit = True
    cb = model_eval(API, [ev], 3, lambda cb: 0.5, {}, network=net)
    assert cb.cur_step_num == 1 and (tmp_path / "rank_0" / "Net_eval.ckpt").exists()


def test_on_request_exit_validation(tmp_path):
    with pytest.raises(ValueError, match="For 'OnRequestExit', the 'save_ckpt' must be bool, but got 1 of type int."):
        OnRequestExit(save_ckpt=1, directory=str(tmp_path))
    with pytest.raises(ValueError, match="Not support send exit request by signal SIGKILL"):
        OnRequestExit(sig=signal.SIGKILL, directory=str(tmp_path))


# ------------------------------------------------------------------------------- BackupAndRestore
def test_backup_and_restore(tmp_path):
    net, _ = _net_and_opt()
    seen = []

    class Probe(Callback):
        def on_train_epoch_end(self, run_context):
            seen.append(os.path.exists(tmp_path / "backup.ckpt"))
    fake_train(API, [BackupAndRestore(str(tmp_path)), Probe()], 2, 1, lambda cb: 1.0, train_network=net)
    assert seen == [True, True] and not (tmp_path / "backup.ckpt").exists()

    keep = BackupAndRestore(str(tmp_path), save_freq=2, delete_checkpoint=False)
    fake_train(API, [keep], 2, 1, lambda cb: 1.0, train_network=net)
    saved = net.weight.asnumpy().copy()
    net.weight.assign_value(np.zeros(net.weight.shape, np.float32))
    fake_train(API, [keep], 1, 1, lambda cb: 1.0, train_network=net)  # epoch 1: restored, not re-saved
    np.testing.assert_array_equal(net.weight.asnumpy(), saved)
    with pytest.raises(ValueError, match="For 'BackupAndRestore', the 'save_freq' must be a positive int, but got 0."):
        BackupAndRestore(str(tmp_path), save_freq=0)
    with pytest.raises(TypeError, match="must be a bool"):
        BackupAndRestore(str(tmp_path), delete_checkpoint="yes")


# -------------------------------------------------------------------------------------- exports
def test_public_names_resolve():
    import tfspore.train as train
    for name in ("Callback", "LossMonitor", "TimeMonitor", "ModelCheckpoint", "CheckpointConfig", "RunContext",
                 "LearningRateScheduler", "History", "LambdaCallback", "ReduceLROnPlateau", "EarlyStopping",
                 "OnRequestExit", "BackupAndRestore"):
        assert getattr(ms, name) is getattr(train, name) is getattr(cbmod, name)


# ------------------------------------------------------------------- end to end with Model.train
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
    lines = _lines(capsys)
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
    lines = _lines(capsys)
    assert re.fullmatch(r"Eval result: epoch 1, metrics: \{'acc': [0-9.]+\}", lines[2])
    assert [line.split()[0] for line in lines if "epoch time" in line] == ["Eval", "Train", "Eval", "Train"]
    assert lam_seen == []  # LambdaCallback is left out of fit's validation
    with pytest.raises(ValueError, match="For Spy callback"):
        model.fit(1, data, data, callbacks=[Spy()])
    model.eval(data, callbacks=[LossMonitor()])
    assert [line.split(",")[0] for line in _lines(capsys)] == ["epoch: 1 step: 1", "epoch: 1 step: 2",
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
