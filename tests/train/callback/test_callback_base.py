"""Callback's hooks and context manager, the call order of a training loop, RunContext, _InternalCallbackParam
and loss handling."""
import copy
import pickle

import numpy as np
import pytest

import tfspore as ms
from tfspore.train.callback import Callback, RunContext
from tfspore.train.callback._callback_base import _InternalCallbackParam, _handle_loss

from tests.train.callback_loop import fake_train, loss_steps
from tests.train.callback._common import API, HOOKS, LOSSES, Recorder


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
