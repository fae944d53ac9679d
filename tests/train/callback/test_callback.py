"""The callback manager (stack order, dispatch of old and new hook names), the old-name checks, fit's eval filter
and the public names."""
import logging

import pytest

import tfspore as ms
from tfspore.train import callback as cbmod
from tfspore.train.callback import Callback, History, LambdaCallback, LossMonitor, RunContext, TimeMonitor
from tfspore.train.callback._callback import (_CallbackManager, _eval_callbacks_in_fit, _normalize_callbacks,
                                              _check_old_style_callbacks)

from tests.train.callback._common import HOOKS, Recorder, Spy


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


# -------------------------------------------------------------------------------------- exports
def test_public_names_resolve():
    import tfspore.train as train
    for name in ("Callback", "LossMonitor", "TimeMonitor", "ModelCheckpoint", "CheckpointConfig", "RunContext",
                 "LearningRateScheduler", "History", "LambdaCallback", "ReduceLROnPlateau", "EarlyStopping",
                 "OnRequestExit", "BackupAndRestore"):
        assert getattr(ms, name) is getattr(train, name) is getattr(cbmod, name)
